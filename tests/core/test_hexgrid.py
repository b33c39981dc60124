"""The shared hex grid (``core/hexgrid.py``): its geometry, and that it is the only Python copy of
the grid's formulas (issue 26: "hex corner offsets are written five times"; before it, the
island's maps, board and terminal view, Scythe's geometry and the maps API each had their own)."""

from __future__ import annotations

import re
from pathlib import Path

from hexfolk.core import hexgrid
from hexfolk.core.hexgrid import (
    CORNERS,
    DIRECTIONS,
    centre,
    corners,
    distance,
    neighbour,
    neighbours,
    points_near,
    side_between,
    side_points,
)

SRC = Path(hexgrid.__file__).resolve().parents[1]
OPPOSITE = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
HEXES = [(q, r) for q in range(-3, 4) for r in range(-3, 4)]

COPIES = {
    "corner offsets": re.compile(r"\(0, ?-2\), ?\((-?1), ?-1\)"),
    "hex centre": re.compile(r"2 \* [\w\[\]]+ \+ [\w\[\]]+,\s*3 \* [\w\[\]]+"),
}


def test_no_python_module_but_hexgrid_writes_the_grid_formulas() -> None:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "hexgrid.py" and path.parent.name == "core":
            continue
        text = path.read_text(encoding="utf-8")
        for what, pattern in COPIES.items():
            for m in pattern.finditer(text):
                line = text[: m.start()].count("\n") + 1
                found.append(f"{path.relative_to(SRC)}:{line}: {what}")
    assert found == [], "use hexfolk.core.hexgrid instead:\n" + "\n".join(found)


def test_neighbours_share_the_two_corners_of_the_side_between_them() -> None:
    for h in HEXES:
        assert len(set(corners(h))) == 6
        for side in DIRECTIONS:
            n = neighbour(h, side)
            assert side_between(h, n) == side
            assert set(corners(h)) & set(corners(n)) == set(side_points(h, side))
            assert set(side_points(h, side)) == set(side_points(n, OPPOSITE[side]))
            assert distance(h, n) == 1
        assert neighbours(h) == tuple(neighbour(h, d) for d in DIRECTIONS)
        assert side_between(h, h) is None


def test_centre_and_corners_on_the_doubled_grid() -> None:
    assert centre((0, 0)) == (0, 0)
    assert centre((1, 0)) == (2, 0)
    assert centre((0, 1)) == (1, 3)
    assert corners((0, 0)) == list(CORNERS)
    assert distance((0, 0), (2, -1)) == 2
    assert distance((-3, 3), (3, -3)) == 6


def test_points_near_are_the_ends_of_the_edges_at_a_corner() -> None:
    edges = set()
    for h in HEXES:
        pts = corners(h)
        edges |= {frozenset((pts[k], pts[(k + 1) % 6])) for k in range(6)}
    for p in corners((0, 0)):
        ends = {q for e in edges if p in e for q in e if q != p}
        assert set(points_near(p)) == {p} | ends
