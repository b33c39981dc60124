"""Scenario tests: trade (IR-48..IR-54), building (IR-56..IR-60), development cards
(IR-61..IR-65)."""

from __future__ import annotations

import pytest

from hexfolk.core import AmbiguousActionError, IllegalActionError
from hexfolk.games.island import actions as A
from hexfolk.games.island.phases import ANSWER, DRAW, MAIN, PRE_ROLL, ROAD_BUILDING, ROBBER

from .helpers import (
    coast_nodes,
    deal,
    do,
    fresh,
    give,
    hand,
    hand_out_deck,
    path,
    road,
    set_turn,
    settle,
    take,
    texts,
    upgrade,
)


# ---------------------------------------------------------------- player trade
def test_ir49_offer_shapes() -> None:
    state = fresh(4)
    give(state, 0, "2l 1o")
    assert state.is_legal(A.parse("offer 2l for 1g"))  # any ratio
    assert state.is_legal(A.parse("offer 1l 1o for 3g 1w"))
    assert state.is_legal(A.parse("offer 1l for -"))  # a gift
    assert state.is_legal(A.parse("offer - for 1g"))  # asking for a gift
    assert not state.is_legal(A.parse("offer 1l for 1l"))  # same resource on both sides
    assert not state.is_legal(A.parse("offer 1l 1g for 1g"))
    assert not state.is_legal(A.parse("offer - for -"))
    assert not state.is_legal(A.parse("offer 3l for 1g"))  # cards not held
    # the listing is a small canonical set: 1 held card for 1 of a type not held
    offers = [t for t in texts(state) if t.startswith("offer")]
    assert offers == [
        "offer 1l for 1b",
        "offer 1l for 1w",
        "offer 1l for 1g",
        "offer 1o for 1b",
        "offer 1o for 1w",
        "offer 1o for 1g",
    ]


def test_ir48_only_the_active_player_trades_in_the_main_phase() -> None:
    state = fresh(4)
    give(state, 0, "4l")
    set_turn(state, phase="pre-roll", rolled=False)
    assert not state.is_legal(A.parse("offer 1l for 1o"))
    assert not state.is_legal(A.parse("trade 4l for 1o"))
    set_turn(state, phase="main", rolled=True)
    do(state, "offer 1l for 1o")
    assert state.phase == ANSWER and state.current_player() == 1
    give(state, 1, "4w")
    assert not state.is_legal(A.parse("trade 4w for 1o"))
    assert not state.is_legal(A.parse("offer 1w for 1o"))


def test_ir50_answers_counter_offer_and_single_execution() -> None:
    state = fresh(4)
    give(state, 0, "2l")
    give(state, 1, "1o")
    give(state, 2, "1b")
    do(state, "offer 1l for 1o")
    assert texts(state) == ["accept 1", "reject 1"]  # countering 1o for 1l would just accept
    do(state, "accept")  # the shorthand names the one offer seat 1 has not answered
    assert "accept 1" not in texts(state)  # seat 2 holds no ore
    do(state, "counter 1b for 1l")
    do(state, "reject")
    assert state.phase == MAIN and state.current_player() == 0
    legal = texts(state)
    assert "complete 1 with 1" in legal and "complete 1 with 2" in legal
    assert "complete 1 with 3" not in legal
    with pytest.raises(AmbiguousActionError):
        state.parse_action("complete 1")
    do(state, "complete 1 with 2")  # the counter: seat 0 gives 1l, gets 1b
    assert hand(state, 0) == "1l 1b" and hand(state, 2) == "1l" and hand(state, 1) == "1o"
    assert "complete 1 with 1" not in texts(state)  # executes at most once
    assert state.offers == []


def test_ir50_trade_rechecks_both_hands() -> None:
    state = fresh(3)
    give(state, 0, "1l 4w")
    give(state, 1, "1o")
    do(state, "offer 1l for 1o", "accept", "reject")
    do(state, "trade 4w for 1l")  # still fine
    assert "complete 1 with 1" in texts(state)
    take(state, 0, "2l")  # the proposer no longer holds the lumber
    assert "complete 1 with 1" not in texts(state)
    with pytest.raises(IllegalActionError):
        state.parse_action("complete 1 with 1")


def test_ir51_at_most_three_open_offers_and_no_resend_after_rejection() -> None:
    state = fresh(3)
    give(state, 0, "3l")
    give(state, 1, "3o 3w 3g")
    for want in ("o", "w", "g"):
        do(state, f"offer 1l for 1{want}", "accept", "reject")
    assert len(state.offers) == 3
    assert not [t for t in texts(state) if t.startswith("offer")]
    with pytest.raises(IllegalActionError):
        state.parse_action("offer 1l for 1b")
    do(state, "withdraw 1")
    do(state, "offer 1l for 1b", "reject", "reject")  # rejected by everyone: closed
    assert len(state.offers) == 2
    assert "offer 1l for 1b" not in texts(state)
    with pytest.raises(IllegalActionError):
        state.parse_action("offer 1l for 1b")
    do(state, "end")
    assert state.offers == []  # open offers are withdrawn at the end of the turn


def test_ir52_bank_trade_four_for_one() -> None:
    state = fresh(4)
    give(state, 0, "3l")
    assert not [t for t in texts(state) if t.startswith("trade")]
    give(state, 0, "1l")
    assert [t for t in texts(state) if t.startswith("trade")] == [
        "trade 4l for 1b",
        "trade 4l for 1w",
        "trade 4l for 1g",
        "trade 4l for 1o",
    ]
    do(state, "trade 4l for 1o")
    assert hand(state, 0) == "1o" and state.bank[0] == 19 and state.bank[4] == 18


def test_ir53_harbors_three_and_two_for_one() -> None:
    state = fresh(4)
    give(state, 0, "3w 2l")
    assert not state.is_legal(A.parse("trade 3w for 1o"))
    settle(state, 0, 0)  # generic harbor on edge 0-4
    assert state.is_legal(A.parse("trade 3w for 1o"))  # usable at once
    assert not state.is_legal(A.parse("trade 2l for 1o"))
    settle(state, 0, 16)  # lumber harbor on edge 11-16
    assert state.is_legal(A.parse("trade 2l for 1o"))
    assert not state.is_legal(A.parse("trade 2w for 1o"))
    do(state, "trade 2l for 1o")
    assert state.stat("maritime", 0) == [1, 0, 0]  # one lot at 2:1


def test_ir54_maritime_several_lots_and_other_type() -> None:
    state = fresh(4)
    give(state, 0, "8l 4b")
    assert not state.is_legal(A.parse("trade 4l for 1l"))
    assert not state.is_legal(A.parse("trade 4l 4b for 1l 1o"))
    assert not state.is_legal(A.parse("trade 8l for 1o"))  # 2 lots give 2 cards
    do(state, "trade 8l 4b for 2g 1o")
    assert hand(state, 0) == "2g 1o"


def test_ir39_maritime_and_plenty_take_only_what_the_bank_holds() -> None:
    state = fresh(4)
    give(state, 0, "4l")
    give(state, 1, "19o")  # the bank holds no ore
    assert "trade 4l for 1o" not in texts(state)
    assert not state.is_legal(A.parse("trade 4l for 1o"))
    deal(state, 0, "plenty")
    plays = [t for t in texts(state) if t.startswith("play plenty")]
    assert plays and all("o" not in t.split()[-1] and "o" not in t.split()[-2] for t in plays)


# ---------------------------------------------------------------- building
def test_ir56_road_connects_and_not_through_an_opponent() -> None:
    state = fresh(4)
    settle(state, 0, 18)
    give(state, 0, "5l 5b")
    roads = sorted(t for t in texts(state) if t.startswith("road"))
    assert roads == sorted(f"road {e}" for e in state.topology.node_edges[18])
    e1, e2 = path(state, [18, 13, 8])
    do(state, f"road {e1}", f"road {e2}")
    settle(state, 1, 8)  # the road runs into seat 1's settlement
    beyond = [e for e in state.topology.node_edges[8] if e != e2]
    for e in beyond:
        assert f"road {e}" not in texts(state)


def test_ir57_settlement_needs_own_road_and_distance() -> None:
    state = fresh(4)
    settle(state, 0, 18)
    give(state, 0, "1l 1b 1w 1g")
    assert not [t for t in texts(state) if t.startswith("settle")]
    road(state, 0, *path(state, [18, 13, 8]))
    # node 13 is next to 18 (distance rule); node 8 is two away
    assert [t for t in texts(state) if t.startswith("settle")] == ["settle 8"]
    do(state, "settle 8")
    assert hand(state, 0) == "-" and state.bank == [19] * 5


def test_ir58_city_replaces_a_settlement() -> None:
    state = fresh(4)
    settle(state, 0, 18)
    give(state, 0, "2g 3o")
    assert [t for t in texts(state) if t.startswith("city")] == ["city 18"]
    do(state, "city 18")
    assert (
        state.node_level[18] == 2 and state.settlements_left[0] == 5 and state.cities_left[0] == 3
    )
    assert state.visible_vp(0) == 2


def test_ir59_piece_limits() -> None:
    state = fresh(4)
    for v in (0, 2, 18, 40, 51):
        settle(state, 0, v)
    road(state, 0, *path(state, [18, 13, 8]))
    give(state, 0, "1l 1b 1w 1g")
    assert state.settlements_left[0] == 0
    assert not [t for t in texts(state) if t.startswith("settle")]
    for v in (0, 2, 40, 51):
        upgrade(state, v)
    give(state, 0, "2g 3o")
    assert not [t for t in texts(state) if t.startswith("city")]  # 4 cities stand
    assert [t for t in texts(state) if t.startswith("settle")] == ["settle 8"]
    road(state, 0, *path(state, coast_nodes(state, 14)))  # 13 more: all 15 on the board
    assert not [t for t in texts(state) if t.startswith("road")]


# ---------------------------------------------------------------- development cards
def test_ir61_buy_draws_by_deck_composition_and_stops_when_empty() -> None:
    state = fresh(4)
    give(state, 0, "2w 2g 2o")
    do(state, "buy")
    assert state.phase == DRAW and hand(state, 0) == "1w 1g 1o"
    outcomes = dict((str(a), p) for a, p in state.chance_outcomes())
    assert outcomes == {
        "draw knight": 14 / 25,
        "draw vp": 5 / 25,
        "draw roads": 2 / 25,
        "draw plenty": 2 / 25,
        "draw monopoly": 2 / 25,
    }
    state.apply(A.parse("draw monopoly"))
    assert state.dev_cards[0] == [0, 0, 0, 0, 1] and state.deck == [14, 5, 2, 2, 1]
    assert state.observation(0)["log"][-1] == "seat 0 draws monopoly"
    assert all("monopoly" not in e for e in state.observation(1)["log"])
    hand_out_deck(state, 1)
    assert "buy" not in texts(state)


def test_ir62_one_card_per_turn_never_one_bought_this_turn() -> None:
    state = fresh(4)
    give(state, 0, "1w 1g 1o")
    do(state, "buy")
    state.apply(A.parse("draw knight"))
    assert "play knight" not in texts(state)  # bought this turn
    do(state, "end")
    for _ in range(3):  # round to seat 0 again (4 players, no SBP)
        do(state, "roll")
        state.apply(A.DICE[8])
        do(state, "end")
    assert state.active == 0 and state.phase == PRE_ROLL
    deal(state, 0, "roads")  # plus an old road building card
    assert "play knight" in texts(state) and "play roads" not in texts(state)  # no roads yet
    do(state, "play knight", "robber 4")
    assert texts(state) == ["roll"]


def test_ir63_vp_cards_are_never_played_and_count_at_once() -> None:
    state = fresh(4)
    deal(state, 0, "vp", 2)
    assert state.total_vp(0) == 2 and state.visible_vp(0) == 0
    assert not [t for t in texts(state) if t.startswith("play")]
    with pytest.raises(Exception):  # noqa: B017 - no such notation at all
        state.parse_action("play vp")


def test_ir64_road_building_two_free_roads() -> None:
    state = fresh(4)
    settle(state, 0, 18)
    deal(state, 0, "roads")
    do(state, "play roads")
    assert state.phase == ROAD_BUILDING
    first = texts(state)[0]
    do(state, first)
    assert state.phase == ROAD_BUILDING
    do(state, texts(state)[0])
    assert state.phase == MAIN and state.roads_left[0] == 13 and state.bank == [19] * 5


def test_ir64_road_building_with_one_piece_left() -> None:
    state = fresh(4)
    settle(state, 0, 18)
    deal(state, 0, "roads")
    road(state, 0, *path(state, coast_nodes(state, 15)))  # 14 roads on the board: 1 left
    do(state, "play roads")
    do(state, texts(state)[0])
    assert state.phase == MAIN and state.roads_left[0] == 0


def test_ir64_year_of_plenty_and_monopoly() -> None:
    state = fresh(4)
    deal(state, 0, "plenty")
    deal(state, 0, "monopoly")
    do(state, "play plenty 1b 1o")
    assert hand(state, 0) == "1b 1o"
    assert not [t for t in texts(state) if t.startswith("play")]  # one card per turn
    set_turn(state, card_played=False)
    give(state, 1, "2w 1g")
    give(state, 2, "3w")
    do(state, "play monopoly w")
    assert hand(state, 0) == "1b 5w 1o" and hand(state, 1) == "1g" and hand(state, 2) == "-"
    assert "seat 0 plays monopoly on wool and takes 5" in state.observation(3)["log"]


def test_ir65_others_see_only_card_counts() -> None:
    state = fresh(4)
    for card in ("knight", "vp", "monopoly"):
        deal(state, 0, card)
    mine = state.observation(0)["players"][0]
    theirs = state.observation(1)["players"][0]
    assert mine["dev_hand"]["knight"] == 1 and mine["vp"] == 1
    assert theirs["dev_cards"] == 3 and "dev_hand" not in theirs and "vp" not in theirs
    assert theirs["visible_vp"] == 0


def test_knight_moves_robber_in_main_phase() -> None:
    state = fresh(4)
    deal(state, 0, "knight")
    do(state, "play knight")
    assert state.phase == ROBBER
    do(state, "robber 0")
    assert state.phase == MAIN and state.robber == 0


def test_ir15_harbor_serves_both_intersections_of_its_edge() -> None:
    topology = fresh(4).topology
    a, b = topology.edge_nodes[topology.harbor_slots[0]]  # a generic harbor on the beginner board
    for node in (a, b):
        state = fresh(4)
        give(state, 0, "3w")
        settle(state, 0, node)
        assert state.is_legal(A.parse("trade 3w for 1o"))
