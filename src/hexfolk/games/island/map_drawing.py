"""A drawn map (:class:`~hexfolk.games.island.maps.MapLayout`) as text for the terminal.

Each hex is a cell six columns wide on the doubled grid (``hexgrid.centre``: ``x = 2q + r``),
rows staggered by half a hex: a producing hex shows its terrain letter and token (``O8``), a
desert ``D``, a lake ``~~~``, the sea frame ``.``; ``*`` marks the robber's start. A sea or lake
hex across a harbor shows its kind (``3:1``, or ``2:1`` plus the resource letter); the list
under the map names every harbor's hex and side.
"""

from __future__ import annotations

from hexfolk.core.hexgrid import centre
from hexfolk.games.island.maps import (
    DESERT,
    GENERIC_HARBOR,
    LAKE,
    MapLayout,
    fmt_hex,
    sea_frame,
)
from hexfolk.games.island.rules import LETTERS, RESOURCES, TERRAIN_LETTERS, TERRAINS

_CELL = 3
"""Columns per doubled-x unit (a hex is two units wide)."""


def harbor_code(kind: str) -> str:
    """``3:1`` for a generic harbor, ``2:1w`` for a wool harbor."""
    if kind == GENERIC_HARBOR:
        return "3:1"
    return "2:1" + LETTERS[RESOURCES.index(kind)]


def hex_code(layout: MapLayout, at: tuple[int, int]) -> str:
    h = layout.hex_at(at)
    star = "*" if layout.robber == at else ""
    if h.kind == LAKE:
        return "~~~"
    if h.kind == DESERT:
        return "D" + star
    assert h.terrain is not None
    return TERRAIN_LETTERS[TERRAINS.index(h.terrain)] + str(h.token) + star


def draw_map(layout: MapLayout) -> str:
    """The map as lines of text: the hexes, then one line per harbor."""
    cells: dict[tuple[int, int], str] = {h.at: hex_code(layout, h.at) for h in layout.hexes}
    harbor_at: dict[tuple[int, int], list[str]] = {}
    for hb in layout.harbors:
        harbor_at.setdefault(hb.water, []).append(harbor_code(hb.kind))
    for w in sea_frame(cells):
        cells[w] = "."
    kinds = layout.kinds()
    for w, codes in harbor_at.items():
        lake = "~" if kinds.get(w) == LAKE else ""
        cells[w] = lake + codes[0] + ("+" if len(codes) > 1 else "")
    xs = [centre(at)[0] for at in cells]
    x0 = min(xs)
    rows = sorted({r for _, r in cells})
    lines = []
    for r in rows:
        line = [" "] * ((max(xs) - x0 + 2) * _CELL + 6)
        for at, text in cells.items():
            if at[1] != r:
                continue
            mid = (centre(at)[0] - x0) * _CELL + 3
            start = mid - len(text) // 2
            for i, ch in enumerate(text):
                line[start + i] = ch
        lines.append("".join(line).rstrip())
    harbors = [
        f"  {harbor_code(hb.kind):5} {fmt_hex(hb.at)} {hb.side}"
        + (" (lake)" if layout.kinds().get(hb.water) == LAKE else "")
        for hb in layout.harbors
    ]
    return "\n".join([*lines, "harbors:", *harbors])
