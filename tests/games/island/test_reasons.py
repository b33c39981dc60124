"""Reasons for refused island actions (issue 17): one test per reason, then a property test
that every well-formed illegal action met in random games gets a specific reason."""

from __future__ import annotations

import random

import pytest
from tests.games.refusal_walk import count_specific_reasons, refusal_questions

from hexfolk.core import CHANCE, TERMINAL, IllegalActionError, State, load_game
from hexfolk.games.island import actions as A
from hexfolk.games.island.labels import labels
from hexfolk.games.island.phases import DISCARD, ROBBER
from hexfolk.games.island.state import IslandState

from .helpers import Doc, deal, do, edit, fresh, give, path, road, set_turn, settle, take


def spot(state: IslandState, v: int) -> str:
    """Intersection ``v`` as the board labels it (reasons name places by label)."""
    return labels(state.topology).label("node", v)


def hexl(state: IslandState, h: int) -> str:
    """Hex ``h`` as the board labels it."""
    return labels(state.topology).label("hex", h)


def reason(state: IslandState, text: str, seat: int | None = None) -> str:
    """The reason the engine refuses ``text`` (parsed with the game's notation)."""
    action = A.parse(text)
    who = state.current_player() if seat is None else seat
    why = state.why_illegal(who, action)
    assert why is not None, f"{text} is legal"
    assert why != State.why_illegal(state, who, action), f"generic sentence for {text}"
    return why


def refused(state: IslandState, text: str) -> IllegalActionError:
    before = state.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        state.parse_action(text)
    assert state.fingerprint() == before
    return info.value


# ---------------------------------------------------------------- the kernel's carrier
def test_the_error_carries_the_reason_first_and_the_message_reads() -> None:
    state = fresh(4)
    settle(state, 0, 10)
    give(state, 0, "2g 1o")
    err = refused(state, "city 10")
    assert err.reason == "a city costs 2 grain and 3 ore; you have 1 ore (IR-58)"
    assert str(err).startswith(err.reason) and "'city 10'" in str(err)
    with pytest.raises(IllegalActionError) as info:
        state.apply(A.BuildCity(10))
    assert info.value.reason == err.reason


def test_legal_actions_have_no_reason() -> None:
    state = fresh(4)
    for action in state.legal_actions():
        assert state.why_illegal(0, action) is None


# ---------------------------------------------------------------- building (IR-19, IR-56..IR-59)
def test_ir58_city_needs_an_own_settlement() -> None:
    state = fresh(4)
    give(state, 0, "2g 3o")
    assert f"you have no settlement on {spot(state, 23)}" in reason(state, "city 23")
    settle(state, 1, 23)
    assert "seat 1's building stands there" in reason(state, "city 23")
    settle(state, 0, 10, city=True)
    assert reason(state, "city 10") == f"{spot(state, 10)} is already a city (IR-58)"


def test_ir59_piece_limits() -> None:
    state = fresh(4)
    give(state, 0, "2g 3o 2l 2b 1w")
    settle(state, 0, 10)
    for v in (0, 1, 2, 7):  # the position where seat 0's 4 cities stand on the board
        settle(state, 0, v, city=True)
    assert reason(state, "city 10") == "all 4 of your cities are on the board (IR-59)"
    for v in (8, 9, 16, 17):  # ... and its 5 settlements
        settle(state, 0, v)
    assert "all 5 of your settlements are on the board" in reason(state, "settle 30")
    road(state, 0, *range(2, 17))  # ... and its 15 roads
    assert reason(state, "road 0") == "all 15 of your roads are on the board (IR-59)"


def test_ir19_distance_rule_and_taken_intersections() -> None:
    state = fresh(4)
    settle(state, 1, 10)
    neighbour = state.topology.node_adj[10][0]
    assert reason(state, "settle 10") == (
        f"intersection {spot(state, 10)} is taken by seat 1's building"
    )
    assert reason(state, f"settle {neighbour}") == (
        f"intersection {spot(state, neighbour)} is next to a building on {spot(state, 10)}: "
        "the distance rule (IR-19)"
    )
    assert reason(state, "settle 999") == "there is no intersection 999 on this board"


def test_ir57_settlement_needs_an_own_road_and_its_cost() -> None:
    state = fresh(4)
    give(state, 0, "1l 1b 1w 1g")
    assert "touches none (IR-57)" in reason(state, "settle 30")
    settle(state, 0, 0)
    a = state.topology.node_adj[0][0]
    target = next(v for v in state.topology.node_adj[a] if state.free[v])
    road(state, 0, *path(state, [0, a, target]))
    take(state, 0, "1l 1g")
    assert reason(state, f"settle {target}") == (
        "a settlement costs 1 lumber, 1 brick, 1 wool and 1 grain; you have 0 lumber and "
        "0 grain (IR-57)"
    )


def test_ir56_road_must_connect_and_cannot_pass_an_opponent() -> None:
    state = fresh(4)
    give(state, 0, "1l 1b")
    assert "a road must connect to your own road or building" in reason(state, "road 0")
    a, b = state.topology.edge_nodes[0]
    road(state, 0, 0)
    settle(state, 1, b)
    out = next(e for e in state.topology.node_edges[b] if e != 0)
    assert reason(state, f"road {out}") == (
        f"a road cannot connect through seat 1's building on {spot(state, b)} (IR-56)"
    )
    edge = labels(state.topology).label("edge", 0)
    assert reason(state, "road 0") == f"edge {edge} already holds your road"
    take(state, 0, "1l 1b")
    free = next(e for e in state.topology.node_edges[a] if state.edge_owner[e] < 0)
    assert reason(state, f"road {free}") == (
        "a road costs 1 lumber and 1 brick; you have 0 lumber and 0 brick (IR-56)"
    )


def test_ir20_setup_road_touches_the_new_settlement() -> None:
    game = load_game("island", 4, {"board": "beginner"})
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    state.apply(state.chance_outcomes()[0][0])
    assert "place your setup settlement first" in reason(state, "road 0")
    do(state, "settle 10")
    far = next(e for e in range(state.topology.num_edges) if 10 not in state.topology.edge_nodes[e])
    assert reason(state, f"road {far}") == (
        f"the setup road must touch the settlement just placed on {spot(state, 10)} (IR-20)"
    )
    assert "setup" in reason(state, "buy")
    # a seat that is not placing is told whose decision it is
    why = reason(state, "road 0", seat=2)
    assert why.startswith("seat 2 has no decision to make now; it is seat 0's decision")


# ---------------------------------------------------------------- turn (IR-23, IR-24)
def test_ir24_no_trading_or_building_before_the_roll() -> None:
    state = fresh(4)
    set_turn(state, phase="pre-roll", rolled=False)
    give(state, 0, "4l 1b")
    assert reason(state, "trade 4l for 1o") == (
        "no trading or building before the roll: roll first (IR-24)"
    )
    assert reason(state, "end") == "roll the dice before ending the turn (IR-23)"


def test_ir23_one_roll_per_turn() -> None:
    state = fresh(4)
    assert reason(state, "roll") == "you have already rolled this turn (IR-23)"


def test_chance_outcomes_are_not_moves_and_chance_nodes_take_no_moves() -> None:
    state = fresh(4)
    assert "is a chance outcome the table draws, not a move" in reason(state, "roll 8")
    do(state, "end", "roll")
    assert state.current_player() == CHANCE
    assert reason(state, "end", seat=CHANCE) == "no seat acts now: the table draws the dice next"


def test_the_game_is_over() -> None:
    state = fresh(4)
    for v in (0, 2, 7, 9):  # the position where seat 2 has won with 10 VP (IR-4)
        settle(state, 2, v, city=True)
    settle(state, 2, 17)
    settle(state, 2, 19)
    set_turn(state, phase="over", winner=2)
    assert state.current_player() == TERMINAL
    assert reason(state, "end", seat=0) == "the game is over: seat 2 won (IR-4)"


# ---------------------------------------------------------------- development cards (IR-61..IR-64)
def test_ir62_a_card_bought_this_turn_cannot_be_played() -> None:
    state = fresh(4)
    deal(state, 0, "knight", bought=True)
    assert reason(state, "play knight") == (
        "a card bought this turn cannot be played (IR-62): your Knight is new"
    )
    assert reason(state, "play monopoly o") == "you hold no Monopoly card"
    edit(state, lambda doc: doc["seats"][0]["bought_this_turn"].update(knight=0))  # an old one
    deal(state, 0, "plenty")
    do(state, "play knight")
    do(state, "robber 5")
    assert reason(state, "play plenty 2o") == (
        "you have already played a development card this turn (IR-62)"
    )


def test_ir61_buying_costs_and_the_deck() -> None:
    state = fresh(4)
    give(state, 0, "1w")
    assert reason(state, "buy") == (
        "a development card costs 1 wool, 1 grain and 1 ore; you have 0 grain and 0 ore (IR-61)"
    )
    for card, left in list(state.position()["deck"].items()):  # seat 1 holds the whole deck
        deal(state, 1, card, left)
    assert reason(state, "buy") == "the development deck is empty (IR-61)"


def test_ir64_year_of_plenty_takes_two_cards_the_bank_has() -> None:
    state = fresh(4)
    deal(state, 0, "plenty")
    assert "takes 2 cards from the bank, not 3" in reason(state, "play plenty 3o")
    give(state, 1, "18o")  # the bank keeps 1 ore
    assert reason(state, "play plenty 2o") == "the bank holds only 1 ore (IR-39)"


def test_ir32_no_cards_or_trades_in_the_special_build_phase() -> None:
    state = fresh(5)
    deal(state, 0, "knight")

    def special_build(doc: Doc) -> None:  # seat 4 ended its turn; seat 0 builds in its slot
        doc["turn"].update(phase="sbp-build", seat=0, active=4)
        doc["special_build"]["joined"] = [0]

    edit(state, special_build)
    give(state, 0, "4l")
    assert "special build phase (IR-32)" in reason(state, "play knight")
    assert reason(state, "trade 4l for 1o") == "no trading in the special build phase (IR-32)"


# ---------------------------------------------------------------- the 7 (IR-41..IR-46)
def _seven(state: IslandState) -> None:
    """Seat 0 rolls a 7."""
    set_turn(state, phase="pre-roll", rolled=False)
    do(state, "roll")
    state.apply(A.DICE[7])


def test_ir41_discard_only_what_you_hold() -> None:
    state = fresh(4)
    give(state, 1, "8l")
    _seven(state)
    assert state.phase == DISCARD and state.current_player() == 1
    assert reason(state, "discard o") == "you have no ore to discard"
    assert "discard 4 more cards first" in reason(state, "end")
    assert "seat 1 is discarding after a 7 (IR-41)" in reason(state, "end", seat=2)


def test_ir41_the_discard_reasons_name_the_tables_discard_limit() -> None:
    state = fresh(4, discard_limit=3)
    set_turn(state, phase="pre-roll", rolled=False)
    assert "more than 3 cards (IR-41)" in reason(state, "discard l")
    give(state, 1, "4l")
    _seven(state)
    assert state.phase == DISCARD
    assert "more than 3 cards after a 7 means discarding half (2)" in reason(state, "end")


def test_ir42_ir43_robber_moves_and_victims() -> None:
    state = fresh(4)
    _seven(state)
    assert state.phase == ROBBER
    here = state.robber
    assert reason(state, f"robber {here}") == (
        f"the robber must move to a different hex than {hexl(state, here)} (IR-42)"
    )
    hx = next(h for h in range(state.topology.num_hexes) if h != here)
    v = state.topology.hex_nodes[hx][0]
    assert reason(state, f"robber {hx} steal 2") == (
        f"seat 2 has no building on hex {hexl(state, hx)} (IR-43)"
    )
    settle(state, 2, v)
    assert reason(state, f"robber {hx} steal 2") == "seat 2 holds no cards to steal (IR-43)"
    assert reason(state, f"robber {hx} steal 1", seat=1).startswith("seat 1 has no decision")
    settle(state, 1, state.topology.hex_nodes[hx][3])
    give(state, 1, "1l")
    give(state, 2, "1o")
    assert reason(state, f"robber {hx}") == (
        f"on hex {hexl(state, hx)} you must rob seat 1 or seat 2 (IR-43)"
    )
    assert reason(state, "robber stay") == "the robber stays only when no hex may take it (IR-46)"


def test_ir46_friendly_robber() -> None:
    state = fresh(4, friendly_robber=True)
    settle(state, 1, 10)
    _seven(state)
    hx = state.topology.node_hexes[10][0]
    assert "friendly robber, IR-46" in reason(state, f"robber {hx}")


# ---------------------------------------------------------------- trade (IR-49..IR-54)
def test_ir52_ir54_maritimetrade_listing() -> None:
    state = fresh(4)
    give(state, 0, "3l 4b")
    assert reason(state, "trade 4l for 1o") == "you have 3 lumber, not 4"
    assert reason(state, "trade 3b for 1o") == (
        "you trade brick at 4:1, so 3 brick is not a whole lot (IR-52)"
    )
    assert reason(state, "trade 4b for 2o") == "4 brick buys 1 card, not 2 (IR-54)"
    assert "another type" in reason(state, "trade 4b for 1b")
    give(state, 1, "19o")  # the bank holds no ore
    assert reason(state, "trade 4b for 1o") == "the bank holds only 0 ore (IR-39)"


def test_ir49_ir51_offers() -> None:
    state = fresh(4)
    give(state, 0, "3l")
    assert reason(state, "offer 1o for 1l") == (
        "an offer gives only cards you hold: it gives 1 ore; you have 0 ore (IR-49)"
    )
    assert "same resource (lumber)" in reason(state, "offer 1l for 1l")
    do(state, "offer 1l for 1o")
    assert reason(state, "offer 1l for 1o", seat=0) == "this offer is already open (#1)"
    state.apply_for(0, A.parse("offer 1l for 1b"))
    state.apply_for(0, A.parse("offer 1l for 1g"))
    assert reason(state, "offer 2l for 1w", seat=0) == (
        "no more than 3 offers may be open at once (IR-51)"
    )
    for seat in (1, 2, 3):
        state.apply_for(seat, A.Reject(1))
    assert "cannot be re-sent unchanged (IR-51)" in reason(state, "offer 1l for 1o", seat=0)


def test_ir50_answers_and_completion() -> None:
    state = fresh(4)
    give(state, 0, "1l")
    give(state, 2, "1o")
    do(state, "offer 1l for 1o")
    assert reason(state, "accept 1", seat=1) == "offer #1 asks for 1 ore; you have 0 ore (IR-50)"
    assert reason(state, "accept 7", seat=1) == "there is no open offer #7"
    assert reason(state, "complete 1 with 2", seat=0) == (
        "seat 2 has not answered offer #1 yet (IR-50)"
    )
    assert reason(state, "reject 1", seat=0) == "only the other seats answer your offers (IR-50)"
    state.apply_for(1, A.Reject(1))
    assert reason(state, "reject 1", seat=1).startswith("seat 1 has no decision")
    assert reason(state, "complete 1 with 1", seat=0) == "seat 1 rejected offer #1 (IR-50)"
    state.apply_for(2, A.Accept(1))
    take(state, 2, "1o")
    assert reason(state, "complete 1 with 2", seat=0) == "seat 2 no longer holds 1 ore (IR-50)"


def test_refusals_through_parse_action_for_and_apply_for_carry_the_reason() -> None:
    state = fresh(4)
    give(state, 0, "1l")
    do(state, "offer 1l for 1o")
    with pytest.raises(IllegalActionError) as info:
        state.parse_action_for(2, "accept 1")
    assert info.value.reason == "offer #1 asks for 1 ore; you have 0 ore (IR-50)"
    with pytest.raises(IllegalActionError) as info:
        state.apply_for(3, A.Accept(1))
    assert info.value.reason == "offer #1 asks for 1 ore; you have 0 ore (IR-50)"
    with pytest.raises(IllegalActionError) as info:
        state.parse_action_for(0, "city 3")
    assert info.value.reason.startswith(f"you have no settlement on {spot(state, 3)} ")


# ---------------------------------------------------------------- property
def _candidates(state: IslandState, pool: list[A.Action], rng: random.Random) -> list[A.Action]:
    """Actions legal at other points of the game, and mutations of the legal ones."""
    out = rng.sample(pool, min(8, len(pool)))
    topology = state.topology
    for a in rng.sample(state.legal_actions(), min(3, len(state.legal_actions()))):
        if isinstance(a, A.BuildRoad):
            out.append(A.BuildRoad(rng.randrange(topology.num_edges)))
        elif isinstance(a, A.BuildSettlement | A.BuildCity):
            out.append(type(a)(rng.randrange(topology.num_nodes)))
        elif isinstance(a, A.MoveRobber):
            out.append(A.MoveRobber(rng.randrange(topology.num_hexes), rng.randrange(-1, state.n)))
        elif isinstance(a, A.MaritimeTrade | A.Offer):
            give = tuple(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(5))
            get = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in range(5))
            out.append(type(a)(give, get))
    out += [A.BUY, A.END, A.ROLL, A.PLAY_KNIGHT, A.PLAY_ROADS, A.Complete(1, 1)]
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_illegal_action_of_random_games_gets_a_specific_reason(players: int) -> None:
    checked = 0
    for seed in range(3 if players != 4 else 4):
        state = load_game("island", players).new_initial_state()
        assert isinstance(state, IslandState)
        rng = random.Random(seed)
        questions = refusal_questions(
            state,
            rng,
            players,
            limit=1500,
            every=9,
            candidates=lambda pool: _candidates(state, pool, rng),  # noqa: B023
        )
        checked += count_specific_reasons(
            state,
            questions,
            lambda seat, candidate: (
                f"no specific reason for seat {seat}: {candidate} "
                f"({state.prompt_for(seat) or state.prompt()})"  # noqa: B023
            ),
        )
    assert checked > 1000
