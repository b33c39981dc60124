"""A table's connections coming and going: who a new socket is at the table and what it is
sent first, a returning seat taken back from its stand-in, the grace period of a seat left
without a connection, a stand-in taking over when that runs out, and a resync. Synchronous;
the room runs each in its task (:mod:`hexfolk.server.room`).

A new connection gets, in this order: its ``welcome`` (:mod:`.greeting`), the ``table``, its
view once a game exists (the log lines it lacks since the version it names), and everyone the
new ``presence``. The crowd (:mod:`.crowd`) keeps the connections and the grace timers; this
module decides when they start and what follows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from hexfolk.server import seats
from hexfolk.server.crowd import STAND_IN_LEVEL, Connection
from hexfolk.server.fanout import FanOut
from hexfolk.server.greeting import welcome
from hexfolk.server.limits import ACTION_RATE
from hexfolk.server.models import PlayerRow
from hexfolk.server.table_lobby import TableLobby

log = logging.getLogger("hexfolk.server.room")


class Connections:
    """The comings and goings at the table of ``lobby``. ``away(seat)`` is called when the
    grace period of ``seat`` runs out (outside the room's task: the room queues
    :meth:`grace_over`); ``back(seat)`` when a person returns to a seat a stand-in played (the
    room cancels that bot's turn)."""

    def __init__(
        self,
        lobby: TableLobby,
        fanout: FanOut,
        *,
        away: Callable[[int], None],
        back: Callable[[int], None],
        action_rate: tuple[int, float] = ACTION_RATE,
    ):
        self.lobby, self.fanout = lobby, fanout
        self.row, self.core, self.crowd = lobby.row, lobby.core, lobby.crowd
        self.away, self.back, self.action_rate = away, back, action_rate

    def attach(
        self,
        player: PlayerRow | None,
        spectate: bool,
        since: int | None,
        chat: list[dict[str, Any]],
    ) -> Connection:
        """A new connection of ``player`` (None: not identified), to watch when ``spectate``:
        admitted (:func:`.seats.admitted`, or its refusal), greeted (``chat``: the chat lines
        it may read, :func:`.chat.history`), its seat handed back by a stand-in, its view sent
        (``since``: the version it saw last). Returns it."""
        seat = seats.admitted(self.row, player, spectate)
        if player is not None:
            self.lobby.met(player)
        conn = Connection(player, seat, self.action_rate)
        conn.spectate = spectate
        self.crowd.add(conn)
        conn.send(welcome(conn, self.core, self.action_rate, chat))
        conn.send(self.lobby.table_message())
        if seat is not None and self.crowd.seat_returns(seat):
            log.info("table %s: seat %d is back; the stand-in hands it over", self.row.id, seat)
            self.back(seat)
        if self.core.state is not None:
            self.fanout.send_view(conn, since=since)
        self.crowd.send_presence(self.lobby.seats_json())
        return conn

    def detach(self, conn: Connection) -> None:
        """``conn`` closed: during a game its seat's grace period starts if no other
        connection plays it; everyone gets the new presence."""
        self.crowd.remove(conn)
        if conn.seat is not None and self.row.status == "playing":
            self.start_graces(conn.seat)
        self.crowd.send_presence(self.lobby.seats_json())

    def sync(self, conn: Connection, since: int | None) -> None:
        """``conn`` asks to catch up: the table, and its view with the log lines since the
        version ``since`` (when this process holds it in memory, else the lines this
        connection was not sent yet: a resync never replays), or the whole log when
        ``since`` is None (the client starts over)."""
        conn.send(self.lobby.table_message())
        if since is None:
            conn.log_sent, conn.log_tail = 0, ()
        if self.core.state is not None:
            self.fanout.send_view(conn, since=since, past=False)

    # --- grace periods and stand-ins --------------------------------------------------------
    def start_graces(self, *seats: int) -> None:
        """Grace periods for the person seats (or ``seats``) that have no connection, under
        the table's disconnect policy."""
        people = seats or self.lobby.person_seats()
        self.crowd.start_graces(people, self.row.disconnect_policy, self.row.grace, self.away)

    def grace_over(self, seat: int) -> bool:
        """The grace period of ``seat`` ran out: True when a stand-in plays it from now on
        (everyone gets the new presence; the room then starts the bots)."""
        if not self.crowd.grace_over(seat, self.row.status == "playing"):
            return False
        log.info("table %s: seat %d is away; a %s bot stands in", self.row.id, seat, STAND_IN_LEVEL)
        self.crowd.send_presence(self.lobby.seats_json())
        return True
