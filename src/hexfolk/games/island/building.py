"""Building (IR-56..IR-59, IR-66..IR-71): roads, settlements, cities, and Longest Road.

Where a seat may build is :func:`road_spots` (IR-56) and :func:`settlement_spots` (IR-57),
memoized per seat in ``build_cache`` (shared by clones, replaced on every change). Their rules
are public functions over the board's plain lists, for bots and tools as for the engine:
:func:`distance_rule_allows` (IR-19), :func:`open_spots` (IR-19, IR-20, IR-57),
:func:`network_nodes` (IR-56), and the maritime ratios a building on a harbor gives,
:func:`with_harbor` and :func:`harbor_ratios` (IR-52, IR-53). A new
settlement can break other players' roads (IR-67, :func:`after_settlement`); Longest Road
follows every change of the trails (:func:`award_longest_road`, :mod:`.roads`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hexfolk.core import Action
from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import trade_table
from hexfolk.games.island.board import LayoutTables, Topology
from hexfolk.games.island.hands import pay
from hexfolk.games.island.phases import ANSWER, MAIN, SPECIAL_BUILD
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.production import touch_income
from hexfolk.games.island.roads import award_after_change, length_after_road, road_length
from hexfolk.games.island.rules import (
    BANK_RATIO,
    COST_CITY,
    COST_ROAD,
    COST_SETTLEMENT,
    GENERIC,
    GENERIC_RATIO,
    NRES,
    RESOURCE_HARBOR_RATIO,
)
from hexfolk.games.island.stats import (
    F_BUILT,
    L_CITY,
    L_ROAD,
    L_SETTLE,
    PER_SEAT,
    SEATS_AT,
)
from hexfolk.games.island.turn import check_win


def distance_rule_allows(topology: Topology, node_owner: Sequence[int], v: int) -> bool:
    """IR-19/IR-57, the distance rule: a settlement may stand on ``v`` only when ``v`` and
    every neighbouring intersection are empty (the engine keeps the answer per node in
    ``free``; bots and positions ask this function)."""
    if node_owner[v] >= 0:
        return False
    return all(node_owner[u] < 0 for u in topology.node_adj[v])


def open_spots(
    topology: Topology,
    node_owner: Sequence[int],
    roads: Iterable[int] | None = None,
    *,
    free: Sequence[bool] | None = None,
) -> list[int]:
    """Intersections where a settlement may stand, sorted. In setup (``roads`` None): every
    one the distance rule allows (IR-19; no road needed, IR-20). After setup: those at an end
    of one of the seat's ``roads`` (its edges) that the distance rule allows (IR-57).

    ``free`` is :func:`distance_rule_allows` per node when the caller keeps it (the engine's
    ``free`` list); otherwise the rule is asked here."""
    edge_nodes = topology.edge_nodes
    if free is not None:
        if roads is None:
            return [v for v, ok in enumerate(free) if ok]
        return sorted({v for e in roads for v in edge_nodes[e] if free[v]})
    near = range(topology.num_nodes) if roads is None else {v for e in roads for v in edge_nodes[e]}
    return sorted(v for v in near if distance_rule_allows(topology, node_owner, v))


def network_nodes(
    topology: Topology,
    node_owner: Sequence[int],
    buildings: Iterable[int],
    roads: Iterable[int],
    seat: int,
) -> set[int]:
    """IR-56: the intersections a new road of ``seat`` may start from: its ``buildings`` and
    the ends of its ``roads`` (its edges), except ends that hold another player's building (a
    road cannot connect through it)."""
    edge_nodes = topology.edge_nodes
    nodes = set(buildings)
    for e in roads:
        for v in edge_nodes[e]:
            o = node_owner[v]
            if o < 0 or o == seat:
                nodes.add(v)
    return nodes


def with_harbor(ratio: Sequence[int], kind: int) -> list[int]:
    """IR-52, IR-53: the maritime ratios ``ratio`` (per resource) after a building on a
    harbor of ``kind``: a generic harbor trades every resource at 3:1, a resource's harbor
    that resource at 2:1 (-1, no harbor: unchanged). A new list."""
    out = list(ratio)
    if kind == GENERIC:
        for r in range(NRES):
            out[r] = min(out[r], GENERIC_RATIO)
    elif kind >= 0:
        out[kind] = min(out[kind], RESOURCE_HARBOR_RATIO)
    return out


def harbor_ratios(layout_tables: LayoutTables, node_owner: Sequence[int], seat: int) -> list[int]:
    """IR-52, IR-53: ``seat``'s maritime ratios from its buildings on harbors (4:1 for every
    resource without one), :func:`with_harbor` for each of them."""
    ratio = [BANK_RATIO] * NRES
    harbor = layout_tables.node_harbor
    for v, o in enumerate(node_owner):
        if o == seat and harbor[v] >= 0:
            ratio = with_harbor(ratio, harbor[v])
    return ratio


def builds(s: IslandPosition, p: int, out: list[Action]) -> None:
    """Append the builds and the purchase ``p`` can afford (IR-56..IR-59; the main
    phase's and the special build phase's listings)."""
    hand = s.hands[p]
    lumber, brick, wool, grain, ore = hand
    if lumber and brick:
        if s.roads_left[p]:
            out.extend(road_actions(s, p))
        if wool and grain and s.settlements_left[p]:
            out.extend(settlement_actions(s, p))
    if grain >= 2 and ore >= 3 and s.cities_left[p]:
        level = s.node_level
        cities = s.acts.city
        out.extend([cities[v] for v in sorted(s.buildings[p]) if level[v] == 1])
    if wool and grain and ore and any(s.deck):
        out.append(A.BUY)


def road_actions(s: IslandPosition, p: int) -> tuple[Action, ...]:
    """:meth:`_road_edges` as actions, cached in :attr:`build_cache`."""
    sig = sum(s.roads_left)
    hit = s.build_cache.get(p)
    if hit is not None and hit[0] == sig:
        return hit[1]
    roads = s.acts.road
    acts = tuple(roads[e] for e in road_spots(s, p))
    s.build_cache[p] = (sig, acts)
    return acts


def settlement_actions(s: IslandPosition, p: int) -> tuple[Action, ...]:
    """:meth:`_settle_nodes` as actions, cached in :attr:`build_cache`."""
    sig = sum(s.roads_left)
    hit = s.build_cache.get(p + 8)
    if hit is not None and hit[0] == sig:
        return hit[1]
    settles = s.acts.settlement
    acts = tuple(settles[v] for v in settlement_spots(s, p))
    s.build_cache[p + 8] = (sig, acts)
    return acts


def road_spots(s: IslandPosition, p: int) -> list[int]:
    """Empty edges where ``p`` may build a road (IR-56), sorted: the empty edges at
    :func:`network_nodes`."""
    eo = s.edge_owner
    node_edges = s.topology.node_edges
    nodes = network_nodes(s.topology, s.node_owner, s.buildings[p], s.roads[p], p)
    found = {e for v in nodes for e in node_edges[v] if eo[e] < 0}
    return sorted(found)


def settlement_spots(s: IslandPosition, p: int) -> list[int]:
    """Nodes where ``p`` may build a settlement after setup (IR-57): :func:`open_spots` at
    ``p``'s roads."""
    return open_spots(s.topology, s.node_owner, s.roads[p], free=s.free)


def place_settlement(s: IslandPosition, p: int, v: int) -> None:
    """Put ``p``'s settlement on node ``v`` (paid or free): the distance rule closes ``v`` and
    its neighbours (IR-19, IR-57); a harbor improves ``p``'s maritime ratios (IR-52, IR-53)."""
    s.node_owner[v] = p
    s.node_level[v] = 1
    touch_income(s, v)
    # new dicts every time, even when empty: an empty memo may be shared with clones too
    s.robber_cache = {}
    s.build_cache = {}
    s.free[v] = False
    for u in s.topology.node_adj[v]:
        s.free[u] = False
    buildings = s.buildings[:]  # copy-on-write (shared with clones)
    buildings[p] = [*buildings[p], v]
    s.buildings = buildings
    s.settlements_left[p] -= 1
    assert s.layout_tables is not None
    kind = s.layout_tables.node_harbor[v]
    if kind >= 0:
        ratio = with_harbor(s.ratio[p], kind)  # a new list: the old one is shared with clones
        ratios = s.ratio[:]
        ratios[p] = ratio
        s.ratio = ratios
        caches = s.trade_cache[:]
        caches[p] = trade_table(tuple(ratio), s.n > 1)
        s.trade_cache = caches


def after_settlement(s: IslandPosition, p: int, v: int) -> None:
    """IR-67/IR-70: a settlement on ``v`` may break other players' roads through ``v``;
    their lengths and Longest Road follow."""
    # IR-67/IR-70: a settlement may break other players' roads through v
    eo = s.edge_owner
    hit = sorted({eo[e] for e in s.topology.node_edges[v] if eo[e] >= 0 and eo[e] != p})
    for q in hit:
        if sum(1 for e in s.topology.node_edges[v] if eo[e] == q) >= 2:
            old = s.road_length[:]
            s.road_length[q] = road_length(s.topology, eo, s.node_owner, s.roads[q], q)
            award_longest_road(s, old)


def build_settlement(s: IslandPosition, seat: int, a: A.BuildSettlement) -> None:
    """IR-57: pay a settlement's cost and build it (it may break others' roads, IR-67)."""
    p = seat
    v = a.node
    pay(s, p, COST_SETTLEMENT, L_SETTLE)
    place_settlement(s, p, v)
    s.stats[SEATS_AT + p * PER_SEAT + F_BUILT + 1] += 1
    s.log.append((None, ("settlement", p, v)))
    after_settlement(s, p, v)
    check_win(s)


def build_road(s: IslandPosition, seat: int, a: A.BuildRoad) -> None:
    """IR-56: pay a road's cost (in the main phase and a special build slot) and build it."""
    if s.phase in (MAIN, ANSWER, SPECIAL_BUILD):
        pay(s, seat, COST_ROAD, L_ROAD)
    place_road(s, seat, a.edge)
    check_win(s)


def place_road(s: IslandPosition, p: int, e: int) -> None:
    """Put ``p``'s road on edge ``e`` (paid or free) and update Longest Road (IR-66)."""
    s.edge_owner[e] = p
    s.roads[p].append(e)
    s.roads_left[p] -= 1
    s.build_cache = {}  # replaced, never cleared: clones may share it (see income)
    s.stats[SEATS_AT + p * PER_SEAT + F_BUILT] += 1
    s.log.append((None, ("road", p, e)))
    # only trails through the new road can be longer than before (IR-66)
    before = s.road_length[p]
    grown = length_after_road(s.topology, s.edge_owner, s.node_owner, p, e, before)
    if grown > before:
        old = s.road_length[:]
        s.road_length[p] = grown
        award_longest_road(s, old)


def award_longest_road(s: IslandPosition, old: list[int]) -> None:
    """IR-68..IR-71: after road lengths changed from ``old``, who holds Longest Road."""
    if not s.game.options["longest_road"]:
        return
    holder = award_after_change(s.longest_road, old, s.road_length)
    if holder != s.longest_road:
        if holder >= 0:
            s.log.append((None, ("longest", holder, s.road_length[holder])))
        else:
            s.log.append((None, ("longest_aside",)))
        s.longest_road = holder


def build_city(s: IslandPosition, seat: int, a: A.BuildCity) -> None:
    """IR-58: pay a city's cost and upgrade a settlement (which returns to the supply)."""
    p = seat
    pay(s, p, COST_CITY, L_CITY)
    s.node_level[a.node] = 2
    touch_income(s, a.node)
    s.settlements_left[p] += 1  # IR-58: the settlement returns to supply
    s.cities_left[p] -= 1
    s.stats[SEATS_AT + p * PER_SEAT + F_BUILT + 2] += 1
    s.log.append((None, ("city", p, a.node)))
    check_win(s)
