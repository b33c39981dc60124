"""Time-out marks: which lines of each viewer's log a clock's defaults wrote (issue 25,
finding 5).

A time-out applies the game's defaults for a seat (``ClockExpiry``); the lines those steps
and the chance draws between them add to a viewer's log are that viewer's mark: ``(seat,
log_from, log_to)``, line indices of the viewer's own log (``observation(viewer)["log"]``;
each viewer sees its own lines). Views carry the marks of the lines they send (``timeouts``,
``docs/protocol.md``), so every connection can show "(time-out)" beside them. The room notes
marks as it applies defaults and rebuilds them from the event log's timeout flags on load
(:func:`rebuild`), so they survive a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hexfolk.core import State

Viewer = int | None


@dataclass(frozen=True, slots=True)
class Mark:
    seat: int
    log_from: int
    log_to: int

    def to_json(self) -> dict[str, int]:
        return {"seat": self.seat, "log_from": self.log_from, "log_to": self.log_to}


def viewers(state: State) -> list[Viewer]:
    """Every seat and the spectators (``None``)."""
    return [*range(state.game.num_players), None]


def log_lengths(state: State) -> dict[Viewer, int]:
    """How many log lines each viewer has now."""
    out: dict[Viewer, int] = {}
    for v in viewers(state):
        log = state.observation(v).get("log")
        out[v] = len(log) if isinstance(log, list) else 0
    return out


class TimeoutMarks:
    """The marks of one table, per viewer, in log order."""

    def __init__(self) -> None:
        self.by_viewer: dict[Viewer, list[Mark]] = {}

    def note(self, seat: int, before: dict[Viewer, int], after: dict[Viewer, int]) -> None:
        """``seat``'s defaults took each viewer's log from ``before`` to ``after`` lines."""
        for v, end in after.items():
            start = before.get(v, 0)
            if end > start:
                self.by_viewer.setdefault(v, []).append(Mark(seat, start, end))

    def trim(self, lengths: dict[Viewer, int]) -> None:
        """Drop the marks of lines no longer in the logs (after an undo), clip the rest."""
        for v, marks in self.by_viewer.items():
            end = lengths.get(v, 0)
            self.by_viewer[v] = [
                Mark(m.seat, m.log_from, min(m.log_to, end)) for m in marks if m.log_from < end
            ]

    def for_view(self, viewer: Viewer, log_start: int, log_len: int) -> list[dict[str, int]]:
        """The marks touching lines ``log_start..log_len-1`` of ``viewer``'s log (clipped to
        the log: an undo may have shortened it)."""
        out = []
        for m in self.by_viewer.get(viewer, ()):
            if m.log_to > log_start and m.log_from < log_len:
                out.append(Mark(m.seat, m.log_from, min(m.log_to, log_len)).to_json())
        return out


def rebuild(state: State, steps: Sequence[Any]) -> TimeoutMarks:
    """The marks of a game replayed from ``state`` (its start) through ``steps`` (the room's
    live steps: ``kind``, ``seat``, ``action``, ``timeout``). Observations are built only
    around the time-outs, so a game without any costs one pass over the flags."""
    marks = TimeoutMarks()
    if not any(getattr(st, "timeout", False) for st in steps):
        return marks
    run_seat: int | None = None
    before: dict[Viewer, int] = {}
    for st in steps:
        if st.kind == "chance":
            state.apply(state.parse_action(st.action))
            continue
        timed = bool(st.timeout)
        if run_seat is not None and not (timed and st.seat == run_seat):
            marks.note(run_seat, before, log_lengths(state))
            run_seat = None
        if timed and run_seat is None:
            run_seat = st.seat
            before = log_lengths(state)
        state.apply_for(st.seat, state.parse_action_for(st.seat, st.action))
    if run_seat is not None:
        marks.note(run_seat, before, log_lengths(state))
    return marks
