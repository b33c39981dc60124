"""Undo within your own turn: which of a seat's latest steps may be taken back, from the log.

The game *as played* is the event log without its ``undo`` events and without the steps they
took back (:func:`live_events`); records, replays, statistics and recovery all read it.

The policy (Board Game Arena's): a seat takes back only its **own** steps, only of its
**own turn**, newest first, and never past a step that another seat has seen change its
cards or the public state in a way the rules make final. Walking back from the newest step of
the game as played, the seat's own steps count until the first **barrier**:

1. a chance step (dice, a card or tile drawn, an encounter card, a steal, a shuffle);
2. any step of another seat (simultaneous answers and combat commitments included): nothing
   before it can be undone, so no undo ever reaches into another seat's turn or takes back
   what another seat answered;
3. a step of an earlier turn (``State.turn_count()`` has moved on: a new turn);
4. a time-out default or a stand-in bot's step (and a bot seat never undoes);
5. a **final** step (:func:`final_reason`, decided when the step is taken): the step itself
   stays, and only the seat's steps after it may go. Final are

   * a decision the seat gave *at once with other seats*, in or out of its own turn (it is
     one of ``State.simultaneous_seats()`` before the step): a discard after a 7, an answer
     to a trade offer, the special build sign-up, a combat commitment. Decided: such an
     answer is final as soon as it is sent, not "until another seat acts" — the other seats
     decide on what they saw, and a seat's only steps outside its own turn are of this kind
     or a combat's (Scythe's retreat), which the engine marks final;
   * a step the game's rules make final (``State.why_final``, asked before the step, cheap):
     it changed another seat's cards or hand (a completed trade, Monopoly; Scythe: a recruit
     bonus, workers sent home), or it is public and final by the rules (a development card
     played, the robber moved; Scythe: every combat step and the step that begins one, an
     encounter option, a Factory card kept, an objective revealed, a combat card shown).
     ``docs/island.md`` and ``docs/scythe.md`` list each game's;
6. a step that showed its actor hidden information (``State.reveals_to``: the Factory offer
   looked at, the other side's combat commitment revealed, the cards a Monopoly takes).

``reveals_to`` costs a few milliseconds (up to a few hundred for a big Scythe position), too
much for the event loop: :func:`check_reveal` runs it in one worker thread after the step is
announced, and until it answers the step counts as undoable (a ``None`` flag). An undo
request never trusts that guess: the room settles every unknown flag of the steps it would
take back first. The final mark is known at once (and computed again when a restarted room
replays its log).

Nothing is deleted: an undo is an event of its own (``undoes`` names the first step it takes
back), so versions only grow and the log keeps everything that happened.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol, TypeVar

from hexfolk.core import Action, State

log = logging.getLogger("hexfolk.server.undo")

NOTHING = "nothing of yours to undo this turn"
CHANCE = "something random was revealed since (dice rolled, a card drawn): it cannot be taken back"
OTHER_SEAT = "another seat has acted since"
NEW_TURN = "a new turn has begun since"
TURN_START = "that is where this turn began"
TIMEOUT = "a time-out default was applied for you; it cannot be taken back"
STAND_IN = "a stand-in bot played for you; its steps cannot be taken back"
REVEALED = "that step showed you hidden information; it cannot be taken back"
FINAL = "that step is final: {why}"
"""The refusal at a final step; ``why`` is :func:`final_reason`'s sentence."""
UNKNOWN = "the game could not tell whether it may be taken back (an error, logged)"
AT_ONCE = (
    "an answer given at once with other seats (a discard, a reply to an offer, a commitment) "
    "is final once sent"
)


class Logged(Protocol):
    """What :func:`live_events` reads of an event (an ``EventRow`` or a ``Step``)."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def undoes(self) -> int | None: ...


class Event(Logged, Protocol):
    """What the undo rules read of a step of the game as played (a ``Step``)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def timeout(self) -> bool: ...
    @property
    def stand_in(self) -> bool: ...
    @property
    def bot(self) -> bool: ...
    @property
    def reveals(self) -> bool | None: ...
    @property
    def final(self) -> str | None: ...


def live_events(events: Sequence[E]) -> list[E]:
    """The steps of the game as played: every ``undo`` event removes the steps it took back
    (always the latest ones) and is itself no step of the game."""
    out: list[E] = []
    for ev in events:
        if ev.kind == "undo":
            first = ev.undoes if ev.undoes is not None else ev.seq
            while out and out[-1].seq >= first:
                out.pop()
        else:
            out.append(ev)
    return out


E = TypeVar("E", bound=Logged)

_REVEALS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexfolk-reveals")


def final_reason(state: State, seat: int, action: Action) -> str | None:
    """Why ``seat``'s ``action`` can never be undone (barrier 5), asked on the state before
    the step: the game's sentence (``State.why_final``), else :data:`AT_ONCE` for a decision
    given at once with other seats, else None."""
    try:
        why = state.why_final(seat, action)
    except Exception:  # an engine bug: logged and counted as final (the step stays)
        log.exception("why_final failed for seat %d, action %s", seat, action)
        why = UNKNOWN
    if why is None and seat in state.simultaneous_seats():
        why = AT_ONCE
    return why


def reveals(state: State, seat: int, action: Action, seed: int) -> bool:
    """``state.reveals_to`` with the table's derived seed (the same answer on every path)."""
    return state.reveals_to(seat, action, random.Random(seed))


async def check_reveal(state: State, seat: int, action: Action, seed: int) -> bool:
    """:func:`reveals` in the worker thread; ``state`` must share nothing with a state the
    event loop uses (a pickled copy: a clone shares the log's frozen chunks and their memo)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_REVEALS, reveals, state, seat, action, seed)


@dataclass(frozen=True, slots=True)
class Undoable:
    """How many of a seat's latest steps may be taken back, and why not more."""

    steps: int
    reason: str
    """Why no further step can be undone (the sentence of the refusal)."""


def undoable(live: Sequence[Event], turns: Sequence[int], seat: int, turn_now: int) -> Undoable:
    """Walk the game as played back from its end: ``seat``'s own steps of the current turn
    count, up to the first barrier. ``turns[i]`` is ``turn_count()`` before ``live[i]``."""
    n = 0
    for i in range(len(live) - 1, -1, -1):
        ev = live[i]
        if ev.kind == "action" and ev.seat == seat:
            if turns[i] != turn_now:
                return Undoable(n, NEW_TURN if n == 0 else TURN_START)
            if ev.timeout:
                return Undoable(n, TIMEOUT)
            if ev.stand_in or ev.bot:
                return Undoable(n, STAND_IN)
            if ev.final:
                return Undoable(n, FINAL.format(why=ev.final))
            if ev.reveals:
                return Undoable(n, REVEALED)
            n += 1
            continue
        if turns[i] != turn_now and n > 0:
            return Undoable(n, TURN_START)
        if n == 0 and not _has_step_behind(live, turns, i, seat, turn_now):
            return Undoable(0, NOTHING)
        return Undoable(n, CHANCE if ev.kind == "chance" else OTHER_SEAT)
    return Undoable(n, TURN_START if n else NOTHING)


def _has_step_behind(
    live: Sequence[Event], turns: Sequence[int], i: int, seat: int, turn_now: int
) -> bool:
    """Is there a step of ``seat`` in the current turn before ``live[i]``?"""
    for j in range(i - 1, -1, -1):
        if turns[j] != turn_now:
            return False
        if live[j].kind == "action" and live[j].seat == seat:
            return True
    return False
