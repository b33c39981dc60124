"""Issue 25, finding 6: a flood closes its socket. 500 action frames used to get ~490
``rate_limited`` answers on a socket that stayed open (every parsed frame reset the counter of
bad messages in a row). Now 20 bad messages in a row (``rate_limited`` ones included) close the
connection with 1008, and so do more than 40 ``rate_limited`` refusals within 10 s even when
good frames come between them. Raw WebSocket frames against a server with the default action
rate (20 per 2 s)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from hexfolk.server.client import HexfolkClient
from hexfolk.server.limits import ACTION_RATE, FLOOD_LIMIT, GARBAGE_LIMIT
from tests.server.helpers import ThreadServer, run


async def _seated_guest(server: ThreadServer) -> tuple[HexfolkClient, HexfolkClient, str]:
    host, guest = HexfolkClient(server.url), HexfolkClient(server.url)
    await host.create_player("Host")
    await guest.create_player("Guest")
    t = await host.create_table(game="island", players=2)
    await guest.join(t["id"])
    await host.start(t["id"])
    return host, guest, t["id"]


async def _open(server: ThreadServer, table_id: str, token: str) -> Any:
    ws = await websockets.connect(server.url.replace("http", "ws", 1) + f"/ws/tables/{table_id}")
    await ws.send(json.dumps({"type": "hello", "token": token}))
    while json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] != "view":
        pass
    return ws


async def _drain(ws: Any) -> list[dict[str, Any]]:
    """Every message until the server closes the socket (10 s at most)."""
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    except websockets.ConnectionClosed:
        return got


def test_an_action_flood_is_closed_after_20_refusals_in_a_row(
    strict_server: ThreadServer,
) -> None:
    async def scenario() -> None:
        host, guest, tid = await _seated_guest(strict_server)
        ws = await _open(strict_server, tid, guest.token or "")
        frame = json.dumps({"type": "action", "action": "roll", "version": 1})
        for _ in range(500):
            await ws.send(frame)
        got = await _drain(ws)
        codes = [m["code"] for m in got if m["type"] == "error"]
        allowed = ACTION_RATE[0]
        # the first 20 pass the rate (and are refused: not this seat's turn), then 20
        # rate-limited ones in a row close the socket
        assert codes[:allowed] == ["not_your_turn"] * allowed
        assert codes[allowed:] == ["rate_limited"] * GARBAGE_LIMIT + ["closed"], codes
        assert ws.close_code == 1008 and ws.close_reason == "too many bad messages"
        # the table goes on: the guest connects again and is served
        ws = await _open(strict_server, tid, guest.token or "")
        await ws.send(json.dumps({"type": "ping", "ref": "p"}))
        while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] != "pong":
            pass
        assert msg["ref"] == "p"
        await ws.close()
        await host.aclose()
        await guest.aclose()

    run(scenario())


def test_a_flood_with_good_frames_between_is_closed_by_its_window(
    strict_server: ThreadServer,
) -> None:
    """Pings between the actions break every run of bad messages; the flood window still
    counts the rate-limited refusals: the 41st within 10 s closes the socket."""

    async def scenario() -> None:
        host, guest, tid = await _seated_guest(strict_server)
        ws = await _open(strict_server, tid, guest.token or "")
        frame = json.dumps({"type": "action", "action": "roll", "version": 1})
        ping = json.dumps({"type": "ping"})
        for _ in range(200):
            await ws.send(frame)
            await ws.send(ping)
        got = await _drain(ws)
        codes = [m["code"] for m in got if m["type"] == "error"]
        count, seconds = FLOOD_LIMIT
        assert codes.count("rate_limited") == count + 1
        assert codes[-1] == "closed" and ws.close_code == 1008
        assert ws.close_reason == "flooding"
        closing = got[-1]
        assert f"{count} messages refused for their rate within {seconds:g} s" in closing["message"]
        await host.aclose()
        await guest.aclose()

    run(scenario())
