"""Issue 25 (Deliver 3): every bot level of both games plays through the server's own worker pool
(the real spawned ``BotPool``: each decision's state pickled into another process) without a
single failure. Before the fix of 66b750f the island ``hard`` bot failed on its first decision
that searched a maritime trade (an ``id()``-keyed memo does not survive the pickle) and the room
silently played the clock's default instead.

Games are bounded: each table is watched until it has played :data:`EVENTS` steps (or ended);
the autouse fixture of ``conftest.py`` fails the test on any logged bot failure, and
``/healthz`` must count the decisions and no failure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hexfolk.bots.registry import LEVELS
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run, thread_server

ALL_LEVELS = ("random", *LEVELS)
EVENTS = {"island": 90, "scythe": 70}
"""Steps each table plays (the island's setup is about 20 of them; a Scythe turn 2-4)."""
OPTIONS: dict[str, dict[str, Any]] = {"island": {"vp_target": 8}, "scythe": {}}


@pytest.fixture
def pool_server(tmp_path: Path) -> Iterator[ThreadServer]:
    """A server of its own (its tables stop with it), two real bot worker processes."""
    with thread_server(
        data_dir=tmp_path,
        testing=True,
        allow_seeded_tables=True,
        bot_workers=2,
        sqlite_synchronous="NORMAL",
    ) as srv:
        yield srv


async def _bots_table(host: HexfolkClient, game: str, level: str, seed: int) -> str:
    t = await host.create_table(
        game=game,
        players=2,
        options=OPTIONS[game],
        clock=None,
        bot_delay=0,
        seed=seed,
        seats=[{"kind": "bot", "level": level}, {"kind": "bot", "level": level}],
    )
    await host.start(t["id"])
    return str(t["id"])


async def _watch(host: HexfolkClient, table_id: str, events: int) -> dict[str, Any]:
    async with host.connect(table_id, spectate=True) as watcher:
        return await watcher.wait_for(
            lambda v: v["status"] == "finished" or v["version"] >= events, timeout=150
        )


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_every_level_plays_through_the_worker_pool_without_failure(
    pool_server: ThreadServer, game: str
) -> None:
    async def scenario() -> list[dict[str, Any]]:
        async with HexfolkClient(pool_server.url) as host:
            await host.create_player("Organizer")
            ids = [await _bots_table(host, game, lv, 11 + i) for i, lv in enumerate(ALL_LEVELS)]
            return list(await asyncio.gather(*(_watch(host, t, EVENTS[game]) for t in ids)))

    views = run(scenario(), timeout=170)
    health = httpx.get(f"{pool_server.url}/healthz").json()
    assert health["bot_failures"] == 0
    assert health["bot_decisions"] >= len(ALL_LEVELS) * 10
    for level, view in zip(ALL_LEVELS, views, strict=True):
        assert view["version"] >= EVENTS[game] or view["status"] == "finished", level
        if view["status"] == "finished":
            summary = httpx.get(f"{pool_server.url}/api/tables/{view['table']}/summary").json()
            assert [s["bot_failures"] for s in summary["statistics"]["seats"]] == [0, 0]
