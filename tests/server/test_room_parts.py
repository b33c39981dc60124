"""The parts moved out of the room (issue 26), without a server: who may act
(``senders.py``), recovery's count (``recovery.py``), a lobby change applied to the row
(``seats.change_lobby``), which bot plays a seat (``bot_turns.bot_code``), and the size of the
actor that wires them."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexfolk.server import seats
from hexfolk.server.bot_turns import bot_code
from hexfolk.server.crowd import STAND_IN_LEVEL, Connection
from hexfolk.server.errors import ApiError
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.recovery import FAULTS_MAX, Faults, mark_errored
from hexfolk.server.senders import sender_seat
from tests.server.helpers import lobby_row

SERVER = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "server"
ANN = PlayerRow(id="h", name="Ann")
BOB = PlayerRow(id="b", name="Bob")


def _row(status: str = "lobby") -> TableRow:
    return lobby_row(
        [
            {"kind": "person", "player_id": "h", "name": "Ann"},
            {"kind": "person", "player_id": "b", "name": "Bob"},
            {"kind": "bot", "level": "easy"},
        ],
        status,
    )


def _code(conn: Connection, row: TableRow, started: bool = True) -> str:
    with pytest.raises(ApiError) as err:
        sender_seat(conn, row, started, (2, 1.0), "act")
    return err.value.code


def test_the_sender_checks_come_in_their_order() -> None:
    row = _row("playing")
    assert _code(Connection(None, None), row) == "not_identified"
    watching = Connection(ANN, None)  # a seated player's spectator tab
    with pytest.raises(ApiError, match="watches as a spectator"):
        sender_seat(watching, row, True, (2, 1.0), "act")
    assert _code(Connection(PlayerRow(id="x", name="X"), None), row) == "no_seat"
    bob = Connection(BOB, 1, (2, 1.0))
    assert sender_seat(bob, row, True, (2, 1.0), "act") == 1
    assert sender_seat(bob, row, True, (2, 1.0), "act") == 1
    assert _code(bob, row) == "rate_limited"  # the third within the second
    assert _code(Connection(BOB, 1), _row("lobby")) == "not_playing"
    assert _code(Connection(BOB, 1), row, started=False) == "not_playing"


def test_the_third_fault_at_one_version_gives_up() -> None:
    faults = Faults()
    assert not faults.note(5) and not faults.note(5)
    assert not faults.note(6)  # another step: counted afresh
    assert [faults.note(6) for _ in range(FAULTS_MAX - 1)] == [False, True]
    assert faults.count == 5
    row = _row("playing")
    assert mark_errored(row, ValueError("x" * 600)).startswith("ValueError: x")
    assert row.status == "errored" and len(row.error or "") == 500


def test_a_lobby_change_names_who_the_host_moved_out_and_a_refusal_changes_nothing() -> None:
    row = _row()
    gone = seats.change_lobby(row, ANN, lambda s: seats.kick(s, 1), host="kick")
    assert gone == {"b": 1}
    assert seats.seats_of(row)[1].kind == "open"
    before = (list(row.seats), row.players)
    with pytest.raises(ApiError) as err:
        seats.change_lobby(row, BOB, lambda s: seats.kick(s, 0), host="kick")
    assert err.value.code == "forbidden" and (row.seats, row.players) == before
    with pytest.raises(ApiError):  # seat 0 is taken: the new player count is not written
        seats.change_lobby(
            row, ANN, lambda s: seats.take_seat(s, BOB, 0), host="x", settings={"players": 4}
        )
    assert (row.seats, row.players) == before
    assert seats.change_lobby(row, BOB, lambda s: seats.take_seat(s, BOB, 1)) == {}
    assert seats.seats_of(row)[1].held_by("b")


def test_which_bot_plays_a_seat() -> None:
    row = _row("playing")
    assert bot_code(row, set(), 2) == "easy"
    assert bot_code(row, set(), 1) is None  # a person plays it
    assert bot_code(row, {1}, 1) == STAND_IN_LEVEL  # away: a stand-in
    assert seats.played_by_person(row, 1, set()) and not seats.played_by_person(row, 1, {1})


def test_the_room_is_the_wiring_only() -> None:
    lines = (SERVER / "room.py").read_text().count("\n")
    assert lines < 260, f"room.py has {lines} lines"
