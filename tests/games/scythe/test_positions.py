"""Positions as a public document: ``ScytheGame.load_position`` and ``ScytheState.position()``.

Round trip: the position of states from seeded random games loads into a state with the same
fingerprint and the same legal actions, which then plays on identically. Refusals: each
invariant (piece counts SR-4, track limits SR-15, the combat deck SR-46, stars SR-50, cubes
SR-21, recruits SR-24, lakes SR-35, structures SR-23, cards in one place, a prompt with an
action) refuses a bad document with a PositionError whose sentence names the problem.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from hexfolk.core import PositionError, load_game
from hexfolk.core import testing as kit
from hexfolk.games.scythe.state import ScytheState


def _walk(players: int, seed: int, every: int, limit: int = 2500):  # type: ignore[no-untyped-def]
    """States of a seeded random game, every ``every`` steps (chance nodes included)."""
    game = load_game("scythe", players)
    s = game.new_initial_state()
    rng = random.Random(seed)
    for step in range(limit):
        if s.is_terminal():
            yield s
            return
        if step % every == 0:
            yield s
        if s.is_chance():
            s.apply(s.sample_chance(rng))
        else:
            seat = s.acting_seats()[rng.randrange(len(s.acting_seats()))]
            legal = s.legal_actions_for(seat)
            s.apply_for(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 7), (3, 2), (4, 3), (5, 4)])
def test_round_trip_keeps_the_fingerprint_and_the_legal_actions(players: int, seed: int) -> None:
    game = load_game("scythe", players)
    kinds = set()
    count = 0
    for s in _walk(players, seed, every=13):
        doc = s.position()
        text = json.dumps(doc)
        t = game.load_position(text)
        assert t.fingerprint() == s.fingerprint()
        assert t.current_player() == s.current_player()
        for seat in s.acting_seats():
            assert t.legal_actions_for(seat) == s.legal_actions_for(seat)
        assert t.position() == json.loads(text)  # written again, the same document
        assert t.observation(0) == s.observation(0)
        kinds.add(doc["phase"])
        count += 1
    assert count > 30 and len(kinds) > 8


def test_a_loaded_position_plays_on_like_the_original() -> None:
    s = next(x for i, x in enumerate(_walk(3, 5, every=1)) if i == 400).clone()
    t = load_game("scythe", 3).load_position(s.position())
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(300):
        if s.is_terminal():
            break
        for state, rng in ((s, rng_a), (t, rng_b)):
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
        assert t.fingerprint() == s.fingerprint()


def _start() -> tuple[Any, dict[str, Any]]:
    game = load_game("scythe", 2, {"factions": "nordic,crimea", "mats": "industrial,engineering"})
    s = kit.start_position(game, 3)
    assert isinstance(s, ScytheState)
    return game, s.position()


def _refused(change: Any) -> str:
    game, doc = _start()
    bad = copy.deepcopy(doc)
    change(bad)
    with pytest.raises(PositionError) as info:
        game.load_position(bad)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_the_start_position_loads() -> None:
    game, doc = _start()
    assert game.load_position(doc).prompt().kind == "choose-section"


def test_refuses_text_that_is_not_json() -> None:
    game, _ = _start()
    with pytest.raises(PositionError, match="not JSON"):
        game.load_position("{seats: none")


def test_refuses_another_game_count_or_options() -> None:
    assert "island" in _refused(lambda d: d.update(game="island"))
    assert "3 players" in _refused(lambda d: d.update(players=3))
    assert "allow_banned_pairs" in _refused(lambda d: d["options"].update(allow_banned_pairs=True))


def test_refuses_a_missing_field() -> None:
    assert "'coins' is missing" in _refused(lambda d: d["seats"][0].pop("coins"))


def test_refuses_a_ninth_worker_sr4() -> None:
    msg = _refused(lambda d: d["seats"][0]["workers"].append(None))
    assert "9 workers" in msg and "8" in msg


def test_refuses_tracks_beyond_their_ends_sr15() -> None:
    assert "power is 17" in _refused(lambda d: d["seats"][1].update(power=17))
    assert "popularity is 19" in _refused(lambda d: d["seats"][0].update(popularity=19))
    assert "coins is -1" in _refused(lambda d: d["seats"][0].update(coins=-1))


def test_refuses_a_combat_deck_that_does_not_add_up_sr46() -> None:
    msg = _refused(lambda d: d["seats"][0]["combat_cards"].append(5))
    assert "combat cards of value 5" in msg and "the game has 6" in msg


def test_refuses_too_many_stars_sr50() -> None:
    msg = _refused(lambda d: d["seats"][0]["stars"].update(combat=3))
    assert "3 combat stars" in msg and "SR-50" in msg


def test_refuses_cubes_that_do_not_match_the_upgrades_sr21() -> None:
    msg = _refused(lambda d: d["seats"][0]["cubes"].update(upgrade=1))
    assert "0 upgrades but 1 cubes" in msg


def test_refuses_recruits_without_enlist_spaces_sr24() -> None:
    assert "1 recruits but 0 enlist spaces" in _refused(
        lambda d: d["seats"][0]["recruits"].append("build")
    )


def test_refuses_a_worker_alone_on_a_lake_sr35() -> None:
    def change(d: dict[str, Any]) -> None:
        d["seats"][0]["workers"][0] = "r3c4"

    assert "on the lake r3c4 without a mech" in _refused(change)


def test_refuses_two_structures_on_one_territory_sr23() -> None:
    def change(d: dict[str, Any]) -> None:
        d["seats"][0]["structures"] = {"mill": "r1c4"}
        d["seats"][1]["structures"] = {"mine": "r1c4"}

    assert "two structures stand on one territory" in _refused(change)


def test_refuses_a_faction_twice_and_unknown_names() -> None:
    assert "same faction" in _refused(lambda d: d["seats"][1].update(faction="nordic"))
    assert "'r9c9' is not a territory" in _refused(lambda d: d["seats"][0].update(character="r9c9"))
    assert "'elves'" in _refused(lambda d: d["seats"][0].update(faction="elves"))


def test_refuses_an_objective_in_two_places() -> None:
    def change(d: dict[str, Any]) -> None:
        d["seats"][1]["objectives"] = list(d["seats"][0]["objectives"])

    assert "objective card is in two places" in _refused(change)


def test_refuses_an_encounter_token_where_none_is_printed() -> None:
    assert "no encounter token printed" in _refused(lambda d: d["encounter_tokens"].append("r1c1"))


def test_refuses_a_prompt_that_offers_no_action() -> None:
    def change(d: dict[str, Any]) -> None:
        d["phase"] = "pay-card"  # the Factory card's card cost, but no card is owed or held
        d["seats"][d["active"]]["combat_cards"] = []
        d["combat_deck"] = {"2": 16, "3": 12, "4": 8, "5": 6}
        d["seats"][1 - d["active"]]["combat_cards"] = []

    assert "offers seat" in _refused(change)


def test_a_refused_document_changes_nothing() -> None:
    game, doc = _start()
    before = json.dumps(doc, sort_keys=True)
    bad = copy.deepcopy(doc)
    bad["seats"][0]["power"] = 99
    with pytest.raises(PositionError):
        game.load_position(bad)
    assert json.dumps(doc, sort_keys=True) == before
    assert game.load_position(doc).position() == doc
