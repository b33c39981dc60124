"""The Scythe board in 80 columns: a condensed grid of the territories, two lines each, and
the territories with something on them as a list in words.

The engine's own map (``Game.render_observation``) needs about 125 columns; this grid places
each territory at ``board_geometry()``'s ``xy`` (5 columns per x unit, one band of two lines
per row of hexes), so it fits 80 columns. Line one of a cell: the territory's board label and
terrain (``E1 fo``, with ``?`` an encounter, ``T`` a tunnel; ``Factory`` is the Factory, a
home base its faction); line two: the units (``1:C2M3W`` = seat 1's character, 2 mechs, 3
workers) or ``+`` when more is listed. Places are named by their labels (``docs/scythe.md``,
"Territory labels"), in the grid and in the list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexfolk.games.scythe.render import units_text

JSON = Mapping[str, Any]

CELL = 9
"""Characters per cell (the grid is at most 15 × 5 + 9 = 84 wide; homes at x = -1 and 13
are drawn at the edges so the grid stays within 80)."""

TERRAIN_SHORT = {
    "mountain": "mt",
    "farm": "fa",
    "tundra": "tu",
    "forest": "fo",
    "village": "vi",
    "lake": "~~",
    "factory": "FA",
}


def units_code(units: JSON) -> str:
    """``{"1": {"character": 1, "mechs": 2, "workers": 3}}`` -> ``"1:C2M3W"`` (each seat's
    units as the engine writes them, :func:`~hexfolk.games.scythe.render.units_text`)."""
    return " ".join(f"{seat}:{units_text(u)}" for seat, u in sorted(units.items()))


def units_words(units: JSON) -> str:
    """``"P1 character, 2 mechs and 3 workers"``."""
    out = []
    for seat, u in sorted(units.items()):
        parts = []
        if u.get("character"):
            parts.append("character")
        for key, one in (("mechs", "mech"), ("workers", "worker")):
            n = int(u.get(key, 0))
            if n:
                parts.append(f"{n} {one if n == 1 else key}")
        out.append(f"P{seat} " + ", ".join(parts))
    return "; ".join(out)


def label(name: str, geometry: JSON) -> str:
    """The board label of place ``name`` (its id): ``r1c4`` -> ``E1`` (the geometry's)."""
    place = (geometry.get("territories") or {}).get(name) or (geometry.get("home_bases") or {}).get(
        name
    )
    return str(place.get("label", name)) if place else name


def territory_words(name: str, entry: JSON, geometry: JSON) -> str:
    """One territory in words: ``"E1 forest: P1 worker; 1 wood"``."""
    kind = _terrain(name, geometry)
    parts = []
    if entry.get("units"):
        parts.append(units_words(entry["units"]))
    res = entry.get("resources") or {}
    if res:
        parts.append(", ".join(f"{n} {r}" for r, n in res.items()))
    st = entry.get("structure")
    if st:
        parts.append(f"P{st['seat']}'s {st['kind']}")
    if entry.get("encounter_token"):
        parts.append("encounter")
    if name == geometry.get("factory") or name.startswith("home_"):  # "Nordic base"
        return f"{label(name, geometry)}: " + "; ".join(parts)
    return f"{label(name, geometry)} {kind}: " + "; ".join(parts)


def _terrain(name: str, geometry: JSON) -> str:
    if name == geometry.get("factory"):
        return "Factory"
    t = (geometry.get("territories") or {}).get(name)
    if t:
        return str(t.get("terrain", ""))
    return "home base" if name.startswith("home_") else ""


def grid(observation: JSON, geometry: JSON) -> list[str]:
    """The condensed grid (two lines per band of hexes), within 80 columns."""
    board = observation.get("board") or {}
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    for name, t in (geometry.get("territories") or {}).items():
        x, y = t["xy"]
        entry = board.get(name) or {}
        mark = ("T" if t.get("tunnel") else "") + ("?" if entry.get("encounter_token") else "")
        if name == geometry.get("factory"):
            top = f"{label(name, geometry)}{mark}"
        else:
            top = f"{label(name, geometry)} {TERRAIN_SHORT.get(t['terrain'], '')}{mark}"
        cells[(x, y)] = (top, _second(entry))
    for name, h in (geometry.get("home_bases") or {}).items():
        if not h.get("in_base_game", True) and name not in board:
            continue
        x, y = h["xy"]
        cells[(x, y)] = (name[5:][:CELL], _second(board.get(name) or {}))
    if not cells:
        return []
    xs = [x for x, _ in cells]
    x0 = min(xs)
    lines: list[str] = []
    for y in sorted({y for _, y in cells}):
        a, b = [" "] * 80, [" "] * 80
        for (x, yy), (top, second) in cells.items():
            if yy != y:
                continue
            col = min((x - x0) * 5, 80 - CELL)
            for i, ch in enumerate(top[:CELL]):
                a[col + i] = ch
            for i, ch in enumerate(second[:CELL]):
                b[col + i] = ch
        lines += ["".join(a).rstrip(), "".join(b).rstrip()]
    return lines


def _second(entry: JSON) -> str:
    code = units_code(entry.get("units") or {})
    more = bool(entry.get("resources") or entry.get("structure"))
    if len(code) > CELL - 1 or (more and len(code) > CELL - 2):
        code = code[: CELL - 2]
        more = True
    return code + ("+" if more else "")


LEGEND = (
    "mt mountain>metal, fa farm>food, tu tundra>oil, fo forest>wood, vi village>workers, "
    "~~ lake, T tunnel, ? encounter; 1:C2M3W = P1's character, 2 mechs, "
    "3 workers; + more (listed below)"
)


def occupied(observation: JSON, geometry: JSON) -> list[str]:
    """Every territory with units, resources, a structure (encounters left out), in words."""
    out = []
    for name, entry in (observation.get("board") or {}).items():
        if entry.get("units") or entry.get("resources") or entry.get("structure"):
            out.append(territory_words(name, {**entry, "encounter_token": False}, geometry))
    return out
