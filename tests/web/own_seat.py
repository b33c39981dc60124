"""A person at a table of random bots, for the page tests that need one position of the
person's own seat (a refused action, a missing card): enter the page, seat them with bots,
play their seat until the position is reached.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from hexfolk.server.client import HexfolkClient, TableConnection


def enter(page: Any, url: str, name: str) -> str:
    """A person named ``name`` in the page; their token."""
    page.goto(url)
    page.fill("#name", name)
    page.click(".name-form button[type=submit]")
    page.wait_for_selector("#create-table")
    return str(page.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player')).token"))


async def play_seat_until(
    conn: TableConnection,
    found: Callable[[dict[str, Any]], bool],
    pick: Callable[[list[str]], str],
    failure: str,
) -> dict[str, Any]:
    """Play the person's seat with ``pick(legal)`` on each new view with legal actions until
    ``found(view)``; that view. ``failure`` when 90 s pass without it."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 90
    acted = -1
    while loop.time() < end:
        view = conn.view
        if view is not None and view["legal"] and view["version"] != acted:
            if found(view):
                return view
            legal = [e["action"] for e in view["legal"]]
            acted = view["version"]
            await conn.act(pick(legal), view["version"])
        try:
            await asyncio.wait_for(conn.inbox.get(), 5)
        except TimeoutError:
            acted = -1
    raise AssertionError(failure)


async def with_random_bots(
    url: str,
    token: str,
    *,
    game: str,
    players: int,
    seed: int,
    drive: Callable[[TableConnection, random.Random], Awaitable[dict[str, Any]]],
) -> tuple[str, dict[str, Any]]:
    """The person (``token``) hosts a table of ``game`` with random bots in the other seats, no
    clock, no bot delay, seeded; starts it and plays it with ``drive(conn, Random(seed))``.
    The table's id and the view ``drive`` returned."""
    async with HexfolkClient(url, token=token) as person:
        t = await person.create_table(
            game=game,
            players=players,
            seats=[{"kind": "host"}] + [{"kind": "bot", "level": "random"}] * (players - 1),
            clock=None,
            bot_delay=0,
            seed=seed,
        )
        tid = str(t["id"])
        await person.start(tid)
        async with person.connect(tid) as conn:
            view = await drive(conn, random.Random(seed))
        return tid, view
