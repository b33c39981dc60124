"""Reasons for refused Scythe actions (issue 17): one test per reason, then a property test
that every well-formed illegal action met in random games gets a specific reason."""

from __future__ import annotations

import random

import pytest
from tests.games.refusal_walk import count_specific_reasons, refusal_questions

from hexfolk.core import CHANCE, IllegalActionError, State, load_game
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.state import ScytheState
from hexfolk.games.scythe.territory_labels import LABELS

from .helpers import (
    clear_board,
    give,
    play,
    position,
    put_char,
    put_mech,
    put_workers,
    set_hand,
    set_seat,
)


def reason(s: ScytheState, text: str, seat: int | None = None) -> str:
    action = s.game.parse_action_syntax(text)
    who = s.current_player() if seat is None else seat
    why = s.why_illegal(who, action)
    assert why is not None, f"{text} is legal"
    assert why != State.why_illegal(s, who, action), f"generic sentence for {text}"
    return why


def start() -> ScytheState:
    """Crimea (Industrial) against Nordic (Engineering), Crimea to move."""
    return position("crimea,nordic", "industrial,engineering")


def test_the_error_carries_the_reason() -> None:
    s = start()
    play(s, "section 1", "skip", "skip")
    while s.prompt().kind != "choose-section":
        play(s, str(s.legal_actions()[0]))
    assert s.current_player() == 1
    play(s, "section 1", "skip", "skip")
    while s.current_player() != 0 or s.prompt().kind != "choose-section":
        play(s, str(s.legal_actions()[0]))
    before = s.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        s.parse_action("section 1")
    used = "you used section 1 last turn; the token must move to another (SR-6)"
    assert info.value.reason == used
    assert str(info.value).startswith(info.value.reason)
    assert s.fingerprint() == before


def test_sr6_factory_card_section() -> None:
    s = start()
    assert reason(s, "section factory").startswith("you hold no Factory card")
    give(s, 0, factory_card=D.FACTORY_NUMBERS[0])
    set_seat(s, 0, last_section="factory")
    assert "not twice in a row, even Rusviet (SR-6)" in reason(s, "section factory")


def test_sr7_the_top_action_named_is_not_the_sections() -> None:
    s = start()
    play(s, "section 1")  # Industrial: Bolster over Upgrade
    why = reason(s, "trade popularity")
    assert why == "the top action of section 1 is bolster, not trade (SR-7)"
    give(s, 0, coins=0)
    assert reason(s, "bolster power") == "Bolster costs $1; you have $0 (SR-12, SR-15)"


def test_sr12_partial_gain_at_most_the_value() -> None:
    s = start()
    play(s, "section 3")  # Industrial: Move over Build
    assert reason(s, "coins 5") == "Move gains at most 1, so 5 is too many (SR-12)"


def test_wrong_phase_names_the_pending_decision() -> None:
    s = start()
    assert reason(s, "skip") == "not now: P0 must choose a section for the action token (SR-7)"
    assert reason(s, "end").startswith("not now: P0 must choose a section")


def test_not_your_turn_names_whose_decision_it_is() -> None:
    s = start()
    why = reason(s, "section 2", seat=1)
    assert why.startswith("P1 has no decision to make now; it is P0's decision: choose a section")
    with pytest.raises(IllegalActionError) as info:
        s.parse_action_for(1, "section 2")
    assert info.value.reason == why


def test_sr18_sr19_tokens_and_production_need_control_and_workers() -> None:
    s = start()
    clear_board(s)
    put_workers(s, 0, "r4c6", 1)
    put_workers(s, 0, "r3c5", 1)
    play(s, "section 2")  # Industrial: Produce over Deploy
    assert reason(s, "produce r3c3") == "you do not control D3 (SR-13, SR-19)"
    assert reason(s, "produce home_crimea").startswith(
        "Crimea base produces nothing"
    )  # home bases by label
    play(s, "produce r4c6")
    assert reason(s, "produce r4c6") == "G4 has already produced in this action (SR-19)"


def test_sr16_sr25_units_and_steps() -> None:
    s = start()
    clear_board(s)
    put_char(s, 0, "r3c3")
    play(s, "section 3")
    assert reason(s, "move mech r3c3") == "you have no mech on D3"
    play(s, "move character r3c3")
    assert reason(s, "to home_nordic").startswith("no Move puts a unit onto a home base")
    far = next(t for t in D.LOC_NAMES[: D.NTERR] if t not in ("r3c3", "r4c3", "r3c2", "r3c4"))
    assert f"cannot step to {LABELS.by_id[far]}" in reason(s, f"to {far}") or "lake" in reason(
        s, f"to {far}"
    )


def test_sr43_commitment_limits() -> None:
    s = start()
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 1, "riverwalk", "r4c3")
    set_hand(s, 0, [5])
    give(s, 0, power=3)
    play(s, "section 3", "move character r3c3", "to r4c3", "done")
    assert s.prompt().kind == "commit"
    assert reason(s, "commit 5") == "the dial goes from 0 to min(7, your power 3) = 3 (SR-43 C2)"
    assert reason(s, "commit 0 cards 5,5") == "you may add at most 1 combat card here (SR-43 C2)"
    assert reason(s, "commit 0 cards 3") == "you do not hold 1 combat card(s) of value 3"


def test_sr12_sr20_bottom_action_cost() -> None:
    s = start()
    clear_board(s)
    play(s, "section 2", "skip")  # Produce skipped; Deploy costs metal
    assert s.prompt().kind == "bottom-action"
    why = reason(s, "bottom")
    assert why.startswith("Deploy costs 3 metal; you control 0") and "SR-20" in why


def test_sr51_objectives() -> None:
    s = start()
    play(s, "section 1")
    held = s.objectives[0]
    other = next(n for n in D.OBJECTIVE_BY_NUMBER if n not in held)
    assert reason(s, f"reveal {other}") == f"you do not hold objective {other} (SR-51)"


def test_chance_draws_are_not_moves() -> None:
    s = start()
    assert reason(s, "draw 3").startswith("draw 3 is a draw the table makes, not a move")
    g = load_game("scythe", 2)
    first = g.new_initial_state()
    assert first.current_player() == CHANCE
    assert first.why_illegal(CHANCE, g.parse_action_syntax("section 1")) == (
        "no player acts now: the table draws the next card or deal"
    )


# ---------------------------------------------------------------- property
@pytest.mark.parametrize("players", [2, 3])
def test_every_illegal_action_of_random_games_gets_a_specific_reason(players: int) -> None:
    checked = 0
    for seed in range(2):
        state = load_game("scythe", players).new_initial_state()
        assert isinstance(state, ScytheState)
        rng = random.Random(seed)
        questions = refusal_questions(
            state,
            rng,
            players,
            limit=1200,
            every=6,
            candidates=lambda pool: rng.sample(pool, min(10, len(pool))),  # noqa: B023
        )
        checked += count_specific_reasons(
            state,
            questions,
            lambda seat, candidate: (
                f"no specific reason for P{seat}: {candidate} ({state.prompt()})"  # noqa: B023
            ),
        )
    assert checked > 500
