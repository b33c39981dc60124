"""Kernel naming (issue 14): a game's options are read-only; ``turn_count`` has no default."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from hexfolk.core import State, load_game
from tests.core.toygame import BidsGame, BidsState


def test_options_cannot_be_written() -> None:
    game = BidsGame(2, {"hand": 1})
    options: Any = game.options  # typed Mapping: mypy refuses writes; check the runtime too
    for write in (
        lambda: options.__setitem__("hand", 2),
        lambda: options.__delitem__("hand"),
        lambda: options.update(hand=2),
        lambda: options.setdefault("other", 1),
        lambda: options.pop("hand"),
        lambda: options.popitem(),
        lambda: options.clear(),
    ):
        with pytest.raises(TypeError, match="read-only"):
            write()
    with pytest.raises(TypeError, match="read-only"):
        options |= {"hand": 2}
    assert game.options == {"hand": 1}
    assert game.new_initial_state().hand_size == 1


def test_options_copy_serialise_and_pickle_as_before() -> None:
    game = BidsGame(3, {"hand": 1})
    mine = dict(game.options)  # a plain, writable copy
    mine["hand"] = 2
    assert game.options["hand"] == 1
    assert json.loads(json.dumps(game.options)) == {"hand": 1}
    assert game.config() == {"players": 3, "options": {"hand": 1}}
    back = pickle.loads(pickle.dumps(game))  # worker processes and Ray pickle games
    assert back.options == {"hand": 1}
    with pytest.raises(TypeError):
        back.options["hand"] = 2  # type: ignore[index]
    assert copy.deepcopy(game).options == {"hand": 1}
    assert repr(game) == "BidsGame(players=3, options={'hand': 1})"


def test_turn_count_has_no_silent_default() -> None:
    assert "turn_count" in State.__abstractmethods__
    # the toy game's state without its turn_count: it cannot even be built
    methods = {
        k: v
        for k, v in vars(BidsState).items()
        if k == "__init__" or (not k.startswith("__") and k != "turn_count")
    }
    forgetful = type("ForgetfulState", (State,), methods)
    with pytest.raises(TypeError, match="turn_count"):
        forgetful(BidsGame())
    assert BidsState(BidsGame()).turn_count() == 0


@pytest.mark.parametrize("game_id", ["island", "scythe"])
def test_every_engine_keeps_its_options_read_only(game_id: str) -> None:
    game = load_game(game_id)
    before = dict(game.options)
    options: Any = game.options
    name = next(iter(before))
    with pytest.raises(TypeError, match="read-only"):
        options[name] = before[name]
    with pytest.raises(TypeError, match="read-only"):
        options.update({})
    back = pickle.loads(pickle.dumps(game))
    assert dict(back.options) == before and type(back.options) is type(game.options)
    assert game.config() == {"players": game.num_players, "options": before}
