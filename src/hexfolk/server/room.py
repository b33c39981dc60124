"""The room: the asyncio actor of one live table. Its mailbox (:mod:`.mailbox`) runs every
change (an action, an undo, a bot's move, a clock expiry, a lobby change, chat) as one job
after another, so nothing races; the room wires the parts that each hold one concern:

* the table core (:mod:`.table_core`): the game, synchronous: an event in, pending steps out;
* the store: the pending steps, chance draws and new clocks are committed in one transaction,
  and only then announced;
* the crowd (:mod:`.crowd`): connections, presence, grace periods and stand-ins;
* the fan-out (:mod:`.fanout`): views per viewer, log diffs, sending; the welcome
  (:mod:`.greeting`);
* who may act (:mod:`.senders`), lobby seats (:mod:`.seats`), chat (:mod:`.chat`), bot turns
  (:mod:`.bot_turns`), the clock's timer (:mod:`.clock`), reveal checks, recovery after a
  fault (:mod:`.recovery`).

Refusals go to the sender only; a ``stale`` one comes after the current view. An accepted
action's ``accepted`` goes to its sender as soon as the step is committed, before anyone's new
view.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from hexfolk.core import State
from hexfolk.server import seats as lobby
from hexfolk.server.bot_turns import BotTurns, bot_code
from hexfolk.server.botpool import BotPool
from hexfolk.server.chat import LIVE, checked_line, history, send_line
from hexfolk.server.clock import ClockTimer
from hexfolk.server.crowd import STAND_IN_LEVEL, Connection, Crowd
from hexfolk.server.errors import ApiError
from hexfolk.server.fanout import FanOut
from hexfolk.server.greeting import welcome
from hexfolk.server.limits import ACTION_RATE
from hexfolk.server.mailbox import Mailbox, in_task
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.recovery import Faults, recover
from hexfolk.server.reveal_checks import RevealChecks
from hexfolk.server.senders import sender_seat
from hexfolk.server.store import Store
from hexfolk.server.table_core import TableCore
from hexfolk.server.trace import TRACE

__all__ = ["LIVE", "Connection", "Room"]

log = logging.getLogger("hexfolk.server.room")


class Room:
    """A live table; its public coroutines run in its mailbox's task."""

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
        self.mailbox = Mailbox(f"room-{row.id}", self._after_fault)
        self.post, self.faults = self.mailbox.post, Faults()
        self.bots = BotTurns(self.core, pool, self._bot_chose)
        self.timer = ClockTimer(lambda: self.post(self._expire))
        self.checks = RevealChecks(self.core, self.post, lambda s: self.fanout.send_views(seat=s))
        self.id, self.conns = row.id, self.crowd.conns

    @property
    def state(self) -> State | None:
        return self.core.state

    def start(self) -> None:
        self.mailbox.start()

    async def stop(self) -> None:
        """Stop the task after the queued jobs; cancel timers and bots."""
        await self.mailbox.stop()
        self._cancel_all()
        self.crowd.close_all()

    def _cancel_all(self) -> None:
        self.timer.cancel()
        self.crowd.cancel_grace()
        self.bots.cancel_all()
        self.checks.cancel_all()

    async def _after_fault(self, exc: Exception) -> None:
        """A bug in a job: rebuild from the committed log (:func:`.recovery.recover`)."""
        self.core.abort()
        self._cancel_all()
        await recover(
            self.row,
            self.store,
            self.faults,
            self.core.version,
            exc,
            self._rebuild,
            self._broadcast_table,
        )

    async def _rebuild(self) -> None:
        await self.load()
        await self._resume()
        self.fanout.send_views(full=True)

    # --- loading and resuming -----------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild the state by replaying the committed event log (nothing else is trusted)."""
        self.fanout.forget()
        self.core.load(await self.store.events(self.id) if self.row.status != "lobby" else [])

    def shift_clocks(self, seconds: float) -> None:
        """Give back ``seconds`` of down time to every running clock (after a restart)."""
        if seconds > 0:
            self.core.clock.shift(seconds)

    def resume(self) -> None:
        """After loading: arm the clock, grace timers and bots (in the task)."""
        self.post(self._resume)

    async def _resume(self) -> None:
        state = self.core.state
        if self.row.status != "playing" or state is None:
            return
        self._start_graces()
        if state.is_chance():  # a crash between a step and its chance draw
            self.post(self._draw_and_publish)
            return
        self.core.clock.follow(state, time.time())  # windows saved before clock steps
        self._next_turn()

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
        for line in commit.described():
            log.info("table %s: %s", self.id, line)
        self.fanout.forget(log_rewritten=full)
        self.fanout.send_views(full=full)
        TRACE.add("views", time.perf_counter() - t_views)
        if self.row.status == "finished":
            winners = self.core.state.winners() if self.core.state is not None else []
            log.info("table %s: finished, winners %s", self.id, winners)
            self._cancel_all()
            return self._broadcast_table()
        self._next_turn()

    def _next_turn(self) -> None:
        """Arm the clock's timer and start the bots that decide now."""
        self._arm_timer()
        self._next_bots()

    def _arm_timer(self) -> None:
        playing = self.row.status == "playing"
        self.timer.arm(self.core.clock.next_deadline() if playing else None)

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
        return lobby.table_json(self.row, self.names, self.core.version, self.seats_json())

    def undo_offer(self, seat: int | None) -> dict[str, Any] | None:
        """The view's ``undo`` field for a connection of ``seat`` (None for spectators)."""
        if seat is None:
            return None
        by_person = lobby.played_by_person(self.row, seat, self.crowd.stand_in)
        return self.core.undo_offer(seat, by_person)

    def _start_graces(self, *seats: int) -> None:
        """Grace periods for the person seats (or ``seats``) that have no connection."""
        people = seats or lobby.person_seats(lobby.seats_of(self.row))
        over = lambda seat: self.post(lambda: self._grace_over(seat))  # noqa: E731
        self.crowd.start_graces(people, self.row.disconnect_policy, self.row.grace, over)

    async def _grace_over(self, seat: int) -> None:
        if self.crowd.grace_over(seat, self.row.status == "playing"):
            log.info("table %s: seat %d is away; a %s bot stands in", self.id, seat, STAND_IN_LEVEL)
            self.crowd.send_presence(self.seats_json())
            self._next_bots()

    def _next_bots(self) -> None:
        stand_in = self.crowd.stand_in
        self.bots.schedule(lambda seat: bot_code(self.row, stand_in, seat), stand_in)

    # --- connections --------------------------------------------------------------------------
    @in_task
    async def attach(
        self, player: PlayerRow | None, spectate: bool, since: int | None
    ) -> Connection:
        """Attach a new connection (its welcome, table and view queued). Returns it."""
        seat = lobby.admitted(self.row, player, spectate)
        if player is not None:
            self.names[player.id] = player.name
        # the chat lines it reads go in its welcome: read before it joins the crowd, so that
        # nothing reaches it before its welcome
        chat = await history(self.store, self.row, player.id if player else None)
        conn = Connection(player, seat, self.action_rate)
        conn.spectate = spectate
        self.crowd.add(conn)
        conn.send(welcome(conn, self.core, self.action_rate, chat))
        conn.send({"type": "table", "table": self.table_json()})
        if seat is not None and self.crowd.seat_returns(seat):
            log.info("table %s: seat %d is back; the stand-in hands it over", self.id, seat)
            self.bots.cancel(seat)
        if self.core.state is not None:
            self.fanout.send_view(conn, since=since)
        self.crowd.send_presence(self.seats_json())
        return conn

    @in_task
    async def detach(self, conn: Connection) -> None:
        self.crowd.remove(conn)
        if conn.seat is not None and self.row.status == "playing":
            self._start_graces(conn.seat)
        self.crowd.send_presence(self.seats_json())

    @in_task
    async def sync(self, conn: Connection, since: int | None) -> None:
        conn.send({"type": "table", "table": self.table_json()})
        if self.core.state is not None:
            self.fanout.send_view(conn, since=since, full=since is None)

    # --- a person's action and undo ------------------------------------------------------------
    def _sender(self, conn: Connection, what: str) -> int:
        return sender_seat(conn, self.row, self.core.state is not None, self.action_rate, what)

    @in_task
    async def act(self, conn: Connection, text: str, version: int, ref: str | None) -> None:
        """A person's action message; errors go to that sender only."""
        if TRACE.enabled:
            started = time.perf_counter()
            TRACE.add("queue", started - conn.trace_parsed)
            conn.trace_parsed = started  # from here: the apply stage
        seat = self._sender(conn, "act")
        try:
            accepted = self.core.act(seat, text, version)
        except ApiError as err:
            if err.code == "stale":  # the refusal comes with the current view (lines it lacks)
                self.fanout.send_view(conn)
            raise
        if TRACE.enabled:
            TRACE.add("apply", time.perf_counter() - conn.trace_parsed)
            conn.trace_version = self.core.next_seq() - 1
        msg = {"type": "accepted", "ref": ref, "action": str(accepted.action)}
        await self._publish(ack=lambda: conn.send({**msg, "version": self.core.version}))
        self.checks.start(accepted)

    @in_task
    async def undo(self, conn: Connection, steps: int | str, version: int, ref: str | None) -> None:
        """A person's undo message; errors go to that sender only."""
        seat = self._sender(conn, "undo")
        try:
            by_person = lobby.played_by_person(self.row, seat, self.crowd.stand_in)
            changed = lambda: self.fanout.send_views(seat=seat)  # noqa: E731
            n = self.core.undo(seat, steps, version, by_person=by_person, offer_changed=changed)
        except ApiError as err:
            if err.code == "stale":
                self.fanout.send_view(conn)
            raise
        first = self.core.pending[-1].undoes
        await self._publish(full=True)
        log.info("table %s: seat %d undid %d step(s) from event %s", self.id, seat, n, first)
        conn.send({"type": "undone", "ref": ref, "steps": n, "version": self.core.version})

    # --- bots and the clock ------------------------------------------------------------------
    def _bot_chose(
        self, seat: int, code: str, version: int, text: str, stand_in: bool, failed: bool
    ) -> None:
        async def job() -> None:
            self.bots.finished(seat)
            state = self.core.state
            if state is None or self.row.status != "playing" or seat not in state.acting_seats():
                return
            if bot_code(self.row, self.crowd.stand_in, seat) != code or not self.core.bot_move(
                seat, version, text, stand_in=stand_in, failed=failed
            ):
                return self._next_bots()
            await self._publish()

        self.post(job)

    async def _expire(self) -> None:
        """The clock ran out for some seats: their defaults, as time-outs (IR-28)."""
        timed_out = self.core.expire(time.time(), self.crowd.stand_in)
        if not self.core.pending:
            return self._arm_timer()
        for seat, applied in timed_out:
            log.info("table %s: seat %d timed out (%d defaults)", self.id, seat, applied)
        await self._publish()
        for seat, applied in timed_out:  # after the views that show the defaults
            msg = {"type": "timeout", "seat": seat, "steps": applied, "version": self.core.version}
            self.crowd.broadcast(msg)

    # --- chat and the lobby ---------------------------------------------------------------------
    @in_task
    async def chat(self, conn: Connection, text: str) -> None:
        body = checked_line(conn.player_id, text, conn.chats)
        assert conn.player_id is not None
        seat = self.seat_of(conn.player_id)  # a players' line is stored with its seat
        row = await self.store.add_chat(self.id, conn.player_id, conn.name, seat, body)
        send_line(self.crowd, row, self.row.status, self.seat_of)

    @in_task
    async def change_seats(
        self,
        player: PlayerRow,
        change: Callable[[list[lobby.Seat]], list[lobby.Seat]],
        *,
        host: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A lobby change before the start (:func:`.seats.change_lobby`); saved, then everyone
        is told; people moved out of their seats by the host get a ``kicked`` notice."""
        gone = lobby.change_lobby(self.row, player, change, host=host, settings=settings)
        if settings is not None:
            self.core.settings_changed()
        self.names[player.id] = player.name
        self.row.updated_at = time.time()
        await self.store.save_table(self.id, **lobby.lobby_columns(self.row))
        for conn in self.crowd.rebind(self.seat_of):
            if self.core.state is not None:  # a whole view of what the new seat may see
                self.fanout.send_view(conn, full=True)
        self._broadcast_table()
        self.crowd.send_presence(self.seats_json())
        self.crowd.moved_out(self.id, gone, player.name, lambda pid: lobby.may_watch(self.row, pid))
        for seat in gone.values():
            log.info("table %s: seat %d's person moved out by the host", self.id, seat)
        return self.table_json()

    @in_task
    async def begin(self, player: PlayerRow) -> dict[str, Any]:
        lobby.require_startable(self.row, player)
        self.core.start()  # version 0, its first chance steps pending
        self.row.status, self.row.started_at = "playing", time.time()
        await self.store.save_table(self.id, status="playing", started_at=self.row.started_at)
        log.info("table %s: started (%s, %d players)", self.id, self.row.game, self.row.players)
        self._broadcast_table()
        await self._publish()
        self._start_graces()
        return self.table_json()

    @in_task
    async def rematch_made(self, table: dict[str, Any], by: PlayerRow) -> None:
        """Tell every connection of this (finished) table that its rematch exists."""
        self.row.rematch_id = table["id"]
        msg = {"type": "rematch", "table": table["id"], "rematch_of": self.id, "by": by.name}
        self.crowd.broadcast(msg)
        self._broadcast_table()
