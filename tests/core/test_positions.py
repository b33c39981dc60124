"""The positions contract (issue 14): ``Game.load_position`` and ``State.position``.

A game that has not implemented positions says so in a sentence (NotImplementedError), never
returns something half-built; a refused document is a :class:`PositionError`, which callers
(``hexfolk perft --position``, ``hexfolk play --position``) may catch as a ValueError.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest

from hexfolk.core import Game, HexfolkError, MatchRecord, PositionError, RecordError, State, replay
from hexfolk.core import testing as kit
from tests.core.toygame import BidsGame, BidsState


def test_position_error_is_an_input_error() -> None:
    assert issubclass(PositionError, HexfolkError)
    assert issubclass(PositionError, ValueError)


def test_default_contract_refuses_with_a_sentence_naming_the_game() -> None:
    class NoPositions(BidsGame):
        id = "no-positions"

    game = NoPositions()
    with pytest.raises(NotImplementedError, match="no-positions does not load positions"):
        Game.load_position(game, {})  # what a game without positions inherits
    with pytest.raises(NotImplementedError, match="no-positions does not write positions"):
        State.position(game.new_initial_state())


def _midgame() -> BidsState:
    """Three seats, two cards each: the first round played, seat 0 has bid in the second."""
    state = BidsGame(3, {"hand": 2}).new_initial_state()
    rng = random.Random(5)
    while state.round < 1 or state.bids.value_for(0) is None:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert state.current_player() == 1
    return state


def test_a_position_round_trips_to_the_same_state() -> None:
    state = _midgame()
    doc = state.position()
    assert json.loads(json.dumps(doc)) == doc  # plain JSON
    back = state.game.load_position(json.dumps(doc))  # text or mapping
    assert back.fingerprint() == state.fingerprint()
    assert back.legal_actions() == state.legal_actions()
    assert state.game.load_position(doc).position() == doc


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        (lambda d: d.update(game="island"), "a position of 'island', not of 'bids'"),
        (lambda d: d.update(players=2), "the position has 2 players; this game 3"),
        (lambda d: d.pop("deck"), "no 'deck' field"),
        (lambda d: d["hands"][2].append(d["hands"][1][0]), "exists once"),
        (lambda d: d.update(round=7), "round 7 is not one of 0..2"),
        (lambda d: d["deck"].pop(), "the deck has 9 cards"),
    ],
)
def test_a_bad_position_is_refused_with_a_sentence(change: Any, sentence: str) -> None:
    state = _midgame()
    doc = state.position()
    change(doc)
    with pytest.raises(PositionError, match=re.escape(sentence)):
        state.game.load_position(doc)


def test_a_record_started_from_a_position_replays_from_it() -> None:
    state = _midgame()
    doc = state.position()
    rest = state.clone()
    steps: list[tuple[int | None, str]] = []
    while not rest.is_terminal():
        action = rest.legal_actions()[0]
        steps.append((None, str(action)))
        rest.apply(action)
    record = MatchRecord.from_steps(state.game, 0, steps, position=doc)
    loaded = MatchRecord.loads(record.dumps())
    assert loaded.position == doc
    assert replay(loaded).fingerprint() == rest.fingerprint()
    # from the game's start the same steps are not legal: the position is what they follow
    with pytest.raises(RecordError):
        replay(dataclasses.replace(loaded, position=None))
    bad = dataclasses.replace(loaded, position={**doc, "round": 9})
    with pytest.raises(RecordError, match="start position is refused: round 9"):
        replay(bad)
    plain = MatchRecord.from_steps(state.game, 0, []).to_json()
    assert "position" not in plain  # records from the start are written as before


# --- the kit's positions check -------------------------------------------------------------
def test_the_toy_game_passes_the_positions_check() -> None:
    assert kit.check_positions(BidsGame(3), range(4), every=1) > 20


class ForgetfulGame(BidsGame):
    """Its positions leave the points out: a loaded state starts from zero."""

    def new_initial_state(self) -> BidsState:
        return ForgetfulState(self)

    def load_position(self, doc: Any) -> BidsState:
        data = json.loads(doc) if isinstance(doc, str) else dict(doc)
        data.setdefault("points", [0] * self.num_players)
        state = super().load_position(data)
        state.__class__ = ForgetfulState
        return state


class ForgetfulState(BidsState):
    def position(self) -> dict[str, Any]:
        doc = super().position()
        del doc["points"]
        return doc


class CarelessGame(BidsGame):
    """Its load_position lets a KeyError out instead of a PositionError."""

    def load_position(self, doc: Any) -> BidsState:
        data = json.loads(doc) if isinstance(doc, str) else dict(doc)
        data["deck"]
        return super().load_position(data)


class SharingGame(BidsGame):
    """Its loaded state keeps the document's lists: playing on it edits the document."""

    def load_position(self, doc: Any) -> BidsState:
        state = super().load_position(doc)
        if not isinstance(doc, str):
            state.hands = doc["hands"]
        return state


class HalfBuiltGame(BidsGame):
    """Its load_position lets a missing deck mean an empty one, dealing from nothing."""

    def load_position(self, doc: Any) -> BidsState:
        data = json.loads(doc) if isinstance(doc, str) else dict(doc)
        if "deck" not in data:
            state = BidsState(self)
            state.deck = []
            return state
        return super().load_position(data)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (ForgetfulGame(2), "fingerprint differs"),
        (HalfBuiltGame(2), "the state loaded from a document without 'deck'"),
        (CarelessGame(2), "raised KeyError: 'deck', not PositionError"),
        (SharingGame(2), "changed the document"),
    ],
)
def test_the_positions_check_catches_broken_positions(game: BidsGame, message: str) -> None:
    with pytest.raises(kit.ConformanceError, match=re.escape(message)):
        kit.check_positions(game, range(3), every=1)
