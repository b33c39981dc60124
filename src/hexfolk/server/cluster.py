"""Many server processes as one site (``docs/server.md``, "Many processes"): started when
``hexfolk serve`` is given ``--redis``. It wires the leases (:mod:`.leases`, in PostgreSQL) into
the store's fence and the room manager, and the relay (:mod:`.relay`, through Redis) into the
socket endpoint and the HTTP routes of a table: a request about a table another live process
owns is answered by that process. With one process none of this exists.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from fastapi import FastAPI, Request, Response

from hexfolk.server.analyses import Analyses
from hexfolk.server.errors import ApiError
from hexfolk.server.leases import LeaseBook, NotOwner, process_id
from hexfolk.server.lobby import Services
from hexfolk.server.protocol import CLOSE_MOVED
from hexfolk.server.relay import Message, Relay, RemoteSocket
from hexfolk.server.sockets import serve_socket

log = logging.getLogger("hexfolk.server.cluster")

TABLE_PATH = re.compile(r"^/api/tables/([A-Za-z0-9_-]{1,32})(/.*)?$")
"""The HTTP routes of one table (``/api/tables/open`` and ``/live`` are listings, not tables)."""
RELAYED = "x-hexfolk-relayed"
"""Header of a request relayed from another process: answered here, never relayed again."""
KEPT_HEADERS = ("authorization", "content-type", "accept")
WATCH_SECONDS = 1.0
"""How often the owners of piped sockets are checked for life (a read of the live processes)."""


class Cluster:
    """This process as one of many: its id, leases and relay."""

    def __init__(self, app: FastAPI, svc: Services):
        cfg = svc.config
        assert cfg.redis_url is not None
        self.app, self.svc = app, svc
        self.me = process_id()
        self.leases = LeaseBook(svc.store.engine, self.me, cfg.lease_seconds)
        svc.store.fence = self.leases.fence
        svc.manager.leases = self.leases
        metrics = getattr(app.state, "metrics", None)
        if metrics is not None:  # GET /metrics counts renewals and takeovers
            self.leases.on_renewed = metrics.lease_renewals.inc
            svc.manager.on_takeover = metrics.takeovers.inc
        self.relay = Relay(cfg.redis_url, cfg.redis_prefix, self.me, self._serve, self._answer)
        self._watch: asyncio.Task[None] | None = None
        self._analyses: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Register this process, listen on its Redis channel, watch the piped owners."""
        await self.leases.register()
        self.relay.start()
        try:
            await asyncio.wait_for(self.relay.up.wait(), 10)
        except TimeoutError:
            log.warning("relay: Redis not reachable at start; tables owned elsewhere wait for it")
        self._watch = asyncio.get_running_loop().create_task(self._watch_owners())
        log.info("process %s: one of many (lease %.1f s)", self.me, self.leases.lease_seconds)

    def watch_analyses(self, analyses: Analyses) -> None:
        """The post-game analyses as one of many processes: each change reaches the process
        holding the table's connections (the relay's ``push``), and the unfinished analyses of
        a process that died are taken (each by one process) every lease length."""
        analyses.me = self.me  # the claims name this process as the leases do
        self.relay.on_push = analyses.tell_here
        analyses.push_elsewhere = self._push_to_owner

        async def live() -> set[str]:
            return set(await self.leases.live_processes())

        watch = analyses.watch(live, self.leases.lease_seconds)
        self._analyses = asyncio.get_running_loop().create_task(watch)

    async def _push_to_owner(self, table_id: str, msg: Message) -> None:
        owner = await self.leases.owner_of(table_id)
        if owner is not None and owner != self.me:
            await self.relay.publish(owner, {"k": "push", "t": table_id, "d": msg})

    async def close(self) -> None:
        if self._analyses is not None:
            self._analyses.cancel()
        if self._watch is not None:
            self._watch.cancel()
        await self.relay.close()

    async def owner_for(self, table_id: str) -> str | None:
        """The other process owning ``table_id``, or None when this one serves it (its room is
        here or its lease was just taken; an unknown table is answered here too)."""
        if table_id in self.svc.manager.rooms:
            return None
        try:
            await self.svc.manager.room(table_id)
        except NotOwner as other:
            return other.owner
        except ApiError:
            return None
        return None

    async def _serve(self, sock: RemoteSocket, table_id: str) -> None:
        sock.app = self.app
        await serve_socket(sock, self.svc, table_id)

    async def _answer(self, msg: Message) -> Message:
        """Answer a relayed HTTP request with this process's own app."""
        headers = {k: v for k, v in msg.get("headers", {}).items() if k in KEPT_HEADERS}
        headers[RELAYED] = "1"
        transport = httpx.ASGITransport(app=self.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://relayed") as client:
            resp = await client.request(
                msg["method"],
                msg["path"],
                params=msg.get("query") or None,
                headers=headers,
                content=base64.b64decode(msg.get("body", "")),
            )
        kept = {k: v for k, v in resp.headers.items() if k.lower() in ("content-type",)}
        body = base64.b64encode(resp.content).decode()
        return {"status": resp.status_code, "headers": kept, "body": body}

    async def _watch_owners(self) -> None:
        """Every second (:data:`WATCH_SECONDS`): close the piped sockets of owners no longer
        alive (their clients reconnect, and land where the table's lease goes next)."""
        while True:
            await asyncio.sleep(min(WATCH_SECONDS, self.leases.renew_seconds))
            owners = self.relay.pipe_owners()
            if not owners:
                continue
            try:
                live = await self.leases.live_processes()
            except Exception:
                log.exception("cannot read the live processes")
                continue
            gone = owners - set(live)
            if gone:
                n = self.relay.close_pipes(
                    gone.__contains__, CLOSE_MOVED, "the table's server is gone; reconnect"
                )
                log.warning("processes %s are gone: %d piped sockets closed", sorted(gone), n)


def install(app: FastAPI) -> None:
    """The middleware that relays a table's HTTP request to its owner (when one is set up)."""

    @app.middleware("http")
    async def _to_owner(request: Request, call_next: Callable[[Request], Awaitable[Any]]) -> Any:
        cluster: Cluster | None = getattr(app.state, "cluster", None)
        match = TABLE_PATH.match(request.url.path)
        if (
            cluster is None
            or match is None
            or match.group(1) in ("open", "live")
            or request.headers.get(RELAYED)
            or match.group(1) in cluster.svc.manager.rooms
        ):
            return await call_next(request)
        owner = await cluster.leases.owner_of(match.group(1))
        if owner is None:
            return await call_next(request)
        body = await request.body()
        relayed = {
            "method": request.method,
            "path": request.url.path,
            "query": str(request.url.query),
            "headers": {k: v for k, v in request.headers.items() if k in KEPT_HEADERS},
            "body": base64.b64encode(body).decode(),
        }
        try:
            reply = await cluster.relay.http(owner, relayed)
        except (ConnectionError, TimeoutError) as exc:
            log.warning("table %s: relaying %s failed: %s", match.group(1), request.url.path, exc)
            err = ApiError("moved", "the table's server cannot be reached; try again", 503)
            return Response(
                content=f'{{"error": {{"code": "{err.code}", "message": "{err.message}"}}}}',
                status_code=503,
                media_type="application/json",
                headers={"Retry-After": "1"},
            )
        return Response(
            content=base64.b64decode(reply.get("body", "")),
            status_code=int(reply["status"]),
            headers=reply.get("headers") or {},
        )
