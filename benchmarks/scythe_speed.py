"""Scythe engine speed: decisions per second and complete random-bot games per second.

Plays random-bot games on one core with :class:`hexfolk.core.Match` (the same runner the
tables use) and prints, per player count, games/s, decisions/s and how many games ended by
the rules (sixth star) versus the turn cap, and the process's peak memory.

    python benchmarks/scythe_speed.py --games 30 --players 2 5
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from collections.abc import Sequence

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
    for i in range(games):
        result = Match(game, bots, seed + i, turn_cap=cap).run(keep_actions=False)
        decisions += result.decisions
        natural += result.finished
        turns += result.turns
    elapsed = time.perf_counter() - start
    return {
        "players": players,
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "natural_ends": natural,
        "capped": games - natural,
        "mean_turns": turns / games,
    }


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
    args = parser.parse_args(argv)
    for players in args.players:
        r = measure(players, args.games, args.seed, args.cap)
        print(
            f"scythe {players}p: {r['games']} games in {r['seconds']:.2f}s = "
            f"{r['games_per_s']:.1f} games/s, {r['decisions_per_s']:.0f} decisions/s, "
            f"natural ends {r['natural_ends']}, capped {r['capped']}, "
            f"mean {r['mean_turns']:.0f} player-turns"
        )
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS of this process): {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
