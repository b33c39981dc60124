"""The island heuristic policy: a ranking of the legal actions for every prompt kind.

Used directly by the easy and medium bots (on the seat's observation), and by the hard bot
for its non-search prompts, its tree's candidate moves and its rollouts (on sampled worlds;
no player trades there).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hexfolk.bots.island.heuristics import (
    COSTS,
    Target,
    choose_target,
    has_own_building,
    hex_pips_of,
    node_resources,
    node_value,
    road_scores,
    shortfall,
)
from hexfolk.bots.island.trading import effect, maritime, missing
from hexfolk.bots.island.view import Pos, production
from hexfolk.core import Action
from hexfolk.games.island import actions as A
from hexfolk.games.island.roads import road_length
from hexfolk.games.island.rules import LARGEST_ARMY_MIN, LONGEST_ROAD_MIN, NRES

SHED_SCORE = 1.0
"""A development card bought only to shed cards: above ending the turn (0), below any road."""

RACE_SCORES = {"take": 95.0, "defend": 42.0, "two": 41.0}
"""Longest Road race (hard): a road that takes the award now ranks between a settlement and a
city (it is worth 2 VP); one that keeps a threatened award or leaves the seat one road short
of taking it ranks with a road to a good spot."""


def setup_spots(pos: Pos, legal: Sequence[Action]) -> list[A.BuildSettlement]:
    """The listed setup settlements, best first by :func:`node_value` (ties: lower node)."""
    have = production(pos, pos.seat, with_robber=False)
    spots = [a for a in legal if isinstance(a, A.BuildSettlement)]
    spots.sort(key=lambda a: (-node_value(pos, a.node, have), a.node))
    return spots


def setup_settlement(pos: Pos, legal: Sequence[Action], top: int, rng: random.Random) -> Action:
    """Best setup spot by :func:`node_value` (``top`` > 1: a random one of the best ``top``)."""
    spots = setup_spots(pos, legal)
    if top > 1:
        return spots[int(rng.random() * min(top, len(spots)))]
    return spots[0]


def best_road(pos: Pos, legal: Sequence[Action]) -> tuple[float, Action | None]:
    """The listed road leading to the best spot, with its score (0 if it leads nowhere)."""
    roads = [a for a in legal if isinstance(a, A.BuildRoad)]
    if not roads:
        return 0.0, None
    scores = road_scores(pos)
    best = max(roads, key=lambda a: (scores.get(a.edge, 0.0), -a.edge))
    return scores.get(best.edge, 0.0), best


def road_race(pos: Pos, legal: Sequence[Action]) -> tuple[float, Action] | None:
    """The listed road that lengthens the seat's longest road most, scored by
    :data:`RACE_SCORES` when the race for Longest Road (IR-66..IR-71) makes it worth building:
    it takes the award now (reaches the minimum and beats every other road), or the seat holds
    the award and an opponent is within one segment, or one more road would take it. None when
    no road lengthens the trail or none of these holds."""
    roads = [a for a in legal if isinstance(a, A.BuildRoad)]
    if not roads:
        return None
    me = pos.seat
    mine = [e for e, o in enumerate(pos.edge_owner) if o == me]
    current = pos.road_length[me]
    others = max(pos.road_length[q] for q in range(pos.n) if q != me)
    edge_owner = list(pos.edge_owner)
    best_len, best = current, roads[0]
    for a in roads:
        edge_owner[a.edge] = me
        length = road_length(pos.topology, edge_owner, pos.node_owner, [*mine, a.edge], me)
        edge_owner[a.edge] = -1
        if length > best_len:
            best_len, best = length, a
    if best_len <= current:
        return None
    holder = pos.longest_road
    if holder != me and best_len >= LONGEST_ROAD_MIN and best_len > others:
        return RACE_SCORES["take"], best
    if holder == me and others >= current - 1:
        return RACE_SCORES["defend"], best
    if (
        holder != me
        and best_len + 1 >= LONGEST_ROAD_MIN
        and best_len + 1 > others
        and pos.roads_left[me] >= 2
    ):
        return RACE_SCORES["two"], best
    return None


def pre_roll(pos: Pos, legal: Sequence[Action]) -> Action:
    """Play a knight first when the robber sits on own production or it wins the army."""
    if A.PLAY_KNIGHT in legal and knight_worth(pos):
        return A.PLAY_KNIGHT
    return A.ROLL


def knight_worth(pos: Pos) -> bool:
    me = pos.seat
    if pos.robber >= 0 and hex_pips_of(pos, pos.robber, me) > 0:
        return True
    k = pos.knights[me] + 1
    holder = pos.largest_army
    return holder != me and k >= LARGEST_ARMY_MIN and (holder < 0 or k > pos.knights[holder])


def robber(pos: Pos, legal: Sequence[Action], style: str, rng: random.Random) -> Action:
    """The robber table of IR-77: ``random`` (a random legal hex without own buildings),
    ``leader`` (block the most pips of the visible leader), ``leader+steal`` (the leader's
    blocked pips plus the value of the steal, own pips counted against)."""
    moves = [a for a in legal if isinstance(a, A.MoveRobber)]
    if len(moves) == 1:
        return moves[0]
    safe = [a for a in moves if a.hex < 0 or not has_own_building(pos, a.hex)]
    pool = safe or moves
    if style == "random":
        return pool[int(rng.random() * len(pool))]
    leader = pos.top_opponent()
    if style == "leader":

        def key1(a: A.MoveRobber) -> tuple[float, ...]:
            if a.hex < 0:
                return (-1.0,)
            lead = hex_pips_of(pos, a.hex, leader)
            others = sum(hex_pips_of(pos, a.hex, q) for q in range(pos.n) if q != pos.seat)
            return (lead, a.victim == leader, others, -a.hex, -a.victim)

        return max(pool, key=key1)

    def key2(a: A.MoveRobber) -> tuple[float, ...]:
        if a.hex < 0:
            return (-100.0,)
        value = 0.0
        for q in range(pos.n):
            if q == pos.seat:
                value -= 1.5 * hex_pips_of(pos, a.hex, q)
            else:
                value += (1.0 if q == leader else 0.35) * hex_pips_of(pos, a.hex, q)
        if a.victim >= 0:
            cards = pos.cards[a.victim]
            value += 4.0 * min(cards, 6) / 6.0 * (1.25 if a.victim == leader else 1.0)
        return (value, -a.hex, -a.victim)

    return max(moves, key=key2)


def rank_main(
    pos: Pos,
    legal: Sequence[Action],
    target: Target | None = None,
    *,
    sbp: bool = False,
    shed: bool = False,
    race: bool = False,
) -> list[tuple[float, Action]]:
    """Scored candidate moves of the main phase (no player trades), best first.

    Builds: a city, a settlement on the best spot, a road towards a good spot, a development
    card; a development card to play; a maritime trade with g >= 1 (IR-76); end the turn.
    With ``shed`` (hard), a hand above the discard limit buys a development card rather than
    end the turn exposed to a 7, even when the card does not serve the target. With ``race``
    (hard), a road that matters for Longest Road is added (:func:`road_race`).
    """
    if target is None:
        target = choose_target(pos)
    me = pos.seat
    hand = pos.hand
    s_now = target.shortfall(hand)
    out: list[tuple[float, Action]] = []
    have: list[float] | None = None
    road_done = False
    for a in legal:
        t = type(a)
        if t is A.BuildCity:
            assert isinstance(a, A.BuildCity)
            out.append((100.0 + sum(node_resources(pos, a.node)), a))
        elif t is A.BuildSettlement:
            assert isinstance(a, A.BuildSettlement)
            if have is None:
                have = production(pos, me, with_robber=False)
            out.append((90.0 + node_value(pos, a.node, have), a))
        elif t is A.BuildRoad and not road_done:
            road_done = True
            listed = len(out)
            score, road = best_road(pos, legal)
            if road is None:
                continue
            after = [h - c for h, c in zip(hand, COSTS["road"])]
            keeps = shortfall(after, target.cost) <= s_now
            if target.kind == "road":
                out.append((60.0 + score, road))
            elif keeps and score > 0 and pos.settlements_left[me] > 0:
                out.append((40.0 + score, road))
            elif keeps and pos.roads_left[me] > 3:
                out.append((5.0 + score / 10.0, road))
            if race:
                raced = road_race(pos, legal)
                if raced is not None and len(out) > listed and out[-1][1] == raced[1]:
                    out[-1] = max(out[-1], raced, key=lambda x: x[0])  # one entry per road
                elif raced is not None:
                    out.append(raced)
        elif t is A.BuyDevelopment:
            after = [h - c for h, c in zip(hand, COSTS["development"])]
            if target.kind == "development":
                out.append((50.0, a))
            elif shortfall(after, target.cost) <= s_now:
                out.append((30.0, a))
            elif shed and sum(hand) > pos.discard_limit:
                out.append((SHED_SCORE, a))
        elif t is A.PlayKnight:
            out.append((70.0 if knight_worth(pos) else 3.0, a))
        elif t is A.PlayRoadBuilding:
            if target.kind in ("road", "settlement") or pos.settlements_left[me] > 0:
                score, road = best_road(pos, [A.BuildRoad(e) for e in road_scores(pos)])
                if score > 0:
                    out.append((55.0 + score / 10.0, a))
        elif t is A.PlayPlenty:
            assert isinstance(a, A.PlayPlenty)
            g, _ = effect(hand, target, a.take, (0,) * NRES)
            if g >= 1:
                out.append((65.0 + g - 0.01 * sum(a.take), a))
        elif t is A.PlayMonopoly:
            assert isinstance(a, A.PlayMonopoly)
            lack = missing(hand, target)
            if lack[a.resource] and s_now >= 2:
                out.append((20.0 + lack[a.resource], a))
        elif t is A.EndTurn:
            out.append((0.0, a))
    if not sbp:
        trade = maritime(pos, target, legal)
        if trade is not None:
            out.append((45.0, trade))
    out.sort(key=lambda x: -x[0])
    return out


def road_building(pos: Pos, legal: Sequence[Action]) -> Action:
    _, road = best_road(pos, legal)
    return road if road is not None else legal[0]


def setup_road(pos: Pos, legal: Sequence[Action]) -> Action:
    return road_building(pos, legal)


def sbp_signup(pos: Pos) -> Action:
    """Sign up for the special build phase when some build is affordable."""
    hand = pos.hand
    for cost in COSTS.values():
        if all(h >= c for h, c in zip(hand, cost)):
            return A.SBP_JOIN
    return A.SBP_PASS
