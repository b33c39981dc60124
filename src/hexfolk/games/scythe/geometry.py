"""Where Scythe's board is drawn, and the printed components a client shows beside it.

``board_geometry()`` (the kernel's ``Game.board_geometry``, served at
``GET /api/tables/{id}/geometry``) is plain JSON built from the public data module only, never
from a state: the same for every Scythe table. The browser (``docs/web-scythe.md``) draws the
board and the mats from it; what is legal still comes from the listed actions alone.

Coordinates use the doubled grid of :mod:`hexfolk.core.hexgrid` (``docs/web.md``), as the
island does: a pointy-top hex at axial ``(q, r)`` has its centre at ``x = 2q + r``, ``y = 3r``
(one hex is 2 wide and 4 tall).
"""

from __future__ import annotations

from typing import Any

from hexfolk.core.hexgrid import centre
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.territory_labels import LABELS


def _xy(q: int, r: int) -> list[int]:
    return list(centre((q, r)))


def _rivers() -> list[list[str]]:
    """Every river edge once, as the two locations it separates (sorted pair)."""
    seen: set[tuple[str, str]] = set()
    for loc in (*D.TERRITORIES, *D.HOME_BASES):
        for n in loc.get("neighbors", loc.get("adjacent", [])):
            if n["river"]:
                a, b = sorted((loc["id"], n["id"]))
                seen.add((a, b))
    return [list(pair) for pair in sorted(seen)]


def _components() -> dict[str, Any]:
    """The printed mats, faction boards and cards (their public texts and numbers)."""
    return {
        "mats": {
            m["id"]: {
                "number": m["number"],
                "popularity": m["popularity"],
                "coins": m["coins"],
                "sections": [dict(s) for s in m["sections"]],
            }
            for m in D.MATS
        },
        "factions": {
            f["id"]: {
                "name": f["name"],
                "home_base": f["home_base"],
                "power": f["power"],
                "combat_cards": f["combat_cards"],
                "ability": f["ability"],
                "mech_abilities": list(f["mech_abilities"]),
                "riverwalk_terrains": list(f["riverwalk_terrains"]),
            }
            for f in D.FACTIONS
        },
        "top_boxes": [dict(b) for b in D.TOP_BOXES],
        "top_costs": dict(D.TOP_COSTS),
        "produce_track": [{"min_workers": w, "cost": dict(c)} for w, c in D.PRODUCE_TRACK],
        "enlist_spaces": [dict(s) for s in D.ENLIST_SPACES],
        "recruit_bonus": dict(zip(D.BOTTOM_ACTIONS, (dict(b) for b in D.RECRUIT_BONUS))),
        "structure_bonus": dict(D.STRUCTURE_BONUS),
        "popularity_bands": [dict(b) for b in D.RULES["popularity_bands"]],
        "tracks": dict(D.RULES["tracks"]),
        "limits": {
            "workers": D.WORKERS_TOTAL,
            "mechs": D.MECHS,
            "structures": len(D.STRUCTURES),
            "recruits": len(D.BOTTOM_ACTIONS),
            "upgrades": len(D.TOP_BOXES),
        },
        "stars_to_end": D.STARS_TO_END,
        "objectives": {
            str(o["number"]): {"name": o["name"], "condition": o["condition"]} for o in D.OBJECTIVES
        },
        "tiles": {t["id"]: {"counts": t["counts"], "ladder": t["ladder"]} for t in D.TILES},
        "factory_cards": {
            str(c["number"]): {
                "cost": c["cost"],
                "benefit": c["benefit"],
                "move_steps": c["move_steps"],
            }
            for c in D.FACTORY_CARDS
        },
        "encounter_cards": {str(c["number"]): {"options": c["options"]} for c in D.ENCOUNTER_CARDS},
    }


def board_geometry() -> dict[str, Any]:
    """The board's drawing geometry and the printed components (``docs/web-scythe.md``):
    ``territories[id]`` (centre ``xy``, ``terrain``, ``tunnel``, ``encounter``, the board
    ``label``: ``G4``, ``Factory``), ``home_bases[id]`` (centre, ``faction``, ``in_base_game``,
    the territories it touches, ``label``: ``Nordic base``),
    ``rivers`` (location pairs a river separates), ``lakes``, ``tunnels``, ``factory``, and
    ``components`` (mats, factions, top boxes, bands, card texts)."""
    return {
        "board": "scythe",
        "factory": D.BOARD["factory"],
        "territories": {
            t["id"]: {
                "xy": _xy(t["q"], t["r"]),
                "terrain": t["terrain"],
                "tunnel": bool(t["tunnel"]),
                "encounter": bool(t["encounter"]),
                "label": LABELS.by_id[t["id"]],
            }
            for t in D.TERRITORIES
        },
        "home_bases": {
            hb["id"]: {
                "xy": _xy(hb["q"], hb["r"]),
                "faction": hb["faction"],
                "in_base_game": bool(hb["in_base_game"]),
                "adjacent": [n["id"] for n in hb["adjacent"]],
                "label": LABELS.by_id[hb["id"]],
            }
            for hb in D.HOME_BASES
        },
        "rivers": _rivers(),
        "lakes": [D.LOC_NAMES[i] for i in D.LAKES],
        "tunnels": [D.LOC_NAMES[i] for i in D.TUNNELS],
        "products": dict(D.BOARD["products"]),
        "components": _components(),
    }
