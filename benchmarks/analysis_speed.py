"""How long ``hexfolk analyze`` takes at the default budget (issue 29 point 5: at most 30 s
for a 4-player island game and a 2-player Scythe game on one core).

Plays ``--games`` seeded bot games of each (medium bots: whole games of typical length; the
analysis's cost depends on the record's length and branching, not on who played), then
analyses each record in this process and prints the wall time and this process's CPU time
(the CPU time is the one-core figure on a machine loaded by other work), median and maximum.

    python benchmarks/analysis_speed.py
    python benchmarks/analysis_speed.py --games 5 --budget actions=24,horizon=40 --json

Not a test (speed figures are measured here, never in timed tests).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from hexfolk.analysis import Budget, analyze_record
from hexfolk.bots.registry import make_bot
from hexfolk.core import Match, load_game

TARGET_SECONDS = 30.0
CASES = [("island", 4), ("scythe", 2)]


def measure(game_id: str, players: int, games: int, budget: Budget, level: str) -> dict:
    walls, cpus, steps = [], [], []
    for seed in range(games):
        game = load_game(game_id, players)
        bots = [make_bot(level, game_id) for _ in range(players)]
        record = Match(game, bots, 1000 + seed).run().record
        w0, c0 = time.perf_counter(), time.process_time()
        analyze_record(record, budget)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        steps.append(len(record.actions))
    return {
        "game": game_id,
        "players": players,
        "games": games,
        "steps_median": statistics.median(steps),
        "steps_max": max(steps),
        "wall_median_s": round(statistics.median(walls), 2),
        "wall_max_s": round(max(walls), 2),
        "cpu_median_s": round(statistics.median(cpus), 2),
        "cpu_max_s": round(max(cpus), 2),
        "target_s": TARGET_SECONDS,
        "ok": max(cpus) <= TARGET_SECONDS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--budget", default="default")
    parser.add_argument("--level", default="medium", help="the bots that play the games")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    budget = Budget.parse(args.budget)
    rows = [measure(g, n, args.games, budget, args.level) for g, n in CASES]
    if args.json:
        print(json.dumps({"budget": budget.text(), "rows": rows}))
        return
    print(f"budget {budget.text()}")
    for r in rows:
        print(
            f"{r['game']} {r['players']}p: {r['games']} games, steps median {r['steps_median']} "
            f"max {r['steps_max']}; CPU median {r['cpu_median_s']} s, max {r['cpu_max_s']} s; "
            f"wall median {r['wall_median_s']} s, max {r['wall_max_s']} s; "
            f"target <= {TARGET_SECONDS:.0f} s: {'ok' if r['ok'] else 'MISSED'}"
        )


if __name__ == "__main__":
    main()
