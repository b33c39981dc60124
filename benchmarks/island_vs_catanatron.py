"""Island engine speed vs the ``catanatron`` package, measured in the same run on one core.

Plays complete 4-player 10-VP games between random bots, alternating batches of hexfolk games
(in this process) and catanatron games (in its own virtualenv, run as a subprocess that reports
its timing as JSON), and prints games/s of each, the ratio, and the mean player-turns per game.

The hexfolk random bot picks uniformly among the legal actions but never opens a player trade
(catanatron's random bots cannot trade with players either). The catanatron virtualenv
(``benchmarks/.venv-catanatron``, git-ignored) is created with ``catanatron==3.2.1`` from PyPI
when missing.

    python benchmarks/island_vs_catanatron.py --games 40 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import venv
from collections.abc import Sequence
from pathlib import Path

from hexfolk.core import Action, Match, Observation, load_game
from hexfolk.games.island.actions import Offer

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-catanatron"
CATANATRON = "catanatron==3.2.1"

WORKER = r"""
import json, random, sys, time
from catanatron import Color, Game, RandomPlayer

games, seed = int(sys.argv[1]), int(sys.argv[2])
colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
turns = 0
finished = 0
start = time.perf_counter()
for i in range(games):
    random.seed(seed + i)
    game = Game([RandomPlayer(c) for c in colors], seed=seed + i, vps_to_win=10)
    winner = game.play()
    turns += game.state.num_turns
    finished += winner is not None
elapsed = time.perf_counter() - start
print(json.dumps({"games": games, "seconds": elapsed, "turns": turns, "finished": finished}))
"""


class NoOfferRandomBot:
    """Uniform among legal actions, except that it never opens a player trade offer."""

    name = "random-no-offers"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        choices = [a for a in legal_actions if type(a) is not Offer]
        return choices[int(rng.random() * len(choices))]


def python_in_venv() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """Create the catanatron virtualenv if it is missing; return its python."""
    py = python_in_venv()
    probe = [str(py), "-c", "import catanatron"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    print(f"creating {VENV} with {CATANATRON} ...", flush=True)
    venv.create(VENV, with_pip=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", CATANATRON], check=True)
    return py


def pin_one_core() -> list[str]:
    """Pin this process (and so the worker) to one core where the OS allows it."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return ["taskset", "-c", str(cpu)] if _has_taskset() else []
    return []


def _has_taskset() -> bool:
    return subprocess.run(["which", "taskset"], capture_output=True).returncode == 0


def run_hexfolk(games: int, seed: int) -> dict[str, float]:
    game = load_game("island", 4, {"vp_target": 10})
    turns = 0
    finished = 0
    start = time.perf_counter()
    for i in range(games):
        bots = [NoOfferRandomBot() for _ in range(4)]
        result = Match(game, bots, seed + i).run(keep_actions=False)
        turns += result.turns
        finished += result.finished
    return {
        "games": games,
        "seconds": time.perf_counter() - start,
        "turns": turns,
        "finished": finished,
    }


def run_catanatron(py: Path, games: int, seed: int, prefix: list[str]) -> dict[str, float]:
    out = subprocess.run(
        [*prefix, str(py), "-c", WORKER, str(games), str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    data: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per batch (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="batches of each (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    args = parser.parse_args(argv)
    py = ensure_venv()
    prefix = pin_one_core()
    totals = {
        "hexfolk": {"games": 0.0, "seconds": 0.0, "turns": 0.0, "finished": 0.0},
        "catanatron": {"games": 0.0, "seconds": 0.0, "turns": 0.0, "finished": 0.0},
    }
    for rnd in range(args.rounds):
        seed = args.seed + rnd * args.games
        for name in ("hexfolk", "catanatron"):
            if name == "hexfolk":
                res = run_hexfolk(args.games, seed)
            else:
                res = run_catanatron(py, args.games, seed, prefix)
            for key in totals[name]:
                totals[name][key] += res[key]
            print(
                f"round {rnd + 1} {name:10s}: {res['games'] / res['seconds']:7.2f} games/s, "
                f"mean turns {res['turns'] / res['games']:.1f}",
                flush=True,
            )
    rate = {k: v["games"] / v["seconds"] for k, v in totals.items()}
    for name, t in totals.items():
        print(
            f"{name:10s}: {rate[name]:7.2f} games/s, mean turns {t['turns'] / t['games']:.1f}, "
            f"finished {int(t['finished'])}/{int(t['games'])}"
        )
    print(f"ratio hexfolk/catanatron: {rate['hexfolk'] / rate['catanatron']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
