"""Issue 25, finding 1: every island setup placement has its own clock (IR-27).

Three idle people on a 1 s clock (a ``--testing`` server): the six setup placements are
defaulted one clock length apart, each on a fresh window. Before the fix a seat's second
placement resumed what its first left (0 s after a time-out) and the last seat's two
placements were defaulted in one expiry.
"""

from __future__ import annotations

import asyncio
import itertools
import time

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run

CLOCK = 1.0
TOLERANCE = 0.4


def test_each_setup_placement_has_a_fresh_window(server: ThreadServer) -> None:
    async def scenario() -> list[tuple[float, str]]:
        clients = [HexfolkClient(server.url) for _ in range(3)]
        try:
            host = clients[0]
            await host.create_player("Idle0")
            t = await host.create_table(
                game="island",
                players=3,
                clock=CLOCK,
                disconnect={"policy": "wait", "grace": 600},
                bot_delay=0,
            )
            for i, c in enumerate(clients[1:], start=1):
                await c.create_player(f"Idle{i}")
                await c.join(t["id"], i)
            watcher = HexfolkClient(server.url)
            async with watcher.connect(t["id"], spectate=True) as spy:
                await host.start(t["id"])
                started = time.monotonic()
                placed: list[tuple[float, str]] = []
                seen = 0
                while len(placed) < 6:
                    msg = await asyncio.wait_for(spy.inbox.get(), 6 * CLOCK + 5)
                    if msg.get("type") != "view":
                        continue
                    for line in spy.log[seen:]:
                        if " settles " in line:
                            placed.append((time.monotonic() - started, line))
                    seen = len(spy.log)
            await watcher.aclose()
            return placed
        finally:
            for c in clients:
                await c.aclose()

    placed = run(scenario())
    times = [at for at, _ in placed]
    # snake order 0 1 2 2 1 0: the k-th placement is defaulted k clock lengths after the start
    for k, at in enumerate(times, start=1):
        assert abs(at - k * CLOCK) < TOLERANCE + 0.1 * k, (k, placed)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(abs(g - CLOCK) < TOLERANCE for g in gaps), (gaps, placed)
    assert [line.split()[1] for _, line in placed] == ["0", "1", "2", "2", "1", "0"]
