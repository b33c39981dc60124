"""Issue 25: ``hexfolk connect`` at the table.

Finding 15: against a server with the default action rate (20 actions per 2 s) the connect
loop sent faster than allowed, got ``rate_limited``, never sent that decision again and let its
clock run out (5-9 time-outs in 130-140 decisions). Now it paces itself to the rate the welcome
announces: a whole game with no time-out and no ``rate_limited`` frame.

Deliver 3: every bot level of both games plays through the connect loop (``play_seat``, the
seat's view only) with no bot failure (a bounded number of decisions each).
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from typing import Any

import httpx
import pytest

from hexfolk.bots.registry import LEVELS
from hexfolk.server.client import HexfolkClient
from hexfolk.server.remote_bot import RemoteBot, play_seat
from tests.server.helpers import ThreadServer, run
from tests.server.people_tables import start_as, wait_for_person

DECISIONS = 25
"""Decisions each level takes through the connect loop."""


def test_connect_keeps_to_the_default_action_rate_and_never_times_out(
    strict_server: ThreadServer,
) -> None:
    url = strict_server.url

    async def create() -> tuple[str, str]:
        async with HexfolkClient(url) as host:
            await host.create_player("Organizer")
            t = await host.create_table(
                game="island",
                players=2,
                options={"vp_target": 8},
                clock=30,
                bot_delay=0,
                seats=[{"kind": "open"}, {"kind": "bot", "level": "easy"}],
            )
            return str(t["id"]), str(host.token)

    tid, token = run(create())
    args = [sys.executable, "-m", "hexfolk.cli.main", "connect", url, "--table", tid]
    proc = subprocess.Popen(
        [*args, "--name", "Robo", "--bot", "medium"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_person(url, tid, 0)
        start_as(url, tid, token)
        out, err = proc.communicate(timeout=150)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "game over" in out
    assert "rate_limited" not in err
    assert ", 0 bot failures, 0 refused as too fast" in err
    stats = httpx.get(f"{url}/api/tables/{tid}/summary").json()["statistics"]["seats"]
    assert stats[0]["decisions"] > 40  # enough decisions to have crossed 20 per 2 s
    assert stats[0]["timeouts"] == 0


async def _connect_level(url: str, game: str, level: str) -> RemoteBot:
    async with HexfolkClient(url) as host, HexfolkClient(url) as guest:
        await host.create_player("Organizer")
        await guest.create_player("Remote")
        t = await host.create_table(
            game=game,
            players=2,
            clock=None,
            bot_delay=0,
            seats=[{"kind": "open"}, {"kind": "bot", "level": "random"}],
        )
        table = await guest.join(t["id"], 0)
        await host.start(t["id"])
        player = RemoteBot(level, table)
        lines: list[str] = []
        async with guest.connect(t["id"], paced=True) as conn:
            await play_seat(conn, player, random.Random(7), lines.append, max_decisions=DECISIONS)
        assert player.failures == 0, lines
        assert player.rate_limited == 0, lines
        return player


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_every_level_plays_through_the_connect_loop_without_failure(
    server: ThreadServer, game: str
) -> None:
    async def scenario() -> list[Any]:
        levels = ("random", *LEVELS)
        return list(await asyncio.gather(*(_connect_level(server.url, game, lv) for lv in levels)))

    players = run(scenario(), timeout=150)
    for player in players:
        assert player.decisions == DECISIONS, player.code
