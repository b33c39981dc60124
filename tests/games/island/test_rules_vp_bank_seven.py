"""IR-1, IR-3 (victory points and what others see), IR-40 (the order after a 7), IR-75 (hidden
bank still enforced)."""

from __future__ import annotations

import pytest
from tests.games.island.helpers import (
    coast_nodes,
    deal,
    fresh,
    give,
    knights_played,
    path,
    road,
    set_turn,
    settle,
)

from hexfolk.core import IllegalActionError
from hexfolk.games.island import actions as A


def _scored_position() -> object:
    state = fresh(4)
    settle(state, 0, 0)  # settlement: 1
    settle(state, 0, 20, city=True)  # city: 2
    deal(state, 0, "vp")  # a VP card: 1, hidden
    road(state, 0, *path(state, coast_nodes(state, 6)))  # Longest Road (5 roads): 2
    knights_played(state, 0, 3)  # Largest Army: 2
    assert state.longest_road == 0 and state.largest_army == 0
    return state


def test_ir1_points_per_item() -> None:
    state = _scored_position()
    assert state.total_vp(0) == 1 + 2 + 1 + 2 + 2  # type: ignore[attr-defined]


def test_ir3_visible_vp_leaves_out_vp_cards() -> None:
    state = _scored_position()
    assert state.visible_vp(0) == 8 - 1  # type: ignore[attr-defined]
    own = state.observation(0)["players"][0]  # type: ignore[attr-defined]
    other = state.observation(1)["players"][0]  # type: ignore[attr-defined]
    assert own["vp"] == 8 and own["visible_vp"] == 7
    assert other["visible_vp"] == 7 and "vp" not in other and "dev_hand" not in other


def test_ir40_a_seven_means_discards_then_robber_then_steal() -> None:
    state = fresh(3)
    settle(state, 1, 20)
    give(state, 1, "3l 3b 2o")  # 8 cards: must discard 4
    give(state, 2, "2w")  # 2 cards: keeps them
    set_turn(state, phase="pre-roll", rolled=False)
    state.apply(A.Roll())
    state.apply(A.DiceOutcome(7))
    prompt = state.prompt()
    assert prompt is not None and prompt.kind == "discard" and prompt.seat == 1
    assert all(not isinstance(a, A.MoveRobber) for a in state.legal_actions())
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    prompt = state.prompt()
    assert prompt is not None and prompt.kind == "robber" and prompt.seat == 0
    assert sum(state.hands[1]) == 4
    assert sum(state.bank) + sum(map(sum, state.hands)) == 5 * 19  # IR-36: cards went back


def test_ir75_hidden_bank_is_hidden_from_everyone_but_still_enforced() -> None:
    state = fresh(4, hide_bank=True)
    give(state, 0, "4b")
    give(state, 1, "19l")  # no lumber left in the bank
    for seat in [None, 0, 1, 2, 3]:
        assert state.observation(seat)["bank"] is None
    before = state.fingerprint()
    with pytest.raises(IllegalActionError):
        state.apply(state.parse_action("trade 4b for 1l"))
    assert state.fingerprint() == before
    state.parse_action("trade 4b for 1o")  # another resource the bank holds is fine
