"""The island's public read API (issue 14): production counts and settlement spots, each
checked against hand-checked positions on the beginner board, and against what the engine's
own production step and build lists do.

The beginner board (``fresh()``), the hexes these tests use, as (resource, token, corners):
hex 0 ore 5 (0 4 8 12 7 3), hex 1 wool 10 (1 5 9 13 8 4), hex 3 grain 2 (7 12 17 22 16 11),
hex 4 brick 9 (8 13 18 23 17 12), hex 5 wool 11 (9 14 19 24 18 13), hex 9 desert
(18 24 30 35 29 23, the robber's start), hex 18 wool 9 (41 46 50 53 49 45). Harbors: generic
at nodes 0 and 4, grain at 2 and 5.
"""

from __future__ import annotations

from tests.games.island.helpers import Doc, do, edge, edit, fresh, give, road, roll, settle, texts

from hexfolk.games.island.board import LayoutTables
from hexfolk.games.island.building import (
    distance_rule_allows,
    harbor_ratios,
    network_nodes,
    open_spots,
    road_spots,
    settlement_spots,
    with_harbor,
)
from hexfolk.games.island.labels import labels
from hexfolk.games.island.log import Note, make_line
from hexfolk.games.island.log_forms import params_of
from hexfolk.games.island.production import (
    DICE_OUTCOMES,
    Income,
    NodeYield,
    compute_income,
    hex_income,
    hex_pips,
    node_yields,
    roll_income,
    seat_production,
)
from hexfolk.games.island.rules import BANK_RATIO, DICE_PIPS, DICE_TOTAL, GENERIC, NRES, RESOURCES
from hexfolk.games.island.state import IslandState

ORE, WOOL, BRICK, GRAIN = (RESOURCES.index(r) for r in ("ore", "wool", "brick", "grain"))


def _tables(state: IslandState) -> LayoutTables:
    assert state.layout_tables is not None
    return state.layout_tables


def _three_seats() -> IslandState:
    """Seat 0: a settlement on 8; seat 1: a city on 18; seat 2: a settlement on 17 (all on
    the corners of hex 4, brick 9)."""
    state = fresh()
    settle(state, 0, 8)
    settle(state, 1, 18, city=True)
    settle(state, 2, 17)
    return state


def _move_robber(state: IslandState, h: int) -> None:
    def change(doc: Doc) -> None:
        doc["robber"] = h

    edit(state, change)


# --- production --------------------------------------------------------------------------------
def test_ir35_node_yields_are_the_hexes_around_an_intersection() -> None:
    # node 8 touches hexes 0 (ore 5), 1 (wool 10) and 4 (brick 9)
    tables = _tables(fresh())
    assert sorted(node_yields(tables)[8]) == [
        NodeYield(0, ORE, 5),
        NodeYield(1, WOOL, 10),
        NodeYield(4, BRICK, 9),
    ]


def test_ir10_the_desert_yields_nothing_at_its_corners() -> None:
    # node 18 touches hexes 4 (brick 9), 5 (wool 11) and 9 (the desert): two yields
    tables = _tables(fresh())
    assert sorted(node_yields(tables)[18]) == [NodeYield(4, BRICK, 9), NodeYield(5, WOOL, 11)]
    assert all(y.hex != 9 for yields in node_yields(tables) for y in yields)


def test_ir35_hex_pips_count_the_dice_outcomes_of_the_token() -> None:
    tables = _tables(fresh())
    assert hex_pips(tables, 0) == 4  # token 5: 1+4 2+3 3+2 4+1
    assert hex_pips(tables, 3) == 1  # token 2: 1+1
    assert hex_pips(tables, 9) == 0  # the desert
    # every token pip of the board: 18 tokens, 2 and 12 once, 3..11 (not 7) twice
    assert sum(hex_pips(tables, h) for h in range(19)) == 2 * (DICE_TOTAL - 6) - 2


def test_ir35_a_hex_pays_one_card_per_settlement_and_two_per_city() -> None:
    state = _three_seats()
    tables = _tables(state)
    assert hex_income(tables, state.node_owner, state.node_level, 4) == {0: 1, 1: 2, 2: 1}
    assert hex_income(tables, state.node_owner, state.node_level, 5) == {1: 2}
    assert hex_income(tables, state.node_owner, state.node_level, 2) == {}


def test_ir35_ir44_roll_income_owes_every_seat_and_the_robber_blocks_its_hex() -> None:
    # a 9: hex 4 (brick) pays seats 0, 1 (city) and 2; hex 18 (wool) has no buildings
    state = _three_seats()
    tables = _tables(state)
    owner, level = state.node_owner, state.node_level
    free = roll_income(tables, owner, level, 9)
    assert free.owed == ((0, BRICK, 1), (1, BRICK, 2), (2, BRICK, 1))
    assert free.blocked == ()
    blocked = roll_income(tables, owner, level, 9, robber=4)  # IR-44
    assert blocked.owed == ()
    assert blocked.blocked == ((0, 1), (1, 2), (2, 1))
    assert roll_income(tables, owner, level, 7) == ((), ())  # IR-40: a 7 produces nothing


def test_ir35_seat_production_per_dice_sum() -> None:
    state = _three_seats()
    tables = _tables(state)
    owner, level = state.node_owner, state.node_level
    sums = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]  # the tokens on the board
    nothing = (0,) * NRES
    # seat 0 on node 8: ore on 5, wool on 10, brick on 9
    zero = seat_production(tables, owner, level, 0)
    assert sorted(zero) == sums
    assert {t: c for t, c in zero.items() if c != nothing} == {
        5: (0, 0, 0, 0, 1),
        9: (0, 1, 0, 0, 0),
        10: (0, 0, 1, 0, 0),
    }
    # seat 1's city on 18: 2 brick on 9, 2 wool on 11 (the desert gives nothing)
    one = seat_production(tables, owner, level, 1)
    assert {t: c for t, c in one.items() if c != nothing} == {
        9: (0, 2, 0, 0, 0),
        11: (0, 0, 2, 0, 0),
    }
    # IR-44: with the robber on hex 4, seat 1 keeps only its wool
    robbed = seat_production(tables, owner, level, 1, robber=4)
    assert {t: c for t, c in robbed.items() if c != nothing} == {11: (0, 0, 2, 0, 0)}
    # a seat without buildings is owed nothing on any sum
    assert seat_production(tables, owner, level, 3) == dict.fromkeys(sums, nothing)


def test_ir35_the_production_step_pays_what_seat_production_predicts() -> None:
    # every dice sum, the robber on the desert and then on hex 4 (brick 9, IR-44): the cards
    # each seat receives on the roll are exactly seat_production's (a full bank, IR-37 (a))
    for robber in (9, 4):
        base = _three_seats()
        settle(base, 3, 45)  # seat 3 on hex 18 (wool 9) too
        _move_robber(base, robber)
        tables = _tables(base)
        for total in sorted(tables.production):
            state = base.clone()
            before = [list(h) for h in state.hands]
            roll(state, total)
            for seat in range(4):
                got = tuple(a - b for a, b in zip(state.hands[seat], before[seat]))
                want = seat_production(tables, base.node_owner, base.node_level, seat, robber)
                assert got == want[total], (robber, total, seat)
    # and the test is not vacuous: a 9 pays three seats brick and seat 3 wool
    state = _three_seats()
    settle(state, 3, 45)
    roll(state, 9)
    assert [state.hands[p][BRICK] for p in range(3)] == [1, 2, 1]
    assert state.hands[3][WOOL] == 1


def test_ir37_the_income_memo_holds_a_typed_entry_from_roll_income() -> None:
    state = _three_seats()
    entry = compute_income(state, 9)
    assert isinstance(entry, Income)
    assert [(o, r, k) for o, r, k, _ in entry.due] == list(
        roll_income(_tables(state), state.node_owner, state.node_level, 9, state.robber).owed
    )
    assert entry.need == ((BRICK, 4),)  # IR-37: 4 brick owed in all
    assert entry.owners[BRICK] == 3
    assert str(entry.text) == "seat 0 gets 1b; seat 1 gets 2b; seat 2 gets 1b"
    assert entry.blocked == () and entry.notes == ()
    _move_robber(state, 4)
    robbed = compute_income(state, 9)
    assert robbed.due == () and len(robbed.blocked) == 3
    written = [note for _, note in robbed.notes][1]
    assert written == ("blocked", 4, (0, 2, 0, 0, 0), 1)  # form, values (log_forms.FIELDS)
    assert params_of(written) == {"hex": 4, "cards": {"brick": 2}, "seat": 1}
    note = make_line(written, labels(state.topology))  # made when read
    assert isinstance(note, Note) and note.form == "blocked"
    assert note == "the robber on hex E blocks 2b for seat 1"  # hex 4 by its label


def test_ir35_pips_weighting_is_the_dice_probability() -> None:
    # the pips the bots weigh a dice sum by are the chance outcomes' probabilities * 36
    for outcome, probability in DICE_OUTCOMES:
        assert round(probability * DICE_TOTAL) == DICE_PIPS[outcome.total]


# --- settlement spots --------------------------------------------------------------------------
def test_ir19_ir20_setup_spots_are_every_intersection_the_distance_rule_allows() -> None:
    state = fresh()
    topology = state.topology
    assert open_spots(topology, state.node_owner) == list(range(topology.num_nodes))
    settle(state, 0, 8)
    spots = open_spots(topology, state.node_owner)
    assert 8 not in spots
    assert {4, 12, 13} & set(spots) == set()  # 8's neighbours (IR-19)
    assert len(spots) == topology.num_nodes - 4
    assert spots == open_spots(topology, state.node_owner, free=state.free)
    assert all(distance_rule_allows(topology, state.node_owner, v) for v in spots)


def test_ir57_spots_at_the_seats_roads_with_the_distance_rule() -> None:
    # seat 0: settlement 8, roads 8-13-9: 13 is next to 8, 9 is two steps away -> [9]
    # seat 2: settlement 17, roads 17-23-29: 23 is next to seat 1's city on 18 -> [29]
    state = _three_seats()
    road(state, 0, edge(state, 8, 13), edge(state, 13, 9))
    road(state, 2, edge(state, 17, 23), edge(state, 23, 29))
    topology = state.topology
    assert open_spots(topology, state.node_owner, state.roads[0]) == [9]
    assert open_spots(topology, state.node_owner, state.roads[2]) == [29]
    assert open_spots(topology, state.node_owner, state.roads[1]) == []  # no roads
    # the engine's own list (its ``free`` cache) and its legal actions say the same
    assert settlement_spots(state, 0) == [9]
    assert settlement_spots(state, 2) == [29]
    give(state, 0, "1l 1b 1w 1g")
    assert [t for t in texts(state) if t.startswith("settle")] == ["settle 9"]


def test_ir56_network_nodes_stop_at_another_players_building() -> None:
    # seat 0's roads 8-13-9 end at seat 3's settlement on 9: a new road may start at 8 or 13,
    # not at 9 (IR-56), and 9 is no spot any more (IR-57)
    state = _three_seats()
    road(state, 0, edge(state, 8, 13), edge(state, 13, 9))
    topology = state.topology
    owner = state.node_owner
    assert network_nodes(topology, owner, [8], state.roads[0], 0) == {8, 9, 13}
    settle(state, 3, 9)
    owner = state.node_owner
    nodes = network_nodes(topology, owner, state.buildings[0], state.roads[0], 0)
    assert nodes == {8, 13}
    assert open_spots(topology, owner, state.roads[0]) == []
    eo = state.edge_owner
    want = sorted({e for v in nodes for e in topology.node_edges[v] if eo[e] < 0})
    assert road_spots(state, 0) == want
    assert edge(state, 9, 14) not in want and edge(state, 13, 18) in want


# --- harbors -----------------------------------------------------------------------------------
def test_ir52_ir53_a_harbor_improves_the_maritime_ratios() -> None:
    bank = [BANK_RATIO] * NRES
    assert with_harbor(bank, -1) == [4, 4, 4, 4, 4]
    assert with_harbor(bank, GENERIC) == [3, 3, 3, 3, 3]  # IR-53: 3:1 for every resource
    assert with_harbor(bank, GRAIN) == [4, 4, 4, 2, 4]  # IR-52: 2:1 for its resource
    assert with_harbor(with_harbor(bank, GRAIN), GENERIC) == [3, 3, 3, 2, 3]
    assert bank == [4, 4, 4, 4, 4]  # a new list, the old one unchanged


def test_ir52_ir53_harbor_ratios_are_the_ratios_the_engine_keeps() -> None:
    # loaded position: seat 0 on the generic harbor at 0 and the grain harbor at 2
    state = fresh()
    settle(state, 0, 0)
    settle(state, 0, 2)
    tables = _tables(state)
    assert harbor_ratios(tables, state.node_owner, 0) == [3, 3, 3, 2, 3]
    assert harbor_ratios(tables, state.node_owner, 1) == [4, 4, 4, 4, 4]
    assert state.ratio[0] == [3, 3, 3, 2, 3]
    # a settlement built in play: seat 0 from 8 along 8-4-0 onto the generic harbor at 0
    state = fresh()
    settle(state, 0, 8)
    road(state, 0, edge(state, 8, 4), edge(state, 4, 0))
    assert state.ratio[0] == [4, 4, 4, 4, 4]
    give(state, 0, "1l 1b 1w 1g")
    do(state, "settle 0")
    assert state.ratio[0] == harbor_ratios(_tables(state), state.node_owner, 0) == [3] * NRES
