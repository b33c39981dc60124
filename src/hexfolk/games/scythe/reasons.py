"""Why a Scythe action is refused (SR-6..SR-51): one sentence in the game's words.

:func:`why_illegal` is :meth:`Position.why_illegal`: ``None`` when the action is legal for
the seat (decided by the engine's own check, so a reason never disagrees with legality), else
what it costs and what the player holds, what is missing, what forbids it ("you used this
section last turn (SR-6)"), or whose decision it is, with the rule's number.
"""

from __future__ import annotations

from collections.abc import Callable

from hexfolk.core import CHANCE, TERMINAL, Action, State
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
from hexfolk.games.scythe.stars import objective_holds

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

_WHAT = {
    SECTION: "choose a section for the action token (SR-7)",
    TOP: "take the top-row action or skip it (SR-7)",
    MOVE_UNIT: "choose a unit to move, or done (SR-16)",
    CARRY: "choose what the moving unit carries (SR-30)",
    STEP: "choose where the moving unit steps (SR-25)",
    TRADE_SECOND: "place the second traded token, or done (SR-18)",
    PRODUCE: "choose territories to produce on, or done (SR-19)",
    COMBAT_CHOOSE: "choose the next combat (SR-43)",
    ARTILLERY: "decide whether to use Artillery (SR-43 C1)",
    COMMIT: "commit power and combat cards in secret (SR-43 C2)",
    RETREAT: "choose where the losing units retreat (SR-43 C7)",
    BOTTOM: "take the bottom-row action or skip it (SR-7)",
    PAY: "pay the bottom action's cost from controlled territories (SR-12, SR-14)",
    BENEFIT: "choose the bottom action's benefit (SR-12)",
    END: "end the turn (or reveal an objective first, SR-51)",
    ENCOUNTER: "choose an option of the encounter card (SR-47)",
    GAIN: "take what the encounter grants (SR-47)",
    FACTORY_OFFER: "keep one Factory card of the offer (SR-48)",
    PAY_CARD: "discard a combat card to pay the Factory card (SR-49)",
}
"""The decision of each phase, in the game's words, for refusals made in the wrong phase."""

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


def why_illegal(state: Position, seat: int, action: Action) -> str | None:
    """The reason ``seat`` may not take ``action`` now, or None when it is legal."""
    if _legal(state, seat, action):
        return None
    reason = specific_reason(state, seat, action)
    return reason if reason is not None else State.why_illegal(state, seat, action)


def specific_reason(state: Position, seat: int, action: Action) -> str | None:
    """The engine's reason for an illegal action (None: no specific reason known)."""
    player = state.current_player()
    if player == TERMINAL:
        return "the game is over: a sixth star was placed (SR-11)"
    if player == CHANCE:
        if isinstance(action, _CHANCE_KINDS):
            return f"{action} is not a possible outcome of the pending draw (SR-57, SR-59)"
        return "no player acts now: the table draws the next card or deal"
    if isinstance(action, _CHANCE_KINDS):
        return f"{action} is a draw the table makes, not a move; {_waiting(state)}"
    if seat not in state.acting_seats():
        return f"P{seat} has no decision to make now; {_waiting(state)}"
    phase = state.phase
    if phase not in _PHASES_OF.get(type(action), ()):
        return f"not now: P{seat} must {_WHAT.get(phase, 'finish the pending decision')}"
    reason = _REASONS.get(type(action), _none)(state, seat, action)
    if reason is None:  # the kind fits the phase, the details do not: name the decision
        reason = f"{action} is not among the choices: P{seat} must {_WHAT.get(phase, 'play')}"
    return reason


def _waiting(state: Position) -> str:
    acting = state.acting_seats()
    if state.phase == COMMIT:
        return f"{', '.join(f'P{q}' for q in acting)} commit in secret for the combat (SR-43 C2)"
    return f"it is P{state.current_player()}'s decision: {_WHAT.get(state.phase, 'play')}"


def _none(state: Position, seat: int, action: Action) -> str | None:
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


def _track_words(cost: dict[str, int]) -> str:
    words = []
    for k, v in cost.items():
        if k == "coins":
            words.append(f"${v}")
        elif k == "combat_cards":
            words.append(f"{v} combat card{'s' if v != 1 else ''}")
        else:
            words.append(f"{v} {k}")
    return " and ".join(words) or "nothing"


def _cost_reason(state: Position, p: int, what: str, cost: dict[str, int]) -> str | None:
    have = _have(state, p)
    short = [k for k, v in cost.items() if have.get(k, 0) < v]
    if not short:
        return None
    held = " and ".join(_track_words({k: have.get(k, 0)}) for k in short)
    return f"{what} costs {_track_words(cost)}; you have {held} (SR-12, SR-15)"


# ------------------------------------------------------------------------------ section
def _section(state: Position, p: int, a: A.ChooseSection) -> str | None:
    s = a.section
    last = state.last_section[p]
    if s == D.FACTORY_SECTION:
        if state.factory_card[p] < 0:
            return "you hold no Factory card, so there is no fifth section (SR-48, SR-6)"
        if last == D.FACTORY_SECTION:
            return "you used the Factory card last turn; not twice in a row, even Rusviet (SR-6)"
        return None
    if not 0 <= s < D.MAT_SECTIONS:
        return f"your player mat has sections 1 to {D.MAT_SECTIONS}"
    if s == last and not state.abilities[p] & D.A_RELENTLESS:
        return f"you used section {s + 1} last turn; the token must move to another (SR-6)"
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


def _top_kind(state: Position, p: int, action: Action) -> str | None:
    """The top action named is not this section's, or its cost cannot be paid."""
    top = top_name(
        state,
    )
    want = "factory" if isinstance(action, A.FactoryTop) else _TOP_OF.get(type(action), top)
    if want != top:
        where = "the Factory card" if top == "factory" else f"section {state.section + 1}"
        return f"the top action of {where} is {top}, not {want} (SR-7)"
    if top == "factory":
        card = D.FACTORY_BY_NUMBER[state.factory_card[p]]
        return _cost_reason(state, p, f"Factory card {card['number']}'s top action", card["cost"])
    cost = produce_cost(state, p) if top == "produce" else D.TOP_COSTS[top]
    return _cost_reason(state, p, top.capitalize(), cost)


def _amount(state: Position, p: int, action: Action, box: str, what: str) -> str | None:
    amount = getattr(action, "amount", 0)
    value = top_value(state, p, box)
    if amount and not 1 <= amount <= value:
        return f"{what} gains at most {value}, so {amount} is too many (SR-12)"
    return None


def _top(state: Position, p: int, action: Action) -> str | None:
    if state.phase == TOP:
        reason = _top_kind(state, p, action)
        if reason is not None:
            return reason
    if isinstance(action, A.MoveCoins):
        return _amount(state, p, action, "move-coins", "Move")
    if isinstance(action, A.Bolster):
        box = {"power": "bolster-power", "cards": "bolster-cards"}.get(action.kind)
        if box is None:
            return "Bolster gives power or combat cards (SR-17)"
        return _amount(state, p, action, box, f"Bolster {action.kind}")
    if isinstance(action, A.TradePopularity):
        return _amount(state, p, action, "trade-popularity", "Trade popularity")
    if isinstance(action, A.TradeResource):
        if action.loc not in state.worker_territories(p):
            return (
                f"traded tokens go on a territory you control with one of your workers; "
                f"{_loc(action.loc)} is not one (SR-18)"
            )
        return None
    if isinstance(action, A.Produce):
        return _produce(state, p, action)
    if isinstance(action, A.SelectUnit):
        return _select(state, p, action)
    return None


def _produce(state: Position, p: int, a: A.Produce) -> str | None:
    t = a.loc
    if not 0 <= t < D.NTERR or D.PRODUCT[t] == -1:
        return f"{_loc(t)} produces nothing: lakes, the Factory and home bases do not (SR-19)"
    if t in state.produced:
        return f"{_loc(t)} has already produced in this action (SR-19)"
    if state.controller(t) != p:
        return f"you do not control {_loc(t)} (SR-13, SR-19)"
    if not state.workers_on[t * state.n + p] and state.structure_loc[p * NS + D.MILL] != t:
        return f"you have no worker on {_loc(t)} to produce there (SR-19)"
    if t not in produce_options(state, p):
        limit = state.produce_limit or top_value(state, p, "produce-territories")
        return f"Produce reaches at most {limit} territories (SR-19)"
    if a.amount and a.amount > produce_count(state, p, t):
        return f"{_loc(t)} produces at most {produce_count(state, p, t)} (SR-19)"
    return None


# ------------------------------------------------------------------------------ movement
def _unit_at(state: Position, p: int, kind: int, loc: int) -> bool:
    if kind == CHARACTER:
        return state.character_loc[p] == loc
    locs = state.mech_loc if kind == MECH else state.worker_loc
    per = D.MECHS if kind == MECH else D.WORKERS_TOTAL
    return loc in locs[p * per : p * per + per]


def _select(state: Position, p: int, a: A.SelectUnit) -> str | None:
    name = A.UNIT_KINDS[a.kind] if 0 <= a.kind < len(A.UNIT_KINDS) else "unit"
    if not _unit_at(state, p, a.kind, a.loc):
        return f"you have no {name} on {_loc(a.loc)}"
    if state.phase == BOTTOM and state.section != D.FACTORY_SECTION:
        return "only the Factory card's bottom row is a Move (SR-49)"
    if state.units_moved and state.units_moved >= state.max_units:
        return f"this Move has already moved {state.units_moved} units (SR-16)"
    return (
        f"your {name} on {_loc(a.loc)} has already moved in this Move or has nowhere to go "
        "(SR-25, SR-26, SR-31)"
    )


def _step(state: Position, p: int, action: Action) -> str | None:
    kind, i = (state.move.kind, state.move.index)
    name = A.UNIT_KINDS[kind]
    here = _loc(state.unit_location(p, kind, i))
    if isinstance(action, A.Stop):
        if not state.move.steps_taken:
            return "the unit has not stepped yet: choose where it goes (SR-25)"
        return "workers or resources cannot be left on a lake (SR-35)"
    assert isinstance(action, A.Step)
    dest = _loc(action.loc)
    if 0 <= action.loc < D.NLOC and D.IS_HOME[action.loc]:
        return f"no Move puts a unit onto a home base ({dest}), except Wayfare (SR-29)"
    if 0 <= action.loc < D.NLOC and D.IS_LAKE[action.loc]:
        return f"your {name} cannot enter the lake {dest} (SR-28)"
    return (
        f"your {name} on {here} cannot step to {dest}: not adjacent, across a river, or a "
        "worker facing enemy units (SR-25, SR-26, SR-31)"
    )


def _carry(state: Position, p: int, a: A.Carry) -> str | None:
    kind, _ = (state.move.kind, state.move.index)
    w, r = carry_available(state, p)
    if a.workers and kind != MECH:
        return f"a {A.UNIT_KINDS[kind]} never carries workers; only mechs do (SR-30)"
    if a.workers > w:
        return f"only {w} of your workers are here to carry (SR-30)"
    for k in range(D.NRES):
        if a.resources[k] > r[k]:
            return f"only {r[k]} {D.RESOURCES[k]} lie here to pick up (SR-30)"
    must = workers_to_take(state, p)
    if a.workers < must:
        return (
            f"workers brought onto a lake cannot be left there: the mech takes all {must} "
            "along (SR-35)"
        )
    return "cargo cannot be left on a lake (SR-35)"


# ------------------------------------------------------------------------------ combat
def _commit(state: Position, p: int, a: A.Commit) -> str | None:
    top = min(D.DIAL_MAX, state.power[p])
    if not 0 <= a.dial <= top:
        return (
            f"the dial goes from 0 to min({D.DIAL_MAX}, your power {state.power[p]}) = {top} "
            "(SR-43 C2)"
        )
    assert state.combat is not None
    k = commit_limit(state, p, state.combat.territory)
    if len(a.cards) > k:
        return f"you may add at most {k} combat card{'s' if k != 1 else ''} here (SR-43 C2)"
    held = state.hand[p * NV : p * NV + NV]
    for v in set(a.cards):
        i = D.CARD_INDEX.get(v)
        if i is None or held[i] < a.cards.count(v):
            return f"you do not hold {a.cards.count(v)} combat card(s) of value {v}"
    return None


def _fight(state: Position, p: int, a: A.Fight) -> str | None:
    where = ", ".join(_loc(t) for t in state.combats)
    return f"there is no combat on {_loc(a.loc)}; combats wait on {where} (SR-42)"


def _retreat(state: Position, p: int, a: A.Retreat) -> str | None:
    home = _loc(D.HOME_OF[state.faction[p]])
    return f"your units retreat to {home} (or, with Seaworthy, an adjacent lake: SR-35, OQ-8)"


# ------------------------------------------------------------------------------ bottom row
def _bottom(state: Position, p: int, a: A.TakeBottom) -> str | None:
    if state.section == D.FACTORY_SECTION:
        return "the Factory card's bottom row is a Move of one unit: choose the unit (SR-49)"
    b = bottom_index(
        state,
    )
    r = section_of_bottom(state, p, b)[2]
    need = bottom_cost(state, p, b)
    have = state.available(p, r)
    return (
        f"{D.BOTTOM_ACTIONS[b].capitalize()} costs {need} {D.RESOURCES[r]}; you control "
        f"{have} (SR-12, SR-14, SR-20)"
    )


def _pay(state: Position, p: int, action: Action) -> str | None:
    if isinstance(action, A.PayCard):
        i = D.CARD_INDEX.get(action.value)
        if i is None or not state.hand[p * NV + i]:
            return f"you hold no combat card of value {action.value}"
        if state.phase == PAY:
            if not state.abilities[p] & D.A_COERCION:
                return "only Crimea (Coercion) pays with a combat card (SR-41)"
            return "Coercion replaces one resource per turn, already used (SR-41, OQ-7)"
        return None
    assert isinstance(action, A.Pay)
    res = D.RESOURCES[state.pay_resource]
    if action.resource != state.pay_resource:
        return f"this cost is paid in {res}, not {D.RESOURCES[action.resource]} (SR-20)"
    if state.controller(action.loc) != p:
        return f"you do not control {_loc(action.loc)}, so its tokens are not yours (SR-14)"
    return f"there is no {res} on {_loc(action.loc)} (SR-14)"


def _benefit(state: Position, p: int, action: Action) -> str | None:
    if state.phase == BENEFIT:
        name = bottom_name(
            state,
        )
        kinds = {"upgrade": A.Upgrade, "deploy": A.Deploy, "build": A.Build, "enlist": A.Enlist}
        if not isinstance(action, kinds.get(name, A.Skip)):
            return f"this bottom action is {name} (SR-7)"
    if isinstance(action, A.Upgrade):
        return "that top box is already upgraded or that bottom slot is full (SR-21)"
    if isinstance(action, A.Deploy):
        if state.mech_loc[p * D.MECHS + action.mech] >= 0:
            return "that mech is already deployed (SR-22)"
        return (
            f"a mech is deployed on a territory you control with one of your workers, never a "
            f"lake; {_loc(action.loc)} is not one (SR-22)"
        )
    if isinstance(action, A.Build):
        if state.structure_loc[p * NS + action.structure] >= 0:
            return f"your {D.STRUCTURES[action.structure]} is already built (SR-23)"
        if 0 <= action.loc < D.NLOC and state.structure_at[action.loc] >= 0:
            return f"{_loc(action.loc)} already holds a structure (SR-23)"
        return (
            f"a structure goes on a territory you control with one of your workers, never a "
            f"lake or home base; {_loc(action.loc)} is not one (SR-23)"
        )
    if isinstance(action, A.Enlist):
        return "that recruit is already enlisted or that one-time space is taken (SR-24)"
    return None


def _grant(state: Position, p: int, action: Action) -> str | None:
    g = state.pending_gains[0]
    if g[0] == "res":
        if not isinstance(action, A.GainResource | A.Done):
            return "place the gained resource tokens first, or done (SR-47)"
        if isinstance(action, A.GainResource):
            return f"gained tokens go on {_loc(state.gains_loc)} (SR-47)"
        return None
    if isinstance(action, A.GainResource | A.Done):
        return f"take the granted {' or '.join(g[1])}, or skip (SR-47)"
    return _benefit(state, p, action)


def _gain(state: Position, p: int, action: Action) -> str | None:
    if state.phase == GAIN:
        return _grant(state, p, action)
    return _benefit(state, p, action)


# ------------------------------------------------------------------------------ encounters
def _option(state: Position, p: int, a: A.EncounterOption) -> str | None:
    card = D.ENCOUNTER_BY_NUMBER[state.encounter_card]
    k = a.slot - 1
    if not 0 <= k < len(card["options"]):
        return f"encounter card {state.encounter_card} has options 1 to {len(card['options'])}"
    if k in state.encounter_chosen:
        return f"you already chose option {a.slot} (SR-41)"
    if state.encounter_chosen:
        return "only Polania (Meander) chooses a second option (SR-41)"
    cost = card["options"][k]["cost"]
    track = {x: v for x, v in cost.items() if x in ("power", "popularity", "coins", "combat_cards")}
    reason = _cost_reason(state, p, f"option {a.slot}", track)
    return reason or f"option {a.slot} asks more than you can give (SR-47)"


def _factory(state: Position, p: int, a: A.TakeFactory) -> str | None:
    return f"Factory card {a.number} is not in the offer (SR-48)"


def _reveal(state: Position, p: int, a: A.Reveal) -> str | None:
    if a.number not in state.objectives[p]:
        return f"you do not hold objective {a.number} (SR-51)"
    if state.reveal_windows_used & WINDOW_OF_PHASE.get(state.phase, 0):
        return "an objective was already revealed in this window (SR-7, SR-51)"
    if not objective_holds(state, p, a.number):
        return f"the condition of objective {a.number} does not hold now (SR-51, OQ-3)"
    return "you already have your objective star (SR-50)"


def _skip(state: Position, p: int, action: Action) -> str | None:
    if state.phase == GAIN:
        return _grant(state, p, action)
    if isinstance(action, A.Done) and state.phase == ENCOUNTER:
        return "choose an option you can pay first (SR-47)"
    return None


_REASONS: dict[type, Callable[[Position, int, Action], str | None]] = {
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
