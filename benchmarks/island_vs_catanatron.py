"""Island engine speed vs the ``catanatron`` package, measured in the same run on one core.

Plays complete 4-player 10-VP games between random bots, alternating batches of hexfolk games
(in this process) and catanatron games (in its own virtualenv, run as a subprocess that reports
its timing as JSON), and prints games/s of each, the ratio (also per player-turn, steadier
since catanatron's game lengths vary from run to run), the mean player-turns per game and
memory: each side's peak resident set size (the whole process: interpreter, modules, games)
and, measured after the timed batches so it cannot slow them, the peak Python heap of one game
(tracemalloc).

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
import resource
import subprocess
import sys
import time
import tracemalloc
import venv
from collections.abc import Sequence
from pathlib import Path

from hexfolk.core import Action, Match, Observation, load_game
from hexfolk.games.island.actions import Offer

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-catanatron"
CATANATRON = "catanatron==3.2.1"
HEAP_GAMES = 2
"""Games whose Python heap peak is measured (after the timed batches)."""

WORKER = r"""
import json, random, resource, sys, time, tracemalloc
from catanatron import Color, Game, RandomPlayer

games, seed, heap_games = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]

def play(i):
    random.seed(seed + i)
    game = Game([RandomPlayer(c) for c in colors], seed=seed + i, vps_to_win=10)
    winner = game.play()
    return game.state.num_turns, winner is not None

turns = 0
finished = 0
start = time.perf_counter()
for i in range(games):
    t, f = play(i)
    turns += t
    finished += f
elapsed = time.perf_counter() - start
heap = 0
for i in range(heap_games):
    tracemalloc.start()
    play(i)
    heap = max(heap, tracemalloc.get_traced_memory()[1])
    tracemalloc.stop()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"games": games, "seconds": elapsed, "turns": turns, "finished": finished,
                  "rss": rss, "heap": heap}))
"""


class NoOfferRandomBot:
    """Uniform among legal actions, except that it never opens a player trade offer."""

    name = "random-no-offers"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        x = rng.random()
        if len(legal_actions) == 1:  # the same pick as below, without the filtered copy
            return legal_actions[0]
        choices = [a for a in legal_actions if type(a) is not Offer]
        return choices[int(x * len(choices))]


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


def _rss_bytes(maxrss: float) -> float:
    """``ru_maxrss`` in bytes (the OS reports kilobytes, except macOS: bytes)."""
    return maxrss if sys.platform == "darwin" else maxrss * 1024


def play_hexfolk(game_seed: int) -> None:
    """One complete game, as the timed batches play it."""
    game = load_game("island", 4, {"vp_target": 10})
    bots = [NoOfferRandomBot() for _ in range(4)]
    Match(game, bots, game_seed).run(keep_actions=False)


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


def hexfolk_memory(seed: int) -> dict[str, float]:
    """Peak RSS of this process so far and the peak Python heap of one game."""
    heap = 0
    for i in range(HEAP_GAMES):
        tracemalloc.start()
        play_hexfolk(seed + i)
        heap = max(heap, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    rss = _rss_bytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return {"rss": rss, "heap": heap}


def run_catanatron(
    py: Path, games: int, seed: int, prefix: list[str], heap_games: int = 0
) -> dict[str, float]:
    out = subprocess.run(
        [*prefix, str(py), "-c", WORKER, str(games), str(seed), str(heap_games)],
        check=True,
        capture_output=True,
        text=True,
    )
    data: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    data["rss"] = _rss_bytes(data["rss"])
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--games", type=int, default=40, metavar="N", help="games per batch (default 40)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        metavar="R",
        help="batches of each engine, alternating hexfolk and catanatron (default 3)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seed of the first game; batch r plays seeds seed + r*N .. (default 1)",
    )
    args = parser.parse_args(argv)
    py = ensure_venv()
    prefix = pin_one_core()
    totals = {
        "hexfolk": {"games": 0.0, "seconds": 0.0, "turns": 0.0, "finished": 0.0},
        "catanatron": {"games": 0.0, "seconds": 0.0, "turns": 0.0, "finished": 0.0},
    }
    memory: dict[str, dict[str, float]] = {}
    for rnd in range(args.rounds):
        seed = args.seed + rnd * args.games
        last = rnd == args.rounds - 1
        for name in ("hexfolk", "catanatron"):
            if name == "hexfolk":
                res = run_hexfolk(args.games, seed)
                if last:
                    memory[name] = hexfolk_memory(seed)
            else:
                res = run_catanatron(py, args.games, seed, prefix, HEAP_GAMES if last else 0)
                if last:
                    memory[name] = {"rss": res["rss"], "heap": res["heap"]}
            for key in totals[name]:
                totals[name][key] += res[key]
            print(
                f"round {rnd + 1} {name:10s}: {res['games'] / res['seconds']:7.2f} games/s, "
                f"mean turns {res['turns'] / res['games']:.1f}",
                flush=True,
            )
    rate = {k: v["games"] / v["seconds"] for k, v in totals.items()}
    for name, t in totals.items():
        mem = memory.get(name, {})
        print(
            f"{name:10s}: {rate[name]:7.2f} games/s, mean turns {t['turns'] / t['games']:.1f}, "
            f"finished {int(t['finished'])}/{int(t['games'])}, "
            f"peak RSS {mem.get('rss', 0) / 2**20:.1f} MiB, "
            f"peak heap of one game {mem.get('heap', 0) / 2**20:.2f} MiB"
        )
    print(f"ratio hexfolk/catanatron: {rate['hexfolk'] / rate['catanatron']:.2f}x")
    # catanatron's random games vary in length from run to run: per player-turn is steadier
    per_turn = {k: v["turns"] / v["seconds"] for k, v in totals.items()}
    print(
        f"player-turns/s: hexfolk {per_turn['hexfolk']:.0f}, catanatron "
        f"{per_turn['catanatron']:.0f}, ratio {per_turn['hexfolk'] / per_turn['catanatron']:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
