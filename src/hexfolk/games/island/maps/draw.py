"""Drawing one game's board from a map (:func:`draw_layout`): terrain from the pools, tokens
by the number mode (IR-13), harbor kinds shuffled, the robber's start (IR-14); and the two
variants of a map that the options ask for: :func:`fixed_layouts` (a map with nothing to
shuffle) and :func:`randomized` (``board=random`` on a map)."""

from __future__ import annotations

import dataclasses
import random

from hexfolk.core.hexgrid import Hex
from hexfolk.games.island.maps.checks import validate_layout, validate_map
from hexfolk.games.island.maps.driftland import draw_island
from hexfolk.games.island.maps.layout import MapLayout, PlacedHarbor, PlacedHex
from hexfolk.games.island.maps.schema import (
    DESERT,
    HARBOR_KINDS,
    PRODUCING,
    PRODUCING_TERRAINS,
    HarborSlot,
    IslandMap,
    MapHex,
)
from hexfolk.games.island.maps.tokens import deal_tokens, multiset
from hexfolk.games.island.rules import TERRAINS


def draw_layout(m: IslandMap, rng: random.Random) -> MapLayout:
    """One game's board of map ``m`` from ``rng``, validated: terrain shuffled within its pools,
    tokens per the number mode (IR-13), shuffled harbor kinds, the robber on a desert (a random
    one when there are several, IR-14). Driftland draws a new island every time."""
    if m.coastline is not None:
        hexes, slots = draw_island(m, rng)
    else:
        hexes, slots = list(m.hexes), list(m.harbors)
    producing = [h.at for h in hexes if h.kind == PRODUCING]
    terrain: dict[Hex, str] = {}
    if m.terrain_mode == "fixed":
        terrain = {h.at: str(h.terrain) for h in hexes if h.kind == PRODUCING}
    else:
        for name, pool in m.pools.items():
            members = [
                h.at
                for h in hexes
                if h.kind == PRODUCING and (m.coastline is not None or h.pool == name)
            ]
            bag = sorted(multiset(pool), key=PRODUCING_TERRAINS.index)
            rng.shuffle(bag)
            terrain.update(zip(members, bag))
    if m.number_mode == "fixed":
        tokens = {h.at: int(h.token or 0) for h in hexes if h.kind == PRODUCING}
    else:
        band_of = {h.at: str(h.band) for h in hexes}
        tokens = deal_tokens(m, producing, band_of, rng)
    bag_kinds = sorted(multiset(m.harbor_kinds), key=HARBOR_KINDS.index)
    rng.shuffle(bag_kinds)
    harbors = []
    for s in slots:
        kind = s.kind if s.kind is not None else bag_kinds.pop()
        harbors.append(PlacedHarbor(s.at, s.side, kind))
    robber: Hex | None
    deserts = [h.at for h in hexes if h.kind == DESERT]
    if m.robber == "desert":
        robber = deserts[int(rng.random() * len(deserts))]
    elif m.robber == "off":
        robber = None
    else:
        robber = m.robber  # type: ignore[assignment]
    layout = MapLayout(
        map_id=m.id,
        hexes=tuple(PlacedHex(h.at, h.kind, terrain.get(h.at), tokens.get(h.at, 0)) for h in hexes),
        harbors=tuple(harbors),
        robber=robber,
    )
    validate_layout(m, layout)
    return layout


def fixed_layouts(m: IslandMap) -> tuple[MapLayout, ...]:
    """The boards of a map whose terrain, numbers and harbor kinds are all fixed (Keystone,
    Mirror Isle): one per robber start (IR-14: each desert when there are several), so the
    layout is a chance node with listed outcomes. Empty for every other map."""
    if (
        m.coastline is not None
        or m.terrain_mode != "fixed"
        or m.number_mode != "fixed"
        or any(s.kind is None for s in m.harbors)
    ):
        return ()
    hexes = tuple(
        PlacedHex(h.at, h.kind, h.terrain, int(h.token or 0) if h.kind == PRODUCING else 0)
        for h in m.hexes
    )
    harbors = tuple(PlacedHarbor(s.at, s.side, str(s.kind)) for s in m.harbors)
    starts: list[Hex | None]
    if m.robber == "desert":
        starts = list(m.by_kind(DESERT))
    elif m.robber == "off":
        starts = [None]
    else:
        starts = [m.robber]  # type: ignore[list-item]
    out = tuple(MapLayout(m.id, hexes, harbors, at) for at in starts)
    for layout in out:
        validate_layout(m, layout)
    return out


def randomized(m: IslandMap) -> IslandMap:
    """``m`` with its terrain shuffled in one pool, random numbers (IR-13) and every harbor
    kind shuffled: the option ``board=random`` on a map (its shape, tile and token counts kept).
    Driftland is random already and comes back unchanged."""
    if m.coastline is not None:
        return m
    counts: dict[str, int] = {}
    for h in m.hexes:
        if h.kind == PRODUCING and h.terrain is not None:
            counts[h.terrain] = counts.get(h.terrain, 0) + 1
    for pool in m.pools.values():
        for t, c in pool.items():
            counts[t] = counts.get(t, 0) + c
    kinds = dict(m.harbor_kinds)
    for s in m.harbors:
        if s.kind is not None:
            kinds[s.kind] = kinds.get(s.kind, 0) + 1
    out = dataclasses.replace(
        m,
        terrain_mode="pools",
        pools={"all": dict(sorted(counts.items(), key=lambda kv: TERRAINS.index(kv[0])))},
        number_mode="random",
        bands={},
        hexes=tuple(
            MapHex(h.at, h.kind, pool="all" if h.kind == PRODUCING else None) for h in m.hexes
        ),
        harbors=tuple(HarborSlot(s.at, s.side) for s in m.harbors),
        harbor_kinds=dict(sorted(kinds.items(), key=lambda kv: HARBOR_KINDS.index(kv[0]))),
    )
    validate_map(out)
    return out
