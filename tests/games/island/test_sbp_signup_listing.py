"""Issue 27, point 12: "Join the special build" was offered with a one-card hand.

IR-32: in the special build phase a seat may only build roads, settlements and cities and buy
development cards (no trade, no card played), and nothing between the sign-up and the slot
brings a card (IR-31: no roll, no trade). So a seat that can build and buy nothing now would
sign up for a slot it can only end. The sign-up (IR-30) lists ``sbp join`` only when the seat
could build or buy something (the builds of its slot listed now); ``sbp pass`` is always
listed. IR-30 lets any other seat sign up, so a typed ``sbp join`` stays legal.

Perft and the golden playthroughs are unchanged (3 and 4 players: no special build phase,
IR-29).
"""

from __future__ import annotations

import pytest

from hexfolk.games.island.phases import SPECIAL_BUILD, SPECIAL_BUILD_SIGNUP
from hexfolk.games.island.rules import DEV_NAMES
from hexfolk.games.island.state import IslandState

from .helpers import deal, do, fresh, give, settle


def _signup(hands: dict[int, str]) -> IslandState:
    """Seat 0 ends its turn at a 5-player table; ``hands``: the other seats' cards."""
    state = fresh(5)
    for seat, node in ((1, 18), (2, 40), (3, 51), (4, 0)):
        settle(state, seat, node)
    for seat, cards in hands.items():
        give(state, seat, cards)
    do(state, "end")
    assert state.phase == SPECIAL_BUILD_SIGNUP
    return state


def _listed(state: IslandState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions_for(seat)]


def test_ir30_ir32_join_is_not_offered_with_a_one_card_hand() -> None:
    state = _signup({1: "1o", 2: "1l 1b", 3: "1w 1g 1o"})
    assert _listed(state, 1) == ["sbp pass"]  # one card: nothing to build or buy (IR-32)
    assert _listed(state, 2) == ["sbp join", "sbp pass"]  # a road (IR-56)
    assert _listed(state, 3) == ["sbp join", "sbp pass"]  # a development card (IR-59)
    assert _listed(state, 4) == ["sbp pass"]  # no cards at all


@pytest.mark.parametrize(
    ("cards", "listed"),
    [
        ("2g 2o", False),  # a city needs 2 grain and 3 ore (IR-58)
        ("2g 3o", True),
        ("1l 2w 2g", False),  # no brick: no road, no settlement (IR-56, IR-57); no ore: no card
        ("1l 1w 1g 1o", True),  # wool, grain and ore buy a development card (IR-59)
    ],
)
def test_ir32_join_follows_what_the_hand_builds(cards: str, listed: bool) -> None:
    state = _signup({1: cards})
    assert _listed(state, 1) == (["sbp join", "sbp pass"] if listed else ["sbp pass"])


def test_ir32_no_deck_no_purchase() -> None:
    state = fresh(5)
    settle(state, 1, 18)
    give(state, 1, "1w 1g 1o")
    for name, count in zip(DEV_NAMES, state.deck, strict=True):
        if count:
            deal(state, 2, name, count)  # the whole deck is in seat 2's hand
    assert not any(state.deck)
    do(state, "end")
    assert _listed(state, 1) == ["sbp pass"]


def test_ir30_a_typed_join_stays_legal_and_the_slot_can_only_end() -> None:
    state = _signup({1: "1o"})
    state.apply_for(1, state.parse_action_for(1, "sbp join"))  # typed: legal (IR-30)
    for seat in (2, 3, 4):
        do_for(state, seat, "sbp pass")
    assert state.phase == SPECIAL_BUILD and state.current_player() == 1
    assert [str(a) for a in state.legal_actions()] == ["end"]


def do_for(state: IslandState, seat: int, text: str) -> None:
    state.apply_for(seat, state.parse_action_for(seat, text))
