"""The hex grid both games are drawn on: pointy-top hexes in axial coordinates on a doubled grid.

A hex is ``(q, r)`` in axial coordinates: ``q`` grows to the east, ``r`` to the south-east. On
the doubled grid its centre is at ``(2q + r, 3r)`` (one hex is 2 units wide and 4 tall) and its
six corners at the offsets of :data:`CORNERS`, clockwise from the top, so neighbouring hexes
share corner points exactly. The island's boards and maps (``games/island/board.py``,
``games/island/maps/``), Scythe's board geometry, the terminal views and the maps API all take
their hex maths from here: one formula in one place (the browser's copies are listed in
``docs/web.md``). Game-agnostic and standard library only, like the rest of the kernel.
"""

from __future__ import annotations

from functools import cache

Hex = tuple[int, int]
"""Axial coordinates ``(q, r)`` of a hex."""
Point = tuple[int, int]
"""A point of the doubled grid: a hex centre or an intersection (a corner)."""

DIRECTIONS: dict[str, Hex] = {
    "e": (1, 0),
    "ne": (1, -1),
    "nw": (0, -1),
    "w": (-1, 0),
    "sw": (-1, 1),
    "se": (0, 1),
}
"""The six neighbours of a pointy-top hex in axial steps."""
CORNERS: tuple[Point, ...] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
"""Corner offsets from a hex centre on the doubled grid, clockwise from the top."""
SIDE_CORNERS: dict[str, tuple[int, int]] = {
    "ne": (0, 1),
    "e": (1, 2),
    "se": (2, 3),
    "sw": (3, 4),
    "w": (4, 5),
    "nw": (5, 0),
}
"""The two corners (indices into :data:`CORNERS`) of the side facing each direction."""


def centre(h: Hex) -> Point:
    """The centre of hex ``h`` on the doubled grid: ``(2q + r, 3r)``."""
    return (2 * h[0] + h[1], 3 * h[1])


def neighbour(h: Hex, direction: str) -> Hex:
    dq, dr = DIRECTIONS[direction]
    return (h[0] + dq, h[1] + dr)


@cache
def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` in :data:`DIRECTIONS` order (memoised by coordinates: the
    island's IR-13 search and Driftland's coastline ask for them thousands of times a board)."""
    return tuple((h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS.values())


def distance(a: Hex, b: Hex) -> int:
    """Steps from hex ``a`` to hex ``b``."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def corners_at(c: Point) -> list[Point]:
    """The six corners of the hex centred at ``c`` (doubled grid), clockwise from the top."""
    x, y = c
    return [(x + dx, y + dy) for dx, dy in CORNERS]


def corners(h: Hex) -> list[Point]:
    """The six intersections of hex ``h``, clockwise from the top (:func:`centre`'s formula
    written out: the island's map checks and Driftland call this thousands of times a board)."""
    x, y = 2 * h[0] + h[1], 3 * h[1]
    return [(x + dx, y + dy) for dx, dy in CORNERS]


def side_points(h: Hex, side: str) -> tuple[Point, Point]:
    """The two intersections at the ends of side ``side`` of hex ``h``."""
    pts = corners(h)
    a, b = SIDE_CORNERS[side]
    return (pts[a], pts[b])


def side_between(a: Hex, b: Hex) -> str | None:
    """The side of ``a`` that faces ``b`` (None when they are not neighbours)."""
    for name, (dq, dr) in DIRECTIONS.items():
        if (a[0] + dq, a[1] + dr) == b:
            return name
    return None


def points_near(p: Point) -> list[Point]:
    """Intersection ``p`` and the three intersections one edge away from it."""
    x, y = p
    if y % 3 == 1:  # an upper corner of the hex below: neighbours up, down-left, down-right
        return [p, (x, y - 2), (x - 1, y + 1), (x + 1, y + 1)]
    return [p, (x, y + 2), (x - 1, y - 1), (x + 1, y - 1)]


def fmt_hex(h: Hex) -> str:
    """``(q,r)``: how messages and the terminal name a hex by its coordinates."""
    return f"({h[0]},{h[1]})"
