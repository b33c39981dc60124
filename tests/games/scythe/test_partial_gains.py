"""SR-47 "take any part of its benefit" (and SR-49's partial Factory benefit): the fixed
gains of an encounter option or a Factory card's top action (coins, power, popularity, named
resources, workers, combat cards) may be declined in part with the exact form
``option <k> decline <part>[:<n>],..`` / ``top decline ..`` — accepted by the parser and
``is_legal``, never listed (the legal action sets and perft counts stay as they were).

Expected amounts are read from the raw ``data/cards.json`` records, not from engine code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexfolk.core import IllegalActionError, MalformedActionError, load_game
from hexfolk.core import testing as kit
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import EncounterOption, FactoryTop, parse_action

from .helpers import L, draw, give, hand, legal, play, res_at
from .test_cards import T, encounter_position, factory_position

RAW = json.loads((Path(D.__file__).parent / "data" / "cards.json").read_text(encoding="utf-8"))
ENC = {c["number"]: c for c in RAW["encounter_cards"]}
FAC = {c["number"]: c for c in RAW["factory_cards"]}


def test_sr47_decline_notation_round_trips() -> None:
    for text in (
        "option 1 decline popularity",
        "option 2 decline coins:1,popularity",
        "option 3 decline worker,food:2",
        "option 2 decline power,cards:1",
        "top decline popularity:1",
    ):
        action = parse_action(text)
        assert str(action) == text
        assert parse_action(str(action)) == action
    # parts are written in one canonical order whatever order they are typed in
    assert str(parse_action("option 1 decline popularity,coins")) == (
        "option 1 decline coins,popularity"
    )
    assert parse_action("option 1") == EncounterOption(1)
    assert parse_action("top") == FactoryTop()
    for bad in (
        "option 1 decline gold",
        "option 1 decline coins:0",
        "option 1 decline coins,coins",
    ):
        with pytest.raises(MalformedActionError):
            parse_action(bad)


def test_sr47_decline_popularity_of_option_1_keeps_the_coins() -> None:
    """Encounter card 1, option 1: +2 coins +1 popularity; the player keeps only the coins."""
    s = encounter_position()
    play(s, "encounter 1")
    assert ENC[1]["options"][0]["benefit"] == [{"coins": 2, "popularity": 1}]
    listed = legal(s)
    assert not any("decline" in a for a in listed)  # not listed: no flood of actions
    coins, pop = s.coins[0], s.popularity[0]
    play(s, "option 1 decline popularity")
    assert (s.coins[0], s.popularity[0]) == (coins + 2, pop)
    assert s.prompt().kind == "bottom-action"
    assert "P0 declines 1 popularity" in s.observation(1)["log"]


def test_sr47_take_part_of_an_amount() -> None:
    """Card 3 option 2 (cost 2 coins): 1 worker + 3 food; take 1 food and no worker."""
    s = encounter_position()
    play(s, "encounter 3")
    assert ENC[3]["options"][1] == {"cost": {"coins": 2}, "benefit": [{"worker": 1, "food": 3}]}
    coins = s.coins[0]
    play(s, "option 2 decline worker,food:2")
    assert s.coins[0] == coins - 2  # the full cost is still paid (SR-12)
    assert res_at(s, T, "food") == 1
    assert s.workers_on[L(T) * s.n + 0] == 0


def test_sr47_declining_combat_cards_and_power() -> None:
    """Card 17 option 2: +2 power +2 combat cards; take 1 card and no power."""
    s = encounter_position()
    play(s, "encounter 17")
    assert ENC[17]["options"][1]["benefit"] == [{"power": 2, "combat_cards": 2}]
    power, cards = s.power[0], len(hand(s, 0))
    play(s, "option 2 decline power,cards:1")
    draw(s, 4)
    assert not s.is_chance()  # only one card is drawn
    assert s.power[0] == power and len(hand(s, 0)) == cards + 1


def test_sr47_a_decline_must_name_a_fixed_gain_of_that_option() -> None:
    s = encounter_position()
    play(s, "encounter 1")
    # option 1 has no food; option 2's food is 4, so 5 cannot be declined
    for text in ("option 1 decline food", "option 2 decline food:5", "option 3 decline coins"):
        with pytest.raises(IllegalActionError):
            s.parse_action(text)
        assert not s.is_legal(parse_action(text))
    assert s.is_legal(parse_action("option 2 decline food:4"))
    # an option whose cost cannot be paid stays illegal in its partial form too
    give(s, 0, coins=0)
    assert not s.is_legal(parse_action("option 2 decline food"))


def test_sr47_declines_are_illegal_outside_the_encounter_prompt() -> None:
    s = encounter_position()
    assert s.is_chance()
    assert not s.is_legal(parse_action("option 1 decline popularity"))
    play(s, "encounter 1", "option 1")
    assert s.prompt().kind == "bottom-action"
    assert not s.is_legal(parse_action("option 1 decline popularity"))


def test_sr41_meander_declines_per_option() -> None:
    """Polania takes two options; each may leave its own parts (SR-41, SR-47)."""
    s = encounter_position("polania", "industrial")
    play(s, "encounter 1")
    coins, pop = s.coins[0], s.popularity[0]
    play(s, "option 1 decline coins:1")
    play(s, "option 2 decline food:3")
    assert s.coins[0] == coins + 1 - 2 and s.popularity[0] == pop + 1
    assert res_at(s, T, "food") == 1


def test_sr49_factory_card_partial_benefit_after_a_card_cost() -> None:
    """Factory card 4: discard a combat card, +3 coins; the decline is kept across the
    card payment and only 1 coin is taken."""
    assert FAC[4]["cost"] == {"combat_cards": 1} and FAC[4]["benefit"] == [{"coins": 3}]
    s = factory_position(4)
    play(s, "section factory")
    coins = s.coins[0]
    fp = s.fingerprint()
    play(s, "top decline coins:2")
    assert s.fingerprint() != fp and s.prompt().kind == "pay-card"
    play(s, "pay card 3")
    assert s.coins[0] == coins + 1
    assert s.prompt().kind == "bottom-action"
    assert "fdecline" not in s.full_state()  # empty again: left out of the fingerprint


def test_sr49_factory_decline_must_fit_the_card() -> None:
    s = factory_position(9)  # cost 2 coins: Upgrade and +1 popularity
    play(s, "section factory")
    assert not s.is_legal(parse_action("top decline coins"))
    assert not s.is_legal(parse_action("top decline popularity:2"))
    pop = s.popularity[0]
    play(s, "top decline popularity")
    assert s.prompt().kind == "gain"  # the granted Upgrade may still be taken
    play(s, "skip")
    assert s.popularity[0] == pop


def test_sr47_random_games_still_progress() -> None:
    """The partial forms are not listed, so random play is unchanged and ends."""
    game = load_game("scythe", 2)
    result = kit.play_random(game, 5)
    assert result.record.result["finished"]
