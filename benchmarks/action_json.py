"""What the JSON form of actions costs (issue 26, "actions as data").

Plays seeded random games of each game and keeps every ``--every``-th decision state (mid-game
positions, chance steps left out); then times, on one core:

* ``to_json`` over every legal action of every acting seat of those states (what a view pays to
  list its actions with their structured form), in actions per second and listings per second;
* ``game.action_from_json`` over the same documents (what reading a click costs);
* ``str(action)`` over the same actions, for scale (the text every view already writes).

    python benchmarks/action_json.py --games 4 --every 7

CPU time (``time.process_time``), best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from hexfolk.core import Action, Game, load_game


def listings(game: Game, games: int, every: int, max_steps: int) -> list[list[Action]]:
    """The legal actions of the acting seats at every ``every``-th decision of random games."""
    out: list[list[Action]] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for step in range(max_steps):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            seats = state.acting_seats()
            if step % every == 0:
                for seat in seats:
                    out.append(list(state.legal_actions_for(seat)))
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions_for(seat)
            state.apply_for(seat, legal[rng.randrange(len(legal))])
    return out


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def measure(game_id: str, players: int, games: int, every: int, repeat: int) -> None:
    game = load_game(game_id, players)
    lists = listings(game, games, every, max_steps=2000)
    actions = [a for legal in lists for a in legal]
    docs = [a.to_json() for a in actions]
    read = game.action_from_json

    def dump() -> None:
        for legal in lists:
            [a.to_json() for a in legal]

    def load() -> None:
        for d in docs:
            read(d)

    def text() -> None:
        for legal in lists:
            [str(a) for a in legal]

    t_dump, t_load, t_text = best(dump, repeat), best(load, repeat), best(text, repeat)
    n, m = len(actions), len(lists)
    print(
        f"{game_id} {players}p: {m} listings, {n} actions ({n / m:.1f} per listing) | "
        f"to_json {n / t_dump:,.0f} actions/s ({m / t_dump:,.0f} listings/s, "
        f"{1e6 * t_dump / m:.1f} us per listing) | from_json {n / t_load:,.0f} actions/s | "
        f"str {n / t_text:,.0f} actions/s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    for game_id, players in (("island", 4), ("island", 6), ("scythe", 2), ("scythe", 5)):
        measure(game_id, players, args.games, args.every, args.repeat)


if __name__ == "__main__":
    main()
