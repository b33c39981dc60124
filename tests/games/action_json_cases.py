"""The checks each game's ``test_action_json.py`` runs on its actions as data (issue 26,
Deliver 1): one body for every game; each game's test file names its own actions, strategies
and documented examples and calls these.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from hexfolk.core import Action, Game, MalformedActionError

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_every_class_has_a_kind(game: Game, strategies: dict[type[Action], Any]) -> None:
    """Every action class of ``game`` has a strategy in ``strategies`` and a kind of its own."""
    assert set(strategies) == set(game.action_forms.classes())  # type: ignore[union-attr]
    kinds = game.action_forms.kinds  # type: ignore[union-attr]
    assert len(set(kinds)) == len(kinds) == len(strategies)


def assert_round_trips(game: Game, action: Action) -> None:
    """``action`` is canonical and comes back through JSON the same, with the same text."""
    assert game.parse_action_syntax(str(action)) == action  # a canonical action
    doc = action.to_json()
    text = json.dumps(doc)
    back = game.action_from_json(json.loads(text))
    assert back == action
    assert str(back) == str(action)
    assert json.dumps(back.to_json()) == text


def assert_documented_form(game: Game, text: str, doc: dict[str, Any]) -> None:
    """The action written ``text`` has the JSON form ``doc`` and ``doc`` reads back as it."""
    action = game.parse_canonical(text)
    assert action.to_json() == doc
    assert game.action_from_json(doc) == action


def assert_refused(game: Game, doc: dict[str, Any], words: str) -> None:
    """``doc`` is refused with a MalformedActionError whose message holds ``words``."""
    with pytest.raises(MalformedActionError, match=words):
        game.action_from_json(doc)


def assert_action_or_malformed(game: Game, kind: str, rest: Any) -> None:
    """Any document gives an action that round-trips, or a MalformedActionError."""
    try:
        action = game.action_from_json({"kind": kind, **rest})
    except MalformedActionError:
        return
    assert game.action_from_json(action.to_json()) == action
