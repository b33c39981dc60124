"""``State.can_reveal`` is only a shortcut (issue 26): a step the engine says cannot reveal
anything must not reveal anything by the sampled-worlds check (``State.reveals_to``), which
the table then skips (``server/table_core.py``). Random games of both games: at the steps of
an acting seat that a table could undo (not final, ``why_final``), a step that ``reveals_to``
finds revealing must be one the engine says can reveal. Rules: the island's knowledge comes
with chance or final steps (IR-36, IR-45, IR-61, IR-64); Scythe's only undoable reveal is the
Factory offer looked at when a move ends with the character on the Factory (SR-48).
"""

from __future__ import annotations

import random

import pytest

from hexfolk.core import load_game

CASES = [
    ("island", 2, "a", 0),
    ("island", 4, "b", 0),
    ("scythe", 3, "x32", 1),
    ("scythe", 3, "x35", 1),
]
"""Game, players, seed, and how many revealing steps the game has at least (these Scythe
games move a character onto the Factory)."""


@pytest.mark.parametrize(("game", "players", "seed", "revealing"), CASES)
def test_a_step_the_engine_calls_blind_reveals_nothing(
    game: str, players: int, seed: str, revealing: int
) -> None:
    rng = random.Random(seed)
    state = load_game(game, players).new_initial_state()
    asked = found = 0
    for _ in range(3000):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        seats = state.acting_seats()
        seat = seats[rng.randrange(len(seats))]
        legal = state.legal_actions_for(seat)
        action = legal[rng.randrange(len(legal))]
        if state.why_final(seat, action) is None:
            asked += 1
            if state.reveals_to(seat, action, random.Random(asked), worlds=4):
                found += 1
                assert state.can_reveal(seat, action), (
                    f"{action} by seat {seat} reveals something; can_reveal said it cannot"
                )
        state.apply_for(seat, action)
    assert asked > 100
    assert found >= revealing
