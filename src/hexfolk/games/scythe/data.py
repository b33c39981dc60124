"""Scythe facts loaded once from ``data/*.json`` (SR-1): board tables, factions, mats, rules.

Everything here is built at import and never changes. Locations are integer ids: the 47
territories first (file order, ``0..46``), then the 7 printed home bases (``47..53``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> Any:
    with open(_DIR / name, encoding="utf-8") as f:
        return json.load(f)


BOARD: dict[str, Any] = _load("board.json")
FACTIONS_DATA: dict[str, Any] = _load("factions.json")
MATS_DATA: dict[str, Any] = _load("mats.json")
RULES: dict[str, Any] = _load("rules.json")
CARDS: dict[str, Any] = _load("cards.json")


def reject_unresolved(obj: Any, where: str) -> None:
    """SR-3: card records may not hold dispute prose where a value belongs."""
    if isinstance(obj, str) and "DISPUTED" in obj:
        raise ValueError(f"unresolved disputed value in {where}: {obj!r}")
    if isinstance(obj, dict):
        for k, v in obj.items():
            reject_unresolved(v, f"{where}.{k}")
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            reject_unresolved(v, f"{where}[{i}]")


reject_unresolved(CARDS, "cards")

# --- resources, terrains --------------------------------------------------------------------
RESOURCES: tuple[str, ...] = tuple(RULES["resources"])
RES_INDEX: dict[str, int] = {r: i for i, r in enumerate(RESOURCES)}
NRES = len(RESOURCES)
BOTTOM_ACTIONS: tuple[str, ...] = tuple(RULES["bottom_actions"])
BOTTOM_INDEX: dict[str, int] = {b: i for i, b in enumerate(BOTTOM_ACTIONS)}
STRUCTURES: tuple[str, ...] = tuple(RULES["structures"])
STRUCT_INDEX: dict[str, int] = {s: i for i, s in enumerate(STRUCTURES)}
TOP_BOXES: tuple[dict[str, Any], ...] = tuple(RULES["top_boxes"])
TOP_BOX_INDEX: dict[str, int] = {b["id"]: i for i, b in enumerate(TOP_BOXES)}
CARD_VALUES: tuple[int, ...] = tuple(sorted(int(v) for v in RULES["combat_deck"]))
CARD_INDEX: dict[int, int] = {v: i for i, v in enumerate(CARD_VALUES)}
DECK_COUNTS: tuple[int, ...] = tuple(RULES["combat_deck"][str(v)] for v in CARD_VALUES)
POWER_MAX: int = RULES["tracks"]["power_max"]
POP_MAX: int = RULES["tracks"]["popularity_max"]
DIAL_MAX: int = RULES["tracks"]["dial_max"]
WORKERS_TOTAL: int = RULES["workers_total"]
MECHS: int = RULES["mechs"]
STARS_TO_END: int = RULES["stars_to_end"]

# --- locations ------------------------------------------------------------------------------
TERRITORIES: list[dict[str, Any]] = BOARD["territories"]
HOME_BASES: list[dict[str, Any]] = BOARD["home_bases"]
NTERR = len(TERRITORIES)
NLOC = NTERR + len(HOME_BASES)
LOC_NAMES: list[str] = [t["id"] for t in TERRITORIES] + [h["id"] for h in HOME_BASES]
LOC_INDEX: dict[str, int] = {name: i for i, name in enumerate(LOC_NAMES)}
TERRAINS: tuple[str, ...] = ("mountain", "farm", "tundra", "forest", "village", "lake", "factory")
TERRAIN_INDEX = {t: i for i, t in enumerate(TERRAINS)}
LAKE = TERRAIN_INDEX[BOARD["lake_terrain"]]
VILLAGE = TERRAIN_INDEX["village"]
MOUNTAIN = TERRAIN_INDEX["mountain"]
FACTORY_LOC: int = LOC_INDEX[BOARD["factory"]]
HOME_TERRAIN = -1

TERRAIN: list[int] = [TERRAIN_INDEX[t["terrain"]] for t in TERRITORIES] + [HOME_TERRAIN] * len(
    HOME_BASES
)
IS_LAKE: list[bool] = [t == LAKE for t in TERRAIN]
IS_HOME: list[bool] = [i >= NTERR for i in range(NLOC)]
IS_TUNNEL: list[bool] = [bool(t["tunnel"]) for t in TERRITORIES] + [False] * len(HOME_BASES)
HAS_ENCOUNTER: list[bool] = [bool(t["encounter"]) for t in TERRITORIES] + [False] * len(HOME_BASES)
TUNNELS: tuple[int, ...] = tuple(i for i in range(NTERR) if IS_TUNNEL[i])
LAKES: tuple[int, ...] = tuple(i for i in range(NTERR) if IS_LAKE[i])
VILLAGES: tuple[int, ...] = tuple(i for i in range(NTERR) if TERRAIN[i] == VILLAGE)
MOUNTAINS: tuple[int, ...] = tuple(i for i in range(NTERR) if TERRAIN[i] == MOUNTAIN)
ENCOUNTER_TERRITORIES: tuple[int, ...] = tuple(i for i in range(NTERR) if HAS_ENCOUNTER[i])
# What a worker on a territory produces: a resource index, -2 for a new worker, -1 nothing.
PRODUCT: list[int] = []
for _i in range(NLOC):
    _name = TERRAINS[TERRAIN[_i]] if TERRAIN[_i] >= 0 else ""
    _prod = BOARD["products"].get(_name)
    PRODUCT.append(-2 if _prod == "worker" else RES_INDEX[_prod] if _prod else -1)
PRODUCE_WORKER = -2
AXIAL: list[tuple[int, int]] = [(t["q"], t["r"]) for t in TERRITORIES] + [
    (h["q"], h["r"]) for h in HOME_BASES
]
AXIAL_INDEX: dict[tuple[int, int], int] = {AXIAL[i]: i for i in range(NTERR)}

# Geometric steps: (destination, river) for every location (home-base edges included).
GEO: list[tuple[tuple[int, bool], ...]] = []
for _t in TERRITORIES:
    GEO.append(tuple((LOC_INDEX[n["id"]], bool(n["river"])) for n in _t["neighbors"]))
for _h in HOME_BASES:
    GEO.append(tuple((LOC_INDEX[n["id"]], bool(n["river"])) for n in _h["adjacent"]))
# Territory-only geometric neighbours (scoring tiles, objectives; rivers ignored).
GEO_TERR: list[tuple[int, ...]] = [tuple(d for d, _ in GEO[i] if d < NTERR) for i in range(NLOC)]

# --- factions -------------------------------------------------------------------------------
FACTIONS: list[dict[str, Any]] = sorted(FACTIONS_DATA["factions"], key=lambda f: f["seat_order"])
FACTION_IDS: tuple[str, ...] = tuple(f["id"] for f in FACTIONS)
FACTION_INDEX: dict[str, int] = {f: i for i, f in enumerate(FACTION_IDS)}
HOME_OF: list[int] = [LOC_INDEX[f["home_base"]] for f in FACTIONS]
HOME_BASE_FACTION: dict[int, str] = {LOC_INDEX[h["id"]]: h["faction"] for h in HOME_BASES}
START_WORKERS: list[tuple[int, ...]] = []
for _f in FACTIONS:
    _hb = next(h for h in HOME_BASES if h["id"] == _f["home_base"])
    START_WORKERS.append(tuple(LOC_INDEX[x] for x in _hb["starting_worker_territories"]))
ENLIST_SPACES: list[dict[str, Any]] = FACTIONS_DATA["enlist_spaces"]
ENLIST_SPACE_IDS: tuple[str, ...] = tuple(s["id"] for s in ENLIST_SPACES)

# Abilities as bits (faction abilities and the twenty mech abilities, Riverwalk per faction).
ABILITY_NAMES: tuple[str, ...] = tuple(
    sorted({f["ability"] for f in FACTIONS} | {m for f in FACTIONS for m in f["mech_abilities"]})
)
ABILITY_BIT: dict[str, int] = {a: 1 << i for i, a in enumerate(ABILITY_NAMES)}
A_SWIM = ABILITY_BIT["swim"]
A_RELENTLESS = ABILITY_BIT["relentless"]
A_COERCION = ABILITY_BIT["coercion"]
A_DOMINATE = ABILITY_BIT["dominate"]
A_MEANDER = ABILITY_BIT["meander"]
A_RIVERWALK = ABILITY_BIT["riverwalk"]
A_SEAWORTHY = ABILITY_BIT["seaworthy"]
A_SUBMERGE = ABILITY_BIT["submerge"]
A_TOWNSHIP = ABILITY_BIT["township"]
A_UNDERPASS = ABILITY_BIT["underpass"]
A_WAYFARE = ABILITY_BIT["wayfare"]
A_SPEED = ABILITY_BIT["speed"]
A_ARTILLERY = ABILITY_BIT["artillery"]
A_SCOUT = ABILITY_BIT["scout"]
A_DISARM = ABILITY_BIT["disarm"]
A_PEOPLES_ARMY = ABILITY_BIT["peoples-army"]
A_CAMARADERIE = ABILITY_BIT["camaraderie"]
FACTION_ABILITY_BIT: list[int] = [ABILITY_BIT[f["ability"]] for f in FACTIONS]
MECH_ABILITY_BITS: list[tuple[int, ...]] = [
    tuple(ABILITY_BIT[m] for m in f["mech_abilities"]) for f in FACTIONS
]
RIVERWALK_TERRAINS: list[frozenset[int]] = [
    frozenset(TERRAIN_INDEX[t] for t in f["riverwalk_terrains"]) for f in FACTIONS
]

# --- player mats ----------------------------------------------------------------------------
MATS: list[dict[str, Any]] = sorted(MATS_DATA["mats"], key=lambda m: m["number"])
MAT_IDS: tuple[str, ...] = tuple(m["id"] for m in MATS)
MAT_INDEX: dict[str, int] = {m: i for i, m in enumerate(MAT_IDS)}
# Per mat, per section: (top action, bottom index, resource index, start cost, min cost, coins).
SECTIONS: list[tuple[tuple[str, int, int, int, int, int], ...]] = [
    tuple(
        (
            s["top"],
            BOTTOM_INDEX[s["bottom"]],
            RES_INDEX[s["resource"]],
            s["cost"],
            s["min"],
            s["coins"],
        )
        for s in m["sections"]
    )
    for m in MATS
]
MAT_SECTIONS: int = len(MATS[0]["sections"])
FACTORY_SECTION: int = MAT_SECTIONS  # the held Factory card is the fifth section (SR-6)
BANNED_PAIRS: frozenset[tuple[int, int]] = frozenset(
    (FACTION_INDEX[f], MAT_INDEX[m]) for f, m in RULES["banned_pairs"]
)
TOP_COSTS: dict[str, dict[str, int]] = RULES["top_costs"]
PRODUCE_TRACK: list[tuple[int, dict[str, int]]] = sorted(
    (s["min_workers"], s["cost"]) for s in RULES["produce_track"]
)
STRUCTURE_FOR_TOP: dict[str, int] = {
    top: STRUCT_INDEX[s] for top, s in RULES["structure_by_top_action"].items()
}
STRUCTURE_BONUS: dict[str, dict[str, int]] = RULES["structure_bonus"]
RECRUIT_BONUS: list[dict[str, int]] = [RULES["recruit_bonus"][b] for b in BOTTOM_ACTIONS]
MINE = STRUCT_INDEX["mine"]
MILL = STRUCT_INDEX["mill"]
MONUMENT = STRUCT_INDEX["monument"]
ARMORY = STRUCT_INDEX["armory"]

# --- cards ----------------------------------------------------------------------------------
OBJECTIVES: list[dict[str, Any]] = CARDS["objectives"]
OBJECTIVE_BY_NUMBER: dict[int, dict[str, Any]] = {o["number"]: o for o in OBJECTIVES}
TILES: list[dict[str, Any]] = CARDS["structure_bonus_tiles"]
TILE_IDS: tuple[str, ...] = tuple(t["id"] for t in TILES)
FACTORY_CARDS: list[dict[str, Any]] = CARDS["factory_cards"]
FACTORY_NUMBERS: tuple[int, ...] = tuple(c["number"] for c in FACTORY_CARDS)
ENCOUNTER_CARDS: list[dict[str, Any]] = CARDS["encounter_cards"]
ENCOUNTER_NUMBERS: tuple[int, ...] = tuple(c["number"] for c in ENCOUNTER_CARDS)
ENCOUNTER_BY_NUMBER: dict[int, dict[str, Any]] = {c["number"]: c for c in ENCOUNTER_CARDS}
FACTORY_BY_NUMBER: dict[int, dict[str, Any]] = {c["number"]: c for c in FACTORY_CARDS}
# Granted bottom-row effects a card may name, and the gains a card may give or cost.
GRANTED_ACTIONS: tuple[str, ...] = BOTTOM_ACTIONS
TRACK_GAINS: tuple[str, ...] = ("power", "popularity", "coins", "combat_cards")
CARD_GAINS: frozenset[str] = frozenset(
    (*TRACK_GAINS, *RESOURCES, "worker", "resources_any", "produce")
)
CARD_COSTS: frozenset[str] = frozenset(TRACK_GAINS)
MEANDER_OPTIONS: int = RULES["meander_options"]


def check_card_effects(rec: dict[str, Any]) -> None:
    """SR-2/SR-3: a card's costs and benefits are resolved values of known kinds; prose, a
    dispute note or an unknown key is rejected when the module is imported."""
    where = rec.get("id", "?")
    effects = [(rec.get("cost", {}), rec.get("benefit", []))]
    effects += [(o["cost"], o["benefit"]) for o in rec.get("options", [])]
    for cost, benefit in effects:
        for k, v in cost.items():
            if k not in CARD_COSTS or not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"{where}: bad cost {k!r}: {v!r}")
        for item in benefit:
            if isinstance(item, str):
                if item not in GRANTED_ACTIONS:
                    raise ValueError(f"{where}: unresolved or unknown benefit {item!r}")
            elif isinstance(item, dict):
                for k, v in item.items():
                    if k == "choose":
                        if not v or any(a not in GRANTED_ACTIONS for a in v):
                            raise ValueError(f"{where}: bad choice {v!r}")
                    elif k not in CARD_GAINS or not isinstance(v, int) or isinstance(v, bool):
                        raise ValueError(f"{where}: bad gain {k!r}: {v!r}")
            else:
                raise ValueError(f"{where}: bad benefit item {item!r}")


for _rec in (*FACTORY_CARDS, *ENCOUNTER_CARDS):
    check_card_effects(_rec)

STAR_SOURCES: tuple[str, ...] = (
    "upgrades",
    "mechs",
    "structures",
    "recruits",
    "workers",
    "objective",
    "combat",
    "popularity",
    "power",
)
STAR_INDEX: dict[str, int] = {s: i for i, s in enumerate(STAR_SOURCES)}


def band(popularity: int) -> dict[str, int]:
    """The scoring band (SR-53) for a final popularity."""
    for b in RULES["popularity_bands"]:
        if b["min"] <= popularity <= b["max"]:
            return dict(b)
    raise ValueError(f"popularity {popularity} is outside every band")


def ladder_coins(tile: str, count: int) -> int:
    """Coins paid by the structure bonus tile ``tile`` for ``count`` (SR-55)."""
    coins = 0
    for t in TILES:
        if t["id"] == tile:
            for minimum, c in t["ladder"]:
                if count >= minimum:
                    coins = c
    return coins
