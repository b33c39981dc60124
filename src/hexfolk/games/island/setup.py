"""Setup (IR-11..IR-21): the board's layout and the two settlements and roads of each seat in
snake order (the second settlement yields its hexes' cards, IR-21)."""

from __future__ import annotations

from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import board_actions
from hexfolk.games.island.board import Topology, layout_tables
from hexfolk.games.island.building import place_road, place_settlement
from hexfolk.games.island.hands import gain
from hexfolk.games.island.maps import MapLayoutOutcome, layout_text
from hexfolk.games.island.phases import SETUP_ROAD, SETUP_SETTLEMENT
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.rules import NRES
from hexfolk.games.island.stats import G_SETUP
from hexfolk.games.island.turn import check_win, start_turn


def lay_out(s: IslandPosition, seat: int, a: A.LayoutOutcome) -> None:
    """IR-11..IR-16: the board's layout (on a map also its island); the robber starts on the
    desert (IR-15), or nowhere with the robber off (IR-47)."""
    if isinstance(a, MapLayoutOutcome):  # a map: keep its island's text for the views
        s.island = layout_text(a.island)
        if not s.game.fixed_geometry:  # Driftland: the geometry comes with the island
            set_topology(s, a.topology)
    s.layout_tables = layout_tables(s.topology, a.layout)
    # the memos depend on the layout: clones made before it may draw another one
    s.income = {}
    s.robber_cache = {}
    s.build_cache = {}
    if s.game.options["robber"]:
        s.robber = a.layout.robber
        s.log.append((None, ("laid_out", s.robber)))
    else:  # IR-47: no robber stands on the board
        s.robber = -1
        s.log.append((None, ("laid_out_no_robber",)))
    s.phase = SETUP_SETTLEMENT
    s.seat = 0


def set_topology(s: IslandPosition, topology: Topology) -> None:
    """Size the board's lists for ``topology`` (only before any piece stands)."""
    s.topology = topology
    N, E = topology.num_nodes, topology.num_edges
    s.node_owner = [-1] * N
    s.node_level = [0] * N
    s.free = [True] * N
    s.edge_owner = [-1] * E
    s.acts = board_actions(N, E, topology.num_hexes)


def setup_seat(s: IslandPosition) -> int:
    """IR-18: the seat placing the current setup piece (snake order: 0..n-1, n-1..0)."""
    i, n = s.setup_index, s.n
    return i if i < n else 2 * n - 1 - i


def place_setup_settlement(s: IslandPosition, seat: int, a: A.BuildSettlement) -> None:
    """IR-18..IR-21: a setup settlement, free; the second one yields one card per adjacent
    producing hex (as the bank allows, IR-37 (b))."""
    p = seat
    v = a.node
    place_settlement(s, p, v)
    s.log.append((None, ("settles", p, v)))
    if s.setup_index >= s.n:  # IR-21: the second settlement yields
        assert s.layout_tables is not None
        terrain = s.layout_tables.layout.terrain
        owed = [0] * NRES
        for h in s.topology.node_hexes[v]:
            if terrain[h] < NRES:
                owed[terrain[h]] += 1
        got = [min(owed[r], s.bank[r]) for r in range(NRES)]  # IR-37 (b)
        for r in range(NRES):
            if got[r]:
                gain(s, p, r, got[r], G_SETUP)
        if any(got):
            s.log.append((None, ("receives", p, tuple(got))))
    s.setup_node = v
    s.phase = SETUP_ROAD


def place_setup_road(s: IslandPosition, seat: int, a: A.BuildRoad) -> None:
    """IR-18/IR-20: the free road next to the settlement just placed; then the next seat in
    snake order, or after the last road the first turn (IR-22)."""
    place_road(s, seat, a.edge)
    s.setup_index += 1
    if s.setup_index == 2 * s.n:
        start_turn(s, 0)
    else:
        s.phase = SETUP_SETTLEMENT
        s.seat = setup_seat(s)
    check_win(s)
