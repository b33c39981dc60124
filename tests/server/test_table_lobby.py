"""The lobby of a live table (``server/table_lobby.py``) and its connections coming and going
(``server/connections.py``), and the clock running out (``server/clock_expiry.py``), without a
server: a table row, a table core, a crowd of connections whose outboxes the tests read, and no
socket, store or uvicorn. What the room does between the halves (saving the row, committing
steps) the tests do by hand."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from hexfolk.server import seats
from hexfolk.server.clock_expiry import ClockExpiry
from hexfolk.server.connections import Connections
from hexfolk.server.crowd import Connection, Crowd
from hexfolk.server.errors import ApiError
from hexfolk.server.fanout import FanOut
from hexfolk.server.models import PlayerRow, TableRow
from hexfolk.server.protocol import CLOSE_AUTH
from hexfolk.server.table_core import TableCore
from hexfolk.server.table_lobby import TableLobby
from tests.server.helpers import lobby_row

SERVER = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "server"
ANN = PlayerRow(id="h", name="Ann")  # the host, seat 0
BOB = PlayerRow(id="b", name="Bob")  # seat 1
EVE = PlayerRow(id="e", name="Eve")  # no seat


class Table:
    """The parts the room wires, wired the same way (``away``/``back``: what they called)."""

    def __init__(self, row: TableRow):
        self.row = row
        self.core = TableCore(row)
        self.crowd = Crowd()
        self.lobby = TableLobby(row, self.core, self.crowd, {"h": "Ann"})
        self.fanout = FanOut(
            row, self.core, self.crowd, self.lobby.seats_json, self.lobby.undo_offer
        )
        self.away: list[int] = []
        self.back: list[int] = []
        self.connections = Connections(
            self.lobby, self.fanout, away=self.away.append, back=self.back.append
        )

    def begin(self) -> None:
        """The host starts the game; its first steps committed (what the room's store does)."""
        self.lobby.start(ANN)
        self.core.commit(now=100.0)
        self.row.version = self.core.version


def _row(*, spectators: bool = False) -> TableRow:
    row = lobby_row(
        [
            {"kind": "person", "player_id": "h", "name": "Ann"},
            {"kind": "person", "player_id": "b", "name": "Bob"},
            {"kind": "bot", "level": "easy"},
        ]
    )
    row.seed, row.clock_state, row.spectators = 2612, {}, spectators
    return row


def _sent(conn: Connection) -> list[dict[str, Any]]:
    """What ``conn`` was sent since the last call (its outbox drained)."""
    out = []
    while not conn.outbox.empty():
        msg = conn.outbox.get_nowait()
        if msg is not None:  # None: the connection was closed after its messages
            out.append(msg)
    return out


def _types(conn: Connection) -> list[str]:
    return [m["type"] for m in _sent(conn)]


# --- the lobby ---------------------------------------------------------------------------------
def test_a_lobby_change_renews_the_clock_and_names_the_player_and_a_refusal_changes_nothing() -> (
    None
):
    table = Table(_row())
    clock = table.core.clock
    before = (list(table.row.seats), table.row.players, table.row.updated_at)
    with pytest.raises(ApiError) as err:  # Bob is not the host
        table.lobby.change(BOB, lambda s: s, host="change the settings", settings={"clock": 60})
    assert err.value.code == "forbidden"
    assert (list(table.row.seats), table.row.players, table.row.updated_at) == before
    assert table.core.clock is clock and "b" not in table.lobby.names
    gone = table.lobby.change(ANN, lambda s: s, host="change the settings", settings={"clock": 60})
    assert gone == {} and table.row.clock == 60
    assert table.core.clock is not clock  # a clock of the new limits
    assert table.row.updated_at > 0
    table.lobby.change(BOB, lambda s: seats.leave_seat(s, BOB))
    assert table.lobby.names["b"] == "Bob" and table.lobby.seat_of("b") is None


def test_a_kicked_person_reads_their_seat_as_players_see_it_and_watches_on() -> None:
    table = Table(_row(spectators=True))
    ann = table.connections.attach(ANN, False, None, [])
    bob = table.connections.attach(BOB, False, None, [])
    _sent(ann), _sent(bob)
    gone = table.lobby.change(ANN, lambda s: seats.kick(s, 1), host="kick")
    assert gone == {"b": 1}
    table.lobby.announce(ANN, gone, table.fanout)
    kicked = [m for m in _sent(bob) if m["type"] == "kicked"]
    assert kicked == [
        {
            "type": "kicked",
            "table": "t1",
            "seat": 1,  # on the wire a seat is its index ...
            "by": "Ann",
            # ... and in English it is counted from 1, as the page shows it
            "message": "Ann moved you out of seat 2; "
            "you watch the table now and may take an open seat again",
        }
    ]
    assert bob.seat is None and not bob.closed
    assert _types(ann) == ["table", "presence"]  # no kick notice for anyone else


def test_a_kicked_person_is_shut_out_where_spectators_are_off() -> None:
    table = Table(_row(spectators=False))
    bob = table.connections.attach(BOB, False, None, [])
    _sent(bob)
    table.lobby.announce(
        ANN, table.lobby.change(ANN, lambda s: seats.kick(s, 1), host="kick"), table.fanout
    )
    (kicked,) = [m for m in _sent(bob) if m["type"] == "kicked"]
    assert kicked["message"] == "Ann moved you out of seat 2; this table does not allow spectators"
    assert bob.closed and (bob.close_code, bob.close_reason) == (CLOSE_AUTH, "kicked")


def test_the_game_starts_for_the_host_at_a_full_table_only() -> None:
    table = Table(_row())
    with pytest.raises(ApiError) as err:
        table.lobby.start(BOB)
    assert err.value.code == "forbidden"
    table.lobby.change(BOB, lambda s: seats.leave_seat(s, BOB))
    with pytest.raises(ApiError) as err:
        table.lobby.start(ANN)
    assert err.value.code == "seats_open"
    assert table.core.state is None and table.row.status == "lobby"
    table.lobby.change(BOB, lambda s: seats.take_seat(s, BOB, 1))
    table.lobby.start(ANN)
    assert table.row.status == "playing" and table.row.started_at is not None
    assert table.core.state is not None and table.core.pending  # the board's chance steps


def test_the_undo_offer_is_for_a_person_playing_their_own_seat() -> None:
    table = Table(_row())
    table.begin()
    assert table.lobby.undo_offer(None) is None  # a spectator
    assert table.lobby.played_by_person(0) and not table.lobby.played_by_person(2)  # a bot
    table.crowd.stand_in.add(0)
    assert not table.lobby.played_by_person(0) and table.lobby.undo_offer(0) is None


def test_a_rematch_is_announced_then_the_table_that_names_it() -> None:
    table = Table(_row(spectators=True))
    eve = table.connections.attach(EVE, True, None, [])
    _sent(eve)
    table.lobby.rematch_made("t2", BOB)
    rematch, described = _sent(eve)
    assert rematch == {"type": "rematch", "table": "t2", "rematch_of": "t1", "by": "Bob"}
    assert described["type"] == "table" and described["table"]["rematch_id"] == "t2"


# --- connections coming and going ---------------------------------------------------------------
def test_a_new_connection_gets_its_welcome_the_table_its_view_and_everyone_the_presence() -> None:
    table = Table(_row())
    ann = table.connections.attach(ANN, False, None, [])
    assert _types(ann) == ["welcome", "table", "presence"]  # no game yet: no view
    table.begin()
    bob = table.connections.attach(BOB, False, None, [])
    sent = _sent(bob)
    assert [m["type"] for m in sent] == ["welcome", "table", "view", "presence"]
    assert sent[0]["seat"] == 1 and sent[2]["seat"] == 1 and sent[2]["log_start"] == 0
    assert [s.get("connected") for s in sent[3]["seats"]] == [True, True, None]
    assert _types(ann) == ["presence"]


def test_who_may_connect_where_spectators_are_off() -> None:
    table = Table(_row(spectators=False))
    with pytest.raises(ApiError) as err:
        table.connections.attach(EVE, False, None, [])
    assert err.value.code == "forbidden" and len(table.crowd) == 0
    with pytest.raises(ApiError):  # a seated player's spectator tab
        table.connections.attach(BOB, True, None, [])
    table.lobby.change(ANN, lambda s: seats.leave_seat(s, ANN))
    assert (
        table.connections.attach(ANN, False, None, []).seat is None
    )  # the host without a seat watches


def test_a_resync_without_a_version_gets_the_whole_log() -> None:
    table = Table(_row())
    table.begin()
    bob = table.connections.attach(BOB, False, None, [])
    _sent(bob)
    table.connections.sync(bob, None)
    described, view = _sent(bob)
    assert described["type"] == "table" and view["type"] == "view" and view["log_start"] == 0


def test_a_seat_left_alone_gets_a_stand_in_after_its_grace_and_back_when_its_person_returns() -> (
    None
):
    async def scenario() -> None:
        row = _row()
        row.grace = 0.01
        table = Table(row)
        table.begin()
        ann = table.connections.attach(ANN, False, None, [])
        bob = table.connections.attach(BOB, False, None, [])
        table.connections.detach(bob)
        assert bob.closed and len(table.crowd) == 1
        await asyncio.sleep(0.05)
        assert table.away == [1]  # the room queues grace_over
        _sent(ann)
        assert table.connections.grace_over(1) and table.crowd.stand_in == {1}
        (presence,) = _sent(ann)
        assert presence["seats"][1]["stand_in"] is True
        table.connections.attach(BOB, False, None, [])
        assert table.back == [1] and table.crowd.stand_in == set()
        assert not table.connections.grace_over(0)  # Ann is here: no stand-in

    asyncio.run(scenario())


def test_no_grace_period_in_the_lobby_nor_under_the_wait_policy() -> None:
    async def scenario() -> None:
        table = Table(_row())
        table.connections.detach(table.connections.attach(BOB, False, None, []))
        table.begin()
        table.row.disconnect_policy = "wait"
        table.connections.start_graces()
        await asyncio.sleep(0.02)
        assert table.away == [] and table.crowd.stand_in == set()

    asyncio.run(scenario())


def test_the_room_holds_no_lobby_or_connection_logic() -> None:
    room = (SERVER / "room.py").read_text()
    for moved in ("admitted(", "change_lobby(", "moved_out(", "rebind(", "welcome(", "seats_json("):
        assert moved not in room, moved
    lines = room.count("\n")
    assert lines < 260, f"room.py has {lines} lines"


def test_the_clock_running_out_commits_the_defaults_then_tells_everyone() -> None:
    async def scenario() -> None:
        table = Table(_row())
        table.row.clock = 30
        table.core.settings_changed()  # a 30 s turn clock
        table.begin()  # committed at t=100: its window ran out long ago
        bob = table.connections.attach(BOB, False, None, [])
        _sent(bob)
        order: list[str] = []

        async def publish() -> None:
            order.append(f"publish {len(table.core.pending)}")
            table.core.commit(now=time.time())

        expiry = ClockExpiry(table.core, table.crowd, lambda job: None, publish)
        await expiry.expire()
        timeouts = [m for m in _sent(bob) if m["type"] == "timeout"]
        assert order and order[0] != "publish 0" and timeouts
        assert all(m["version"] == table.core.version for m in timeouts)
        expiry.cancel()

    asyncio.run(scenario())
