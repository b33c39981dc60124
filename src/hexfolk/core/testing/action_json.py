"""The JSON form of actions: every action a game lists round-trips (issue 26, "actions as data").

:func:`check_action_json` checks, for one game and player count:

* the forms: every action class of the game's action modules (the modules of the classes in
  ``game.action_forms``, shorthand patterns left out) has its own form, with a kind of lower-case
  words, unique in the game;
* along random games, every legal action and chance outcome met: ``to_json()`` is plain JSON
  (``json.dumps``/``json.loads`` give it back unchanged), its ``kind`` is its class's, and
  ``game.action_from_json`` gives the same action back, with the same text;
* malformed documents (not an object, no kind, an unknown kind, each field left out, an extra
  field, each field of another type) raise ``MalformedActionError`` and nothing else.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable
from typing import Any

from hexfolk.core.action_forms import KIND_WORD, ActionForms, is_pattern, own_form
from hexfolk.core.actions import Action
from hexfolk.core.errors import MalformedActionError
from hexfolk.core.game import TERMINAL, Game, State
from hexfolk.core.testing.checks import ConformanceError
from hexfolk.core.testing.random_step import random_step

WRONG_TYPE: Any = {"?": [None]}
"""A value no field converter accepts (an object whose key names nothing, holding a list)."""


def check_action_json(
    game: Game, seeds: Iterable[int], *, max_steps: int = 1500, turn_cap: int | None = None
) -> int:
    """Check the JSON forms of ``game``'s actions (module docstring); return how many actions
    were round-tripped. Random games are played by seeded random choices among the acting
    seats' legal actions, ``max_steps`` steps at most (or to the turn cap or the end)."""
    forms = game.action_forms
    if forms is None:
        raise ConformanceError(f"{game.id} has no action_forms: its actions have no JSON form")
    check_action_classes(forms)
    checked = 0
    kinds_seen: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        for step in range(max_steps):
            player = state.current_player()
            if player == TERMINAL or (turn_cap is not None and state.turn_count() >= turn_cap):
                break
            where = f"{game.id} ({game.num_players} players) seed {seed} step {step}"
            for action in _listed(state):
                check_action_roundtrip(game, action, where)
                kind = type(action).json_form
                if kind is not None and kind.kind not in kinds_seen:
                    kinds_seen.add(kind.kind)
                    check_malformed(game, action, where)
                checked += 1
            random_step(state, rng)
    check_malformed_documents(game)
    return checked


def _listed(state: State) -> list[Action]:
    if state.is_chance():
        outcomes = state.chance_outcomes()
        return [a for a, _ in outcomes]
    out: list[Action] = []
    for seat in state.acting_seats():
        out.extend(state.legal_actions_for(seat))
    return out


def check_action_classes(forms: ActionForms) -> None:
    """Every action class of the forms' modules has its own form; kinds are words, unique."""
    modules = {cls.__module__ for cls in forms.classes()}
    listed = set(forms.classes())
    seen: dict[str, type[Action]] = {}
    for module_name in sorted(modules):
        for value in vars(sys.modules[module_name]).values():
            if not (isinstance(value, type) and issubclass(value, Action)):
                continue
            if value.__module__ != module_name or is_pattern(value):
                continue
            form = own_form(value)
            if form is None or value not in listed:
                raise ConformanceError(
                    f"{module_name}.{value.__qualname__} has no JSON form in the game's "
                    "action_forms (declare it with @action_kind)"
                )
            if not KIND_WORD.match(form.kind):
                raise ConformanceError(f"{value.__qualname__}: kind {form.kind!r} is not a word")
            other = seen.get(form.kind)
            if other is not None and other is not value:
                raise ConformanceError(
                    f"kind {form.kind!r} names both {other.__qualname__} and {value.__qualname__}"
                )
            seen[form.kind] = value


def check_action_roundtrip(game: Game, action: Action, where: str) -> None:
    """``action.to_json()`` is plain JSON of its kind and reads back as ``action``."""
    form = own_form(type(action))
    if form is None:
        raise ConformanceError(f"{where}: {action!s} ({type(action).__name__}) has no JSON form")
    doc = action.to_json()
    try:
        text = json.dumps(doc, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{where}: the JSON of {action!s} is not plain: {exc}") from None
    again = json.loads(text)
    if again != doc or json.dumps(again, sort_keys=True) != text:
        raise ConformanceError(
            f"{where}: the JSON of {action!s} changes through json.dumps/loads: {doc!r}"
        )
    if doc.get("kind") != form.kind:
        raise ConformanceError(f"{where}: {action!s} is written with kind {doc.get('kind')!r}")
    try:
        back = game.action_from_json(again)
    except MalformedActionError as exc:
        raise ConformanceError(f"{where}: {text} (from {action!s}) is refused: {exc}") from None
    if back != action or type(back) is not type(action):
        raise ConformanceError(f"{where}: {text} reads back as {back!r}, not {action!r}")
    if str(back) != str(action):
        raise ConformanceError(f"{where}: {text} reads back as {back!s}, not {action!s}")


def _refused(game: Game, doc: Any, what: str) -> None:
    try:
        got = game.action_from_json(doc)
    except MalformedActionError:
        return
    except Exception as exc:  # the contract: only MalformedActionError
        raise ConformanceError(
            f"{game.id}: {what} ({doc!r}) raises {type(exc).__name__}: {exc}, "
            "not MalformedActionError"
        ) from None
    raise ConformanceError(f"{game.id}: {what} ({doc!r}) is read as {got!r}")


def check_malformed(game: Game, action: Action, where: str) -> None:
    """Each field of ``action``'s form left out (when it has no default), of another type, and
    an extra field: refused with MalformedActionError."""
    form = own_form(type(action))
    assert form is not None
    doc = action.to_json()
    for _, name, _, has_default in form.fields:
        if not has_default:
            _refused(
                game, {k: v for k, v in doc.items() if k != name}, f"{where}: {name!r} left out"
            )
        _refused(game, {**doc, name: WRONG_TYPE}, f"{where}: {name!r} of another type")
    _refused(game, {**doc, "?": 1}, f"{where}: an extra field")


def check_malformed_documents(game: Game) -> None:
    """Documents that are no action of any kind: refused with MalformedActionError."""
    for doc, what in [
        ([], "a list"),
        ("settle 1", "a text"),
        (None, "null"),
        ({}, "an object without kind"),
        ({"kind": None}, "a null kind"),
        ({"kind": ["x"]}, "a kind that is a list"),
        ({"kind": "no such kind"}, "an unknown kind"),
    ]:
        _refused(game, doc, what)
