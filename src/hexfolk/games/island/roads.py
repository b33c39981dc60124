"""Longest Road (IR-66..IR-71): trail length and the award's hand-over rules."""

from __future__ import annotations

from collections.abc import Sequence

from hexfolk.games.island.board import Topology
from hexfolk.games.island.rules import LONGEST_ROAD_MIN


def road_length(
    topo: Topology,
    edge_owner: Sequence[int],
    node_owner: Sequence[int],
    roads: Sequence[int],
    player: int,
) -> int:
    """Segments in the longest edge-simple trail of ``player``'s roads (IR-66).

    Another player's building on a node breaks the road there: a trail may end at it but not
    pass through (IR-67); the player's own buildings never break it.
    """
    if not roads:
        return 0
    node_edges = topo.node_edges
    other = topo.edge_other
    best = 0

    def walk(v: int, used: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if length and node_owner[v] >= 0 and node_owner[v] != player:
            return  # IR-67: the trail may end here but not pass through
        for e in node_edges[v]:
            if edge_owner[e] == player and not (used >> e) & 1:
                walk(other[e][v], used | (1 << e), length + 1)

    degree: dict[int, int] = {}
    for e in roads:
        for v in topo.edge_nodes[e]:
            degree[v] = degree.get(v, 0) + 1
    # A longest trail can be taken to start at a node of odd degree (else it could be extended
    # at its start), where a blocked node counts as one end per road; only a component whose
    # nodes all have even degree needs a start elsewhere (any node of it).
    starts = [
        v
        for v in sorted(degree)
        if degree[v] % 2 or (node_owner[v] >= 0 and node_owner[v] != player)
    ]
    covered = _reach(topo, edge_owner, node_owner, player, starts)
    for e in roads:
        if e not in covered:
            v = topo.edge_nodes[e][0]
            starts.append(v)
            covered |= _reach(topo, edge_owner, node_owner, player, [v])
    for v in starts:
        walk(v, 0, 0)
        if best == len(roads):
            break
    return best


def road_network(
    topo: Topology, edge_owner: Sequence[int], node_owner: Sequence[int], player: int, edge: int
) -> set[int]:
    """The player's roads connected to ``edge`` (not through another player's building)."""
    return _reach(topo, edge_owner, node_owner, player, list(topo.edge_nodes[edge]))


def _reach(
    topo: Topology,
    edge_owner: Sequence[int],
    node_owner: Sequence[int],
    player: int,
    starts: list[int],
) -> set[int]:
    """Own edges reachable from ``starts`` without passing through another's building."""
    seen: set[int] = set()
    stack = list(starts)
    visited = set(starts)
    while stack:
        v = stack.pop()
        for e in topo.node_edges[v]:
            if edge_owner[e] == player and e not in seen:
                seen.add(e)
                u = topo.edge_other[e][v]
                if u not in visited and not (node_owner[u] >= 0 and node_owner[u] != player):
                    visited.add(u)
                    stack.append(u)
    return seen


def award_after_change(holder: int, old: Sequence[int], new: Sequence[int]) -> int:
    """Who holds Longest Road after lengths change from ``old`` to ``new`` (-1: nobody).

    IR-68: the first player alone at the maximum with at least 5 receives it. IR-69: another
    player takes it only with a strictly longer road. IR-70: when the holder's road got shorter
    (a break), recompute: nobody at 5 → set aside; the holder still at the maximum (even tied)
    keeps it; exactly one player at the maximum takes it; otherwise set aside. A card set aside
    goes to the first player alone at the maximum with at least 5.
    """
    top = max(new) if new else 0
    if holder >= 0:
        if new[holder] < old[holder]:  # IR-70: a break shortened the holder's road
            if top < LONGEST_ROAD_MIN:
                return -1
            if new[holder] == top:
                return holder
            leaders = [p for p, x in enumerate(new) if x == top]
            return leaders[0] if len(leaders) == 1 else -1
        longer = [p for p, x in enumerate(new) if x > new[holder]]
        if not longer:
            return holder
        best = max(new[p] for p in longer)
        leaders = [p for p in longer if new[p] == best]
        return leaders[0] if len(leaders) == 1 else holder
    if top >= LONGEST_ROAD_MIN:
        leaders = [p for p, x in enumerate(new) if x == top]
        if len(leaders) == 1:
            return leaders[0]
    return -1
