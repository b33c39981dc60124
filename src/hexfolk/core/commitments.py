"""Hidden commitments: secret simultaneous choices, one value per seat.

The seats may commit in any order (a game lists every seat that has not committed yet among its
``acting_seats()``; :meth:`Commitments.next_seat` is the one a sequential walk asks next). The
values are kept by seat, so the arrival order never shows in the state. Until
:meth:`Commitments.reveal` nobody's observation shows another seat's commitment (only *that* it
committed). Used for Scythe's combat dial and cards and for the island game's simultaneous
discards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


class Commitments:
    """Collects one secret value per seat of ``seats`` (in any order), then reveals all at once;
    ``seats`` order is the order a sequential walk asks them in (:meth:`next_seat`)."""

    __slots__ = ("_values", "revealed", "seats")

    def __init__(self, seats: Iterable[int]):
        self.seats: tuple[int, ...] = tuple(seats)
        self._values: dict[int, Any] = {}
        self.revealed = False

    def next_seat(self) -> int | None:
        """The next seat that still has to commit, or None when all have."""
        for seat in self.seats:
            if seat not in self._values:
                return seat
        return None

    def commit(self, seat: int, value: Any) -> None:
        if seat not in self.seats or seat in self._values:
            raise ValueError(f"seat {seat} cannot commit now")
        self._values[seat] = value

    def complete(self) -> bool:
        return len(self._values) == len(self.seats)

    def reveal(self) -> dict[int, Any]:
        """All values, once everyone has committed."""
        if not self.complete():
            raise ValueError("not every seat has committed yet")
        self.revealed = True
        return dict(self._values)

    def value_for(self, seat: int) -> Any:
        """The committed value of ``seat`` (only for that seat's own view, or after reveal)."""
        return self._values.get(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Observation of the commitments for ``seat``: own value, others only as committed."""
        out: dict[str, Any] = {"seats": list(self.seats), "committed": sorted(self._values)}
        if self.revealed:
            out["values"] = {str(s): v for s, v in sorted(self._values.items())}
        elif seat is not None and seat in self._values:
            out["own"] = self._values[seat]
        return out

    def redrawn(self, seat: int | None, draw: Callable[[int, Any], Any]) -> Commitments:
        """The commitments of a world sampled for ``seat`` (as
        :meth:`~hexfolk.core.State.sample_consistent_state` builds it): ``seat``'s own value
        kept (``None``, the spectator, keeps none), every other committed value replaced by
        ``draw(other_seat, old_value)``, and the seats that have not committed still
        uncommitted. ``draw`` is called once per committed other seat, in :attr:`seats` order,
        so a draw from a seeded RNG gives the same world every time. Once revealed the values
        are public: a plain copy, nothing redrawn. The one redraw every game uses."""
        if self.revealed:
            return self.copy()
        new = Commitments(self.seats)
        for q in self.seats:
            if q in self._values:
                value = self._values[q]
                new._values[q] = value if q == seat else draw(q, value)
        return new

    def copy(self) -> Commitments:
        new = Commitments(self.seats)
        new._values = dict(self._values)
        new.revealed = self.revealed
        return new
