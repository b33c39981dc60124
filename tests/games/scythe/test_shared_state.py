"""Issue 11: a Scythe state shares nothing mutable with its clones.

``ScytheState.clone()`` copies every list and rebuilds its per-state tables (``_legal`` and
``_ctrl`` start empty in the clone); the module-level ``lru_cache`` of ``count_deals`` is keyed
by tuples and is a pure function of them. The audit walks a state and its clone along complete
games, chance and combat included, and fails on any mutable object the two can both reach.
"""

from __future__ import annotations

import random

import pytest
from tests.games.sharing import shared_attributes

from hexfolk.core import load_game


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_clone_shares_nothing_mutable(players: int, seed: int) -> None:
    state = load_game("scythe", players).new_initial_state()
    rng = random.Random(seed)
    step = 0
    kinds: set[str] = set()
    while not state.is_terminal() and state.turn_count() < 60:
        if step < 60 or step % 3 == 0:
            clone = state.clone()
            assert shared_attributes(state, clone) == set(), f"step {step}"
            assert shared_attributes(clone, state) == set(), f"step {step}"
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
