"""Driftland (IR-83 map 11): no hexes in its file but a ``coastline`` rule, so every game grows a
new island from the rng. :func:`draw_island` tries up to ``coastline.attempts`` islands and keeps
the first that passes the IR-82 shape checks, encloses no sea and leaves room for IR-13;
``draw.draw_layout`` then deals its terrain, tokens and harbors like any map's."""

from __future__ import annotations

import random

from hexfolk.core.hexgrid import (
    DIRECTIONS,
    Point,
    distance,
    neighbour,
    neighbours,
    points_near,
    side_points,
)
from hexfolk.games.island.maps.checks import check_enclosed_sea, check_shape
from hexfolk.games.island.maps.schema import (
    DESERT,
    PRODUCING,
    HarborSlot,
    IslandMap,
    MapError,
    MapHex,
)
from hexfolk.games.island.maps.tokens import red_count, red_placement


def draw_island(m: IslandMap, rng: random.Random) -> tuple[list[MapHex], list[HarborSlot]]:
    """The hexes and harbor slots of a new island of map ``m`` (a coastline map), from ``rng``:
    the first grown island with all its harbors that passes the checks (IR-82, IR-13); raises
    :class:`MapError` after ``coastline.attempts`` failures."""
    assert m.coastline is not None
    for _ in range(m.coastline.attempts):
        hexes, slots = grow_island(m, rng)
        if len(slots) != m.coastline.harbors:
            continue
        try:
            check_enclosed_sea(m.label, {h.at for h in hexes})
            check_shape(m.label, {h.at: h.kind for h in hexes}, slots, m.max_players)
            groups = [(red_count(m.tokens), [h.at for h in hexes if h.kind == PRODUCING])]
            if red_placement(groups) is not None:
                return hexes, slots
        except MapError:
            continue  # this island fails a check: a rejected draw, the next attempt follows
    raise MapError(f"{m.label}: no valid coastline in {m.coastline.attempts} attempts")


def grow_island(m: IslandMap, rng: random.Random) -> tuple[list[MapHex], list[HarborSlot]]:
    """Grow a connected island from the centre, hex by hex, from the rng; deserts and harbor
    slots are drawn on it (harbor slots 2+ coast edges apart). Unchecked: see
    :func:`draw_island`."""
    c = m.coastline
    assert c is not None
    island = [(0, 0)]
    cells = {(0, 0)}
    edge = {n for n in neighbours((0, 0)) if distance(n, (0, 0)) <= c.max_radius}
    """Hexes outside the island touching it, within the radius (kept as the island grows)."""
    while len(island) < c.tiles:
        frontier = sorted(edge)
        # favour hexes with more land around them, for a compact but ragged coast
        weights = [sum(1 for x in neighbours(n) if x in cells) ** 2 for n in frontier]
        pick = rng.random() * sum(weights)
        grown = frontier[-1]
        for n, w in zip(frontier, weights):
            pick -= w
            if pick < 0:
                grown = n
                break
        island.append(grown)
        cells.add(grown)
        edge.discard(grown)
        edge.update(
            n for n in neighbours(grown) if n not in cells and distance(n, (0, 0)) <= c.max_radius
        )
    deserts = set(rng.sample(sorted(cells), c.deserts))
    hexes = [MapHex(h, DESERT if h in deserts else PRODUCING) for h in sorted(cells)]
    coast = [
        (h, side) for h in sorted(cells) for side in DIRECTIONS if neighbour(h, side) not in cells
    ]
    rng.shuffle(coast)
    slots: list[HarborSlot] = []
    used: set[Point] = set()
    for h, side in coast:
        pts = side_points(h, side)
        near = {q for p in pts for q in points_near(p)}
        if near & used:
            continue
        slots.append(HarborSlot(h, side))
        used |= set(pts)
        if len(slots) == c.harbors:
            break
    return hexes, slots
