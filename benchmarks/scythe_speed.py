"""Scythe engine speed: decisions per second and complete random-bot games per second.

Plays random-bot games on one core with :class:`hexfolk.core.Match` (the same runner the
tables use) and prints, per player count, games/s, decisions/s and how many games ended by
the rules (sixth star) versus the turn cap, and the process's peak memory.

    python benchmarks/scythe_speed.py --games 30 --players 2 5

``--against DIR`` measures another checkout of the project (for instance a baseline made with
``git worktree add /tmp/scythe_base HEAD``) side by side with this one: each round runs both
trees in fresh processes, one after the other, and the ratio of games per CPU second (this
tree / the other) is printed per round and as a median: CPU time, not wall time, so that other
processes on a loaded machine distort the ratio less.

    python benchmarks/scythe_speed.py --against /tmp/scythe_base --games 20 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from hexfolk.core import Action, Match, Observation, load_game


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def choose(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal[int(rng.random() * len(legal))]


def measure(players: int, games: int, seed: int, cap: int | None) -> dict[str, float]:
    """Play ``games`` seeded games and return the figures."""
    game = load_game("scythe", players)
    bots = [RandomBot() for _ in range(players)]
    decisions = 0
    natural = 0
    turns = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(games):
        result = Match(game, bots, seed + i, turn_cap=cap).run(keep_actions=False)
        decisions += result.decisions
        natural += result.finished
        turns += result.turns
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "players": players,
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "games_per_cpu_s": games / cpu,
        "decisions_per_s": decisions / elapsed,
        "natural_ends": natural,
        "capped": games - natural,
        "mean_turns": turns / games,
        "decisions": decisions,
    }


def _run_tree(src: Path, players: int, games: int, seed: int, cap: int | None) -> dict[str, float]:
    """One measurement in a fresh process whose ``hexfolk`` comes from ``src``."""
    cmd = [sys.executable, __file__, "--json", "--games", str(games), "--players", str(players)]
    cmd += ["--seed", str(seed)] + (["--cap", str(cap)] if cap is not None else [])
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.splitlines()[-1])
    return result


def compare(
    other: Path, players: list[int], games: int, seed: int, cap: int | None, rounds: int
) -> None:
    """Print games/s of this tree and of ``other`` side by side, and their ratio."""
    here = Path(__file__).resolve().parents[1] / "src"
    there = other.resolve() / "src"
    for p in players:
        ratios = []
        for k in range(rounds):
            a = _run_tree(here, p, games, seed, cap)
            b = _run_tree(there, p, games, seed, cap)
            ratio = a["games_per_cpu_s"] / b["games_per_cpu_s"]
            ratios.append(ratio)
            same = "same games" if a["decisions"] == b["decisions"] else "DIFFERENT games"
            print(
                f"scythe {p}p round {k + 1}: this tree {a['games_per_cpu_s']:.2f} games/cpu-s, "
                f"{other} {b['games_per_cpu_s']:.2f} games/cpu-s, ratio {ratio:.3f} ({same})"
            )
        print(f"scythe {p}p: median ratio this/other {statistics.median(ratios):.3f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument(
        "--players", type=int, nargs="+", default=[2, 5], help="player counts to measure"
    )
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument(
        "--cap", type=int, default=None, help="turn cap (default: the game's default_turn_cap)"
    )
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --against")
    parser.add_argument("--json", action="store_true", help="print one JSON line per count")
    args = parser.parse_args(argv)
    if args.against is not None:
        compare(args.against, args.players, args.games, args.seed, args.cap, args.rounds)
        return
    for players in args.players:
        if args.json:
            print(json.dumps(measure(players, args.games, args.seed, args.cap)))
            continue
        r = measure(players, args.games, args.seed, args.cap)
        print(
            f"scythe {players}p: {r['games']} games in {r['seconds']:.2f}s = "
            f"{r['games_per_s']:.1f} games/s, {r['decisions_per_s']:.0f} decisions/s, "
            f"natural ends {r['natural_ends']}, capped {r['capped']}, "
            f"mean {r['mean_turns']:.0f} player-turns"
        )
    if args.json:
        return
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS of this process): {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
