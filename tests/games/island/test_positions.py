"""Island positions (issue 14): ``state.position()`` writes every field in the game's words,
``IslandGame.load_position`` builds the state back, checking the invariants of the rules and
refusing a bad document with a sentence that names the problem."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from hexfolk.core import PositionError, load_game
from hexfolk.core import testing as kit
from hexfolk.core.testing.random_step import random_step
from hexfolk.games.island.state import IslandState

CONFIGS = [
    (2, {}),
    (3, {"robber": False}),
    (4, {"friendly_robber": True}),
    (5, {}),
    (4, {"map": "driftland"}),
    (3, {"map": "keystone"}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_positions_round_trip_along_seeded_games(players: int, options: dict[str, Any]) -> None:
    """Every 23rd state of a seeded random game (setup, 7s, offers, SBP; 2000 steps) survives
    position() -> JSON -> load_position(): same fingerprint, prompt, legal actions of every
    acting seat and observations; and every 7th check both games go on identically. (23 is
    odd: the checked steps alternate between even and odd ones.)"""
    game = load_game("island", players, options)
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    rng = random.Random(players)
    checked = 0
    for step in range(2000):
        if step % 23 == 0:
            doc = json.dumps(state.position())
            twin = game.load_position(doc)
            assert twin.fingerprint() == state.fingerprint()
            assert twin.prompt() == state.prompt()
            assert twin.acting_seats() == state.acting_seats()
            for seat in state.acting_seats():
                assert twin.legal_actions_for(seat) == state.legal_actions_for(seat)
            assert twin.observation(None) == state.observation(None)
            assert twin.position() == json.loads(doc)
            checked += 1
            if step % 161 == 0:  # the rebuilt game plays on exactly as the original
                a, b = random.Random(step), random.Random(step)
                original = state.clone()
                for _ in range(60):
                    if original.is_terminal():
                        break
                    random_step(original, a)
                    random_step(twin, b)
                assert twin.fingerprint() == original.fingerprint()
        if state.is_terminal():
            break
        random_step(state, rng)
    assert checked > 20


@pytest.fixture(scope="module")
def middle() -> dict[str, Any]:
    """The position of a 4-player game in its main phase after some turns."""
    game = load_game("island", 4, {})
    state = game.new_initial_state()
    rng = random.Random(5)
    while not (state.turn >= 12 and state.prompt() is not None and state.prompt().kind == "main"):
        random_step(state, rng)
    return state.position()


def _refused(doc: Any) -> str:
    game = load_game("island", 4, {})
    with pytest.raises(PositionError) as err:
        game.load_position(doc)
    return str(err.value)


def _changed(doc: dict[str, Any], edit: Any) -> dict[str, Any]:
    bad = copy.deepcopy(doc)
    edit(bad)
    return bad


def test_the_middle_position_loads(middle: dict[str, Any]) -> None:
    state = load_game("island", 4, {}).load_position(middle)
    assert state.position() == middle


def test_refuses_text_that_is_not_json() -> None:
    assert "not JSON" in _refused("{board")


def test_refuses_another_game_or_player_count(middle: dict[str, Any]) -> None:
    assert "'scythe'" in _refused({**middle, "game": "scythe"})
    assert "3 players" in _refused({**middle, "players": 3})
    assert "options" in _refused({**middle, "options": {"vp_target": 12}})


def test_refuses_an_unknown_phase(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["turn"].update(phase="lunch"))
    assert "turn.phase is 'lunch'" in _refused(bad)


def test_refuses_two_buildings_on_one_node(middle: dict[str, Any]) -> None:
    node = middle["buildings"][0][0][0]
    bad = _changed(middle, lambda d: d["buildings"][1].append([node, "settlement"]))
    assert f"node {node} holds two buildings" in _refused(bad)


def test_refuses_neighbouring_buildings_ir19(middle: dict[str, Any]) -> None:
    from hexfolk.games.island.board import topology

    node = middle["buildings"][0][0][0]
    near = topology("hex19").node_adj[node][0]
    bad = _changed(middle, lambda d: d["buildings"][1].append([near, "settlement"]))
    assert "distance rule, IR-19" in _refused(bad)


def test_refuses_more_pieces_than_a_player_has_ir59(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["roads"][2].extend(range(1, 72)))
    message = _refused(bad)
    assert "two roads" in message or "a player has 15 (IR-59)" in message
    free = [e for e in range(72) if all(e not in r for r in middle["roads"])]
    bad = _changed(middle, lambda d: d["roads"].__setitem__(2, free[:16]))
    assert _refused(bad) == "seat 2 has 16 roads on the board; a player has 15 (IR-59)"


def test_refuses_cards_missing_from_bank_and_hands_ir10(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["bank"].update(ore=d["bank"]["ore"] + 1))
    assert "ore cards in the bank and hands; the game has 19 (IR-10)" in _refused(bad)


def test_refuses_a_wrong_development_deck_ir10(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["deck"].update(monopoly=d["deck"]["monopoly"] + 1))
    assert "monopoly cards in the deck, hands and played; the game has 2 (IR-10)" in _refused(bad)


def test_refuses_an_award_its_holder_has_not_earned(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["awards"].update(largest_army=3))
    assert "Largest Army with" in _refused(bad) and "(IR-72)" in _refused(bad)


def test_refuses_a_robber_with_the_robber_off() -> None:
    game = load_game("island", 3, {"robber": False})
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(1)))
    doc = state.position()
    doc["robber"] = 4
    with pytest.raises(PositionError, match=r"robber is on hex 4 with the robber off \(IR-47\)"):
        game.load_position(doc)


def test_refuses_a_prompt_the_position_does_not_ask(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["prompt"].update(kind="robber"))
    assert "the position's prompt is 'robber'" in _refused(bad)


def test_refuses_a_discard_phase_without_discards(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["turn"].update(phase="discard"))
    assert "no seat is discarding (IR-41)" in _refused(bad)


def test_refuses_an_unknown_resource_name(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d["seats"][0]["hand"].update(gold=1))
    assert "names 'gold'" in _refused(bad)


def test_refuses_a_missing_field(middle: dict[str, Any]) -> None:
    bad = _changed(middle, lambda d: d.pop("bank"))
    assert _refused(bad) == "the position has no 'bank'"


@pytest.mark.parametrize(("players", "options"), [(4, {}), (6, {"friendly_robber": True})])
def test_the_kernel_positions_contract(players: int, options: dict[str, Any]) -> None:
    """The kernel's positions check (``kit.check_positions``) along seeded games."""
    assert kit.check_positions(load_game("island", players, options), seeds=[players]) > 10
