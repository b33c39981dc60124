"""The conformance kit on the island game at every player count 2..8 (IR-9).

Random playouts are checked step by step by the kit; most are cut off by a turn cap to keep the
suite fast, and a few are played to the end (on seeds whose random games end early: the deep
checks look at every observation, whose log grows with the game).
"""

from __future__ import annotations

import random

import pytest

from hexfolk.core import State, load_game
from hexfolk.core import testing as kit
from hexfolk.core.testing.action_json import check_action_json
from hexfolk.core.testing.random_step import random_step
from hexfolk.games.island import actions as A
from hexfolk.games.island.rules import DEV_NAMES, RESOURCES
from hexfolk.games.island.state import IslandState


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_random_playouts_every_player_count(players: int) -> None:
    kit.check_random_playouts(
        load_game("island", players), seeds=[players], turn_cap=30, deep_every=13
    )


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"board": "beginner"}),
        (3, {"friendly_robber": True, "vp_target": 8}),
        (4, {"robber": False, "hide_bank": True, "longest_road": False}),
    ],
)
def test_random_playouts_to_the_end(players: int, options: dict[str, object]) -> None:
    seed = {2: 11, 3: 21, 4: 2}[players]  # games of 1412, 1829 and 3038 steps
    results = kit.check_random_playouts(
        load_game("island", players, options), seeds=[seed], deep_every=13
    )
    assert results[0].finished  # IR-4: random games end with a winner
    assert results[0].state.winners()


def test_determinism() -> None:
    kit.check_determinism(load_game("island", 4), seed=5, turn_cap=80)
    kit.check_determinism(load_game("island", 7), seed=2, turn_cap=30)


def test_record_roundtrip() -> None:
    kit.check_record_roundtrip(load_game("island", 4), seed=4, turn_cap=60)
    kit.check_record_roundtrip(load_game("island", 5, {"board": "beginner"}), seed=1, turn_cap=30)


def test_action_notation() -> None:
    kit.check_action_notation(load_game("island", 6), seeds=[2])


def plant_private_log(state: State, seat: int, sentinel: str) -> State | None:
    """The position with the sentinel in a log entry only ``seat`` may see (like a drawn card
    or the type of a stolen card)."""
    assert isinstance(state, IslandState)
    doc = state.position()
    doc["log"].append([[seat], sentinel])
    return state.game.load_position(doc)


@pytest.mark.parametrize("players", [2, 4, 5, 8])
def test_ir74_hidden_information(players: int) -> None:
    kit.check_hidden_information(
        load_game("island", players),
        seeds=[players + 20],
        plant_sentinel=plant_private_log,
        every=11,
        turn_cap=70 if players <= 4 else 25 if players < 8 else 12,
    )


def test_ir74_hidden_information_with_hidden_bank() -> None:
    kit.check_hidden_information(
        load_game("island", 3, {"hide_bank": True, "friendly_robber": True}),
        seeds=[3],
        every=9,
        turn_cap=120,
    )


def _turned(cards: str) -> str:
    """Cards of each type turned into the next type (lumber becomes brick, ..., ore lumber)."""
    bundle = A.parse_bundle(cards.split(), "cards")
    return A.bundle_text((*bundle[1:], *bundle[:1]))


def _plant_in_hand_and_cards(state: IslandState, seat: int) -> IslandState | None:
    """The position where ``seat``'s secrets differ and nothing public does: its resource
    cards change type (the hidden bank gives and takes the difference, the hand's size stays;
    the cards it chose to discard and those others cannot tell apart turn alike) and one
    development card not bought this turn changes kind with one of the deck. None when the
    seat holds nothing to change."""
    doc = state.position()
    info = doc["seats"][seat]
    hand = [info["hand"][name] for name in RESOURCES]
    turned = hand[1:] + hand[:1]
    bank = doc["bank"]
    if turned == hand or any(bank[name] + h - t < 0 for name, h, t in zip(RESOURCES, hand, turned)):
        turned = hand
    else:
        for name, h, t in zip(RESOURCES, hand, turned):
            info["hand"][name] = t
            bank[name] += h - t
        for item in doc["unknown_cards"]:
            if item[1] == seat:
                item[2] = _turned(item[2])
        if "discard" in info:
            info["discard"]["chosen"] = _turned(info["discard"]["chosen"])
        committed = (doc["discards"] or {}).get("committed", {})
        if str(seat) in committed:
            committed[str(seat)] = _turned(committed[str(seat)])
    dev, new, deck = info["dev_cards"], info["bought_this_turn"], doc["deck"]
    old = next((c for c in DEV_NAMES if dev[c] > new[c]), None)
    other = next((c for c in DEV_NAMES if deck[c] and c != old), None)
    swapped = old is not None and other is not None
    if swapped:
        assert old is not None and other is not None
        dev[old] -= 1
        dev[other] += 1
        deck[old] += 1
        deck[other] -= 1
    if turned == hand and not swapped:
        return None
    planted = state.game.load_position(doc)
    assert isinstance(planted, IslandState)
    return planted


@pytest.mark.parametrize("players", [3, 5])
def test_ir74_hands_and_development_cards_stay_hidden(players: int) -> None:
    """IR-74: the types of a seat's resource cards and its development cards show to that
    seat only (with the bank hidden, nothing public tells them): a world where they differ
    looks the same to every other seat and the spectator, and different to the seat."""
    game = load_game("island", players, {"hide_bank": True})
    state = game.new_initial_state()
    rng = random.Random(players)
    planted_count = 0
    for step in range(1200):
        if state.is_terminal():
            break
        if step % 9 == 0:
            views = {viewer: state.observation(viewer) for viewer in [*range(players), None]}
            for seat in range(players):
                planted = _plant_in_hand_and_cards(state, seat)
                if planted is None:
                    continue
                planted_count += 1
                assert planted.observation(seat) != views[seat]
                for other in [*range(players), None]:
                    if other != seat:
                        assert planted.observation(other) == views[other], (
                            f"step {step}: seat {seat}'s cards show to {other}"
                        )
        random_step(state, rng)
    assert planted_count > 100


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_actions_as_data_every_player_count(players: int) -> None:
    """Issue 26: every action listed along a random game (and every chance outcome) round-trips
    through its JSON form; malformed forms are refused with MalformedActionError."""
    checked = check_action_json(load_game("island", players), seeds=[players], max_steps=600)
    assert checked > 1000
