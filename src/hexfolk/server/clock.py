"""The turn clock: absolute deadlines per seat, stored with the table (IR-26, IR-27).

The seat whose turn it is (the one to move when :meth:`State.turn_count` last changed) has one
window for its whole turn, which pauses while others decide (a discard, an answer) and resumes
after. A seat owing a decision out of turn gets a fresh window of the clock capped at 60 s.
Windows are plain JSON (``to_json``) written with every committed step; after a restart the
running windows are moved forward by the time the server was down (:meth:`shift`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexfolk.server.limits import OUT_OF_TURN_CAP


@dataclass
class Window:
    """One seat's clock: running until ``deadline``, or paused with ``remaining`` seconds."""

    turn: int
    owner: bool
    deadline: float | None
    remaining: float

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left(self, now: float) -> float:
        return max(0.0, self.deadline - now) if self.deadline is not None else self.remaining


class TableClock:
    """The clocks of one table; ``limit`` ``None`` is unlimited (no window ever runs)."""

    def __init__(self, limit: float | None):
        self.limit = limit
        self.windows: dict[int, Window] = {}
        self.turn: int = -1
        self.owner: int | None = None

    def update(self, acting: list[int], turn: int, to_move: int, now: float) -> None:
        """Start, pause, resume or drop windows after the table changed."""
        if self.limit is None:
            self.windows.clear()
            return
        if turn != self.turn:
            self.turn = turn
            self.owner = to_move if to_move >= 0 else (acting[0] if acting else None)
            self.windows = {}
        for seat in list(self.windows):
            w = self.windows[seat]
            if seat in acting:
                continue
            if w.owner and w.turn == turn:
                if w.deadline is not None:
                    w.remaining = max(0.0, w.deadline - now)
                    w.deadline = None
            else:
                del self.windows[seat]
        for seat in acting:
            found = self.windows.get(seat)
            if found is not None:
                if found.deadline is None:
                    found.deadline = now + found.remaining
                continue
            owner = seat == self.owner
            span = self.limit if owner else min(self.limit, OUT_OF_TURN_CAP)
            self.windows[seat] = Window(turn, owner, now + span, span)

    def expired(self, now: float) -> list[int]:
        """Seats whose running window has run out, in seat order."""
        return sorted(
            s for s, w in self.windows.items() if w.deadline is not None and w.deadline <= now
        )

    def window_turn(self, seat: int) -> int | None:
        w = self.windows.get(seat)
        return None if w is None else w.turn

    def next_deadline(self) -> float | None:
        times = [w.deadline for w in self.windows.values() if w.deadline is not None]
        return min(times) if times else None

    def shift(self, seconds: float) -> None:
        """Move every running deadline forward (the time the server was down)."""
        for w in self.windows.values():
            if w.deadline is not None:
                w.deadline += seconds

    def view(self, now: float) -> dict[str, Any]:
        """Public clocks: per seat the absolute deadline (UNIX s, or null when paused) and the
        seconds left."""
        return {
            "limit": self.limit,
            "seats": {
                str(s): {
                    "deadline": w.deadline,
                    "remaining": round(w.left(now), 3),
                    "running": w.running,
                }
                for s, w in sorted(self.windows.items())
            },
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "owner": self.owner,
            "windows": {
                str(s): {
                    "turn": w.turn,
                    "owner": w.owner,
                    "deadline": w.deadline,
                    "remaining": w.remaining,
                }
                for s, w in self.windows.items()
            },
        }

    @classmethod
    def from_json(cls, limit: float | None, data: dict[str, Any] | None) -> TableClock:
        clock = cls(limit)
        if not data:
            return clock
        clock.turn = int(data.get("turn", -1))
        owner = data.get("owner")
        clock.owner = int(owner) if owner is not None else None
        for key, w in (data.get("windows") or {}).items():
            clock.windows[int(key)] = Window(
                int(w["turn"]), bool(w["owner"]), w.get("deadline"), float(w["remaining"])
            )
        return clock
