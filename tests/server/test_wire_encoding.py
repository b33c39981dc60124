"""The server writes its messages with ``protocol.encode`` (``orjson``), not ``json.dumps``:
what a client reads back must be what the standard library's text would have given, on the
messages a table really sends. Random games of both games at several player counts, every
viewer (each seat and a spectator) at every step: the view message as the fan-out builds it
(observation, log lines, legal actions with their forms, refusals with their reasons)."""

from __future__ import annotations

import json
import random

import pytest

from hexfolk.core import load_game
from hexfolk.server.protocol import encode
from hexfolk.server.views import build_parts


def same_as_stdlib(message: object) -> None:
    text = encode(message)
    assert json.loads(text) == json.loads(json.dumps(message))
    assert "\n" not in text  # one line


@pytest.mark.parametrize(("game_id", "players"), [("island", 2), ("island", 6), ("scythe", 4)])
def test_view_messages_read_back_as_the_standard_librarys(game_id: str, players: int) -> None:
    game = load_game(game_id, players)
    state = game.new_initial_state()
    rng = random.Random(28)
    checked = 0
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        for viewer in [*range(players), None]:
            parts = build_parts(state, viewer)
            same_as_stdlib(
                {
                    "type": "view",
                    "seat": viewer,
                    "observation": parts.observation,
                    "log": parts.log_json(0),
                    "acting": state.acting_seats(),
                    "legal": parts.legal,
                    "refused": parts.refused,
                }
            )
            checked += 1
        seat = rng.choice(state.acting_seats())
        state.apply_for(seat, rng.choice(state.legal_actions_for(seat)))
    assert checked > 100


def test_keys_that_are_not_strings_and_words_in_any_script() -> None:
    """``json.dumps`` writes the int keys of a dict as strings, and so must the encoder (it
    refuses them without ``OPT_NON_STR_KEYS``); Korean and emoji go as UTF-8 text."""
    same_as_stdlib({"clocks": {0: 12.5, 1: None}, "chat": "안녕 🎲 ñ", "n": [1, 2.0, True]})
    assert "안녕" in encode({"chat": "안녕"})
