"""The readable labels of Scythe's places, as the board shows them (``docs/scythe.md``,
"Territory labels"): what the log, the reasons, the choosers and the terminal map name a
territory by, instead of its board id.

* a territory ``r<row>c<col>`` is its column letter and row number, from the board's own
  coordinates: columns 0..6 are ``A``..``G``, rows 1..8 stay numbers (``r4c6`` is ``G4``,
  ``r2c0`` is ``A2``, ``r8c3`` is ``D8``);
* the Factory (``r4c3``) stays ``Factory``;
* a home base is its faction's: ``home_nordic`` is ``Nordic base``.

The labels are computed once, by value, from the public data module; :data:`LABELS`
implements the kernel's :class:`~hexfolk.core.Places` for the place kind ``territory``
(a location by its id, ``"r4c6"``, or by its index).
"""

from __future__ import annotations

import re
from typing import Any

from hexfolk.games.scythe import data as D

PLACE_KINDS = frozenset({"territory", "territories"})
"""The place kinds of Scythe's log templates and reasons: ``{name:territory}`` (one location)
and ``{name:territories}`` (a list of them, ``C3, F4``)."""

_CELL = re.compile(r"^r(\d+)c(\d+)$")


def territory_label(loc_id: str) -> str:
    """The board label of the location with id ``loc_id`` (``r4c6`` -> ``G4``)."""
    if loc_id == D.BOARD["factory"]:
        return "Factory"
    if loc_id.startswith("home_"):
        return f"{loc_id[len('home_') :].capitalize()} base"
    m = _CELL.match(loc_id)
    if m is None:
        raise ValueError(f"{loc_id!r} is not a location of the Scythe board")
    return f"{chr(ord('A') + int(m[2]))}{int(m[1])}"


class TerritoryLabels:
    """The label of every location of the board, by id and by index (computed once)."""

    def __init__(self) -> None:
        self.by_id: dict[str, str] = {loc: territory_label(loc) for loc in D.LOC_NAMES}
        """Label by location id."""
        self.by_index: tuple[str, ...] = tuple(self.by_id[loc] for loc in D.LOC_NAMES)
        """Label by location index (``D.LOC_NAMES`` order)."""
        if len(set(self.by_index)) != len(self.by_index):  # pragma: no cover - data error
            raise ValueError("two Scythe locations share a label")

    def label(self, kind: str, value: Any) -> str:
        """The label of location ``value`` (its id or index) for place kind ``territory``, of
        each of a list of them for ``territories``; a value that names no location as it is."""
        if kind == "territories":
            return ", ".join(self.label("territory", v) for v in value)
        if kind != "territory":
            raise KeyError(f"Scythe has no place kind {kind!r}")
        if type(value) is int:
            return self.by_index[value] if 0 <= value < len(self.by_index) else str(value)
        return self.by_id.get(value, str(value))


LABELS = TerritoryLabels()
"""The board's labels (the same for every Scythe table)."""
