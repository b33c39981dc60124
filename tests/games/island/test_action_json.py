"""The island's actions as data (issue 26, Deliver 1): every action class has a kind and named
fields in the game's words (docs/island.md, "Actions as data"), and round-trips through JSON.

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
from hexfolk.games.island import actions as A

GAME = load_game("island", 4)

ids = st.integers(0, 9999)
seats = st.integers(0, 7)
resources = st.integers(0, 4)
bundles = st.tuples(*[st.integers(0, 99)] * 5)


def _layout() -> A.LayoutOutcome:
    state = load_game("island", 4).new_initial_state()
    outcome = state.sample_chance(__import__("random").Random(3))
    assert isinstance(outcome, A.LayoutOutcome)
    return outcome


STRATEGIES: dict[type[Action], st.SearchStrategy[Any]] = {
    A.LayoutOutcome: st.just(_layout()),
    A.DiceOutcome: st.integers(2, 12).map(A.DiceOutcome),
    A.Roll: st.just(A.ROLL),
    A.BuildSettlement: ids.map(A.BuildSettlement),
    A.BuildRoad: ids.map(A.BuildRoad),
    A.BuildCity: ids.map(A.BuildCity),
    A.BuyDevelopment: st.just(A.BUY),
    A.DrawDevelopment: st.integers(0, 4).map(A.DrawDevelopment),
    A.PlayKnight: st.just(A.PLAY_KNIGHT),
    A.PlayRoadBuilding: st.just(A.PLAY_ROADS),
    A.PlayPlenty: bundles.map(A.PlayPlenty),
    A.PlayMonopoly: resources.map(A.PlayMonopoly),
    A.MoveRobber: st.one_of(
        st.just(A.MoveRobber(-1)),
        ids.map(A.MoveRobber),
        st.builds(A.MoveRobber, ids, seats),
    ),
    A.StealOutcome: resources.map(A.StealOutcome),
    A.Discard: resources.map(A.Discard),
    A.MaritimeTrade: st.builds(A.MaritimeTrade, bundles, bundles),
    A.Offer: st.builds(A.Offer, bundles, bundles),
    A.Accept: ids.map(A.Accept),
    A.Reject: ids.map(A.Reject),
    A.Counter: st.builds(A.Counter, bundles, bundles, ids),
    A.DeclineAll: st.booleans().map(A.DeclineAll),
    A.Complete: st.one_of(ids.map(A.Complete), st.builds(A.Complete, ids, seats)),
    A.Withdraw: ids.map(A.Withdraw),
    A.EndTurn: st.just(A.END),
    A.SpecialBuildSignUp: st.booleans().map(A.SpecialBuildSignUp),
}


def test_every_action_class_has_a_kind_and_a_strategy_here() -> None:
    assert_every_class_has_a_kind(GAME, STRATEGIES)


@FAST
@given(st.one_of(*STRATEGIES.values()))
def test_every_action_round_trips_through_json_and_keeps_its_text(action: Action) -> None:
    assert_round_trips(GAME, action)


@pytest.mark.parametrize(
    ("text", "doc"),
    [  # the examples of docs/island.md, "Actions as data"
        ("settle 28", {"kind": "settle", "node": 28}),
        ("road 30", {"kind": "road", "edge": 30}),
        ("city 12", {"kind": "city", "node": 12}),
        ("roll", {"kind": "roll"}),
        ("roll 8", {"kind": "dice", "total": 8}),
        ("robber 5 steal 2", {"kind": "robber", "hex": 5, "victim": 2}),
        ("robber 5", {"kind": "robber", "hex": 5, "victim": None}),
        ("robber stay", {"kind": "robber", "hex": None, "victim": None}),
        ("trade 4l for 1o", {"kind": "trade", "give": {"lumber": 4}, "get": {"ore": 1}}),
        ("offer 1l for -", {"kind": "offer", "give": {"lumber": 1}, "get": {}}),
        (
            "counter 1: 1b for 1l",
            {"kind": "counter", "give": {"brick": 1}, "get": {"lumber": 1}, "offer": 1},
        ),
        ("accept 2", {"kind": "accept", "offer": 2}),
        ("accept", {"kind": "accept", "offer": None}),
        ("reject 2", {"kind": "reject", "offer": 2}),
        ("complete 1 with 2", {"kind": "complete", "offer": 1, "seat": 2}),
        ("withdraw 1", {"kind": "withdraw", "offer": 1}),
        ("decline-all on", {"kind": "decline_all", "on": True}),
        ("discard o", {"kind": "discard", "resource": "ore"}),
        ("steal w", {"kind": "steal", "resource": "wool"}),
        ("buy", {"kind": "buy"}),
        ("draw knight", {"kind": "draw", "card": "knight"}),
        ("play knight", {"kind": "play_knight"}),
        ("play roads", {"kind": "play_roads"}),
        ("play plenty 1l 1o", {"kind": "play_plenty", "take": {"lumber": 1, "ore": 1}}),
        ("play monopoly g", {"kind": "play_monopoly", "resource": "grain"}),
        ("sbp join", {"kind": "sbp", "join": True}),
        ("end", {"kind": "end"}),
    ],
)
def test_the_documented_forms(text: str, doc: dict[str, Any]) -> None:
    assert_documented_form(GAME, text, doc)


def test_fields_with_a_default_may_be_left_out() -> None:
    assert GAME.action_from_json({"kind": "robber", "hex": 5}) == A.MoveRobber(5)
    assert GAME.action_from_json({"kind": "accept"}) == A.ACCEPT
    assert GAME.action_from_json({"kind": "complete", "offer": 3}) == A.Complete(3)


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ({"kind": "settle", "node": "28"}, "the field 'node' of a 'settle' action"),
        ({"kind": "trade", "give": {"l": 4}, "get": {"ore": 1}}, "lumber, brick, wool"),
        ({"kind": "trade", "give": [4, 0, 0, 0, 0], "get": {"ore": 1}}, "the field 'give'"),
        ({"kind": "discard", "resource": 4}, "the field 'resource' of a 'discard' action"),
        ({"kind": "play_monopoly"}, "needs the field 'resource'"),
        ({"kind": "settle", "node": 1, "edge": 2}, "a 'settle' action has no field 'edge'"),
        ({"kind": "settlement", "node": 1}, "'settlement' is not a kind of action"),
        ({"kind": "layout", "layout": None}, "a board layout in its text form, not None"),
        ({"kind": "layout", "layout": "zz"}, "a board layout in its text form, not 'zz'"),
    ],
)
def test_a_malformed_document_is_refused(doc: dict[str, Any], words: str) -> None:
    assert_refused(GAME, doc, words)


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 30),
    st.text(max_size=6),
    st.lists(st.integers(-1, 5), max_size=6),
    st.dictionaries(st.sampled_from(["lumber", "ore", "l", "x"]), st.integers(-1, 3), max_size=3),
)
fields = st.sampled_from(
    [
        "node",
        "edge",
        "hex",
        "victim",
        "give",
        "get",
        "offer",
        "seat",
        "resource",
        "take",
        "card",
        "total",
        "on",
        "join",
        "layout",
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


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8))
def test_every_listed_action_of_random_games_round_trips(seed: int, players: int) -> None:
    game = load_game("island", players)
    assert check_action_json(game, seeds=[seed], max_steps=300) > 300
