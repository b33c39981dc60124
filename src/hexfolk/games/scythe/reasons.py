"""Why a Scythe action is refused (SR-6..SR-51): one sentence in the game's words.

:func:`why_illegal` is :meth:`ScytheState.why_illegal`: ``None`` when the action is legal for
the seat (decided by the engine's own check, so a reason never disagrees with legality), else
what it costs and what the player holds, what is missing, what forbids it ("you used this
section last turn (SR-6)"), or whose decision it is, with the rule's number.
"""

from __future__ import annotations

from collections.abc import Callable

from hexfolk.core import CHANCE, TERMINAL, Action, State
from hexfolk.games.scythe import actions as A
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe import state as S
from hexfolk.games.scythe.state import NV, ScytheState

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
    S.SECTION: "choose a section for the action token (SR-7)",
    S.TOP: "take the top-row action or skip it (SR-7)",
    S.MOVE_UNIT: "choose a unit to move, or done (SR-16)",
    S.CARRY: "choose what the moving unit carries (SR-30)",
    S.STEP: "choose where the moving unit steps (SR-25)",
    S.TRADE2: "place the second traded token, or done (SR-18)",
    S.PRODUCE: "choose territories to produce on, or done (SR-19)",
    S.COMBAT_CHOOSE: "choose the next combat (SR-43)",
    S.ARTILLERY: "decide whether to use Artillery (SR-43 C1)",
    S.COMMIT: "commit power and combat cards in secret (SR-43 C2)",
    S.RETREAT: "choose where the losing units retreat (SR-43 C7)",
    S.BOTTOM: "take the bottom-row action or skip it (SR-7)",
    S.PAY: "pay the bottom action's cost from controlled territories (SR-12, SR-14)",
    S.BENEFIT: "choose the bottom action's benefit (SR-12)",
    S.END: "end the turn (or reveal an objective first, SR-51)",
    S.ENC_OPTION: "choose an option of the encounter card (SR-47)",
    S.GRANT: "take what the encounter grants (SR-47)",
    S.FACTORY_PICK: "keep one Factory card of the offer (SR-48)",
    S.FPAY: "discard a combat card to pay the Factory card (SR-49)",
}
"""The decision of each phase, in the game's words, for refusals made in the wrong phase."""

_PHASES_OF: dict[type, tuple[int, ...]] = {
    A.ChooseSection: (S.SECTION,),
    A.MoveCoins: (S.TOP,),
    A.Bolster: (S.TOP,),
    A.TradePopularity: (S.TOP,),
    A.TradeResource: (S.TOP, S.TRADE2),
    A.Produce: (S.TOP, S.PRODUCE),
    A.SelectUnit: (S.TOP, S.MOVE_UNIT, S.BOTTOM),
    A.Carry: (S.CARRY,),
    A.Step: (S.STEP,),
    A.Stop: (S.STEP,),
    A.Fight: (S.COMBAT_CHOOSE,),
    A.UseArtillery: (S.ARTILLERY,),
    A.Commit: (S.COMMIT,),
    A.Retreat: (S.RETREAT,),
    A.EncounterOption: (S.ENC_OPTION,),
    A.GainResource: (S.GRANT,),
    A.TakeFactory: (S.FACTORY_PICK,),
    A.FactoryTop: (S.TOP,),
    A.TakeBottom: (S.BOTTOM,),
    A.Pay: (S.PAY,),
    A.PayCard: (S.PAY, S.FPAY),
    A.Upgrade: (S.BENEFIT, S.GRANT),
    A.Deploy: (S.BENEFIT, S.GRANT),
    A.Build: (S.BENEFIT, S.GRANT),
    A.Enlist: (S.BENEFIT, S.GRANT),
    A.Reveal: (S.TOP, S.BOTTOM, S.END),
    A.EndTurn: (S.END,),
    A.Skip: (S.TOP, S.BOTTOM, S.BENEFIT, S.GRANT),
    A.Done: (S.MOVE_UNIT, S.TRADE2, S.PRODUCE, S.ENC_OPTION, S.GRANT),
}
"""Where each kind of decision can be legal."""


def _legal(state: ScytheState, seat: int, action: Action) -> bool:
    """The engine's own verdict (chance outcomes, the seat to move, a committing seat)."""
    player = state.current_player()
    if player == TERMINAL:
        return False
    if player == CHANCE:
        return seat == CHANCE and state.is_legal(action)
    if seat == player:
        return state.is_legal(action)
    return seat in state.acting_seats() and action in state.legal_actions_for(seat)


def why_illegal(state: ScytheState, seat: int, action: Action) -> str | None:
    """The reason ``seat`` may not take ``action`` now, or None when it is legal."""
    if _legal(state, seat, action):
        return None
    reason = specific_reason(state, seat, action)
    return reason if reason is not None else State.why_illegal(state, seat, action)


def specific_reason(state: ScytheState, seat: int, action: Action) -> str | None:
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


def _waiting(state: ScytheState) -> str:
    acting = state.acting_seats()
    if state.phase == S.COMMIT:
        return f"{', '.join(f'P{q}' for q in acting)} commit in secret for the combat (SR-43 C2)"
    return f"it is P{state.current_player()}'s decision: {_WHAT.get(state.phase, 'play')}"


def _none(state: ScytheState, seat: int, action: Action) -> str | None:
    return None


def _loc(loc: int) -> str:
    return D.LOC_NAMES[loc] if 0 <= loc < D.NLOC else str(loc)


def _have(state: ScytheState, p: int) -> dict[str, int]:
    return {
        "power": state.power[p],
        "popularity": state.pop[p],
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


def _cost_reason(state: ScytheState, p: int, what: str, cost: dict[str, int]) -> str | None:
    have = _have(state, p)
    short = [k for k, v in cost.items() if have.get(k, 0) < v]
    if not short:
        return None
    held = " and ".join(_track_words({k: have.get(k, 0)}) for k in short)
    return f"{what} costs {_track_words(cost)}; you have {held} (SR-12, SR-15)"


# ------------------------------------------------------------------------------ section
def _section(state: ScytheState, p: int, a: A.ChooseSection) -> str | None:
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
    if s == last and not state.abil[p] & D.A_RELENTLESS:
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


def _top_kind(state: ScytheState, p: int, action: Action) -> str | None:
    """The top action named is not this section's, or its cost cannot be paid."""
    top = state._top_name()
    want = "factory" if isinstance(action, A.FactoryTop) else _TOP_OF.get(type(action), top)
    if want != top:
        where = "the Factory card" if top == "factory" else f"section {state.section + 1}"
        return f"the top action of {where} is {top}, not {want} (SR-7)"
    if top == "factory":
        card = D.FACTORY_BY_NUMBER[state.factory_card[p]]
        return _cost_reason(state, p, f"Factory card {card['number']}'s top action", card["cost"])
    cost = state.produce_cost(p) if top == "produce" else D.TOP_COSTS[top]
    return _cost_reason(state, p, top.capitalize(), cost)


def _amount(state: ScytheState, p: int, action: Action, box: str, what: str) -> str | None:
    amount = getattr(action, "amount", 0)
    value = state._top_value(p, box)
    if amount and not 1 <= amount <= value:
        return f"{what} gains at most {value}, so {amount} is too many (SR-12)"
    return None


def _top(state: ScytheState, p: int, action: Action) -> str | None:
    if state.phase == S.TOP:
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
        if action.loc not in state._worker_territories(p):
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


def _produce(state: ScytheState, p: int, a: A.Produce) -> str | None:
    t = a.loc
    if not 0 <= t < D.NTERR or D.PRODUCT[t] == -1:
        return f"{_loc(t)} produces nothing: lakes, the Factory and home bases do not (SR-19)"
    if t in state.produced:
        return f"{_loc(t)} has already produced in this action (SR-19)"
    if state.controller(t) != p:
        return f"you do not control {_loc(t)} (SR-13, SR-19)"
    if not state.wk[t * state.n + p] and state.struct_loc[p * S.NS + D.MILL] != t:
        return f"you have no worker on {_loc(t)} to produce there (SR-19)"
    if t not in state._produce_options(p):
        limit = state.prod_limit or state._top_value(p, "produce-territories")
        return f"Produce reaches at most {limit} territories (SR-19)"
    if a.amount and a.amount > state._produce_count(p, t):
        return f"{_loc(t)} produces at most {state._produce_count(p, t)} (SR-19)"
    return None


# ------------------------------------------------------------------------------ movement
def _unit_at(state: ScytheState, p: int, kind: int, loc: int) -> bool:
    if kind == S.CHARACTER:
        return state.char_loc[p] == loc
    locs = state.mech_loc if kind == S.MECH else state.worker_loc
    per = D.MECHS if kind == S.MECH else D.WORKERS_TOTAL
    return loc in locs[p * per : p * per + per]


def _select(state: ScytheState, p: int, a: A.SelectUnit) -> str | None:
    name = A.UNIT_KINDS[a.kind] if 0 <= a.kind < len(A.UNIT_KINDS) else "unit"
    if not _unit_at(state, p, a.kind, a.loc):
        return f"you have no {name} on {_loc(a.loc)}"
    if state.phase == S.BOTTOM and state.section != D.FACTORY_SECTION:
        return "only the Factory card's bottom row is a Move (SR-49)"
    if state.units_moved and state.units_moved >= state.max_units:
        return f"this Move has already moved {state.units_moved} units (SR-16)"
    return (
        f"your {name} on {_loc(a.loc)} has already moved in this Move or has nowhere to go "
        "(SR-25, SR-26, SR-31)"
    )


def _step(state: ScytheState, p: int, action: Action) -> str | None:
    kind, i = state.sel
    name = A.UNIT_KINDS[kind]
    here = _loc(state._unit_loc(p, kind, i))
    if isinstance(action, A.Stop):
        if not state.steps_taken:
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


def _carry(state: ScytheState, p: int, a: A.Carry) -> str | None:
    kind, _ = state.sel
    w, r = state._carry_avail(p)
    if a.workers and kind != S.MECH:
        return f"a {A.UNIT_KINDS[kind]} never carries workers; only mechs do (SR-30)"
    if a.workers > w:
        return f"only {w} of your workers are here to carry (SR-30)"
    for k in range(D.NRES):
        if a.resources[k] > r[k]:
            return f"only {r[k]} {D.RESOURCES[k]} lie here to pick up (SR-30)"
    return "cargo cannot be left on a lake (SR-35)"


# ------------------------------------------------------------------------------ combat
def _commit(state: ScytheState, p: int, a: A.Commit) -> str | None:
    top = min(D.DIAL_MAX, state.power[p])
    if not 0 <= a.dial <= top:
        return (
            f"the dial goes from 0 to min({D.DIAL_MAX}, your power {state.power[p]}) = {top} "
            "(SR-43 C2)"
        )
    k = state.commit_limit(p, state.cb[0])
    if len(a.cards) > k:
        return f"you may add at most {k} combat card{'s' if k != 1 else ''} here (SR-43 C2)"
    held = state.hand[p * NV : p * NV + NV]
    for v in set(a.cards):
        i = D.CARD_INDEX.get(v)
        if i is None or held[i] < a.cards.count(v):
            return f"you do not hold {a.cards.count(v)} combat card(s) of value {v}"
    return None


def _fight(state: ScytheState, p: int, a: A.Fight) -> str | None:
    where = ", ".join(_loc(t) for t in state.combats)
    return f"there is no combat on {_loc(a.loc)}; combats wait on {where} (SR-42)"


def _retreat(state: ScytheState, p: int, a: A.Retreat) -> str | None:
    home = _loc(D.HOME_OF[state.faction[p]])
    return f"your units retreat to {home} (or, with Seaworthy, an adjacent lake: SR-35, OQ-8)"


# ------------------------------------------------------------------------------ bottom row
def _bottom(state: ScytheState, p: int, a: A.TakeBottom) -> str | None:
    if state.section == D.FACTORY_SECTION:
        return "the Factory card's bottom row is a Move of one unit: choose the unit (SR-49)"
    b = state._bottom_index()
    r = state._section_of_bottom(p, b)[2]
    need = state.bottom_cost(p, b)
    have = state._avail(p, r)
    return (
        f"{D.BOTTOM_ACTIONS[b].capitalize()} costs {need} {D.RESOURCES[r]}; you control "
        f"{have} (SR-12, SR-14, SR-20)"
    )


def _pay(state: ScytheState, p: int, action: Action) -> str | None:
    if isinstance(action, A.PayCard):
        i = D.CARD_INDEX.get(action.value)
        if i is None or not state.hand[p * NV + i]:
            return f"you hold no combat card of value {action.value}"
        if state.phase == S.PAY:
            if not state.abil[p] & D.A_COERCION:
                return "only Crimea (Coercion) pays with a combat card (SR-41)"
            return "Coercion replaces one resource per turn, already used (SR-41, OQ-7)"
        return None
    assert isinstance(action, A.Pay)
    res = D.RESOURCES[state.pay_res]
    if action.resource != state.pay_res:
        return f"this cost is paid in {res}, not {D.RESOURCES[action.resource]} (SR-20)"
    if state.controller(action.loc) != p:
        return f"you do not control {_loc(action.loc)}, so its tokens are not yours (SR-14)"
    return f"there is no {res} on {_loc(action.loc)} (SR-14)"


def _benefit(state: ScytheState, p: int, action: Action) -> str | None:
    if state.phase == S.BENEFIT:
        name = state._bottom_name()
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
        if state.struct_loc[p * S.NS + action.structure] >= 0:
            return f"your {D.STRUCTURES[action.structure]} is already built (SR-23)"
        if 0 <= action.loc < D.NLOC and state.struct_at[action.loc] >= 0:
            return f"{_loc(action.loc)} already holds a structure (SR-23)"
        return (
            f"a structure goes on a territory you control with one of your workers, never a "
            f"lake or home base; {_loc(action.loc)} is not one (SR-23)"
        )
    if isinstance(action, A.Enlist):
        return "that recruit is already enlisted or that one-time space is taken (SR-24)"
    return None


def _grant(state: ScytheState, p: int, action: Action) -> str | None:
    g = state.grants[0]
    if g[0] == "res":
        if not isinstance(action, A.GainResource | A.Done):
            return "place the gained resource tokens first, or done (SR-47)"
        if isinstance(action, A.GainResource):
            return f"gained tokens go on {_loc(state.grant_loc)} (SR-47)"
        return None
    if isinstance(action, A.GainResource | A.Done):
        return f"take the granted {' or '.join(g[1])}, or skip (SR-47)"
    return _benefit(state, p, action)


def _gain(state: ScytheState, p: int, action: Action) -> str | None:
    if state.phase == S.GRANT:
        return _grant(state, p, action)
    return _benefit(state, p, action)


# ------------------------------------------------------------------------------ encounters
def _option(state: ScytheState, p: int, a: A.EncounterOption) -> str | None:
    card = D.ENCOUNTER_BY_NUMBER[state.enc_card]
    k = a.slot - 1
    if not 0 <= k < len(card["options"]):
        return f"encounter card {state.enc_card} has options 1 to {len(card['options'])}"
    if k in state.enc_chosen:
        return f"you already chose option {a.slot} (SR-41)"
    if state.enc_chosen:
        return "only Polania (Meander) chooses a second option (SR-41)"
    cost = card["options"][k]["cost"]
    track = {x: v for x, v in cost.items() if x in ("power", "popularity", "coins", "combat_cards")}
    reason = _cost_reason(state, p, f"option {a.slot}", track)
    return reason or f"option {a.slot} asks more than you can give (SR-47)"


def _factory(state: ScytheState, p: int, a: A.TakeFactory) -> str | None:
    return f"Factory card {a.number} is not in the offer (SR-48)"


def _reveal(state: ScytheState, p: int, a: A.Reveal) -> str | None:
    if a.number not in state.objectives[p]:
        return f"you do not hold objective {a.number} (SR-51)"
    if state.windows_used & S.WINDOW_OF_PHASE.get(state.phase, 0):
        return "an objective was already revealed in this window (SR-7, SR-51)"
    if not state.objective_holds(p, a.number):
        return f"the condition of objective {a.number} does not hold now (SR-51, OQ-3)"
    return "you already have your objective star (SR-50)"


def _skip(state: ScytheState, p: int, action: Action) -> str | None:
    if state.phase == S.GRANT:
        return _grant(state, p, action)
    if isinstance(action, A.Done) and state.phase == S.ENC_OPTION:
        return "choose an option you can pay first (SR-47)"
    return None


_REASONS: dict[type, Callable[[ScytheState, int, Action], str | None]] = {
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
