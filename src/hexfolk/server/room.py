"""The room: the asyncio actor of one live table. One task per table runs every change (an
action, an undo, a bot's move, a clock expiry, a lobby change, chat) from its queue, so nothing
races; it wires the parts that each hold one concern:

* the table core (:mod:`.table_core`): the game, synchronous: an event in, pending steps out;
* the store: the pending steps, chance draws and new clocks are committed in one transaction,
  and only then announced;
* the crowd (:mod:`.crowd`): connections, presence, grace periods and stand-ins;
* the fan-out (:mod:`.fanout`): views per viewer, log diffs, sending;
* lobby seats (:mod:`.seats`) and chat (:mod:`.chat`); bot turns (:mod:`.bot_turns`).

A person's action is checked for its sender here (identity ``not_identified`` → a seat here
``no_seat`` → the action rate → a game in play), then by the core. Refusals go to the sender
only; a ``stale`` one comes after the current view. An accepted action's ``accepted`` goes to
its sender as soon as the step is committed, before anyone's new view.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from hexfolk.core import State
from hexfolk.server import seats as lobby
from hexfolk.server.bot_turns import BotTurns
from hexfolk.server.botpool import BotPool
from hexfolk.server.chat import LIVE, channel_of, checked_line, everyone_reads, line_json
from hexfolk.server.clock import TableClock
from hexfolk.server.crowd import STAND_IN_LEVEL, Connection, Crowd
from hexfolk.server.errors import ApiError
from hexfolk.server.fanout import FanOut
from hexfolk.server.limits import ACTION_RATE, chat_limits
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.reveal_checks import RevealChecks
from hexfolk.server.store import Store
from hexfolk.server.table_core import TableCore
from hexfolk.server.trace import TRACE

__all__ = ["LIVE", "Connection", "Room"]

log = logging.getLogger("hexfolk.server.room")
T = TypeVar("T")
FAULTS_MAX = 3
"""A table whose same step fails this many times in a row is marked ``errored``."""
Job = Callable[[], Awaitable[Any]]


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
        self.row, self.store, self.action_rate = row, store, action_rate
        self.names: dict[str, str] = dict(names or {})
        self.core = TableCore(row)
        self.crowd = Crowd()
        self.fanout = FanOut(row, self.core, self.crowd, self.seats_json, self.undo_offer)
        self.bots = BotTurns(self.core, pool, self._bot_chose)
        self.faults, self._fault_version, self._faults_here = 0, -1, 0
        self._timer: asyncio.TimerHandle | None = None
        self.checks = RevealChecks(self.core, self.post, lambda s: self.fanout.send_views(seat=s))
        self._queue: asyncio.Queue[tuple[Job | None, asyncio.Future[Any] | None]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state(self) -> State | None:
        return self.core.state

    @property
    def version(self) -> int:
        return self.core.version

    @property
    def conns(self) -> dict[int, Connection]:
        return self.crowd.conns

    # --- the task -----------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"room-{self.id}")

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` in the room's task and return its result (or raise its ApiError)."""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, fut))
        return await fut

    def post(self, fn: Job) -> None:
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
        self.crowd.close_all()

    def _cancel_all(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.crowd.cancel_grace()
        self.bots.cancel_all()
        self.checks.cancel_all()

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
                    why = "the table hit an internal error; nothing was applied"
                    fut.set_exception(ApiError("internal", why, 500))
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)

    async def _after_fault(self, exc: Exception) -> None:
        self.core.abort()
        self._cancel_all()
        if self.version == self._fault_version:
            self._faults_here += 1
        else:
            self._fault_version, self._faults_here = self.version, 1
        if self._faults_here >= FAULTS_MAX:  # a deterministic engine bug: stop retrying
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
            if fresh is not None:  # the row as stored (shared by the core and the fan-out)
                for column in TableRow.__table__.columns:
                    setattr(self.row, column.key, getattr(fresh, column.key))
            await self.load()
            self._resume()
            self.fanout.send_views(full=True)
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

    # --- loading and resuming -----------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild the state by replaying the committed event log (nothing else is trusted)."""
        self.fanout.forget()
        events = await self.store.events(self.id) if self.row.status != "lobby" else []
        self.core.load(events)

    def shift_clocks(self, seconds: float) -> None:
        """Give back ``seconds`` of down time to every running clock (after a restart)."""
        if seconds > 0:
            self.core.clock.shift(seconds)

    def resume(self) -> None:
        """After loading: arm the clock, grace timers and bots."""
        self.post(self._resume_job)

    async def _resume_job(self) -> None:
        self._resume()

    def _resume(self) -> None:
        state = self.core.state
        if self.row.status != "playing" or state is None:
            return
        self._start_graces()
        if state.is_chance():  # a crash between a step and its chance draw
            self.post(self._draw_and_publish)
            return
        self.core.clock.follow(state, time.time())  # windows saved before clock steps
        self._arm_timer()
        self._schedule_bots()

    async def _draw_and_publish(self) -> None:
        state = self.core.state
        if state is not None and state.is_chance() and self.row.status == "playing":
            self.core.draw_chance()
            await self._publish()

    # --- committing and announcing -------------------------------------------------------------
    async def _publish(self, *, full: bool = False, ack: Callable[[], None] | None = None) -> None:
        """Commit the pending steps (and clocks, status), then tell everyone (``full``: the
        whole log again, after an undo rewrote it). ``ack`` runs as soon as the steps are
        committed, before any view (the sender's ``accepted``)."""
        commit = self.core.to_commit(time.time(), full=full)
        t_commit = time.perf_counter()
        await self.store.commit_steps(self.id, commit.steps, **commit.values)
        t_views = time.perf_counter()
        TRACE.add("commit", t_views - t_commit)
        self.core.committed(commit)  # from here on the steps are acknowledged
        if ack is not None:
            ack()
        for st in commit.steps:
            who = "chance" if st.seat is None else f"seat {st.seat}"
            flags = "".join(f" {n}" for n in ("timeout", "stand_in", "bot") if getattr(st, n))
            log.info("table %s: event %d %s %s%s", self.id, st.seq, st.kind, who, flags)
        self.fanout.forget(log_rewritten=full)
        self.fanout.send_views(full=full)
        TRACE.add("views", time.perf_counter() - t_views)
        if self.row.status == "finished":
            winners = self.core.state.winners() if self.core.state is not None else []
            log.info("table %s: finished, winners %s", self.id, winners)
            self._cancel_all()
            self._broadcast_table()
            return
        self._arm_timer()
        self._schedule_bots()

    def _broadcast_presence(self) -> None:
        msg = {
            "type": "presence",
            "seats": self.seats_json(),
            "spectators": self.crowd.spectators(),
        }
        self.crowd.broadcast(msg)

    def _broadcast_table(self) -> None:
        self.crowd.broadcast({"type": "table", "table": self.table_json()})

    # --- seats and people ---------------------------------------------------------------------
    def seat_of(self, player_id: str | None) -> int | None:
        return lobby.seat_of(lobby.seats_of(self.row), player_id)

    def seats_json(self) -> list[dict[str, Any]]:
        return lobby.seats_json(
            self.row, self.names, self.crowd.connected_seats(), self.crowd.stand_in
        )

    def table_json(self) -> dict[str, Any]:
        """The public description of the table (what ``GET /api/tables/{id}`` returns)."""
        return lobby.table_json(self.row, self.names, self.version, self.seats_json())

    def undo_offer(self, seat: int | None) -> dict[str, Any] | None:
        """The view's ``undo`` field for a connection of ``seat`` (None for spectators)."""
        if seat is None:
            return None
        return self.core.undo_offer(seat, self._by_person(seat))

    def _by_person(self, seat: int) -> bool:
        return lobby.seats_of(self.row)[seat].kind == "person" and seat not in self.crowd.stand_in

    def _bot_code(self, seat: int) -> str | None:
        entry = lobby.seats_of(self.row)[seat]
        if entry.kind == "bot":
            return entry.level or "medium"
        return STAND_IN_LEVEL if seat in self.crowd.stand_in else None

    def _schedule_bots(self) -> None:
        self.bots.schedule(self._bot_code, self.crowd.stand_in)

    def _start_graces(self) -> None:
        for seat in lobby.person_seats(lobby.seats_of(self.row)):
            if not self.crowd.seat_connected(seat):
                self._start_grace(seat)

    def _start_grace(self, seat: int) -> None:
        if self.row.disconnect_policy == "bot":
            self.crowd.start_grace(
                seat, self.row.grace, lambda: self.post(lambda: self._grace_over(seat))
            )

    async def _grace_over(self, seat: int) -> None:
        if self.crowd.grace_over(seat, self.row.status == "playing"):
            log.info("table %s: seat %d is away; a %s bot stands in", self.id, seat, STAND_IN_LEVEL)
            self._broadcast_presence()
            self._schedule_bots()

    # --- connections --------------------------------------------------------------------------
    async def attach(self, player: PlayerRow | None, spectate: bool, since: int | None) -> Any:
        """Attach a new connection (its welcome, table and view queued). Returns it."""

        async def job() -> Connection:
            seat = lobby.admitted(self.row, player, spectate)
            if player is not None:
                self.names[player.id] = player.name
            conn = Connection(player, seat, self.action_rate)
            conn.spectate = spectate
            self.crowd.add(conn)
            conn.send(self.welcome(conn, player))
            conn.send({"type": "table", "table": self.table_json()})
            if seat is not None and self.crowd.seat_returns(seat):
                log.info("table %s: seat %d is back; the stand-in hands it over", self.id, seat)
                self.bots.cancel(seat)
            if self.core.state is not None:
                self.fanout.send_view(conn, since=since)
            self._broadcast_presence()
            return conn

        return await self.call(job)

    def welcome(self, conn: Connection, player: PlayerRow | None) -> dict[str, Any]:
        """The ``welcome`` message, built in this one place (``docs/protocol.md``)."""
        return {
            "type": "welcome",
            "protocol": 1,
            "table": self.id,
            "seat": conn.seat,
            "player_id": conn.player_id,
            "name": conn.name if player is not None else None,
            "version": self.version,
            "action_rate": {"count": self.action_rate[0], "seconds": self.action_rate[1]},
            "chat": chat_limits(),
            # the board's places once the game has started (the page draws without asking
            # GET /geometry; in the lobby the player count may still change)
            "geometry": self.core.state.board_geometry() if self.core.state is not None else None,
        }

    async def detach(self, conn: Connection) -> None:
        async def job() -> None:
            self.crowd.remove(conn)
            seat = conn.seat
            playing = self.row.status == "playing"
            if seat is not None and playing and not self.crowd.seat_connected(seat):
                self._start_grace(seat)
            self._broadcast_presence()

        await self.call(job)

    async def sync(self, conn: Connection, since: int | None) -> None:
        async def job() -> None:
            conn.send({"type": "table", "table": self.table_json()})
            if self.core.state is not None:
                self.fanout.send_view(conn, since=since, full=since is None)

        await self.call(job)

    # --- a person's action and undo ------------------------------------------------------------
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
        if self.row.status != "playing" or self.core.state is None:
            raise ApiError("not_playing", f"the table is {self.row.status}, not playing")
        return seat

    def _current_view_first(self, conn: Connection, err: ApiError) -> None:
        if err.code == "stale":  # the refusal comes with the current view (lines it lacks)
            self.fanout.send_view(conn)

    async def act(self, conn: Connection, text: str, version: int, ref: str | None) -> None:
        """A person's action message; errors go to that sender only."""

        async def job() -> None:
            if TRACE.enabled:
                started = time.perf_counter()
                TRACE.add("queue", started - conn.trace_parsed)
                conn.trace_parsed = started  # from here: the apply stage
            seat = self._check_sender(conn, "act")
            try:
                accepted = self.core.act(seat, text, version)
            except ApiError as err:
                self._current_view_first(conn, err)
                raise
            if TRACE.enabled:
                TRACE.add("apply", time.perf_counter() - conn.trace_parsed)
                conn.trace_version = self.core.next_seq() - 1
            action = str(accepted.action)
            await self._publish(
                ack=lambda: conn.send(
                    {"type": "accepted", "ref": ref, "action": action, "version": self.version}
                )
            )
            self.checks.start(accepted)

        await self.call(job)

    async def undo(self, conn: Connection, steps: int | str, version: int, ref: str | None) -> None:
        """A person's undo message; errors go to that sender only."""

        async def job() -> None:
            seat = self._check_sender(conn, "undo")
            try:
                n = self.core.undo(
                    seat,
                    steps,
                    version,
                    by_person=self._by_person(seat),
                    offer_changed=lambda: self.fanout.send_views(seat=seat),
                )
            except ApiError as err:
                self._current_view_first(conn, err)
                raise
            first = self.core.pending[-1].undoes
            await self._publish(full=True)
            log.info("table %s: seat %d undid %d step(s) from event %s", self.id, seat, n, first)
            conn.send({"type": "undone", "ref": ref, "steps": n, "version": self.version})

        await self.call(job)

    # --- bots and the clock ------------------------------------------------------------------
    def _bot_chose(
        self, seat: int, code: str, version: int, text: str, stand_in: bool, failed: bool
    ) -> None:
        async def job() -> None:
            self.bots.finished(seat)
            state = self.core.state
            if state is None or self.row.status != "playing" or seat not in state.acting_seats():
                return
            if self._bot_code(seat) != code or not self.core.bot_move(
                seat, version, text, stand_in=stand_in, failed=failed
            ):
                self._schedule_bots()
                return
            await self._publish()

        self.post(job)

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.core.clock.next_deadline()
        if deadline is None or self.row.status != "playing":
            return
        delay = max(0.0, deadline - time.time())
        self._timer = asyncio.get_running_loop().call_later(delay, lambda: self.post(self._expire))

    async def _expire(self) -> None:
        """The clock ran out for some seats: their defaults, as time-outs (IR-28)."""
        self._timer = None
        timed_out = self.core.expire(time.time(), self.crowd.stand_in)
        if not self.core.pending:
            self._arm_timer()
            return
        for seat, applied in timed_out:
            log.info("table %s: seat %d timed out (%d defaults)", self.id, seat, applied)
        await self._publish()
        for seat, applied in timed_out:  # after the views that show the defaults
            msg = {"type": "timeout", "seat": seat, "steps": applied, "version": self.version}
            self.crowd.broadcast(msg)

    # --- chat ---------------------------------------------------------------------------------
    def chat_channel(self, player_id: str | None) -> str:
        """``players`` for a person holding a seat here (from any of their connections),
        ``spectators`` for everyone else (docs/server.md, "Chat")."""
        return channel_of(self.seat_of(player_id))

    async def chat(self, conn: Connection, text: str) -> None:
        async def job() -> None:
            body = checked_line(conn.player_id, text, conn.chats)
            assert conn.player_id is not None
            seat = self.seat_of(conn.player_id)  # a players' line is stored with its seat
            row = await self.store.add_chat(self.id, conn.player_id, conn.name, seat, body)
            msg = {"type": "chat", **line_json(row)}
            everyone = everyone_reads(self.row.status)
            for other in self.crowd:
                if everyone or self.chat_channel(other.player_id) == msg["channel"]:
                    other.send(msg)

        await self.call(job)

    # --- the lobby ----------------------------------------------------------------------------
    async def change_seats(
        self,
        player: PlayerRow,
        change: Callable[[list[lobby.Seat]], list[lobby.Seat]],
        *,
        host: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A lobby change before the start, in the task: ``change`` makes the new seats (a
        function of :mod:`.seats`); the host alone may do ``host`` (its words in the refusal),
        and change the (already checked) ``settings``. Saved, then everyone is told; people
        moved out of their seats by the host get a ``kicked`` notice."""

        async def job() -> dict[str, Any]:
            if host is not None:
                lobby.require_host(self.row, player, host)
            lobby.require_lobby(self.row)
            seats = lobby.seats_of(self.row)
            before = lobby.persons(seats)
            if settings is not None:
                new = lobby.TableSettings.of(self.row).changed(settings)
                seats = lobby.resize(seats, new.players)
                new.write(self.row)
                self.core.clock = TableClock(self.row.clock, self.row.commit_clock)
            lobby.store_seats(self.row, change(seats))
            self.names[player.id] = player.name
            await self._save_lobby()
            if host is not None:
                now = lobby.persons(lobby.seats_of(self.row))
                gone = {pid: seat for pid, seat in before.items() if pid not in now}
                watch = lambda pid: self.row.spectators or pid == self.row.host_id  # noqa: E731
                self.crowd.moved_out(self.id, gone, player.name, watch)
                for seat in gone.values():
                    log.info("table %s: seat %d's person moved out by the host", self.id, seat)
            return self.table_json()

        return await self.call(job)

    async def _save_lobby(self) -> None:
        self.row.updated_at = time.time()
        await self.store.save_table(self.id, **lobby.lobby_columns(self.row))
        for conn in self.crowd.rebind(self.seat_of):
            if self.core.state is not None:  # a whole view of what the new seat may see
                self.fanout.send_view(conn, full=True)
        self._broadcast_table()
        self._broadcast_presence()

    async def begin(self, player: PlayerRow) -> dict[str, Any]:
        async def job() -> dict[str, Any]:
            lobby.require_host(self.row, player, "start the game")
            lobby.require_lobby(self.row)
            lobby.require_full(lobby.seats_of(self.row))
            self.core.start()  # version 0, its first chance steps pending
            self.row.status = "playing"
            self.row.started_at = time.time()
            await self.store.save_table(self.id, status="playing", started_at=self.row.started_at)
            log.info("table %s: started (%s, %d players)", self.id, self.row.game, self.row.players)
            self._broadcast_table()
            await self._publish()
            self._start_graces()
            return self.table_json()

        return await self.call(job)

    async def rematch_made(self, table: dict[str, Any], by: PlayerRow) -> None:
        """Tell every connection of this (finished) table that its rematch exists."""

        async def job() -> None:
            self.row.rematch_id = table["id"]
            msg = {"type": "rematch", "table": table["id"], "rematch_of": self.id, "by": by.name}
            self.crowd.broadcast(msg)
            self._broadcast_table()

        await self.call(job)
