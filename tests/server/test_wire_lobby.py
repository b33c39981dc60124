"""Issue 25, findings 4, 7 and 9: who may watch a table without spectators, the rematch pushed
to the old table's sockets, and the notice a kicked person's socket gets.

* Finding 4 (docs/protocol.md, hello): a hello with ``"as": "spectator"`` at a table with
  spectators switched off is refused ``forbidden`` (close 4401), even from a seated player; the
  seat's own hello (no ``as``) still plays it.
* Finding 7: when the rematch table is created every connection of the old table receives
  ``{"type": "rematch", "table": <new id>}``.
* Finding 9 (docs/server.md, "Kicks"): the host's kick (or a seat the host makes open or a
  bot, or a smaller player count) sends ``{"type": "kicked", ...}`` to the person's sockets;
  they keep watching where spectators are allowed, else the socket is closed (4401). A kick is
  not a ban: the person may take an open seat again by the link.

Raw WebSocket connections against a real server."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
import websockets

from hexfolk.server.client import HexfolkClient, TableConnection
from tests.server.helpers import ThreadServer, play_scripted, run
from tests.server.people_tables import host_and_outsider
from tests.server.test_wire_chat import _builder


def _ws_url(server: ThreadServer, table_id: str) -> str:
    return server.url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"


async def _hello(server: ThreadServer, table_id: str, hello: dict[str, Any]) -> Any:
    ws = await websockets.connect(_ws_url(server, table_id))
    await ws.send(json.dumps(hello))
    return ws


async def _first(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if msg["type"] in kinds:
            return dict(msg)


async def _next_of(conn: TableConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = await conn.recv(timeout=5)
        if msg["type"] == kind:
            return msg


def test_a_spectator_hello_is_refused_where_spectators_are_off(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest = HexfolkClient(server.url), HexfolkClient(server.url)
        await host.create_player("Host")
        await guest.create_player("Guest")
        t = await host.create_table(game="island", players=2, spectators=False)
        tid = t["id"]
        await guest.join(tid)
        for phase in ("lobby", "playing"):
            for who in (host, guest):
                ws = await _hello(
                    server, tid, {"type": "hello", "token": who.token, "as": "spectator"}
                )
                err = await _first(ws, ("error", "welcome"))
                assert err["type"] == "error" and err["code"] == "forbidden", (phase, err)
                assert "spectators" in err["message"]
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 5)
                assert ws.close_code == 4401
            # the seat's own hello plays it
            ws = await _hello(server, tid, {"type": "hello", "token": guest.token})
            welcome = await _first(ws, ("error", "welcome"))
            assert welcome["type"] == "welcome" and welcome["seat"] == 1
            await ws.close()
            if phase == "lobby":
                await host.start(tid)
        await host.aclose()
        await guest.aclose()

    run(scenario())


def test_a_kicked_person_is_told_and_may_come_back_by_the_link(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, kicked = (HexfolkClient(server.url) for _ in range(3))
        await host.create_player("Host")
        await guest.create_player("Guest")
        await kicked.create_player("Kicked")
        t = await host.create_table(game="island", players=3)
        tid = t["id"]
        await guest.join(tid, 1)
        await kicked.join(tid, 2)
        async with (
            host.connect(tid) as h,
            kicked.connect(tid) as k,
            kicked.connect(tid, spectate=True) as k_tab,
        ):
            assert k.welcome is not None and k.welcome["seat"] == 2
            await host.kick(tid, 2)
            for conn in (k, k_tab):
                notice = await _next_of(conn, "kicked")
                assert notice["table"] == tid and notice["seat"] == 2
                assert notice["by"] == "Host" and "Host" in notice["message"]
            # the host's own connection is not told anything of the kind
            await h.send({"type": "ping", "ref": "p"})
            while (msg := await h.recv(timeout=5))["type"] != "pong":
                assert msg["type"] != "kicked"
            # the kicked socket stays open and watches (spectators are allowed here)
            await k.sync()
            table = (await _next_of(k, "table"))["table"]
            assert table["seats"][2]["kind"] == "open"
            # not a ban: the same person takes the open seat again
            again = await kicked.join(tid, 2)
            assert kicked.player is not None
            assert again["seats"][2]["player_id"] == kicked.player["id"]
            # a seat the host turns into a bot moves its person out too: told the same way
            await host.set_seat(tid, 2, "bot", "random")
            notice = await _next_of(k, "kicked")
            assert notice["seat"] == 2
        for c in (host, guest, kicked):
            await c.aclose()

    run(scenario())


def test_a_kicked_person_stops_watching_where_spectators_are_off(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, kicked = HexfolkClient(server.url), HexfolkClient(server.url)
        await host.create_player("Host")
        await kicked.create_player("Kicked")
        t = await host.create_table(game="island", players=2, spectators=False)
        tid = t["id"]
        await kicked.join(tid, 1)
        async with host.connect(tid) as h, kicked.connect(tid) as k:
            await host.kick(tid, 1)
            notice = await _next_of(k, "kicked")
            assert "spectators" in notice["message"]
            await asyncio.wait_for(k.closed.wait(), 5)
            assert k.close_code == 4401
            assert not h.closed.is_set()
        with pytest.raises(Exception, match="forbidden"):
            async with kicked.connect(tid):
                pass
        await host.aclose()
        await kicked.aclose()

    run(scenario())


def test_the_rematch_is_pushed_to_every_socket_of_the_old_table(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, outsider, tid = await host_and_outsider(server.url)
        anonymous = HexfolkClient(server.url)
        async with (
            host.connect(tid) as h,
            host.connect(tid, spectate=True) as tab,
            outsider.connect(tid) as o,
            anonymous.connect(tid, spectate=True) as a,
        ):
            await h.next_view()
            await play_scripted(h, _builder(random.Random(3)), max_actions=20_000, timeout=150)
            new = await host.rematch(tid)
            for conn in (h, tab, o, a):
                msg = await _next_of(conn, "rematch")
                assert msg["table"] == new["id"] and msg["rematch_of"] == tid
            # asking again gives the same table and pushes nothing new
            assert (await host.rematch(tid))["id"] == new["id"]
            await h.send({"type": "ping", "ref": "p"})
            while (msg := await h.recv(timeout=5))["type"] != "pong":
                assert msg["type"] != "rematch"
        for c in (host, outsider, anonymous):
            await c.aclose()

    run(scenario(), timeout=200)
