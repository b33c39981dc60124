"""The shipped maps of IR-83: one data file per map in ``data/maps/``, loaded and checked
(IR-82) once, found by id or by English or Dutch name, with the facts a listing shows."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from hexfolk.games.island.maps.checks import validate_map
from hexfolk.games.island.maps.draw import draw_layout
from hexfolk.games.island.maps.schema import LAKE, IslandMap, MapError, parse_map
from hexfolk.games.island.rules import DICE_PIPS

MAPS_DIR = Path(__file__).parent.parent / "data" / "maps"


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
    """The ids of the shipped maps, in IR-83 order."""
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
