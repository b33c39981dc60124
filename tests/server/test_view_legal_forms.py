"""Issue 26, "actions as data": every legal action a view lists carries its text (the id a
client sends back) and its structured form (``Action.to_json()``: kind and named fields), and
the two name the same action. Random games of both games at several player counts."""

from __future__ import annotations

import random

import pytest

from hexfolk.core import load_game
from hexfolk.server.views import build_parts

VIEW_KEYS = ("action", "hint")
"""The view's own keys in a legal entry; every other key is the action's structured form."""


@pytest.mark.parametrize(("game_id", "players"), [("island", 2), ("island", 5), ("scythe", 3)])
def test_every_listed_action_carries_its_form_and_both_name_one_action(
    game_id: str, players: int
) -> None:
    game = load_game(game_id, players)
    state = game.new_initial_state()
    rng = random.Random(26)
    kinds: set[str] = set()
    for _ in range(600):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        for seat in state.acting_seats():
            parts = build_parts(state, seat)
            assert parts.legal, f"seat {seat} acts but its view lists nothing"
            for entry in parts.legal:
                form = {k: v for k, v in entry.items() if k not in VIEW_KEYS}
                by_text = state.parse_action_for(seat, entry["action"])
                by_form = game.action_from_json(form)
                assert by_form == by_text, (entry, by_form, by_text)
                assert str(by_form) == entry["action"]
                kinds.add(form["kind"])
        seat = rng.choice(state.acting_seats())
        state.apply_for(seat, rng.choice(state.legal_actions_for(seat)))
    assert len(kinds) >= 5, f"too few kinds met to mean anything: {sorted(kinds)}"


def test_a_spectator_view_lists_no_action() -> None:
    state = load_game("island", 3).new_initial_state()
    while state.is_chance():
        state.apply(state.sample_chance(random.Random(1)))
    assert build_parts(state, None).legal == []
