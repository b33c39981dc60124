"""Issue 25, finding 13: handled bad input is answered, never a traceback; integers out of
range are shape errors (``bad_message``), not ``stale``; the reconnect window counts versions.

Raw WebSocket frames against a real server (a uvicorn thread, or ``hexfolk serve`` as a child
process where its log is read)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
import websockets

from hexfolk.server.client import HexfolkClient, TableConnection
from hexfolk.server.limits import RECONNECT_WINDOW, WIRE_INT_MAX
from tests.server.helpers import SubprocessServer, ThreadServer, run
from tests.server.people_tables import against_a_bot


def _ws_url(base: str, table_id: str) -> str:
    return base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"


async def _recv_type(ws: Any, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == kind:
            return dict(msg)


def test_integers_beyond_the_wire_range_are_bad_messages(server: ThreadServer) -> None:
    """2**64 as a version was answered ``stale`` (the server compared it with the table's
    version); every whole number of a message is 0..2**53-1 (what a JavaScript client can
    hold exactly), else ``bad_message`` and nothing changes."""

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
        for big in (2**64, WIRE_INT_MAX + 1):
            for msg in (
                {"type": "action", "action": action, "version": big, "ref": "a"},
                {"type": "undo", "steps": 1, "version": big, "ref": "u"},
                {"type": "sync", "since": big},
            ):
                await ws.send(json.dumps(msg))
                err = await _recv_type(ws, "error")
                assert err["code"] == "bad_message", (msg, err)
                assert str(WIRE_INT_MAX) in err["message"]
        # the greatest allowed number is a number: an ordinary stale version
        await ws.send(json.dumps({"type": "action", "action": action, "version": WIRE_INT_MAX}))
        assert (await _recv_type(ws, "error"))["code"] == "stale"
        assert (await host.table(t["id"]))["version"] == view["version"]
        await ws.close()
        # the hello's `since` too: refused, the socket closed
        ws = await websockets.connect(_ws_url(server.url, t["id"]))
        await ws.send(json.dumps({"type": "hello", "token": host.token, "since": 2**64}))
        assert (await _recv_type(ws, "error"))["code"] == "bad_message"
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        await host.aclose()

    run(scenario())


async def _advance(conn: TableConnection, until: int, rng: random.Random) -> dict[str, Any]:
    """Play seat 0 (against a random bot) until the table's version reaches ``until`` and
    seat 0 alone owes a decision (the table then waits for it). One action at a time: each
    waits for its answer, so none is in flight at the end."""
    n = 0
    while True:
        view = conn.view
        if view is not None and view["version"] >= until and view["acting"] == [0]:
            return view
        if view is not None and view["status"] != "playing":
            raise AssertionError("the game ended before the version was reached")
        if view is None or not view["legal"]:
            await conn.recv(timeout=30)
            continue
        legal = [e["action"] for e in view["legal"]]
        calm = [a for a in legal if not a.startswith(("offer", "counter"))] or legal
        n += 1
        ref = f"a{n}"
        await conn.act(rng.choice(calm), view["version"], ref=ref)
        while True:
            msg = await conn.recv(timeout=30)
            if msg["type"] in ("accepted", "error") and msg.get("ref") == ref:
                break
        if msg["type"] == "error" and msg["code"] not in ("stale", "not_your_turn"):
            raise AssertionError(msg)
        if msg["type"] == "accepted":
            # the view of the step may come after its acknowledgement: wait for it, so the
            # version returned is the table's (a loaded machine once returned the one before)
            while conn.view is None or conn.view["version"] < msg["version"]:
                await conn.recv(timeout=30)


def test_a_reconnect_within_and_beyond_the_reconnect_window_gets_the_missed_lines(
    server: ThreadServer,
) -> None:
    """docs/protocol.md, issue 28 point 4: a reconnecting client gets exactly the log lines it
    missed since the version it names, however far behind: within the reconnect window (256
    versions, counted in versions) from the log lengths the server kept, beyond it from a
    replay of the event log (before, beyond the window meant the whole log again). A ``sync``
    never replays: within the window it sends the lines since its ``since``, beyond it what
    the connection was not sent yet (nothing, here); without ``since`` the whole log, not
    flagged ``log_rewritten``."""

    async def scenario() -> None:
        host, watcher = HexfolkClient(server.url), HexfolkClient(server.url)
        t = await against_a_bot(
            host,
            "Host",
            "random",
            seed=2512,
            bot_delay=0,
            clock=None,
        )
        tid = t["id"]
        await host.start(tid)
        rng = random.Random(25)
        async with host.connect(tid) as h:
            await h.next_view()
            async with watcher.connect(tid, spectate=True) as w:
                old = (await w.next_view())["version"]
                old_log = list(w.log)
            await _advance(h, old + 40, rng)
            async with watcher.connect(tid, spectate=True) as w:
                near = (await w.next_view())["version"]
                near_log = list(w.log)
            now = (await _advance(h, old + RECONNECT_WINDOW + 1, rng))["version"]
            assert now - old > RECONNECT_WINDOW >= now - near
            async with watcher.connect(tid, spectate=True) as w:
                await w.next_view()
                whole = [x.to_json() for x in w.log]
            for since, had, synced in ((near, near_log, near_log), (old, old_log, whole)):
                async with watcher.connect(tid, spectate=True, since=since) as w:
                    view = await w.next_view()
                    assert view["version"] == now and view["log_start"] == len(had)
                    assert "log_rewritten" not in view
                    assert [x.to_json() for x in had] + view["log"] == whole
                    await w.sync(since=since)
                    again = await w.next_view()
                    assert again["log_start"] == len(synced)
                    assert whole[: len(synced)] + again["log"] == whole
                    await w.sync(since=None)
                    fresh = await w.next_view()
                    assert fresh["log_start"] == 0 and fresh["log"] == whole
                    assert "log_rewritten" not in fresh
        await host.aclose()
        await watcher.aclose()

    run(scenario(), timeout=240)


def test_a_text_frame_that_is_not_utf8_is_a_warning_and_a_1007_close(tmp_path: Path) -> None:
    """A text frame with invalid UTF-8 used to log an ERROR with uvicorn's traceback. Now: one
    WARNING line (with a count), the socket closed with 1007 (RFC 6455: data inconsistent with
    the message type), and the table goes on."""
    srv = SubprocessServer(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}", tmp_path).start()
    try:

        async def scenario() -> None:
            host = HexfolkClient(srv.url)
            await host.create_player("Host")
            t = await host.create_table(game="island", players=2)
            for _ in range(2):
                ws = await websockets.connect(_ws_url(srv.url, t["id"]))
                await ws.send(json.dumps({"type": "hello", "token": host.token}))
                await _recv_type(ws, "welcome")
                await ws.send(b'{"type": "chat", "text": "\xff\xfe"}', text=True)
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        await asyncio.wait_for(ws.recv(), 5)
                assert ws.close_code == 1007
            async with host.connect(t["id"]) as conn:
                await conn.chat("still here")
                assert (await conn.expect("chat"))["text"] == "still here"
            await host.aclose()

        run(scenario())
    finally:
        srv.terminate()
    text = srv.log_path.read_text()
    assert "Traceback" not in text
    assert "ERROR" not in text
    lines = [ln for ln in text.splitlines() if "not UTF-8" in ln]
    assert len(lines) == 2 and all("WARNING" in ln for ln in lines), lines
    assert lines[-1].endswith("(2 so far)")
