"""The checks of a map and of a drawn board: IR-81 (what a map is), IR-82 (its checks),
IR-10/IR-12/IR-13/IR-14 where a board must meet them. Every failure raises
:class:`~.schema.MapError` naming the map, the problem and the rule.

:func:`validate_map` checks a map file's model; :func:`validate_layout` one game's board of a
map; :func:`check_shape` the IR-82 checks that need only the island's shape and harbor slots
(shared by both, and by Driftland's generator); :func:`check_enclosed_sea` Driftland's own rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hexfolk.core.hexgrid import Hex, Point, corners, distance, fmt_hex, neighbours
from hexfolk.games.island.maps.layout import MapLayout
from hexfolk.games.island.maps.schema import (
    DESERT,
    ISLAND_KINDS,
    LAKE,
    LAND_KINDS,
    PRODUCING,
    PRODUCING_TERRAINS,
    SEA,
    HarborSlot,
    IslandMap,
    MapError,
)
from hexfolk.games.island.maps.tokens import RedSearchExhausted, red_count, red_placement
from hexfolk.games.island.rules import RED_TOKENS

MIN_INTERSECTIONS_PER_PLAYER = 8
"""IR-82: at least 8 land intersections per seat, so setup can always finish."""

NON_BASE_WORDS = ("ships", "ship", "gold", "fog", "seafarers", "pirate", "fishermen")
"""Things of the expansions that a base-game map may not use (IR-82)."""


def connected(start: Hex, within: set[Hex]) -> set[Hex]:
    """The hexes of ``within`` reached from ``start`` (itself included) by steps between
    neighbours inside ``within``."""
    reach = {start}
    stack = [start]
    while stack:
        h = stack.pop()
        for n in neighbours(h):
            if n in within and n not in reach:
                reach.add(n)
                stack.append(n)
    return reach


def land_regions(land: set[Hex]) -> list[set[Hex]]:
    """The connected regions of ``land`` (IR-82 wants exactly one)."""
    regions: list[set[Hex]] = []
    seen: set[Hex] = set()
    for start in sorted(land):
        if start in seen:
            continue
        region = connected(start, land)
        seen |= region
        regions.append(region)
    return regions


def check_shape(
    label: str,
    kinds: Mapping[Hex, str],
    slots: Sequence[HarborSlot],
    max_players: int,
) -> None:
    """The IR-82 checks that only need the island's shape and harbor slots: one connected land
    region, lakes touching only island hexes, 8 land intersections per seat, harbors on
    land-water edges (IR-81), no two harbors on one edge or sharing an intersection."""
    land = {h for h, k in kinds.items() if k in LAND_KINDS}
    if not land:
        raise MapError(f"{label}: the map has no land")
    # IR-82: the land, deserts included, forms one connected region
    regions = land_regions(land)
    if len(regions) > 1:
        parts = ", ".join(f"{len(r)} hexes from {fmt_hex(min(r))}" for r in regions)
        raise MapError(
            f"{label}: the land is not connected, it falls into {len(regions)} regions "
            f"({parts}) (IR-82)"
        )
    # IR-82: every lake touches only island hexes
    for h, k in sorted(kinds.items()):
        if k == LAKE:
            for n in neighbours(h):
                if n not in kinds:
                    raise MapError(
                        f"{label}: the lake at {fmt_hex(h)} touches the sea at {fmt_hex(n)}; "
                        "a lake may touch only island hexes (IR-82)"
                    )
    # IR-82: at least 8 x (maximum players) land intersections
    points = {p for h in land for p in corners(h)}
    need = MIN_INTERSECTIONS_PER_PLAYER * max_players
    if len(points) < need:
        raise MapError(
            f"{label}: the map has {len(points)} land intersections, fewer than "
            f"{MIN_INTERSECTIONS_PER_PLAYER} x {max_players} players = {need}, so setup "
            "might not finish (IR-82)"
        )
    # IR-81/IR-15: harbors lie on land-water edges (sea coast or lake shore)
    seen_edges: set[tuple[Point, Point]] = set()
    for s in slots:
        if kinds.get(s.at) not in LAND_KINDS or kinds.get(s.water, SEA) not in (SEA, LAKE):
            raise MapError(
                f"{label}: the harbor at {s.label()} is not on a land-water edge "
                "(land on one side, sea or lake on the other) (IR-81)"
            )
        edge = tuple(sorted(s.points()))
        if edge in seen_edges:
            raise MapError(f"{label}: two harbors on the same edge at {s.label()} (IR-82)")
        seen_edges.add((edge[0], edge[1]))
    # IR-82: no two harbors share an intersection
    owner: dict[Point, HarborSlot] = {}
    for s in slots:
        for p in s.points():
            if p in owner:
                raise MapError(
                    f"{label}: the harbors at {owner[p].label()} and {s.label()} share an "
                    "intersection (IR-82)"
                )
            owner[p] = s


def validate_map(m: IslandMap) -> None:
    """Raise :class:`MapError` unless ``m`` passes every check of IR-81/IR-82."""
    label = m.label
    # IR-82: base-game rules only (no ships, gold or fog)
    if m.rules != "base":
        raise MapError(f"{label}: rules {m.rules!r}; maps use base-game rules only (IR-82)")
    for key in m.extra:
        if key.lower() in NON_BASE_WORDS:
            raise MapError(
                f"{label}: uses {key!r}, which is not in the base game; maps use base-game "
                "rules only, no ships, gold or fog (IR-82)"
            )
        raise MapError(f"{label}: unknown key {key!r} in the map file")
    for h in m.hexes:
        if h.kind not in ISLAND_KINDS:
            if h.kind.lower() in NON_BASE_WORDS or (h.terrain or "").lower() in NON_BASE_WORDS:
                raise MapError(
                    f"{label}: hex {fmt_hex(h.at)} is {h.kind!r}, which is not in the base game; "
                    "maps use base-game rules only, no ships, gold or fog (IR-82)"
                )
            raise MapError(
                f"{label}: hex {fmt_hex(h.at)} has kind {h.kind!r}; an island hex is "
                "producing, desert or lake (IR-81)"
            )
        if h.terrain is not None and h.terrain not in PRODUCING_TERRAINS:
            if h.terrain.lower() in NON_BASE_WORDS:
                raise MapError(
                    f"{label}: hex {fmt_hex(h.at)} is {h.terrain!r}, which is not in the base "
                    "game; maps use base-game rules only, no ships, gold or fog (IR-82)"
                )
            raise MapError(f"{label}: hex {fmt_hex(h.at)} has unknown terrain {h.terrain!r}")
    for pool in m.pools.values():
        for t in pool:
            if t.lower() in NON_BASE_WORDS:
                raise MapError(
                    f"{label}: a terrain pool holds {t!r}, which is not in the base game; maps "
                    "use base-game rules only, no ships, gold or fog (IR-82)"
                )
            if t not in PRODUCING_TERRAINS:
                raise MapError(f"{label}: a terrain pool holds unknown terrain {t!r}")
    if m.coastline is not None:
        _validate_coastline_map(m)
        return
    kinds: dict[Hex, str] = {}
    for h in m.hexes:
        if h.at in kinds:
            raise MapError(f"{label}: hex {fmt_hex(h.at)} is listed twice")
        kinds[h.at] = h.kind
    check_shape(label, kinds, m.harbors, m.max_players)
    _check_terrain(m)
    _check_numbers(m)
    _check_harbor_kinds(m, len(m.harbors))
    _check_robber(m, kinds)


def _check_terrain(m: IslandMap) -> None:
    """IR-10: deserts and lakes carry no terrain or token; IR-81 (the terrain mode): every
    producing hex has its fixed terrain, or a pool whose terrain counts fill its hexes exactly."""
    label = m.label
    producing = [h for h in m.hexes if h.kind == PRODUCING]
    for h in m.hexes:
        if h.kind != PRODUCING and (h.terrain or h.pool or h.token or h.band):
            raise MapError(
                f"{label}: the {h.kind} at {fmt_hex(h.at)} has a terrain, pool, token or band; "
                "deserts and lakes produce nothing and carry no token (IR-10)"
            )
    if m.terrain_mode == "fixed":
        for h in producing:
            if h.terrain is None:
                raise MapError(f"{label}: producing hex {fmt_hex(h.at)} has no fixed terrain")
        return
    for h in producing:
        if h.pool not in m.pools:
            raise MapError(f"{label}: producing hex {fmt_hex(h.at)} has no known terrain pool")
    for name, pool in m.pools.items():
        size = sum(1 for h in producing if h.pool == name)
        if sum(pool.values()) != size:
            raise MapError(
                f"{label}: terrain pool {name!r} holds {sum(pool.values())} terrains for "
                f"{size} hexes"
            )


def _check_numbers(m: IslandMap) -> None:
    """IR-82: one token per producing hex, and IR-13 can be met."""
    label = m.label
    producing = [h for h in m.hexes if h.kind == PRODUCING]
    n_tokens = sum(m.tokens.values())
    if n_tokens != len(producing):
        raise MapError(
            f"{label}: {len(producing)} producing hexes but {n_tokens} tokens; every "
            "producing hex carries exactly one token (IR-12, IR-82)"
        )
    if m.number_mode == "fixed":
        fixed: dict[int, int] = {}
        for h in producing:
            if h.token is None:
                raise MapError(f"{label}: producing hex {fmt_hex(h.at)} has no fixed token")
            fixed[h.token] = fixed.get(h.token, 0) + 1
        if dict(sorted(fixed.items())) != m.tokens:
            raise MapError(f"{label}: the fixed tokens differ from the map's token set (IR-12)")
        reds = {h.at for h in producing if h.token in RED_TOKENS}
        for a in sorted(reds):
            for b in neighbours(a):
                if b in reds and b > a:
                    raise MapError(
                        f"{label}: red tokens on adjacent hexes {fmt_hex(a)} and {fmt_hex(b)}; "
                        "IR-13 cannot be met (IR-82)"
                    )
        return
    if m.number_mode == "random":
        groups = [(red_count(m.tokens), [h.at for h in producing])]
    else:
        total: dict[int, int] = {}
        for name, band in m.bands.items():
            size = sum(1 for h in producing if h.band == name)
            if sum(band.values()) != size:
                raise MapError(
                    f"{label}: number band {name!r} holds {sum(band.values())} tokens for "
                    f"{size} hexes"
                )
            for k, c in band.items():
                total[k] = total.get(k, 0) + c
        for h in producing:
            if h.band not in m.bands:
                raise MapError(f"{label}: producing hex {fmt_hex(h.at)} has no known band")
        if dict(sorted(total.items())) != m.tokens:
            raise MapError(f"{label}: the number bands do not add up to the token set")
        groups = [
            (red_count(band), [h.at for h in producing if h.band == name])
            for name, band in m.bands.items()
        ]
    try:
        found = red_placement(groups)
    except RedSearchExhausted as exc:
        raise MapError(
            f"{label}: {exc}; the {sum(g[0] for g in groups)} red tokens leave too little room "
            "to be sure IR-13 can be met (IR-82)"
        ) from None
    if found is None:
        raise MapError(
            f"{label}: no placement of the {sum(g[0] for g in groups)} red tokens keeps "
            "6s and 8s apart, so IR-13 cannot be met (IR-82)"
        )


def _check_harbor_kinds(m: IslandMap, n_slots: int) -> None:
    """IR-15/IR-81: one shuffled harbor kind for each slot without a fixed kind."""
    shuffled = n_slots - sum(1 for s in m.harbors if s.kind is not None)
    if sum(m.harbor_kinds.values()) != shuffled:
        raise MapError(
            f"{m.label}: {shuffled} harbor slots without a fixed kind but "
            f"{sum(m.harbor_kinds.values())} harbor kinds to shuffle over them"
        )


def _check_robber(m: IslandMap, kinds: Mapping[Hex, str]) -> None:
    """IR-14: the robber starts on a desert (the map must have one) or off the board; IR-42: a
    fixed start is a land hex."""
    if m.robber == "desert":
        if not any(k == DESERT for k in kinds.values()):
            raise MapError(
                f"{m.label}: the robber starts on a desert but the map has none; say 'off' (IR-14)"
            )
    elif not isinstance(m.robber, str) and kinds.get(m.robber) not in LAND_KINDS:
        raise MapError(f"{m.label}: the robber starts on {m.robber}, which is not land (IR-42)")


def _validate_coastline_map(m: IslandMap) -> None:
    """Driftland (IR-83 map 11): the file is a rule whose counts must add up (IR-12, IR-14,
    IR-82); each island drawn from it is checked by :func:`check_shape`,
    :func:`check_enclosed_sea` and :func:`validate_layout`."""
    c = m.coastline
    assert c is not None
    if m.hexes or m.harbors:
        raise MapError(f"{m.label}: a random-coastline map lists no hexes or harbor slots")
    if m.terrain_mode != "pools" or len(m.pools) != 1:
        raise MapError(f"{m.label}: a random coastline needs one terrain pool")
    if m.number_mode != "random":
        raise MapError(f"{m.label}: a random coastline needs number mode random")
    producing = c.tiles - c.deserts
    if sum(next(iter(m.pools.values())).values()) != producing:
        raise MapError(f"{m.label}: the terrain pool does not fill {producing} producing hexes")
    if sum(m.tokens.values()) != producing:
        raise MapError(
            f"{m.label}: {producing} producing hexes but {sum(m.tokens.values())} tokens; every "
            "producing hex carries exactly one token (IR-12, IR-82)"
        )
    if sum(m.harbor_kinds.values()) != c.harbors:
        raise MapError(f"{m.label}: {c.harbors} harbors but other harbor kinds")
    if m.robber not in ("desert", "off") or (m.robber == "desert" and not c.deserts):
        raise MapError(f"{m.label}: a random coastline starts the robber on a desert or off")
    if c.tiles > 3 * c.max_radius * (c.max_radius + 1) + 1:
        raise MapError(f"{m.label}: {c.tiles} tiles do not fit within radius {c.max_radius}")


def validate_layout(m: IslandMap, layout: MapLayout) -> None:
    """Raise :class:`MapError` unless ``layout`` is a legal board of map ``m``: the IR-82 shape
    checks, terrain from the map's pools, the token set with IR-13 met, harbor kinds."""
    label = m.label
    kinds = layout.kinds()
    if len(kinds) != len(layout.hexes):
        raise MapError(f"{label}: the layout lists a hex twice")
    if m.coastline is None:
        if kinds != {h.at: h.kind for h in m.hexes}:
            raise MapError(f"{label}: the layout's hexes differ from the map's")
        if [(s.at, s.side) for s in layout.harbors] != [(s.at, s.side) for s in m.harbors]:
            raise MapError(f"{label}: the layout's harbor slots differ from the map's")
    else:
        c = m.coastline
        total, deserts = len(kinds), sum(1 for k in kinds.values() if k == DESERT)
        if (total, deserts, len(layout.harbors)) != (c.tiles, c.deserts, c.harbors):
            raise MapError(
                f"{label}: a drawn coastline needs {c.tiles} tiles, {c.deserts} deserts and "
                f"{c.harbors} harbors, not {total}, {deserts}, {len(layout.harbors)}"
            )
        if any(k == LAKE for k in kinds.values()):
            raise MapError(f"{label}: a drawn coastline has no lakes")
        check_enclosed_sea(label, set(kinds))
    slots = [HarborSlot(h.at, h.side, h.kind) for h in layout.harbors]
    check_shape(label, kinds, slots, m.max_players)
    by_at = {h.at: h for h in m.hexes}
    tokens: dict[int, int] = {}
    for h in layout.hexes:
        if h.kind != PRODUCING:
            if h.terrain is not None or h.token:
                raise MapError(f"{label}: the {h.kind} at {fmt_hex(h.at)} produces (IR-10)")
            continue
        if h.terrain not in PRODUCING_TERRAINS or not h.token:
            raise MapError(f"{label}: producing hex {fmt_hex(h.at)} lacks terrain or token")
        tokens[h.token] = tokens.get(h.token, 0) + 1
        spec = by_at.get(h.at)
        if spec is not None and m.terrain_mode == "fixed" and h.terrain != spec.terrain:
            raise MapError(f"{label}: hex {fmt_hex(h.at)} must be {spec.terrain}")
        if spec is not None and m.number_mode == "fixed" and h.token != spec.token:
            raise MapError(f"{label}: hex {fmt_hex(h.at)} must carry {spec.token}")
    if dict(sorted(tokens.items())) != m.tokens:
        raise MapError(f"{label}: the tokens differ from the map's token set (IR-12)")
    if m.terrain_mode == "pools":
        for name, pool in m.pools.items():
            got: dict[str, int] = {}
            for h in layout.hexes:
                spec = by_at.get(h.at)
                in_pool = spec.pool == name if spec is not None else h.kind == PRODUCING
                if in_pool and h.terrain is not None:
                    got[h.terrain] = got.get(h.terrain, 0) + 1
            if got != pool:
                raise MapError(f"{label}: terrain pool {name!r} is {got}, not {pool}")
    if m.number_mode == "graded":
        for name, band in m.bands.items():
            got_band: dict[int, int] = {}
            for h in layout.hexes:
                spec = by_at.get(h.at)
                if spec is not None and spec.band == name:
                    got_band[h.token] = got_band.get(h.token, 0) + 1
            if dict(sorted(got_band.items())) != band:
                raise MapError(f"{label}: number band {name!r} holds other tokens")
    reds = {h.at for h in layout.hexes if h.token in RED_TOKENS}
    for a in sorted(reds):
        for b in neighbours(a):
            if b in reds:
                raise MapError(
                    f"{label}: red tokens on adjacent hexes {fmt_hex(a)} and {fmt_hex(b)} (IR-13)"
                )
    kinds_count: dict[str, int] = {}
    for hb, s in zip(layout.harbors, m.harbors or [None] * len(layout.harbors)):
        if s is not None and s.kind is not None:
            if hb.kind != s.kind:
                raise MapError(f"{label}: the harbor at {s.label()} must be {s.kind}")
        else:
            kinds_count[hb.kind] = kinds_count.get(hb.kind, 0) + 1
    if kinds_count != m.harbor_kinds:
        raise MapError(f"{label}: the shuffled harbor kinds differ from the map's")
    if layout.robber is None:
        if m.robber == "desert":
            raise MapError(f"{label}: the robber starts on a desert (IR-14)")
    elif m.robber == "desert" and kinds.get(layout.robber) != DESERT:
        raise MapError(f"{label}: the robber starts on a desert (IR-14)")
    elif m.robber not in ("desert", "off") and layout.robber != m.robber:
        raise MapError(f"{label}: the robber starts on {m.robber}")


def check_enclosed_sea(label: str, island: set[Hex]) -> None:
    """A drawn coastline may not enclose sea: a hole would be a lake nobody asked for (IR-81:
    a lake is listed by the map, never left over)."""
    radius = max(distance(h, (0, 0)) for h in island) + 1
    outside = {
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((q, r), (0, 0)) <= radius and (q, r) not in island
    }
    start = next(h for h in outside if distance(h, (0, 0)) == radius)
    reach = connected(start, outside)
    holes = outside - reach
    if holes:
        raise MapError(f"{label}: the coastline encloses sea at {fmt_hex(min(holes))}")
