"""Bot strength and decision time: hard vs medium vs easy vs random, in both games.

For each game and each pair of levels, plays 2-player games with seats rotated (entry 0 sits
first in even games, second in odd ones) from one master seed, and prints the first entry's win
rate with a 95% Wilson interval. Every decision of every bot is timed, and the median and 95th
percentile decision time per level are printed.

    python benchmarks/bot_strength.py --games 200 --workers 2
    python benchmarks/bot_strength.py --game island --pairs hard-random --games 100 --json

Not a test: a full run takes a long time. The issue's targets: hard >= 95% vs random and
>= 60% vs medium; medium >= 60% vs easy; hard's median decision <= 1 s at its default budget.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from hexfolk.bots.registry import make_bot
from hexfolk.bots.tournament import game_seed, seats_for_game, wilson_interval
from hexfolk.core import Action, Bot, Match, Observation, load_game

DEFAULT_PAIRS = ("hard-random", "hard-medium", "medium-easy", "easy-random")


class TimedBot:
    """Wraps a bot and records the wall time of each decision."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, observation: Observation, legal: Sequence[Action], rng: Any) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(observation, legal, rng)
        self.times.append(time.perf_counter() - start)
        return action


def play_one(args: tuple[str, str, str, int, int]) -> dict[str, Any]:
    game_id, first, second, seed, index = args
    game = load_game(game_id, 2)
    codes = seats_for_game([first, second], index)
    bots = [TimedBot(make_bot(code, game_id)) for code in codes]
    result = Match(game, bots, game_seed(seed, index)).run(keep_actions=False)
    first_seat = codes.index(first) if first != second else index % 2
    returns = result.returns
    return {
        "first_return": returns[first_seat],
        "finished": result.finished,
        "times": {codes[s]: bots[s].times for s in range(2)},
    }


def run_pair(game_id: str, pair: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    first, _, second = pair.partition("-")
    jobs = [(game_id, first, second, seed, i) for i in range(games)]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            outcomes = pool.map(play_one, jobs, chunksize=1)
    else:
        outcomes = [play_one(j) for j in jobs]
    wins = sum(o["first_return"] for o in outcomes)
    lo, hi = wilson_interval(wins, games)
    times: dict[str, list[float]] = {}
    for o in outcomes:
        for code, ts in o["times"].items():
            times.setdefault(code, []).extend(ts)
    return {
        "game": game_id,
        "pair": pair,
        "games": games,
        "finished": sum(o["finished"] for o in outcomes),
        "first_win_rate": wins / games if games else 0.0,
        "ci95": [lo, hi],
        "times": times,
    }


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["island", "scythe", "both"], default="both")
    parser.add_argument("--pairs", default=",".join(DEFAULT_PAIRS), help="e.g. hard-random")
    parser.add_argument("--games", type=int, default=100, help="games per pair")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    game_ids = ["island", "scythe"] if args.game == "both" else [args.game]
    rows = []
    level_times: dict[str, list[float]] = {}
    for game_id in game_ids:
        for pair in args.pairs.split(","):
            start = time.perf_counter()
            row = run_pair(game_id, pair.strip(), args.games, args.seed, args.workers)
            row["seconds"] = time.perf_counter() - start
            for code, ts in row.pop("times").items():
                level_times.setdefault(f"{game_id}:{code}", []).extend(ts)
            rows.append(row)
            if not args.json:
                lo, hi = row["ci95"]
                print(
                    f"{game_id:7s} {row['pair']:12s} first wins {row['first_win_rate']:6.1%} "
                    f"[{lo:.1%}, {hi:.1%}] over {row['games']} games "
                    f"({row['finished']} finished) in {row['seconds']:.0f}s",
                    flush=True,
                )
    timing = {
        key: {
            "decisions": len(ts),
            "median_ms": 1000 * statistics.median(ts) if ts else 0.0,
            "p95_ms": 1000 * percentile(ts, 0.95),
        }
        for key, ts in sorted(level_times.items())
    }
    if args.json:
        json.dump({"pairs": rows, "decision_time": timing}, sys.stdout, indent=1)
        print()
    else:
        print()
        for key, t in timing.items():
            print(
                f"{key:16s} decisions {t['decisions']:8d}  median {t['median_ms']:8.2f} ms"
                f"  p95 {t['p95_ms']:8.2f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
