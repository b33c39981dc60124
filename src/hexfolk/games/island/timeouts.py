"""Turn clock defaults (IR-26..IR-28): the action the table applies for a seat whose clock ran out.

:func:`timeout_action` answers the seat's *current* decision with IR-28's default and nothing
more; the table applies it and asks again for as long as that seat still owes a decision of the
expired turn or step (``State.timeout_action``). So an expiry before the roll rolls, the roll's
decisions (the seat's own discard, the robber) get their defaults, and the main phase that
follows ends the turn, as IR-28 says. Every default is one of the seat's legal actions
(``legal_actions_for``), chosen with the table's ``rng`` only:

========================  ==================================================================
prompt kind               default (IR-28)
========================  ==================================================================
``setup-settlement``      the legal intersection with the highest pip sum (random tie-break)
``setup-road``            a random legal road touching that settlement
``pre-roll``              ``roll`` (no card is played)
``discard``               one card at a time, each a random card of those still held
``robber``                a random legal hex, preferring hexes without own buildings, then a
                          random eligible victim there
``road-building``         ``end``: forfeit the unplaced roads (typed, not listed: IR-64 asks a
                          player to place them; only the clock gives them up)
``main``                  withdraw the open offers one by one (unanswered seats count as
                          rejections), then ``end``
``answer``                ``reject``
``sbp-signup``            ``sbp pass`` (not signed up)
``sbp-build``             ``end`` (the slot is passed)
========================  ==================================================================

IR-28's Year of Plenty and Monopoly rows never arise: the engine takes the choice with the
card (``play plenty 1l 1o``, ``play monopoly w``), so no such choice is ever pending, and a
default never plays a card.

:func:`clock_step` says which window a pending decision runs on (IR-26, IR-27): each setup
placement (settlement and road) has a fresh window of the whole clock; every seat that must
discard after a 7, the roller too, has a parallel window (the table caps it at 60 s) while the
roller's turn window pauses; answers to offers are parallel too; the special build sign-up is
a parallel window of 5 s that bots answer at once (IR-30), each special build slot a step
window of half the turn clock, at least 15 s (IR-31); everything else of the turn runs on the
turn's window of the active seat. No window is longer than the turn clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hexfolk.core import Action, ClockStep
from hexfolk.games.island import actions as A
from hexfolk.games.island.position import IslandPosition

Default = Callable[[IslandPosition, int, Sequence[Action], random.Random], Action]


def timeout_action(state: IslandPosition, seat: int, rng: random.Random) -> Action | None:
    """IR-28's default for ``seat``'s pending decision, or None when the seat owes nothing."""
    legal = state.legal_actions_for(seat)
    if not legal:
        return None
    return DEFAULTS[pending_kind(state, seat)](state, seat, legal, rng)


PARALLEL_KINDS = frozenset({"discard", "answer"})
"""Decisions owed beside the active seat's turn (IR-27: a parallel window, capped)."""

SIGNUP_SECONDS = 5.0
"""IR-30: the special build sign-up window lasts 5 s (or until everyone has answered)."""

SLOT_SHARE, SLOT_FLOOR = 0.5, 15.0
"""IR-31: a special build slot has half the turn clock, at least 15 s."""


def clock_step(state: IslandPosition, seat: int) -> ClockStep:
    """IR-26/IR-27: the clock window of ``seat``'s pending decision. A setup placement is its
    own step (``setup_index`` counts placements; it moves on after the road); a discard, the
    roller's included, is a parallel window of the turn's 7; the rest of a turn is the
    active seat's turn window."""
    kind = pending_kind(state, seat)
    turn = state.turn
    if kind.startswith("setup-"):
        return ClockStep("step", ("setup", state.setup_index))
    if kind == "sbp-signup":  # IR-30: 5 s for everyone at once; bots answer at once
        return ClockStep("parallel", (kind, turn), share=0.0, floor=SIGNUP_SECONDS, bot_delay=False)
    if kind == "sbp-build":  # IR-31: each slot its own window
        return ClockStep("step", (kind, turn), share=SLOT_SHARE, floor=SLOT_FLOOR)
    if kind in PARALLEL_KINDS:
        return ClockStep("parallel", (kind, turn))
    if seat == state.active:
        return ClockStep("turn", ("turn", turn))
    return ClockStep("parallel", (kind, turn))


def pending_kind(state: IslandPosition, seat: int) -> str:
    """The prompt kind of ``seat``'s pending decision (``State.prompt_for``: also for a seat
    deciding beside the one ``prompt()`` names: discards, answers to offers)."""
    prompt = state.prompt_for(seat)
    if prompt is None:
        raise ValueError(f"seat {seat} owes no decision now")
    return prompt.kind


# --- one default per prompt kind -------------------------------------------------------------
def setup_settlement(
    state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """IR-28: the legal intersection with the highest pip sum of its hexes' tokens (1.2),
    ties broken at random."""
    assert state.layout_tables is not None
    pips = state.layout_tables.node_pips
    spots = [a for a in legal if isinstance(a, A.BuildSettlement)]
    best = max(pips[a.node] for a in spots)
    return rng.choice([a for a in spots if pips[a.node] == best])


def setup_road(
    state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """IR-28: a random legal road touching the settlement just placed (IR-20)."""
    prompt = state.prompt_for(seat)
    node = prompt.data["settlement"] if prompt is not None else -1
    edges = state.topology.node_edges[node] if node >= 0 else ()
    roads = [a for a in legal if isinstance(a, A.BuildRoad) and a.edge in edges]
    return rng.choice(roads or list(legal))


def pre_roll(
    state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """IR-28: roll automatically (no card is played first)."""
    return A.ROLL


def discard(
    state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """IR-28: discard at random, one card per action (the engine's discard step): a card drawn
    uniformly from those the seat still holds beyond the ones it already selected, so the
    cards of a whole discard are a uniform random part of the hand (IR-41)."""
    held = state.hands[seat]
    chosen = state.discard_partial[seat]
    options = [a for a in legal if isinstance(a, A.Discard)]
    weights = [held[a.resource] - chosen[a.resource] for a in options]  # each >= 1
    return rng.choices(options, weights)[0]


def robber(state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """IR-28: a random legal hex, preferring one without the seat's own buildings; there, a
    random eligible victim (the listed steals of that hex, IR-43)."""
    moves = [a for a in legal if isinstance(a, A.MoveRobber)]
    hexes = sorted({a.hex for a in moves})
    owner = state.node_owner
    hex_nodes = state.topology.hex_nodes
    free = [h for h in hexes if h < 0 or all(owner[v] != seat for v in hex_nodes[h])]
    h = rng.choice(free or hexes)
    return rng.choice([a for a in moves if a.hex == h])


def road_building(
    state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """IR-28: forfeit the unplaced roads of Road Building (``end``, legal in this step though
    not listed; the step resumes where the card was played)."""
    return A.END


def main(state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """IR-28: withdraw the open offers (missing answers count as rejections), then end the
    turn. After a timed-out roll this is what ends the turn."""
    for a in legal:
        if isinstance(a, A.Withdraw):
            return a
    return A.END


def answer(state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """IR-28 (open offers): an answer not given counts as a rejection; the listed rejection
    of the first offer the seat has not answered (one per action, as answers are given)."""
    for a in legal:
        if isinstance(a, A.Reject):
            return a
    return A.REJECT


def sbp_signup(
    state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """IR-28: not signed up for the special build phase."""
    return A.SBP_PASS


def sbp_build(
    state: IslandPosition, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """IR-28: the special build slot is passed."""
    return A.END


DEFAULTS: dict[str, Default] = {
    "setup-settlement": setup_settlement,
    "setup-road": setup_road,
    "pre-roll": pre_roll,
    "discard": discard,
    "robber": robber,
    "road-building": road_building,
    "main": main,
    "answer": answer,
    "sbp-signup": sbp_signup,
    "sbp-build": sbp_build,
}
"""IR-28's default per prompt kind (every decision the engine can ask for)."""
