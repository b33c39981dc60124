"""The player mat (SR-6..SR-9, SR-12, SR-14, SR-16..SR-24): sections, costs, top and bottom rows.

A section holds a top-row action (Move, Bolster, Trade, Produce) and a bottom-row action
(Upgrade, Deploy, Build, Enlist). Here: each section's names, the top boxes' values
(:func:`top_value`), the bottom costs after upgrades (:func:`bottom_cost`), the produce track
(:func:`produce_cost`), Trade and Produce, paying a bottom cost from controlled territories
(SR-14; Crimea's Coercion), the four bottom benefits and the recruits' ongoing bonuses
(:func:`finish_bottom`). Move's top action lives in ``movement``.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    DONE,
    SKIP,
    Build,
    Deploy,
    Enlist,
    Pay,
    PayCard,
    Produce,
    Skip,
    TradeResource,
    Upgrade,
)
from hexfolk.games.scythe.phases import BENEFIT, BOTTOM, NEXT_GAIN
from hexfolk.games.scythe.position import NB, NS, NV, Position
from hexfolk.games.scythe.scoring import end_game
from hexfolk.games.scythe.stars import check_stars, finish_turn


def top_name(s: Position) -> str:
    """The top-row action of the chosen section (``factory`` for the Factory card)."""
    if s.section == D.FACTORY_SECTION:
        return "factory"
    return D.SECTIONS[s.mat[s.active]][s.section][0]


def bottom_index(s: Position) -> int:
    """The bottom-row action (index) of the chosen mat section."""
    return D.SECTIONS[s.mat[s.active]][s.section][1]


def bottom_name(s: Position) -> str:
    """The bottom-row action's name (the Factory card's bottom row is a Move, SR-49)."""
    if s.section == D.FACTORY_SECTION:
        return "move"
    return D.BOTTOM_ACTIONS[bottom_index(s)]


def top_value(s: Position, p: int, box: str) -> int:
    """SR-21: the value of top box ``box`` for ``p``, upgraded or not."""
    i = D.TOP_BOX_INDEX[box]
    b = D.TOP_BOXES[i]
    return b["upgraded"] if s.upgrades[p] >> i & 1 else b["base"]


def section_of_bottom(s: Position, p: int, b: int) -> tuple[str, int, int, int, int, int]:
    """The mat section of ``p`` holding bottom action ``b``: (top, bottom, resource, cost, minimum
    cost, coins)."""
    for sec in D.SECTIONS[s.mat[p]]:
        if sec[1] == b:
            return sec
    raise ValueError(b)  # pragma: no cover


def bottom_cost(s: Position, p: int, b: int) -> int:
    """SR-20: printed cost minus cubes, never below the minimum."""
    sec = section_of_bottom(s, p, b)
    return max(sec[4], sec[3] - s.cubes[p * NB + b])


def cube_slots(s: Position, p: int, b: int) -> int:
    """SR-21: how many upgrade cubes bottom action ``b`` takes on ``p``'s mat."""
    sec = section_of_bottom(s, p, b)
    return sec[3] - sec[4]


def produce_cost(s: Position, p: int) -> dict[str, int]:
    """SR-19: every red box exposed on the produce track."""
    w = s.workers_out(p)
    cost: dict[str, int] = {}
    for minimum, c in D.PRODUCE_TRACK:
        if w >= minimum:
            cost = c
    return cost


def trade_options(s: Position, p: int) -> list[Action]:
    """SR-18: a resource token of any kind on a territory with one of ``p``'s workers."""
    terrs = s.worker_territories(p)
    return [TradeResource(r, t) for r in range(D.NRES) for t in terrs]


def trade_token(s: Position, p: int, a: TradeResource) -> None:
    """SR-18: place one traded resource token."""
    s.resources[a.loc * D.NRES + a.resource] += 1
    s.write_log(None, "trades", p, D.RESOURCES[a.resource], D.LOC_NAMES[a.loc])


def produce_options(s: Position, p: int) -> list[int]:
    """SR-19: territories ``p`` may still produce on (controlled, with a worker, within the top
    box's limit; the Mill always)."""
    n = s.n
    mill = s.structure_loc[p * NS + D.MILL] if not s.produce_limit else -2
    limit = s.produce_limit or top_value(s, p, "produce-territories")
    used = sum(1 for t in s.produced if t != mill)
    out = []
    for t in range(D.NTERR):
        if t in s.produced or D.PRODUCT[t] == -1:
            continue
        if s.controller(t) != p:
            continue
        if t == mill or (s.workers_on[t * n + p] and used < limit):
            out.append(t)
    return out


def produce_count(s: Position, p: int, loc: int) -> int:
    """SR-19: what Produce on ``loc`` makes: one per worker there, the Mill counting as one more."""
    count = s.workers_on[loc * s.n + p]
    if s.structure_loc[p * NS + D.MILL] == loc and not s.produce_limit:
        count += 1  # SR-19: the Mill produces as one more worker
    return count


def produce_on(s: Position, p: int, loc: int, amount: int = 0) -> None:
    """SR-19: produce on ``loc`` (resources, or workers on a village), at most ``amount``."""
    s.produced.append(loc)
    count = produce_count(s, p, loc)
    if amount:
        count = min(count, amount)  # SR-12: part of the benefit
    prod = D.PRODUCT[loc]
    if prod == D.PRODUCE_WORKER:
        base = p * D.WORKERS_TOTAL
        made = 0
        for j in range(D.WORKERS_TOTAL):
            if made == count:
                break
            if s.worker_loc[base + j] < 0:
                s.place_worker(p, j, loc)
                made += 1
        s.write_log(None, "produces_workers", p, made, D.LOC_NAMES[loc])
    elif prod >= 0:
        s.resources[loc * D.NRES + prod] += count
        s.write_log(None, "produces", p, count, D.RESOURCES[prod], D.LOC_NAMES[loc])


def after_top(s: Position) -> None:
    """SR-7, SR-10: after the top-row action, stars, then the bottom row."""
    if check_stars(s, s.active):
        end_game(s, "sixth star")
        return
    to_bottom(s)


def to_bottom(s: Position) -> None:
    """SR-7: go on to the bottom row."""
    s.phase = BOTTOM


def bottom_affordable(s: Position, p: int) -> bool:
    """SR-20: whether ``p`` can pay the bottom action's cost from controlled territories (Coercion:
    one card for one resource, SR-41)."""
    b = bottom_index(s)
    r = section_of_bottom(s, p, b)[2]
    need = bottom_cost(s, p, b)
    have = s.available(p, r)
    if s.abilities[p] & D.A_COERCION and not s.coercion_used and sum(s.hand[p * NV : p * NV + NV]):
        have += 1
    return have >= need


def pay_options(s: Position) -> list[Action]:
    """SR-14, SR-20: a territory ``p`` controls holding the resource to pay, or a combat card
    (Coercion, once a turn, OQ-7)."""
    p = s.active
    r = s.pay_resource
    out: list[Action] = []
    for t in range(D.NTERR):
        if s.resources[t * D.NRES + r] and s.controller(t) == p:
            out.append(Pay(r, t))
    if s.abilities[p] & D.A_COERCION and not s.coercion_used:
        for i in range(NV):
            if s.hand[p * NV + i]:
                out.append(PayCard(D.CARD_VALUES[i]))
    return out


def pay(s: Position, a: Action) -> None:
    """SR-20: pay one resource token (or a Coercion card); the last one leads to the benefit."""
    p = s.active
    if isinstance(a, Pay):
        s.resources[a.loc * D.NRES + a.resource] -= 1
        s.write_log(None, "pays", p, D.RESOURCES[a.resource], D.LOC_NAMES[a.loc])
    elif isinstance(a, PayCard):
        i = D.CARD_INDEX[a.value]
        s.hand[p * NV + i] -= 1
        s.combat_discard[i] += 1
        s.forget_card(p, i)
        s.coercion_used = True  # SR-41 / OQ-7
        s.write_log(None, "coercion", p, a.value)
    s.pay_left -= 1
    if s.pay_left == 0:
        s.phase = BENEFIT


def benefit_options(s: Position, p: int) -> list[Action]:
    """SR-21..SR-24: the choices of the paid bottom action's benefit."""
    return bottom_benefits(s, p, bottom_index(s), -1)


def bottom_benefits(s: Position, p: int, b: int, loc: int) -> list[Action]:
    """The choices of bottom action ``b``'s benefit. ``loc`` >= 0: granted by an
    encounter on ``loc``, where a mech or structure must go, no worker needed (SR-47)."""
    name = D.BOTTOM_ACTIONS[b]
    out: list[Action] = []
    if name == "upgrade":
        for box in range(len(D.TOP_BOXES)):
            if s.upgrades[p] >> box & 1:
                continue
            for bb in range(NB):
                if s.cubes[p * NB + bb] < cube_slots(s, p, bb):
                    out.append(Upgrade(box, bb))
    elif name == "deploy":
        if loc >= 0:
            terrs = [] if D.IS_LAKE[loc] else [loc]
        else:
            terrs = [t for t in s.worker_territories(p) if not D.IS_LAKE[t]]
        mechs = D.FACTIONS[s.faction[p]]["mech_abilities"]
        for i in range(D.MECHS):
            if s.mech_loc[p * D.MECHS + i] < 0:
                out += [Deploy(i, mechs[i], t) for t in terrs]
    elif name == "build":
        cand = [loc] if loc >= 0 else s.worker_territories(p)
        terrs = [t for t in cand if not D.IS_LAKE[t] and s.structure_at[t] < 0]
        for k in range(NS):
            if s.structure_loc[p * NS + k] < 0:
                out += [Build(k, t) for t in terrs]
    elif name == "enlist":
        for r in range(NB):
            if s.recruits[p] >> r & 1:
                continue
            for sp in range(len(D.ENLIST_SPACES)):
                if not s.enlist_spaces[p] >> sp & 1:
                    out.append(Enlist(r, sp))
    return out


def apply_benefit(s: Position, p: int, a: Action) -> None:
    if isinstance(a, Upgrade):
        s.upgrades[p] |= 1 << a.box
        s.cubes[p * NB + a.bottom] += 1
        s.write_log(None, "upgrades", p, D.TOP_BOXES[a.box]["id"], D.BOTTOM_ACTIONS[a.bottom])
    elif isinstance(a, Deploy):
        s.place_mech(p, a.mech, a.loc)
        s.abilities[p] |= D.MECH_ABILITY_BITS[s.faction[p]][a.mech]
        s.write_log(None, "deploys", p, a.ability, D.LOC_NAMES[a.loc])
    elif isinstance(a, Build):
        s.structure_loc[p * NS + a.structure] = a.loc
        s.structure_at[a.loc] = p * NS + a.structure
        s.control_cache = None
        s.write_log(None, "builds", p, D.STRUCTURES[a.structure], D.LOC_NAMES[a.loc])
    elif isinstance(a, Enlist):
        s.recruits[p] |= 1 << a.recruit
        s.enlist_spaces[p] |= 1 << a.space
        s.write_log(None, "enlists", p, D.BOTTOM_ACTIONS[a.recruit], D.ENLIST_SPACE_IDS[a.space])
        for what, amount in D.ENLIST_SPACES[a.space]["gain"].items():
            s.gain(p, what, amount)


def finish_bottom(s: Position) -> None:
    """Section coins, recruit ongoing bonuses (SR-9), then stars (SR-10, SR-11)."""
    p = s.active
    b = bottom_index(s)
    coins = section_of_bottom(s, p, b)[5]
    if coins and s.bottom_coins:
        s.gain(p, "coins", coins)
    seats = [p]
    pos = s.order.index(p)
    left = s.order[(pos + 1) % s.n]
    right = s.order[(pos - 1) % s.n]
    for q in (left, right):
        if q not in seats:
            seats.append(q)
    for q in seats:
        recruits = s.recruits[q]
        if q == p and not s.game.options["oq18_enlist_pays_same_action"]:
            recruits = s.recruits_before
        if recruits >> b & 1:
            for what, amount in D.RECRUIT_BONUS[b].items():
                s.gain(q, what, amount)
    if check_stars(s, p):
        end_game(s, "sixth star")
        return
    for k in range(1, s.n):
        q = s.order[(pos + k) % s.n]
        if check_stars(s, q, tracks_only=True):
            end_game(s, "sixth star from a recruit bonus")
            return
    finish_turn(s)


# --- the phases of the mat after the top row and in the bottom row ------------------------
def legal_trade_second(s: Position, p: int) -> list[Action]:
    return [DONE, *trade_options(s, p)]


def apply_trade_second(s: Position, p: int, a: Action) -> None:
    if isinstance(a, TradeResource):
        trade_token(s, p, a)
    after_top(s)


def legal_produce(s: Position, p: int) -> list[Action]:
    return [DONE, *(Produce(t) for t in produce_options(s, p))]


def apply_produce(s: Position, p: int, a: Action) -> None:
    if isinstance(a, Produce):
        produce_on(s, p, a.loc, a.amount)
        if produce_options(s, p):
            return
    produce_done(s)


def produce_done(s: Position) -> None:
    """After Produce: a Factory card's or encounter's Produce goes on with the card's next
    gain, the mat's with the bottom row."""
    if s.produce_limit:
        s.produce_limit = 0
        s.proceed(NEXT_GAIN)
    else:
        after_top(s)


def legal_pay(s: Position, p: int) -> list[Action]:
    return pay_options(s)


def apply_pay(s: Position, p: int, a: Action) -> None:
    pay(s, a)


def prompt_pay(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    name = D.RESOURCES[s.pay_resource]
    text = f"pay {s.pay_left} {name}: choose a territory"
    return text, {"resource": name, "left": s.pay_left}


def legal_benefit(s: Position, p: int) -> list[Action]:
    return [SKIP, *benefit_options(s, p)]


def apply_benefit_phase(s: Position, p: int, a: Action) -> None:
    if not isinstance(a, Skip):
        apply_benefit(s, p, a)
    finish_bottom(s)


def prompt_benefit(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    name = bottom_name(s)
    return f"choose the {name} benefit", {"action": name}
