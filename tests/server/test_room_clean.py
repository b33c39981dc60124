"""Issue 26, Deliver 4 (the room's small cleanups): a table's description is a function of its
row (no shadow ``Room``), the host check is written once, ``accepted`` comes before the new view,
and a click lists legal actions once per acting seat.

Real servers (a uvicorn thread) and raw WebSocket frames; the legal-action count wraps the
room's real island state (a counting subclass of the engine's class), not the server."""

from __future__ import annotations

import asyncio
import json
import traceback
from pathlib import Path
from typing import Any

import pytest
import websockets

from hexfolk.core import Action
from hexfolk.server.client import HexfolkClient
from hexfolk.server.models import TableRow
from hexfolk.server.room import Room, table_json
from tests.server.helpers import ThreadServer, run

SERVER = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "server"


def _ws_url(base: str, table_id: str) -> str:
    return base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"


async def _recv_type(ws: Any, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == kind:
            return dict(msg)


def test_a_table_row_is_described_without_a_room() -> None:
    """``lobby.py`` built a shadow ``Room`` to describe a table no room holds; the description
    is a function of the row and the names (nobody connected, no stand-in)."""
    row = TableRow(
        id="t1",
        game="island",
        players=2,
        host_id="h",
        version=7,
        seats=[
            {"kind": "person", "player_id": "h", "name": "old"},
            {"kind": "bot", "level": "easy"},
        ],
    )
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
    ]
    assert "seed" not in data
    assert "Room(" not in (SERVER / "lobby.py").read_text()


def test_the_host_check_is_written_once() -> None:
    texts = "".join(p.read_text() for p in sorted(SERVER.glob("*.py")))
    assert texts.count("only the host may") == 1


def _ws_url(base: str, table_id: str) -> str:
    return base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"


async def _recv_type(ws: Any, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == kind:
            return dict(msg)


def test_accepted_comes_before_the_new_view(server: ThreadServer) -> None:
    """docs/protocol.md: ``accepted`` acknowledges a committed action; it reaches the sender
    before the view of the version it made (it came after it, and no client could use it)."""

    async def scenario() -> None:
        host = HexfolkClient(server.url)
        await host.create_player("Host")
        t = await host.create_table(
            game="island", players=2, seats=[{"kind": "host"}, {"kind": "bot", "level": "random"}]
        )
        await host.start(t["id"])
        ws = await websockets.connect(_ws_url(server.url, t["id"]))
        await ws.send(json.dumps({"type": "hello", "token": host.token}))
        view = await _recv_type(ws, "view")
        assert view["acting"] == [0]
        action = view["legal"][0]["action"]
        msg = {"type": "action", "action": action, "version": view["version"], "ref": "a1"}
        await ws.send(json.dumps(msg))
        kinds = []
        while True:
            got = json.loads(await asyncio.wait_for(ws.recv(), 5))
            kinds.append(got["type"])
            if got["type"] == "accepted":
                assert got["ref"] == "a1" and got["action"] == action
                assert got["version"] == view["version"] + 1
                break
            assert got["type"] != "view", f"a view before accepted: {kinds}"
        after = await _recv_type(ws, "view")
        assert after["version"] == got["version"]
        await ws.close()
        await host.aclose()

    run(scenario())


class _Calls:
    def __init__(self) -> None:
        self.depth = 0
        self.where: list[str] = []


def _counting(cls: type) -> type:
    """A subclass of the engine's state class whose ``legal_actions*`` count their outermost
    calls (a clone, as the reveal check makes, counts nothing)."""

    def wrap(name: str) -> Any:
        inner = getattr(cls, name)

        def counted(self: Any, *args: Any) -> list[Action]:
            calls: _Calls | None = self.__dict__.get("_calls")
            if calls is None:
                return list(inner(self, *args))
            if calls.depth == 0:
                frame = traceback.extract_stack(limit=3)[-2]
                calls.where.append(f"{name} from {frame.name}")
            calls.depth += 1
            try:
                return list(inner(self, *args))
            finally:
                calls.depth -= 1

        return counted

    def clone(self: Any) -> Any:
        new = cls.clone(self)
        new.__dict__.pop("_calls", None)
        return new

    attrs = {n: wrap(n) for n in ("legal_actions", "legal_actions_for")}
    attrs["clone"] = clone
    return type(f"Counting{cls.__name__}", (cls,), attrs)


def _in_room(room: Room, fn: Any) -> Any:
    """Run ``fn`` inside the room's task (on the server's loop) and wait for it."""
    loop = room._task.get_loop() if room._task is not None else None
    assert loop is not None

    async def job() -> Any:
        return fn()

    return asyncio.run_coroutine_threadsafe(room.call(job), loop).result(10)


ENGINE_CALLS = {"island": 0, "scythe": 6}
"""Listings inside the engine's own calls, which the room cannot share: Scythe's
``parse_action`` and ``apply``'s legality check (the position before the step), and its
``why_illegal_reason`` of the other seat's four section buttons (``is_legal`` lists the seat
to move's actions each time). The island's parse, apply and reasons list nothing."""


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_a_click_lists_legal_actions_once_per_acting_seat(server: ThreadServer, game: str) -> None:
    """Issue 26: a click listed legal actions several times. Two people (no bot), the acting
    seat takes its first legal action (the island: seat 0's first settlement): the room lists
    the new position's legal actions once per acting seat (the island: seat 0, for its road),
    for its decision marks and the views together. Before: twice per acting seat
    (``_note_decisions`` and the seat's view each listed them): island 2 calls, Scythe 8."""

    async def scenario() -> tuple[list[str], list[int]]:
        host = HexfolkClient(server.url)
        guest = HexfolkClient(server.url)
        await host.create_player("Host")
        await guest.create_player("Guest")
        t = await host.create_table(game=game, players=2)
        await guest.join(t["id"], 1)
        await host.start(t["id"])
        room = server.manager.rooms[t["id"]]
        async with host.connect(t["id"]) as a, guest.connect(t["id"]) as b:
            view = await a.next_view()
            other = await b.wait_for(lambda v: v["version"] == view["version"])
            actor = a if view["legal"] else b
            view = view if view["legal"] else other
            calls = _Calls()

            def install() -> None:
                state = room.state
                state.__class__ = _counting(type(state))
                state.__dict__["_calls"] = calls

            _in_room(room, install)
            await actor.act(view["legal"][0]["action"], view["version"], ref="c1")
            new = view["version"] + 1
            await a.wait_for(lambda v: v["version"] >= new)
            await b.wait_for(lambda v: v["version"] >= new)
            _in_room(room, lambda: None)  # the click's job is over
            assert room.state is not None
            acting = room.state.acting_seats()
        await host.aclose()
        await guest.aclose()
        return calls.where, acting

    where, acting = run(scenario())
    print(f"legal_actions* calls for one click: {len(where)}: {where}")
    room_calls = [w for w in where if w.endswith("from legal_for")]
    assert len(room_calls) == len(acting) == 1, (where, acting)
    # the total pinned: island 2 -> 1, Scythe 8 -> 7 with the room's listing shared
    assert len(where) == len(acting) + ENGINE_CALLS[game], where
