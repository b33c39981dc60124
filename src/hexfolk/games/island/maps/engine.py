"""A drawn map as the engine's board, and maps in play.

:func:`to_engine` turns a :class:`~.layout.MapLayout` into the engine's ``(board.Topology,
board.Layout)`` (the topology built by ``board.build_topology``, the one builder, and shared by
every game on a fixed coastline); :class:`MapLayoutOutcome` is the layout chance outcome of a
map game; :func:`board_topology` the geometry an observation's ``board`` names (a standard
board, a map, or Driftland's drawn island)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from hexfolk.core.hexgrid import centre
from hexfolk.games.island.actions import LayoutOutcome
from hexfolk.games.island.board import BOARDS, Topology, build_topology, empty_topology, topology
from hexfolk.games.island.board import Layout as EngineLayout
from hexfolk.games.island.maps.catalogue import load_map
from hexfolk.games.island.maps.codec import layout_text, parse_layout_text
from hexfolk.games.island.maps.draw import draw_layout
from hexfolk.games.island.maps.layout import MapLayout, PlacedHarbor, PlacedHex
from hexfolk.games.island.maps.schema import DESERT, GENERIC_HARBOR, LAND_KINDS, IslandMap, MapError
from hexfolk.games.island.rules import DESERT as DESERT_CODE
from hexfolk.games.island.rules import GENERIC, RESOURCES, TERRAINS


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
    try:
        name = load_map(map_id).name_en
    except MapError:  # a map of the tests, not shipped
        name = map_id
    return build_topology(
        map_id,
        name,
        [centre(h.at) for h in land],
        terrain_counts=shape[3],
        token_counts=dict(shape[4]),
        harbor_counts=shape[5],
        harbor_ends=[hb.points() for hb in harbors],
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


@cache
def map_topology(map_id: str) -> Topology:
    """The engine geometry of a map with a fixed coastline (every game on it shares it)."""
    m = load_map(map_id)
    if m.coastline is not None:
        raise MapError(f"{m.label}: a new coastline every game, so no geometry before the layout")
    return to_engine(draw_layout(m, random.Random(0)))[0]


@lru_cache(maxsize=128)
def _island_geometry(map_id: str, text: str) -> Topology:
    """The topology of a Driftland island by its layout text (cached: every observation of a
    game names the same island)."""
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
