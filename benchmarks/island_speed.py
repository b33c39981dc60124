"""Island engine speed alone: complete random-bot games per second, on one core, no peer.

Plays the games of ``island_vs_catanatron.py`` (4 players, 10 VP, random bots uniform among
the legal actions that never open a player trade) with the core ``Match`` runner and prints
games per second of wall time and of CPU time (``time.process_time``: steadier on a loaded
machine), decisions per second and the mean player-turns per game. ``--json`` prints the same
figures as one JSON line (what ``before_after.py`` reads). No catanatron virtualenv needed.

    python benchmarks/island_speed.py --games 200
    python benchmarks/island_speed.py --games 100 --players 2 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence

from hexfolk.core import Action, Match, Observation, load_game
from hexfolk.games.island.actions import Offer


class NoOfferRandomBot:
    """Uniform among legal actions, except that it never opens a player trade offer (the bot
    of ``island_vs_catanatron.py``, copied so that this script reads only the engine)."""

    name = "random-no-offers"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        x = rng.random()
        if len(legal_actions) == 1:
            return legal_actions[0]
        choices = [a for a in legal_actions if type(a) is not Offer]
        return choices[int(x * len(choices))]


def measure(games: int, seed: int, players: int, vp: int) -> dict[str, float]:
    """Play ``games`` seeded games (seeds ``seed`` ..) and return the figures."""
    game = load_game("island", players, {"vp_target": vp})
    turns = decisions = finished = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(games):
        bots = [NoOfferRandomBot() for _ in range(players)]
        result = Match(game, bots, seed + i).run(keep_actions=False)
        turns += result.turns
        decisions += result.decisions
        finished += result.finished
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "players": players,
        "games": games,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "games_per_s": games / seconds,
        "games_per_cpu_s": games / cpu,
        "decisions_per_s": decisions / seconds,
        "mean_turns": turns / games,
        "decisions": decisions,
        "finished": finished,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="\n\n".join((__doc__ or "").split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=200, metavar="N", help="games (default 200)")
    parser.add_argument("--players", type=int, default=4, help="seats, 2..8 (default 4)")
    parser.add_argument("--vp", type=int, default=10, help="victory points to win (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    r = measure(args.games, args.seed, args.players, args.vp)
    if args.json:
        print(json.dumps(r))
        return 0
    print(
        f"island {args.players}p: {args.games} games in {r['seconds']:.2f} s = "
        f"{r['games_per_s']:.1f} games/s ({r['games_per_cpu_s']:.1f} per CPU second), "
        f"{r['decisions_per_s']:.0f} decisions/s, mean {r['mean_turns']:.1f} player-turns, "
        f"finished {r['finished']}/{args.games}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
