"""Issue 26, Deliver 4 (the room's small cleanups): a table's description is a function of its
row (no shadow ``Room``), the host check is written once, ``accepted`` comes before the new view,
and a click lists legal actions once per acting seat.

Real servers (a uvicorn thread) and raw WebSocket frames; the legal-action count wraps the
room's real island state (a counting subclass of the engine's class), not the server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

from hexfolk.server.client import HexfolkClient
from hexfolk.server.models import TableRow
from hexfolk.server.room import table_json
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
