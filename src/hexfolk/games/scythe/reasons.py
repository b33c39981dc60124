"""Why a Scythe action is refused (SR-6..SR-51): a :class:`~hexfolk.core.Reason` in the game's
words.

:func:`why_illegal_reason` is :meth:`Position.why_illegal_reason`: ``None`` when the action is
legal for the seat (decided by the engine's own check, so a reason never disagrees with
legality), else what it costs and what the player holds, what is missing, what forbids it ("you
used this section last turn (SR-6)"), or whose decision it is, with the rule's number: a code
and its params, whose English sentence (:func:`why_illegal`) comes from :mod:`.reason_texts`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from hexfolk.core import CHANCE, TERMINAL, Action, Reason, State
from hexfolk.games.scythe import actions as A
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.combat import commit_limit
from hexfolk.games.scythe.mat import (
    bottom_cost,
    bottom_index,
    bottom_name,
    produce_cost,
    produce_count,
    produce_options,
    section_of_bottom,
    top_name,
    top_value,
)
from hexfolk.games.scythe.movement import carry_available, workers_to_take
from hexfolk.games.scythe.phases import (
    ARTILLERY,
    BENEFIT,
    BOTTOM,
    CARRY,
    COMBAT_CHOOSE,
    COMMIT,
    ENCOUNTER,
    END,
    FACTORY_OFFER,
    GAIN,
    MOVE_UNIT,
    PAY,
    PAY_CARD,
    PRODUCE,
    RETREAT,
    SECTION,
    STEP,
    TOP,
    TRADE_SECOND,
    WINDOW_OF_PHASE,
)
from hexfolk.games.scythe.position import CHARACTER, MECH, NS, NV, Position
from hexfolk.games.scythe.reason_texts import DECISIONS, REASONS
from hexfolk.games.scythe.stars import objective_holds
from hexfolk.games.scythe.territory_labels import LABELS

R = partial(REASONS.on_board, LABELS)
"""A refusal of a code with its params, its English naming territories by their board labels."""

_CHANCE_KINDS = (
    A.DealFaction,
    A.DealMat,
    A.DealTile,
    A.DealFactory,
    A.DealObjective,
    A.DrawCard,
    A.ScoutCard,
    A.DrawEncounter,
)

_PHASES_OF: dict[type, tuple[int, ...]] = {
    A.ChooseSection: (SECTION,),
    A.MoveCoins: (TOP,),
    A.Bolster: (TOP,),
    A.TradePopularity: (TOP,),
    A.TradeResource: (TOP, TRADE_SECOND),
    A.Produce: (TOP, PRODUCE),
    A.SelectUnit: (TOP, MOVE_UNIT, BOTTOM),
    A.Carry: (CARRY,),
    A.Step: (STEP,),
    A.Stop: (STEP,),
    A.Fight: (COMBAT_CHOOSE,),
    A.UseArtillery: (ARTILLERY,),
    A.Commit: (COMMIT,),
    A.Retreat: (RETREAT,),
    A.EncounterOption: (ENCOUNTER,),
    A.GainResource: (GAIN,),
    A.TakeFactory: (FACTORY_OFFER,),
    A.FactoryTop: (TOP,),
    A.TakeBottom: (BOTTOM,),
    A.Pay: (PAY,),
    A.PayCard: (PAY, PAY_CARD),
    A.Upgrade: (BENEFIT, GAIN),
    A.Deploy: (BENEFIT, GAIN),
    A.Build: (BENEFIT, GAIN),
    A.Enlist: (BENEFIT, GAIN),
    A.Reveal: (TOP, BOTTOM, END),
    A.EndTurn: (END,),
    A.Skip: (TOP, BOTTOM, BENEFIT, GAIN),
    A.Done: (MOVE_UNIT, TRADE_SECOND, PRODUCE, ENCOUNTER, GAIN),
}
"""Where each kind of decision can be legal."""


def _legal(state: Position, seat: int, action: Action) -> bool:
    """The engine's own verdict (chance outcomes, the seat to move, a committing seat)."""
    player = state.current_player()
    if player == TERMINAL:
        return False
    if player == CHANCE:
        return seat == CHANCE and state.is_legal(action)
    if seat == player:
        return state.is_legal(action)
    return seat in state.acting_seats() and action in state.legal_actions_for(seat)


Why = Reason | None


def why_illegal_reason(state: Position, seat: int, action: Action) -> Why:
    """The reason ``seat`` may not take ``action`` now, or None when it is legal."""
    if _legal(state, seat, action):
        return None
    reason = specific_reason(state, seat, action)
    return reason if reason is not None else State.generic_reason(state, seat, action)


def why_illegal(state: Position, seat: int, action: Action) -> str | None:
    """:func:`why_illegal_reason`'s English sentence."""
    reason = why_illegal_reason(state, seat, action)
    return None if reason is None else reason.text


_RULE = re.compile(r"SR-\d+(?: C\d+)?")
_DECISION_RULES: dict[str, str | None] = {
    key: (found.group(0) if (found := _RULE.search(text)) else None)
    for key, text in DECISIONS.items()
}
"""The first rule each decision's sentence names (``SR-7``), if any."""


def _decision(state: Position, default: str) -> str:
    """The pending decision's key (its prompt kind), ``default`` for a phase without one."""
    kind = state.phase.kind
    return kind if kind in DECISIONS and kind not in ("pending", "play") else default


def _decision_rule(key: str) -> str | None:
    return _DECISION_RULES[key]


def specific_reason(state: Position, seat: int, action: Action) -> Why:
    """The engine's reason for an illegal action (None: no specific reason known)."""
    player = state.current_player()
    if player == TERMINAL:
        return R("game_over", "SR-11")
    if player == CHANCE:
        if isinstance(action, _CHANCE_KINDS):
            return R("chance_impossible", "SR-57, SR-59", action=str(action))
        return R("chance_no_player")
    if isinstance(action, _CHANCE_KINDS):
        waiting = _waiting(state)
        return R("chance_not_move", waiting.rule, action=str(action), waiting=waiting)
    if seat not in state.acting_seats():
        waiting = _waiting(state)
        return R("not_your_decision", waiting.rule, seat=seat, waiting=waiting)
    phase = state.phase
    if phase not in _PHASES_OF.get(type(action), ()):
        key = _decision(state, "pending")
        return R("wrong_phase", _decision_rule(key), seat=seat, decision=key)
    reason = _REASONS.get(type(action), _none)(state, seat, action)
    if reason is None:  # the kind fits the phase, the details do not: name the decision
        key = _decision(state, "play")
        reason = R("not_a_choice", _decision_rule(key), action=str(action), seat=seat, decision=key)
    return reason


def _waiting(state: Position) -> Reason:
    acting = state.acting_seats()
    if state.phase == COMMIT:
        return R("wait_commit", "SR-43 C2", seats=list(acting))
    key = _decision(state, "play")
    return R("wait_decision", _decision_rule(key), seat=state.current_player(), decision=key)


def _none(state: Position, seat: int, action: Action) -> Why:
    return None


def _loc(loc: int) -> str:
    return D.LOC_NAMES[loc] if 0 <= loc < D.NLOC else str(loc)


def _have(state: Position, p: int) -> dict[str, int]:
    return {
        "power": state.power[p],
        "popularity": state.popularity[p],
        "coins": state.coins[p],
        "combat_cards": sum(state.hand[p * NV : p * NV + NV]),
    }


def _cost_reason(state: Position, p: int, code: str, cost: dict[str, int], **what: int) -> Why:
    have = _have(state, p)
    short = [k for k, v in cost.items() if have.get(k, 0) < v]
    if not short:
        return None
    held = {k: have.get(k, 0) for k in short}
    return R(code, "SR-12, SR-15", cost=dict(cost), held=held, **what)


# ------------------------------------------------------------------------------ section
def _section(state: Position, p: int, a: A.ChooseSection) -> Why:
    s = a.section
    last = state.last_section[p]
    if s == D.FACTORY_SECTION:
        if state.factory_card[p] < 0:
            return R("no_factory_card", "SR-48, SR-6")
        if last == D.FACTORY_SECTION:
            return R("factory_twice", "SR-6")
        return None
    if not 0 <= s < D.MAT_SECTIONS:
        return R("no_section", count=D.MAT_SECTIONS)
    if s == last and not state.abilities[p] & D.A_RELENTLESS:
        return R("section_repeat", "SR-6", section=s + 1)
    return None


# ------------------------------------------------------------------------------ top row
_TOP_OF: dict[type, str] = {
    A.MoveCoins: "move",
    A.Bolster: "bolster",
    A.TradePopularity: "trade",
    A.TradeResource: "trade",
    A.Produce: "produce",
    A.SelectUnit: "move",
}


def _top_kind(state: Position, p: int, action: Action) -> Why:
    """The top action named is not this section's, or its cost cannot be paid."""
    top = top_name(
        state,
    )
    want = "factory" if isinstance(action, A.FactoryTop) else _TOP_OF.get(type(action), top)
    if want != top:
        if top == "factory":
            return R("top_kind_factory", "SR-7", top=top, want=want)
        return R("top_kind", "SR-7", section=state.section + 1, top=top, want=want)
    if top == "factory":
        card = D.FACTORY_BY_NUMBER[state.factory_card[p]]
        return _cost_reason(state, p, "cost_factory_top", card["cost"], number=card["number"])
    cost = produce_cost(state, p) if top == "produce" else D.TOP_COSTS[top]
    return _cost_reason(state, p, "cost_top", cost, top=top)  # type: ignore[arg-type]


def _amount(state: Position, p: int, action: Action, box: str) -> Why:
    amount = getattr(action, "amount", 0)
    value = top_value(state, p, box)
    if amount and not 1 <= amount <= value:
        return R("too_many", "SR-12", box=box, value=value, amount=amount)
    return None


def _top(state: Position, p: int, action: Action) -> Why:
    if state.phase == TOP:
        reason = _top_kind(state, p, action)
        if reason is not None:
            return reason
    if isinstance(action, A.MoveCoins):
        return _amount(state, p, action, "move-coins")
    if isinstance(action, A.Bolster):
        box = {"power": "bolster-power", "cards": "bolster-cards"}.get(action.kind)
        if box is None:
            return R("bolster_kind", "SR-17")
        return _amount(state, p, action, box)
    if isinstance(action, A.TradePopularity):
        return _amount(state, p, action, "trade-popularity")
    if isinstance(action, A.TradeResource):
        if action.loc not in state.worker_territories(p):
            return R("trade_where", "SR-18", loc=_loc(action.loc))
        return None
    if isinstance(action, A.Produce):
        return _produce(state, p, action)
    if isinstance(action, A.SelectUnit):
        return _select(state, p, action)
    return None


def _produce(state: Position, p: int, a: A.Produce) -> Why:
    t = a.loc
    if not 0 <= t < D.NTERR or D.PRODUCT[t] == -1:
        return R("produce_nothing", "SR-19", loc=_loc(t))
    if t in state.produced:
        return R("produced", "SR-19", loc=_loc(t))
    if state.controller(t) != p:
        return R("not_controlled", "SR-13, SR-19", loc=_loc(t))
    if not state.workers_on[t * state.n + p] and state.structure_loc[p * NS + D.MILL] != t:
        return R("no_worker", "SR-19", loc=_loc(t))
    if t not in produce_options(state, p):
        limit = state.produce_limit or top_value(state, p, "produce-territories")
        return R("produce_reach", "SR-19", limit=limit)
    if a.amount and a.amount > produce_count(state, p, t):
        return R("produce_most", "SR-19", loc=_loc(t), count=produce_count(state, p, t))
    return None


# ------------------------------------------------------------------------------ movement
def _unit_at(state: Position, p: int, kind: int, loc: int) -> bool:
    if kind == CHARACTER:
        return state.character_loc[p] == loc
    locs = state.mech_loc if kind == MECH else state.worker_loc
    per = D.MECHS if kind == MECH else D.WORKERS_TOTAL
    return loc in locs[p * per : p * per + per]


def _select(state: Position, p: int, a: A.SelectUnit) -> Why:
    name = A.UNIT_KINDS[a.kind] if 0 <= a.kind < len(A.UNIT_KINDS) else "unit"
    if not _unit_at(state, p, a.kind, a.loc):
        return R("no_unit", unit=name, loc=_loc(a.loc))
    if state.phase == BOTTOM and state.section != D.FACTORY_SECTION:
        return R("factory_move_only", "SR-49")
    if state.units_moved and state.units_moved >= state.max_units:
        return R("moved_enough", "SR-16", count=state.units_moved)
    return R("unit_done", "SR-25, SR-26, SR-31", unit=name, loc=_loc(a.loc))


def _step(state: Position, p: int, action: Action) -> Why:
    kind, i = (state.move.kind, state.move.index)
    name = A.UNIT_KINDS[kind]
    here = _loc(state.unit_location(p, kind, i))
    if isinstance(action, A.Stop):
        if not state.move.steps_taken:
            return R("not_stepped", "SR-25")
        return R("lake_leave", "SR-35")
    assert isinstance(action, A.Step)
    dest = _loc(action.loc)
    if 0 <= action.loc < D.NLOC and D.IS_HOME[action.loc]:
        return R("home_base", "SR-29", loc=dest)
    if 0 <= action.loc < D.NLOC and D.IS_LAKE[action.loc]:
        return R("lake_enter", "SR-28", unit=name, loc=dest)
    return R("step_blocked", "SR-25, SR-26, SR-31", unit=name, here=here, loc=dest)


def _carry(state: Position, p: int, a: A.Carry) -> Why:
    kind, _ = (state.move.kind, state.move.index)
    w, r = carry_available(state, p)
    if a.workers and kind != MECH:
        return R("carry_workers", "SR-30", unit=A.UNIT_KINDS[kind])
    if a.workers > w:
        return R("carry_few_workers", "SR-30", count=w)
    for k in range(D.NRES):
        if a.resources[k] > r[k]:
            return R("carry_few_res", "SR-30", count=r[k], res=D.RESOURCES[k])
    must = workers_to_take(state, p)
    if a.workers < must:
        return R("carry_all", "SR-35", count=must)
    return R("cargo_lake", "SR-35")


# ------------------------------------------------------------------------------ combat
def _commit(state: Position, p: int, a: A.Commit) -> Why:
    top = min(D.DIAL_MAX, state.power[p])
    if not 0 <= a.dial <= top:
        return R("dial", "SR-43 C2", max=D.DIAL_MAX, power=state.power[p], top=top)
    assert state.combat is not None
    k = commit_limit(state, p, state.combat.territory)
    if len(a.cards) > k:
        return R("commit_cards", "SR-43 C2", count=k)
    held = state.hand[p * NV : p * NV + NV]
    for v in set(a.cards):
        i = D.CARD_INDEX.get(v)
        if i is None or held[i] < a.cards.count(v):
            return R("commit_unheld", count=a.cards.count(v), value=v)
    return None


def _fight(state: Position, p: int, a: A.Fight) -> Why:
    where = [_loc(t) for t in state.combats]
    return R("no_combat", "SR-42", loc=_loc(a.loc), combats=where)


def _retreat(state: Position, p: int, a: A.Retreat) -> Why:
    home = _loc(D.HOME_OF[state.faction[p]])
    return R("retreat_home", "SR-35, OQ-8", home=home)


# ------------------------------------------------------------------------------ bottom row
def _bottom(state: Position, p: int, a: A.TakeBottom) -> Why:
    if state.section == D.FACTORY_SECTION:
        return R("factory_bottom", "SR-49")
    b = bottom_index(
        state,
    )
    r = section_of_bottom(state, p, b)[2]
    need = bottom_cost(state, p, b)
    have = state.available(p, r)
    return R(
        "bottom_cost",
        "SR-12, SR-14, SR-20",
        action=D.BOTTOM_ACTIONS[b],
        need=need,
        res=D.RESOURCES[r],
        have=have,
    )


def _pay(state: Position, p: int, action: Action) -> Why:
    if isinstance(action, A.PayCard):
        i = D.CARD_INDEX.get(action.value)
        if i is None or not state.hand[p * NV + i]:
            return R("no_card_value", value=action.value)
        if state.phase == PAY:
            if not state.abilities[p] & D.A_COERCION:
                return R("coercion_only", "SR-41")
            return R("coercion_used", "SR-41, OQ-7")
        return None
    assert isinstance(action, A.Pay)
    res = D.RESOURCES[state.pay_resource]
    if action.resource != state.pay_resource:
        return R("pay_in", "SR-20", res=res, other=D.RESOURCES[action.resource])
    if state.controller(action.loc) != p:
        return R("pay_uncontrolled", "SR-14", loc=_loc(action.loc))
    return R("pay_none", "SR-14", res=res, loc=_loc(action.loc))


def _benefit(state: Position, p: int, action: Action) -> Why:
    if state.phase == BENEFIT:
        name = bottom_name(
            state,
        )
        kinds = {"upgrade": A.Upgrade, "deploy": A.Deploy, "build": A.Build, "enlist": A.Enlist}
        if not isinstance(action, kinds.get(name, A.Skip)):
            return R("bottom_is", "SR-7", action=name)
    if isinstance(action, A.Upgrade):
        return R("upgrade_full", "SR-21")
    if isinstance(action, A.Deploy):
        if state.mech_loc[p * D.MECHS + action.mech] >= 0:
            return R("mech_deployed", "SR-22")
        return R("deploy_where", "SR-22", loc=_loc(action.loc))
    if isinstance(action, A.Build):
        if state.structure_loc[p * NS + action.structure] >= 0:
            return R("built", "SR-23", structure=D.STRUCTURES[action.structure])
        if 0 <= action.loc < D.NLOC and state.structure_at[action.loc] >= 0:
            return R("structure_there", "SR-23", loc=_loc(action.loc))
        return R("build_where", "SR-23", loc=_loc(action.loc))
    if isinstance(action, A.Enlist):
        return R("enlisted", "SR-24")
    return None


def _grant(state: Position, p: int, action: Action) -> Why:
    g = state.pending_gains[0]
    if g[0] == "res":
        if not isinstance(action, A.GainResource | A.Done):
            return R("place_gain_first", "SR-47")
        if isinstance(action, A.GainResource):
            return R("gain_where", "SR-47", loc=_loc(state.gains_loc))
        return None
    if isinstance(action, A.GainResource | A.Done):
        return R("take_grant", "SR-47", grants=[str(x) for x in g[1]])
    return _benefit(state, p, action)


def _gain(state: Position, p: int, action: Action) -> Why:
    if state.phase == GAIN:
        return _grant(state, p, action)
    return _benefit(state, p, action)


# ------------------------------------------------------------------------------ encounters
def _option(state: Position, p: int, a: A.EncounterOption) -> Why:
    card = D.ENCOUNTER_BY_NUMBER[state.encounter_card]
    k = a.slot - 1
    if not 0 <= k < len(card["options"]):
        return R("no_option", card=state.encounter_card, count=len(card["options"]))
    if k in state.encounter_chosen:
        return R("option_chosen", "SR-41", slot=a.slot)
    if state.encounter_chosen:
        return R("meander_only", "SR-41")
    cost = card["options"][k]["cost"]
    track = {x: v for x, v in cost.items() if x in ("power", "popularity", "coins", "combat_cards")}
    reason = _cost_reason(state, p, "cost_option", track, slot=a.slot)
    return reason or R("option_too_much", "SR-47", slot=a.slot)


def _factory(state: Position, p: int, a: A.TakeFactory) -> Why:
    return R("factory_not_offered", "SR-48", number=a.number)


def _reveal(state: Position, p: int, a: A.Reveal) -> Why:
    if a.number not in state.objectives[p]:
        return R("objective_unheld", "SR-51", number=a.number)
    if state.reveal_windows_used & WINDOW_OF_PHASE.get(state.phase, 0):
        return R("reveal_window", "SR-7, SR-51")
    if not objective_holds(state, p, a.number):
        return R("objective_false", "SR-51, OQ-3", number=a.number)
    return R("objective_star", "SR-50")


def _skip(state: Position, p: int, action: Action) -> Why:
    if state.phase == GAIN:
        return _grant(state, p, action)
    if isinstance(action, A.Done) and state.phase == ENCOUNTER:
        return R("option_first", "SR-47")
    return None


_REASONS: dict[type, Callable[[Position, int, Action], Why]] = {
    A.ChooseSection: _section,  # type: ignore[dict-item]
    A.MoveCoins: _top,
    A.Bolster: _top,
    A.TradePopularity: _top,
    A.TradeResource: _top,
    A.Produce: _top,
    A.SelectUnit: _top,
    A.FactoryTop: _top,
    A.Carry: _carry,  # type: ignore[dict-item]
    A.Step: _step,
    A.Stop: _step,
    A.Fight: _fight,  # type: ignore[dict-item]
    A.Commit: _commit,  # type: ignore[dict-item]
    A.Retreat: _retreat,  # type: ignore[dict-item]
    A.TakeBottom: _bottom,  # type: ignore[dict-item]
    A.Pay: _pay,
    A.PayCard: _pay,
    A.Upgrade: _gain,
    A.Deploy: _gain,
    A.Build: _gain,
    A.Enlist: _gain,
    A.GainResource: _gain,
    A.EncounterOption: _option,  # type: ignore[dict-item]
    A.TakeFactory: _factory,  # type: ignore[dict-item]
    A.Reveal: _reveal,  # type: ignore[dict-item]
    A.Skip: _skip,
    A.Done: _skip,
}
