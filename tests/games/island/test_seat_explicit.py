"""Issue 26 item 6: a simultaneous decision is asked and checked with the acting seat explicit.

Legality, parsing, listings and prompts of an acting seat other than the one the sequential walk
names (a discarding seat after a 7, IR-41; a seat answering an offer or the proposer playing
on, IR-50) never write the state's ``phase`` or ``seat`` (the engine once rewrote both for the
duration of the call and restored them)."""

from __future__ import annotations

import random
from typing import Any

from tests.games.island.helpers import fresh, give, roll

from hexfolk.core import ActionError, load_game
from hexfolk.games.island.phases import ANSWER, DISCARD
from hexfolk.games.island.state import IslandState


class _Spy(IslandState):
    """Records every write of ``phase`` or ``seat``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("phase", "seat"):
            self.__dict__.setdefault("_writes", []).append(name)
        super().__setattr__(name, value)


def _ask_every_acting_seat(state: IslandState) -> list[str]:
    state.__class__ = _Spy
    state.__dict__["_writes"] = []
    for seat in state.acting_seats():
        legal = state.legal_actions_for(seat)
        assert legal and state.prompt_for(seat) is not None
        for action in legal:
            assert state.legal_for(seat, action)
            assert state.why_illegal(seat, action) is None
            assert state.parse_action_for(seat, str(action)) == action
        for text in ("roll", "end", "accept", "discard w"):
            try:
                parsed = state.parse_action_for(seat, text)
            except ActionError as refused:
                assert str(refused)  # a refusal says why
            else:
                assert state.legal_for(seat, parsed)
    writes: list[str] = state.__dict__.pop("_writes")
    state.__class__ = IslandState
    return writes


def test_ir41_other_discarding_seats_are_asked_without_rewriting_the_state() -> None:
    state = fresh(4)
    give(state, 1, "5l 4o")
    give(state, 2, "8w")
    give(state, 3, "4g 4b")
    roll(state, 7)
    assert state.phase == DISCARD and state.acting_seats() == [1, 2, 3]
    assert _ask_every_acting_seat(state) == []


def test_ir50_answering_seats_and_the_proposer_are_asked_without_rewriting_the_state() -> None:
    state = load_game("island", 4).new_initial_state()
    rng = random.Random(5)
    while not (state.phase == ANSWER and len(state.acting_seats()) >= 3):
        assert not state.is_terminal()
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert state.active in state.acting_seats() and state.seat != state.active
    assert _ask_every_acting_seat(state) == []
