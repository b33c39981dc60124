"""The island maps of section 17: IR-81 (the model), IR-82 (the checks), IR-83 (the 22 maps)."""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from hexfolk.games.island import board
from hexfolk.games.island.maps import (
    DESERT,
    LAKE,
    LAND_KINDS,
    PRODUCING,
    MapError,
    MapLayout,
    all_maps,
    corners,
    distance,
    draw_layout,
    layout_text,
    load_map,
    map_facts,
    neighbours,
    parse_layout_text,
    parse_map,
    to_engine,
    validate_layout,
    validate_map,
)
from hexfolk.games.island.rules import DESERT as DESERT_CODE
from hexfolk.games.island.rules import DICE_PIPS, RED_TOKENS

# IR-83: number -> (English, Dutch, (total, producing, desert, lake), (min, max) players)
IR83: dict[int, tuple[str, str, tuple[int, int, int, int], tuple[int, int]]] = {
    1: ("Lagoon", "Lagune", (16, 14, 1, 1), (2, 3)),
    2: ("Mirror Isle", "Spiegeleiland", (18, 16, 2, 0), (2, 2)),
    3: ("Keystone", "Sluitsteen", (19, 18, 1, 0), (2, 4)),
    4: ("Crescent", "Halve Maan", (21, 20, 1, 0), (3, 4)),
    5: ("Long Island", "Lange Eiland", (24, 22, 2, 0), (3, 4)),
    6: ("Hourglass", "Zandloper", (24, 22, 2, 0), (2, 4)),
    7: ("Oasis", "Oase", (25, 20, 4, 1), (3, 4)),
    8: ("Twin Meres", "Tweelingmeren", (27, 24, 1, 2), (3, 5)),
    9: ("Highlands", "Hooglanden", (28, 27, 1, 0), (3, 5)),
    10: ("Meadowland", "Weidegrond", (28, 27, 1, 0), (3, 5)),
    11: ("Driftland", "Zwerfland", (28, 26, 2, 0), (3, 5)),
    12: ("Spiral", "Spiraal", (29, 27, 2, 0), (4, 6)),
    13: ("Summit", "Bergtop", (30, 28, 2, 0), (4, 6)),
    14: ("Crossroads", "Kruispunt", (31, 29, 2, 0), (4, 6)),
    15: ("Peninsulas", "Schiereilanden", (33, 31, 2, 0), (4, 6)),
    16: ("Dune Belt", "Duinengordel", (34, 30, 4, 0), (4, 6)),
    17: ("Ring Isle", "Ringeiland", (37, 28, 2, 7), (4, 6)),
    18: ("Star Isle", "Stereiland", (37, 36, 1, 0), (5, 8)),
    19: ("Delta", "Delta", (40, 33, 2, 5), (5, 7)),
    20: ("Cloverleaf", "Klaverblad", (43, 40, 2, 1), (5, 8)),
    21: ("Continent", "Vasteland", (52, 46, 3, 3), (6, 8)),
    22: ("Giants' Land", "Reuzenland", (61, 55, 3, 3), (6, 8)),
}

MAP_IDS = [m.id for m in all_maps()]
SEEDS = range(12)


def land_of(layout: MapLayout) -> set[tuple[int, int]]:
    return {h.at for h in layout.hexes if h.kind in LAND_KINDS}


def components(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    out: list[set[tuple[int, int]]] = []
    left = set(cells)
    while left:
        start = left.pop()
        comp, stack = {start}, [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in left:
                    left.discard(n)
                    comp.add(n)
                    stack.append(n)
        out.append(comp)
    return out


# --- every shipped map -----------------------------------------------------------------------


def test_ir83_there_are_22_maps_in_table_order() -> None:
    assert [m.number for m in all_maps()] == list(range(1, 23))
    assert len(set(MAP_IDS)) == 22


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_ir83_names_tile_counts_and_player_counts(map_id: str) -> None:
    m = load_map(map_id)
    en, nl, counts, players = IR83[m.number]
    assert (m.name_en, m.name_nl) == (en, nl)
    assert m.counts() == counts
    assert (m.min_players, m.max_players) == players
    layout = draw_layout(m, random.Random(3))  # measured on a drawn board too
    kinds = Counter(h.kind for h in layout.hexes)
    assert (len(layout.hexes), kinds[PRODUCING], kinds[DESERT], kinds[LAKE]) == counts


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_ir82_every_shipped_map_passes_and_so_do_its_drawn_layouts(map_id: str) -> None:
    m = load_map(map_id)
    validate_map(m)
    for seed in SEEDS:
        layout = draw_layout(m, random.Random(seed))
        validate_layout(m, layout)
        assert len(layout.land_intersections()) >= 8 * m.max_players
        reds = {h.at for h in layout.hexes if h.token in RED_TOKENS}
        assert not any(n in reds for h in reds for n in neighbours(h))  # IR-13


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_ir10_lakes_and_deserts_produce_nothing_and_carry_no_token(map_id: str) -> None:
    m = load_map(map_id)
    for seed in SEEDS:
        layout = draw_layout(m, random.Random(seed))
        for h in layout.hexes:
            if h.kind in (LAKE, DESERT):
                assert h.terrain is None and h.token == 0
            else:
                assert h.terrain is not None and h.token in DICE_PIPS and h.token != 7
        pips = layout.pips()
        assert sum(pips.values()) == sum(DICE_PIPS[k] * c for k, c in m.tokens.items())
        if layout.robber is not None:  # IR-14, IR-42: never a lake
            assert layout.hex_at(layout.robber).kind == DESERT


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_same_seed_same_layout(map_id: str) -> None:
    m = load_map(map_id)
    assert draw_layout(m, random.Random(5)) == draw_layout(m, random.Random(5))


def test_load_map_by_id_english_or_dutch_name() -> None:
    assert load_map("Reuzenland").id == "giants-land"
    assert load_map("giants' land").id == "giants-land"
    assert load_map("mirror-isle").name_nl == "Spiegeleiland"
    with pytest.raises(MapError, match="unknown map 'atlantis'"):
        load_map("atlantis")


# --- the idea column -------------------------------------------------------------------------


def test_mirror_isle_is_point_symmetric_with_mirror_image_starts() -> None:
    m = load_map("mirror-isle")
    layout = draw_layout(m, random.Random(0))
    cells = {h.at: h for h in layout.hexes}
    sq = sum(q for q, _ in cells)
    sr = sum(r for _, r in cells)
    n = len(cells)
    assert (2 * sq) % n == 0 and (2 * sr) % n == 0
    cq, cr = 2 * sq // n, 2 * sr // n  # twice the centre: h -> (cq - q, cr - r)

    def mirror(h: tuple[int, int]) -> tuple[int, int]:
        return (cq - h[0], cr - h[1])

    for at, h in cells.items():
        other = cells[mirror(at)]
        assert (other.kind, other.terrain, other.token) == (h.kind, h.terrain, h.token)
    opposite = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
    harbors = {(hb.at, hb.side): hb.kind for hb in layout.harbors}
    for (at, side), kind in harbors.items():
        assert harbors[(mirror(at), opposite[side])] == kind

    # every start (intersection) has a mirror twin with the same hexes and harbor
    def start(p: tuple[int, int]) -> tuple[list[tuple[str | None, int]], list[str]]:
        hexes = sorted(
            (h.terrain or h.kind, h.token) for at, h in cells.items() if p in corners(at)
        )
        port = [hb.kind for hb in layout.harbors if p in hb.points()]
        return hexes, port

    # on the doubled grid the point mirror of hex (q, r) maps corner (x, y) to (X - x, Y - y)
    x_of = 2 * cq + cr
    y_of = 3 * cr
    points = layout.land_intersections()
    for p in points:
        twin = (x_of - p[0], y_of - p[1])
        assert twin in points
        assert start(p) == start(twin)


def test_keystone_resource_pips_are_as_equal_as_possible() -> None:
    m = load_map("keystone")
    pips = draw_layout(m, random.Random(0)).pips()
    total = sum(pips.values())
    best_spread = 0 if total % len(pips) == 0 else 1
    assert total == 58
    assert max(pips.values()) - min(pips.values()) == best_spread
    assert sorted(pips.values()) == [11, 11, 12, 12, 12]
    assert m.terrain_mode == "fixed" and m.number_mode == "fixed"


def test_summit_grades_2_3_11_12_onto_the_coast() -> None:
    m = load_map("summit")
    assert m.number_mode == "graded"
    for seed in range(40):
        layout = draw_layout(m, random.Random(seed))
        coast = layout.coast_hexes()
        low = {h.at for h in layout.hexes if h.token in (2, 3, 11, 12)}
        assert low and low <= coast
        assert all(hb.at in coast for hb in layout.harbors)


@pytest.mark.parametrize(
    ("map_id", "terrain"),
    [
        ("highlands", {"mountains": 7, "hills": 7, "forest": 5, "fields": 4, "pasture": 4}),
        ("meadowland", {"pasture": 7, "fields": 7, "forest": 6, "hills": 4, "mountains": 3}),
    ],
)
def test_terrain_counts_as_stated(map_id: str, terrain: dict[str, int]) -> None:
    m = load_map(map_id)
    for seed in SEEDS:
        layout = draw_layout(m, random.Random(seed))
        assert Counter(h.terrain for h in layout.hexes if h.terrain) == terrain


def test_ring_isle_is_a_two_wide_ring_round_a_seven_hex_lake() -> None:
    layout = draw_layout(load_map("ring-isle"), random.Random(0))
    lakes = {h.at for h in layout.hexes if h.kind == LAKE}
    centre = next(h for h in lakes if all(n in lakes for n in neighbours(h)))
    assert lakes == {h for h in lakes if distance(h, centre) <= 1} and len(lakes) == 7
    assert {distance(h, centre) for h in land_of(layout)} == {2, 3}
    assert len(land_of(layout)) == 30  # the full rings at distance 2 and 3


def test_lagoon_rows_3_4_5_4_round_a_central_lagoon() -> None:
    layout = draw_layout(load_map("lagoon"), random.Random(0))
    rows = Counter(r for (_, r) in (h.at for h in layout.hexes))
    assert [rows[r] for r in sorted(rows)] == [3, 4, 5, 4]
    (lake,) = [h.at for h in layout.hexes if h.kind == LAKE]
    assert all(n in layout.kinds() for n in neighbours(lake))
    assert any(layout.kinds().get(hb.water) == LAKE for hb in layout.harbors)


def test_long_island_three_rows_of_eight() -> None:
    layout = draw_layout(load_map("long-island"), random.Random(0))
    rows = Counter(r for (_, r) in (h.at for h in layout.hexes))
    assert sorted(rows.values()) == [8, 8, 8]


@pytest.mark.parametrize(
    ("map_id", "hub_size", "parts"),
    [
        ("hourglass", 2, [11, 11]),  # two 11-hex lobes joined by a 2-hex waist
        ("crossroads", 7, [6, 6, 6, 6]),  # a 7-hex hub with four 6-hex arms
        ("peninsulas", 15, [6, 6, 6]),  # a 15-hex core with three 6-hex peninsulas
        ("cloverleaf", 7, [12, 12, 12]),  # three 12-hex lobes round a 7-hex hub
        ("star-isle", 19, [3, 3, 3, 3, 3, 3]),  # a 19-hex centre with six 3-hex points
    ],
)
def test_hub_and_parts_shapes(map_id: str, hub_size: int, parts: list[int]) -> None:
    """Some set of ``hub_size`` island hexes cuts the island into exactly ``parts``."""
    layout = draw_layout(load_map(map_id), random.Random(0))
    island = set(layout.kinds())
    # the hub: the hexes whose removal leaves the listed parts; found as the complement of
    # the parts, which are the components left after removing the most central hexes
    cx = sum(q for q, _ in island) / len(island)
    cr = sum(r for _, r in island) / len(island)

    def dist_to_centre(h: tuple[int, int]) -> float:
        dq, dr = h[0] - cx, h[1] - cr
        return (abs(dq) + abs(dr) + abs(dq + dr)) / 2

    for hub in _hub_candidates(island, hub_size, dist_to_centre):
        if sorted(len(c) for c in components(island - hub)) == sorted(parts):
            break
    else:
        pytest.fail(f"{map_id}: no {hub_size}-hex hub leaves parts {parts}")
    if map_id == "peninsulas":  # each peninsula ends in harbors
        for comp in components(island - hub):
            assert any(hb.at in comp for hb in layout.harbors)
    if map_id == "star-isle":
        (desert,) = [h.at for h in layout.hexes if h.kind == DESERT]
        assert all(distance(desert, h) <= 2 for h in hub)
    if map_id == "cloverleaf":
        (lake,) = [h.at for h in layout.hexes if h.kind == LAKE]
        assert lake in hub and all(n in hub for n in neighbours(lake))


def _hub_candidates(
    island: set[tuple[int, int]], size: int, key: Any
) -> list[set[tuple[int, int]]]:
    ordered = sorted(island, key=lambda h: (key(h), h))
    out = [set(ordered[:size])]
    # the hourglass waist: two adjacent hexes whose removal splits the land
    if size == 2:
        out += [
            {a, b}
            for a in island
            for b in neighbours(a)
            if b in island and a < b and len(components(island - {a, b})) == 2
        ]
    return out


def test_oasis_lake_rich_ring_broken_desert_band_fertile_coast() -> None:
    m = load_map("oasis")
    for seed in SEEDS:
        layout = draw_layout(m, random.Random(seed))
        (lake,) = [h.at for h in layout.hexes if h.kind == LAKE]
        by_ring: dict[int, list[int]] = {}
        for h in layout.hexes:
            if h.kind == PRODUCING:
                by_ring.setdefault(distance(h.at, lake), []).append(DICE_PIPS[h.token])
        deserts = [h.at for h in layout.hexes if h.kind == DESERT]
        assert {distance(d, lake) for d in deserts} == {2}  # the desert band is ring 2
        assert len(components(set(deserts))) > 1  # ... and broken
        mean = {k: sum(v) / len(v) for k, v in by_ring.items()}
        assert mean[1] > mean[2] and mean[3] > mean[2]  # rich ring, fertile coast


def test_twin_meres_two_lakes_with_2_to_1_lake_harbors() -> None:
    layout = draw_layout(load_map("twin-meres"), random.Random(0))
    lakes = [h.at for h in layout.hexes if h.kind == LAKE]
    assert len(lakes) == 2 and distance(*lakes) > 1
    for lake in lakes:
        kinds = [hb.kind for hb in layout.harbors if hb.water == lake]
        assert kinds and all(k != "generic" for k in kinds)


def test_dune_belt_four_deserts_in_a_line_between_two_halves() -> None:
    m = load_map("dune-belt")
    layout = draw_layout(m, random.Random(0))
    deserts = sorted(h.at for h in layout.hexes if h.kind == DESERT)
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(deserts)}
    assert len(deserts) == 4 and len(steps) == 1 and distance(deserts[0], deserts[1]) == 1
    assert sorted(sum(p.values()) for p in m.pools.values()) == [15, 15]


def test_spiral_inlet_reaches_the_centre() -> None:
    layout = draw_layout(load_map("spiral"), random.Random(0))
    island = set(layout.kinds())
    cq = round(sum(q for q, _ in island) / len(island))
    cr = round(sum(r for _, r in island) / len(island))
    assert (cq, cr) not in island  # the centre is sea ...
    assert all(n in island or distance(n, (cq, cr)) <= 3 for n in neighbours((cq, cr)))
    assert any(hb.water == (cq, cr) or distance(hb.water, (cq, cr)) <= 1 for hb in layout.harbors)


def test_crescent_harbors_line_the_bay() -> None:
    layout = draw_layout(load_map("crescent"), random.Random(0))
    island = set(layout.kinds())
    assert (0, 0) not in island  # the bay
    bay = [hb for hb in layout.harbors if distance(hb.water, (0, 0)) <= 1]
    assert len(bay) >= 4


def test_delta_five_lakes_in_one_chain_short_of_the_coast() -> None:
    layout = draw_layout(load_map("delta"), random.Random(0))
    lakes = {h.at for h in layout.hexes if h.kind == LAKE}
    assert len(lakes) == 5 and len(components(lakes)) == 1
    assert all(n in layout.kinds() for h in lakes for n in neighbours(h))


@pytest.mark.parametrize(("map_id", "radius"), [("giants-land", 4), ("ring-isle", 3)])
def test_hexagon_maps(map_id: str, radius: int) -> None:
    layout = draw_layout(load_map(map_id), random.Random(0))
    island = set(layout.kinds())
    assert island == {
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((q, r), (0, 0)) <= radius
    }


def test_continent_rows() -> None:
    layout = draw_layout(load_map("continent"), random.Random(0))
    rows = Counter(r for (_, r) in (h.at for h in layout.hexes))
    assert [rows[r] for r in sorted(rows)] == [5, 6, 7, 8, 8, 7, 6, 5]
    deserts = [h.at for h in layout.hexes if h.kind == DESERT]
    assert len(components(set(deserts))) == 1  # the desert band


def test_driftland_new_coastline_per_seed_same_for_same_seed() -> None:
    m = load_map("driftland")
    shapes = set()
    for seed in range(10):
        layout = draw_layout(m, random.Random(seed))
        validate_layout(m, layout)
        assert len(layout.hexes) == 28
        assert sum(1 for h in layout.hexes if h.kind == DESERT) == 2
        assert len(components(land_of(layout))) == 1
        shapes.add(frozenset(layout.kinds()))
        again = draw_layout(m, random.Random(seed))
        assert again == layout
    assert len(shapes) == 10


# --- broken maps: every IR-82 check fires with its message -----------------------------------


def small_map() -> dict[str, Any]:
    """A valid 19-hex map (the standard outline) to break in the tests below."""
    hexes: list[dict[str, Any]] = []
    for q in range(-2, 3):
        for r in range(-2, 3):
            if distance((q, r), (0, 0)) <= 2:
                kind = DESERT if (q, r) == (0, 0) else PRODUCING
                hexes.append({"at": [q, r], "kind": kind})
    return {
        "id": "test-isle",
        "names": {"en": "Test Isle", "nl": "Proefeiland"},
        "players": {"min": 2, "max": 4},
        "rules": "base",
        "terrain": {
            "mode": "pools",
            "pools": {"all": {"forest": 4, "hills": 3, "pasture": 4, "fields": 4, "mountains": 3}},
        },
        "numbers": {
            "mode": "random",
            "tokens": {
                "2": 1,
                "3": 2,
                "4": 2,
                "5": 2,
                "6": 2,
                "8": 2,
                "9": 2,
                "10": 2,
                "11": 2,
                "12": 1,
            },
        },
        "harbors": {
            "kinds": {"generic": 2},
            "slots": [{"at": [2, -2], "side": "ne"}, {"at": [-2, 2], "side": "sw"}],
        },
        "robber": "desert",
        "hexes": hexes,
    }


def check(spec: dict[str, Any]) -> None:
    validate_map(parse_map(spec))


def set_kind(spec: dict[str, Any], at: tuple[int, int], **fields: Any) -> None:
    for h in spec["hexes"]:
        if tuple(h["at"]) == at:
            h.update(fields)


def test_the_small_map_is_valid() -> None:
    check(small_map())


def test_ir82_land_not_connected() -> None:
    spec = small_map()
    spec["hexes"].append({"at": [5, 0], "kind": PRODUCING})
    spec["terrain"]["pools"]["all"]["forest"] += 1
    spec["numbers"]["tokens"]["5"] += 1
    with pytest.raises(MapError, match=r"'test-isle'.*land is not connected.*2 regions.*IR-82"):
        check(spec)


def test_ir82_lake_touching_the_sea() -> None:
    spec = small_map()
    set_kind(spec, (2, 0), kind=LAKE)
    spec["terrain"]["pools"]["all"]["forest"] -= 1
    spec["numbers"]["tokens"]["5"] -= 1
    with pytest.raises(MapError, match=r"'test-isle'.*lake at \(2,0\) touches the sea"):
        check(spec)


def test_ir82_an_inner_lake_is_fine() -> None:
    spec = small_map()
    set_kind(spec, (1, 0), kind=LAKE)
    spec["terrain"]["pools"]["all"]["forest"] -= 1
    spec["numbers"]["tokens"]["5"] -= 1
    check(spec)


def test_ir82_one_token_per_producing_hex() -> None:
    spec = small_map()
    spec["numbers"]["tokens"]["5"] += 1
    with pytest.raises(MapError, match=r"'test-isle'.*18 producing hexes but 19 tokens"):
        check(spec)


def test_ir82_ir13_cannot_be_met_random() -> None:
    spec = small_map()
    tokens = spec["numbers"]["tokens"]
    tokens.update({"6": 5, "8": 4, "2": 0, "12": 0, "3": 1, "11": 1, "4": 1, "10": 1, "5": 3})
    assert sum(tokens.values()) == 18
    with pytest.raises(MapError, match=r"'test-isle'.*9 red tokens.*IR-13 cannot be met"):
        check(spec)


def test_ir82_ir13_cannot_be_met_fixed() -> None:
    spec = small_map()
    values = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    reds_first = sorted(values, key=lambda k: k not in RED_TOKENS)
    producing = [h for h in spec["hexes"] if h["kind"] == PRODUCING]
    producing.sort(key=lambda h: distance(tuple(h["at"]), (2, -2)))  # reds clustered
    for h, k in zip(producing, reds_first):
        h["token"] = k
    spec["numbers"]["mode"] = "fixed"
    with pytest.raises(MapError, match=r"'test-isle'.*red tokens on adjacent hexes"):
        check(spec)


def test_ir82_graded_bands_that_cannot_keep_reds_apart() -> None:
    spec = small_map()
    spec["numbers"]["mode"] = "graded"
    tokens = spec["numbers"]["tokens"]
    for h in spec["hexes"]:
        if h["kind"] == PRODUCING:
            h["band"] = "inner" if distance(tuple(h["at"]), (0, 0)) == 1 else "outer"
    inner = {"6": 2, "8": 2, "5": 2}  # 4 reds in a 6-hex ring: at most 3 apart
    outer = dict(tokens)
    for k, v in inner.items():
        outer[k] -= v
    spec["numbers"]["bands"] = {"inner": inner, "outer": outer}
    with pytest.raises(MapError, match=r"'test-isle'.*IR-13 cannot be met"):
        check(spec)
    inner.update({"8": 1, "9": 1})
    outer.update({"8": outer["8"] + 1, "9": outer["9"] - 1})
    check(spec)


def test_ir82_enough_land_intersections_for_the_most_players() -> None:
    spec = small_map()
    spec["players"]["max"] = 7
    with pytest.raises(
        MapError, match=r"'test-isle'.*54 land intersections, fewer than 8 x 7 players = 56"
    ):
        check(spec)


def test_ir82_no_two_harbors_share_an_intersection() -> None:
    spec = small_map()
    spec["harbors"]["slots"][1] = {"at": [2, -2], "side": "e"}  # ne and e meet at a corner
    with pytest.raises(MapError, match=r"'test-isle'.*\(2,-2\) ne and \(2,-2\) e share an"):
        check(spec)


def test_ir81_harbor_on_a_land_water_edge() -> None:
    spec = small_map()
    spec["harbors"]["slots"][1] = {"at": [0, 0], "side": "e"}  # inland
    with pytest.raises(MapError, match=r"'test-isle'.*\(0,0\) e is not on a land-water edge"):
        check(spec)


def test_lake_shore_harbor_is_allowed() -> None:
    spec = small_map()
    set_kind(spec, (1, 0), kind=LAKE)
    spec["terrain"]["pools"]["all"]["forest"] -= 1
    spec["numbers"]["tokens"]["5"] -= 1
    spec["harbors"]["slots"].append({"at": [0, 0], "side": "e", "kind": "wool"})
    m = parse_map(spec)
    validate_map(m)
    layout = draw_layout(m, random.Random(0))
    assert [hb.kind for hb in layout.harbors if hb.water == (1, 0)] == ["wool"]


@pytest.mark.parametrize(
    "breakage",
    ["ships", "gold", "fog", "rules"],
)
def test_ir82_base_game_rules_only(breakage: str) -> None:
    spec = small_map()
    if breakage == "ships":
        spec["ships"] = {"per_player": 15}
    elif breakage == "gold":
        set_kind(spec, (2, 0), terrain="gold")
    elif breakage == "fog":
        set_kind(spec, (2, 0), kind="fog")
    else:
        spec["rules"] = "seafarers"
    with pytest.raises(MapError, match=r"'test-isle'.*base-game rules only"):
        check(spec)


def test_format_errors_name_the_map() -> None:
    spec = small_map()
    spec["terrain"]["pools"]["all"]["forest"] = 5
    with pytest.raises(MapError, match=r"'test-isle'.*pool 'all' holds 19 terrains for 18"):
        check(spec)
    spec = small_map()
    spec["harbors"]["kinds"] = {"generic": 3}
    with pytest.raises(MapError, match=r"'test-isle'.*2 harbor slots without a fixed kind"):
        check(spec)
    spec = small_map()
    del spec["names"]["nl"]
    with pytest.raises(MapError, match=r"'test-isle'.*English and Dutch names"):
        check(spec)
    spec = small_map()
    spec["hexes"].append(copy.deepcopy(spec["hexes"][0]))
    with pytest.raises(MapError, match=r"'test-isle'.*listed twice"):
        check(spec)
    spec = small_map()
    set_kind(spec, (0, 0), token=6)
    with pytest.raises(MapError, match=r"'test-isle'.*desert at \(0,0\).*carry no token"):
        check(spec)


def test_validate_layout_refuses_adjacent_reds_and_producing_lakes() -> None:
    spec = small_map()
    set_kind(spec, (1, 0), kind=LAKE)
    spec["terrain"]["pools"]["all"]["forest"] -= 1
    spec["numbers"]["tokens"]["5"] -= 1
    m = parse_map(spec)
    good = draw_layout(m, random.Random(1))
    hexes = list(good.hexes)
    lake = next(i for i, h in enumerate(hexes) if h.kind == LAKE)
    hexes[lake] = type(hexes[lake])(hexes[lake].at, LAKE, "forest", 5)
    bad = MapLayout(good.map_id, tuple(hexes), good.harbors, good.robber)
    with pytest.raises(MapError, match="produces"):
        validate_layout(m, bad)
    reds = [i for i, h in enumerate(good.hexes) if h.token in RED_TOKENS]
    other = next(
        i
        for i, h in enumerate(good.hexes)
        if h.kind == PRODUCING
        and h.token not in RED_TOKENS
        and any(n == good.hexes[reds[0]].at for n in neighbours(h.at))
    )
    hexes = list(good.hexes)
    a, b = hexes[reds[1]], hexes[other]
    hexes[reds[1]] = type(a)(a.at, a.kind, a.terrain, b.token)
    hexes[other] = type(b)(b.at, b.kind, b.terrain, a.token)
    with pytest.raises(MapError, match="IR-13"):
        validate_layout(m, MapLayout(good.map_id, tuple(hexes), good.harbors, good.robber))


def test_map_facts_list_the_measured_counts() -> None:
    facts = map_facts(load_map("ring-isle"))
    assert (facts["tiles"], facts["producing"], facts["desert"], facts["lake"]) == (37, 28, 2, 7)
    assert facts["lake_harbors"] == 4 and facts["players"] == "4-6"


# --- text form and the engine's board model ----------------------------------------------------


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_layout_text_round_trips_coastline_included(map_id: str) -> None:
    m = load_map(map_id)
    for seed in (0, 1):
        layout = draw_layout(m, random.Random(seed))
        text = layout_text(layout)
        assert " " not in text.split()[0] and len(text.split()) == 3
        assert parse_layout_text(m, text) == layout


def test_parse_layout_text_refuses_a_broken_text() -> None:
    m = load_map("lagoon")
    text = layout_text(draw_layout(m, random.Random(0)))
    with pytest.raises(MapError, match="bad layout text"):
        parse_layout_text(m, text.replace(":", "=", 1))
    lake = next(h for h in text.split()[0].split(";") if h.endswith(":~"))
    with pytest.raises(MapError, match="layout's hexes differ"):
        parse_layout_text(m, text.replace(lake, lake.replace("~", "D")))


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_to_engine_builds_the_engine_board(map_id: str) -> None:
    m = load_map(map_id)
    layout = draw_layout(m, random.Random(2))
    topology, engine_layout = to_engine(layout)
    land = land_of(layout)
    assert topology.num_hexes == len(land)  # lakes are holes: no lake hex, no lake-only node
    assert topology.num_nodes == len(layout.land_intersections())
    board.validate_layout(topology, engine_layout)
    assert len(topology.harbor_slots) == len(layout.harbors)
    assert all(
        len(topology.edge_hexes[e]) == 1 for e in topology.harbor_slots
    )  # coast or lake shore
    tables = board.LayoutTables(topology, engine_layout)
    assert sum(1 for k in tables.node_harbor if k >= 0) == 2 * len(layout.harbors)
    producing = sum(len(v) for v in tables.production.values())
    assert producing == m.counts()[1]
    if engine_layout.robber >= 0:
        assert engine_layout.terrain[engine_layout.robber] == DESERT_CODE


def test_to_engine_keystone_has_the_standard_board_geometry() -> None:
    topology, _ = to_engine(draw_layout(load_map("keystone"), random.Random(0)))
    std = board.topology("hex19")
    assert (topology.num_hexes, topology.num_nodes, topology.num_edges, len(topology.coast)) == (
        std.num_hexes,
        std.num_nodes,
        std.num_edges,
        len(std.coast),
    )

    def shape(xy: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
        pts = sorted(xy, key=lambda p: (p[1], p[0]))
        return [(x - pts[0][0], y - pts[0][1]) for x, y in pts]

    assert shape(topology.hex_xy) == shape(std.hex_xy)


def test_ir16_driftland_replays_across_processes() -> None:
    """The same seed draws the same island in a fresh interpreter with another hash seed."""
    import os
    import subprocess
    import sys

    code = (
        "import random;"
        "from hexfolk.games.island.maps import load_map, draw_layout, layout_text;"
        "print(layout_text(draw_layout(load_map('driftland'), random.Random(42))))"
    )
    here = layout_text(draw_layout(load_map("driftland"), random.Random(42)))
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == here


def test_ir82_ir13_check_ends_quickly_at_the_edge_of_the_possible() -> None:
    """61 hexes hold at most 21 pairwise apart: 22 reds are refused, without a long search."""
    import time

    spec = small_map()
    spec["hexes"] = [
        {"at": [q, r], "kind": PRODUCING}
        for q in range(-4, 5)
        for r in range(-4, 5)
        if distance((q, r), (0, 0)) <= 4
    ]
    spec["players"]["max"] = 8
    spec["robber"] = "off"
    spec["terrain"]["pools"]["all"] = {
        "forest": 13,
        "hills": 12,
        "pasture": 12,
        "fields": 12,
        "mountains": 12,
    }
    spec["numbers"]["tokens"] = {"6": 11, "8": 11, "5": 20, "9": 19}
    spec["harbors"] = {"kinds": {}, "slots": []}
    start = time.perf_counter()
    with pytest.raises(MapError, match=r"'test-isle'.*22 red tokens.*IR-13"):
        check(spec)
    assert time.perf_counter() - start < 10
