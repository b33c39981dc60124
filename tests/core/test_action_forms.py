"""The kernel's JSON form of actions (issue 26, Deliver 1 "Actions as data").

An action's structured form is ``{"kind": ..., <field>: ...}``, built once per class from the
dataclass fields (``@action_kind``); ``from_json`` refuses every malformed document with
``MalformedActionError`` naming the kind and the field, never ``KeyError`` or ``TypeError``.
These tests use small action classes of their own; the games' forms are checked in
``tests/games/*/test_action_json.py`` and by the kit in their conformance tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexfolk.core import Action, MalformedActionError, load_game
from hexfolk.core.action_forms import (
    WHOLE,
    ActionForms,
    Derived,
    Renamed,
    action_kind,
    counts,
    named,
    numbers,
    optional,
    words,
)
from hexfolk.core.testing.action_json import (
    check_action_classes,
    check_action_json,
    check_action_roundtrip,
)
from hexfolk.core.testing.checks import ConformanceError

PLACES = ("north", "south", "east")
GOODS = ("wood", "ore")


@action_kind("place")
@dataclass(frozen=True, slots=True)
class Place(Action):
    spot: int

    def __str__(self) -> str:
        return f"place {self.spot}"


@action_kind(
    "walk", kind=Renamed("unit", named(("scout", "cart"))), where=Renamed("from", named(PLACES))
)
@dataclass(frozen=True, slots=True)
class Walk(Action):
    kind: int
    where: int

    def __str__(self) -> str:
        return f"walk {self.kind} {PLACES[self.where]}"


@action_kind("swap", give=counts(GOODS), get=counts(GOODS), to=optional(WHOLE, -1))
@dataclass(frozen=True, slots=True)
class Swap(Action):
    give: tuple[int, ...]
    get: tuple[int, ...]
    to: int = -1

    def __str__(self) -> str:
        return f"swap {self.give} {self.get} {self.to}"


@action_kind("bet", cards=numbers(ordered=True), mode=words(("open", "hidden")))
@dataclass(frozen=True, slots=True)
class Bet(Action):
    cards: tuple[int, ...]
    mode: str
    ok: bool = True

    def __str__(self) -> str:
        return f"bet {self.cards} {self.mode} {self.ok}"


def _double(fields: Any) -> int:
    return 2 * fields["half"]


@action_kind("pair", whole=Derived(_double))
@dataclass(frozen=True, slots=True)
class Pair(Action):
    half: int
    whole: int

    def __str__(self) -> str:
        return f"pair {self.half}"


@action_kind("pass")
@dataclass(frozen=True, slots=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


@action_kind("lossy", n=Renamed("n", optional(WHOLE, 0)))
@dataclass(frozen=True, slots=True)
class Lossy(Action):
    """Its form writes 0 as null and reads null as 0: fine; 5 is written as 5."""

    n: int

    def __str__(self) -> str:
        return f"lossy {self.n}"


FORMS = ActionForms([Place, Walk, Swap, Bet, Pair, Pass, Lossy])


@pytest.mark.parametrize(
    ("action", "doc"),
    [
        (Place(28), {"kind": "place", "spot": 28}),
        (Walk(1, 2), {"kind": "walk", "unit": "cart", "from": "east"}),
        (
            Swap((4, 0), (0, 1)),
            {"kind": "swap", "give": {"wood": 4}, "get": {"ore": 1}, "to": None},
        ),
        (
            Swap((0, 0), (1, 2), 3),
            {"kind": "swap", "give": {}, "get": {"wood": 1, "ore": 2}, "to": 3},
        ),
        (Bet((1, 3), "open", False), {"kind": "bet", "cards": [1, 3], "mode": "open", "ok": False}),
        (Pair(2, 4), {"kind": "pair", "half": 2}),
        (Pass(), {"kind": "pass"}),
    ],
)
def test_to_json_writes_the_fields_by_name_and_from_json_reads_them_back(
    action: Action, doc: dict[str, Any]
) -> None:
    assert action.to_json() == doc
    assert json.loads(json.dumps(action.to_json())) == doc  # plain JSON
    assert FORMS.from_json(doc) == action
    assert type(action).from_json(doc) == action


def test_fields_with_a_default_may_be_left_out_and_lists_are_kept_in_order() -> None:
    assert FORMS.from_json({"kind": "swap", "give": {"wood": 1}, "get": {}}) == Swap((1, 0), (0, 0))
    assert FORMS.from_json({"kind": "bet", "cards": [3, 1], "mode": "hidden"}) == Bet(
        (1, 3), "hidden"
    )


def test_to_json_gives_a_new_dict_each_time() -> None:
    a = Place(3)
    doc = a.to_json()
    doc["spot"] = 9
    assert a.to_json() == {"kind": "place", "spot": 3}


@pytest.mark.parametrize(
    ("doc", "words_in_message"),
    [
        ([], "an object with a 'kind'"),
        ("place 3", "an object with a 'kind'"),
        ({"spot": 3}, "has no 'kind'"),
        ({"kind": "fly"}, "'fly' is not a kind of action of this game (kinds: place, walk"),
        ({"kind": ["place"]}, "is not a kind of action"),
        ({"kind": "place"}, "a 'place' action needs the field 'spot'"),
        ({"kind": "place", "spot": 3, "node": 4}, "a 'place' action has no field 'node'"),
        ({"kind": "place", "spot": "3"}, "the field 'spot' of a 'place' action is a whole number"),
        ({"kind": "place", "spot": True}, "the field 'spot' of a 'place' action is a whole number"),
        ({"kind": "place", "spot": -1}, "the field 'spot' of a 'place' action is a whole number"),
        ({"kind": "place", "spot": 2.0}, "is a whole number"),
        ({"kind": "walk", "unit": "tank", "from": "north"}, "the field 'unit' of a 'walk' action"),
        ({"kind": "walk", "unit": "cart", "where": 1}, "a 'walk' action has no field 'where'"),
        ({"kind": "swap", "give": {"gold": 1}, "get": {}}, "the field 'give' of a 'swap'"),
        ({"kind": "swap", "give": {"wood": 0}, "get": {}}, "counts above 0"),
        ({"kind": "swap", "give": [1, 0], "get": {}}, "counts above 0"),
        ({"kind": "swap", "give": {}, "get": {}, "to": "x"}, "a whole number (0 or more) or null"),
        ({"kind": "bet", "cards": [1, "2"], "mode": "open"}, "a list of whole numbers"),
        ({"kind": "bet", "cards": [], "mode": "loud"}, "one of 'open', 'hidden'"),
        ({"kind": "bet", "cards": [], "mode": "open", "ok": 1}, "true or false"),
        ({"kind": "pair", "half": 1, "whole": 2}, "a 'pair' action has no field 'whole'"),
        ({"kind": "pass", "x": None}, "a 'pass' action has no field 'x' (its fields: none)"),
    ],
)
def test_a_malformed_document_is_refused_with_a_sentence(doc: Any, words_in_message: str) -> None:
    with pytest.raises(MalformedActionError) as exc:
        FORMS.from_json(doc)
    assert words_in_message in str(exc.value)


def test_from_json_on_a_class_reads_only_its_own_kind() -> None:
    with pytest.raises(MalformedActionError, match="whose kind is 'place'"):
        Place.from_json({"kind": "pass"})


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 10)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELD_NAMES = st.sampled_from(
    ["kind", "spot", "unit", "from", "give", "get", "to", "cards", "mode", "ok", "half"]
)
NEAR = st.dictionaries(FIELD_NAMES, JSON, max_size=4).flatmap(
    lambda d: st.sampled_from(FORMS.kinds).map(lambda k: {**d, "kind": k})
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(JSON, NEAR))
def test_any_json_gives_an_action_or_malformed_action_error(doc: Any) -> None:
    try:
        action = FORMS.from_json(doc)
    except MalformedActionError:
        return
    assert FORMS.from_json(action.to_json()) == action


def test_a_declaration_the_kernel_cannot_write_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="needs a FieldCodec"):

        @action_kind("say")
        @dataclass(frozen=True, slots=True)
        class Say(Action):
            words: str

    with pytest.raises(TypeError, match="not lower-case words"):

        @action_kind("Say-it")
        @dataclass(frozen=True, slots=True)
        class SayIt(Action):
            pass

    with pytest.raises(TypeError, match="'kind' names the action"):

        @action_kind("sort")
        @dataclass(frozen=True, slots=True)
        class Sort(Action):
            kind: int

    with pytest.raises(TypeError, match="are not fields"):

        @action_kind("hop", height=WHOLE)
        @dataclass(frozen=True, slots=True)
        class Hop(Action):
            length: int


def test_two_classes_of_one_kind_or_a_class_without_form_are_refused() -> None:
    @action_kind("place")
    @dataclass(frozen=True, slots=True)
    class Place2(Action):
        spot: int

    @dataclass(frozen=True, slots=True)
    class Bare(Action):
        spot: int

    with pytest.raises(TypeError, match="kind 'place' names both Place and"):
        ActionForms([Place, Place2])
    with pytest.raises(TypeError, match="has no JSON form"):
        ActionForms([Place, Bare])
    with pytest.raises(TypeError, match="has no JSON form"):
        Bare(1).to_json()


# --------------------------------------------------------------------------- the kit's check


def test_the_kit_refuses_a_game_without_action_forms() -> None:
    with pytest.raises(ConformanceError, match="bids has no action_forms"):
        check_action_json(load_game("bids", 2), seeds=[1])


def test_the_kit_finds_an_action_class_left_out_of_the_forms() -> None:
    with pytest.raises(ConformanceError, match="Walk has no JSON form in the game's action_forms"):
        check_action_classes(ActionForms([Place, Swap, Bet, Pair, Pass, Lossy]))
    check_action_classes(FORMS)


class _FormsGame:
    """Just enough of a game for ``check_action_roundtrip``."""

    id = "forms"

    def __init__(self, forms: ActionForms):
        self.forms = forms

    def action_from_json(self, doc: Any) -> Action:
        return self.forms.from_json(doc)


def test_the_kit_finds_an_action_that_does_not_read_back() -> None:
    game: Any = _FormsGame(ActionForms([Lossy]))
    check_action_roundtrip(game, Lossy(5), "here")
    check_action_roundtrip(game, Lossy(0), "here")
    wrong: Any = _FormsGame(ActionForms([Lossy, Place]))
    wrong.forms = ActionForms([Place])  # Lossy's kind unknown to the game
    with pytest.raises(ConformanceError, match="is refused"):
        check_action_roundtrip(wrong, Lossy(5), "here")
    with pytest.raises(ConformanceError, match="is not plain"):
        check_action_roundtrip(game, Lossy(object()), "here")  # type: ignore[arg-type]
