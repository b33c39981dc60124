"""Bad input and faults: every refusal goes to its sender only with its own code and changes
nothing; garbage closes the connection; a crash inside one table leaves the others alone."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from hexfolk.server.client import HexfolkClient, TableConnection
from hexfolk.server.limits import CHAT_MAX, GARBAGE_LIMIT, MESSAGE_MAX
from tests.server.helpers import ThreadServer, run


async def _two_people(server: ThreadServer, **settings: Any) -> tuple[HexfolkClient, ...]:
    host, guest, outsider = (HexfolkClient(server.url) for _ in range(3))
    await host.create_player("Host")
    await guest.create_player("Guest")
    await outsider.create_player("Outsider")
    t = await host.create_table(game="island", players=2, **settings)
    await guest.join(t["id"])
    await host.start(t["id"])
    host.table_id = t["id"]  # type: ignore[attr-defined]
    return host, guest, outsider


async def _raw(server: ThreadServer, table_id: str) -> Any:
    return await websockets.connect(server.url.replace("http", "ws") + f"/ws/tables/{table_id}")


async def _recv_type(ws: Any, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == kind:
            return dict(msg)


async def _error(conn: TableConnection) -> dict[str, Any]:
    return await conn.expect("error", timeout=5)


def test_hello_errors_close_the_socket(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, outsider = await _two_people(server, spectators=False)
        tid = host.table_id  # type: ignore[attr-defined]
        cases = [
            ("nope-table", {"type": "hello", "token": host.token}, "not_found", 4404),
            (tid, {"type": "action", "action": "roll", "version": 0}, "hello_first", 4401),
            (tid, {"type": "hello", "token": "forged"}, "bad_token", 4401),
            (tid, {"type": "hello"}, "no_token", 4401),
            (tid, {"type": "hello", "as": "spectator"}, "forbidden", 4401),
            (tid, {"type": "hello", "token": outsider.token}, "forbidden", 4401),
        ]
        for table_id, hello, code, close in cases:
            ws = await _raw(server, table_id)
            await ws.send(json.dumps(hello))
            err = await _recv_type(ws, "error")
            assert err["code"] == code, (hello, err)
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert ws.close_code == close
        for c in (host, guest, outsider):
            await c.aclose()

    run(scenario())


def test_refusals_go_to_the_sender_only_and_change_nothing(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, outsider = await _two_people(server)
        tid = host.table_id  # type: ignore[attr-defined]
        anonymous = HexfolkClient(server.url)
        async with (
            host.connect(tid) as h,
            guest.connect(tid) as g,
            outsider.connect(tid) as o,
            anonymous.connect(tid, spectate=True) as a,
            host.connect(tid, spectate=True) as tab,
        ):
            view = await h.next_view()
            await g.next_view()
            version = view["version"]
            assert view["acting"] == [0] and view["legal"]
            await g.act(view["legal"][0]["action"], version, ref="g1")
            err = await _error(g)
            assert err["code"] == "not_your_turn" and err["ref"] == "g1"
            await a.act("roll", version)
            assert (await _error(a))["code"] == "not_identified"
            await o.act("roll", version)
            assert (await _error(o))["code"] == "no_seat"
            await tab.act(view["legal"][0]["action"], version)
            err = await _error(tab)
            assert err["code"] == "no_seat" and "spectator" in err["message"]
            await h.act("flibber gibbet", version)
            assert (await _error(h))["code"] == "malformed"
            await h.act("end", version)
            err = await _error(h)
            assert err["code"] == "illegal" and err["message"]
            await h.act(view["legal"][0]["action"], version + 5)
            err = await _error(h)
            assert err["code"] == "stale" and err["version"] == version
            for bad, code in [
                ("{not json", "bad_json"),
                ("[1, 2]", "bad_json"),
                (json.dumps({"type": "teleport"}), "unknown_type"),
                (json.dumps({"type": "action", "action": "roll"}), "bad_message"),
                (json.dumps({"type": "action", "action": 3, "version": 0}), "bad_message"),
                (json.dumps({"type": "hello", "token": host.token}), "bad_message"),
                ("x" * (MESSAGE_MAX + 1), "too_large"),
            ]:
                await h.send_raw(bad)
                assert (await _error(h))["code"] == code, bad
            await h.chat("x" * (CHAT_MAX + 1))
            assert (await _error(h))["code"] == "bad_chat"
            await h.chat("   ")
            assert (await _error(h))["code"] == "bad_chat"
            # nothing changed, and nobody else heard of any of it
            table = await host.table(tid)
            assert table["version"] == version
            await h.send({"type": "ping", "ref": "p"})
            assert (await h.expect("pong"))["ref"] == "p"
            for other in (g, o, a):
                await other.send({"type": "ping"})
                while True:
                    msg = await other.recv()
                    assert msg["type"] not in ("error", "view"), msg
                    if msg["type"] == "pong":
                        break
            # the game goes on: a correct action is accepted and announced to everyone
            await h.act(view["legal"][0]["action"], version, ref="ok")
            ack = await h.expect("accepted")
            assert ack["ref"] == "ok" and ack["version"] > version
            newer = await g.next_view()
            assert newer["version"] == ack["version"]
            # a stale action whose decision has changed is refused with the current view
            again = await h.wait_for(lambda v: v["version"] == ack["version"])
            if again["legal"]:
                await h.act(again["legal"][0]["action"], version)
                err = await _error(h)
                assert err["code"] == "stale" and "moved on" in err["message"]
        for c in (host, guest, outsider, anonymous):
            await c.aclose()

    run(scenario())


def test_chat_is_stored_broadcast_and_rate_limited(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, outsider = await _two_people(server)
        tid = host.table_id  # type: ignore[attr-defined]
        async with host.connect(tid) as h, guest.connect(tid) as g:
            for i in range(5):
                await h.chat(f"hello {i}")
                msg = await g.expect("chat")
                assert msg["text"] == f"hello {i}" and msg["name"] == "Host"
            await h.chat("one too many")
            err = await _error(h)
            assert err["code"] == "rate_limited" and "5 chat messages per 10 s" in err["message"]
        stored = await guest.request("GET", f"/api/tables/{tid}/chat")
        assert [m["text"] for m in stored["messages"]] == [f"hello {i}" for i in range(5)]
        for c in (host, guest, outsider):
            await c.aclose()

    run(scenario())


def test_action_flood_is_rate_limited(strict_server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, outsider = await _two_people(strict_server)
        tid = host.table_id  # type: ignore[attr-defined]
        async with guest.connect(tid) as g:
            view = await g.next_view()
            for _ in range(25):
                await g.act("roll", view["version"])
            codes = [(await _error(g))["code"] for _ in range(25)]
            assert codes[:20] == ["not_your_turn"] * 20
            assert codes[20:] == ["rate_limited"] * 5
        for c in (host, guest, outsider):
            await c.aclose()

    run(scenario())


def test_garbage_closes_the_connection_and_the_table_goes_on(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, outsider = await _two_people(server)
        tid = host.table_id  # type: ignore[attr-defined]
        async with host.connect(tid) as h:
            view = await h.next_view()
            for _ in range(GARBAGE_LIMIT):
                await h.send_raw("garbage")
            await asyncio.wait_for(h.closed.wait(), 5)
            assert h.close_code == 1008
        async with host.connect(tid) as h2:
            view = await h2.next_view()
            await h2.act(view["legal"][0]["action"], view["version"])
            await h2.expect("accepted")
        for c in (host, guest, outsider):
            await c.aclose()

    run(scenario())


def test_a_crash_in_one_table_never_stops_another(server: ThreadServer) -> None:
    async def scenario() -> None:
        a_host, a_guest, a_out = await _two_people(server)
        b_host, b_guest, b_out = await _two_people(server)
        ta = a_host.table_id  # type: ignore[attr-defined]
        tb = b_host.table_id  # type: ignore[attr-defined]
        async with a_host.connect(ta) as a, b_host.connect(tb) as b:
            va = await a.next_view()
            vb = await b.next_view()
            room = server.manager.rooms[ta]
            assert room.state is not None
            broken = room.state

            def explode(seat: int, action: Any) -> None:
                raise RuntimeError("a bug in the engine")

            broken.apply_for = explode  # type: ignore[method-assign]
            await a.act(va["legal"][0]["action"], va["version"])
            err = await _error(a)
            assert err["code"] == "internal"
            # table B is not affected
            await b.act(vb["legal"][0]["action"], vb["version"])
            await b.expect("accepted")
            # table A was rebuilt from its log and plays on
            assert server.manager.rooms[ta].state is not broken
            fresh = a.view  # the rebuilt view came with the refusal
            assert fresh is not None and fresh["version"] == va["version"]
            await a.act(fresh["legal"][0]["action"], fresh["version"])
            await a.expect("accepted")
            assert room.faults.count == 1
        health = httpx.get(server.url + "/healthz").json()
        assert health["ok"]
        for c in (a_host, a_guest, a_out, b_host, b_guest, b_out):
            await c.aclose()

    run(scenario())


def test_a_step_that_keeps_failing_marks_only_its_table_errored(server: ThreadServer) -> None:
    async def scenario() -> None:
        a_host, a_guest, a_out = await _two_people(server)
        b_host, b_guest, b_out = await _two_people(server)
        ta = a_host.table_id  # type: ignore[attr-defined]
        tb = b_host.table_id  # type: ignore[attr-defined]
        async with a_host.connect(ta) as a, b_host.connect(tb) as b:
            va = await a.next_view()
            room = server.manager.rooms[ta]

            def broken_record(*args: Any, **kwargs: Any) -> None:
                raise RuntimeError("a deterministic bug")

            room.core.record = broken_record  # type: ignore[method-assign]
            for _ in range(3):
                await a.act(va["legal"][0]["action"], va["version"])
                assert (await _error(a))["code"] == "internal"
            table = await a_host.table(ta)
            assert table["status"] == "errored" and "deterministic" in table["error"]
            await a.act(va["legal"][0]["action"], va["version"])
            assert (await _error(a))["code"] == "not_playing"
            vb = await b.next_view()
            await b.act(vb["legal"][0]["action"], vb["version"])
            await b.expect("accepted")
        for c in (a_host, a_guest, a_out, b_host, b_guest, b_out):
            await c.aclose()

    run(scenario())
