"""Turn clock defaults: the action the table applies for a seat whose clock ran out.

The rules give no defaults, so Hexfolk decides them (issue 12, ``docs/scythe.md``, "Turn clock
defaults"). One principle: **start nothing, finish what is paid for, risk nothing.** A default
never takes an optional action (top or bottom row, a Factory card's top or Move, artillery, a
reveal) and never puts power or cards into a combat; where the player already paid (a
Trade's $1, the produce track, a bottom-row cost, an encounter option's cost), it collects the
benefit with the first listed choice, so nothing paid is wasted; a move under way ends at
once, stepping only where no opponent stands. The turn therefore always ends: a default never
opens a new step, and each one it finishes is bounded (units, steps, territories, tokens).

:func:`timeout_action` answers the seat's *current* decision only; the table applies it and
asks again while that seat still owes a decision of the expired turn or step
(``State.timeout_action``). Every default is one of the seat's legal actions
(``legal_actions_for``); none needs randomness.

:func:`clock_step` says which window a pending decision runs on: the two secret combat
commitments each have a window of the table's commitment clock (issue 25, finding 10), during
which the attacker's turn window pauses; the rest of the active seat's turn runs on its turn
window, and any other seat's decision (a defender's retreat) on a parallel window.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hexfolk.core import Action, ClockStep
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    ChooseSection,
    Commit,
    Done,
    EncounterOption,
    EndTurn,
    Pay,
    PayCard,
    Retreat,
    Skip,
    Step,
    Stop,
    TakeFactory,
    UseArtillery,
)
from hexfolk.games.scythe.position import Position

Default = Callable[[Position, int, Sequence[Action]], Action]


def timeout_action(state: Position, seat: int, rng: random.Random) -> Action | None:
    """The default for ``seat``'s pending decision, or None when the seat owes nothing.
    (``rng`` is part of the kernel's signature; no Scythe default is random.)"""
    legal = state.legal_actions_for(seat)
    if not legal:
        return None
    return DEFAULTS[pending_kind(state, seat)](state, seat, legal)


def clock_step(state: Position, seat: int) -> ClockStep:
    """The clock window of ``seat``'s pending decision: a combat commitment (SR-43 C2) is
    on the commitment clock, one window per combat (its territory); the active seat's other
    decisions are on its turn window; any other seat's on a parallel one."""
    kind = pending_kind(state, seat)
    if kind == "commit":
        where = state.combat.territory if state.combat is not None else -1
        return ClockStep("commitment", ("commit", state.turns, where))
    if seat == state.active:
        return ClockStep("turn", ("turn", state.turns))
    return ClockStep("parallel", (kind, state.turns))


def pending_kind(state: Position, seat: int) -> str:
    """The prompt kind of ``seat``'s pending decision (``State.prompt_for``: also for a seat
    deciding beside the one ``prompt()`` names: the second combat commitment)."""
    prompt = state.prompt_for(seat)
    if prompt is None:
        raise ValueError(f"seat {seat} owes no decision now")
    return prompt.kind


# --- helpers ---------------------------------------------------------------------------------
def _first_of(legal: Sequence[Action], kind: type[Action]) -> Action | None:
    for a in legal:
        if isinstance(a, kind):
            return a
    return None


def _decline(legal: Sequence[Action]) -> Action:
    """The listed way of taking nothing: ``end``, ``skip`` or ``done``."""
    for kind in (EndTurn, Skip, Done, Stop):
        a = _first_of(legal, kind)
        if a is not None:
            return a
    return legal[0]


def _collect(legal: Sequence[Action]) -> Action:
    """A paid-for benefit: the first listed choice that takes something, else the decline."""
    for a in legal:
        if not isinstance(a, (Skip, Done, EndTurn, Stop)):
            return a
    return _decline(legal)


# --- one default per prompt kind -------------------------------------------------------------
def choose_section(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-6, SR-8: the token must move; the first legal section (the lowest-numbered mat
    section other than last turn's, never the Factory card). What follows is declined."""
    for a in legal:
        if isinstance(a, ChooseSection) and a.section != D.FACTORY_SECTION:
            return a
    return legal[0]


def decline(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """Take nothing: ``skip`` the top or bottom action (SR-7), ``done`` moving units (SR-16),
    ``end`` the turn without a reveal (SR-51: delaying a reveal is allowed)."""
    return _decline(legal)


def collect(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """Finish a paid-for benefit with the first listed choice: the second Trade token (SR-18),
    the next Produce territory (SR-19), the bottom-row benefit (SR-12, SR-21..SR-24), a card's
    gains and granted actions (SR-47, SR-49, OQ-13)."""
    return _collect(legal)


def first(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """A forced choice with nothing to lose: the first listed (the cargo already held, or none
    before the first step, SR-30; the next combat, SR-43; the Factory card to keep, SR-48)."""
    return legal[0]


def step(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """End the move: ``stop`` when allowed (SR-34); else the first destination holding no
    opponent unit, so no combat and no displaced workers (SR-31: no popularity lost); else the
    first destination."""
    stop = _first_of(legal, Stop)
    if stop is not None:
        return stop
    n = state.n
    steps = [a for a in legal if isinstance(a, Step)]
    for a in steps:
        loc = a.loc
        if not any(
            state.combat_units_on[loc * n + q] or state.workers_on[loc * n + q]
            for q in range(n)
            if q != seat
        ):
            return a
    return steps[0] if steps else legal[0]


def artillery(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-43 C1: Artillery is optional; no power is spent."""
    return UseArtillery(False) if UseArtillery(False) in legal else legal[0]


def commit(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-43 C2: dial 0 and no combat cards (legal for everyone, costs nothing, C4)."""
    commits = [a for a in legal if isinstance(a, Commit)]
    return min(commits, key=lambda a: (a.dial, len(a.cards), sum(a.cards)))


def retreat(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-43 C7, OQ-8: the home base (the first listed), workers along."""
    for a in legal:
        if isinstance(a, Retreat) and D.IS_HOME[a.loc]:
            return a
    return legal[0]


def pay(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-12, SR-14: the cost of a bottom action already taken: a token from the first listed
    territory; a Coercion card (SR-41) only when no token is there, the lowest one."""
    token = _first_of(legal, Pay)
    if token is not None:
        return token
    return pay_card(state, seat, legal)


def pay_card(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-49, OQ-4: a Factory card's combat-card cost, with the lowest card."""
    cards = [a for a in legal if isinstance(a, PayCard)]
    return min(cards, key=lambda a: a.value) if cards else legal[0]


def encounter(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-47: the affordable option with the smallest cost (option 1 costs nothing on every
    card), its benefit taken whole; after Meander's first option (SR-41), ``done``."""
    done = _first_of(legal, Done)
    if done is not None:
        return done
    options = [a for a in legal if isinstance(a, EncounterOption)]
    card = D.ENCOUNTER_BY_NUMBER[state.encounter_card]["options"]

    def cost(a: EncounterOption) -> tuple[int, int]:
        return sum(card[a.slot - 1]["cost"].values()), a.slot

    return min(options, key=cost) if options else legal[0]


def factory_offer(state: Position, seat: int, legal: Sequence[Action]) -> Action:
    """SR-48: a card must be kept; the lowest-numbered of the offer."""
    cards = [a for a in legal if isinstance(a, TakeFactory)]
    return min(cards, key=lambda a: a.number) if cards else legal[0]


DEFAULTS: dict[str, Default] = {
    "choose-section": choose_section,
    "top-action": decline,
    "choose-unit": decline,
    "carry": first,
    "step": step,
    "trade-second-token": collect,
    "produce": collect,
    "choose-combat": first,
    "artillery": artillery,
    "commit": commit,
    "retreat": retreat,
    "bottom-action": decline,
    "pay": pay,
    "benefit": collect,
    "end-turn": decline,
    "encounter": encounter,
    "gain": collect,
    "factory-offer": factory_offer,
    "pay-card": pay_card,
}
"""The default per prompt kind: every decision the engine can ask for (``PHASE_NAMES`` but
``setup`` and ``over``, which never ask)."""
