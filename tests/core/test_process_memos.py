"""Pickling a state never walks a process-wide memo (``kit.check_no_process_memo_pickled``).

The server pickles a live state for a bot worker on its event loop while the reveal checks'
worker thread plays on a copy of another state of the same process. When island states pickled
the process-wide trade listings (``actions.trade_table``) by their entries, that thread's new
entries made the pickle fail ("dictionary changed size during iteration": CI, the hard island
bot at a real table) and each bot decision carried thousands of listings it did not need.
Every game at every player count is checked at states along a random game.
"""

from __future__ import annotations

import pickle

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit
from hexfolk.games.island.actions import trade_table
from tests.core.test_copies_every_game import every_game_and_player_count


@pytest.mark.parametrize(("game_id", "players"), every_game_and_player_count())
def test_no_process_memo_travels_in_a_pickled_state(game_id: str, players: int) -> None:
    game = load_game(game_id, players)
    result = kit.play_random(game, seed=3, turn_cap=12)
    state = game.new_initial_state()
    for step, action in enumerate(result.actions):
        if step % 25 == 0:
            kit.check_no_process_memo_pickled(state)
        state.apply(action)
    kit.check_no_process_memo_pickled(state)


def test_the_check_finds_a_memo_pickled_by_its_entries() -> None:
    """The check can fail: a state holding a process-wide dict by content is caught."""
    state = load_game("island", 2).new_initial_state()
    state.shared = trade_table.__globals__["_TRADE_TABLES"]  # type: ignore[attr-defined]
    with pytest.raises(kit.ConformanceError, match="_TRADE_TABLES"):
        kit.check_no_process_memo_pickled(state)


def test_a_trade_table_comes_back_as_the_process_own_and_carries_no_entries() -> None:
    ratio = (9, 9, 9, 9, 9)  # no board has these ratios: the entries below mislead no game
    table = trade_table(ratio, True)
    try:
        empty = len(pickle.dumps(table))
        for k in range(500):
            table[(k, 0, 0, 0, 0)] = ()
        assert len(pickle.dumps(table)) == empty
        assert pickle.loads(pickle.dumps(table)) is table
    finally:
        del trade_table.__globals__["_TRADE_TABLES"][(ratio, True)]
