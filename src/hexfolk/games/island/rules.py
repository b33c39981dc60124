"""The island game's numbers, loaded once from ``data/rules.json`` (one source of truth)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA = Path(__file__).parent / "data"


def load_json(name: str) -> Any:
    """A data file of this package, parsed."""
    return json.loads((_DATA / name).read_text(encoding="utf-8"))


RULES: dict[str, Any] = load_json("rules.json")

RESOURCES: tuple[str, ...] = tuple(RULES["resources"])
"""Resource names in the fixed order used by every per-resource list."""
LETTERS: tuple[str, ...] = tuple(RULES["resource_letters"])
"""One-letter resource codes used in action notation (``l b w g o``)."""
LETTER_INDEX: dict[str, int] = {c: i for i, c in enumerate(LETTERS)}
TERRAINS: tuple[str, ...] = tuple(RULES["terrains"])
TERRAIN_LETTERS: tuple[str, ...] = tuple(RULES["terrain_letters"])
DESERT = len(RESOURCES)
"""Terrain code of the desert (terrain codes 0..4 produce the resource of the same index)."""
GENERIC = len(RESOURCES)
"""Harbor kind code of a generic 3:1 harbor (kinds 0..4 are the resource harbors)."""
NRES = len(RESOURCES)


def cost(item: str) -> tuple[int, ...]:
    """The cost of ``item`` (road, settlement, city, development) as a per-resource tuple."""
    spec = RULES["costs"][item]
    return tuple(int(spec.get(r, 0)) for r in RESOURCES)


COST_ROAD = cost("road")
COST_SETTLEMENT = cost("settlement")
COST_CITY = cost("city")
COST_DEV = cost("development")

PIECES_ROAD: int = RULES["pieces"]["road"]
PIECES_SETTLEMENT: int = RULES["pieces"]["settlement"]
PIECES_CITY: int = RULES["pieces"]["city"]

VP_SETTLEMENT: int = RULES["vp"]["settlement"]
VP_CITY: int = RULES["vp"]["city"]
VP_CARD: int = RULES["vp"]["victory_point"]
VP_LONGEST_ROAD: int = RULES["vp"]["longest_road"]
VP_LARGEST_ARMY: int = RULES["vp"]["largest_army"]

DICE_PIPS: dict[int, int] = {int(k): int(v) for k, v in RULES["dice_pips"].items()}
DICE_SUMS: tuple[int, ...] = tuple(sorted(DICE_PIPS))
DICE_TOTAL = sum(DICE_PIPS.values())
ROBBER_SUM: int = RULES["robber_sum"]
RED_TOKENS: frozenset[int] = frozenset(RULES["red_tokens"])

LONGEST_ROAD_MIN: int = RULES["longest_road_min"]
LARGEST_ARMY_MIN: int = RULES["largest_army_min"]
BANK_RATIO: int = RULES["bank_ratio"]
GENERIC_RATIO: int = RULES["generic_harbor_ratio"]
RESOURCE_HARBOR_RATIO: int = RULES["resource_harbor_ratio"]
MAX_OPEN_OFFERS: int = RULES["max_open_offers"]
SBP_MIN_PLAYERS: int = RULES["special_build_min_players"]
FRIENDLY_MAX_VP: int = RULES["friendly_robber_max_visible_vp"]
ROAD_BUILDING_ROADS: int = RULES["road_building_roads"]
PLENTY_CARDS: int = RULES["year_of_plenty_cards"]

DEV_CARDS: tuple[str, ...] = tuple(RULES["development_cards"])
DEV_NAMES: tuple[str, ...] = tuple(RULES["development_names"])
"""Short names of the development cards in notation (``knight vp roads plenty monopoly``)."""
KNIGHT, VICTORY, ROADS, PLENTY, MONOPOLY = range(5)


def components(players: int) -> dict[str, Any]:
    """Board id, bank size and deck mix for a player count (sheet 1.3)."""
    for comp in RULES["components"]:
        if comp["min_players"] <= players <= comp["max_players"]:
            return dict(comp)
    raise ValueError(f"no components for {players} players")


def deck_counts(players: int) -> tuple[int, ...]:
    """The development deck for ``players`` as counts per card type."""
    deck = components(players)["deck"]
    return tuple(int(deck[name]) for name in DEV_CARDS)
