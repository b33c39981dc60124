"""Profile the island engine: complete random-bot games under cProfile, hottest functions first.

Plays the games of ``island_vs_catanatron.py`` (4 players, 10 VP, random bots that never open
a player trade) with the core ``Match`` runner, first untimed by the profiler (games/s, mean
player-turns), then under cProfile, and prints the profile. cProfile adds a cost per Python
call, so small functions look heavier than they are; for a sampling view run the first part
under py-spy (``py-spy record -- python benchmarks/island_profile.py --no-profile``).

    python benchmarks/island_profile.py --games 40 --sort tottime --top 30
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from island_vs_catanatron import NoOfferRandomBot

from hexfolk.core import Match, load_game


def play(games: int, seed: int, players: int) -> tuple[float, int]:
    """Play ``games`` games; return the seconds taken and the player-turns played."""
    game = load_game("island", players, {"vp_target": 10})
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        bots = [NoOfferRandomBot() for _ in range(players)]
        turns += Match(game, bots, seed + i).run(keep_actions=False).turns
    return time.perf_counter() - start, turns


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=40, metavar="N", help="games (default 40)")
    parser.add_argument("--players", type=int, default=4, help="seats, 2..8 (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument(
        "--sort", default="tottime", help="pstats sort key: tottime, cumtime, ncalls, ..."
    )
    parser.add_argument("--top", type=int, default=30, help="rows of the profile (default 30)")
    parser.add_argument(
        "--no-profile", action="store_true", help="only play and time the games (for py-spy)"
    )
    args = parser.parse_args(argv)
    seconds, turns = play(args.games, args.seed, args.players)
    print(
        f"{args.games / seconds:.2f} games/s, {turns / args.games:.1f} player-turns per game "
        f"({seconds / args.games * 1e3:.2f} ms per game)"
    )
    if args.no_profile:
        return 0
    profiler = cProfile.Profile()
    profiler.enable()
    play(args.games, args.seed, args.players)
    profiler.disable()
    pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
