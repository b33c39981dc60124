"""Building island positions for scenario tests (beginner board, pieces placed directly)."""

from __future__ import annotations

import itertools
from typing import Any

from hexfolk.core import load_game
from hexfolk.games.island import actions as A
from hexfolk.games.island.board import beginner_layouts
from hexfolk.games.island.building import after_settlement, award_longest_road, place_settlement
from hexfolk.games.island.roads import road_length
from hexfolk.games.island.rules import NRES
from hexfolk.games.island.state import IslandState


def fresh(players: int = 4, **options: Any) -> IslandState:
    """A state on the beginner board right after the layout, setup skipped: seat 0's main
    phase of turn 1 (already rolled), no pieces, empty hands, full bank. Built as a position
    document (``IslandGame.load_position``), not by setting the state's fields."""
    options.setdefault("board", "beginner")
    game = load_game("island", players, options)
    state = game.new_initial_state()
    layout = beginner_layouts(game.board_id)[0]
    state.apply(A.LayoutOutcome(layout))
    doc = state.position()
    doc["turn"].update(phase="main", seat=0, active=0, number=1, rolled=True)
    doc["prompt"] = {"kind": "main", "seat": 0}
    loaded = game.load_position(doc)
    assert isinstance(loaded, IslandState)
    return loaded


def give(state: IslandState, seat: int, cards: str) -> None:
    """Move cards (``"2l 1o"``) from the bank to ``seat``'s hand."""
    bundle = A.parse_bundle(cards.split(), "give")
    for r in range(NRES):
        state.hands[seat][r] += bundle[r]
        state.bank[r] -= bundle[r]


def hand(state: IslandState, seat: int) -> str:
    return A.bundle_text(tuple(state.hands[seat]))


def settle(state: IslandState, seat: int, node: int, city: bool = False) -> None:
    """Put a settlement (or city) of ``seat`` on ``node`` for free (breaks roads as usual)."""
    place_settlement(state, seat, node)
    if city:
        state.node_level[node] = 2
        state.settlements_left[seat] += 1
        state.cities_left[seat] -= 1
    after_settlement(state, seat, node)


def road(state: IslandState, seat: int, *edges: int) -> None:
    """Put roads of ``seat`` on ``edges`` for free, updating Longest Road as the game does."""
    for e in edges:
        state.edge_owner[e] = seat
        state.roads[seat].append(e)
        state.roads_left[seat] -= 1
        old = state.road_length[:]
        state.road_length[seat] = road_length(
            state.topology, state.edge_owner, state.node_owner, state.roads[seat], seat
        )
        award_longest_road(state, old)


def edge(state: IslandState, a: int, b: int) -> int:
    """The edge id between nodes ``a`` and ``b``."""
    for e in state.topology.node_edges[a]:
        if b in state.topology.edge_nodes[e]:
            return e
    raise ValueError(f"nodes {a} and {b} are not adjacent")


def path(state: IslandState, nodes: list[int]) -> list[int]:
    """Edge ids along consecutive nodes."""
    return [edge(state, a, b) for a, b in itertools.pairwise(nodes)]


def coast_nodes(state: IslandState, count: int, start: int = 0) -> list[int]:
    """``count`` consecutive nodes along the coast walk (a simple path of count-1 edges)."""
    topology = state.topology
    walk = topology.coast
    first = walk[start]
    second = walk[start + 1]
    a, b = topology.edge_nodes[first]
    v = b if b in topology.edge_nodes[second] else a
    nodes = [a if v == b else b, v]
    for e in walk[start + 1 : start + count - 1]:
        v = topology.edge_other[e][v]
        nodes.append(v)
    return nodes


def texts(state: IslandState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def do(state: IslandState, *actions: str) -> None:
    """Apply action texts (parsed against the state, so illegal ones raise)."""
    for text in actions:
        state.apply(state.parse_action(text))
