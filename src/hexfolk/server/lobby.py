"""The HTTP JSON API: identities, the lobby, finished games (``/api/...``).

Every request but ``POST /api/players`` and the public reads proves itself with
``Authorization: Bearer <token>``. Errors are ``{"error": {"code": ..., "message": ...}}``.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from hexfolk.bots.registry import LEVELS
from hexfolk.core import HexfolkError, OptionError, game_class, game_ids
from hexfolk.ratings import FAMILIES, UnratedGame, family_of
from hexfolk.server import seats
from hexfolk.server.accounts import authenticate
from hexfolk.server.chat import LIVE, line_json
from hexfolk.server.config import ServerConfig
from hexfolk.server.errors import ApiError, forbidden, not_found
from hexfolk.server.identity import bearer_token, hash_token, new_id, new_token, validate_name
from hexfolk.server.karma import check_min_karma, require_karma_of, with_karma
from hexfolk.server.limits import (
    BOT_DELAY_MAX,
    CLOCK_PRESETS,
    COMMIT_CLOCK_DEFAULT,
    COMMIT_CLOCK_PRESETS,
    GRACE_RANGE,
    TABLES_PER_PLAYER,
)
from hexfolk.server.manager import RoomManager
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.rated_games import accounts_among, accounts_only, guest_refused
from hexfolk.server.records import build_record, replay_steps, statistics
from hexfolk.server.room import Room
from hexfolk.server.schemas import (
    Disconnect,
    FillBots,
    JoinSeat,
    Kick,
    NewPlayer,
    NewTable,
    SeatChange,
    TableChanges,
)
from hexfolk.server.seats import Seat, require_host, seats_of, store_seats, table_json
from hexfolk.server.store import Store
from hexfolk.server.turn_times import turn_times
from hexfolk.server.undo import live_events

log = logging.getLogger("hexfolk.server")

router = APIRouter(prefix="/api")

SEED_MAX = 2**63 - 1
REPLAY_PAGE_MAX = 200


@dataclass
class Services:
    store: Store
    manager: RoomManager
    config: ServerConfig


def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


Svc = Annotated[Services, Depends(services)]


async def current_player(
    svc: Svc, authorization: Annotated[str | None, Header()] = None
) -> PlayerRow:
    """The player whose token the request carries (401 ``no_token`` / ``bad_token``)."""
    return (await authenticate(svc.store, bearer_token(authorization))).player


Me = Annotated[PlayerRow, Depends(current_player)]


# --- settings ---------------------------------------------------------------------------------
def check_game(game: str, players: int | None, options: dict[str, Any]) -> tuple[int, dict]:
    """Validate with the game's own option specs; the game's sentence is the error."""
    try:
        cls = game_class(game)
    except HexfolkError as exc:
        raise ApiError("unknown_game", str(exc), 422) from None
    try:
        built = cls(players, options)
    except OptionError as exc:
        # the problems as data too, where the game gives them (docs/protocol.md)
        extra = {"reasons": exc.reasons} if exc.reasons else {}
        raise ApiError("bad_option", str(exc), 422, **extra) from None
    return built.num_players, dict(built.options)


def check_clock(
    value: object,
    config: ServerConfig,
    presets: tuple[int, ...] = CLOCK_PRESETS,
    what: str = "turn clock",
) -> float | None:
    """A clock setting: one of ``presets`` (seconds), or null / ``"unlimited"`` (None). Any
    other value is refused with the list of presets (code ``bad_clock``). A ``--testing``
    server also takes 0.05..3600 s."""
    if value is None or value == "unlimited":
        return None
    choices = ", ".join(map(str, presets))
    refusal = ApiError(
        "bad_clock",
        f'the {what} is one of {choices} seconds, or "unlimited" (null); not {value!r}',
        422,
        presets=list(presets),
    )
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise refusal
    if not math.isfinite(value):
        raise refusal
    if config.testing and 0.05 <= value <= 3600:
        return float(value)
    if value not in presets:
        raise refusal
    return float(value)


def check_commit_clock(value: object, config: ServerConfig) -> float | None:
    """The commitment clock (a secret combat commitment): :data:`COMMIT_CLOCK_PRESETS`."""
    return check_clock(value, config, COMMIT_CLOCK_PRESETS, "commitment clock")


def check_disconnect(d: Disconnect, config: ServerConfig) -> tuple[str, float]:
    low, high = GRACE_RANGE
    grace = float(d.grace)
    if config.testing:
        low = 0.05
    if not (math.isfinite(grace) and low <= grace <= high):
        raise ApiError("bad_grace", f"the grace period is {low:g}..{high:g} seconds", 422)
    return d.policy, grace


def check_bot_delay(value: float) -> float:
    delay = float(value)
    if not (math.isfinite(delay) and 0 <= delay <= BOT_DELAY_MAX):
        raise ApiError("bad_bot_delay", f"the bot delay is 0..{BOT_DELAY_MAX:g} seconds", 422)
    return delay


def check_level(level: str | None) -> str:
    if level is None:
        raise ApiError("bad_seat", f"a bot seat needs a level: {', '.join(LEVELS)} or random", 422)
    return level


def check_rated(game: str, players: int) -> None:
    """A rated table is of a game and player count with a rating family (``unrated_game``)."""
    try:
        family_of(game, players)
    except UnratedGame as exc:
        raise ApiError("unrated_game", str(exc), 422) from None


# --- identity ---------------------------------------------------------------------------------
@router.post("/players", status_code=201, tags=["identity"])
async def create_player(body: NewPlayer, svc: Svc) -> dict[str, Any]:
    """Create a guest identity. The token is shown once; keep it secret."""
    name = validate_name(body.name)
    token = new_token()
    player = await svc.store.create_player(new_id(12), name, hash_token(token))
    return {"id": player.id, "name": player.name, "token": token}


@router.get("/me", tags=["identity"])
async def me(player: Me) -> dict[str, Any]:
    """Who the token belongs to."""
    return {"id": player.id, "name": player.name}


@router.get("/games", tags=["lobby"])
async def games() -> dict[str, Any]:
    """The games, their player counts and options (with defaults and ranges), the bot levels,
    the clock presets and the games with ratings (``rated_games``, docs/ratings.md)."""
    out = []
    for gid in game_ids():
        try:
            cls = game_class(gid)
        except HexfolkError:
            continue
        out.append(
            {
                "id": gid,
                "name": cls.name,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "default_players": cls.default_players,
                "options": [
                    {
                        "name": s.name,
                        "kind": s.kind,
                        "default": s.default,
                        "range": s.describe_range(),
                        "help": s.help,
                    }
                    for s in cls.option_specs
                ],
            }
        )
    return {
        "games": out,
        "bot_levels": [*LEVELS, "random"],
        "clock_presets": list(CLOCK_PRESETS),
        "commit_clock_presets": list(COMMIT_CLOCK_PRESETS),
        "rated_games": list(FAMILIES),
    }


# --- tables -----------------------------------------------------------------------------------
@router.post("/tables", status_code=201, tags=["lobby"])
async def create_table(body: NewTable, player: Me, svc: Svc) -> dict[str, Any]:
    """Create a table; the creator is its host. The id is the invite link."""
    players, options = check_game(body.game, body.players, body.options)
    clock = check_clock(body.clock, svc.config)
    if "commit_clock" not in body.model_fields_set:
        commit_clock = None if clock is None else float(COMMIT_CLOCK_DEFAULT)
    else:
        commit_clock = check_commit_clock(body.commit_clock, svc.config)
    policy, grace = check_disconnect(body.disconnect, svc.config)
    delay = check_bot_delay(body.bot_delay)
    if body.seed is not None:
        if not svc.config.allow_seeded_tables:
            raise forbidden("seeded tables need a server started with --allow-seeded-tables")
        if not 0 <= body.seed <= SEED_MAX:
            raise ApiError("bad_seed", f"a seed is 0..{SEED_MAX}", 422)
    specs = body.seats
    if specs is None:
        chosen = [Seat.person(player)] + [Seat.open() for _ in range(players - 1)]
    else:
        if len(specs) != players:
            raise ApiError("bad_seat", f"give one seat per player ({players}), not {len(specs)}")
        if sum(1 for s in specs if s.kind == "host") > 1:
            raise ApiError("bad_seat", "the host takes at most one seat", 422)
        chosen = [
            Seat.person(player)
            if s.kind == "host"
            else Seat.bot(check_level(s.level))
            if s.kind == "bot"
            else Seat.open()
            for s in specs
        ]
    if body.rated:
        check_rated(body.game, players)
        seated = any(s.held_by(player.id) for s in chosen)
        if seated and not await accounts_among(svc.store, [player.id]):
            raise guest_refused()
    hosted = await svc.store.count_hosted(player.id, list(LIVE))
    if hosted >= TABLES_PER_PLAYER:
        raise ApiError("too_many_tables", f"a player hosts at most {TABLES_PER_PLAYER} tables", 429)
    now = time.time()
    row = TableRow(
        id=new_id(16),
        game=body.game,
        players=players,
        options=options,
        clock=clock,
        commit_clock=commit_clock,
        public=body.public,
        spectators=body.spectators,
        disconnect_policy=policy,
        grace=grace,
        bot_delay=delay,
        min_karma=check_min_karma(body.min_karma),
        seats=[],
        status="lobby",
        host_id=player.id,
        seed=body.seed if body.seed is not None else secrets.randbits(63),
        seeded=body.seed is not None,
        rated=body.rated,
        version=0,
        clock_state={},
        created_at=now,
        updated_at=now,
    )
    store_seats(row, chosen)
    await svc.store.add_table(row)
    room = await svc.manager.created(row.id)  # many processes: perhaps another one's
    return room.table_json() if room is not None else await _describe(svc, row)


async def _listing(svc: Services, status: str) -> list[dict[str, Any]]:
    if svc.config.redis_url is not None:  # many processes: every process lists the same
        return await _shared_listing(svc, status)
    rooms = [r for r in svc.manager.rooms.values() if r.row.public and r.row.status == status]
    if status == "lobby":
        rooms = [r for r in rooms if any(s.kind == "open" for s in seats_of(r.row))]
    else:
        rooms = [r for r in rooms if r.row.spectators]
    rooms.sort(key=lambda r: r.row.created_at, reverse=True)
    return [r.table_json() for r in rooms[:200]]


@router.get("/tables/open", tags=["lobby"])
async def open_tables(svc: Svc) -> dict[str, Any]:
    """Public tables in the lobby with an open seat (newest first, at most 200)."""
    return {"tables": await _listing(svc, "lobby")}


@router.get("/tables/live", tags=["lobby"])
async def live_tables(svc: Svc) -> dict[str, Any]:
    """Public games in progress that allow spectators (newest first, at most 200)."""
    return {"tables": await _listing(svc, "playing")}


async def _shared_listing(svc: Services, status: str) -> list[dict[str, Any]]:
    """The listing from the database (many processes): the same rule as one process's, the
    seats of a table owned here as its room has them."""
    rows = [r for r in await svc.store.tables_with_status([status]) if r.public]
    if status == "lobby":
        rows = [r for r in rows if any(s.kind == "open" for s in seats_of(r))]
    else:
        rows = [r for r in rows if r.spectators]
    rows = rows[:200]
    ids = {r.host_id for r in rows} | {
        s.player_id for r in rows for s in seats_of(r) if s.player_id
    }
    names = {k: p.name for k, p in (await svc.store.players_by_id(sorted(ids))).items()}
    out = []
    for row in rows:
        room = svc.manager.rooms.get(row.id)
        out.append(room.table_json() if room is not None else table_json(row, names, row.version))
    return out


@router.get("/me/tables", tags=["lobby"])
async def my_tables(player: Me, svc: Svc) -> dict[str, Any]:
    """Tables you host or sit at (newest first)."""
    rows = await svc.store.tables_of(player.id)
    out = []
    for row in rows:
        room = svc.manager.rooms.get(row.id)
        out.append(room.table_json() if room is not None else await _describe(svc, row))
    return {"tables": out}


async def _describe(svc: Services, row: TableRow) -> dict[str, Any]:
    room = svc.manager.rooms.get(row.id)
    if room is not None:
        return room.table_json()
    data = table_json(row, await _names(svc, row), row.version)
    if row.status == "finished":
        data["result"] = row.result
    return data


async def _live_room(svc: Services, table_id: str) -> Room:
    room = await svc.manager.room(table_id)
    return room


async def _row(svc: Services, table_id: str) -> TableRow:
    room = svc.manager.rooms.get(table_id)
    if room is not None:
        return room.row
    row = await svc.store.get_table(table_id)
    if row is None:
        raise not_found("table")
    return row


@router.get("/tables/{table_id}", tags=["lobby"])
async def get_table(table_id: str, svc: Svc) -> dict[str, Any]:
    """A table's settings, seats and status (anyone with the id: it is the invite link); each
    person seat with its ``karma`` (docs/profiles.md)."""
    row = await _row(svc, table_id)
    data = await _describe(svc, row)
    if row.status == "finished":
        data["result"] = row.result
    return await with_karma(svc.store, data)


@router.patch("/tables/{table_id}", tags=["lobby"])
async def change_table(table_id: str, body: TableChanges, player: Me, svc: Svc) -> dict[str, Any]:
    """The host changes settings before the start (any subset)."""
    room = await _live_room(svc, table_id)
    require_host(room.row, player, "change the settings")
    changes: dict[str, Any] = {}
    fields = body.model_fields_set
    if "players" in fields or "options" in fields:
        players = body.players if body.players is not None else room.row.players
        given = body.options if body.options is not None else dict(room.row.options)
        changes["players"], changes["options"] = check_game(room.row.game, players, given)
    if "clock" in fields:
        if body.clock is None:
            raise ApiError("bad_clock", 'write "unlimited" for no clock; null is not a change')
        changes["clock"] = check_clock(body.clock, svc.config)
    if "commit_clock" in fields:
        if body.commit_clock is None:
            raise ApiError(
                "bad_clock", 'write "unlimited" for no commitment clock; null is not a change'
            )
        changes["commit_clock"] = check_commit_clock(body.commit_clock, svc.config)
    if body.public is not None:
        changes["public"] = body.public
    if body.spectators is not None:
        changes["spectators"] = body.spectators
    if body.disconnect is not None:
        changes["disconnect_policy"], changes["grace"] = check_disconnect(
            body.disconnect, svc.config
        )
    if body.bot_delay is not None:
        changes["bot_delay"] = check_bot_delay(body.bot_delay)
    if "min_karma" in fields:
        changes["min_karma"] = check_min_karma(body.min_karma)
    if body.rated is not None:
        changes["rated"] = body.rated
    row = room.row
    if changes.get("rated", row.rated):
        check_rated(row.game, changes.get("players", row.players))
    people = [s.player_id for s in seats_of(row) if s.player_id]
    check = accounts_only(
        lambda: bool(changes.get("rated", row.rated)), await accounts_among(svc.store, people)
    )

    def change(seated: list[Seat]) -> list[Seat]:
        check(seated)
        return seated

    return await room.change_seats(player, change, host="change the settings", settings=changes)


@router.put("/tables/{table_id}/seats/{seat}", tags=["lobby"])
async def change_seat(
    table_id: str, seat: int, body: SeatChange, player: Me, svc: Svc
) -> dict[str, Any]:
    """The host makes a seat open or a bot (a person there is moved out)."""
    level = check_level(body.level) if body.kind == "bot" else None
    room = await _live_room(svc, table_id)
    change = lambda s: seats.change_seat(s, seat, body.kind, level)  # noqa: E731
    return await room.change_seats(player, change, host="change seats")


@router.post("/tables/{table_id}/join", tags=["lobby"])
async def join_table(table_id: str, body: JoinSeat, player: Me, svc: Svc) -> dict[str, Any]:
    """Take an open seat (a given one, or the first open one); at a rated table, with an
    account only (403 ``account_required``); at a table with a least karma (``min_karma``)
    only with that karma (409 ``karma_unknown``, ``karma_too_low``)."""
    room = await _live_room(svc, table_id)
    account = bool(await accounts_among(svc.store, [player.id]))
    await require_karma_of(svc.store, player.id, room.row.min_karma)

    def change(seated: list[Seat]) -> list[Seat]:
        if room.row.rated and not account:
            raise guest_refused()
        return seats.take_seat(seated, player, body.seat)

    return await room.change_seats(player, change)


@router.post("/tables/{table_id}/leave", tags=["lobby"])
async def leave_table(table_id: str, player: Me, svc: Svc) -> dict[str, Any]:
    """Give up your seat before the start."""
    room = await _live_room(svc, table_id)
    return await room.change_seats(player, lambda s: seats.leave_seat(s, player))


@router.post("/tables/{table_id}/kick", tags=["lobby"])
async def kick(table_id: str, body: Kick, player: Me, svc: Svc) -> dict[str, Any]:
    """The host frees a person's seat before the start."""
    room = await _live_room(svc, table_id)
    return await room.change_seats(player, lambda s: seats.kick(s, body.seat), host="kick")


@router.post("/tables/{table_id}/fill-bots", tags=["lobby"])
async def fill_bots(table_id: str, body: FillBots, player: Me, svc: Svc) -> dict[str, Any]:
    """The host puts bots of a level in every open seat."""
    room = await _live_room(svc, table_id)
    change = lambda s: seats.fill_bots(s, body.level)  # noqa: E731
    return await room.change_seats(player, change, host="fill seats with bots")


@router.post("/tables/{table_id}/start", tags=["lobby"])
async def start(table_id: str, player: Me, svc: Svc) -> dict[str, Any]:
    """The host starts the game (every seat must be a person or a bot)."""
    room = await _live_room(svc, table_id)
    return await room.begin(player)


@router.post("/tables/{table_id}/rematch", status_code=201, tags=["lobby"])
async def rematch(table_id: str, player: Me, svc: Svc) -> dict[str, Any]:
    """After the end: a new table with the same settings and seats (the same one for everyone
    who asks, whichever process answers: :meth:`.Store.add_rematch`). The host stays host."""
    row = await _row(svc, table_id)
    if row.status != "finished":
        raise ApiError("not_finished", "a rematch follows a finished game", 409)
    seated = any(s.player_id == player.id for s in seats_of(row))
    if not seated and player.id != row.host_id:
        raise forbidden("only the players of this table may ask for a rematch")
    fresh = await svc.store.get_table(table_id)
    assert fresh is not None
    if fresh.rematch_id:
        return await get_table(fresh.rematch_id, svc)
    now = time.time()
    new = TableRow(
        id=new_id(16),
        game=fresh.game,
        players=fresh.players,
        options=dict(fresh.options),
        clock=fresh.clock,
        commit_clock=fresh.commit_clock,
        public=fresh.public,
        spectators=fresh.spectators,
        disconnect_policy=fresh.disconnect_policy,
        grace=fresh.grace,
        bot_delay=fresh.bot_delay,
        min_karma=fresh.min_karma,
        seats=[dict(s) for s in fresh.seats],
        status="lobby",
        host_id=fresh.host_id,
        seed=secrets.randbits(63),
        seeded=False,
        rated=bool(fresh.rated),
        version=0,
        clock_state={},
        rematch_of=fresh.id,
        created_at=now,
        updated_at=now,
    )
    # the database decides who makes it (two requests at once, at one process or two)
    made_id = await svc.store.add_rematch(fresh.id, new)
    row.rematch_id = made_id
    if made_id != new.id:  # another request made it first: this one's table never existed
        return await get_table(made_id, svc)
    room = await svc.manager.created(new.id)  # many processes: perhaps another one's
    made = room.table_json() if room is not None else await _describe(svc, new)
    old = svc.manager.rooms.get(fresh.id)
    if old is not None:  # its sockets learn the new table's id (none open: nothing to tell)
        await old.rematch_made(made, player)
    return made


# --- finished games -------------------------------------------------------------------------
async def _finished(svc: Services, table_id: str) -> TableRow:
    row = await _row(svc, table_id)
    if row.status != "finished":
        raise ApiError(
            "not_finished", "records and replays are published when the game is over", 409
        )
    return row


async def _names(svc: Services, row: TableRow) -> dict[str, str]:
    ids = [row.host_id] + [s.player_id for s in seats_of(row) if s.player_id]
    return {k: p.name for k, p in (await svc.store.players_by_id(ids)).items()}


@router.get("/tables/{table_id}/record", tags=["games"], response_class=PlainTextResponse)
async def record(table_id: str, svc: Svc) -> PlainTextResponse:
    """The match record (JSON the kernel's ``hexfolk replay`` verifies); seed 0: the table's
    seed stays secret and the record replays from its action texts."""
    row = await _finished(svc, table_id)
    rec = build_record(row, await svc.store.events(row.id), await _names(svc, row))
    return PlainTextResponse(
        rec.dumps() + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="hexfolk-{row.id}.json"'},
    )


@router.get("/tables/{table_id}/replay", tags=["games"])
async def replay(
    table_id: str,
    svc: Svc,
    start: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=REPLAY_PAGE_MAX)] = 50,
    reveal: bool = True,
    log: Literal["all", "new"] = "all",
) -> dict[str, Any]:
    """Steps of a finished game: after each step the public view; with ``reveal`` (default)
    every seat's view too, since nothing is hidden once the game is over. ``log=new``: a
    step's public view without its log, the step with the lines changed since the step before
    (``log_start``, ``log``; what the browser's replay asks for)."""
    row = await _finished(svc, table_id)
    events = await svc.store.events(row.id)
    return {
        "table": row.id,
        "steps_total": len(live_events(events)),
        "start": start,
        "steps": replay_steps(row, events, start, limit, reveal, new_log=log == "new"),
        "summary": (row.result or {}).get("summary"),
    }


@router.get("/tables/{table_id}/summary", tags=["games"])
async def summary(table_id: str, svc: Svc) -> dict[str, Any]:
    """The end-of-game summary (the game's own ``summary()``) plus per-seat statistics
    (decisions, bot, stand-in and timed-out ones) and the times: the game's duration and each
    seat's turns, average and longest turn (``statistics.time``), and ``text``, the summary
    in English; a stored summary this version cannot write gives ``text`` empty and
    ``text_error`` saying why (and a logged error)."""
    row = await _finished(svc, table_id)
    events = await svc.store.events(row.id)
    cls = game_class(row.game)
    result = row.result or {}
    body: dict[str, Any] = {
        "table": row.id,
        "game": row.game,
        "result": result,
        "statistics": {**statistics(events, row.players), "time": turn_times(row, events)},
    }
    try:
        body["text"] = cls(row.players, row.options).render_summary(result.get("summary") or {})
    except Exception as exc:  # a stored summary this version cannot write: said, never hidden
        log.exception("table %s: its stored summary cannot be written as text", row.id)
        body["text"] = ""
        body["text_error"] = f"{type(exc).__name__}: {exc}"
    return body


@router.get("/tables/{table_id}/chat", tags=["lobby"])
async def chat(table_id: str, svc: Svc, player: Me) -> dict[str, Any]:
    """The last 200 chat messages this player may read: while the table is in its lobby or
    playing, a seated player reads the players' chat and anyone else the spectators' chat;
    after the end, both (docs/server.md, "Chat")."""
    row = await _row(svc, table_id)
    seated = any(s.held_by(player.id) for s in seats_of(row))
    if not seated and player.id != row.host_id and not row.spectators:
        raise forbidden("this table does not allow spectators")
    rows = await svc.store.chat(row.id, players=None if row.status not in LIVE else seated)
    return {"messages": [line_json(c) for c in rows]}


def error_response(err: ApiError) -> JSONResponse:
    retry = err.extra.get("retry_after")
    headers = {"Retry-After": str(retry)} if retry is not None else None
    return JSONResponse({"error": err.to_json()}, status_code=err.status, headers=headers)
