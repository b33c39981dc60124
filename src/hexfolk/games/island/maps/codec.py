"""The text form of a drawn board (:func:`layout_text`, :func:`parse_layout_text`):
``q,r:O10;q,r:~;... q,r,side:3;... r<q,r>``. It is the layout outcome's text in records, so a
record of a Driftland game replays its island; :func:`lake_hexes` reads the lakes back from an
observation's ``board.island``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexfolk.core.hexgrid import DIRECTIONS, Hex
from hexfolk.games.island.maps.checks import validate_layout
from hexfolk.games.island.maps.layout import MapLayout, PlacedHarbor, PlacedHex
from hexfolk.games.island.maps.schema import (
    DESERT,
    GENERIC_HARBOR,
    LAKE,
    PRODUCING,
    IslandMap,
    MapError,
)
from hexfolk.games.island.rules import LETTERS, RESOURCES, TERRAIN_LETTERS, TERRAINS

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
