"""Longest Road (IR-66..IR-71): trail length and the award's hand-over rules."""

from __future__ import annotations

from collections.abc import Sequence

from hexfolk.games.island.board import Topology
from hexfolk.games.island.rules import LONGEST_ROAD_MIN


def road_length(
    topology: Topology,
    edge_owner: Sequence[int],
    node_owner: Sequence[int],
    roads: Sequence[int],
    player: int,
) -> int:
    """Segments in the longest edge-simple trail of ``player``'s roads ``roads`` (IR-66).

    Another player's building on a node breaks the road there: a trail may end at it but not
    pass through (IR-67); the player's own buildings never break it. ``roads`` is all of the
    player's roads or one connected network of them (as :func:`road_network` returns).
    """
    count = len(roads)
    if not count:
        return 0
    edge_nodes = topology.edge_nodes
    # The roads as a small graph: node -> [(bit of the road, node at its other end)].
    adj: dict[int, list[tuple[int, int]]] = {}
    for i, e in enumerate(roads):
        a, b = edge_nodes[e]
        bit = 1 << i
        if a in adj:
            adj[a].append((bit, b))
        else:
            adj[a] = [(bit, b)]
        if b in adj:
            adj[b].append((bit, a))
        else:
            adj[b] = [(bit, a)]
    blocked = {v for v in adj if node_owner[v] >= 0 and node_owner[v] != player}
    # A longest trail can be taken to start at a node of odd degree (else it could be extended
    # at its start), where a blocked node counts as one end per road; only a component whose
    # nodes all have even degree needs a start elsewhere (any node of it).
    starts = [v for v in sorted(adj) if len(adj[v]) % 2 or v in blocked]
    covered = _cover(adj, blocked, starts)
    full = (1 << count) - 1
    if covered != full:
        for i, e in enumerate(roads):
            if not covered >> i & 1:
                v = edge_nodes[e][0]
                starts.append(v)
                covered |= _cover(adj, blocked, [v])
    best = 0
    for s in starts:
        stack = [(s, 0, 0)]
        pop = stack.pop
        push = stack.append
        while stack:
            v, used, length = pop()
            if length > best:
                best = length
            if length and v in blocked:
                continue  # IR-67: the trail may end here but not pass through
            for bit, u in adj[v]:
                if not used & bit:
                    push((u, used | bit, length + 1))
        if best == count:
            break
    return best


def _cover(adj: dict[int, list[tuple[int, int]]], blocked: set[int], starts: list[int]) -> int:
    """Bits of the roads reachable from ``starts`` without passing through a blocked node."""
    seen = 0
    stack = list(starts)
    visited = set(starts)
    while stack:
        v = stack.pop()
        for bit, u in adj[v]:
            seen |= bit
            if u not in visited and u not in blocked:
                visited.add(u)
                stack.append(u)
    return seen


def length_after_road(
    topology: Topology,
    edge_owner: Sequence[int],
    node_owner: Sequence[int],
    player: int,
    edge: int,
    old: int,
) -> int:
    """``player``'s longest road after building ``edge`` (already in ``edge_owner``), given
    its exact length ``old`` before: ``old`` or the longest trail through the new road.

    When the road only extends the network at one end (the usual case) the trails through it
    all start there, so one search from its other end suffices; otherwise the new road's
    whole network is searched (:func:`road_length`).
    """
    a, b = topology.edge_nodes[edge]
    node_edges = topology.node_edges
    on_a = on_b = False
    o = node_owner[a]
    if o < 0 or o == player:  # a trail may go on through a
        on_a = any(f != edge and edge_owner[f] == player for f in node_edges[a])
    o = node_owner[b]
    if o < 0 or o == player:
        on_b = any(f != edge and edge_owner[f] == player for f in node_edges[b])
    if on_a and on_b:
        network = road_network(topology, edge_owner, node_owner, player, edge)
        if len(network) <= old:
            return old
        return max(old, road_length(topology, edge_owner, node_owner, sorted(network), player))
    if not on_a and not on_b:
        return max(old, 1)
    through = 1 + _longest_from(topology, edge_owner, node_owner, player, a if on_a else b, edge)
    return max(old, through)


def _longest_from(
    topology: Topology,
    edge_owner: Sequence[int],
    node_owner: Sequence[int],
    player: int,
    start: int,
    skip: int,
) -> int:
    """The longest trail of ``player``'s roads from ``start`` that does not use ``skip``."""
    node_edges = topology.node_edges
    other = topology.edge_other
    best = 0
    stack = [(start, 1 << skip, 0)]
    pop = stack.pop
    push = stack.append
    while stack:
        v, used, length = pop()
        if length:
            if length > best:
                best = length
            o = node_owner[v]
            if o >= 0 and o != player:
                continue  # IR-67: the trail may end here but not pass through
        for f in node_edges[v]:
            if edge_owner[f] == player and not used >> f & 1:
                push((other[f][v], used | 1 << f, length + 1))
    return best


def road_network(
    topology: Topology, edge_owner: Sequence[int], node_owner: Sequence[int], player: int, edge: int
) -> set[int]:
    """The player's roads connected to ``edge`` (not through another player's building)."""
    return _reach(topology, edge_owner, node_owner, player, list(topology.edge_nodes[edge]))


def _reach(
    topology: Topology,
    edge_owner: Sequence[int],
    node_owner: Sequence[int],
    player: int,
    starts: list[int],
) -> set[int]:
    """Own edges reachable from ``starts`` without passing through another's building."""
    node_edges = topology.node_edges
    edge_other = topology.edge_other
    seen: set[int] = set()
    stack = list(starts)
    visited = set(starts)
    while stack:
        v = stack.pop()
        for e in node_edges[v]:
            if edge_owner[e] == player and e not in seen:
                seen.add(e)
                u = edge_other[e][v]
                if u not in visited:
                    o = node_owner[u]
                    if o < 0 or o == player:
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
