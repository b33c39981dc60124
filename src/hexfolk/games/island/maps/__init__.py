"""The island maps of section 17 (IR-81 what a map is, IR-82 its checks, IR-83 the 22 maps).

A map is a data file in ``data/maps/`` (one per map, format in ``docs/maps.md``) loaded into an
:class:`IslandMap`: island hexes in axial coordinates ``(q, r)`` (pointy-top; ``q`` grows to the
east, ``r`` to the south-east; the grid maths is :mod:`hexfolk.core.hexgrid`), each one
*producing*, *desert* or *lake*; every other hex that touches the island is *sea* (the sea
frame, :meth:`IslandMap.sea`). A map also has a terrain mode (``fixed``: each producing hex
names its terrain; ``pools``: each hex names a pool whose terrain counts are shuffled over its
hexes), a number mode (``fixed``; ``random`` under IR-13; ``graded``: random within bands, IR-13
still holding), a token set, harbor slots on land–water edges (sea coast or lake shore) with
fixed or shuffled kinds, a robber start, the supported player counts and English and Dutch
names. Driftland has no hexes in its file but a ``coastline`` rule: every game draws a new
island from the rng.

:func:`validate_map` runs every IR-82 check and raises :class:`MapError` naming the map and the
problem; :func:`load_map` validates while loading. :func:`draw_layout` draws one game's concrete
board (:class:`MapLayout`) from an rng and validates it.

Which module holds what (each imports only the ones below it):

- ``schema``: the map document (:class:`IslandMap` and its parts) and :func:`parse_map`;
- ``layout``: one game's drawn board (:class:`MapLayout`);
- ``tokens``: the IR-13 red-token search and dealing the tokens;
- ``checks``: the IR-81/IR-82 checks of a map and of a drawn board;
- ``driftland``: growing Driftland's random coastline;
- ``draw``: drawing a game's board from a map, ``board=random`` and fixed boards;
- ``codec``: the text form of a drawn board (the layout outcome in records);
- ``catalogue``: the shipped maps, found by id or name, and their facts;
- ``engine``: a drawn board as the engine's topology and layout, and the layout outcome.

Every name is re-exported here, so ``from hexfolk.games.island.maps import X`` works for all.
"""

from hexfolk.core.hexgrid import (
    CORNERS,
    DIRECTIONS,
    SIDE_CORNERS,
    Hex,
    Point,
    corners,
    distance,
    fmt_hex,
    neighbour,
    neighbours,
    side_between,
    side_points,
)
from hexfolk.games.island.maps.catalogue import (
    MAPS_DIR,
    all_maps,
    load_map,
    load_map_file,
    map_facts,
    map_ids,
)
from hexfolk.games.island.maps.checks import (
    MIN_INTERSECTIONS_PER_PLAYER,
    NON_BASE_WORDS,
    check_enclosed_sea,
    check_shape,
    land_regions,
    validate_layout,
    validate_map,
)
from hexfolk.games.island.maps.codec import lake_hexes, layout_text, parse_layout_text
from hexfolk.games.island.maps.draw import draw_layout, fixed_layouts, randomized
from hexfolk.games.island.maps.driftland import draw_island, grow_island
from hexfolk.games.island.maps.engine import (
    MapLayoutOutcome,
    board_topology,
    map_topology,
    outcome_of,
    parse_outcome,
    to_engine,
)
from hexfolk.games.island.maps.layout import MapLayout, PlacedHarbor, PlacedHex
from hexfolk.games.island.maps.schema import (
    DESERT,
    GENERIC_HARBOR,
    HARBOR_KINDS,
    ISLAND_KINDS,
    LAKE,
    LAND_KINDS,
    PRODUCING,
    PRODUCING_TERRAINS,
    SEA,
    Coastline,
    HarborSlot,
    IslandMap,
    MapError,
    MapHex,
    parse_map,
    sea_frame,
)
from hexfolk.games.island.maps.tokens import (
    RED_SEARCH_BUDGET,
    RedSearchExhausted,
    deal_tokens,
    multiset,
    red_count,
    red_placement,
)

__all__ = [
    "CORNERS",
    "DESERT",
    "DIRECTIONS",
    "GENERIC_HARBOR",
    "HARBOR_KINDS",
    "ISLAND_KINDS",
    "LAKE",
    "LAND_KINDS",
    "MAPS_DIR",
    "MIN_INTERSECTIONS_PER_PLAYER",
    "NON_BASE_WORDS",
    "PRODUCING",
    "PRODUCING_TERRAINS",
    "RED_SEARCH_BUDGET",
    "SEA",
    "SIDE_CORNERS",
    "Coastline",
    "HarborSlot",
    "Hex",
    "IslandMap",
    "MapError",
    "MapHex",
    "MapLayout",
    "MapLayoutOutcome",
    "PlacedHarbor",
    "PlacedHex",
    "Point",
    "RedSearchExhausted",
    "all_maps",
    "board_topology",
    "check_enclosed_sea",
    "check_shape",
    "corners",
    "deal_tokens",
    "distance",
    "draw_island",
    "draw_layout",
    "fixed_layouts",
    "fmt_hex",
    "grow_island",
    "lake_hexes",
    "land_regions",
    "layout_text",
    "load_map",
    "load_map_file",
    "map_facts",
    "map_ids",
    "map_topology",
    "multiset",
    "neighbour",
    "neighbours",
    "outcome_of",
    "parse_layout_text",
    "parse_map",
    "parse_outcome",
    "randomized",
    "red_count",
    "red_placement",
    "sea_frame",
    "side_between",
    "side_points",
    "to_engine",
    "validate_layout",
    "validate_map",
]
