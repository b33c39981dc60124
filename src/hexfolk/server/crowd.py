"""The crowd at a table: its connections (who, which seat, what they were sent, their rate
limits), presence, grace periods and stand-ins.

A person's seat with no connection for the grace period (disconnect policy ``bot``) is played
by a stand-in bot (:data:`STAND_IN_LEVEL`) until the person connects again. The crowd keeps the
timers; :mod:`hexfolk.server.connections` starts them and says what follows when one runs
out, and :mod:`hexfolk.server.bot_turns` has the stand-in play.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from hexfolk.server.limits import ACTION_RATE, CHAT_RATE, RateLimit
from hexfolk.server.models import PlayerRow
from hexfolk.server.protocol import CLOSE_AUTH, CLOSE_POLICY
from hexfolk.server.trace import TRACE

STAND_IN_LEVEL = "medium"
"""The bot level that stands in for a disconnected person."""
OUTBOX_MAX = 2000
"""A connection that falls this many messages behind is closed (a stuck client)."""

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
        """The last lines sent (``fanout.LOG_TAIL``; to notice lines an engine rewrote)."""
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

    def traced_dequeued(self) -> None:
        """(Tracing) the room's task took up this connection's action: the ``queue`` stage
        ends, the ``apply`` stage begins."""
        now = time.perf_counter()
        TRACE.add("queue", now - self.trace_parsed)
        self.trace_parsed = now

    def traced_applied(self, version: int) -> None:
        """(Tracing) the action is applied (the ``apply`` stage ends); the view of ``version``
        ends its ``total``."""
        TRACE.add("apply", time.perf_counter() - self.trace_parsed)
        self.trace_version = version

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


class Crowd:
    """The connections of one table, its grace timers and the seats stand-ins play."""

    def __init__(self) -> None:
        self.conns: dict[int, Connection] = {}
        self.stand_in: set[int] = set()
        self._grace: dict[int, asyncio.TimerHandle] = {}

    def __iter__(self) -> Iterator[Connection]:
        """The connections (a copy: sending may close one)."""
        return iter(list(self.conns.values()))

    def __len__(self) -> int:
        return len(self.conns)

    def add(self, conn: Connection) -> None:
        self.conns[conn.id] = conn

    def remove(self, conn: Connection) -> None:
        self.conns.pop(conn.id, None)
        conn.close()

    def of_seat(self, seat: int) -> list[Connection]:
        return [c for c in self.conns.values() if c.seat == seat]

    def seat_connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns.values())

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.conns.values() if c.seat is not None}

    def spectators(self) -> int:
        return sum(1 for c in self.conns.values() if c.seat is None)

    def broadcast(self, message: dict[str, Any]) -> None:
        for conn in self:
            conn.send(message)

    def send_presence(self, seats: list[dict[str, Any]]) -> None:
        """Tell everyone who is here: the seats (connected, stood in for) and how many watch."""
        self.broadcast({"type": "presence", "seats": seats, "spectators": self.spectators()})

    def rebind(self, seat_of: Callable[[str], int | None]) -> list[Connection]:
        """After seat changes, a connection's seat follows its player: a player who takes a
        seat after connecting plays it at once, a kicked one watches. Spectator connections
        stay spectators. The connections whose seat changed."""
        changed = []
        for conn in self:
            if conn.player_id is None or conn.spectate:
                continue
            seat = seat_of(conn.player_id)
            if seat != conn.seat:
                conn.seat = seat
                changed.append(conn)
        return changed

    def moved_out(
        self, table_id: str, seats: Mapping[str, int], by: str, watch: Callable[[str], bool]
    ) -> None:
        """The host ``by`` moved people out of their ``seats`` (player id → seat): each of
        their connections gets a ``kicked`` notice. They watch on where ``watch(player_id)``
        (spectators allowed, or the host); elsewhere their connections are closed (4401). A
        kick is not a ban: the person may take an open seat again (docs/server.md, "Kicks")."""
        for pid, seat in seats.items():
            watching = watch(pid)
            # the English line counts seats from 1, as players see them (the notice's
            # ``seat`` stays the seat's index, as everywhere on the wire)
            message = f"{by} moved you out of seat {seat + 1}; " + (
                "you watch the table now and may take an open seat again"
                if watching
                else "this table does not allow spectators"
            )
            notice = {"type": "kicked", "table": table_id, "seat": seat, "by": by}
            for conn in self:
                if conn.player_id == pid:
                    conn.send({**notice, "message": message})
                    if not watching:
                        conn.close(CLOSE_AUTH, "kicked")

    # --- grace periods and stand-ins --------------------------------------------------------
    def start_graces(
        self, seats: Iterable[int], policy: str, seconds: float, over: Callable[[int], None]
    ) -> None:
        """Under disconnect policy ``bot``: a grace period for each of ``seats`` that has no
        connection (``over(seat)`` when it runs out)."""
        if policy != "bot":
            return
        for seat in seats:
            if not self.seat_connected(seat):
                self.start_grace(seat, seconds, functools.partial(over, seat))

    def start_grace(self, seat: int, seconds: float, over: Callable[[], None]) -> None:
        """Call ``over`` in ``seconds`` unless the seat is back (or already stood in for)."""
        if seat in self._grace or seat in self.stand_in:
            return
        self._grace[seat] = asyncio.get_running_loop().call_later(seconds, over)

    def grace_over(self, seat: int, playing: bool) -> bool:
        """The grace period of ``seat`` ran out: True when a stand-in takes the seat now (the
        game is ``playing`` and no connection came back)."""
        self._grace.pop(seat, None)
        if not playing or self.seat_connected(seat):
            return False
        self.stand_in.add(seat)
        return True

    def seat_returns(self, seat: int) -> bool:
        """A connection of ``seat`` arrived: its grace timer stops; True when a stand-in
        played the seat (it hands the seat back)."""
        handle = self._grace.pop(seat, None)
        if handle is not None:
            handle.cancel()
        if seat in self.stand_in:
            self.stand_in.discard(seat)
            return True
        return False

    def cancel_grace(self) -> None:
        for handle in self._grace.values():
            handle.cancel()
        self._grace.clear()

    def close_all(self, code: int | None = None, reason: str = "") -> None:
        """Close every connection (``code``: the close code, e.g. 1012 when the table moved)."""
        for conn in self:
            conn.close(code, reason)
