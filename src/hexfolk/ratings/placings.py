"""Who finished where in a finished game, from the table's stored ``result`` (``winners``,
``scores``: the island game's victory points, Scythe's coins; ``returns``: 1 for a sole win,
split on a shared one).

A place is 0 for the best. Winners share place 0; the others follow by their score, highest
first, and equal scores share a place (a tie: Plackett–Luce treats tied places as a draw). A
person who left the game (``leavers``, see ``docs/ratings.md``, "Leaving") is placed last,
below everyone who stayed, whatever the seat scored; several leavers share the last place.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any


def placings(result: Mapping[str, Any], leavers: Collection[int] = ()) -> list[int]:
    """Per seat, its place (competition ranking: 0, 1, 1, 3, ...)."""
    scores: Sequence[float] = result.get("scores") or []
    returns: Sequence[float] = result.get("returns") or [0.0] * len(scores)
    winners = set(result.get("winners") or [])
    n = len(scores)
    if n < 2 or len(returns) != n:
        raise ValueError(f"a result needs a score and a return per seat, not {dict(result)!r}")

    def key(seat: int) -> tuple[int, int, float, float]:
        if seat in leavers:
            return (1, 0, 0.0, 0.0)
        return (0, int(seat not in winners), -returns[seat], -scores[seat])

    order = sorted(range(n), key=key)
    places = [0] * n
    for i, seat in enumerate(order):
        same = i > 0 and key(order[i - 1]) == key(seat)
        places[seat] = places[order[i - 1]] if same else i
    return places
