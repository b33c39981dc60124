"""The table's clocks: absolute deadlines per seat, stored with the table (IR-26, IR-27).

Which window a pending decision runs on is the game's word (``State.clock_step``, a
:class:`~hexfolk.core.ClockStep`):

* ``turn``: the seat whose turn it is has one window of the turn clock for its whole turn,
  which pauses while it is not deciding on it (others discard or answer, its own discard, a
  combat commitment) and resumes after;
* ``step``: a fresh window of the turn clock for one step alone (each island setup placement;
  a special build slot: half the turn clock, at least 15 s, IR-31);
* ``parallel``: a decision owed beside the turn (every discard after a 7, the roller's too; an
  answer to an offer): a fresh window of the turn clock capped at 60 s (the special build
  sign-up: 5 s, IR-30);

A step's ``share`` and ``floor`` shape its window (:meth:`TableClock.span`, the one formula);
no window is longer than the turn clock, which only the short clocks of ``--testing`` notice.
* ``commitment``: a secret combat commitment: a fresh window of the commitment clock.

A seat keeps a window while its step's key stays the same; a window of another step is dropped
as soon as the seat decides something else. Windows are plain JSON (``to_json``) written with
every committed step; after a restart the running windows are moved forward by the time the
server was down (:meth:`shift`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hexfolk.core import ClockStep, State
from hexfolk.server.limits import OUT_OF_TURN_CAP


@dataclass
class Window:
    """One seat's clock of one step: running until ``deadline``, or paused with ``remaining``
    seconds."""

    kind: str
    key: tuple[Any, ...]
    turn: int
    deadline: float | None
    remaining: float

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left(self, now: float) -> float:
        return max(0.0, self.deadline - now) if self.deadline is not None else self.remaining

    def pause(self, now: float) -> None:
        if self.deadline is not None:
            self.remaining = max(0.0, self.deadline - now)
            self.deadline = None

    def resume(self, now: float) -> None:
        if self.deadline is None:
            self.deadline = now + self.remaining

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "key": list(self.key),
            "turn": self.turn,
            "deadline": self.deadline,
            "remaining": self.remaining,
        }

    @classmethod
    def from_json(cls, w: dict[str, Any]) -> Window:
        return cls(
            str(w["kind"]),
            tuple(w["key"]),
            int(w["turn"]),
            w.get("deadline"),
            float(w["remaining"]),
        )


def clock_steps(state: State) -> dict[int, ClockStep]:
    """The clock step of every seat that may act now (none at chance and at the end)."""
    if state.is_terminal():
        return {}
    return {seat: state.clock_step(seat) for seat in state.acting_seats()}


class TableClock:
    """The clocks of one table. ``limit`` is the turn clock, ``commit_limit`` the commitment
    clock; ``None`` is unlimited (no window of that clock ever runs)."""

    def __init__(self, limit: float | None, commit_limit: float | None = None):
        self.limit = limit
        self.commit_limit = commit_limit
        self.turn: int = -1
        self.turns: dict[int, Window] = {}
        """Turn windows (kind ``turn``) of the current turn, running or paused."""
        self.steps: dict[int, Window] = {}
        """The window of each seat deciding on anything but its turn window."""

    def span(self, step: ClockStep) -> float | None:
        """The length of a fresh window of ``step`` (None: unlimited, no window): the
        commitment clock; else ``step.share`` of the turn clock, at least ``step.floor``
        seconds, never more than the turn clock, and a parallel window capped at 60 s."""
        if step.kind == "commitment":
            return self.commit_limit
        if self.limit is None:
            return None
        span = min(self.limit, max(step.floor, self.limit * step.share))
        if step.kind == "parallel":
            return min(span, OUT_OF_TURN_CAP)
        return span

    def follow(self, state: State, now: float) -> None:
        """Start, pause, resume or drop windows after the table changed."""
        self.update(clock_steps(state), state.turn_count(), now)

    def update(self, steps: dict[int, ClockStep], turn: int, now: float) -> None:
        """``steps``: the clock step of every acting seat; ``turn``: ``State.turn_count()``."""
        if turn != self.turn:
            self.turn = turn
            self.turns = {}
        for seat, w in list(self.steps.items()):
            st = steps.get(seat)
            if st is None or st.kind != w.kind or tuple(st.key) != w.key:
                del self.steps[seat]
        for seat, w in self.turns.items():
            st = steps.get(seat)
            if st is None or st.kind != "turn" or tuple(st.key) != w.key:
                w.pause(now)
        for seat, st in steps.items():
            key = tuple(st.key)
            if st.kind == "turn":
                found = self.turns.get(seat)
                if found is not None and found.key == key:
                    found.resume(now)
                    continue
                table = self.turns
            else:
                if seat in self.steps:
                    continue
                table = self.steps
            span = self.span(st)
            if span is not None:
                table[seat] = Window(st.kind, key, turn, now + span, span)

    def clear(self) -> None:
        self.turns.clear()
        self.steps.clear()

    def current(self, seat: int) -> Window | None:
        """The seat's window now: its step's, else its turn window (running or paused)."""
        return self.steps.get(seat) or self.turns.get(seat)

    def drop(self, seat: int) -> None:
        """Forget the seat's running window (it owed nothing under it when it ran out)."""
        w = self.current(seat)
        if w is self.steps.get(seat):
            self.steps.pop(seat, None)
        else:
            self.turns.pop(seat, None)

    def expired(self, now: float) -> list[int]:
        """Seats whose running window has run out, in seat order."""
        return sorted(
            s
            for s in set(self.turns) | set(self.steps)
            if (w := self.current(s)) is not None and w.deadline is not None and w.deadline <= now
        )

    def owes_under(self, seat: int, window: Window, state: State) -> bool:
        """Whether ``seat`` still owes a decision of ``window``'s turn or step: a turn
        window's defaults go on while the turn lasts (IR-28: an expiry before the roll rolls,
        resolves and ends the turn), any other window's while the seat's step stays the same."""
        if seat not in state.acting_seats():
            return False
        if window.kind == "turn":
            return state.turn_count() == window.turn
        st = state.clock_step(seat)
        return st.kind == window.kind and tuple(st.key) == window.key

    def next_deadline(self) -> float | None:
        times = [
            w.deadline
            for w in (*self.turns.values(), *self.steps.values())
            if w.deadline is not None
        ]
        return min(times) if times else None

    def shift(self, seconds: float) -> None:
        """Move every running deadline forward (the time the server was down)."""
        for w in (*self.turns.values(), *self.steps.values()):
            if w.deadline is not None:
                w.deadline += seconds

    def view(self, now: float) -> dict[str, Any]:
        """Public clocks: per seat its current window's absolute deadline (UNIX s, or null when
        paused), the seconds left and its kind."""
        seats: dict[str, Any] = {}
        for s in sorted(set(self.turns) | set(self.steps)):
            w = self.current(s)
            assert w is not None
            seats[str(s)] = {
                "deadline": w.deadline,
                "remaining": round(w.left(now), 3),
                "running": w.running,
                "kind": w.kind,
            }
        return {"limit": self.limit, "commitment": self.commit_limit, "seats": seats}

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "turns": {str(s): w.to_json() for s, w in self.turns.items()},
            "steps": {str(s): w.to_json() for s, w in self.steps.items()},
        }

    @classmethod
    def from_json(
        cls, limit: float | None, commit_limit: float | None, data: dict[str, Any] | None
    ) -> TableClock:
        """The clocks saved by :meth:`to_json`. A table saved before clock steps (``windows``)
        keeps its turn windows; other windows start afresh (:meth:`follow`)."""
        clock = cls(limit, commit_limit)
        if not data:
            return clock
        clock.turn = int(data.get("turn", -1))
        for key, w in (data.get("turns") or {}).items():
            clock.turns[int(key)] = Window.from_json(w)
        for key, w in (data.get("steps") or {}).items():
            clock.steps[int(key)] = Window.from_json(w)
        for key, w in (data.get("windows") or {}).items():
            if w.get("owner"):
                turn = int(w["turn"])
                clock.turns[int(key)] = Window(
                    "turn", ("turn", turn), turn, w.get("deadline"), float(w["remaining"])
                )
        return clock


class ClockTimer:
    """The one asyncio timer of a table's next clock deadline: ``expired`` runs when it passes
    (the room queues the expiry, :meth:`TableCore.expire`). Arming it again replaces it."""

    def __init__(self, expired: Callable[[], None]):
        self.expired = expired
        self._handle: asyncio.TimerHandle | None = None

    def arm(self, deadline: float | None) -> None:
        """Wake at ``deadline`` (a time.time(); None: no clock runs)."""
        self.cancel()
        if deadline is not None:
            delay = max(0.0, deadline - time.time())
            self._handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._handle = None
        self.expired()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
