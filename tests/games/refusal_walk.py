"""The random walk the reason tests ask their questions along: seeded random games, and at every
few decisions the question "why may this seat not do that?" for a pool of actions met before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

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


def count_specific_reasons(
    state: State,
    questions: Iterable[tuple[int, Action]],
    message: Callable[[int, Action], str],
) -> int:
    """For each question whose action is refused, the reason is the game's own, not the kernel's
    generic one (``message(seat, action)`` when not); how many were refused."""
    checked = 0
    for seat, candidate in questions:
        why = state.why_illegal(seat, candidate)
        if why is None:
            continue
        checked += 1
        assert why != State.why_illegal(state, seat, candidate), message(seat, candidate)
    return checked
