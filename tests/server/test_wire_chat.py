"""Issue 25, findings 2 and 3: who may chat with whom, and which characters a chat line holds.

* Finding 2 (docs/server.md, "Chat"): while a table is in its lobby or playing, the players
  (people holding a seat, from any of their connections) chat among themselves and everyone else
  (token holders without a seat, a person kicked from the lobby, the host without a seat,
  anonymous watchers) among themselves; after the end everyone sees both. The same rule filters
  the chat history (``GET /api/tables/{id}/chat``).
* Finding 3: a chat line with a control character (U+0000..U+001F but tab and newline,
  U+007F..U+009F) or a lone surrogate is refused ``bad_chat`` at the edge and nothing is stored,
  on SQLite and on PostgreSQL alike (PostgreSQL used to raise and answer ``internal``).

Raw WebSocket connections against a real server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient, TableConnection
from tests.server.conftest import FAST_RATE
from tests.server.helpers import ThreadServer, play_scripted, run, thread_server
from tests.server.people_tables import host_and_outsider


async def _silent(conn: TableConnection, seconds: float = 0.4) -> list[dict[str, Any]]:
    """The chat messages that reach ``conn`` after a ping's answer (none expected)."""
    await conn.send({"type": "ping", "ref": "hush"})
    got: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    pong = False
    while not pong or loop.time() < end:
        try:
            msg = await conn.recv(timeout=max(0.01, end - loop.time()) if pong else 5)
        except TimeoutError:
            break
        if msg["type"] == "chat":
            got.append(msg)
        pong = pong or (msg["type"] == "pong" and msg.get("ref") == "hush")
    return got


async def _chat_seen(conn: TableConnection, text: str) -> dict[str, Any]:
    while True:
        msg = await conn.recv(timeout=5)
        if msg["type"] == "chat" and msg["text"] == text:
            return msg


def test_players_and_watchers_chat_apart_until_the_end(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, kicked, outsider = (HexfolkClient(server.url) for _ in range(4))
        anonymous = HexfolkClient(server.url)
        await host.create_player("Host")
        await guest.create_player("Guest")
        await kicked.create_player("Kicked")
        await outsider.create_player("Outsider")
        t = await host.create_table(game="island", players=3, clock=None, bot_delay=0)
        tid = t["id"]
        await guest.join(tid, 1)
        await kicked.join(tid, 2)
        async with contextlib.AsyncExitStack() as stack:
            h = await stack.enter_async_context(host.connect(tid))
            g = await stack.enter_async_context(guest.connect(tid))
            k = await stack.enter_async_context(kicked.connect(tid))
            o = await stack.enter_async_context(outsider.connect(tid))
            a = await stack.enter_async_context(anonymous.connect(tid, spectate=True))
            tab = await stack.enter_async_context(host.connect(tid, spectate=True))
            await host.kick(tid, 2)
            players, watchers = (h, g, tab), (k, o, a)

            async def round_trip(sender: TableConnection, text: str, channel: str) -> None:
                await sender.chat(text)
                hearers, deaf = (players, watchers) if channel == "players" else (watchers, players)
                for conn in hearers:
                    msg = await _chat_seen(conn, text)
                    assert msg["channel"] == channel
                for conn in deaf:
                    assert [m["text"] for m in await _silent(conn)] == []

            # in the lobby: the kicked person and the outsider talk among the watchers only
            await round_trip(k, "let me back in", "spectators")
            await round_trip(h, "lobby talk", "players")
            await host.fill_bots(tid, "random")
            await host.start(tid)
            # during play: a named spectator's line never reaches the players, and back
            await round_trip(o, "seat 1 should build", "spectators")
            await round_trip(g, "good luck", "players")
            await round_trip(tab, "from my other tab", "players")  # the host's own tab
            # the history follows the same rule
            mine = await host.request("GET", f"/api/tables/{tid}/chat")
            assert [m["text"] for m in mine["messages"]] == [
                "lobby talk",
                "good luck",
                "from my other tab",
            ]
            theirs = await outsider.request("GET", f"/api/tables/{tid}/chat")
            assert [m["text"] for m in theirs["messages"]] == [
                "let me back in",
                "seat 1 should build",
            ]
            assert {m["channel"] for m in theirs["messages"]} == {"spectators"}
        for c in (host, guest, kicked, outsider, anonymous):
            await c.aclose()

    run(scenario())


def _builder(rng: random.Random) -> Callable[[dict[str, Any]], str]:
    """A scripted person who builds whenever it can (a short game against an easy bot)."""

    def choose(view: dict[str, Any]) -> str:
        legal = [e["action"] for e in view["legal"]]
        for word in ("city", "settle", "buy", "road", "roll", "play", "trade", "end"):
            mine = [a for a in legal if a.startswith(word)]
            if mine and (word != "trade" or rng.random() < 0.7):
                return str(rng.choice(mine))
        calm = [a for a in legal if not a.startswith(("offer", "counter"))] or legal
        return str(rng.choice(calm))

    return choose


def test_after_the_end_everyone_sees_both_chats(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, outsider, tid = await host_and_outsider(server.url, seed=7)
        async with host.connect(tid) as h, outsider.connect(tid) as o:
            await h.next_view()
            await o.chat("during the game")
            await _chat_seen(o, "during the game")
            assert await _silent(h) == []
            await play_scripted(h, _builder(random.Random(7)), max_actions=20_000, timeout=150)
            await o.chat("well played")
            assert (await _chat_seen(h, "well played"))["channel"] == "spectators"
            await h.chat("thanks")
            assert (await _chat_seen(o, "thanks"))["channel"] == "players"
        for who in (host, outsider):
            history = await who.request("GET", f"/api/tables/{tid}/chat")
            assert [m["text"] for m in history["messages"]] == [
                "during the game",
                "well played",
                "thanks",
            ]
        await host.aclose()
        await outsider.aclose()

    run(scenario(), timeout=200)


BAD_LINES = [
    "a\x00b",
    "\x00",
    "bell\x07",
    "colour \x1b[31mred",
    "carriage\rreturn",
    "delete\x7f",
    "next line \x85",
    "half a pair \ud800",
]
GOOD_LINES = ["tab\there", "two\nlines", "\u202eisolated by the client\u202c", "ünïcødé 🎲"]


@contextlib.contextmanager
def _pg_server(pg_url: str, tmp: Path) -> Iterator[ThreadServer]:
    with thread_server(db_url=pg_url, data_dir=tmp, testing=True, action_rate=FAST_RATE) as srv:
        yield srv


@contextlib.asynccontextmanager
async def _two(server: ThreadServer) -> AsyncIterator[tuple[Any, ...]]:
    host, guest = HexfolkClient(server.url), HexfolkClient(server.url)
    await host.create_player("Host")
    await guest.create_player("Guest")
    t = await host.create_table(game="island", players=2)
    await guest.join(t["id"])
    async with host.connect(t["id"]) as h, guest.connect(t["id"]) as g:
        yield host, t["id"], h, g
    await host.aclose()
    await guest.aclose()


def _control_characters_are_refused(server: ThreadServer) -> None:
    async def scenario() -> None:
        async with _two(server) as (host, tid, h, g):
            for text in BAD_LINES:
                await h.send_raw(json.dumps({"type": "chat", "text": text}))
                err = await h.expect("error", timeout=5)
                assert err["code"] == "bad_chat", (text, err)
                assert "control character" in err["message"]
            assert await _silent(g) == []
            for text in GOOD_LINES:
                await h.chat(text)
                assert (await _chat_seen(g, text))["text"] == text
            stored = await host.request("GET", f"/api/tables/{tid}/chat")
            assert [m["text"] for m in stored["messages"]] == GOOD_LINES

    run(scenario())


def test_control_characters_are_refused_on_sqlite(server: ThreadServer) -> None:
    _control_characters_are_refused(server)


def test_control_characters_are_refused_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    with _pg_server(pg_url, tmp_path) as srv:
        _control_characters_are_refused(srv)


@pytest.mark.parametrize("text", ["nul \x00 inside"])
def test_postgresql_and_sqlite_answer_alike(
    server: ThreadServer, pg_url: str, tmp_path: Path, text: str
) -> None:
    """The same line gets the same answer from both databases (it was stored and broadcast on
    SQLite, ``internal`` on PostgreSQL)."""

    async def answer(srv: ThreadServer) -> str:
        async with _two(srv) as (_, _tid, h, _g):
            await h.chat(text)
            msg = await h.recv(timeout=5)
            while msg["type"] not in ("chat", "error"):
                msg = await h.recv(timeout=5)
            return str(msg.get("code") or msg["type"])

    with _pg_server(pg_url, tmp_path) as pg:
        assert run(answer(server)) == run(answer(pg)) == "bad_chat"
