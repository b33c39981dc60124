"""The board model: shapes and counts of sheet 1.4, harbor slots, layouts (IR-9..IR-15)."""

from __future__ import annotations

import random

import pytest

from hexfolk.core import load_game
from hexfolk.games.island.board import (
    Layout,
    LayoutError,
    beginner_layouts,
    parse_layout,
    random_layout,
    red_conflict,
    topology,
    validate_layout,
)
from hexfolk.games.island.rules import DESERT, RED_TOKENS


@pytest.mark.parametrize(
    ("board", "hexes", "nodes", "edges", "coast", "harbors"),
    [
        ("hex19", 19, 54, 72, 30, 9),
        ("hex30", 30, 80, 109, 38, 11),
        ("hex44", 44, 112, 155, 46, 13),
    ],
)
def test_sheet_1_4_board_counts(
    board: str, hexes: int, nodes: int, edges: int, coast: int, harbors: int
) -> None:
    geometry = topology(board)
    assert (geometry.num_hexes, geometry.num_nodes, geometry.num_edges) == (hexes, nodes, edges)
    assert len(geometry.coast) == coast
    assert len(geometry.harbor_slots) == harbors
    # every coast edge belongs to one hex; every node touches 1..3 hexes
    assert all(len(geometry.edge_hexes[e]) == 1 for e in geometry.coast)
    assert all(1 <= len(h) <= 3 for h in geometry.node_hexes)


def test_sheet_1_4_44_hex_board_rows() -> None:
    geometry = topology("hex44")
    rows: dict[int, int] = {}
    for _, y in geometry.hex_xy:
        rows[y] = rows.get(y, 0) + 1
    assert [rows[y] for y in sorted(rows)] == [4, 5, 6, 7, 7, 6, 5, 4]


@pytest.mark.parametrize("board", ["hex19", "hex30", "hex44"])
def test_sheet_1_4_harbor_slots_apart(board: str) -> None:
    geometry = topology(board)
    index = [geometry.coast.index(e) for e in geometry.harbor_slots]
    gaps = [(b - a - 1) % len(geometry.coast) for a, b in zip(index, index[1:] + index[:1])]
    assert set(gaps) <= {2, 3}
    nodes = [set(geometry.edge_nodes[e]) for e in geometry.harbor_slots]
    assert all(not (a & b) for i, a in enumerate(nodes) for b in nodes[:i])


def test_topology_is_built_once_per_map() -> None:
    assert topology("hex19") is topology("hex19")
    assert load_game("island", 2).topology is load_game("island", 4).topology


@pytest.mark.parametrize(
    ("players", "board"),
    [(2, "hex19"), (4, "hex19"), (5, "hex30"), (6, "hex30"), (7, "hex44"), (8, "hex44")],
)
def test_ir9_board_by_player_count(players: int, board: str) -> None:
    assert load_game("island", players).board_id == board


def test_sheet_1_2_beginner_layout_follows_spiral() -> None:
    geometry = topology("hex19")
    layout = beginner_layouts("hex19")[0]
    order = [h for h in geometry.spiral() if layout.terrain[h] != DESERT]
    assert [layout.tokens[h] for h in order] == [
        5,
        2,
        6,
        3,
        8,
        10,
        9,
        12,
        11,
        4,
        8,
        10,
        9,
        4,
        5,
        6,
        3,
        11,
    ]
    assert geometry.spiral()[:1] == [0] and geometry.spiral()[-1] == 9  # corner first, centre last
    assert red_conflict(geometry, layout.tokens) is None


@pytest.mark.parametrize("board", ["hex19", "hex30", "hex44"])
def test_ir13_random_layouts_never_put_reds_together(board: str) -> None:
    geometry = topology(board)
    for seed in range(40):
        layout = random_layout(geometry, random.Random(seed))
        validate_layout(geometry, layout)  # IR-10..IR-15 all hold
        assert red_conflict(geometry, layout.tokens) is None
        reds = [h for h, k in enumerate(layout.tokens) if k in RED_TOKENS]
        assert all(b not in geometry.hex_adj[a] for a in reds for b in reds)


def test_ir11_ir15_random_layouts_vary() -> None:
    geometry = topology("hex19")
    layouts = {random_layout(geometry, random.Random(s)) for s in range(10)}
    assert len({x.terrain for x in layouts}) > 1
    assert len({x.harbors for x in layouts}) > 1
    assert len({x.tokens for x in layouts}) > 1


def test_ir13_validation_rejects_adjacent_reds() -> None:
    geometry = topology("hex19")
    layout = beginner_layouts("hex19")[0]
    tokens = list(layout.tokens)
    six = tokens.index(6)
    neighbour = next(a for a in geometry.hex_adj[six] if layout.terrain[a] != DESERT)
    tokens[six], tokens[neighbour] = tokens[neighbour], tokens[six]
    eight = tokens.index(8)
    other = next(a for a in geometry.hex_adj[six] if a != neighbour and tokens[a] not in (0, 6, 8))
    tokens[eight], tokens[other] = tokens[other], tokens[eight]
    bad = Layout(layout.terrain, tuple(tokens), layout.harbors, layout.robber)
    assert red_conflict(geometry, bad.tokens) is not None
    with pytest.raises(LayoutError, match="IR-13"):
        validate_layout(geometry, bad)


def test_ir14_robber_starts_on_the_desert() -> None:
    geometry = topology("hex30")
    for seed in range(10):
        layout = random_layout(geometry, random.Random(seed))
        assert layout.terrain[layout.robber] == DESERT
    good = beginner_layouts("hex19")[0]
    off = Layout(good.terrain, good.tokens, good.harbors, 0)
    with pytest.raises(LayoutError, match="IR-14"):
        validate_layout(topology("hex19"), off)


def test_layout_text_round_trips_and_rejects_bad_counts() -> None:
    geometry = topology("hex44")
    layout = random_layout(geometry, random.Random(3))
    assert parse_layout(layout.text()) == layout
    with pytest.raises(LayoutError):
        validate_layout(topology("hex19"), layout)  # wrong map
    harbors = list(layout.harbors)
    harbors[harbors.index(0)] = 5  # a lumber harbor made generic: the kinds no longer match
    with pytest.raises(LayoutError, match="harbor kinds"):
        validate_layout(
            geometry, Layout(layout.terrain, layout.tokens, tuple(harbors), layout.robber)
        )
    for text in ["", "X1 3 r0", "O10 3q r0", "O10 3 rx"]:
        with pytest.raises(LayoutError):
            parse_layout(text)


def test_ir10_ir12_tokens_only_on_producing_hexes() -> None:
    geometry = topology("hex19")
    good = beginner_layouts("hex19")[0]
    desert = good.terrain.index(DESERT)
    tokens = list(good.tokens)
    tokens[desert] = 5
    with pytest.raises(LayoutError, match="IR-10"):
        validate_layout(geometry, Layout(good.terrain, tuple(tokens), good.harbors, good.robber))
    tokens = list(good.tokens)
    tokens[0] = 0
    with pytest.raises(LayoutError, match="IR-12"):
        validate_layout(geometry, Layout(good.terrain, tuple(tokens), good.harbors, good.robber))
