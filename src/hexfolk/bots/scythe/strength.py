"""Measuring the Scythe bots: win rates with Wilson intervals, and decision times.

``strength_table(game_id, pairs, games, seed)`` plays each pair with
:mod:`hexfolk.bots.tournament` (seats rotated game by game) and returns one row per pair.
``decision_times(code, opponent, games, seed)`` times every decision of one bot. Run
``python -m hexfolk.bots.scythe.strength`` for the table of ``docs/bots-scythe.md``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from typing import Any

from hexfolk.bots.registry import make_bot
from hexfolk.bots.tournament import TournamentSpec, run_tournament, wilson_interval
from hexfolk.core import Action, Bot, Match, Observation, derive_seed, load_game
from hexfolk.core.registry import game_class


def strength_table(
    game_id: str,
    pairs: Sequence[tuple[str, str]],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    players: int = 2,
) -> list[dict[str, Any]]:
    """Play ``games`` games per pair ``(a, b)`` (seats rotated) and report ``a``'s win rate
    with its 95% Wilson interval, the share of games that finished and the mean turns."""
    rows = []
    cls = game_class(game_id)
    for a, b in pairs:
        entries = [a, b] + [b] * (players - 2)
        spec = TournamentSpec.create(cls, entries, games=games, seed=seed)
        result = run_tournament(spec, workers=workers)
        st = result.stats
        lo, hi = wilson_interval(st.wins[0], st.games)
        rows.append(
            {
                "bot": a,
                "opponent": b,
                "games": st.games,
                "wins": st.wins[0],
                "win_rate": st.win_rate(0),
                "ci95": (lo, hi),
                "finished": st.finished,
                "mean_turns": st.mean_turns,
                "seconds": result.seconds,
            }
        )
    return rows


class _Timed:
    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, observation: Observation, legal: Sequence[Action], rng: Any) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(observation, legal, rng)
        self.times.append(time.perf_counter() - start)
        return action


def decision_times(
    code: str, opponent: str, games: int, seed: int, game_id: str = "scythe"
) -> dict[str, float]:
    """Median, 95th percentile and maximum seconds per decision of bot ``code``."""
    game = load_game(game_id, 2)
    times: list[float] = []
    for g in range(games):
        timed = _Timed(make_bot(code, game_id))
        other = make_bot(opponent, game_id)
        bots: list[Bot] = [timed, other] if g % 2 == 0 else [other, timed]
        Match(game, bots, derive_seed(seed, "timing", g)).run(keep_actions=False)
        times += timed.times
    times.sort()
    return {
        "decisions": float(len(times)),
        "median": statistics.median(times),
        "p95": times[min(len(times) - 1, int(0.95 * len(times)))],
        "max": times[-1],
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: ``--pair hard,random --games 40 --seed 1 [--times hard,medium]``."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pair", action="append", default=[], help="bot,opponent")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--times", action="append", default=[], help="bot,opponent to time")
    ap.add_argument("--time-games", type=int, default=2)
    args = ap.parse_args(argv)
    pairs: list[tuple[str, str]] = []
    for text in args.pair:
        a, b = text.split(",", 1)
        pairs.append((a, b))
    for row in strength_table("scythe", pairs, args.games, args.seed, workers=args.workers):
        lo, hi = row["ci95"]
        print(
            f"{row['bot']:>12} vs {row['opponent']:<12} {row['win_rate']:.3f} "
            f"[{lo:.3f}, {hi:.3f}] n={row['games']} finished={row['finished']} "
            f"turns={row['mean_turns']:.1f} {row['seconds']:.0f}s",
            flush=True,
        )
    for t in args.times:
        code, opp = t.split(",", 1)
        d = decision_times(code, opp, args.time_games, args.seed)
        print(
            f"{code}: {int(d['decisions'])} decisions, median {d['median'] * 1000:.1f} ms, "
            f"p95 {d['p95'] * 1000:.1f} ms, max {d['max'] * 1000:.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
