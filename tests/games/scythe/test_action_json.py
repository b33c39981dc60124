"""Scythe's actions as data (issue 26, Deliver 1): every action class has a kind and named
fields in the game's words (docs/scythe.md, "Actions as data"), and round-trips through JSON.

Hypothesis builds actions of every class (not only those random games list); the conformance
test (``test_conformance.py``) runs the kit's ``check_action_json`` on the actions of random
games at every player count.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.action_json_cases import (
    FAST,
    assert_action_or_malformed,
    assert_documented_form,
    assert_every_class_has_a_kind,
    assert_refused,
    assert_round_trips,
)

from hexfolk.core import Action, load_game
from hexfolk.core.testing.action_json import check_action_json
from hexfolk.games.scythe import actions as A
from hexfolk.games.scythe import data as D

GAME = load_game("scythe", 2)

num = st.integers(0, 60)
amount = st.integers(0, 9)
loc = st.integers(0, len(D.LOC_NAMES) - 1)
res = st.integers(0, len(D.RESOURCES) - 1)
declines = st.lists(
    st.tuples(st.sampled_from(A.DECLINABLE), st.integers(0, 4)),
    unique_by=lambda kv: kv[0],
    max_size=3,
).map(lambda items: tuple(sorted(items, key=lambda kv: A.DECLINABLE.index(kv[0]))))
deploys = st.tuples(st.sampled_from(A.MECH_ABILITIES), loc).map(
    lambda t: A.Deploy(A.mech_slot(t[0]), t[0], t[1])
)

STRATEGIES: dict[type[Action], st.SearchStrategy[Any]] = {
    A.ChooseSection: st.sampled_from([*range(D.MAT_SECTIONS), D.FACTORY_SECTION]).map(
        A.ChooseSection
    ),
    A.Skip: st.just(A.SKIP),
    A.Done: st.just(A.DONE),
    A.EndTurn: st.just(A.END_TURN),
    A.TakeBottom: st.booleans().map(A.TakeBottom),
    A.Reveal: num.map(A.Reveal),
    A.MoveCoins: amount.map(A.MoveCoins),
    A.Bolster: st.builds(A.Bolster, st.sampled_from(["power", "cards"]), amount),
    A.TradePopularity: amount.map(A.TradePopularity),
    A.TradeResource: st.builds(A.TradeResource, res, loc),
    A.Produce: st.builds(A.Produce, loc, amount),
    A.SelectUnit: st.builds(A.SelectUnit, st.integers(0, 2), loc),
    A.Carry: st.builds(A.Carry, st.integers(0, 8), st.tuples(*[st.integers(0, 9)] * 4)),
    A.Step: loc.map(A.Step),
    A.Stop: st.just(A.STOP),
    A.Fight: loc.map(A.Fight),
    A.UseArtillery: st.booleans().map(A.UseArtillery),
    A.Commit: st.builds(
        A.Commit, st.integers(0, 7), st.lists(st.integers(2, 5), max_size=4).map(sorted).map(tuple)
    ),
    A.Retreat: st.builds(A.Retreat, loc, st.booleans()),
    A.EncounterOption: st.builds(A.EncounterOption, st.integers(1, 3), declines),
    A.GainResource: st.builds(A.GainResource, res, loc),
    A.TakeFactory: num.map(A.TakeFactory),
    A.FactoryTop: declines.map(A.FactoryTop),
    A.Pay: st.builds(A.Pay, res, loc),
    A.PayCard: st.integers(2, 5).map(A.PayCard),
    A.Upgrade: st.builds(A.Upgrade, st.integers(0, len(D.TOP_BOXES) - 1), st.integers(0, 3)),
    A.Deploy: deploys,
    A.Build: st.builds(A.Build, st.integers(0, len(D.STRUCTURES) - 1), loc),
    A.Enlist: st.builds(A.Enlist, st.integers(0, 3), st.integers(0, len(D.ENLIST_SPACE_IDS) - 1)),
    A.DealFaction: st.integers(0, len(D.FACTION_IDS) - 1).map(A.DealFaction),
    A.DealMat: st.integers(0, len(D.MAT_IDS) - 1).map(A.DealMat),
    A.DealTile: st.integers(0, len(D.TILE_IDS) - 1).map(A.DealTile),
    A.DealFactory: num.map(A.DealFactory),
    A.DealObjective: num.map(A.DealObjective),
    A.DrawCard: st.integers(2, 5).map(A.DrawCard),
    A.ScoutCard: st.integers(2, 5).map(A.ScoutCard),
    A.DrawEncounter: num.map(A.DrawEncounter),
}


def test_every_action_class_has_a_kind_and_a_strategy_here() -> None:
    assert_every_class_has_a_kind(GAME, STRATEGIES)


def test_the_shorthand_patterns_have_no_form() -> None:
    classes = GAME.action_forms.classes()  # type: ignore[union-attr]
    assert A.CarryPattern not in classes and A.PrefixPattern not in classes


@FAST
@given(st.one_of(*STRATEGIES.values()))
def test_every_action_round_trips_through_json_and_keeps_its_text(action: Action) -> None:
    assert_round_trips(GAME, action)


@pytest.mark.parametrize(
    ("text", "doc"),
    [  # the examples of docs/scythe.md, "Actions as data"
        ("section 2", {"kind": "section", "section": 2}),
        ("section factory", {"kind": "section", "section": "factory"}),
        ("move mech r3c4", {"kind": "move", "unit": "mech", "from": "r3c4"}),
        ("carry 1worker 2oil", {"kind": "carry", "workers": 1, "resources": {"oil": 2}}),
        ("carry none", {"kind": "carry", "workers": 0, "resources": {}}),
        ("to r3c5", {"kind": "step", "to": "r3c5"}),
        ("stop", {"kind": "stop"}),
        ("coins", {"kind": "coins", "amount": None}),
        ("coins 1", {"kind": "coins", "amount": 1}),
        ("bolster cards", {"kind": "bolster", "gain": "cards", "amount": None}),
        ("trade popularity", {"kind": "trade_popularity", "amount": None}),
        ("trade oil r1c6", {"kind": "trade", "resource": "oil", "territory": "r1c6"}),
        ("produce r1c6", {"kind": "produce", "territory": "r1c6", "amount": None}),
        ("bottom", {"kind": "bottom", "coins": True}),
        ("pay metal home_nordic", {"kind": "pay", "resource": "metal", "territory": "home_nordic"}),
        ("pay card 3", {"kind": "pay_card", "value": 3}),
        ("upgrade move-units deploy", {"kind": "upgrade", "top": "move-units", "bottom": "deploy"}),
        ("deploy speed r2c3", {"kind": "deploy", "ability": "speed", "territory": "r2c3"}),
        ("build mill r2c3", {"kind": "build", "structure": "mill", "territory": "r2c3"}),
        ("enlist build coins", {"kind": "enlist", "recruit": "build", "space": "coins"}),
        ("fight r4c4", {"kind": "fight", "territory": "r4c4"}),
        ("artillery", {"kind": "artillery", "use": True}),
        ("commit 3 cards 2,4", {"kind": "commit", "dial": 3, "cards": [2, 4]}),
        ("retreat home_nordic", {"kind": "retreat", "to": "home_nordic", "workers": True}),
        (
            "option 1 decline coins:1,popularity",
            {"kind": "option", "option": 1, "decline": {"coins": 1, "popularity": None}},
        ),
        ("top", {"kind": "top", "decline": {}}),
        ("factory 3", {"kind": "factory", "number": 3}),
        ("reveal 7", {"kind": "reveal", "number": 7}),
        ("end", {"kind": "end"}),
        ("faction nordic", {"kind": "faction", "faction": "nordic"}),
        ("offer 4", {"kind": "factory_offer", "number": 4}),
        ("draw 3", {"kind": "draw", "value": 3}),
    ],
)
def test_the_documented_forms(text: str, doc: dict[str, Any]) -> None:
    assert_documented_form(GAME, text, doc)


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ({"kind": "move", "unit": "tank", "from": "r3c4"}, "the field 'unit' of a 'move' action"),
        ({"kind": "move", "unit": "mech", "from": "r9c9"}, "the field 'from' of a 'move'"),
        ({"kind": "move", "kind_": 1}, "a 'move' action has no field 'kind_'"),
        ({"kind": "section", "section": 0}, "a section number 1..4 or 'factory'"),
        ({"kind": "deploy", "ability": "coercion", "territory": "r2c3"}, "the field 'ability'"),
        ({"kind": "deploy", "mech": 3, "ability": "speed", "territory": "r2c3"}, "no field 'mech'"),
        ({"kind": "option", "option": 1, "decline": {"gold": None}}, "the field 'decline'"),
        ({"kind": "option", "option": 1, "decline": {"coins": 0}}, "the field 'decline'"),
        ({"kind": "step"}, "needs the field 'to'"),
    ],
)
def test_a_malformed_document_is_refused(doc: dict[str, Any], words: str) -> None:
    assert_refused(GAME, doc, words)


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 30),
    st.sampled_from(["factory", "r3c4", "oil", "mech", "speed", "power", "x"]),
    st.lists(st.integers(-1, 5), max_size=4),
    st.dictionaries(st.sampled_from(["oil", "coins", "x"]), st.none() | st.integers(-1, 3)),
)
fields = st.sampled_from(
    [
        "section",
        "unit",
        "from",
        "to",
        "territory",
        "resource",
        "resources",
        "workers",
        "amount",
        "gain",
        "dial",
        "cards",
        "option",
        "decline",
        "ability",
        "mech",
        "number",
        "value",
        "top",
        "bottom",
        "structure",
        "recruit",
        "space",
        "use",
        "coins",
        "kind",
    ]
)


@FAST
@given(
    st.sampled_from(GAME.action_forms.kinds),  # type: ignore[union-attr]
    st.dictionaries(fields, values, max_size=4),
)
def test_any_document_gives_an_action_or_malformed_action_error(kind: str, rest: Any) -> None:
    assert_action_or_malformed(GAME, kind, rest)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_every_listed_action_of_random_games_round_trips(seed: int, players: int) -> None:
    game = load_game("scythe", players)
    assert check_action_json(game, seeds=[seed], max_steps=300) > 300
