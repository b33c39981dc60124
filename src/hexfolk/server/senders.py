"""Who may act or undo at a table: the checks of a person's message before the table core
sees it, in this order: identity (``not_identified``), a seat here (``no_seat``; a seated
player's spectator tab is told why), the action rate (``rate_limited``), a game in play
(``not_playing``). The core checks the turn, the version and the action itself after these.
"""

from __future__ import annotations

from hexfolk.server import seats
from hexfolk.server.crowd import Connection
from hexfolk.server.errors import ApiError
from hexfolk.server.models import TableRow


def sender_seat(
    conn: Connection, row: TableRow, started: bool, action_rate: tuple[int, float], what: str
) -> int:
    """The seat ``conn`` acts for (``what``: "act" or "undo"; ``started``: the game has a
    state), or the first refusal that applies."""
    if conn.player_id is None:
        raise ApiError("not_identified", f"say hello with your player token before you {what}")
    seat = conn.seat
    if seat is None:
        if seats.seat_of(seats.seats_of(row), conn.player_id) is not None:
            raise ApiError("no_seat", f"this connection watches as a spectator; it cannot {what}")
        raise ApiError("no_seat", "you hold no seat at this table")
    if not conn.actions.allow():
        n, secs = action_rate
        raise ApiError("rate_limited", f"at most {n} actions per {secs:g} s; slow down")
    if row.status != "playing" or not started:
        raise ApiError("not_playing", f"the table is {row.status}, not playing")
    return seat
