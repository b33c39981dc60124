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

from hexfolk.server.models import TableRow
from hexfolk.server.room import table_json

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
