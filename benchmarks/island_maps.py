"""Random island games per second on every map of IR-83, against the standard board.

For each map, batches of complete 10-VP games between random bots (uniform among the legal
actions, never opening a player trade, as in ``island_vs_catanatron.py``) alternate with
batches on the standard board at the same player count, measured in the same run on one core.
It prints games/s of both, the ratio, and the ratio per player-turn (steadier, since game
lengths differ by map). Maps draw their layout per game (``maps.draw_layout``: pools, bands,
IR-13, and for Driftland a new coastline), so the layout's cost is in the figures.

    python benchmarks/island_maps.py --games 20 --rounds 2
    python benchmarks/island_maps.py --maps lagoon,driftland,giants-land --players max
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence

from island_speed import NoOfferRandomBot  # the same bot, one copy (run from benchmarks/)

from hexfolk.core import Match, load_game
from hexfolk.games.island.maps import all_maps, load_map


def batch(players: int, map_id: str, games: int, seed: int) -> tuple[float, int, int]:
    """(seconds, player-turns, finished games) of ``games`` random games."""
    options = {} if map_id == "standard" else {"map": map_id}
    game = load_game("island", players, options)
    turns = finished = 0
    start = time.perf_counter()
    for i in range(games):
        bots = [NoOfferRandomBot() for _ in range(players)]
        result = Match(game, bots, seed + i).run(keep_actions=False)
        turns += result.turns
        finished += result.finished
    return time.perf_counter() - start, turns, finished


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=20, metavar="N", help="games per batch")
    parser.add_argument(
        "--rounds", type=int, default=2, metavar="R", help="alternating batches of each side"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--maps", default="", help="comma-separated map ids (default: all)")
    parser.add_argument(
        "--players",
        default="min",
        help="player count per map: min, max, or a number (clamped to the map's range)",
    )
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    chosen = [load_map(x) for x in args.maps.split(",") if x] or list(all_maps())
    header = (
        f"{'map':12} {'players':>7} {'games/s':>8} {'standard':>8} {'ratio':>6} "
        f"{'turns':>6} {'std':>6} {'per turn':>8}"
    )
    print(header)
    print("-" * len(header))
    for m in chosen:
        if args.players == "min":
            n = m.min_players
        elif args.players == "max":
            n = m.max_players
        else:
            n = min(max(int(args.players), m.min_players), m.max_players)
        sides = {"map": [0.0, 0, 0], "standard": [0.0, 0, 0]}
        for r in range(args.rounds):
            seed = args.seed + r * args.games
            for side, map_id in (("standard", "standard"), ("map", m.id)):
                secs, turns, done = batch(n, map_id, args.games, seed)
                acc = sides[side]
                acc[0] += secs
                acc[1] += turns
                acc[2] += done
        games = args.games * args.rounds
        (ms, mt, _), (ss, st, _) = sides["map"], sides["standard"]
        map_rate, std_rate = games / ms, games / ss
        per_turn = (mt / ms) / (st / ss)
        print(
            f"{m.id:12} {n:>7} {map_rate:8.1f} {std_rate:8.1f} {map_rate / std_rate:6.2f} "
            f"{mt / games:6.0f} {st / games:6.0f} {per_turn:8.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
