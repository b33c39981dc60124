"""The room: one asyncio task per live table owns its :class:`State`; every change goes
through that task's queue, so nothing races.

An action is checked in this order, each refusal with its own code to the sender only:
identity (``not_identified``) → a seat here (``no_seat``) → the seat owes a decision now
(``not_your_turn``) → the version (``stale``, with the current view; an older version is
accepted when the seat's decision and legal actions have not changed since) → the engine's
parse (``malformed`` / ``illegal`` / ``ambiguous``) → apply. The step, the chance outcomes it
triggers and the new clocks are committed in one transaction, and only then announced.

An undo (:mod:`hexfolk.server.undo`) takes back the seat's latest steps of its turn: it is an
event of its own, the state is rebuilt without the steps it took back, and everyone gets the
whole view again (the undone steps' log lines are gone).
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import itertools
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from hexfolk.core import (
    Action,
    ActionError,
    AmbiguousActionError,
    IllegalActionError,
    MalformedActionError,
    State,
    derive_seed,
    load_game,
    make_rng,
)
from hexfolk.server.botpool import BOT_FAILURE, BotPool
from hexfolk.server.clock import TableClock
from hexfolk.server.errors import ApiError, forbidden
from hexfolk.server.limits import (
    ACTION_RATE,
    CHAT_MAX,
    CHAT_RATE,
    RECONNECT_WINDOW,
    TIMEOUT_STEPS_MAX,
    RateLimit,
)
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.protocol import CLOSE_AUTH, CLOSE_POLICY
from hexfolk.server.store import Step, Store
from hexfolk.server.timeout_marks import TimeoutMarks, log_lengths, rebuild
from hexfolk.server.trace import TRACE
from hexfolk.server.undo import (
    Undoable,
    check_reveal,
    final_reason,
    live_events,
    reveals,
    undoable,
)
from hexfolk.server.views import ViewParts, build_parts

log = logging.getLogger("hexfolk.server.room")

T = TypeVar("T")

LIVE = ("lobby", "playing")
STAND_IN_LEVEL = "medium"
"""The bot level that stands in for a disconnected person."""
FAULTS_MAX = 3
"""A table whose same step fails this many times in a row is marked ``errored``."""
OUTBOX_MAX = 2000
"""A connection that falls this many messages behind is closed (a stuck client)."""
LOG_TAIL = 16
"""The last 16 log lines a connection was sent are compared with the log now: an engine may
reorder its newest lines (Scythe puts the two combat commitments in commitment order when the
second arrives), and the view then resends from the first line that changed."""
REVEAL_CHECK_DELAY = 0.25
"""A person step's reveal check waits 0.25 s and is skipped if the step can no longer be
undone by then (most steps of a quick turn)."""
UNDO_CACHE_MAX = 64
"""At most this many states before a person's undoable steps are kept (else: replay)."""

_conn_ids = itertools.count(1)


class Connection:
    """One WebSocket at a table: who it is, which seat it plays (``None``: watching), what it
    has been sent, and its rate limits. The socket endpoint drains :attr:`outbox`."""

    def __init__(
        self,
        player: PlayerRow | None,
        seat: int | None,
        action_rate: tuple[int, float] = ACTION_RATE,
    ):
        self.id = next(_conn_ids)
        self.player_id = player.id if player is not None else None
        self.name = player.name if player is not None else "spectator"
        self.seat = seat
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.log_sent = 0
        self.log_tail: tuple[str, ...] = ()
        """The last :data:`LOG_TAIL` lines sent (to notice lines an engine rewrote)."""
        self.actions = RateLimit(*action_rate)
        self.chats = RateLimit(*CHAT_RATE)
        self.closed = False
        self.trace_received = 0.0
        self.trace_parsed = 0.0
        self.trace_version = -1
        self._queued_at: collections.deque[float] = collections.deque()
        self.spectate = False
        """True for a connection opened to watch (``"as": "spectator"``): it never takes a seat,
        even when its player holds one (a seated player's spectator tab)."""
        self.close_code = CLOSE_POLICY
        self.close_reason = "too far behind"
        """The WebSocket close code and reason once the room closes this connection."""

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_MAX:
            self.close()
            return
        if TRACE.enabled:
            self._queued_at.append(time.perf_counter())
        self.outbox.put_nowait(message)

    def traced_sent(self, message: dict[str, Any]) -> None:
        """(Tracing) ``message`` was written to the socket: time its wait in the outbox, and
        the whole way of the action this connection sent last when this is its new view."""
        now = time.perf_counter()
        if self._queued_at:
            TRACE.add("send", now - self._queued_at.popleft())
        if (
            message.get("type") == "view"
            and self.trace_version >= 0
            and int(message.get("version", -1)) >= self.trace_version
        ):
            TRACE.add("total", now - self.trace_received)
            self.trace_version = -1

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        """Stop sending; the socket endpoint then closes the socket (with ``code`` and
        ``reason`` when given, else 1008 "too far behind": a stuck reader)."""
        if not self.closed:
            if code is not None:
                self.close_code, self.close_reason = code, reason or ""
            self.closed = True
            self.outbox.put_nowait(None)


class Room:
    """A live table. Use :meth:`call` (await a result) or :meth:`post` (fire and forget) to
    run a coroutine function inside the room's task."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        pool: BotPool,
        *,
        names: dict[str, str] | None = None,
        action_rate: tuple[int, float] = ACTION_RATE,
    ):
        self.action_rate = action_rate
        self.row = row
        self.store = store
        self.pool = pool
        self.names: dict[str, str] = dict(names or {})
        self.state: State | None = None
        self.version = row.version
        self.clock = TableClock.from_json(row.clock, row.commit_clock, row.clock_state)
        self.timeouts = TimeoutMarks()
        """Which log lines of each viewer the clock's defaults wrote (``timeouts`` in views)."""
        self.conns: dict[int, Connection] = {}
        self.pending: list[Step] = []
        self.live: list[Step] = []
        """The game as played: the committed steps without the undone ones (``turn`` set)."""
        self._before: dict[int, State] = {}
        """The state before each of the latest person steps that may be undone (by seq)."""
        self._offers: dict[int, dict[str, Any] | None] = {}
        self._checks: set[asyncio.Task[None]] = set()
        self.decision_since: dict[int, int] = {}
        self._signatures: dict[int, tuple[str, ...]] = {}
        self._parts: dict[int | None, ViewParts] = {}
        self._log_lens: OrderedDict[int, dict[int | None, tuple[int, tuple[str, ...]]]] = (
            OrderedDict()
        )
        self.stand_in: set[int] = set()
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._bots: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._queue: asyncio.Queue[
            tuple[Callable[[], Awaitable[Any]] | None, asyncio.Future[Any] | None]
        ] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.faults = 0
        self._fault_version = -1
        self._faults_here = 0

    # --- the task -----------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"room-{self.id}")

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` in the room's task and return its result (or raise its ApiError)."""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, fut))
        return await fut

    def post(self, fn: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``fn`` without waiting (timers, bots)."""
        self._queue.put_nowait((fn, None))

    async def stop(self) -> None:
        """Stop the task after the queued jobs; cancel timers and bots."""
        self._queue.put_nowait((None, None))
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 10)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
        self._cancel_all()
        for conn in list(self.conns.values()):
            conn.close()

    def _cancel_all(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for handle in self._grace.values():
            handle.cancel()
        self._grace.clear()
        for _, task in self._bots.values():
            task.cancel()
        self._bots.clear()
        for check in list(self._checks):
            check.cancel()

    async def _run(self) -> None:
        while True:
            fn, fut = await self._queue.get()
            if fn is None:
                return
            try:
                result = await fn()
            except ApiError as err:
                if fut is not None and not fut.done():
                    fut.set_exception(err)
            except Exception as exc:  # a bug: log it, rebuild from the log, keep the table
                self.faults += 1
                log.exception("table %s: internal error, rebuilding from its event log", self.id)
                await self._after_fault(exc)
                if fut is not None and not fut.done():
                    fut.set_exception(
                        ApiError(
                            "internal",
                            "the table hit an internal error; nothing was applied",
                            500,
                        )
                    )
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)

    async def _after_fault(self, exc: Exception) -> None:
        self.pending = []
        self._cancel_all()
        if self.version == self._fault_version:
            self._faults_here += 1
        else:
            self._fault_version, self._faults_here = self.version, 1
        if self._faults_here >= FAULTS_MAX:
            # the same step keeps failing (a deterministic engine bug): stop retrying
            log.error(
                "table %s: %d faults at version %d; marked errored",
                self.id,
                self._faults_here,
                self.version,
            )
            await self._mark_errored(exc)
            return
        try:
            fresh = await self.store.get_table(self.id)
            if fresh is not None:
                self.row = fresh
            await self.load()
            self._resume()
            self._broadcast_views(full=True)
        except Exception:
            log.exception("table %s: cannot be rebuilt; marked errored", self.id)
            await self._mark_errored(exc)

    async def _mark_errored(self, exc: Exception) -> None:
        self.row.status = "errored"
        self.row.error = f"{type(exc).__name__}: {exc}"[:500]
        try:
            await self.store.save_table(self.id, status="errored", error=self.row.error)
        except Exception:
            log.exception("table %s: cannot save the errored status", self.id)
        self._broadcast_table()

    # --- loading ------------------------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild the state by replaying the committed event log (nothing else is trusted)."""
        self._parts = {}
        self._signatures = {}
        self.decision_since = {}
        if self.row.status == "lobby":
            self.state = None
            self.version = 0
            return
        events = await self.store.events(self.id)
        for i, ev in enumerate(events):
            if ev.seq != i + 1:
                raise RuntimeError(f"table {self.id}: event {ev.seq} out of order")
        live = [
            Step(
                ev.seq,
                ev.kind,
                ev.seat,
                ev.action,
                timeout=ev.timeout,
                stand_in=ev.stand_in,
                bot=ev.bot,
                bot_failed=ev.bot_failed,
                at=ev.at,
                reveals=None,
            )
            for ev in live_events(events)
        ]
        self.state, self.live = self._replay(live)
        self._before = {}
        self._offers = {}
        self.version = len(events)
        self.clock = TableClock.from_json(
            self.row.clock, self.row.commit_clock, self.row.clock_state
        )
        game = load_game(self.row.game, self.row.players, self.row.options)
        self.timeouts = rebuild(game.new_initial_state(), self.live)
        self._note_decisions()

    def _replay(self, steps: list[Step]) -> tuple[State, list[Step]]:
        """The state after ``steps`` (the game as played) from the start, and the steps with
        ``turn`` (``turn_count()`` before each) and a person step's ``final`` filled in."""
        game = load_game(self.row.game, self.row.players, self.row.options)
        state = game.new_initial_state()
        out: list[Step] = []
        for st in steps:
            turn = state.turn_count()
            if st.kind == "chance":
                out.append(dataclasses.replace(st, turn=turn))
                state.apply(state.parse_action(st.action))
            else:
                assert st.seat is not None
                action = state.parse_action_for(st.seat, st.action)
                person = not (st.bot or st.timeout or st.stand_in)
                final = final_reason(state, st.seat, action) if person else None
                out.append(dataclasses.replace(st, turn=turn, final=final))
                state.apply_for(st.seat, action)
        return state, out

    def shift_clocks(self, seconds: float) -> None:
        """Give back ``seconds`` of down time to every running clock (after a restart)."""
        if seconds > 0:
            self.clock.shift(seconds)

    def resume(self) -> None:
        """After loading: arm the clock, grace timers and bots."""
        self.post(self._resume_job)

    async def _resume_job(self) -> None:
        self._resume()

    def _resume(self) -> None:
        if self.row.status != "playing" or self.state is None:
            return
        for seat in self.person_seats():
            if not self.seat_connected(seat):
                self._start_grace(seat)
        if self.state.is_chance():  # a crash between a step and its chance draw
            self.post(self._draw_and_publish)
            return
        self.clock.follow(self.state, time.time())  # windows saved before clock steps
        self._arm_timer()
        self._schedule_bots()

    async def _draw_and_publish(self) -> None:
        if self.state is not None and self.state.is_chance() and self.row.status == "playing":
            self._draw_chance()
            await self._publish()

    # --- seats and people ---------------------------------------------------------------------
    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for i, seat in enumerate(self.row.seats):
            if seat.get("kind") == "person" and seat.get("player_id") == player_id:
                return i
        return None

    def person_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.row.seats) if s.get("kind") == "person"]

    def seat_connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns.values())

    def seats_json(self) -> list[dict[str, Any]]:
        out = []
        for i, seat in enumerate(self.row.seats):
            kind = seat.get("kind", "open")
            entry: dict[str, Any] = {"seat": i, "kind": kind}
            if kind == "bot":
                entry["level"] = seat.get("level")
                entry["name"] = f"bot ({seat.get('level')})"
            elif kind == "person":
                pid = seat.get("player_id")
                entry["player_id"] = pid
                entry["name"] = self.names.get(str(pid), seat.get("name") or "?")
                entry["connected"] = self.seat_connected(i)
                entry["stand_in"] = i in self.stand_in
            out.append(entry)
        return out

    def table_json(self) -> dict[str, Any]:
        """The public description of the table (what ``GET /api/tables/{id}`` returns)."""
        r = self.row
        return table_json(r, self.seats_json(), self.names.get(r.host_id, "?"), self.version)

    # --- connections --------------------------------------------------------------------------
    async def attach(self, player: PlayerRow | None, spectate: bool, since: int | None) -> Any:
        """Attach a new connection (called through :meth:`call`). Returns it."""

        async def job() -> Connection:
            if spectate and not self.row.spectators:  # a seated player's tab too (issue 25)
                raise forbidden(
                    "this table does not allow spectators; "
                    'a seated player connects without "as": "spectator" to play the seat'
                )
            seat = None if spectate or player is None else self.seat_of(player.id)
            if seat is None and not self.row.spectators:
                is_member = player is not None and (
                    player.id == self.row.host_id or self.seat_of(player.id) is not None
                )
                if not is_member:
                    raise forbidden("this table does not allow spectators")
            if player is not None:
                self.names[player.id] = player.name
            conn = Connection(player, seat, self.action_rate)
            conn.spectate = spectate
            self.conns[conn.id] = conn
            conn.send(
                {
                    "type": "welcome",
                    "protocol": 1,
                    "table": self.id,
                    "seat": seat,
                    "player_id": conn.player_id,
                    "name": conn.name if player is not None else None,
                    "version": self.version,
                    "action_rate": {"count": self.action_rate[0], "seconds": self.action_rate[1]},
                }
            )
            conn.send({"type": "table", "table": self.table_json()})
            if seat is not None:
                self._seat_returns(seat)
            if self.state is not None:
                self._send_view(conn, since=since)
            self._broadcast_presence()
            return conn

        return await self.call(job)

    async def detach(self, conn: Connection) -> None:
        async def job() -> None:
            self.conns.pop(conn.id, None)
            conn.close()
            seat = conn.seat
            if seat is not None and not self.seat_connected(seat) and self.row.status == "playing":
                self._start_grace(seat)
            self._broadcast_presence()

        await self.call(job)

    def _seat_returns(self, seat: int) -> None:
        handle = self._grace.pop(seat, None)
        if handle is not None:
            handle.cancel()
        if seat in self.stand_in:
            self.stand_in.discard(seat)
            log.info("table %s: seat %d is back; the stand-in bot hands it over", self.id, seat)
            entry = self._bots.pop(seat, None)
            if entry is not None:
                entry[1].cancel()

    def _start_grace(self, seat: int) -> None:
        if self.row.disconnect_policy != "bot" or seat in self._grace or seat in self.stand_in:
            return
        loop = asyncio.get_running_loop()
        self._grace[seat] = loop.call_later(
            self.row.grace, lambda: self.post(lambda: self._grace_over(seat))
        )

    async def _grace_over(self, seat: int) -> None:
        self._grace.pop(seat, None)
        if self.row.status != "playing" or self.seat_connected(seat):
            return
        self.stand_in.add(seat)
        log.info("table %s: seat %d is away; a %s bot stands in", self.id, seat, STAND_IN_LEVEL)
        self._broadcast_presence()
        self._schedule_bots()

    def _broadcast_presence(self) -> None:
        spectators = sum(1 for c in self.conns.values() if c.seat is None)
        msg = {"type": "presence", "seats": self.seats_json(), "spectators": spectators}
        for conn in self.conns.values():
            conn.send(msg)

    def _broadcast_table(self) -> None:
        msg = {"type": "table", "table": self.table_json()}
        for conn in self.conns.values():
            conn.send(msg)

    # --- views --------------------------------------------------------------------------------
    def parts(self, viewer: int | None) -> ViewParts:
        assert self.state is not None
        parts = self._parts.get(viewer)
        if parts is None:
            parts = build_parts(self.state, viewer)
            self._parts[viewer] = parts
            lens = self._log_lens.setdefault(self.version, {})
            lens[viewer] = (len(parts.log), tuple(parts.log[-LOG_TAIL:]))
            # the reconnect window counts versions (not the versions a view was built at)
            while self._log_lens and next(iter(self._log_lens)) < self.version - RECONNECT_WINDOW:
                self._log_lens.popitem(last=False)
        return parts

    def _send_view(self, conn: Connection, *, since: int | None = None, full: bool = False) -> None:
        assert self.state is not None
        parts = self.parts(conn.seat)
        start = _agreed(parts.log, conn.log_sent, conn.log_tail)
        if full:
            start = 0
        elif since is not None:
            known = None
            if self.version - RECONNECT_WINDOW <= since <= self.version:
                known = self._log_lens.get(since, {}).get(conn.seat)
            start = _agreed(parts.log, *known) if known is not None else 0
        now = time.time()
        msg: dict[str, Any] = {
            "type": "view",
            "table": self.id,
            "version": self.version,
            "status": self.row.status,
            "seat": conn.seat,
            "observation": parts.observation,
            "log_start": start,
            "log": parts.log_json(start),
            "acting": self.state.acting_seats(),
            "legal": parts.legal,
            "refused": parts.refused,
            "clocks": self.clock.view(now),
            "timeouts": self.timeouts.for_view(conn.seat, start, len(parts.log)),
            "server_time": now,
            "seats": self.seats_json(),
            "undo": self.undo_offer(conn.seat),
        }
        if self.row.status == "finished":
            msg["result"] = self.row.result
        conn.log_sent = len(parts.log)
        conn.log_tail = tuple(parts.log[-LOG_TAIL:])
        conn.send(msg)

    def _broadcast_views(self, *, full: bool = False) -> None:
        if self.state is None:
            return
        for conn in list(self.conns.values()):
            self._send_view(conn, full=full)

    # --- undo -------------------------------------------------------------------------------
    def undoable(self, seat: int) -> Undoable:
        """How many of ``seat``'s latest steps may be undone now (see :mod:`.undo`)."""
        assert self.state is not None
        return undoable(self.live, [st.turn for st in self.live], seat, self.state.turn_count())

    def undo_offer(self, seat: int | None) -> dict[str, Any] | None:
        """The view's ``undo`` field for a connection of ``seat`` (None: nothing to undo; a
        spectator, a bot seat or a seat a stand-in plays never undoes)."""
        if (
            seat is None
            or self.state is None
            or self.row.status != "playing"
            or self.row.seats[seat].get("kind") != "person"
            or seat in self.stand_in
        ):
            return None
        if seat not in self._offers:
            can = self.undoable(seat)
            self._offers[seat] = (
                {"steps": can.steps, "turn": can.steps, "last": self.live[-1].action}
                if can.steps
                else None
            )
        return self._offers[seat]

    async def undo(self, conn: Connection, steps: int | str, version: int, ref: str | None) -> None:
        """A person's undo message (through :meth:`call`); errors go to that sender only."""

        async def job() -> None:
            await self._undo(conn, steps, version, ref)

        await self.call(job)

    async def _undo(
        self, conn: Connection, steps: int | str, version: int, ref: str | None
    ) -> None:
        seat = self._check_sender(conn, "undo")
        state = self.state
        assert state is not None
        if version != self.version:
            self._send_view(conn)
            raise ApiError(
                "stale",
                f"the game has moved on: you asked to undo at version {version}, "
                f"it is at version {self.version} (the current view was sent)",
                version=self.version,
            )
        if self.row.seats[seat].get("kind") != "person" or seat in self.stand_in:
            raise ApiError("cannot_undo", "a bot plays this seat now", version=self.version)
        can = offered = self.undoable(seat)
        if can.steps:  # the offer trusts unknown reveal flags: settle them, then decide
            self._settle_reveals(can.steps)
            can = self.undoable(seat)
        if can.steps != offered.steps:  # the offer changed: the seat's views say so
            for other in list(self.conns.values()):
                if other.seat == seat:
                    self._send_view(other)
        if can.steps == 0:
            raise ApiError("cannot_undo", can.reason, version=self.version)
        n = can.steps if steps == "turn" else int(steps)
        if n > can.steps:
            raise ApiError(
                "cannot_undo",
                f"only {can.steps} of your steps can be taken back now ({can.reason})",
                version=self.version,
            )
        keep = self.live[:-n]
        first = self.live[-n].seq
        base = self._before.get(first)
        if base is not None:
            self.state = base
        else:  # after a restart: rebuild from the log
            self.state, _ = self._replay(keep)
        self._record("undo", seat, f"undo {n}", undoes=first)
        await self._publish(full=True)
        log.info("table %s: seat %d undid %d step(s) from event %d", self.id, seat, n, first)
        conn.send({"type": "undone", "ref": ref, "steps": n, "version": self.version})

    def _check_sender(self, conn: Connection, what: str) -> int:
        """The checks before an action or an undo: identity, seat, rate, a game in play."""
        if conn.player_id is None:
            raise ApiError("not_identified", f"say hello with your player token before you {what}")
        seat = conn.seat
        if seat is None:
            if self.seat_of(conn.player_id) is not None:
                raise ApiError(
                    "no_seat", f"this connection watches as a spectator; it cannot {what}"
                )
            raise ApiError("no_seat", "you hold no seat at this table")
        if not conn.actions.allow():
            n, secs = self.action_rate
            raise ApiError("rate_limited", f"at most {n} actions per {secs:g} s; slow down")
        if self.row.status != "playing" or self.state is None:
            raise ApiError("not_playing", f"the table is {self.row.status}, not playing")
        return seat

    # --- steps --------------------------------------------------------------------------------
    def _record(
        self,
        kind: str,
        seat: int | None,
        text: str,
        *,
        turn: int = -1,
        undoes: int | None = None,
        reveals: bool | None = False,
        final: str | None = None,
        **flags: bool,
    ) -> None:
        seq = self.version + len(self.pending) + 1
        self.pending.append(
            Step(
                seq,
                kind,
                seat,
                text,
                at=time.time(),
                undoes=undoes,
                reveals=reveals,
                turn=turn,
                final=final,
                **flags,
            )
        )

    def _next_seq(self) -> int:
        return self.version + len(self.pending) + 1

    def _draw_chance(self) -> None:
        """Draw every chance step now due, with the table's secret seed (logged as events)."""
        state = self.state
        assert state is not None
        guard = 0
        while state.is_chance():
            rng = make_rng(self.row.seed, "chance", self._next_seq())
            outcome = state.sample_chance(rng)
            turn = state.turn_count()
            state.apply(outcome)
            self._record("chance", None, str(outcome), turn=turn)
            guard += 1
            if guard > 10_000:
                raise RuntimeError("a chance node that never ends")

    async def _publish(self, *, full: bool = False) -> None:
        """Commit the pending steps (and clocks, status), then tell everyone (``full``: the
        whole log again, after an undo rewrote it)."""
        state = self.state
        assert state is not None
        now = time.time()
        values: dict[str, Any] = {}
        if state.is_terminal() and self.row.status == "playing":
            result = {
                "winners": state.winners(),
                "scores": state.scores(),
                "returns": state.returns(),
                "turns": state.turn_count(),
                "summary": state.summary(),
            }
            values.update(status="finished", result=result, finished_at=now)
        self.clock.follow(state, now)
        if state.is_terminal():
            self.clock.clear()
        if full:  # an undo rewrote the log: no mark outlives its lines
            self.timeouts.trim(log_lengths(state))
        new_version = self.version + len(self.pending)
        values.update(version=new_version, clock_state=self.clock.to_json())
        steps = self.pending
        t_commit = time.perf_counter()
        await self.store.commit_steps(self.id, steps, **values)
        t_views = time.perf_counter()
        TRACE.add("commit", t_views - t_commit)
        # committed: from here on the steps are acknowledged
        self.pending = []
        self.version = new_version
        for key, value in values.items():
            setattr(self.row, key, value)
        for st in steps:
            who = "chance" if st.seat is None else f"seat {st.seat}"
            flags = "".join(
                f" {name}" for name in ("timeout", "stand_in", "bot") if getattr(st, name)
            )
            log.info("table %s: event %d %s %s%s", self.id, st.seq, st.kind, who, flags)
        self._played(steps)
        self._parts = {}
        self._offers = {}
        if full:
            self._log_lens.clear()
        self._note_decisions()
        self._broadcast_views(full=full)
        TRACE.add("views", time.perf_counter() - t_views)
        if self.row.status == "finished":
            log.info("table %s: finished, winners %s", self.id, state.winners())
            self._cancel_all()
            self._broadcast_table()
            return
        self._arm_timer()
        self._schedule_bots()

    def _played(self, steps: list[Step]) -> None:
        """Committed ``steps`` join the game as played; an undo takes its steps out of it.
        The kept states before undoable person steps are dropped at any other step."""
        for st in steps:
            if st.kind == "undo":
                first = st.undoes if st.undoes is not None else st.seq
                while self.live and self.live[-1].seq >= first:
                    self._before.pop(self.live.pop().seq, None)
                continue
            self.live.append(st)
            if st.seq not in self._before:
                self._before.clear()
        while len(self._before) > UNDO_CACHE_MAX:
            del self._before[min(self._before)]

    def _note_decisions(self) -> None:
        """Remember from which version each seat's decision (its legal actions) is unchanged."""
        state = self.state
        if state is None:
            return
        acting = set(state.acting_seats())
        for seat in range(state.game.num_players):
            sig = tuple(str(a) for a in state.legal_actions_for(seat)) if seat in acting else ()
            if self._signatures.get(seat) != sig or seat not in self.decision_since:
                self._signatures[seat] = sig
                self.decision_since[seat] = self.version

    def _version_ok(self, seat: int, version: int) -> bool:
        if version == self.version:
            return True
        return self.decision_since.get(seat, self.version) <= version < self.version

    # --- actions ------------------------------------------------------------------------------
    async def act(self, conn: Connection, text: str, version: int, ref: str | None) -> None:
        """A person's action message (through :meth:`call`); errors go to that sender only."""

        async def job() -> None:
            if TRACE.enabled:
                started = time.perf_counter()
                TRACE.add("queue", started - conn.trace_parsed)
                conn.trace_parsed = started  # from here: the apply stage
            await self._act(conn, text, version, ref)

        await self.call(job)

    async def _act(self, conn: Connection, text: str, version: int, ref: str | None) -> None:
        seat = self._check_sender(conn, "act")
        state = self.state
        assert state is not None
        if seat not in state.acting_seats():
            raise ApiError("not_your_turn", f"seat {seat} owes no decision now")
        if not self._version_ok(seat, version):
            self._send_view(conn)  # the current view (log lines it lacks only)
            raise ApiError(
                "stale",
                f"the game has moved on: you acted on version {version}, "
                f"it is at version {self.version} (the current view was sent)",
                version=self.version,
            )
        try:
            action = state.parse_action_for(seat, text)
            final = final_reason(state, seat, action)  # undo barrier 5, before the step
            before = state.clone()
            turn = state.turn_count()
            state.apply_for(seat, action)
        except MalformedActionError as exc:
            raise ApiError("malformed", str(exc)) from None
        except AmbiguousActionError as exc:
            raise ApiError("ambiguous", str(exc)) from None
        except IllegalActionError as exc:  # the reason as data too (docs/protocol.md)
            if exc.data is None:
                raise ApiError("illegal", str(exc)) from None
            raise ApiError("illegal", str(exc), reason=exc.data) from None
        except ActionError as exc:
            raise ApiError("illegal", str(exc)) from None
        seq = self._next_seq()
        # a final step, or one a chance draw or a new turn follows, can never be undone: no
        # need to keep the state before it or to ask whether it revealed something
        candidate = final is None and not state.is_chance() and state.turn_count() == turn
        if candidate:
            self._before[seq] = before
        self._record(
            "action",
            seat,
            str(action),
            turn=turn,
            reveals=None if candidate else False,
            final=final,
        )
        self._draw_chance()
        if TRACE.enabled:
            TRACE.add("apply", time.perf_counter() - conn.trace_parsed)
            conn.trace_version = self._next_seq() - 1
        await self._publish()
        conn.send({"type": "accepted", "ref": ref, "action": str(action), "version": self.version})
        if candidate:
            self._checks.add(
                asyncio.get_running_loop().create_task(
                    self._check_reveal(seq, seat, before, action)
                )
            )

    async def _check_reveal(self, seq: int, seat: int, before: State, action: Action) -> None:
        """Off the loop, a moment after the step: did step ``seq`` show its actor hidden
        information? Skipped when the step can no longer be undone by then (a quick turn's
        steps, a chance draw or another seat's step came after it). The answer goes back
        through the room's queue; a step that did show something loses its undo offer."""
        task = asyncio.current_task()
        try:
            await asyncio.sleep(REVEAL_CHECK_DELAY)
            can = self.undoable(seat) if self.state is not None else None
            undoable_now = can is not None and any(
                st.seq == seq for st in self.live[len(self.live) - can.steps :]
            )
            if not undoable_now or self._before.get(seq) is not before:
                return  # never needed now; an undo settles it exactly if it ever is
            t = time.perf_counter()
            flag = await check_reveal(before.clone(), seat, action, self._reveal_seed(seq))
            TRACE.add("reveals_to", time.perf_counter() - t)
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("table %s: the reveal check of event %d failed", self.id, seq)
            flag = True  # when in doubt, the step stays
        finally:
            if task is not None:
                self._checks.discard(task)
        self.post(lambda: self._reveal_known(seq, flag))

    async def _reveal_known(self, seq: int, flag: bool) -> None:
        for i in range(len(self.live) - 1, -1, -1):
            st = self.live[i]
            if st.seq == seq:
                if st.reveals is None:
                    self.live[i] = dataclasses.replace(st, reveals=flag)
                    if flag and st.seat is not None:
                        self._offers.pop(st.seat, None)
                        for conn in list(self.conns.values()):
                            if conn.seat == st.seat:
                                self._send_view(conn)
                return
            if st.seq < seq:
                return

    def _reveal_seed(self, seq: int) -> int:
        return derive_seed(self.row.seed, "reveal", seq)

    def _settle_reveals(self, n: int) -> None:
        """Make the reveal flags of the newest ``n`` steps exact (an undo is about to take
        them back): replay them from the state before the first, asking ``reveals_to``."""
        taken = self.live[-n:]
        if all(st.reveals is not None for st in taken):
            return
        start = self._before.get(taken[0].seq)
        probe = start.clone() if start is not None else self._replay(self.live[:-n])[0]
        for k, st in enumerate(taken):
            assert st.seat is not None
            action = probe.parse_action_for(st.seat, st.action)
            if st.reveals is None:
                flag = reveals(probe, st.seat, action, self._reveal_seed(st.seq))
                self.live[len(self.live) - n + k] = dataclasses.replace(st, reveals=flag)
            probe.apply_for(st.seat, action)
        self._offers.clear()

    # --- bots ---------------------------------------------------------------------------------
    def _bot_code(self, seat: int) -> str | None:
        entry = self.row.seats[seat]
        if entry.get("kind") == "bot":
            return str(entry.get("level") or "medium")
        if seat in self.stand_in:
            return STAND_IN_LEVEL
        return None

    def _schedule_bots(self) -> None:
        state = self.state
        if state is None or self.row.status != "playing":
            return
        acting = set(state.acting_seats())
        for seat in list(self._bots):
            since, task = self._bots[seat]
            if seat not in acting or since != self.decision_since.get(seat) or task.done():
                if not task.done():
                    task.cancel()
                del self._bots[seat]
        # bots decide in the kernel's walk order, as in simulate (Match asks current_player()):
        # while the walk names an acting bot seat, the other bots wait for it (an offering bot
        # does not close its offer before a bot it asked has answered); a person is never
        # waited for
        walk = state.current_player()
        first = walk if walk in acting and self._bot_code(walk) is not None else None
        for seat in sorted(acting):
            code = self._bot_code(seat)
            if code is None or seat in self._bots or first not in (None, seat):
                continue
            task = asyncio.get_running_loop().create_task(
                self._bot_turn(seat, code, seat in self.stand_in)
            )
            self._bots[seat] = (self.decision_since.get(seat, self.version), task)

    async def _bot_turn(self, seat: int, code: str, stand_in: bool) -> None:
        try:
            state = self.state
            if (
                self.row.bot_delay > 0
                and state is not None
                and seat in state.acting_seats()
                and state.clock_step(seat).bot_delay  # IR-30: bots sign up at once
            ):
                await asyncio.sleep(self.row.bot_delay)
            state = self.state
            if state is None or seat not in state.acting_seats():
                return
            version = self.version
            seed = derive_seed(self.row.seed, "bot", seat, version)
            failed = False
            try:
                text = await self.pool.choose(state, seat, code, seed)
            except asyncio.CancelledError:
                raise
            except Exception:
                # never silent: logged once here, counted by the pool (/healthz) and flagged on
                # the step the clock's default then plays (the table's statistics)
                failed = True
                log.exception(
                    "table %s: %s: bot %s at seat %d (version %d); the clock's default plays",
                    self.id,
                    BOT_FAILURE,
                    code,
                    seat,
                    version,
                )
                fallback = state.timeout_action(seat, make_rng(seed, "fallback"))
                if fallback is None:
                    return
                text = str(fallback)
            self.post(lambda: self._bot_move(seat, code, version, text, stand_in, failed))
        except asyncio.CancelledError:
            return

    async def _bot_move(
        self, seat: int, code: str, version: int, text: str, stand_in: bool, failed: bool = False
    ) -> None:
        state = self.state
        entry = self._bots.get(seat)
        if entry is not None and entry[1].done():
            del self._bots[seat]
        if state is None or self.row.status != "playing" or seat not in state.acting_seats():
            return
        if self._bot_code(seat) != code or not self._version_ok(seat, version):
            self._schedule_bots()
            return
        action = state.parse_action_for(seat, text)
        turn = state.turn_count()
        state.apply_for(seat, action)
        self._record(
            "action", seat, str(action), turn=turn, bot=True, stand_in=stand_in, bot_failed=failed
        )
        self._draw_chance()
        await self._publish()

    # --- the clock ----------------------------------------------------------------------------
    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.clock.next_deadline()
        if deadline is None or self.row.status != "playing":
            return
        delay = max(0.0, deadline - time.time())
        self._timer = asyncio.get_running_loop().call_later(delay, lambda: self.post(self._expire))

    async def _expire(self) -> None:
        """Apply the game's defaults for every seat whose clock ran out (IR-28), logged as
        time-outs, while that seat still owes a decision of the expired turn or step."""
        self._timer = None
        state = self.state
        if state is None or self.row.status != "playing":
            return
        now = time.time()
        timed_out: list[tuple[int, int]] = []
        for seat in self.clock.expired(now):
            window = self.clock.current(seat)
            assert window is not None
            applied = 0
            before = log_lengths(state) if self.clock.owes_under(seat, window, state) else {}
            while applied < TIMEOUT_STEPS_MAX and self.clock.owes_under(seat, window, state):
                rng = make_rng(self.row.seed, "timeout", seat, self._next_seq())
                action = state.timeout_action(seat, rng)
                if action is None:
                    break
                turn_before = state.turn_count()
                state.apply_for(seat, action)
                self._record(
                    "action",
                    seat,
                    str(action),
                    turn=turn_before,
                    timeout=True,
                    stand_in=seat in self.stand_in,
                )
                self._draw_chance()
                applied += 1
            if not applied:
                self.clock.drop(seat)
            else:
                log.info("table %s: seat %d timed out (%d defaults)", self.id, seat, applied)
                self.timeouts.note(seat, before, log_lengths(state))
                timed_out.append((seat, applied))
            if state.is_terminal():
                break
        if self.pending:
            await self._publish()
            for seat, applied in timed_out:  # after the views that show the defaults
                msg = {"type": "timeout", "seat": seat, "steps": applied, "version": self.version}
                for conn in list(self.conns.values()):
                    conn.send(msg)
        else:
            # nothing was owed under the expired windows: start fresh ones for whoever acts
            self.clock.follow(state, now)
            self._arm_timer()

    # --- chat ---------------------------------------------------------------------------------
    def chat_channel(self, player_id: str | None) -> str:
        """``players`` for a person holding a seat here (from any of their connections, a
        spectator tab included), ``spectators`` for everyone else (docs/server.md, "Chat")."""
        return "players" if self.seat_of(player_id) is not None else "spectators"

    def chat_open(self) -> bool:
        """After the end (finished or errored) everyone reads both channels."""
        return self.row.status not in LIVE

    async def chat(self, conn: Connection, text: str) -> None:
        async def job() -> None:
            if conn.player_id is None:
                raise ApiError("not_identified", "say hello with your player token to chat")
            body = text.strip()
            if not body:
                raise ApiError("bad_chat", "a chat message is not empty")
            if len(body) > CHAT_MAX:
                raise ApiError("bad_chat", f"a chat message has at most {CHAT_MAX} characters")
            if not conn.chats.allow():
                n, secs = CHAT_RATE
                raise ApiError("rate_limited", f"at most {n} chat messages per {secs:g} s")
            seat = self.seat_of(conn.player_id)  # a players' line is stored with its seat
            row = await self.store.add_chat(self.id, conn.player_id, conn.name, seat, body)
            channel = chat_channel_of(row.seat)
            msg = {
                "type": "chat",
                "id": row.id,
                "name": row.name,
                "player_id": row.player_id,
                "seat": row.seat,
                "channel": channel,
                "text": row.text,
                "at": row.at,
            }
            everyone = self.chat_open()
            for other in self.conns.values():
                if everyone or self.chat_channel(other.player_id) == channel:
                    other.send(msg)

        await self.call(job)

    async def sync(self, conn: Connection, since: int | None) -> None:
        async def job() -> None:
            conn.send({"type": "table", "table": self.table_json()})
            if self.state is not None:
                self._send_view(conn, since=since, full=since is None)

        await self.call(job)

    # --- the lobby ----------------------------------------------------------------------------
    def _require_lobby(self) -> None:
        if self.row.status != "lobby":
            raise ApiError("not_in_lobby", f"the table is {self.row.status}; seats are fixed", 409)

    def _require_host(self, player: PlayerRow, what: str) -> None:
        if player.id != self.row.host_id:
            raise forbidden(f"only the host may {what}")

    async def _save_lobby(self) -> None:
        self.row.updated_at = time.time()
        await self.store.save_table(
            self.id,
            seats=self.row.seats,
            players=self.row.players,
            options=self.row.options,
            clock=self.row.clock,
            commit_clock=self.row.commit_clock,
            public=self.row.public,
            spectators=self.row.spectators,
            disconnect_policy=self.row.disconnect_policy,
            grace=self.row.grace,
            bot_delay=self.row.bot_delay,
            status=self.row.status,
            host_id=self.row.host_id,
            updated_at=self.row.updated_at,
        )
        self._rebind_connections()
        self._broadcast_table()
        self._broadcast_presence()

    def _rebind_connections(self) -> None:
        """After seat changes, a connection's seat follows its player: a player who takes a
        seat after connecting plays it at once, a kicked one watches. Spectator connections
        stay spectators."""
        for conn in self.conns.values():
            if conn.player_id is None or conn.spectate:
                continue
            seat = self.seat_of(conn.player_id)
            if seat != conn.seat:
                conn.seat = seat
                if self.state is not None:  # a whole view of what the new seat may see
                    self._send_view(conn, full=True)

    def _persons(self) -> dict[str, int]:
        """Who holds which seat: player id → seat."""
        return {
            str(s["player_id"]): i
            for i, s in enumerate(self.row.seats)
            if s.get("kind") == "person" and s.get("player_id")
        }

    def _tell_removed(self, before: dict[str, int], host: PlayerRow) -> None:
        """The host moved people out of their seats (a kick, a seat made open or a bot, fewer
        players): each of their connections gets a ``kicked`` notice. They watch on where
        spectators are allowed; elsewhere their connections are closed (4401). A kick is not a
        ban: the person may take an open seat again (docs/server.md, "Kicks")."""
        now = self._persons()
        for pid, seat in before.items():
            if pid in now:
                continue
            watch = self.row.spectators or pid == self.row.host_id
            message = f"{host.name} moved you out of seat {seat}; " + (
                "you watch the table now and may take an open seat again"
                if watch
                else "this table does not allow spectators"
            )
            notice = {"type": "kicked", "table": self.id, "seat": seat, "by": host.name}
            for conn in list(self.conns.values()):
                if conn.player_id == pid:
                    conn.send({**notice, "message": message})
                    if not watch:
                        conn.close(CLOSE_AUTH, "kicked")
            log.info("table %s: seat %d's person moved out by the host", self.id, seat)

    async def rematch_made(self, table: dict[str, Any], by: PlayerRow) -> None:
        """Tell every connection of this (finished) table that its rematch exists."""

        async def job() -> None:
            self.row.rematch_id = table["id"]
            msg = {
                "type": "rematch",
                "table": table["id"],
                "rematch_of": self.id,
                "by": by.name,
            }
            for conn in list(self.conns.values()):
                conn.send(msg)
            self._broadcast_table()

        await self.call(job)

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.row.seats):
            raise ApiError("no_such_seat", f"seats are 0..{len(self.row.seats) - 1}, not {seat}")
        return seat

    async def lobby(self, op: Callable[[], Awaitable[T]]) -> T:
        """Run a lobby operation in the room task."""
        return await self.call(op)

    async def join(self, player: PlayerRow, seat: int | None) -> dict[str, Any]:
        async def job() -> dict[str, Any]:
            self._require_lobby()
            if self.seat_of(player.id) is not None:
                raise ApiError("already_seated", "you already hold a seat at this table", 409)
            if seat is None:
                free = [i for i, s in enumerate(self.row.seats) if s.get("kind") == "open"]
                if not free:
                    raise ApiError("table_full", "no seat is open", 409)
                index = free[0]
            else:
                index = self._seat_index(seat)
                if self.row.seats[index].get("kind") != "open":
                    raise ApiError("seat_taken", f"seat {index} is not open", 409)
            self.names[player.id] = player.name
            seats = [dict(s) for s in self.row.seats]
            seats[index] = {"kind": "person", "player_id": player.id, "name": player.name}
            self.row.seats = seats
            await self._save_lobby()
            return self.table_json()

        return await self.call(job)

    async def leave(self, player: PlayerRow) -> dict[str, Any]:
        async def job() -> dict[str, Any]:
            self._require_lobby()
            index = self.seat_of(player.id)
            if index is None:
                raise ApiError("no_seat", "you hold no seat at this table", 409)
            seats = [dict(s) for s in self.row.seats]
            seats[index] = {"kind": "open"}
            self.row.seats = seats
            await self._save_lobby()
            return self.table_json()

        return await self.call(job)

    async def _host_change(
        self, player: PlayerRow, what: str, change: Callable[[list[dict[str, Any]]], None]
    ) -> dict[str, Any]:
        """A host's change of the seats before the start: ``change`` edits a copy of them."""

        async def job() -> dict[str, Any]:
            self._require_host(player, what)
            self._require_lobby()
            seats = [dict(s) for s in self.row.seats]
            change(seats)
            before = self._persons()
            self.row.seats = seats
            await self._save_lobby()
            self._tell_removed(before, player)
            return self.table_json()

        return await self.call(job)

    async def set_seat(
        self, player: PlayerRow, seat: int, kind: str, level: str | None
    ) -> dict[str, Any]:
        def change(seats: list[dict[str, Any]]) -> None:
            index = self._seat_index(seat)
            seats[index] = {"kind": "bot", "level": level} if kind == "bot" else {"kind": "open"}

        return await self._host_change(player, "change seats", change)

    async def kick(self, player: PlayerRow, seat: int) -> dict[str, Any]:
        def change(seats: list[dict[str, Any]]) -> None:
            index = self._seat_index(seat)
            if seats[index].get("kind") != "person":
                raise ApiError("no_person", f"nobody sits at seat {index}", 409)
            seats[index] = {"kind": "open"}

        return await self._host_change(player, "kick", change)

    async def fill_bots(self, player: PlayerRow, level: str) -> dict[str, Any]:
        def change(seats: list[dict[str, Any]]) -> None:
            for i, entry in enumerate(seats):
                if entry.get("kind") == "open":
                    seats[i] = {"kind": "bot", "level": level}

        return await self._host_change(player, "fill seats with bots", change)

    async def configure(self, player: PlayerRow, changes: dict[str, Any]) -> dict[str, Any]:
        """Apply already validated setting changes (``lobby.check_settings``)."""

        async def job() -> dict[str, Any]:
            self._require_host(player, "change the settings")
            self._require_lobby()
            players = changes.get("players", self.row.players)
            before = self._persons()
            if players != self.row.players:
                seats = [dict(s) for s in self.row.seats[:players]]
                seats += [{"kind": "open"} for _ in range(players - len(seats))]
                self.row.seats = seats
                self.row.players = players
            for key in (
                "options",
                "clock",
                "commit_clock",
                "public",
                "spectators",
                "disconnect_policy",
                "grace",
                "bot_delay",
            ):
                if key in changes:
                    setattr(self.row, key, changes[key])
            self.clock = TableClock(self.row.clock, self.row.commit_clock)
            await self._save_lobby()
            self._tell_removed(before, player)
            return self.table_json()

        return await self.call(job)

    async def begin(self, player: PlayerRow) -> dict[str, Any]:
        async def job() -> dict[str, Any]:
            self._require_host(player, "start the game")
            self._require_lobby()
            open_seats = [i for i, s in enumerate(self.row.seats) if s.get("kind") == "open"]
            if open_seats:
                raise ApiError(
                    "seats_open",
                    f"seat(s) {', '.join(map(str, open_seats))} are open: "
                    "let people join or fill them with bots",
                    409,
                )
            game = load_game(self.row.game, self.row.players, self.row.options)
            self.state = game.new_initial_state()
            self.version = 0
            self.clock = TableClock(self.row.clock, self.row.commit_clock)
            self.row.status = "playing"
            self.row.started_at = time.time()
            await self.store.save_table(self.id, status="playing", started_at=self.row.started_at)
            log.info("table %s: started (%s, %d players)", self.id, game.id, game.num_players)
            self._broadcast_table()
            self._draw_chance()
            await self._publish()
            for seat in self.person_seats():
                if not self.seat_connected(seat):
                    self._start_grace(seat)
            return self.table_json()

        return await self.call(job)


def chat_channel_of(seat: int | None) -> str:
    """The channel of a stored chat line: a line written with a seat is the players'."""
    return "players" if seat is not None else "spectators"


def _agreed(log: list[str], sent: int, tail: tuple[str, ...]) -> int:
    """Where a connection's log (``sent`` lines ending with ``tail``) first differs from
    ``log``: ``sent`` when it is a prefix of it, else the first changed line (0 when the
    change is older than the tail)."""
    if sent > len(log):
        return 0
    k = len(tail)
    seen = log[sent - k : sent] if k else []
    if list(tail) == seen:
        return sent
    if len(seen) != k:
        return 0
    for j in range(k):
        if seen[j] != tail[j]:
            return sent - k + j
    return sent


def table_json(
    row: TableRow, seats: list[dict[str, Any]], host_name: str, version: int
) -> dict[str, Any]:
    """A table's public description: settings, seats, status; never its seed."""
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "clock": row.clock,
        "commit_clock": row.commit_clock,
        "public": row.public,
        "spectators": row.spectators,
        "disconnect": {"policy": row.disconnect_policy, "grace": row.grace},
        "bot_delay": row.bot_delay,
        "seats": seats,
        "status": row.status,
        "host": {"id": row.host_id, "name": host_name},
        "version": version,
        "seeded": row.seeded,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "rematch_of": row.rematch_of,
        "rematch_id": row.rematch_id,
        "error": row.error,
    }
