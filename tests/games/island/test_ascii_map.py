"""The terminal map and action hints show every id a person needs, from the observation only."""

from __future__ import annotations

import re

import pytest

from hexfolk.core import load_game
from hexfolk.core.testing import start_position
from hexfolk.games.island.actions import BuildRoad, BuildSettlement, MoveRobber
from hexfolk.games.island.ascii_map import describe, draw_board
from hexfolk.games.island.board import topology
from hexfolk.games.island.labels import labels


@pytest.mark.parametrize("players", [4, 6, 8])
def test_map_shows_every_intersection_edge_and_hex(players: int) -> None:
    state = start_position(load_game("island", players), 3)
    obs = state.observation(0)
    text = draw_board(obs)
    geometry = topology(obs["board"]["map"])
    words = re.findall(r"[/\\|]?\[?\d+\]?", text.split("harbors:")[0])
    nodes = {int(w) for w in words if w.isdigit()}
    edges = {int(w[1:]) for w in words if w[0] in "/\\|"}
    hexes = {int(w[1:-1]) for w in words if w.startswith("[")}
    assert nodes == set(range(geometry.num_nodes))
    assert edges == set(range(geometry.num_edges))
    assert hexes == set(range(geometry.num_hexes))
    assert text.count("*") == 1  # the robber


def test_map_marks_buildings_and_roads_by_seat() -> None:
    state = start_position(load_game("island", 4), 3, ["settle 12", "road 19"])
    text = draw_board(state.observation(1))
    assert "S0" in text and "r0" in text
    assert not re.search(r"(?<![/\\|\d[A-Z[])12(?![\d\]])", text.split("harbors:")[0])  # built on


def test_hints_name_the_hexes_a_spot_touches() -> None:
    state = start_position(load_game("island", 4), 3)
    obs = state.observation(0)
    geometry = topology(obs["board"]["map"])
    hint = describe(obs, BuildSettlement(12))
    assert hint.startswith("touches ")
    # the hexes by terrain and number ("touches fields 10, forest 8 and hills 5", issue 17)
    hexes = hint.removeprefix("touches ").split(";")[0]
    assert len(re.split(r", | and ", hexes)) == len(geometry.node_hexes[12])
    assert all(re.fullmatch(r"[a-z]+( \d+)?", h) for h in re.split(r", | and ", hexes))
    a, b = geometry.edge_nodes[19]
    places = labels(geometry)  # spots by their board labels (docs/log.md)
    spot_a, spot_b = places.label("node", a), places.label("node", b)
    assert describe(obs, BuildRoad(19)) == f"from spot {spot_a} to spot {spot_b}"
    assert describe(obs, MoveRobber(0)).startswith("hex A, ")
    assert "buildings of nobody" in describe(obs, MoveRobber(0))
