"""The ``welcome`` carries what the table page needs before its first draw (issue 26, deliver 5;
docs/protocol.md): the chat's limits as ``server/limits.py`` sets them (the page shows these
numbers and copies none), and the board's geometry once the game has started — the same as
``GET /api/tables/{id}/geometry`` — so opening a table costs the browser one HTTP request and
the socket. In the lobby the geometry is ``null`` (the player count may still change). Raw
WebSocket frames against a real server (a uvicorn thread)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from hexfolk.server.client import HexfolkClient
from hexfolk.server.limits import CHAT_MAX, CHAT_RATE
from tests.server.helpers import ThreadServer, run


async def _welcome(url: str, table_id: str, token: str) -> dict[str, Any]:
    ws = await websockets.connect(url.replace("http", "ws", 1) + f"/ws/tables/{table_id}")
    try:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if msg["type"] == "welcome":
                return dict(msg)
    finally:
        await ws.close()


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_welcome_carries_the_chat_limits_and_the_geometry(
    server: ThreadServer, game: str
) -> None:
    async def scenario() -> None:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Host")
            seats = [{"kind": "host"}, {"kind": "bot", "level": "random"}]
            t = await host.create_table(game=game, players=2, seats=seats)
            lobby = await _welcome(server.url, t["id"], host.token)
            assert lobby["chat"] == {
                "max": CHAT_MAX,
                "count": CHAT_RATE[0],
                "seconds": CHAT_RATE[1],
            }
            assert lobby["chat"] == {"max": 500, "count": 5, "seconds": 10.0}  # docs/server.md
            assert lobby["geometry"] is None
            await host.start(t["id"])
            playing = await _welcome(server.url, t["id"], host.token)
            async with httpx.AsyncClient() as http:
                r = await http.get(f"{server.url}/api/tables/{t['id']}/geometry")
            assert playing["geometry"] is not None
            assert playing["geometry"] == r.json()["geometry"]
            assert playing["chat"] == lobby["chat"]

    run(scenario())


def test_the_welcome_carries_the_chat_history_that_get_chat_gives(server: ThreadServer) -> None:
    """The chat's lines a person reads come with the welcome (``chat_history``), the same as
    ``GET /api/tables/{id}/chat`` gives that person: the page asks for no history. A seated
    player reads the players' channel, a watcher with a name the spectators', a watcher
    without a name none (it cannot chat)."""

    async def scenario() -> None:
        async with HexfolkClient(server.url) as host, HexfolkClient(server.url) as watcher:
            await host.create_player("Host")
            await watcher.create_player("Wanda")
            seats = [{"kind": "host"}, {"kind": "bot", "level": "random"}]
            t = await host.create_table(game="island", players=2, seats=seats)
            async with host.connect(t["id"]) as conn:
                await conn.chat("hello players")
                await conn.expect("chat")
            async with watcher.connect(t["id"], spectate=True) as conn:
                await conn.chat("hello watchers")
                await conn.expect("chat")
            async with httpx.AsyncClient() as http:
                for who in (host, watcher):
                    welcome = await _welcome(server.url, t["id"], who.token)
                    r = await http.get(
                        f"{server.url}/api/tables/{t['id']}/chat",
                        headers={"Authorization": f"Bearer {who.token}"},
                    )
                    assert welcome["chat_history"] == r.json()["messages"]
                    assert [m["text"] for m in welcome["chat_history"]] == [
                        "hello players" if who is host else "hello watchers"
                    ]
            ws = await websockets.connect(
                server.url.replace("http", "ws", 1) + f"/ws/tables/{t['id']}"
            )
            try:
                await ws.send(json.dumps({"type": "hello", "token": None, "as": "spectator"}))
                msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert msg["type"] == "welcome" and msg["chat_history"] == []
            finally:
                await ws.close()

    run(scenario())
