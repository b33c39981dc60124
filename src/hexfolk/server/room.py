"""The room: the asyncio actor of one live table. Its mailbox (:mod:`.mailbox`) runs every
change as one job after another, so nothing races. The room wires the parts that each hold one
concern: the table core (:mod:`.table_core`), the crowd and connections (:mod:`.crowd`,
:mod:`.connections`), the fan-out (:mod:`.fanout`), the lobby (:mod:`.table_lobby`), who may
act (:mod:`.senders`), chat (:mod:`.chat`), bots (:mod:`.bot_turns`), the clock
(:mod:`.clock_expiry`), reveal checks (:mod:`.reveal_checks`), loading (:mod:`.resume`) and
faults (:mod:`.recovery`), what follows the game (:mod:`.game_end`). Pending steps are committed
in one transaction, then announced (:meth:`Room._publish`): an action's ``accepted`` to its
sender, then the views. Refusals go to the sender only; a ``stale`` one after the current view.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from hexfolk.core import State
from hexfolk.server.bot_turns import BotTurns
from hexfolk.server.botpool import BotPool
from hexfolk.server.chat import LIVE, add_line, history
from hexfolk.server.clock_expiry import ClockExpiry
from hexfolk.server.connections import Connections
from hexfolk.server.crowd import Connection, Crowd
from hexfolk.server.errors import ApiError
from hexfolk.server.fanout import FanOut
from hexfolk.server.game_end import GameEnd
from hexfolk.server.limits import ACTION_RATE
from hexfolk.server.mailbox import Mailbox, in_task
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.recovery import Faults, recover
from hexfolk.server.resume import Resume
from hexfolk.server.reveal_checks import RevealChecks
from hexfolk.server.seats import Seat, lobby_columns
from hexfolk.server.senders import sender_seat
from hexfolk.server.store import Store
from hexfolk.server.structured_logs import table_context
from hexfolk.server.table_core import TableCore
from hexfolk.server.table_lobby import TableLobby
from hexfolk.server.trace import TRACE

__all__ = ["LIVE", "Connection", "Room"]

log = logging.getLogger("hexfolk.server.room")


class Room:
    """A live table; its public coroutines run in its mailbox's task (``names``: player id →
    name, for the people the table's row names)."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        pool: BotPool,
        *,
        names: dict[str, str] | None = None,
        action_rate: tuple[int, float] = ACTION_RATE,
        game_end: GameEnd,  # what runs once the game is over
    ):
        self.row, self.store, self.action_rate, self.game_end = row, store, action_rate, game_end
        self.core = TableCore(row)
        self.crowd = Crowd()
        self.lobby = lobby = TableLobby(row, self.core, self.crowd, names)
        self.fanout = FanOut(row, self.core, self.crowd, lobby.seats_json, lobby.undo_offer)
        self.mailbox = Mailbox(f"room-{row.id}", self._after_fault)
        self.post, self.faults = self.mailbox.post, Faults()
        self.bots = BotTurns(self.core, pool, self.crowd, self.post, self._publish)
        self.expiry = ClockExpiry(self.core, self.crowd, self.post, self._publish)
        self.checks = RevealChecks(self.core, self.post, lambda s: self.fanout.send_views(seat=s))
        away = lambda seat: self.post(lambda: self._grace_over(seat))  # noqa: E731
        self.connections = Connections(
            lobby, self.fanout, away=away, back=self.bots.cancel, action_rate=action_rate
        )
        self.resumption = Resume(self.connections, store, self.post, self._publish, self._next_turn)
        self.id, self.conns = row.id, self.crowd.conns

    @property
    def state(self) -> State | None:
        """The game now (None in the lobby)."""
        return self.core.state

    def table_json(self) -> dict[str, Any]:
        """The public description of the table (what ``GET /api/tables/{id}`` returns)."""
        return self.lobby.table_json()

    # --- the task, loading and resuming (:mod:`.resume`), faults (:mod:`.recovery`) --------
    def start(self) -> None:
        """Start the mailbox's task (after :meth:`load`); its log lines name the table."""
        table_context(self.id).run(self.mailbox.start)

    async def stop(self, code: int | None = None, reason: str = "") -> None:
        """Stop the task after the queued jobs; cancel timers and bots; close the connections
        (with ``code``: 1012 when the table moved to another process, which they reconnect to)."""
        await self.mailbox.stop()
        self._cancel_all()
        self.crowd.close_all(code, reason)

    def _cancel_all(self) -> None:
        """Stop every timer: the clock's, the grace periods, the bots, the reveal checks."""
        self.expiry.cancel()
        self.crowd.cancel_grace()
        self.bots.cancel_all()
        self.checks.cancel_all()

    async def load(self) -> None:
        """Rebuild the state by replaying the committed event log (:meth:`.Resume.load`)."""
        await self.resumption.load()

    def shift_clocks(self, seconds: float) -> None:
        """Give back ``seconds`` of down time to every running clock (after a restart)."""
        if seconds > 0:
            self.core.clock.shift(seconds)

    def resume(self) -> None:
        """After loading: arm the clock, grace timers and bots (:meth:`.Resume.resume`)."""
        self.post(self.resumption.resume)

    async def _after_fault(self, exc: Exception) -> None:
        """A bug in a job: rebuild from the committed log (:func:`.recovery.recover`)."""
        self.core.abort()
        self._cancel_all()
        rebuild, errored = self.resumption.rebuild, self.lobby.broadcast_table
        await recover(self.row, self.store, self.faults, self.core.version, exc, rebuild, errored)

    # --- committing and announcing -------------------------------------------------------------
    async def _publish(self, *, full: bool = False, ack: Callable[[], None] | None = None) -> None:
        """Commit the pending steps, clocks and status, then run ``ack`` (the sender's
        ``accepted``) and tell everyone (``full``: the whole log, after an undo rewrote it)."""
        commit = self.core.to_commit(time.time(), full=full)
        t_commit = time.perf_counter()
        await self.store.commit_steps(self.id, commit.steps, **commit.values)
        t_views = time.perf_counter()
        TRACE.add("commit", t_views - t_commit, act=ack is not None)  # act: a person's action
        self.core.committed(commit)  # from here on the steps are acknowledged
        if ack is not None:
            ack()
        if log.isEnabledFor(logging.INFO):  # the lines are not even built at --log-level warning
            for line in commit.described():
                log.info("table %s: %s", self.id, line)
        self.fanout.forget(log_rewritten=full)
        self.fanout.send_views(full=full)
        TRACE.add("views", time.perf_counter() - t_views, act=ack is not None)
        if self.row.status == "finished":
            winners = self.core.state.winners() if self.core.state is not None else []
            log.info("table %s: finished, winners %s", self.id, winners)
            self._cancel_all()
            self.game_end.finished(self.row)
            return self.lobby.broadcast_table()
        self._next_turn()

    def _next_turn(self) -> None:
        """Arm the clock's timer (:mod:`.clock_expiry`) and start the bots that decide now."""
        self.expiry.arm()
        self.bots.next()

    # --- connections (:mod:`.connections`) ----------------------------------------------------
    @in_task
    async def attach(
        self, player: PlayerRow | None, spectate: bool, since: int | None
    ) -> Connection:
        """Attach a new connection (its welcome, table and view queued). Returns it."""
        # its welcome's chat lines, read before it joins the crowd (nothing comes before them)
        chat = await history(self.store, self.row, player.id if player else None)
        return self.connections.attach(player, spectate, since, chat)

    @in_task
    async def detach(self, conn: Connection) -> None:
        """A closed connection (its seat's grace period starts)."""
        self.connections.detach(conn)

    @in_task
    async def sync(self, conn: Connection, since: int | None) -> None:
        """A client's resync: the table and its view since version ``since``."""
        self.connections.sync(conn, since)

    async def _grace_over(self, seat: int) -> None:
        """A grace period ran out: a stand-in bot may play the seat now."""
        if self.connections.grace_over(seat):
            self.bots.next()

    # --- a person's action and undo ------------------------------------------------------------
    def _sender(self, conn: Connection, what: str) -> int:
        """The seat ``conn`` acts for (:func:`.senders.sender_seat`), or its refusal."""
        return sender_seat(conn, self.row, self.core.state is not None, self.action_rate, what)

    @in_task
    async def act(self, conn: Connection, text: str, version: int, ref: str | None) -> None:
        """A person's action message; errors go to that sender only."""
        if TRACE.enabled:
            conn.traced_dequeued()
        seat = self._sender(conn, "act")
        try:
            accepted = self.core.act(seat, text, version)
        except ApiError as err:
            if err.code == "stale":  # the refusal comes with the current view (lines it lacks)
                self.fanout.send_view(conn)
            raise
        if TRACE.enabled:
            conn.traced_applied(self.core.next_seq() - 1)
        msg = {"type": "accepted", "ref": ref, "action": str(accepted.action)}
        await self._publish(ack=lambda: conn.send({**msg, "version": self.core.version}))
        self.checks.start(accepted)

    @in_task
    async def undo(self, conn: Connection, steps: int | str, version: int, ref: str | None) -> None:
        """A person's undo message; errors go to that sender only."""
        seat = self._sender(conn, "undo")
        try:
            by_person = self.lobby.played_by_person(seat)
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

    # --- chat (:mod:`.chat`) and the lobby (:mod:`.table_lobby`) -------------------------------
    @in_task
    async def chat(self, conn: Connection, text: str) -> None:
        """A chat line: checked, stored with the writer's seat, sent to its channel."""
        await add_line(self.store, self.row, self.crowd, self.lobby.seat_of, conn, text)

    @in_task
    async def change_seats(
        self,
        player: PlayerRow,
        change: Callable[[list[Seat]], list[Seat]],
        *,
        host: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A lobby change before the start (:meth:`.TableLobby.change`); saved, then everyone
        is told; people moved out of their seats by the host get a ``kicked`` notice."""
        gone = self.lobby.change(player, change, host=host, settings=settings)
        await self.store.save_table(self.id, **lobby_columns(self.row))
        self.lobby.announce(player, gone, self.fanout)
        return self.table_json()

    @in_task
    async def begin(self, player: PlayerRow) -> dict[str, Any]:
        """The host starts the game: saved as ``playing``, then its first steps committed."""
        self.lobby.start(player)  # version 0, its first chance steps pending
        await self.store.save_table(self.id, status="playing", started_at=self.row.started_at)
        log.info("table %s: started (%s, %d players)", self.id, self.row.game, self.row.players)
        self.lobby.broadcast_table()
        await self._publish()
        self.connections.start_graces()
        return self.table_json()

    @in_task
    async def rematch_made(self, table: dict[str, Any], by: PlayerRow) -> None:
        """Tell every connection of this (finished) table that its rematch exists."""
        self.lobby.rematch_made(table["id"], by)
