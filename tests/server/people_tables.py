"""Tables for the server tests: seat people (or bots), play them on until something is asked,
read back the actions the server stored. One body for the clock tests that drive whole games.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from hexfolk.server.client import HexfolkClient, TableConnection
from tests.server.helpers import ThreadServer


async def seat_people(clients: Sequence[HexfolkClient], names: Sequence[str], **table: Any) -> Any:
    """Each client becomes a player named from ``names``; the first creates the table (the
    keyword arguments of ``create_table``), the others join seats 1.., the first starts it.
    The created table."""
    await clients[0].create_player(names[0])
    t = await clients[0].create_table(**table)
    for i, c in enumerate(clients[1:], start=1):
        await c.create_player(names[i])
        await c.join(t["id"], i)
    await clients[0].start(t["id"])
    return t


async def play_until(
    conns: Sequence[TableConnection],
    found: Callable[[int, TableConnection, dict[str, Any]], bool],
    choose: Callable[[dict[str, Any]], str],
    *,
    within: float,
    failure: str,
) -> tuple[int, dict[str, Any]]:
    """Every seat plays ``choose(view)`` on each new view until ``found(seat, conn, view)``
    holds for a seat with legal actions: that seat and its view. An error other than
    ``stale``/``not_your_turn`` fails the test; so does ``within`` seconds without a find
    (with the message ``failure``)."""
    acted = [-1] * len(conns)
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while loop.time() < end:
        for seat, conn in enumerate(conns):
            view = conn.view
            if view is None or not view["legal"] or view["version"] == acted[seat]:
                continue
            if found(seat, conn, view):
                return seat, view
            acted[seat] = view["version"]
            await conn.act(choose(view), view["version"])
        waits = [asyncio.ensure_future(c.inbox.get()) for c in conns]
        done, pending = await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
        for w in pending:
            w.cancel()
        for w in done:
            msg = w.result()
            if msg.get("type") == "error" and msg.get("code") not in ("stale", "not_your_turn"):
                raise AssertionError(f"refused: {msg}")
    raise AssertionError(failure)


def action_events(server: ThreadServer, table_id: str) -> list[tuple[Any, ...]]:
    """The table's stored actions in order: (seq, seat, action, timeout, at)."""
    db = server.config.resolved_data_dir() / "hexfolk.sqlite"
    with sqlite3.connect(db) as conn:
        return list(
            conn.execute(
                "SELECT seq, seat, action, timeout, at FROM events WHERE table_id = ? "
                "AND kind = 'action' ORDER BY seq",
                (table_id,),
            )
        )


def roll_or_end(view: dict[str, Any]) -> str:
    """Nobody builds: roll or end the turn when listed, else the first listed action."""
    legal = [e["action"] for e in view["legal"]]
    for want in ("roll", "end"):
        if want in legal:
            return want
    return str(legal[0])


def wait_for_person(url: str, table_id: str, seat: int, within: float = 30) -> list[Any]:
    """Poll the table until ``seat`` holds a person (at most ``within`` seconds); the seats
    last read."""
    deadline = time.time() + within
    while time.time() < deadline:
        seats: list[Any] = httpx.get(f"{url}/api/tables/{table_id}").json()["seats"]
        if seats[seat]["kind"] == "person":
            break
        time.sleep(0.1)
    return seats


def start_as(url: str, table_id: str, token: str) -> None:
    """The holder of ``token`` starts the table; the server accepts."""
    r = httpx.post(
        f"{url}/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 200, r.text


async def against_a_bot(host: HexfolkClient, name: str, level: str, **table: Any) -> Any:
    """``host`` becomes the player ``name`` and creates a two-seat island table: itself in seat
    0, a bot of ``level`` in seat 1 (the other keyword arguments go to ``create_table``). The
    created table."""
    await host.create_player(name)
    return await host.create_table(
        game="island",
        players=2,
        seats=[{"kind": "host"}, {"kind": "bot", "level": level}],
        **table,
    )


async def watch_a_bots_game(url: str, level: str, seed: int, timeout: float) -> tuple[str, Any]:
    """An organizer starts a two-seat island game (8 points, no clock, no bot delay, seeded) of
    two bots of ``level`` and watches it to the end (``timeout`` seconds at most): the table's
    id and its last view."""
    async with HexfolkClient(url) as host:
        await host.create_player("Organizer")
        t = await host.create_table(
            game="island",
            players=2,
            options={"vp_target": 8},
            clock=None,
            bot_delay=0,
            seed=seed,
            seats=[{"kind": "bot", "level": level}, {"kind": "bot", "level": level}],
        )
        view = await start_and_watch_to_the_end(host, t["id"], timeout=timeout)
        return str(t["id"]), view


async def connect_all(
    stack: contextlib.AsyncExitStack, clients: Sequence[HexfolkClient], table_id: str
) -> list[TableConnection]:
    """Each client connects to the table (closed with ``stack``) and reads its first view, in
    seat order; the connections."""
    conns: list[TableConnection] = []
    for c in clients:
        conn = await stack.enter_async_context(c.connect(table_id))
        await conn.next_view()
        conns.append(conn)
    return conns


async def start_and_watch_to_the_end(host: HexfolkClient, table_id: str, timeout: float) -> Any:
    """``host`` starts the table and watches it as a spectator until it is finished (``timeout``
    seconds at most); the last view."""
    await host.start(table_id)
    async with host.connect(table_id, spectate=True) as watcher:
        return await watcher.wait_for(lambda v: v["status"] == "finished", timeout=timeout)


async def host_and_outsider(url: str, **table: Any) -> tuple[HexfolkClient, HexfolkClient, Any]:
    """Host has started a table against an easy bot (8 points, no clock, no bot delay, and the
    keyword arguments of ``create_table`` given); Outsider is a player not at it. Both clients
    and the table's id."""
    host, outsider = HexfolkClient(url), HexfolkClient(url)
    t = await against_a_bot(
        host, "Host", "easy", options={"vp_target": 8}, clock=None, bot_delay=0, **table
    )
    await outsider.create_player("Outsider")
    tid = t["id"]
    await host.start(tid)
    return host, outsider, tid
