"""The hard bot's fast rollout policy, for sampled worlds only (reads the world's fields and
the engine's public functions: :func:`~hexfolk.games.island.building.settlement_spots`, the
distance rule, the layout's ``node_pips``).

Main phase: a city on the richest settlement, a settlement on the richest spot, a road
towards a spot when none is reachable, a development card with spare wool/grain/ore, a
maritime trade for a card the next build lacks, else end. No player trades.
"""

from __future__ import annotations

import random
from typing import cast

from hexfolk.bots.island import policy
from hexfolk.bots.island.heuristics import COSTS, choose_target
from hexfolk.bots.island.trading import discard
from hexfolk.bots.island.view import pos_from_state
from hexfolk.core import Action, State
from hexfolk.games.island import actions as A
from hexfolk.games.island.building import distance_rule_allows, settlement_spots
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.rules import NRES

_CITY = COSTS["city"]
_SETTLE = COSTS["settlement"]


def _kind(state: State) -> str:
    prompt = state.prompt()
    return prompt.kind if prompt is not None else ""


def _fast_main(st: IslandPosition, p: int, legal: list[Action], rng: random.Random) -> Action:
    assert st.layout_tables is not None  # the main phase comes after the layout
    pips = st.layout_tables.node_pips
    best: Action | None = None
    best_v = -1
    roads: list[A.BuildRoad] = []
    buy = False
    for a in legal:
        t = type(a)
        if t is A.BuildCity:
            assert isinstance(a, A.BuildCity)
            v = 1000 + pips[a.node]
        elif t is A.BuildSettlement:
            assert isinstance(a, A.BuildSettlement)
            v = 500 + pips[a.node]
        elif t is A.BuildRoad:
            assert isinstance(a, A.BuildRoad)
            roads.append(a)
            continue
        elif t is A.BuyDevelopment:
            buy = True
            continue
        else:
            continue
        if v > best_v:
            best, best_v = a, v
    if best is not None:
        return best
    hand = st.hands[p]
    has_settlement = st.cities_left[p] > 0 and any(st.node_level[v] == 1 for v in st.buildings[p])
    want_city = has_settlement and hand[3] + hand[4] >= 3
    if roads and not want_city and st.settlements_left[p] > 0:
        topology = st.topology
        if not settlement_spots(st, p):  # IR-57: no spot on its roads yet
            best_r, best_rv = roads[0], -1
            for a in roads:
                for v in topology.edge_nodes[a.edge]:
                    if st.node_owner[v] < 0:
                        free = distance_rule_allows(topology, st.node_owner, v)
                        val = pips[v] * (2 if free else 1)
                        if val > best_rv:
                            best_r, best_rv = a, val
            return best_r
    if buy and not (want_city and hand[4] < 4):
        return A.BUY
    # maritime: a card the next build lacks, paid with a surplus resource
    cost = _CITY if want_city else _SETTLE
    lack = [r for r in range(NRES) if hand[r] < cost[r]]
    if lack:
        ratio = st.ratio[p]
        for a in legal:
            if type(a) is A.MaritimeTrade:
                assert isinstance(a, A.MaritimeTrade)
                r = max(range(NRES), key=lambda x: a.give[x])
                s = max(range(NRES), key=lambda x: a.get[x])
                if s in lack and hand[r] - ratio[r] >= cost[r]:
                    return a
    return A.END if A.END in legal else legal[0]


def fast_rollout(state: State, legal: list[Action], rng: random.Random) -> Action:
    """Rollout move for the seat to move in a sampled world."""
    if len(legal) == 1:
        return legal[0]
    st = cast(IslandPosition, state)
    p = state.current_player()
    kind = _kind(state)
    if kind == "main":
        return _fast_main(st, p, legal, rng)
    if kind == "pre-roll":
        return A.ROLL
    if kind == "sbp-build":
        return _fast_main(st, p, legal, rng)
    pos = pos_from_state(st, p)
    if kind in ("road-building", "setup-road"):
        return policy.road_building(pos, legal)
    if kind == "robber":
        return policy.robber(pos, legal, "leader", rng)
    if kind == "discard":
        return discard(pos, choose_target(pos), legal, list(st.discard_partial[p]))
    if kind == "setup-settlement":
        return policy.setup_settlement(pos, legal, 1, rng)
    if kind == "answer":
        return next((a for a in legal if type(a) is A.Reject), legal[0])
    if kind == "sbp-signup":
        return policy.sbp_signup(pos)
    return legal[0]
