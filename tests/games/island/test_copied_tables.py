"""The board's geometry and layout tables compare by value, never by identity (issue 25,
deliver 1): a state pickled into a bot worker or deep-copied carries copies of them, and the
caches keyed by them (``layout_tables``, ``production.node_yields``, the production table)
must find those copies. Before the fix a topology compared by identity, so a copied state's
tables missed every cache (rebuilt per decision in the bot workers, and each miss kept alive
in the caches)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from hexfolk.core import load_game, make_rng
from hexfolk.games.island.board import layout_tables
from hexfolk.games.island.production import node_yields, seat_production


@pytest.mark.parametrize("board", [{}, {"map": "driftland"}, {"map": "crescent"}])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_issue_25_copied_geometry_and_tables_find_the_shared_ones(
    board: dict[str, Any], how: str
) -> None:
    game = load_game("island", 3, board)
    state: Any = game.new_initial_state()
    state.apply(state.sample_chance(make_rng(4)))  # the layout
    copied: Any = pickle.loads(pickle.dumps(state)) if how == "pickle" else copy.deepcopy(state)
    assert copied.topology == state.topology
    assert hash(copied.topology) == hash(state.topology)
    assert copied.layout_tables == state.layout_tables
    # rebuilt through this process's cache: the very tables every state of the layout shares
    assert copied.layout_tables is layout_tables(state.topology, state.layout_tables.layout)
    assert node_yields(copied.layout_tables) is node_yields(state.layout_tables)
    owners = tuple(state.node_owner)
    levels = tuple(state.node_level)
    mine = seat_production(copied.layout_tables, owners, levels, 0, state.robber)
    assert mine == seat_production(state.layout_tables, owners, levels, 0, state.robber)


def test_geometries_of_other_boards_differ() -> None:
    a: Any = load_game("island", 3).new_initial_state()
    b: Any = load_game("island", 5).new_initial_state()
    assert a.topology != b.topology
    assert a.topology == pickle.loads(pickle.dumps(a.topology))
