"""The turn (SR-5..SR-7): choose a section, its top row, its bottom row, the end of the turn.

The top row's actions are the mat's (``mat``), Move's (``movement``) or the Factory card's
(``factory``); this module dispatches to them.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    END_TURN,
    FACTORY_TOP,
    SKIP,
    TAKE_BOTTOM,
    Bolster,
    ChooseSection,
    FactoryTop,
    MoveCoins,
    Produce,
    SelectUnit,
    Skip,
    TakeBottom,
    TradePopularity,
    TradeResource,
)
from hexfolk.games.scythe.factory import factory_top
from hexfolk.games.scythe.mat import (
    after_top,
    bottom_affordable,
    bottom_cost,
    bottom_index,
    bottom_name,
    produce_cost,
    produce_on,
    produce_options,
    section_of_bottom,
    to_bottom,
    top_name,
    top_value,
    trade_options,
    trade_token,
)
from hexfolk.games.scythe.movement import start_unit, unit_options
from hexfolk.games.scythe.phases import PAY, PRODUCE, TOP, TRADE_SECOND
from hexfolk.games.scythe.position import Position
from hexfolk.games.scythe.stars import finish_turn, reveal_options


# --- step 1: choose a section (SR-6) --------------------------------------------------------------
def legal_section(s: Position, p: int) -> list[Action]:
    """SR-6: any section but last turn's (Rusviet's Relentless: any); the held Factory card is
    a fifth section, never twice in a row."""
    out: list[Action] = []
    last = s.last_section[p]
    relentless = bool(s.abilities[p] & D.A_RELENTLESS)
    for sec in range(D.MAT_SECTIONS):
        if sec != last or relentless:
            out.append(ChooseSection(sec))
    if s.factory_card[p] >= 0 and last != D.FACTORY_SECTION:
        out.append(ChooseSection(D.FACTORY_SECTION))
    return out


def apply_section(s: Position, p: int, a: Action) -> None:
    assert isinstance(a, ChooseSection)
    s.section = a.section
    if a.section == D.FACTORY_SECTION:
        s.write_log(None, "factory_section", p, s.factory_card[p])
    else:
        s.write_log(None, "section", p, a.section + 1, top_name(s), bottom_name(s))
    s.phase = TOP


def prompt_section(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    return "choose a section for the action token", {}


# --- step 2: the top row (SR-7, SR-16..SR-19, SR-49) -----------------------------------------
def prompt_top(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    top = top_name(s)
    return f"take the top action ({top}) or skip it", {"action": top}


# --- step 3: the bottom row (SR-7, SR-20, SR-49) ---------------------------------------------
def legal_bottom(s: Position, p: int) -> list[Action]:
    """Skip, take the bottom action if it can be paid (SR-20), or reveal (SR-51). On the
    Factory card: its Move of one unit instead (SR-49)."""
    if s.section == D.FACTORY_SECTION:
        return [SKIP, *unit_options(s, p), *reveal_options(s, p)]
    out: list[Action] = [SKIP]
    if bottom_affordable(s, p):
        out.append(TAKE_BOTTOM)
    out += reveal_options(s, p)
    return out


def apply_bottom(s: Position, p: int, a: Action) -> None:
    if isinstance(a, Skip):
        finish_turn(s)
    elif s.section == D.FACTORY_SECTION:
        assert isinstance(a, SelectUnit)
        s.write_log(None, "factory_move", p)
        s.factory_move = True
        s.max_units = 1
        start_unit(s, p, a.kind, a.loc)
    else:
        assert isinstance(a, TakeBottom)
        b = bottom_index(s)
        s.bottom_taken = True
        s.bottom_coins = a.coins
        s.recruits_before = s.recruits[p]
        s.pay_resource = section_of_bottom(s, p, b)[2]
        s.pay_left = bottom_cost(s, p, b)
        s.write_log(None, "takes", p, D.BOTTOM_ACTIONS[b])
        s.phase = PAY


def prompt_bottom(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    name = bottom_name(s)
    return f"take the bottom action ({name}) or skip it", {"action": name}


# --- the end of the turn (SR-7, SR-51) ----------------------------------------------------------
def legal_end(s: Position, p: int) -> list[Action]:
    return [END_TURN, *reveal_options(s, p)]


def apply_end(s: Position, p: int, a: Action) -> None:
    s.end_turn()


def top_options(s: Position, p: int) -> list[Action]:
    """SR-7: the top-row choices: skip, the action if its cost can be paid (Move's units or coins,
    Bolster, Trade, Produce; the Factory card's top), reveals."""
    top = top_name(s)
    out: list[Action] = [SKIP]
    if s.section == D.FACTORY_SECTION:
        if s.can_pay_card_cost(p, D.FACTORY_BY_NUMBER[s.factory_card[p]]["cost"]):
            out.append(FACTORY_TOP)
        return out + reveal_options(s, p)
    cost = D.TOP_COSTS[top]
    if top == "produce":
        cost = produce_cost(s, p)
    if s.can_pay_track(p, cost):
        if top == "move":
            out.append(MoveCoins())
            out += unit_options(s, p)
        elif top == "bolster":
            out += [Bolster("power"), Bolster("cards")]
        elif top == "trade":
            out.append(TradePopularity())
            out += trade_options(s, p)
        elif top == "produce":
            out += [Produce(t) for t in produce_options(s, p)]
    out += reveal_options(s, p)
    return out


def apply_top(s: Position, p: int, a: Action) -> None:
    top = top_name(s)
    if isinstance(a, Skip):
        to_bottom(s)
        return
    if isinstance(a, FactoryTop):
        factory_top(s, p, a.decline)
        return
    if top == "move":
        if isinstance(a, MoveCoins):
            s.gain(p, "coins", a.amount or top_value(s, p, "move-coins"))
            after_top(s)
            return
        assert isinstance(a, SelectUnit)
        s.max_units = top_value(s, p, "move-units")
        start_unit(s, p, a.kind, a.loc)
        return
    if top == "bolster":
        assert isinstance(a, Bolster)
        s.lose(p, "coins", D.TOP_COSTS["bolster"]["coins"])
        if a.kind == "power":
            s.gain(p, "power", a.amount or top_value(s, p, "bolster-power"))
        else:
            s.gain(p, "combat_cards", a.amount or top_value(s, p, "bolster-cards"))
        if s.has_structure(p, D.MONUMENT):
            for what, amount in D.STRUCTURE_BONUS["monument"].items():
                s.gain(p, what, amount)
        after_top(s)
        return
    if top == "trade":
        s.lose(p, "coins", D.TOP_COSTS["trade"]["coins"])
        if s.has_structure(p, D.ARMORY):
            for what, amount in D.STRUCTURE_BONUS["armory"].items():
                s.gain(p, what, amount)
        if isinstance(a, TradePopularity):
            s.gain(p, "popularity", a.amount or top_value(s, p, "trade-popularity"))
            after_top(s)
            return
        assert isinstance(a, TradeResource)
        trade_token(s, p, a)
        s.phase = TRADE_SECOND
        return
    if top == "produce":
        assert isinstance(a, Produce)
        for what, amount in produce_cost(s, p).items():
            s.lose(p, what, amount)
        s.produced = []
        produce_on(s, p, a.loc, a.amount)
        if produce_options(s, p):
            s.phase = PRODUCE
        else:
            after_top(s)
