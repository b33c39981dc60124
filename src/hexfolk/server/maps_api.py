"""``GET /api/games/island/maps`` and ``GET /api/games/island/maps/{name}``: the island maps'
facts and board drawings, for the preview in the browser's create-table form (issue 16).

Read-only and the same for everyone. Facts come from :func:`maps.map_facts`; the drawing of a
map (hexes, fixed terrain and numbers, harbor slots, lakes, the sea frame) from its
:class:`~hexfolk.games.island.maps.IslandMap`; the standard board (``standard``) from the island
``Game.board_geometry()`` at the requested player count. Points are on the doubled grid of
``docs/island.md`` (hex centre ``(2q + r, 3r)``; one hex is 2 wide and 4 tall), as the table
geometry of ``GET /api/tables/{id}/geometry``.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi import APIRouter

from hexfolk.core import HexfolkError, OptionError, load_game
from hexfolk.core.hexgrid import centre
from hexfolk.games.island import maps
from hexfolk.server.errors import ApiError

router = APIRouter(prefix="/api/games/island")

STANDARD = "standard"
"""The ``map`` option's default: the standard board that follows the player count."""
STANDARD_BOARDS = ((2, 4), (5, 6), (7, 8))
"""Player ranges of the standard 19-, 30- and 44-hex boards (``docs/island.md``)."""


def _centre(at: maps.Hex) -> list[int]:
    return list(centre(at))


def _facts(m: maps.IslandMap) -> dict[str, Any]:
    f = maps.map_facts(m)
    return {
        "id": m.id,
        "number": m.number,
        "names": {"en": m.name_en, "nl": m.name_nl},
        "idea": m.idea,
        "players": {"min": m.min_players, "max": m.max_players},
        "tiles": {
            "total": f["tiles"],
            "producing": f["producing"],
            "desert": f["desert"],
            "lake": f["lake"],
        },
        "harbors": f["harbors"],
        "lake_harbors": f["lake_harbors"],
        "terrain": m.terrain_mode,
        "numbers": m.number_mode,
        "coastline": f["coastline"],
    }


def _map_board(m: maps.IslandMap) -> dict[str, Any]:
    """The drawing of a map: what its file fixes is given, what is shuffled is ``None``. For a
    random coastline (Driftland) the island of seed 0, marked as an example."""
    example = m.coastline is not None
    hexes: list[dict[str, Any]]
    harbors: list[dict[str, Any]]
    if example:
        layout = maps.draw_layout(m, random.Random(0))
        hexes = [
            {"at": list(h.at), "xy": _centre(h.at), "kind": h.kind, "terrain": None, "token": None}
            for h in layout.hexes
        ]
        harbors = [
            {
                "at": list(hb.at),
                "side": hb.side,
                "kind": None,
                "points": [list(p) for p in hb.points()],
                "land": _centre(hb.at),
            }
            for hb in layout.harbors
        ]
        sea = maps.sea_frame(h.at for h in layout.hexes)
    else:
        fixed_terrain = m.terrain_mode == "fixed"
        fixed_numbers = m.number_mode == "fixed"
        hexes = [
            {
                "at": list(h.at),
                "xy": _centre(h.at),
                "kind": h.kind,
                "terrain": h.terrain if fixed_terrain else None,
                "token": h.token if fixed_numbers else None,
            }
            for h in m.hexes
        ]
        harbors = [
            {
                "at": list(hb.at),
                "side": hb.side,
                "kind": hb.kind,
                "points": [list(p) for p in hb.points()],
                "land": _centre(hb.at),
            }
            for hb in m.harbors
        ]
        sea = m.sea()
    robber = m.robber if isinstance(m.robber, str) else list(m.robber)
    return {
        "hexes": hexes,
        "harbors": harbors,
        "sea": [_centre(h) for h in sea],
        "robber": robber,
        "example": example,
    }


def _standard(players: int) -> dict[str, Any]:
    try:
        game = load_game("island", players, {})
    except (HexfolkError, OptionError) as exc:
        raise ApiError("bad_option", str(exc), 422) from None
    geo = game.board_geometry()
    assert geo is not None  # the island game always has one
    nodes = geo["nodes"]
    hexes = [
        {"at": None, "xy": list(xy), "kind": "land", "terrain": None, "token": None}
        for xy in geo["hexes"]
    ]
    harbors = [
        {
            "at": None,
            "side": None,
            "kind": None,
            "points": [list(nodes[v]) for v in geo["edges"][hb["edge"]]],
            "land": list(geo["hexes"][hb["hex"]]),
        }
        for hb in geo["harbors"]
    ]
    lo, hi = next(r for r in STANDARD_BOARDS if r[0] <= players <= r[1])
    return {
        "id": STANDARD,
        "number": 0,
        "names": {"en": str(geo["name"]), "nl": str(geo["name"])},
        "idea": "the standard board for the player count",
        "players": {"min": lo, "max": hi},
        "tiles": {"total": len(hexes), "producing": None, "desert": None, "lake": 0},
        "harbors": len(harbors),
        "lake_harbors": 0,
        "terrain": "shuffled",
        "numbers": "random",
        "coastline": "fixed",
        "board": {
            "hexes": hexes,
            "harbors": harbors,
            "sea": [],
            "robber": "desert",
            "example": False,
        },
    }


def _find(name: str) -> maps.IslandMap:
    try:
        return maps.load_map(name)
    except maps.MapError as exc:
        raise ApiError("not_found", str(exc), 404) from None


@router.get("/maps", tags=["games"])
async def island_maps() -> dict[str, Any]:
    """Every island map of IR-83 with its facts (names, tile counts, player counts, modes), in
    IR-83 order; ``standard`` (the default) is not listed: see ``/maps/standard?players=N``."""
    return {"default": STANDARD, "maps": [_facts(m) for m in maps.all_maps()]}


@router.get("/maps/{name}", tags=["games"])
async def island_map(name: str, players: int = 4) -> dict[str, Any]:
    """One map's facts and its board drawing (``board``: hexes, harbors, sea, robber). A map
    is named by id, English or Dutch name; ``standard`` draws the standard board for
    ``players`` (2–8). An unknown name is a 404 naming the maps."""
    if name == STANDARD:
        if not 2 <= players <= 8:
            raise ApiError(
                "bad_option", f"the standard board is for 2-8 players, not {players}", 422
            )
        return _standard(players)
    m = _find(name)
    return {**_facts(m), "board": _map_board(m)}
