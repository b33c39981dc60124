"""Issue 11: a Scythe state shares nothing mutable with its clones.

``ScytheState.clone()`` copies every list and the move and combat records, and rebuilds its
per-state tables (``legal_cache`` and ``control_cache`` start empty in the clone); the
module-level ``lru_cache`` of ``count_deals`` is keyed by tuples and is a pure function of them.
The audit walks a state and its clone along complete games, chance and combat included, and
fails on any mutable object the two can both reach.
"""

from __future__ import annotations

import random

import pytest
from tests.games.sharing import shared_attributes

from hexfolk.core import load_game
from hexfolk.games.scythe.phases import Continuation

# Shared by design: the game object, and the continuations, which are members of an enum
# (immutable singletons; the walk would otherwise enter their class attributes).
SKIP = ("game", "continuation", "gains_then")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_clone_shares_nothing_mutable(players: int, seed: int) -> None:
    state = load_game("scythe", players).new_initial_state()
    rng = random.Random(seed)
    step = 0
    kinds: set[str] = set()
    while not state.is_terminal() and state.turn_count() < 60:
        if step < 60 or step % 3 == 0:
            clone = state.clone()
            assert shared_attributes(state, clone, skip=SKIP) == set(), f"step {step}"
            assert shared_attributes(clone, state, skip=SKIP) == set(), f"step {step}"
            for name in SKIP[1:]:
                assert getattr(state, name) is None or isinstance(
                    getattr(state, name), Continuation
                )
        prompt = state.prompt()
        if prompt is not None:
            kinds.add(prompt.kind)
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        step += 1
    assert len(kinds) > 8  # the walk went through many kinds of decision
