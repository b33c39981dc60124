"""The random walk the reason tests ask their questions along: seeded random games, and at every
few decisions the question "why may this seat not do that?" for a pool of actions met before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from hexfolk.core import CHANCE, Action, State


def refusal_questions(
    state: State,
    rng: random.Random,
    players: int,
    *,
    limit: int,
    every: int,
    candidates: Callable[[list[Action]], list[Action]],
) -> Iterator[tuple[int, Action]]:
    """Play ``state`` on by ``rng`` (at most ``limit`` steps, or to the end). Chance outcomes and
    two legal actions a step go into a pool; at every ``every``-th step of a player, for each of
    ``candidates(pool)``, yield (seat, candidate) for the player to move and a random seat of
    ``players``: the state is the one at that step while the caller looks."""
    pool: list[Action] = []
    steps = 0
    while not state.is_terminal() and steps < limit:
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
            pool.append(action)
        else:
            legal = state.legal_actions()
            pool.extend(rng.sample(legal, min(2, len(legal))))
            if steps % every == 0:
                for candidate in candidates(pool):
                    for seat in (player, rng.randrange(players)):
                        yield seat, candidate
            action = rng.choice(legal)
        state.apply_unchecked(action)
        steps += 1
