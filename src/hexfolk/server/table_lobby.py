"""The lobby of one live table: its seats and the people at it as the room sees them, and the
lobby operations applied to it. Synchronous; the room runs each in its task and saves the row
in between (:mod:`hexfolk.server.room`: only the room's task touches the store).

:mod:`.seats` holds the rules as pure functions of the table row (who sits where, what the host
may change, the description); a :class:`TableLobby` adds what only a live table knows: the
names its people have now, who is connected, who a stand-in plays for, the table core's clock
and state. A lobby change goes in two halves: :meth:`TableLobby.change` writes it into the row
(or refuses, changing nothing); once the row is saved :meth:`TableLobby.announce` tells the
connections (their seats follow their players; people moved out by the host get a ``kicked``
notice). :meth:`TableLobby.start` begins the game the same way, before its first steps are
committed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from hexfolk.server import seats
from hexfolk.server.crowd import Crowd
from hexfolk.server.fanout import FanOut
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.table_core import TableCore

log = logging.getLogger("hexfolk.server.room")


class TableLobby:
    """The seats and people of the live table of ``row`` (``names``: player id → the name
    they have now, as the room last saw them)."""

    def __init__(
        self, row: TableRow, core: TableCore, crowd: Crowd, names: Mapping[str, str] | None = None
    ):
        self.row, self.core, self.crowd = row, core, crowd
        self.names: dict[str, str] = dict(names or {})

    # --- who sits where, and the description -----------------------------------------------
    def met(self, player: PlayerRow) -> None:
        """``player`` came by (a connection, a lobby change): the table shows their name now."""
        self.names[player.id] = player.name

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds, or None."""
        return seats.seat_of(seats.seats_of(self.row), player_id)

    def person_seats(self) -> list[int]:
        """The seats people hold."""
        return seats.person_seats(seats.seats_of(self.row))

    def played_by_person(self, seat: int) -> bool:
        """A person plays ``seat`` now (not a bot, no stand-in for them)."""
        return seats.played_by_person(self.row, seat, self.crowd.stand_in)

    def seats_json(self) -> list[dict[str, Any]]:
        """The seats as views and ``presence`` show them: who is connected, who stood in for."""
        return seats.seats_json(
            self.row, self.names, self.crowd.connected_seats(), self.crowd.stand_in
        )

    def table_json(self) -> dict[str, Any]:
        """The public description of the table (what ``GET /api/tables/{id}`` returns)."""
        return seats.table_json(self.row, self.names, self.core.version, self.seats_json())

    def undo_offer(self, seat: int | None) -> dict[str, Any] | None:
        """The view's ``undo`` field for a connection of ``seat`` (None for spectators; none
        for a seat a bot or a stand-in plays)."""
        if seat is None:
            return None
        return self.core.undo_offer(
            seat, seats.played_by_person(self.row, seat, self.crowd.stand_in)
        )

    def table_message(self) -> dict[str, Any]:
        """The ``table`` message: the description, sent when it may have changed."""
        return {"type": "table", "table": self.table_json()}

    def broadcast_table(self) -> None:
        """Send every connection the table's description."""
        self.crowd.broadcast(self.table_message())

    # --- a lobby change, in two halves -----------------------------------------------------
    def change(
        self,
        player: PlayerRow,
        change: Callable[[list[seats.Seat]], list[seats.Seat]],
        *,
        host: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> dict[str, int]:
        """Write a lobby change into the row (:func:`.seats.change_lobby`; a refusal changes
        nothing); new ``settings`` give the core a clock of the new limits. Returns the people
        the host moved out of their seats (player id → seat). The room saves the row next."""
        gone = seats.change_lobby(self.row, player, change, host=host, settings=settings)
        if settings is not None:
            self.core.settings_changed()
        self.met(player)
        self.row.updated_at = time.time()
        return gone

    def announce(self, by: PlayerRow, gone: Mapping[str, int], fanout: FanOut) -> None:
        """After a saved lobby change by ``by``: each connection's seat follows its player
        (a whole view of what the new seat may see, once a game exists), everyone gets the
        table and the presence, and the people in ``gone`` their ``kicked`` notice."""
        for conn in self.crowd.rebind(self.seat_of):
            if self.core.state is not None:
                fanout.send_view(conn, full=True)
        self.broadcast_table()
        self.crowd.send_presence(self.seats_json())
        may_watch = lambda pid: seats.may_watch(self.row, pid)  # noqa: E731
        self.crowd.moved_out(self.row.id, gone, by.name, may_watch)
        for seat in gone.values():
            log.info("table %s: seat %d's person moved out by the host", self.row.id, seat)

    def start(self, player: PlayerRow) -> None:
        """``player`` starts the game (:func:`.seats.require_startable`): the core's version 0
        with its first chance steps pending, the row ``playing``. The room saves the status,
        then commits the steps."""
        seats.require_startable(self.row, player)
        self.core.start()
        self.row.status, self.row.started_at = "playing", time.time()

    def rematch_made(self, table_id: str, by: PlayerRow) -> None:
        """``by`` made this (finished) table's rematch ``table_id``: every connection is told
        (a ``rematch`` message, then the table that now names it)."""
        self.row.rematch_id = table_id
        msg = {"type": "rematch", "table": table_id, "rematch_of": self.row.id, "by": by.name}
        self.crowd.broadcast(msg)
        self.broadcast_table()
