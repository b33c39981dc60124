"""One seeded random step of a game, as the kit's checks and the games' tests play them."""

from __future__ import annotations

import random

from hexfolk.core.game import State


def random_step(state: State, rng: random.Random) -> None:
    """Play one step of ``state``: a chance outcome sampled by ``rng``, or else a legal action,
    chosen by ``rng``, of an acting seat chosen by ``rng``."""
    if state.is_chance():
        state.apply(state.sample_chance(rng))
        return
    seats = state.acting_seats()
    seat = seats[rng.randrange(len(seats))]
    legal = state.legal_actions_for(seat)
    state.apply_for(seat, legal[rng.randrange(len(legal))])
