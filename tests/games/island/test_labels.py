"""Place labels (issue 26, docs/log.md): hexes lettered in reading order (A.., beyond Z: AA..),
intersections numbered 1..N in reading order, edges by their two intersections; built once per
topology value (a pickled copy finds the same labels); the geometry sends them to the page."""

from __future__ import annotations

import pickle

import pytest

from hexfolk.core import load_game
from hexfolk.games.island.board import topology
from hexfolk.games.island.geometry import drawing_geometry
from hexfolk.games.island.labels import hex_letter, labels


def test_letters_go_on_past_z() -> None:
    assert [hex_letter(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA",
    ]  # fmt: skip


@pytest.mark.parametrize("board", ["hex19", "hex30", "hex44"])
def test_reading_order_and_unique_names(board: str) -> None:
    """IR-9's three boards: every label once; A is the top-left hex, 1 the top-left point."""
    topo = topology(board)
    lab = labels(topo)
    assert len(set(lab.hexes)) == topo.num_hexes and len(set(lab.nodes)) == topo.num_nodes
    assert len(set(lab.edges)) == topo.num_edges
    by_letter = sorted(range(topo.num_hexes), key=lambda h: (len(lab.hexes[h]), lab.hexes[h]))
    centres = [topo.hex_xy[h] for h in by_letter]
    assert centres == sorted(centres, key=lambda xy: (xy[1], xy[0]))  # rows top down, then x
    by_number = sorted(range(topo.num_nodes), key=lambda v: int(lab.nodes[v]))
    points = [topo.node_xy[v] for v in by_number]
    assert points == sorted(points, key=lambda xy: (xy[1], xy[0]))
    assert sorted(int(x) for x in lab.nodes) == list(range(1, topo.num_nodes + 1))
    for e, (a, b) in enumerate(topo.edge_nodes):
        low, high = sorted((int(lab.nodes[a]), int(lab.nodes[b])))
        assert lab.edges[e] == f"{low}-{high}"
    if topo.num_hexes > 26:
        assert "AA" in lab.hexes
    assert lab.label("hex", -1) == "-1" and lab.label("node", topo.num_nodes) == str(topo.num_nodes)


def test_built_once_per_topology_value() -> None:
    topo = topology("hex19")
    copy = pickle.loads(pickle.dumps(topo))
    assert copy is not topo and labels(copy) is labels(topo)


def test_the_geometry_carries_the_labels() -> None:
    geo = load_game("island", 4).board_geometry()
    assert geo["labels"] == labels(topology("hex19")).to_json()
    assert geo == drawing_geometry(topology("hex19"))
