"""The map document of IR-81: what a map file says, as :class:`IslandMap`, and its parser.

A map file (``data/maps/<id>.json``, format in ``docs/maps.md``) lists island hexes in axial
coordinates (:mod:`hexfolk.core.hexgrid`), each one *producing*, *desert* or *lake*; every other
hex that touches the island is *sea* (the sea frame, :func:`sea_frame`). It also gives a terrain
mode, a number mode, a token set, harbor slots, a robber start, the player counts and English
and Dutch names; Driftland gives a :class:`Coastline` rule instead of hexes. :func:`parse_map`
reads the format (format errors raise :class:`MapError`); the IR-82 checks are
``checks.validate_map``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexfolk.core.hexgrid import DIRECTIONS, Hex, Point, fmt_hex, neighbour, neighbours, side_points
from hexfolk.games.island.rules import DICE_PIPS, RESOURCES, TERRAINS

PRODUCING, DESERT, LAKE, SEA = "producing", "desert", "lake", "sea"
ISLAND_KINDS = (PRODUCING, DESERT, LAKE)
"""Hex kinds inside the coastline (they make the tile count, IR-81)."""
LAND_KINDS = (PRODUCING, DESERT)
PRODUCING_TERRAINS: tuple[str, ...] = TERRAINS[: len(RESOURCES)]
"""Terrains that produce (forest, hills, pasture, fields, mountains)."""
GENERIC_HARBOR = "generic"
HARBOR_KINDS: tuple[str, ...] = (*RESOURCES, GENERIC_HARBOR)

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
