"""Finished bots-only games for the browser tests of the end pages (the replay, the island's
overview, Scythe's end panel): seeded, so each is the same game on every run, and about 700
steps long (the length issue 27 measured the replay's opening at: 2.4 s)."""

from __future__ import annotations

from typing import Any

import httpx

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.helpers import in_thread

GAMES: dict[str, dict[str, Any]] = {
    # four easy bots: 686 steps, 75 turns (Bot 3 wins with 10 VP)
    "island": {"players": 4, "level": "easy", "seed": 1, "options": {}},
    # two easy bots: 739 steps (the sixth star ends it)
    "scythe": {
        "players": 2,
        "level": "easy",
        "seed": 2517,
        "options": {"factions": "polania,saxony", "mats": "mechanical,agricultural"},
    },
}
"""The games played (the same seeds as ``benchmarks/replay_speed.py``)."""


def finished_game(server: ThreadServer, game: str) -> tuple[str, int]:
    """A finished bots-only ``game`` table (``GAMES``): its id and its step count."""
    g = GAMES[game]

    async def play() -> tuple[str, int]:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Organizer")
            t = await host.create_table(
                game=game,
                players=g["players"],
                options=g["options"],
                seats=[{"kind": "bot", "level": g["level"]}] * g["players"],
                bot_delay=0,
                clock=None,
                seed=g["seed"],
            )
            await host.start(t["id"])
            async with host.connect(t["id"], spectate=True) as watcher:
                await watcher.wait_for(lambda v: v["status"] == "finished", timeout=240)
            page = await host.request("GET", f"/api/tables/{t['id']}/replay?limit=1")
            return str(t["id"]), int(page["steps_total"])

    return in_thread(play, timeout=260)  # type: ignore[no-any-return]


def public_steps(server: ThreadServer, tid: str) -> list[dict[str, Any]]:
    """Every step of the replay as a spectator gets it (``reveal=false``), each with its whole
    public log (``log=all``) and the lines it wrote (``new``: the lines past the step before's)."""
    out: list[dict[str, Any]] = []
    total = 1
    with httpx.Client(base_url=server.url, timeout=60) as http:
        while len(out) < total:
            r = http.get(
                f"/api/tables/{tid}/replay",
                params={"start": len(out), "limit": 200, "reveal": "false"},
            )
            r.raise_for_status()
            page = r.json()
            total = page["steps_total"] + 1
            out += page["steps"]
    before: list[Any] = []
    for st in out:
        log = st["observation"].get("log") or []
        n = next((i for i, (a, b) in enumerate(zip(before, log)) if a != b), None)
        st["new"] = log[min(len(before), len(log)) if n is None else n :]
        before = log
    return out
