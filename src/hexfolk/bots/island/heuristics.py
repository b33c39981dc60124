"""Island heuristics shared by every level: where to settle, what to build next (the build
*target* of IR-76), which road leads somewhere, and the robber table of IR-77.

All functions read a :class:`~hexfolk.bots.island.view.Pos` only. The rules they need come from
the engine's public read API (the functions the engine itself uses): the distance rule and where
a settlement or road may go (:mod:`hexfolk.games.island.building`), what the hexes pay
(:mod:`hexfolk.games.island.production`); the bots only weigh them (pips, resource weights).
"""

from __future__ import annotations

from dataclasses import dataclass

from hexfolk.bots.island.view import CONFIG, Pos, production
from hexfolk.games.island.building import distance_rule_allows, network_nodes, open_spots
from hexfolk.games.island.production import hex_income, hex_pips, node_yields
from hexfolk.games.island.rules import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    DICE_PIPS,
    GENERIC,
    NRES,
    RESOURCES,
)

_W = CONFIG["resource_weights"]
RES_WEIGHT: tuple[float, ...] = tuple(float(_W[r]) for r in RESOURCES)
_PL = CONFIG["placement"]
_TG = CONFIG["targets"]

COSTS: dict[str, tuple[int, ...]] = {
    "city": COST_CITY,
    "settlement": COST_SETTLEMENT,
    "road": COST_ROAD,
    "development": COST_DEV,
}


def shortfall(hand: list[int] | tuple[int, ...], cost: tuple[int, ...]) -> int:
    """S: the cards ``hand`` lacks to pay ``cost`` (IR-76 model)."""
    return sum(c - h for h, c in zip(hand, cost) if c > h)


@dataclass(frozen=True, slots=True)
class Target:
    """A bot's build target: what it saves for, its cost and (for builds) where."""

    kind: str
    cost: tuple[int, ...]
    where: int = -1

    def shortfall(self, hand: list[int] | tuple[int, ...]) -> int:
        return shortfall(hand, self.cost)


# --- the board -------------------------------------------------------------------------------
def is_free(pos: Pos, v: int) -> bool:
    """True if a settlement may stand on node ``v`` by the distance rule (IR-19): the
    engine's own rule (:func:`~hexfolk.games.island.building.distance_rule_allows`)."""
    return distance_rule_allows(pos.topology, pos.node_owner, v)


def node_resources(pos: Pos, v: int) -> list[float]:
    """Pips per resource that a settlement on ``v`` would collect (the engine's
    :func:`~hexfolk.games.island.production.node_yields`, each weighted by its token's pips)."""
    out = [0.0] * NRES
    if pos.layout_tables is None:
        return out
    for y in node_yields(pos.layout_tables)[v]:
        out[y.resource] += DICE_PIPS[y.token]
    return out


def node_value(pos: Pos, v: int, have: list[float] | None = None) -> float:
    """How good a settlement on ``v`` is for the seat: weighted pips, new resources, harbor."""
    res = node_resources(pos, v)
    if have is None:
        have = production(pos, pos.seat, with_robber=False)
    value = 0.0
    for r in range(NRES):
        if res[r]:
            w = RES_WEIGHT[r] * (_PL["missing_resource_factor"] if have[r] == 0 else 1.0)
            value += res[r] * w
            if have[r] == 0:
                value += _PL["new_resource_bonus"]
    tables = pos.layout_tables
    if tables is not None:
        kind = tables.node_harbor[v]
        if kind == GENERIC:
            value += _PL["generic_harbor"]
        elif kind >= 0:
            value += _PL["resource_harbor"] * (1.0 + (have[kind] + res[kind]) / 6.0)
    return value


def own_nodes(pos: Pos, p: int) -> list[int]:
    """Nodes with a building of ``p``."""
    return [v for v, o in enumerate(pos.node_owner) if o == p]


def settle_spots(pos: Pos, p: int) -> list[int]:
    """Free nodes touching one of ``p``'s roads (IR-57): the engine's
    :func:`~hexfolk.games.island.building.open_spots`."""
    return open_spots(pos.topology, pos.node_owner, pos.roads_of(p))


def road_scores(pos: Pos) -> dict[int, float]:
    """Value of each empty edge next to the seat's network: the best spot it leads to
    (one or two roads away), discounted by distance."""
    p = pos.seat
    topology = pos.topology
    owner, eo = pos.node_owner, pos.edge_owner
    have = production(pos, p, with_robber=False)
    reach = network_nodes(pos.topology, owner, own_nodes(pos, p), pos.roads_of(p), p)
    cache: dict[int, float] = {}

    def spot(v: int) -> float:
        if v not in cache:
            cache[v] = node_value(pos, v, have) if is_free(pos, v) else 0.0
        return cache[v]

    out: dict[int, float] = {}
    for v in reach:
        for e in topology.node_edges[v]:
            if eo[e] >= 0 or e in out:
                continue
            u = topology.edge_other[e][v]
            best = spot(u)
            if owner[u] < 0:
                for e2 in topology.node_edges[u]:
                    if e2 != e and eo[e2] < 0:
                        w = topology.edge_other[e2][u]
                        best = max(best, 0.55 * spot(w))
            out[e] = best
    return out


# --- targets ---------------------------------------------------------------------------------
def choose_target(pos: Pos) -> Target:
    """The build target (IR-76): the same for every level, from the seat's own view.

    Candidates: a city (a settlement to upgrade), a settlement (a free spot on its roads), a
    road (no spot yet), a development card. Each scores its base value minus its shortfall,
    a missing resource the seat does not even produce counting extra.
    """
    p = pos.seat
    hand = pos.hand
    have = production(pos, p, with_robber=False)
    options: list[tuple[float, Target]] = []

    def score(kind: str, cost: tuple[int, ...]) -> float:
        s = 0.0
        for r in range(NRES):
            if cost[r] > hand[r]:
                miss = cost[r] - hand[r]
                s += miss * (1.0 + (_TG["unproduced_penalty"] if have[r] == 0 else 0.0))
        return float(_TG[kind]) - _TG["shortfall_cost"] * s

    mine = own_nodes(pos, p)
    settlements = [v for v in mine if pos.node_level[v] == 1]
    if settlements and pos.cities_left[p] > 0:
        best = max(settlements, key=lambda v: (sum(node_resources(pos, v)), -v))
        options.append((score("city", COST_CITY), Target("city", COST_CITY, best)))
    spots = settle_spots(pos, p) if pos.settlements_left[p] > 0 else []
    if spots:
        best = max(spots, key=lambda v: (node_value(pos, v, have), -v))
        options.append(
            (score("settlement", COST_SETTLEMENT), Target("settlement", COST_SETTLEMENT, best))
        )
    elif pos.roads_left[p] > 0 and pos.settlements_left[p] > 0:
        options.append((score("road", COST_ROAD), Target("road", COST_ROAD)))
    if pos.deck > 0:
        options.append((score("development", COST_DEV), Target("development", COST_DEV)))
    if not options:
        return Target("development", COST_DEV)
    order = {"city": 0, "settlement": 1, "road": 2, "development": 3}
    options.sort(key=lambda x: (-x[0], order[x[1].kind]))
    return options[0][1]


# --- robber ------------------------------------------------------------------------------------
def hex_pips_of(pos: Pos, h: int, p: int) -> int:
    """Pips ``p`` collects from hex ``h`` (cities count twice): the engine's
    :func:`~hexfolk.games.island.production.hex_income` times the hex's pips."""
    tables = pos.layout_tables
    if tables is None:
        return 0
    pips = hex_pips(tables, h)
    if not pips:
        return 0
    return pips * hex_income(tables, pos.node_owner, pos.node_level, h).get(p, 0)


def has_own_building(pos: Pos, h: int) -> bool:
    return any(pos.node_owner[v] == pos.seat for v in pos.topology.hex_nodes[h])
