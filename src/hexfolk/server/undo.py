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

Nothing is deleted: an undo is an event of its own (``undoes`` names the first step it takes
back), so versions only grow and the log keeps everything that happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

NOTHING = "nothing of yours to undo this turn"
CHANCE = "something random was revealed since (dice rolled, a card drawn): it cannot be taken back"
OTHER_SEAT = "another seat has acted since"
NEW_TURN = "a new turn has begun since"
TURN_START = "that is where this turn began"
TIMEOUT = "a time-out default was applied for you; it cannot be taken back"
STAND_IN = "a stand-in bot played for you; its steps cannot be taken back"
REVEALED = "that step showed you hidden information; it cannot be taken back"


class Event(Protocol):
    """What the undo rules read of a step (an ``EventRow`` or a ``Step``)."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def timeout(self) -> bool: ...
    @property
    def stand_in(self) -> bool: ...
    @property
    def bot(self) -> bool: ...
    @property
    def undoes(self) -> int | None: ...
    @property
    def reveals(self) -> bool: ...


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


E = TypeVar("E", bound=Event)


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
