"""The FastAPI application: ``create_app(config)`` wires the store, the rooms and the routes.

At start it migrates the database (Alembic, programmatically), sets every game up once (so
the first table of a game does not stall the event loop while its engine loads), recovers every
unfinished table and starts the heartbeat; at shutdown it stops the rooms and writes a last
heartbeat.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from hexfolk import __version__
from hexfolk.analysis import Budget
from hexfolk.core import game_ids, load_game
from hexfolk.server import (
    accounts_api,
    analysis_api,
    geometry,
    health,
    lobby,
    maps_api,
    passwords,
    plays,
    profiles_api,
    quiet_frames,
    ratings_api,
    sockets,
)
from hexfolk.server.access_log import AccessLog
from hexfolk.server.analyses import Analyses
from hexfolk.server.body_limit import BodyLimit
from hexfolk.server.botpool import BotPool
from hexfolk.server.config import ServerConfig
from hexfolk.server.errors import ApiError
from hexfolk.server.leases import process_id
from hexfolk.server.limits import BODY_MAX
from hexfolk.server.lobby import Services, error_response
from hexfolk.server.manager import RoomManager
from hexfolk.server.metrics import CONTENT_TYPE, Metrics
from hexfolk.server.rated_games import RatedGames
from hexfolk.server.rating_book import RatingBook
from hexfolk.server.session_sockets import SessionSockets
from hexfolk.server.store import Store
from hexfolk.server.trace import TRACE
from hexfolk.server.web_files import WebFiles
from hexfolk.web import WEB_DIR

log = logging.getLogger("hexfolk.server")
INDEX = WEB_DIR / "index.html"
"""The browser client's page (``hexfolk.web``), served at ``/``; its files at ``/app``."""


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request body is not valid"


def warm_engines() -> None:
    """Load every game once, with its first position and views: the engines' modules, data and
    memos (about 0.3 s for the island game and 0.5 s for Scythe on this machine), which the
    first table of each game would otherwise load on the event loop, stalling every table."""
    for game_id in game_ids():
        try:
            state = load_game(game_id).new_initial_state()
            state.observation(None)
        except Exception:  # a game that cannot be set up says so when a table asks for it
            log.exception("game %s could not be set up at start", game_id)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The ASGI application of one server process."""
    cfg = config or ServerConfig()
    sockets.watch_bad_frames()
    quiet_frames.install()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await Store.open(cfg.resolved_db_url(), sqlite_synchronous=cfg.sqlite_synchronous)
        passwords.warm_in_background()
        warm_engines()
        manager = RoomManager(store, BotPool(cfg.bot_workers), cfg.action_rate)
        manager.game_end.add(plays.record_hook(store))  # profiles and karma (docs/profiles.md)
        catching_up = plays.start_catch_up(store)
        app.state.services = Services(store, manager, cfg)
        app.state.rated = rated = RatedGames(RatingBook(store))
        manager.game_end.add(rated.finished)  # docs/ratings.md: run by a table's owner only
        pool = manager.pool
        metrics.watch(lambda: len(manager.rooms), lambda: (pool.decisions, pool.failures))
        # after every game its analysis, in the bot pool's low-priority lane (issue 29)
        analyses = Analyses(store, manager, process_id(), Budget.parse(cfg.analysis_budget))
        app.state.analyses = analyses
        manager.game_end.add(analyses.game_ended)
        metrics.watch_analyses(lambda: (analyses.ready, analyses.failures, analyses.queue.qsize()))
        redis_url = getattr(cfg, "redis_url", None)
        if redis_url:
            app.state.health_redis = health.redis_client(redis_url)
        if cfg.redis_url is not None:  # one of many processes (docs/server.md)
            from hexfolk.server.cluster import Cluster

            app.state.cluster = Cluster(app, app.state.services)
            await app.state.cluster.start()
        count = await manager.recover()
        caught = await rated.catch_up()  # rated games a stopped process left unrated
        manager.start_heartbeat()
        analyses.start()
        if app.state.cluster is None:
            await analyses.recover()
        else:
            app.state.cluster.watch_analyses(analyses)
        sweep = asyncio.get_running_loop().create_task(app.state.session_sockets.run(store))
        TRACE.start()
        log.info(
            "hexfolk server ready (%d unfinished tables recovered, %d finished games rated)",
            count,
            caught,
        )
        try:
            yield
        finally:
            catching_up.cancel()
            sweep.cancel()
            TRACE.dump()
            await analyses.close()
            await manager.close()
            if app.state.cluster is not None:
                await app.state.cluster.close()
            await store.close()
            if app.state.health_redis is not None:
                await app.state.health_redis.aclose()

    app = FastAPI(
        title="Hexfolk table server",
        version=__version__,
        description="Lobby, identities and finished games over HTTP; the game itself over "
        "the WebSocket /ws/tables/{id} (see docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.metrics = metrics
    app.state.attempts = accounts_api.attempts_for(cfg)
    app.state.session_sockets = SessionSockets()
    app.state.health_redis = None

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(ApiError("bad_request", _validation_message(exc), 422))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "http_error"
        return error_response(ApiError(code, str(exc.detail), exc.status_code))

    @app.exception_handler(Exception)
    async def _crash(_: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error")
        return error_response(ApiError("internal", "internal server error", 500))

    app.add_middleware(AccessLog)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(INDEX, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @app.get("/healthz", tags=["server"])
    async def healthz() -> JSONResponse:
        """Readiness for a load balancer (:mod:`.health`): 200 ``{"ok": true, ...}`` only when
        this process reaches its database and, when configured, Redis; else 503 with
        ``"ok": false`` and ``reasons``. It names the process (``process``: host:pid, ``pid``)
        and counts its rooms and the bot decisions this process asked of its bots and how
        many of them failed (each logged with its traceback and replaced by the clock's
        default; a healthy server has ``bot_failures`` 0)."""
        svc: Services = app.state.services
        pool = svc.manager.pool
        reasons = [await health.database_problem(svc.store)]
        if app.state.health_redis is not None:
            reasons.append(await health.redis_problem(app.state.health_redis))
        problems = [r for r in reasons if r is not None]
        body = {
            "ok": not problems,
            "process": health.process_id(),
            "pid": os.getpid(),
            "rooms": len(svc.manager.rooms),
            "version": __version__,
            "bot_decisions": pool.decisions,
            "bot_failures": pool.failures,
            "redis": app.state.health_redis is not None,
        }
        if problems:
            body["reasons"] = problems
        return JSONResponse(body, status_code=503 if problems else 200)

    @app.get("/metrics", tags=["server"])
    async def prometheus() -> Response:
        """This process's metrics in the Prometheus text format (:mod:`.metrics`)."""
        return Response(metrics.text(), media_type=CONTENT_TYPE)

    app.state.cluster = None
    if cfg.redis_url is not None:
        from hexfolk.server.cluster import install

        install(app)

    # outermost but for Starlette's error middleware: no route ever reads a body over the limit
    app.add_middleware(BodyLimit, limit=BODY_MAX)

    app.include_router(lobby.router)
    app.include_router(profiles_api.router)
    app.include_router(analysis_api.router)
    app.include_router(accounts_api.router)
    app.include_router(geometry.router)
    app.include_router(maps_api.router)
    app.include_router(ratings_api.router)
    app.mount("/app", WebFiles(directory=WEB_DIR), name="web")
    app.include_router(sockets.router)
    return app
