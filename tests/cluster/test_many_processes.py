"""Many ``hexfolk serve`` processes as one site (issue 28, points 2-4 and 6): real subprocesses
on one fresh PostgreSQL database, relayed through Redis under a key prefix of the test's own
(the machine's shared Redis, or a ``redis-server`` the test starts itself); leases of
:data:`~tests.cluster.sites.LEASE` seconds."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import websockets

from tests.cluster.sites import (
    OwnRedis,
    Player,
    Site,
    check_log,
    events,
    http,
    owner_port,
    pg_dsn,
    site,
)
from tests.server.helpers import run

pytestmark = pytest.mark.timeout(300)


async def three_seat_table(
    s: Site, host_url: str, urls: list[str], clock: float | None = None, bot: bool = False
) -> tuple[str, list[Player]]:
    """An island table of three people (with ``bot``: two and an easy bot in seat 2), created
    at ``host_url``; seat i joins (and later plays) through ``urls[i]``. Returns its id and the
    players (not yet running)."""
    tokens = []
    for i, url in enumerate(urls):
        me = await http(url, "POST", "/api/players", json={"name": f"P{i}"})
        tokens.append(me["token"])
    table = await http(
        host_url,
        "POST",
        "/api/tables",
        tokens[0],
        json={
            "game": "island",
            "players": 3,
            "seats": [{"kind": "host"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]
            if bot
            else [{"kind": "host"}, {"kind": "open"}, {"kind": "open"}],
            "clock": clock,
            "bot_delay": 0,
        },
    )
    people = (0, 1) if bot else (0, 1, 2)
    for i in people[1:]:
        await http(urls[i], "POST", f"/api/tables/{table['id']}/join", tokens[i], json={"seat": i})
    await http(urls[1], "POST", f"/api/tables/{table['id']}/start", tokens[0])
    players = [
        Player(f"P{i}", tokens[i], table["id"], urls[i:] + urls[:i], seed=100 + i) for i in people
    ]
    return table["id"], players


def at(version: int) -> Any:
    return lambda p: (p.version or 0) >= version or (p.view or {}).get("status") == "finished"


async def play(players: list[Player], until: Any, timeout: float = 90) -> None:
    await asyncio.wait_for(asyncio.gather(*(p.run(until) for p in players)), timeout)


async def whole_log(url: str, player: Player) -> list[Any]:
    """The seat's whole log as a fresh connection gets it."""
    fresh = Player("fresh", player.token, player.table, [url], seed=0)
    fresh.paused = True
    await asyncio.wait_for(fresh.run(lambda p: p.view is not None), 15)
    return fresh.log


def chat(text: str) -> dict[str, Any]:
    return {"type": "chat", "text": text}


async def talk(
    player: Player, message: dict[str, Any] | None, want: str = "error"
) -> dict[str, Any]:
    """A second connection of ``player`` (at its first process): after its first view, send
    ``message``; return the first message of type ``want`` (the chat line when ``want`` is
    ``chat``; the ``error`` answer otherwise, or the echo of a chat line sent)."""
    url = player.urls[0].replace("http://", "ws://")
    async with websockets.connect(f"{url}/ws/tables/{player.table}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": player.token}))
        while json.loads(await asyncio.wait_for(ws.recv(), 10)).get("type") != "view":
            pass
        if message is not None:
            await ws.send(json.dumps(message))
            if message["type"] == "chat":
                want = "chat"
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg.get("type") == want:
                return dict(msg)


async def lease_owner(s: Site, table: str) -> tuple[str, int]:
    conn = await asyncpg.connect(pg_dsn(s.db_url))
    try:
        row = await conn.fetchrow("SELECT owner, token FROM leases WHERE table_id=$1", table)
    finally:
        await conn.close()
    return str(row["owner"]), int(row["token"])


async def moved(s: Site, table: str, old: tuple[str, int], timeout: float = 20) -> float:
    """Wait until the table's lease has a new owner; the seconds waited."""
    t = time.monotonic()
    while await lease_owner(s, table) == old:
        assert time.monotonic() - t < timeout, "nobody took the table over"
        await asyncio.sleep(0.1)
    return time.monotonic() - t


def test_three_processes_one_game_owner_killed_stale_owner_fenced(tmp_path: Path) -> None:
    """Seats connected to three different processes play one game (points 2, 6): the same
    versions and checks everywhere, each seat its own view, chat and listings the same at every
    process. Then the owner is killed (SIGKILL) while actions are in flight: another process
    takes the table within the lease, every acknowledged action is in the log exactly once, the
    game goes on, each seat's log after its reconnects is the log a fresh connection gets
    (point 4). Then the new owner is paused (SIGSTOP) past its lease with an action on its
    way, the last process takes over, and the woken owner writes nothing (point 1's fence)."""

    async def scenario(s: Site) -> None:
        urls = s.urls()
        table, players = await three_seat_table(s, urls[0], urls, clock=60)
        await play(players, at(30))
        owner = await owner_port(s.db_url, table, s)
        assert {p.urls[0] for p in players} == set(urls)  # one seat per process
        check_log(await events(s.db_url, table), players)
        for p in players:
            assert p.reconnects == 0, p.closes
            assert p.view is not None and p.view["seat"] == players.index(p)
            assert p.log == await whole_log(p.urls[0], p)  # its own view, not another seat's
            codes = {e["code"] for e in p.errors}
            assert codes <= {"stale", "not_your_turn"}, p.errors
        # a refusal from the owner reaches a piped connection as it would a direct one, and a
        # chat line written through one process reaches a seat connected through another
        far = [p for p in players if p.urls[0] != owner]
        got = await talk(far[0], {"type": "action", "action": "nonsense", "version": 0, "ref": "x"})
        assert got["type"] == "error" and got["code"] in ("stale", "not_your_turn", "illegal")
        listener = asyncio.ensure_future(talk(far[1], None, want="chat"))
        await asyncio.sleep(0.5)
        near = players[[p.urls[0] for p in players].index(owner)]
        await talk(near, chat("hello from the owner"))
        line = await asyncio.wait_for(listener, 10)
        assert line["text"] == "hello from the owner" and line["channel"] == "players"
        # listings and the table are the same whichever process answers
        lists = [await http(u, "GET", "/api/tables/live") for u in urls]
        assert all([t["id"] for t in x["tables"]] == [table] for x in lists), lists
        seen = [await http(u, "GET", f"/api/tables/{table}") for u in urls]
        assert all(x == seen[0] for x in seen)

        # --- the owner killed while actions are in flight ---------------------------------
        before = await lease_owner(s, table)
        v0 = max(p.version or 0 for p in players)
        going = asyncio.ensure_future(play(players, at(v0 + 40)))
        while max(p.version or 0 for p in players) < v0 + 3:  # the play is under way
            await asyncio.sleep(0.002)
        s.by_port(owner).kill()
        killed = time.monotonic()
        await moved(s, table, before)
        while max(p.version or 0 for p in players) <= v0 + 1 + len(players):
            await asyncio.sleep(0.05)
        FAILOVER.append(time.monotonic() - killed)
        print(f"failover: the game moved on {FAILOVER[-1]:.2f} s after the owner's SIGKILL")
        await going
        evs = await events(s.db_url, table)
        check_log(evs, players)
        assert len(evs) >= v0 + 40
        assert sum(p.reconnects for p in players) >= 1
        urls = s.urls()
        for p in players:
            assert p.log == await whole_log(urls[0], p)  # exactly the events it missed

        # --- a stale owner wakes after its lease moved -------------------------------------
        owner = await owner_port(s.db_url, table, s)
        other = next(u for u in urls if u != owner)
        for mover in players:  # a direct connection to the owner of the seat to act
            stale = await websockets.connect(
                owner.replace("http://", "ws://") + f"/ws/tables/{table}"
            )
            await stale.send(json.dumps({"type": "hello", "token": mover.token}))
            view = None
            while view is None:
                msg = json.loads(await asyncio.wait_for(stale.recv(), 10))
                view = msg if msg.get("type") == "view" else None
            if view["legal"]:
                break
            await stale.close()
        v1, before = int(view["version"]), await lease_owner(s, table)
        proc = s.by_port(owner).proc
        assert proc is not None
        os.kill(proc.pid, signal.SIGSTOP)
        try:
            act = {"type": "action", "action": view["legal"][0]["action"], "version": v1}
            await stale.send(json.dumps({**act, "ref": "stale"}))
            await moved(s, table, before)  # the last process's sweep takes the table
            taken = time.monotonic()
        finally:
            os.kill(proc.pid, signal.SIGCONT)
        answers: list[dict[str, Any]] = []
        try:
            while True:
                answers.append(json.loads(await asyncio.wait_for(stale.recv(), 5)))
        except (websockets.ConnectionClosed, TimeoutError):
            pass
        assert not [m for m in answers if m.get("type") == "accepted"], answers
        assert len(await events(s.db_url, table)) == v1  # nothing written by the woken owner
        assert "lease lost" in s.by_port(owner).log_path.read_text()
        await stale.close()
        # the new owner gave the seat to move its paused time back (point 4: clocks re-armed)
        seat = str(view["seat"])
        before_pause = view["clocks"]["seats"][seat]["remaining"]
        fresh = Player("fresh", mover.token, table, [other], seed=0)
        fresh.paused = True
        await asyncio.wait_for(fresh.run(lambda p: p.view is not None), 15)
        assert fresh.view is not None and fresh.view["version"] == v1
        after = fresh.view["clocks"]["seats"][seat]
        # lost: the new owner's own running time, and up to a renewal period plus slack
        # (without the time given back it would be at least the lease more)
        allowed = time.monotonic() - taken + 1.0
        assert after["running"] and after["remaining"] >= before_pause - allowed, (
            before_pause,
            after,
            allowed,
        )
        for p in players:
            p.urls = [other]
        await play(players, at(v1 + 6))  # the game goes on at the last process
        check_log(await events(s.db_url, table), players)

    with site(tmp_path, 3) as s:
        run(scenario(s), 200)


FAILOVER: list[float] = []
"""Seconds from the owner's SIGKILL to the game's next steps (printed by the test)."""


def test_redis_restarted_and_processes_come_and_go(tmp_path: Path) -> None:
    """Two games on two processes relayed through a Redis the test starts itself: Redis is
    restarted mid-game (the piped sockets reconnect, nothing lost); a third process joins and
    the next table goes to it (the least loaded); then a process is stopped (SIGTERM) while its
    game (two people and a bot) runs: it gives its leases up and the game, its bot included,
    goes on at another (points 1, 3, 4, 6)."""
    redis = OwnRedis(tmp_path).start()

    async def scenario(s: Site) -> None:
        u0, u1 = s.urls()
        t1, p1 = await three_seat_table(s, u0, [u0, u1, u1], bot=True)
        t2, p2 = await three_seat_table(s, u1, [u1, u0, u0])
        assert {await owner_port(s.db_url, t, s) for t in (t1, t2)} == {u0, u1}  # spread
        games = {t1: p1, t2: p2}
        everyone = p1 + p2
        await play(everyone, at(12))
        # --- Redis restarted mid-game --------------------------------------------------------
        # stopped before the play goes on, so the piped sockets meet it however fast the game
        v = {t: max(p.version or 0 for p in ps) for t, ps in games.items()}
        redis.stop()
        going = asyncio.ensure_future(play(everyone, at(max(v.values()) + 20)))
        await asyncio.sleep(1.0)
        redis.start()
        await going
        assert sum(p.reconnects for p in everyone) >= 1  # the piped ones came back
        for t, ps in games.items():
            check_log(await events(s.db_url, t), ps)
        # --- a process joins: the next table goes to it ---------------------------------------
        (new,) = s.add(1)
        t3, p3 = await three_seat_table(s, u0, [u0, u1, new.url])
        assert await owner_port(s.db_url, t3, s) == new.url
        games[t3] = p3
        everyone += p3
        await play(everyone, at(max(p.version or 0 for p in everyone) + 6))
        # --- a process leaves while its game runs ---------------------------------------------
        leaving = await owner_port(s.db_url, t1, s)
        v1 = max(p.version or 0 for p in p1)
        proc = s.by_port(leaving).proc
        assert proc is not None
        proc.terminate()  # SIGTERM: it hands its tables over and stops (before the play goes on)
        await play(everyone, at(v1 + 14))
        assert await owner_port(s.db_url, t1, s) != leaving
        for t, ps in games.items():
            check_log(await events(s.db_url, t), ps)
        evs = await events(s.db_url, t1)
        assert len(evs) >= v1 + 14
        # the bot of t1 played on at its new owner (bots re-armed after the takeover)
        assert any(e["bot"] and e["seq"] > v1 + 2 for e in evs)

    try:
        with site(tmp_path, 2, redis_url=redis.url) as s:
            run(scenario(s), 200)
    finally:
        redis.stop()
