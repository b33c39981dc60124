"""Issue 25, finding 17: the end-of-game statistics give the game's duration and each player's
turns, average and longest turn, computed from the event log's times, so a restarted server
gives the same figures."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx

from hexfolk.server.client import HexfolkClient
from tests.server.conftest import FAST_RATE
from tests.server.helpers import play_scripted, quick_choice, run, thread_server
from tests.server.people_tables import against_a_bot

SLOW = 0.5
"""The person takes this long over each of its first :data:`SLOW_TURNS` turns."""
SLOW_TURNS = 3


def _slow_then_quick(seed: int) -> Any:
    quick = quick_choice(random.Random(seed))
    slow_left = [SLOW_TURNS]

    def choose(view: dict[str, Any]) -> str:
        legal = [e["action"] for e in view["legal"]]
        if "roll" in legal and slow_left[0] > 0:  # the start of one of its turns
            slow_left[0] -= 1
            time.sleep(SLOW)  # (blocks this test's client only; the server runs on)
            return "roll"
        return str(quick(view))

    return choose


def test_duration_and_turn_times(tmp_path: Path) -> None:
    data = tmp_path / "data"
    common: dict[str, Any] = {
        "data_dir": data,
        "testing": True,
        "allow_seeded_tables": True,
        "action_rate": FAST_RATE,
    }

    async def scenario(url: str) -> tuple[str, float, dict[str, Any]]:
        async with HexfolkClient(url) as person:
            t = await against_a_bot(
                person,
                "Timed",
                "easy",
                options={"vp_target": 8},
                bot_delay=0,
                seed=25,
            )
            async with person.connect(t["id"]) as conn:
                began = time.monotonic()
                await person.start(t["id"])
                final = await play_scripted(conn, _slow_then_quick(25), timeout=100)
                took = time.monotonic() - began
            return str(t["id"]), took, final

    with thread_server(**common) as first:
        tid, took, final = run(scenario(first.url), timeout=150)
        summary = httpx.get(f"{first.url}/api/tables/{tid}/summary").json()
    times = summary["statistics"]["time"]
    print("turn times", times, "wall", round(took, 2))
    assert 0 < times["duration"] <= took + 0.2, (times, took)
    assert times["duration"] > took - 1.0, (times, took)
    person, bot = times["seats"]
    # every island turn (setup is nobody's turn) belongs to one seat
    assert person["turns"] + bot["turns"] == final["result"]["turns"]
    assert person["turns"] >= SLOW_TURNS and bot["turns"] >= SLOW_TURNS
    # the figures are rounded to 0.01 s (server/turn_times.py): a bound may lose up to 0.005 s
    assert person["longest"] >= SLOW - 0.005
    assert person["average"] >= SLOW * SLOW_TURNS / person["turns"] - 0.005
    assert bot["average"] < SLOW and bot["average"] <= bot["longest"]
    assert person["average"] <= person["longest"] <= times["duration"]
    # a restarted server reads the same figures from the event log
    with thread_server(**common) as second:
        again = httpx.get(f"{second.url}/api/tables/{tid}/summary").json()
    assert again["statistics"]["time"] == times
