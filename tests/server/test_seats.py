"""Lobby seats over typed values (``server/seats.py``), without a server: a table's description
is a function of its row (no shadow room), the host check is written once, and every lobby
operation returns new seats or refuses with its code and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexfolk.server import seats
from hexfolk.server.errors import ApiError
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.seats import Seat, TableSettings, seats_of, store_seats, table_json
from tests.server.helpers import lobby_row

SERVER = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "server"
ANN = PlayerRow(id="h", name="Ann")
BOB = PlayerRow(id="b", name="Bob")


def _row() -> TableRow:
    return lobby_row(
        [
            {"kind": "person", "player_id": "h", "name": "old"},
            {"kind": "bot", "level": "easy"},
            {"kind": "open"},
        ]
    )


def test_a_table_row_is_described_without_a_room() -> None:
    row = _row()
    data = table_json(row, {"h": "Ann"}, row.version)
    assert data["host"] == {"id": "h", "name": "Ann"}
    assert data["version"] == 7
    assert data["seats"] == [
        {
            "seat": 0,
            "kind": "person",
            "player_id": "h",
            "name": "Ann",
            "connected": False,
            "stand_in": False,
        },
        {"seat": 1, "kind": "bot", "level": "easy", "name": "bot (easy)"},
        {"seat": 2, "kind": "open"},
    ]
    assert "seed" not in data
    assert "Room(" not in (SERVER / "lobby.py").read_text()


def test_the_host_check_is_written_once() -> None:
    texts = "".join(p.read_text() for p in sorted(SERVER.glob("*.py")))
    assert texts.count("only the host may") == 1
    with pytest.raises(ApiError) as err:
        seats.require_host(_row(), BOB, "kick")
    assert err.value.code == "forbidden" and err.value.status == 403


def test_seats_round_trip_as_stored() -> None:
    row = _row()
    stored = [dict(s) for s in row.seats]
    store_seats(row, seats_of(row))
    assert row.seats == stored


def test_lobby_operations_return_new_seats() -> None:
    start = seats_of(_row())
    joined = seats.take_seat(start, BOB, None)
    assert joined[2] == Seat("person", player_id="b", name="Bob")
    assert start[2] == Seat.open()  # the old list is untouched
    assert seats.leave_seat(joined, BOB)[2] == Seat.open()
    assert seats.kick(joined, 2)[2] == Seat.open()
    assert seats.fill_bots(start, "hard")[2] == Seat.bot("hard")
    assert seats.change_seat(start, 1, "open", None)[1] == Seat.open()
    assert seats.resize(start, 4)[3] == Seat.open() and len(seats.resize(start, 2)) == 2
    assert seats.persons(joined) == {"h": 0, "b": 2}


@pytest.mark.parametrize(
    "operation, code",
    [
        (lambda s: seats.take_seat(s, ANN, None), "already_seated"),
        (lambda s: seats.take_seat(s, BOB, 1), "seat_taken"),
        (lambda s: seats.take_seat(s, BOB, 9), "no_such_seat"),
        (lambda s: seats.take_seat(seats.fill_bots(s, "easy"), BOB, None), "table_full"),
        (lambda s: seats.leave_seat(s, BOB), "no_seat"),
        (lambda s: seats.kick(s, 1), "no_person"),
        (lambda s: seats.require_full(s), "seats_open"),
    ],
)
def test_a_refused_lobby_operation_changes_nothing(operation: object, code: str) -> None:
    start = seats_of(_row())
    before = list(start)
    with pytest.raises(ApiError) as err:
        operation(start)  # type: ignore[operator]
    assert err.value.code == code
    assert start == before


def test_settings_are_typed_and_written_back() -> None:
    row = _row()
    settings = TableSettings.of(row)
    assert settings.players == 3 and settings.grace == 60.0
    changed = settings.changed({"players": 4, "spectators": True})
    changed.write(row)
    assert row.players == 4 and row.spectators and row.options == {"vp_target": 10}
    with pytest.raises(TypeError):
        settings.changed({"seed": 1})  # not a setting


def test_who_may_connect_to_a_table_without_spectators() -> None:
    row = _row()
    assert seats.admitted(row, ANN, False) == 0
    with pytest.raises(ApiError):
        seats.admitted(row, BOB, False)  # no seat, not the host
    with pytest.raises(ApiError):
        seats.admitted(row, ANN, True)  # a seated player's spectator tab
    with pytest.raises(ApiError):
        seats.admitted(row, None, True)
    row.spectators = True
    assert seats.admitted(row, BOB, False) is None and seats.admitted(row, None, True) is None
