"""Scenario tests: setup, turn, production and the bank, the 7 and the robber (IR-17..IR-47)."""

from __future__ import annotations

import pytest

from hexfolk.core import IllegalActionError, load_game
from hexfolk.core import testing as kit
from hexfolk.games.island import actions as A
from hexfolk.games.island.ascii_map import draw_board
from hexfolk.games.island.phases import (
    DICE,
    DISCARD,
    MAIN,
    PRE_ROLL,
    ROBBER,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    STEAL,
)
from hexfolk.games.island.state import IslandState

from .helpers import deal, do, edit, fresh, give, hand, roll, set_turn, settle, texts


def start(players: int = 4, **options: object) -> IslandState:
    game = load_game("island", players, {"board": "beginner", **options})
    state = kit.start_position(game, 0)
    assert isinstance(state, IslandState)
    return state


# ---------------------------------------------------------------- setup
def test_ir18_snake_order_setup() -> None:
    state = start(4)
    order = []
    while state.phase in (SETUP_SETTLEMENT, SETUP_ROAD):
        if state.phase == SETUP_SETTLEMENT:
            order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]
    assert state.phase == PRE_ROLL and state.current_player() == 0 and state.turn == 1


def test_ir19_distance_rule_in_setup() -> None:
    state = start(3)
    do(state, "settle 18")
    do(state, state.legal_actions()[0].text())
    legal = texts(state)
    assert "settle 18" not in legal
    for v in state.topology.node_adj[18]:
        assert f"settle {v}" not in legal
    with pytest.raises(IllegalActionError):
        state.parse_action(f"settle {state.topology.node_adj[18][0]}")


def test_ir20_setup_road_touches_the_new_settlement() -> None:
    state = start(2)
    do(state, "settle 18")
    assert sorted(texts(state)) == sorted(f"road {e}" for e in state.topology.node_edges[18])


def test_ir21_second_settlement_yields_one_card_per_producing_hex() -> None:
    state = start(2)
    # seat 0, seat 1, seat 1, seat 0
    do(state, "settle 0", "road 0")  # first settlement (ore hex): nothing
    assert hand(state, 0) == "-"
    do(state, "settle 51")
    do(state, state.legal_actions()[0].text())
    assert hand(state, 1) == "-"
    do(state, "settle 14")  # second of seat 1: lumber 8, wool 11, brick 4
    assert hand(state, 1) == "1l 1b 1w"
    do(state, state.legal_actions()[0].text())
    do(state, "settle 18")  # second of seat 0: brick 9, wool 11, desert
    assert hand(state, 0) == "1b 1w"
    assert state.bank == [19 - 1, 19 - 2, 19 - 2, 19, 19]


def test_ir22_setup_has_no_trade_robber_or_cards() -> None:
    state = start(4)
    while state.phase in (SETUP_SETTLEMENT, SETUP_ROAD):
        for a in state.legal_actions():
            assert isinstance(a, (A.BuildSettlement, A.BuildRoad))
        state.apply(state.legal_actions()[-1])


# ---------------------------------------------------------------- turn
def test_ir24_before_the_roll_only_a_card_may_be_played() -> None:
    state = fresh(4)
    set_turn(state, phase="pre-roll", rolled=False)
    settle(state, 0, 18)
    give(state, 0, "4l 4b 4w 4g 4o")
    assert texts(state) == ["roll"]
    deal(state, 0, "knight")  # an old knight
    assert texts(state) == ["roll", "play knight"]
    with pytest.raises(IllegalActionError):
        state.parse_action("trade 4l for 1o")
    with pytest.raises(IllegalActionError):
        state.parse_action("offer 1l for 1o")


def test_ir23_roll_then_main_phase_then_end() -> None:
    state = fresh(4)
    set_turn(state, phase="pre-roll", rolled=False)
    do(state, "roll")
    assert state.current_player() == -1 and state.phase == DICE
    state.apply(A.DICE[8])
    assert state.phase == MAIN and texts(state)[0] == "end"
    do(state, "end")
    assert state.active == 1 and state.phase == PRE_ROLL and state.turn == 2


# ---------------------------------------------------------------- production and bank
def test_ir35_production_pays_every_player_city_two() -> None:
    state = fresh(4)
    settle(state, 0, 8)  # hexes 0 (ore 5), 1 (wool 10), 4 (brick 9)
    settle(state, 1, 9, city=True)  # hexes 1 (wool 10), 2 (lumber 8), 5 (wool 11)
    roll(state, 10)
    assert hand(state, 0) == "1w" and hand(state, 1) == "2w"
    roll(state, 9)
    assert hand(state, 0) == "1b 1w" and hand(state, 1) == "2w"
    assert state.bank[2] == 19 - 3


def _ore_fixture(bank_ore: int, a_owed: int, b_owed: int) -> IslandState:
    state = fresh(4)
    # ore 5 lies on hexes 0 and 13; node 0 touches hex 0 only, node 44 touches hex 13
    if a_owed:
        settle(state, 0, 0, city=a_owed >= 2)
    if a_owed == 4:
        settle(state, 0, 44, city=True)
    if b_owed:
        settle(state, 1, 40, city=b_owed >= 2)
    give(state, 3, f"{19 - bank_ore}o")  # seat 3 (no building on an ore 5) holds the rest
    return state


def test_ir38_bank_3_two_owed_2_each_pays_nobody() -> None:
    state = _ore_fixture(3, 2, 2)
    roll(state, 5)
    assert state.hands[0][4] == 0 and state.hands[1][4] == 0 and state.bank[4] == 3
    assert state.stat("shortage", 0) == [2] and state.stat("shortage", 1) == [2]


def test_ir38_bank_3_single_owed_4_gets_3() -> None:
    state = _ore_fixture(3, 4, 0)
    roll(state, 5)
    assert state.hands[0][4] == 3 and state.bank[4] == 0


def test_ir38_bank_4_two_owed_2_each_both_paid() -> None:
    state = _ore_fixture(4, 2, 2)
    roll(state, 5)
    assert state.hands[0][4] == 2 and state.hands[1][4] == 2 and state.bank[4] == 0


def test_ir38_lumber_short_brick_still_paid() -> None:
    state = fresh(4)
    settle(state, 0, 2, city=True)  # hex 2 lumber 8 only
    settle(state, 1, 14, city=True)  # hexes 2 (lumber 8), 5, 6
    settle(state, 2, 51)  # hex 16 brick 8 only
    give(state, 3, "16l")  # the bank keeps 3 lumber
    roll(state, 8)
    assert state.hands[0][0] == 0 and state.hands[1][0] == 0  # IR-37 (c) for lumber
    assert hand(state, 2) == "1b"  # brick unaffected


def test_ir36_bank_plus_hands_constant() -> None:
    state = fresh(3)
    settle(state, 0, 8, city=True)
    settle(state, 1, 9)
    for total in (5, 9, 10, 11, 9, 10):
        roll(state, total)
        for r in range(5):
            assert state.bank[r] + sum(h[r] for h in state.hands) == 19


# ---------------------------------------------------------------- the 7
def test_ir41_discards_half_rounded_down_hidden_until_all_commit() -> None:
    state = fresh(4)
    give(state, 1, "5l 4o")  # 9 cards: discards 4
    give(state, 2, "8w")  # 8 cards: discards 4
    give(state, 3, "7g")  # 7 cards: keeps them
    roll(state, 7)
    assert state.phase == DISCARD and state.current_player() == 1
    assert state.prompt() is not None and state.prompt().data["need"] == 4
    do(state, "discard o", "discard o", "discard l", "discard o")
    assert state.current_player() == 2
    assert hand(state, 1) == "5l 4o"  # not applied before everyone committed
    view = state.observation(2)
    assert "own" not in view["discards"] and view["discards"]["committed"] == [1]
    assert state.observation(1)["discards"]["own"] == "1l 3o"
    assert "3o" not in str(state.observation(2)) and "3o" not in str(state.observation(None))
    do(state, "discard w", "discard w", "discard w", "discard w")
    assert hand(state, 1) == "4l 1o" and hand(state, 2) == "4w" and hand(state, 3) == "7g"
    assert state.phase == ROBBER and state.current_player() == 0
    assert "seat 1 discards 1l 3o" in state.observation(3)["log"]


def test_discard_limit_option() -> None:
    state = fresh(4, discard_limit=9)
    give(state, 1, "9l")
    roll(state, 7)
    assert state.phase == ROBBER  # 9 cards are not above the limit of 9


def test_ir42_robber_must_move_to_another_land_hex() -> None:
    state = fresh(4)
    roll(state, 7)
    hexes = [a.hex for a in state.legal_actions() if isinstance(a, A.MoveRobber)]
    assert (
        state.robber == 9
        and 9 not in hexes
        and sorted(set(hexes)) == [h for h in range(19) if h != 9]
    )
    with pytest.raises(IllegalActionError):
        state.parse_action("robber 9")


def test_ir43_steal_from_an_opponent_with_building_and_cards() -> None:
    state = fresh(4)
    settle(state, 0, 5)  # own building on hex 1: never a victim
    settle(state, 1, 13)  # hex 4 and 1
    settle(state, 2, 23)  # hex 4, has no cards
    settle(state, 3, 12)  # hex 4
    give(state, 0, "1w")
    give(state, 1, "2l 1o")
    give(state, 3, "1g")
    roll(state, 7)
    moves = [str(a) for a in state.legal_actions() if isinstance(a, A.MoveRobber) and a.hex == 4]
    assert moves == ["robber 4 steal 1", "robber 4 steal 3"]
    moves = [str(a) for a in state.legal_actions() if isinstance(a, A.MoveRobber) and a.hex == 1]
    assert moves == ["robber 1 steal 1"]
    do(state, "robber 4 steal 1")
    assert state.phase == STEAL
    assert sorted((str(a), round(p, 3)) for a, p in state.chance_outcomes()) == [
        ("steal l", 0.667),
        ("steal o", 0.333),
    ]
    state.apply(A.STEALS[4])
    assert hand(state, 0) == "1w 1o" and hand(state, 1) == "2l" and state.phase == MAIN
    # IR-74: the type is seen by thief and victim only
    assert "(seat 0 stole o from seat 1)" in state.observation(1)["log"]
    assert "(seat 0 stole o from seat 1)" not in state.observation(2)["log"]
    assert "seat 0 steals a card from seat 1" in state.observation(None)["log"]


def test_ir43_no_eligible_opponent_means_no_steal() -> None:
    state = fresh(4)
    settle(state, 1, 13)  # no cards
    roll(state, 7)
    assert "robber 4" in texts(state)
    do(state, "robber 4")
    assert state.phase == MAIN and state.robber == 4


def test_robber_shorthand_resolves_or_is_ambiguous() -> None:
    from hexfolk.core import AmbiguousActionError

    state = fresh(4)
    settle(state, 1, 13)
    settle(state, 3, 23)
    give(state, 1, "1l")
    roll(state, 7)
    assert str(state.parse_action("robber 1")) == "robber 1 steal 1"  # only seat 1 on hex 1
    give(state, 3, "1l")
    before = state.fingerprint()
    with pytest.raises(AmbiguousActionError):
        state.parse_action("robber 4")  # seats 1 and 3 on hex 4
    assert state.fingerprint() == before


def test_ir44_robber_hex_produces_nothing() -> None:
    state = fresh(4)
    settle(state, 0, 8)  # wool 10 (hex 1), brick 9 (hex 4)
    edit(state, lambda doc: doc.update(robber=1))
    roll(state, 10)
    assert hand(state, 0) == "-" and state.stat("blocked", 0) == [1]
    roll(state, 9)
    assert hand(state, 0) == "1b"


def test_ir45_knight_before_the_roll() -> None:
    state = fresh(4)
    set_turn(state, phase="pre-roll", rolled=False)
    deal(state, 0, "knight")
    do(state, "play knight")
    assert state.phase == ROBBER
    do(state, "robber 4")
    assert state.phase == PRE_ROLL and texts(state) == ["roll"]  # one card per turn
    assert state.knights[0] == 1


def test_ir46_friendly_robber_protects_small_players() -> None:
    state = fresh(4, friendly_robber=True)
    settle(state, 0, 12)  # own buildings never restrict (hexes 0, 3, 4)
    settle(state, 1, 13)  # seat 1 has 1 visible VP: hexes 1, 4, 5 protected
    roll(state, 7)
    hexes = {a.hex for a in state.legal_actions() if isinstance(a, A.MoveRobber)}
    assert 0 in hexes and not hexes & {1, 4, 5}
    for v in (2, 35):  # seat 1 grows to 3 visible VP: no longer protected
        settle(state, 1, v)
    hexes = {a.hex for a in state.legal_actions() if isinstance(a, A.MoveRobber)}
    assert {1, 4, 5} <= hexes


def test_ir46_friendly_robber_falls_back_to_desert_or_stays() -> None:
    state = fresh(2, friendly_robber=True)
    set_turn(state, phase="dice")
    # seat 1 touches every hex except the desert: only the desert is left, and it holds the
    # robber. No position holds this (a protected seat has at most 2 VP: 6 hexes; even 3
    # protected seats cannot cover the 18 hexes), so the owners are set on the state itself,
    # after its last load, as bare owners (no settlement, no VP)
    for v in (0, 2, 5, 11, 13, 15, 19, 26, 28, 30, 34, 41, 42, 47, 49, 53, 29, 37, 22):
        state.node_owner[v] = 1
    state.apply(A.DICE[7])
    assert texts(state) == ["robber stay"]
    do(state, "robber stay")
    assert state.robber == 9 and state.phase == MAIN


def test_ir46_friendly_robber_never_robs_a_protected_player_on_the_desert() -> None:
    """IR-46: when every hex touches a protected player the robber falls back to the desert;
    a protected player with a building there is still never robbed: the plain move is the
    only one offered (it was ``robber 9 steal 1``)."""
    state = fresh(2, friendly_robber=True)
    desert = 9
    settle(state, 1, state.topology.hex_nodes[desert][0])  # seat 1 on the desert: 1 visible VP
    give(state, 1, "2l")
    edit(state, lambda doc: doc.update(robber=0))
    set_turn(state, phase="dice")
    # ...and on every other hex: bare owners set on the state after its last load, as no
    # position holds them (see the test above)
    for v in (0, 2, 5, 11, 13, 15, 19, 26, 28, 30, 34, 41, 42, 47, 49, 53, 29, 37, 22):
        state.node_owner[v] = 1
    state.apply(A.DICE[7])
    assert texts(state) == [f"robber {desert}"]
    assert "never robs" in (state.why_illegal(0, A.MoveRobber(desert, 1)) or "")
    do(state, f"robber {desert}")
    assert state.robber == desert and hand(state, 1) == "2l" and state.phase == MAIN


def test_ir47_robber_off_seven_still_discards() -> None:
    state = fresh(4, robber=False)
    give(state, 1, "8l")
    roll(state, 7)
    assert state.phase == DISCARD
    do(state, *["discard l"] * 4)
    assert state.phase == MAIN and state.robber == -1  # IR-47: no robber on the board
    deal(state, 0, "knight")
    do(state, "play knight")
    assert state.phase == MAIN and state.knights[0] == 1


@pytest.mark.parametrize("players", [3, 5])
def test_ir47_robber_off_no_robber_on_the_board(players: int) -> None:
    """IR-47: with the robber off no robber stands anywhere: not in any seat's observation,
    not on the terminal map, and it blocks no hex (a 7 still only makes the discards)."""
    game = load_game("island", players, {"robber": False, "board": "beginner"})
    state = game.new_initial_state()
    state.apply(state.chance_outcomes()[0][0])
    for seat in [None, *range(players)]:
        obs = state.observation(seat)
        assert obs["board"]["robber"] == -1
        assert "*" not in draw_board(obs)
        assert "no robber (IR-47)" in obs["log"][-1]
    assert state.robber == -1
