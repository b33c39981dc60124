"""The island maps of section 17 (IR-81 what a map is, IR-82 its checks, IR-83 the 22 maps).

A map is a data file in ``data/maps/`` (one per map, format in ``docs/maps.md``) loaded into an
:class:`IslandMap`: island hexes in axial coordinates ``(q, r)`` (pointy-top; ``q`` grows to the
east, ``r`` to the south-east), each one *producing*, *desert* or *lake*; every other hex that
touches the island is *sea* (the sea frame, :meth:`IslandMap.sea`). A map also has a terrain mode
(``fixed``: each producing hex names its terrain; ``pools``: each hex names a pool whose terrain
counts are shuffled over its hexes), a number mode (``fixed``; ``random`` under IR-13; ``graded``:
random within bands, IR-13 still holding), a token set, harbor slots on land–water edges (sea
coast or lake shore) with fixed or shuffled kinds, a robber start, the supported player counts
and English and Dutch names. Driftland has no hexes in its file but a ``coastline`` rule: every
game draws a new island from the rng.

:func:`validate_map` runs every IR-82 check and raises :class:`MapError` naming the map and the
problem; :func:`load_map` validates while loading. :func:`draw_layout` draws one game's concrete
board (:class:`MapLayout`) from an rng and validates it.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from hexfolk.games.island.actions import LayoutOutcome
from hexfolk.games.island.board import BOARDS, Topology, empty_topology, topology
from hexfolk.games.island.board import Layout as EngineLayout
from hexfolk.games.island.rules import DESERT as DESERT_CODE
from hexfolk.games.island.rules import (
    DICE_PIPS,
    GENERIC,
    LETTERS,
    RED_TOKENS,
    RESOURCES,
    TERRAIN_LETTERS,
    TERRAINS,
)

MAPS_DIR = Path(__file__).parent / "data" / "maps"

Hex = tuple[int, int]
"""Axial coordinates ``(q, r)`` of a hex."""
Point = tuple[int, int]
"""An intersection on the doubled grid of ``board.py``: the hex ``(q, r)`` has its centre at
``(2q + r, 3r)`` and its corners at the offsets of :data:`CORNERS`."""

PRODUCING, DESERT, LAKE, SEA = "producing", "desert", "lake", "sea"
ISLAND_KINDS = (PRODUCING, DESERT, LAKE)
"""Hex kinds inside the coastline (they make the tile count, IR-81)."""
LAND_KINDS = (PRODUCING, DESERT)
PRODUCING_TERRAINS: tuple[str, ...] = TERRAINS[: len(RESOURCES)]
"""Terrains that produce (forest, hills, pasture, fields, mountains)."""
GENERIC_HARBOR = "generic"
HARBOR_KINDS: tuple[str, ...] = (*RESOURCES, GENERIC_HARBOR)
MIN_INTERSECTIONS_PER_PLAYER = 8
"""IR-82: at least 8 land intersections per seat, so setup can always finish."""

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
"""Corner offsets, clockwise from the top (the same as ``board._CORNERS``)."""
SIDE_CORNERS: dict[str, tuple[int, int]] = {
    "ne": (0, 1),
    "e": (1, 2),
    "se": (2, 3),
    "sw": (3, 4),
    "w": (4, 5),
    "nw": (5, 0),
}
"""The two corners (indices into :data:`CORNERS`) of the side facing each direction."""

NON_BASE_WORDS = ("ships", "ship", "gold", "fog", "seafarers", "pirate", "fishermen")
"""Things of the expansions that a base-game map may not use (IR-82)."""

_TOP_KEYS = {
    "_comment",
    "id",
    "number",
    "names",
    "idea",
    "players",
    "rules",
    "terrain",
    "numbers",
    "harbors",
    "robber",
    "hexes",
    "coastline",
    "notes",
}


class MapError(ValueError):
    """A map breaks IR-81/IR-82; the message names the map and the problem."""


def neighbour(h: Hex, direction: str) -> Hex:
    dq, dr = DIRECTIONS[direction]
    return (h[0] + dq, h[1] + dr)


@cache
def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` (memoised: the IR-13 search and Driftland's coastline ask
    for them thousands of times per board)."""
    return tuple((h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS.values())


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def corners(h: Hex) -> list[Point]:
    """The six intersections of hex ``h``, clockwise from the top."""
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


def fmt_hex(h: Hex) -> str:
    return f"({h[0]},{h[1]})"


@dataclass(frozen=True, slots=True)
class MapHex:
    """One island hex of a map file."""

    at: Hex
    kind: str
    """``producing``, ``desert`` or ``lake``."""
    terrain: str | None = None
    """Fixed terrain (terrain mode ``fixed``)."""
    pool: str | None = None
    """Terrain pool (terrain mode ``pools``)."""
    token: int | None = None
    """Fixed token (number mode ``fixed``)."""
    band: str | None = None
    """Number band (number mode ``graded``)."""


@dataclass(frozen=True, slots=True)
class HarborSlot:
    """A harbor on side ``side`` of land hex ``at``; the hex across is sea or lake."""

    at: Hex
    side: str
    kind: str | None = None
    """A fixed kind (a resource or ``generic``); None: drawn from the map's harbor kinds."""

    @property
    def water(self) -> Hex:
        """The sea or lake hex across the harbor's side."""
        return neighbour(self.at, self.side)

    def points(self) -> tuple[Point, Point]:
        return side_points(self.at, self.side)

    def label(self) -> str:
        return f"{fmt_hex(self.at)} {self.side}"


@dataclass(frozen=True, slots=True)
class Coastline:
    """Driftland's rule: a random island drawn for every game (validated like any map)."""

    tiles: int
    deserts: int
    max_radius: int
    harbors: int
    attempts: int


@dataclass(frozen=True, eq=False)
class IslandMap:
    """A map of IR-81 as loaded from its data file (see the module docstring)."""

    id: str
    number: int
    name_en: str
    name_nl: str
    idea: str
    min_players: int
    max_players: int
    rules: str
    terrain_mode: str
    pools: dict[str, dict[str, int]]
    number_mode: str
    tokens: dict[int, int]
    bands: dict[str, dict[int, int]]
    hexes: tuple[MapHex, ...]
    harbors: tuple[HarborSlot, ...]
    harbor_kinds: dict[str, int]
    """Kinds shuffled over the slots without a fixed kind."""
    robber: str | Hex
    """``desert`` (IR-14: a random desert if several), ``off``, or a fixed land hex."""
    coastline: Coastline | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys of the file this model does not know (refused by :func:`validate_map`)."""

    @property
    def label(self) -> str:
        return f"map {self.id!r} ({self.name_en})"

    def by_kind(self, kind: str) -> list[Hex]:
        return [h.at for h in self.hexes if h.kind == kind]

    def counts(self) -> tuple[int, int, int, int]:
        """Tile count as IR-83 gives it: (total, producing, desert, lake)."""
        if self.coastline is not None:
            c = self.coastline
            return (c.tiles, c.tiles - c.deserts, c.deserts, 0)
        p, d, w = (len(self.by_kind(k)) for k in ISLAND_KINDS)
        return (p + d + w, p, d, w)

    def sea(self) -> list[Hex]:
        """The sea frame: every hex outside the island that touches it."""
        return sea_frame({h.at for h in self.hexes})

    def supports(self, players: int) -> bool:
        return self.min_players <= players <= self.max_players


def sea_frame(island: Iterable[Hex]) -> list[Hex]:
    cells = set(island)
    return sorted({n for h in cells for n in neighbours(h) if n not in cells})


# --- loading ---------------------------------------------------------------------------------


def _hex(value: Any, where: str, label: str) -> Hex:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise MapError(f"{label}: {where} must be [q, r] (two integers), not {value!r}")
    return (int(value[0]), int(value[1]))


def _counts(value: Any, names: Sequence[str] | None, where: str, label: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise MapError(f"{label}: {where} must be an object of counts")
    out: dict[str, int] = {}
    for k, v in value.items():
        if names is not None and k not in names:
            raise MapError(f"{label}: {where} names {k!r}, not one of {', '.join(names)}")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise MapError(f"{label}: {where}[{k!r}] must be a count, not {v!r}")
        if v:
            out[k] = v
    return out


def _token_counts(value: Any, where: str, label: str) -> dict[int, int]:
    raw = _counts(value, None, where, label)
    out: dict[int, int] = {}
    for k, v in raw.items():
        if not k.isdigit() or int(k) not in DICE_PIPS or int(k) == 7:
            raise MapError(f"{label}: {where} has token {k!r}; tokens are 2-6 and 8-12")
        out[int(k)] = v
    return dict(sorted(out.items()))


def parse_map(spec: Mapping[str, Any], source: str = "map") -> IslandMap:
    """Build an :class:`IslandMap` from a parsed data file (format errors raise MapError;
    the IR-82 checks are :func:`validate_map`)."""
    if not isinstance(spec, Mapping):
        raise MapError(f"{source}: a map file holds one JSON object")
    mid = spec.get("id")
    if not isinstance(mid, str) or not mid:
        raise MapError(f"{source}: the map has no id")
    names = spec.get("names") or {}
    label = f"map {mid!r} ({names.get('en', '?') if isinstance(names, dict) else '?'})"
    if not isinstance(names, dict) or not names.get("en") or not names.get("nl"):
        raise MapError(f"{label}: needs English and Dutch names (names.en, names.nl)")
    players = spec.get("players") or {}
    lo, hi = players.get("min"), players.get("max")
    if not isinstance(lo, int) or not isinstance(hi, int) or not 2 <= lo <= hi <= 8:
        raise MapError(f"{label}: players must be min..max within 2..8, not {players!r}")
    terrain = spec.get("terrain") or {}
    terrain_mode = terrain.get("mode")
    if terrain_mode not in ("fixed", "pools"):
        raise MapError(f"{label}: terrain mode must be fixed or pools, not {terrain_mode!r}")
    pools = {
        str(name): _counts(c, None, f"terrain pool {name!r}", label)
        for name, c in (terrain.get("pools") or {}).items()
    }
    numbers = spec.get("numbers") or {}
    number_mode = numbers.get("mode")
    if number_mode not in ("fixed", "random", "graded"):
        raise MapError(f"{label}: number mode must be fixed, random or graded, not {number_mode!r}")
    tokens = _token_counts(numbers.get("tokens") or {}, "numbers.tokens", label)
    bands = {
        str(name): _token_counts(c, f"number band {name!r}", label)
        for name, c in (numbers.get("bands") or {}).items()
    }
    default_pool = next(iter(pools)) if len(pools) == 1 else None
    hexes: list[MapHex] = []
    for i, h in enumerate(spec.get("hexes") or []):
        if not isinstance(h, dict):
            raise MapError(f"{label}: hex #{i} must be an object")
        at = _hex(h.get("at"), f"hex #{i} 'at'", label)
        kind = h.get("kind", PRODUCING)
        token = h.get("token")
        if token is not None and (not isinstance(token, int) or isinstance(token, bool)):
            raise MapError(f"{label}: hex {fmt_hex(at)} has token {token!r}")
        pool = h.get("pool")
        if pool is None and kind == PRODUCING and terrain_mode == "pools":
            pool = default_pool
        hexes.append(
            MapHex(
                at=at,
                kind=str(kind),
                terrain=h.get("terrain"),
                pool=pool,
                token=token,
                band=h.get("band"),
            )
        )
    harbor_spec = spec.get("harbors") or {}
    slots: list[HarborSlot] = []
    for i, s in enumerate(harbor_spec.get("slots") or []):
        if not isinstance(s, dict):
            raise MapError(f"{label}: harbor slot #{i} must be an object")
        at = _hex(s.get("at"), f"harbor slot #{i} 'at'", label)
        side = s.get("side")
        if side not in DIRECTIONS:
            raise MapError(
                f"{label}: harbor slot #{i} side must be one of {', '.join(DIRECTIONS)}, "
                f"not {side!r}"
            )
        kind = s.get("kind")
        if kind is not None and kind not in HARBOR_KINDS:
            raise MapError(f"{label}: harbor slot #{i} kind {kind!r} is not a harbor kind")
        slots.append(HarborSlot(at, str(side), kind))
    harbor_kinds = _counts(harbor_spec.get("kinds") or {}, HARBOR_KINDS, "harbor kinds", label)
    robber_raw = spec.get("robber", "desert")
    robber: str | Hex
    if robber_raw in ("desert", "off"):
        robber = str(robber_raw)
    else:
        robber = _hex(robber_raw, "robber", label)
    coast = spec.get("coastline")
    coastline = None
    if coast is not None:
        if not isinstance(coast, dict) or coast.get("mode") != "random":
            raise MapError(f"{label}: coastline must be {{'mode': 'random', ...}}")
        try:
            coastline = Coastline(
                tiles=int(coast["tiles"]),
                deserts=int(coast["deserts"]),
                max_radius=int(coast["max_radius"]),
                harbors=int(coast["harbors"]),
                attempts=int(coast.get("attempts", 100)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise MapError(f"{label}: coastline needs tiles, deserts, max_radius, harbors") from exc
    number = spec.get("number", 0)
    return IslandMap(
        id=mid,
        number=int(number) if isinstance(number, int) else 0,
        name_en=str(names["en"]),
        name_nl=str(names["nl"]),
        idea=str(spec.get("idea", "")),
        min_players=lo,
        max_players=hi,
        rules=str(spec.get("rules", "base")),
        terrain_mode=str(terrain_mode),
        pools=pools,
        number_mode=str(number_mode),
        tokens=tokens,
        bands=bands,
        hexes=tuple(hexes),
        harbors=tuple(slots),
        harbor_kinds=harbor_kinds,
        robber=robber,
        coastline=coastline,
        extra={k: v for k, v in spec.items() if k not in _TOP_KEYS},
    )


def load_map_file(path: Path) -> IslandMap:
    """Load and validate one map file."""
    try:
        spec = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise MapError(f"{path.name}: not valid JSON: {exc}") from None
    m = parse_map(spec, path.name)
    validate_map(m)
    return m


@cache
def all_maps() -> tuple[IslandMap, ...]:
    """Every shipped map, validated, in IR-83 order."""
    maps = [load_map_file(p) for p in sorted(MAPS_DIR.glob("*.json"))]
    return tuple(sorted(maps, key=lambda m: (m.number, m.id)))


def map_ids() -> list[str]:
    return [m.id for m in all_maps()]


def load_map(name: str) -> IslandMap:
    """A shipped map by id, English or Dutch name (case and spaces ignored)."""

    def key(s: str) -> str:
        return "".join(ch for ch in s.lower() if ch.isalnum())

    want = key(name)
    for m in all_maps():
        if want in (key(m.id), key(m.name_en), key(m.name_nl)):
            return m
    raise MapError(f"unknown map {name!r}; the maps are: {', '.join(map_ids())}")


# --- IR-82 checks ----------------------------------------------------------------------------


def _land_regions(land: set[Hex]) -> list[set[Hex]]:
    regions: list[set[Hex]] = []
    seen: set[Hex] = set()
    for start in sorted(land):
        if start in seen:
            continue
        region = {start}
        stack = [start]
        while stack:
            h = stack.pop()
            for n in neighbours(h):
                if n in land and n not in region:
                    region.add(n)
                    stack.append(n)
        seen |= region
        regions.append(region)
    return regions


RED_SEARCH_BUDGET = 10_000
"""Search steps :func:`red_placement` may take (maps leave far more room for reds than this
needs; only a map at the very edge of IR-13 could exhaust it)."""


class RedSearchExhausted(MapError):
    """:func:`red_placement` gave up before proving or refuting a placement."""


def red_placement(
    groups: Sequence[tuple[int, Sequence[Hex]]],
    blocked: Iterable[Hex] = (),
    budget: int = RED_SEARCH_BUDGET,
) -> list[list[Hex]] | None:
    """For each group (number of red tokens, candidate hexes), hexes for its reds with no two
    reds adjacent over all groups (IR-13), found by backtracking; None if there is none.
    Raises :class:`RedSearchExhausted` after ``budget`` steps."""
    near: dict[Hex, int] = {}
    """How many chosen hexes are ``h`` itself or touch it (``h`` is free at 0)."""

    def mark(h: Hex, d: int) -> None:
        near[h] = near.get(h, 0) + d
        for n in neighbours(h):
            near[n] = near.get(n, 0) + d

    for h in set(blocked):
        mark(h, 1)
    picks: list[list[Hex]] = [[] for _ in groups]
    steps = [0]

    def free(h: Hex) -> bool:
        return not near.get(h)

    def search(g: int, start: int) -> bool:
        if g == len(groups):
            return True
        need, cands = groups[g]
        if len(picks[g]) == need:
            return search(g + 1, 0)
        left = need - len(picks[g])
        for i in range(start, len(cands)):
            # bound: too few free candidates left to finish this group
            if sum(1 for c in cands[i:] if free(c)) < left:
                return False
            h = cands[i]
            if not free(h):
                continue
            steps[0] += 1
            if steps[0] > budget:
                raise RedSearchExhausted(f"no red-token placement found in {budget} steps")
            mark(h, 1)
            picks[g].append(h)
            if search(g, i + 1):
                return True
            picks[g].pop()
            mark(h, -1)
        return False

    return picks if search(0, 0) else None


def _reds(tokens: Mapping[int, int]) -> int:
    return sum(c for k, c in tokens.items() if k in RED_TOKENS)


def _check_shape(
    label: str,
    kinds: Mapping[Hex, str],
    slots: Sequence[HarborSlot],
    max_players: int,
) -> None:
    """The IR-82 checks that only need the island's shape and harbor slots."""
    land = {h for h, k in kinds.items() if k in LAND_KINDS}
    if not land:
        raise MapError(f"{label}: the map has no land")
    # IR-82: the land, deserts included, forms one connected region
    regions = _land_regions(land)
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
    _check_shape(label, kinds, m.harbors, m.max_players)
    _check_terrain(m)
    _check_numbers(m)
    _check_harbor_kinds(m, len(m.harbors))
    _check_robber(m, kinds)


def _check_terrain(m: IslandMap) -> None:
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
        groups = [(_reds(m.tokens), [h.at for h in producing])]
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
            (_reds(band), [h.at for h in producing if h.band == name])
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
    shuffled = n_slots - sum(1 for s in m.harbors if s.kind is not None)
    if sum(m.harbor_kinds.values()) != shuffled:
        raise MapError(
            f"{m.label}: {shuffled} harbor slots without a fixed kind but "
            f"{sum(m.harbor_kinds.values())} harbor kinds to shuffle over them"
        )


def _check_robber(m: IslandMap, kinds: Mapping[Hex, str]) -> None:
    if m.robber == "desert":
        if not any(k == DESERT for k in kinds.values()):
            raise MapError(
                f"{m.label}: the robber starts on a desert but the map has none; say 'off' (IR-14)"
            )
    elif not isinstance(m.robber, str) and kinds.get(m.robber) not in LAND_KINDS:
        raise MapError(f"{m.label}: the robber starts on {m.robber}, which is not land (IR-42)")


def _validate_coastline_map(m: IslandMap) -> None:
    """Driftland: the file is a rule, each drawn island is checked by :func:`draw_layout`."""
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


# --- drawing a layout ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlacedHex:
    """One island hex of a drawn layout."""

    at: Hex
    kind: str
    terrain: str | None
    """The terrain of a producing hex (None for deserts and lakes)."""
    token: int
    """0 for deserts and lakes (IR-10)."""


@dataclass(frozen=True, slots=True)
class PlacedHarbor:
    at: Hex
    side: str
    kind: str

    @property
    def water(self) -> Hex:
        return neighbour(self.at, self.side)

    def points(self) -> tuple[Point, Point]:
        return side_points(self.at, self.side)


@dataclass(frozen=True)
class MapLayout:
    """One game's board drawn from a map: every island hex with its terrain and token, every
    harbor with its kind, and the robber's start (None: off the board, IR-14)."""

    map_id: str
    hexes: tuple[PlacedHex, ...]
    harbors: tuple[PlacedHarbor, ...]
    robber: Hex | None

    def kinds(self) -> dict[Hex, str]:
        return {h.at: h.kind for h in self.hexes}

    def hex_at(self, at: Hex) -> PlacedHex:
        for h in self.hexes:
            if h.at == at:
                return h
        raise KeyError(at)

    def land_intersections(self) -> set[Point]:
        return {p for h in self.hexes if h.kind in LAND_KINDS for p in corners(h.at)}

    def coast_hexes(self) -> set[Hex]:
        """Land hexes touching the sea frame (lake shores do not count)."""
        kinds = self.kinds()
        return {
            h.at
            for h in self.hexes
            if h.kind in LAND_KINDS and any(n not in kinds for n in neighbours(h.at))
        }

    def pips(self) -> dict[str, int]:
        """Pips (ways out of 36) per resource, over the producing hexes."""
        out = dict.fromkeys(RESOURCES, 0)
        for h in self.hexes:
            if h.kind == PRODUCING and h.terrain is not None:
                res = RESOURCES[TERRAINS.index(h.terrain)]
                out[res] += DICE_PIPS[h.token]
        return out


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
        _check_enclosed_sea(label, set(kinds))
    slots = [HarborSlot(h.at, h.side, h.kind) for h in layout.harbors]
    _check_shape(label, kinds, slots, m.max_players)
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


def _check_enclosed_sea(label: str, island: set[Hex]) -> None:
    """A drawn coastline may not enclose sea: a hole would be a lake nobody asked for."""
    radius = max(distance(h, (0, 0)) for h in island) + 1
    outside = {
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((q, r), (0, 0)) <= radius and (q, r) not in island
    }
    start = next(h for h in outside if distance(h, (0, 0)) == radius)
    reach = {start}
    stack = [start]
    while stack:
        h = stack.pop()
        for n in neighbours(h):
            if n in outside and n not in reach:
                reach.add(n)
                stack.append(n)
    holes = outside - reach
    if holes:
        raise MapError(f"{label}: the coastline encloses sea at {fmt_hex(min(holes))}")


def _multiset(counts: Mapping[Any, int]) -> list[Any]:
    return [k for k, c in counts.items() for _ in range(c)]


def _place_tokens(
    m: IslandMap, producing: Sequence[Hex], band_of: Mapping[Hex, str], rng: random.Random
) -> dict[Hex, int]:
    """Tokens per IR-13: reds first (random order, backtracking), then the rest shuffled; with
    graded numbers each band's tokens stay in the band."""
    bands = m.bands if m.number_mode == "graded" else {"": m.tokens}
    groups: list[tuple[int, list[Hex]]] = []
    for name, band in bands.items():
        cands = [h for h in producing if m.number_mode != "graded" or band_of[h] == name]
        rng.shuffle(cands)
        groups.append((_reds(band), cands))
    try:
        picks = red_placement(groups)
    except RedSearchExhausted as exc:
        raise MapError(f"{m.label}: {exc} (IR-13)") from None
    if picks is None:
        raise MapError(f"{m.label}: no red-token placement satisfies IR-13")
    out: dict[Hex, int] = {}
    for band, chosen, (_, cands) in zip(bands.values(), picks, groups):
        reds = sorted(_multiset({k: c for k, c in band.items() if k in RED_TOKENS}))
        rest = sorted(_multiset({k: c for k, c in band.items() if k not in RED_TOKENS}))
        rng.shuffle(reds)
        rng.shuffle(rest)
        for h, k in zip(chosen, reds):
            out[h] = k
        others = [h for h in cands if h not in out]
        for h, k in zip(others, rest):
            out[h] = k
    return out


def _random_island(m: IslandMap, rng: random.Random) -> tuple[list[MapHex], list[HarborSlot]]:
    """Driftland: grow a connected island from the centre, hex by hex, from the rng; deserts
    and harbor slots are drawn on it (harbor slots 2+ coast edges apart)."""
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
        near = {q for p in pts for q in _points_near(p)}
        if near & used:
            continue
        slots.append(HarborSlot(h, side))
        used |= set(pts)
        if len(slots) == c.harbors:
            break
    return hexes, slots


def _points_near(p: Point) -> list[Point]:
    """``p`` and the intersections one edge away (a corner's three neighbours)."""
    x, y = p
    if y % 3 == 1:  # an upper corner of the hex below: neighbours up, down-left, down-right
        return [p, (x, y - 2), (x - 1, y + 1), (x + 1, y + 1)]
    return [p, (x, y + 2), (x - 1, y - 1), (x + 1, y - 1)]


def draw_layout(m: IslandMap, rng: random.Random) -> MapLayout:
    """One game's board of map ``m`` from ``rng``, validated: terrain shuffled within its pools,
    tokens per the number mode (IR-13), shuffled harbor kinds, the robber on a desert (a random
    one when there are several, IR-14). Driftland draws a new island every time."""
    if m.coastline is not None:
        for _ in range(m.coastline.attempts):
            hexes, slots = _random_island(m, rng)
            if len(slots) == m.coastline.harbors:
                try:
                    _check_enclosed_sea(m.label, {h.at for h in hexes})
                    _check_shape(m.label, {h.at: h.kind for h in hexes}, slots, m.max_players)
                    groups = [(_reds(m.tokens), [h.at for h in hexes if h.kind == PRODUCING])]
                    if red_placement(groups) is not None:
                        break
                except MapError:
                    pass
        else:
            raise MapError(f"{m.label}: no valid coastline in {m.coastline.attempts} attempts")
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
            bag = sorted(_multiset(pool), key=PRODUCING_TERRAINS.index)
            rng.shuffle(bag)
            terrain.update(zip(members, bag))
    if m.number_mode == "fixed":
        tokens = {h.at: int(h.token or 0) for h in hexes if h.kind == PRODUCING}
    else:
        band_of = {h.at: str(h.band) for h in hexes}
        tokens = _place_tokens(m, producing, band_of, rng)
    bag_kinds = sorted(_multiset(m.harbor_kinds), key=HARBOR_KINDS.index)
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


def map_facts(m: IslandMap) -> dict[str, Any]:
    """Measured facts of a map for listings and docs (for Driftland, of the seed-0 island)."""
    layout = draw_layout(m, random.Random(0))
    total, producing, deserts, lakes = m.counts()
    lake_harbors = sum(1 for h in layout.harbors if layout.kinds().get(h.water) == LAKE)
    return {
        "id": m.id,
        "number": m.number,
        "en": m.name_en,
        "nl": m.name_nl,
        "tiles": total,
        "producing": producing,
        "desert": deserts,
        "lake": lakes,
        "players": f"{m.min_players}-{m.max_players}",
        "min_players": m.min_players,
        "max_players": m.max_players,
        "intersections": len(layout.land_intersections()),
        "harbors": len(layout.harbors),
        "lake_harbors": lake_harbors,
        "tokens": sum(m.tokens.values()),
        "pips": sum(DICE_PIPS[k] * c for k, c in m.tokens.items()),
        "terrain": m.terrain_mode,
        "numbers": m.number_mode,
        "coastline": "random" if m.coastline is not None else "fixed",
    }


# --- text form and the engine's board model ----------------------------------------------------

_KIND_CODE = {LAKE: "~", DESERT: "D"}


def layout_text(layout: MapLayout) -> str:
    """``q,r:O10;q,r:~;... q,r,side:3;... r<q,r>``: every island hex with its terrain letter and
    token (``D`` desert, ``~`` lake), every harbor with its kind (``3`` or a resource letter),
    the robber's start (``r-``: off the board). Round-trips through :func:`parse_layout_text`;
    carries the coastline too, so a record of a Driftland game replays its island."""

    def hex_code(h: PlacedHex) -> str:
        if h.kind in _KIND_CODE:
            return _KIND_CODE[h.kind]
        assert h.terrain is not None
        return TERRAIN_LETTERS[TERRAINS.index(h.terrain)] + str(h.token)

    hexes = ";".join(f"{h.at[0]},{h.at[1]}:{hex_code(h)}" for h in layout.hexes)
    harbors = ";".join(
        f"{hb.at[0]},{hb.at[1]},{hb.side}:"
        + ("3" if hb.kind == GENERIC_HARBOR else LETTERS[RESOURCES.index(hb.kind)])
        for hb in layout.harbors
    )
    robber = "r-" if layout.robber is None else f"r{layout.robber[0]},{layout.robber[1]}"
    return f"{hexes} {harbors or '-'} {robber}"


def parse_layout_text(m: IslandMap, text: str, *, validate: bool = True) -> MapLayout:
    """The :class:`MapLayout` of ``text`` (:func:`layout_text`), validated against map ``m``
    (``validate=False``: the syntax only, as a record parser needs before legality)."""

    def coords(s: str) -> Hex:
        q, r = s.split(",")
        return (int(q), int(r))

    try:
        hex_part, harbor_part, robber_part = text.split()
        hexes = []
        for item in hex_part.split(";"):
            at, code = item.split(":")
            if code == "~":
                hexes.append(PlacedHex(coords(at), LAKE, None, 0))
            elif code == "D":
                hexes.append(PlacedHex(coords(at), DESERT, None, 0))
            else:
                terrain = TERRAINS[TERRAIN_LETTERS.index(code[0])]
                hexes.append(PlacedHex(coords(at), PRODUCING, terrain, int(code[1:])))
        harbors = []
        for item in [] if harbor_part == "-" else harbor_part.split(";"):
            where, kind = item.split(":")
            q, r, side = where.split(",")
            if side not in DIRECTIONS:
                raise ValueError(side)
            name = GENERIC_HARBOR if kind == "3" else RESOURCES[LETTERS.index(kind)]
            harbors.append(PlacedHarbor((int(q), int(r)), side, name))
        if not robber_part.startswith("r"):
            raise ValueError(robber_part)
        robber = None if robber_part == "r-" else coords(robber_part[1:])
    except (ValueError, IndexError) as exc:
        raise MapError(f"{m.label}: bad layout text ({exc})") from None
    layout = MapLayout(m.id, tuple(hexes), tuple(harbors), robber)
    if validate:
        validate_layout(m, layout)
    return layout


def to_engine(layout: MapLayout) -> tuple[Topology, EngineLayout]:
    """The engine's geometry and layout for a drawn map: ``(board.Topology, board.Layout)``.

    Only land hexes (producing and desert) become engine hexes, ids row by row; lakes are holes,
    so they produce nothing, never hold the robber and carry no nodes of their own, and their
    shore edges are coast edges (one land hex) where lake harbors sit. Nodes and edges follow
    ``board.topology``'s conventions (nodes by y then x, edges as sorted node pairs)."""
    land = sorted((h for h in layout.hexes if h.kind in LAND_KINDS), key=lambda h: h.at[::-1])
    codes = [DESERT_CODE if h.kind == DESERT else TERRAINS.index(str(h.terrain)) for h in land]
    kinds = [
        GENERIC if hb.kind == GENERIC_HARBOR else RESOURCES.index(hb.kind) for hb in layout.harbors
    ]
    token_counts: dict[int, int] = {}
    for h in land:
        if h.token:
            token_counts[h.token] = token_counts.get(h.token, 0) + 1
    shape = (
        layout.map_id,
        tuple(h.at for h in land),
        tuple((hb.at, hb.side) for hb in layout.harbors),
        tuple(codes.count(t) for t in range(len(TERRAINS))),
        tuple(sorted(token_counts.items())),
        tuple(kinds.count(k) for k in range(len(RESOURCES) + 1)),
    )
    topology = _TOPOLOGIES.get(shape)
    if topology is None:
        if len(_TOPOLOGIES) >= _TOPOLOGY_CACHE:  # Driftland: a new island every game
            del _TOPOLOGIES[next(iter(_TOPOLOGIES))]
        topology = _TOPOLOGIES[shape] = _engine_topology(layout.map_id, land, layout.harbors, shape)
    hex_index = {h.at: i for i, h in enumerate(land)}
    robber = -1 if layout.robber is None else hex_index[layout.robber]
    engine_layout = EngineLayout(tuple(codes), tuple(h.token for h in land), tuple(kinds), robber)
    return topology, engine_layout


_TOPOLOGIES: dict[tuple[Any, ...], Topology] = {}
"""Engine topologies by shape (map, land hexes, harbor sides, counts): every game on a map with
a fixed coastline shares one :class:`~.board.Topology` object."""
_TOPOLOGY_CACHE = 1024


def _engine_topology(
    map_id: str, land: Sequence[PlacedHex], harbors: Sequence[PlacedHarbor], shape: tuple[Any, ...]
) -> Topology:
    hex_id = {h.at: i for i, h in enumerate(land)}
    points = sorted({p for h in land for p in corners(h.at)}, key=lambda p: (p[1], p[0]))
    node_id = {p: i for i, p in enumerate(points)}
    hex_nodes = tuple(tuple(node_id[p] for p in corners(h.at)) for h in land)
    edge_hexes: dict[tuple[int, int], list[int]] = {}
    for i, nodes in enumerate(hex_nodes):
        for k in range(6):
            a, b = nodes[k], nodes[(k + 1) % 6]
            edge_hexes.setdefault((min(a, b), max(a, b)), []).append(i)
    edges = sorted(edge_hexes)
    edge_id = {e: i for i, e in enumerate(edges)}
    node_hexes: list[list[int]] = [[] for _ in points]
    for i, nodes in enumerate(hex_nodes):
        for v in nodes:
            node_hexes[v].append(i)
    node_adj: list[list[int]] = [[] for _ in points]
    node_edges: list[list[int]] = [[] for _ in points]
    for e, (a, b) in enumerate(edges):
        node_adj[a].append(b)
        node_adj[b].append(a)
        node_edges[a].append(e)
        node_edges[b].append(e)
    order = ("e", "se", "sw", "w", "nw", "ne")  # board.py's neighbour order
    hex_adj = tuple(
        tuple(hex_id[neighbour(h.at, d)] for d in order if neighbour(h.at, d) in hex_id)
        for h in land
    )
    slots = []
    for hb in harbors:
        a, b = (node_id[p] for p in hb.points())
        slots.append(edge_id[(min(a, b), max(a, b))])
    try:
        name = load_map(map_id).name_en
    except MapError:  # a map of the tests, not shipped
        name = map_id
    return Topology(
        board_id=map_id,
        name=name,
        hex_xy=tuple((2 * h.at[0] + h.at[1], 3 * h.at[1]) for h in land),
        hex_nodes=hex_nodes,
        hex_adj=hex_adj,
        node_xy=tuple(points),
        node_hexes=tuple(tuple(x) for x in node_hexes),
        node_adj=tuple(tuple(x) for x in node_adj),
        node_edges=tuple(tuple(x) for x in node_edges),
        edge_nodes=tuple(edges),
        edge_hexes=tuple(tuple(edge_hexes[e]) for e in edges),
        coast=tuple(edge_id[e] for e in edges if len(edge_hexes[e]) == 1),
        harbor_slots=tuple(slots),
        terrain_counts=shape[3],
        token_counts=dict(shape[4]),
        harbor_counts=shape[5],
        edge_other=tuple({a: b, b: a} for a, b in edges),
        key=("shape", shape),
    )


# --- maps in play: the layout outcome and the geometry an observation names -------------------


@dataclass(frozen=True, slots=True)
class MapLayoutOutcome(LayoutOutcome):
    """Chance: the board of a map game, the first step of the game. ``layout`` is the engine's
    :class:`~.board.Layout` (what the observation's ``board.layout`` shows), ``island`` the drawn
    map with its coordinates, lakes and coastline, ``topology`` the engine geometry of ``island``.
    Its text is ``layout`` + :func:`layout_text`, so a record replays Driftland's island."""

    island: MapLayout
    topology: Topology = field(compare=False, repr=False)

    def __str__(self) -> str:
        return "layout " + layout_text(self.island)


def outcome_of(layout: MapLayout) -> MapLayoutOutcome:
    """The layout outcome of a drawn map (its engine board built by :func:`to_engine`)."""
    topology, engine_layout = to_engine(layout)
    return MapLayoutOutcome(engine_layout, layout, topology)


def parse_outcome(m: IslandMap, text: str) -> MapLayoutOutcome:
    """The outcome of ``text`` (:func:`layout_text`) on map ``m``; raises :class:`MapError`
    for text that is not a layout of ``m``'s kind (whether it is a legal board of ``m`` is
    :func:`validate_layout`'s question)."""
    layout = parse_layout_text(m, text, validate=False)
    try:
        return outcome_of(layout)
    except (KeyError, ValueError, IndexError) as exc:
        raise MapError(f"{m.label}: the layout text does not describe a board ({exc})") from None


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


@cache
def map_topology(map_id: str) -> Topology:
    """The engine geometry of a map with a fixed coastline (every game on it shares it)."""
    m = load_map(map_id)
    if m.coastline is not None:
        raise MapError(f"{m.label}: a new coastline every game, so no geometry before the layout")
    return to_engine(draw_layout(m, random.Random(0)))[0]


@lru_cache(maxsize=128)
def _island_geometry(map_id: str, text: str) -> Topology:
    return parse_outcome(load_map(map_id), text).topology


def board_topology(board: Mapping[str, Any]) -> Topology:
    """The engine geometry an observation's ``board`` names: a standard board (``hex19``...),
    a map id, or for Driftland its ``island`` text (an empty geometry before the layout)."""
    board_id = board["map"]
    if board_id in BOARDS:
        return topology(board_id)
    m = load_map(board_id)
    if m.coastline is None:
        return map_topology(m.id)
    island = board.get("island")
    if not island:
        return empty_topology(m.id, m.name_en)
    return _island_geometry(m.id, island)


def lake_hexes(board: Mapping[str, Any]) -> list[Hex]:
    """The lakes of an observation's ``board`` (axial coordinates; none on a standard board)."""
    island = board.get("island")
    if not island:
        return []
    return [
        coords
        for item in island.split()[0].split(";")
        for at, code in [item.split(":")]
        if code == "~"
        for coords in [(int(at.split(",")[0]), int(at.split(",")[1]))]
    ]
