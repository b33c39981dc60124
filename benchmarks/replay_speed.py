"""How fast a finished game's replay opens in Chromium (issue 27, point 10: "its first draw
took 2.4 s"), against a real server.

Plays two bots-only games of about 700 steps (the island: four easy bots, seed 1, 686 steps;
Scythe: two easy bots, seed 2517, 739 steps), then opens each one's replay page
(``#/t/<id>/replay``) in a fresh browser context ``--runs`` times and prints, from navigation
start (the page's ``performance.now()``):

- the first draw: the step label of the replay is in the page (a ``MutationObserver`` set
  before the page's own scripts run notes the time, so an older client is measured alike);
- all steps loaded: the loading note beside the label is empty (the steps arrive page by page
  while the first ones are shown; an older client drew only once all had arrived).

    .venv/bin/python benchmarks/replay_speed.py [--runs 5] [--against DIR] [--json]

``--against DIR`` serves another copy of the web client (``git archive <commit>
src/hexfolk/web | tar -x -C /tmp/old``, then ``--against /tmp/old/src/hexfolk/web``) from a
second server and measures both, run by run, alternately. Needs ``playwright`` (pip) and
Debian's ``chromium``. Target: first draw under 1 s.

Measured 2026-12-06 on this project's 2-core machine shared with six other jobs (load average
22-24), ``--runs 8 --against`` the client before (454ef51, which drew once every page of 200
steps had arrived), medians (max):

| game, steps | first draw | all steps loaded | before: first draw |
|---|---|---|---|
| island, 686 | 946 ms (1,498) | 2,181 ms (3,437) | 2,159 ms (4,231) |
| Scythe, 739 | 926 ms (1,138) | 3,076 ms (5,376) | 3,702 ms (5,774) |

The first draw waits for the page's modules and one request of 30 steps (made by
``index.html`` beside the table's JSON), no longer for the whole game; on that loaded machine
most of what is left is the shell's and the game's modules.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from web_server import run, served  # run from benchmarks/
from web_speed import ARGS

from hexfolk.server.client import HexfolkClient
from hexfolk.server.config import ServerConfig

GAMES: dict[str, dict[str, Any]] = {
    "island": {"players": 4, "level": "easy", "seed": 1, "options": {}},
    "scythe": {
        "players": 2,
        "level": "easy",
        "seed": 2517,
        "options": {"factions": "polania,saxony", "mats": "mechanical,agricultural"},
    },
}
"""The bots-only games replayed (seeded: the same game on every run of the benchmark)."""

WATCH = """
(() => {
  const seen = () => {
    const el = document.getElementById('replay-label');
    if (!el || !el.textContent) return;
    if (window.__replayFirstDraw === undefined) window.__replayFirstDraw = performance.now();
    if (window.__replayAll !== undefined) return;
    const loading = document.getElementById('replay-loading'); // the loading note (this client)
    const m = el.textContent.match(/(\\d+)\\D+(\\d+)/); // an older one draws when all is in
    if (loading ? !loading.textContent : m && Number(m[2]) >= window.__replaySteps)
      window.__replayAll = performance.now();
  };
  const all = {subtree: true, childList: true, characterData: true};
  new MutationObserver(seen).observe(document, all);
})();
"""
"""Notes the first draw and the time every step is loaded (this client empties its loading note;
an older one drew only then)."""


def _seeded(cfg: ServerConfig) -> None:
    """Seeded tables allowed: the same game on every run of the benchmark."""
    cfg.allow_seeded_tables = True


def _finished(url: str, game: str) -> tuple[str, int]:
    """A finished bots-only ``game`` table: its id and its steps."""
    g = GAMES[game]

    async def play() -> tuple[str, int]:
        async with HexfolkClient(url) as host:
            await host.create_player("Bench")
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
                await watcher.wait_for(lambda v: v["status"] == "finished", timeout=600)
            page = await host.request("GET", f"/api/tables/{t['id']}/replay?limit=1")
            return str(t["id"]), int(page["steps_total"])

    return run(play())


def _open(browser: Any, url: str, tid: str, steps: int) -> tuple[float, float]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    ctx.add_init_script(f"window.__replaySteps = {steps};" + WATCH)
    page = ctx.new_page()
    page.goto(f"{url}/app/index.html#/t/{tid}/replay")
    page.wait_for_function("() => window.__replayAll !== undefined", timeout=60_000)
    first, every = page.evaluate("() => [window.__replayFirstDraw, window.__replayAll]")
    ctx.close()
    return float(first), float(every)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="page loads per game (and side)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--against", type=Path, default=None, help="another web client's folder")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    sides = {"this": None, "against": args.against} if args.against else {"this": None}
    out: dict[str, dict[str, dict[str, list[float]]]] = {
        k: {g: {"first": [], "all": []} for g in GAMES} for k in sides
    }
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        # each server stops (and is waited for) after the browser has closed (web_server.py)
        urls = {
            k: stack.enter_context(served(Path(tmp) / k, web, _seeded)) for k, web in sides.items()
        }
        tables = {(k, g): _finished(urls[k], g) for k in sides for g in GAMES}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=ARGS)
            for i in range(args.runs):
                order = list(sides) if i % 2 == 0 else list(sides)[::-1]
                for k in order:
                    for g in GAMES:
                        tid, steps = tables[(k, g)]
                        first, every = _open(browser, urls[k], tid, steps)
                        out[k][g]["first"].append(first)
                        out[k][g]["all"].append(every)
            browser.close()
    for k in sides:
        for g in GAMES:
            f, a = out[k][g]["first"], out[k][g]["all"]
            steps = tables[(k, g)][1]
            label = f"[{k} {g}]" if args.against else f"[{g}]"
            print(
                f"{label} replay of {steps} steps: first draw median {statistics.median(f):.0f} ms,"
                f" max {max(f):.0f} ms; all steps loaded median {statistics.median(a):.0f} ms,"
                f" max {max(a):.0f} ms over {len(f)} loads (target: first draw < 1000 ms)"
            )
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
