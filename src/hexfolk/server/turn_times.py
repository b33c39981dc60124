"""How long a finished game and its turns took (issue 25, finding 17), from the event log's
wall times alone, so the figures survive a restart and read the game as played (undone steps
left out).

* The game's **duration** runs from its first event (the start's chance draws) to its last.
* A **turn** (``State.turn_count()``) runs from the event that began it (the one that ended the
  turn before, or the game's first event) to the event that ended it (or the game's last). It
  belongs to the seat whose ``turn`` window it is (``State.clock_step``): the island's setup has
  no such seat and is no one's turn. The special build phase after an island turn, the
  discards and answers of others, and the bots' delays count in the turn they happen in.

Per seat: how many turns, their average and the longest, in seconds (0.1 s).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexfolk.core import State, load_game
from hexfolk.server.models import EventRow, TableRow
from hexfolk.server.undo import live_events

DIGITS = 2
"""The figures are seconds rounded to 0.01 s (a bot's turn takes a few hundredths)."""


def turn_owner(state: State) -> int | None:
    """The seat deciding on its turn window now, if any."""
    if state.is_terminal() or state.is_chance():
        return None
    for seat in state.acting_seats():
        if state.clock_step(seat).kind == "turn":
            return seat
    return None


def turn_times(row: TableRow, events: Sequence[EventRow]) -> dict[str, Any]:
    """``{"duration": s, "seats": [{"seat", "turns", "average", "longest"}]}``."""
    steps = live_events(events)
    per_seat: list[list[float]] = [[] for _ in range(row.players)]
    if not steps:
        return {"duration": 0.0, "seats": _seats(per_seat)}
    state = load_game(row.game, row.players, row.options).new_initial_state()
    turn = state.turn_count()
    began = steps[0].at
    owner = turn_owner(state)
    for ev in steps:
        if ev.kind == "chance":
            state.apply(state.parse_action(ev.action))
        else:
            assert ev.seat is not None
            state.apply_for(ev.seat, state.parse_action_for(ev.seat, ev.action))
        if state.turn_count() != turn or state.is_terminal():
            if owner is not None and 0 <= owner < row.players:
                per_seat[owner].append(max(0.0, ev.at - began))
            turn, began, owner = state.turn_count(), ev.at, None
        if owner is None:
            owner = turn_owner(state)
    return {"duration": round(steps[-1].at - steps[0].at, DIGITS), "seats": _seats(per_seat)}


def _seats(per_seat: list[list[float]]) -> list[dict[str, Any]]:
    return [
        {
            "seat": s,
            "turns": len(times),
            "average": round(sum(times) / len(times), DIGITS) if times else None,
            "longest": round(max(times), DIGITS) if times else None,
        }
        for s, times in enumerate(per_seat)
    ]
