"""Undo within your own turn: which of a seat's latest steps may be taken back, from the log.

The game *as played* is the event log without its ``undo`` events and without the steps they
took back (:func:`live_events`); records, replays, statistics and recovery all read it. A seat
may take back the run of its own latest steps of the game as played, newest first, up to the
first **barrier**:

* a chance step (dice, a card or tile drawn, an encounter, a shuffle);
* any step of another seat (simultaneous answers and combat commitments included);
* a step of an earlier turn (``State.turn_count()`` has moved on: a new turn);
* a time-out default or a stand-in bot's step (and a bot seat never undoes);
* a step that showed its actor hidden information (``State.reveals_to``: the Factory offer
  looked at, the other side's combat commitment revealed, the cards a Monopoly takes).

``reveals_to`` costs a few milliseconds (up to a few hundred for a big Scythe position), too
much for the event loop: :func:`check_reveal` runs it in one worker thread after the step is
announced, and until it answers the step counts as undoable (a ``None`` flag). An undo
request never trusts that guess: the room settles every unknown flag of the steps it would
take back first.

Nothing is deleted: an undo is an event of its own (``undoes`` names the first step it takes
back), so versions only grow and the log keeps everything that happened.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol, TypeVar

from hexfolk.core import Action, State

NOTHING = "nothing of yours to undo this turn"
CHANCE = "something random was revealed since (dice rolled, a card drawn): it cannot be taken back"
OTHER_SEAT = "another seat has acted since"
NEW_TURN = "a new turn has begun since"
TURN_START = "that is where this turn began"
TIMEOUT = "a time-out default was applied for you; it cannot be taken back"
STAND_IN = "a stand-in bot played for you; its steps cannot be taken back"
REVEALED = "that step showed you hidden information; it cannot be taken back"


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


def reveals(state: State, seat: int, action: Action, seed: int) -> bool:
    """``state.reveals_to`` with the table's derived seed (the same answer on every path)."""
    return state.reveals_to(seat, action, random.Random(seed))


async def check_reveal(state: State, seat: int, action: Action, seed: int) -> bool:
    """:func:`reveals` in the worker thread; ``state`` must be a copy nobody else touches."""
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
