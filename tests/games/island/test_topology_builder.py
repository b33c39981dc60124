"""One builder of the engine's board geometry (issue 26: ``maps.py`` had a second topology
builder beside ``board.topology``): every ``Topology`` is made by ``board.build_topology``, and a
map with the standard outline gets the standard board's geometry from it (IR-9, IR-83)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from hexfolk.games.island import board
from hexfolk.games.island.maps import draw_layout, load_map, to_engine

ISLAND = Path(board.__file__).resolve().parent


def test_only_board_py_constructs_a_topology() -> None:
    makers = []
    for path in sorted(ISLAND.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for call in ast.walk(node):
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Name)
                        and call.func.id == "Topology"
                    ):
                        makers.append(f"{path.relative_to(ISLAND)}:{node.name}")
    assert sorted(set(makers)) == ["board.py:build_topology", "board.py:empty_topology"]


def test_keystone_and_hex19_share_every_table_but_the_coast_order() -> None:
    """Keystone is the standard outline (IR-83 map 3): the one builder numbers its hexes, nodes
    and edges as hex19's; only the coast's listing differs (a walk vs edge ids)."""
    std = board.topology("hex19")
    key = to_engine(draw_layout(load_map("keystone"), random.Random(0)))[0]
    for name in ("hex_nodes", "hex_adj", "node_hexes", "node_adj", "edge_nodes", "edge_hexes"):
        assert getattr(key, name) == getattr(std, name), name
    assert sorted(key.coast) == sorted(std.coast)
    assert key.coast == tuple(sorted(std.coast))
