"""Scenario tests: Longest Road (IR-66..IR-71), Largest Army (IR-72), awards off (IR-73),
winning (IR-4..IR-8), the special build phase (IR-29..IR-34) and the statistics (IR-80)."""

from __future__ import annotations

from hexfolk.core import Match, load_game
from hexfolk.core import testing as kit
from hexfolk.games.island import actions as A
from hexfolk.games.island.phases import (
    ANSWER,
    MAIN,
    OVER,
    PRE_ROLL,
    SPECIAL_BUILD,
    SPECIAL_BUILD_SIGNUP,
)
from hexfolk.games.island.roads import award_after_change, road_length
from hexfolk.games.island.state import IslandState

from .helpers import (
    coast_nodes,
    deal,
    do,
    fresh,
    give,
    knights_played,
    path,
    road,
    set_turn,
    settle,
    texts,
)


def length(state: IslandState, seat: int) -> int:
    return road_length(state.topology, state.edge_owner, state.node_owner, state.roads[seat], seat)


def next_turn(state: IslandState, total: int = 8) -> None:
    """End the current turn (no SBP) and roll ``total`` for the next player."""
    do(state, "end")
    if state.phase == PRE_ROLL:
        do(state, "roll")
        state.apply(A.DICE[total])


# ---------------------------------------------------------------- Longest Road
def test_ir66_chain_and_branches() -> None:
    state = fresh(4)
    road(state, 0, *path(state, [0, 4, 1, 5, 2, 6]))  # 5 segments
    assert length(state, 0) == 5
    road(state, 0, *path(state, [4, 8]))  # a branch adds nothing
    assert length(state, 0) == 5
    road(state, 0, *path(state, [8, 13]))  # 13-8-4-1-5-2-6
    assert length(state, 0) == 6


def test_ir66_closed_ring_of_six_counts_six() -> None:
    state = fresh(4)
    ring = list(state.topology.hex_nodes[4])
    road(state, 0, *path(state, [*ring, ring[0]]))
    assert length(state, 0) == 6
    road(state, 0, *path(state, [ring[0], 4]))  # a tail makes the trail 7
    assert length(state, 0) == 7


def test_ir66_figure_eight_is_edge_simple() -> None:
    state = fresh(4)
    a = list(state.topology.hex_nodes[4])
    b = list(state.topology.hex_nodes[5])
    road(state, 0, *path(state, [*a, a[0]]))
    extra = [e for e in path(state, [*b, b[0]]) if e not in state.roads[0]]  # 13-18 is shared
    assert len(extra) == 5
    road(state, 0, *extra)
    assert length(state, 0) == 11  # every segment once: two rings sharing one edge


def test_ir67_opponent_building_breaks_own_does_not() -> None:
    state = fresh(4)
    nodes = coast_nodes(state, 9)
    road(state, 0, *path(state, nodes))
    assert length(state, 0) == 8
    settle(state, 0, nodes[4])  # own building: no break
    assert length(state, 0) == 8
    state2 = fresh(4)
    road(state2, 0, *path(state2, nodes))
    settle(state2, 1, nodes[4])
    assert length(state2, 0) == 4  # 4 + 4
    state3 = fresh(4)
    road(state3, 0, *path(state3, nodes[:6]))
    settle(state3, 1, nodes[5])  # a trail may end at the opponent's building: still counts
    assert length(state3, 0) == 5


def test_ir68_first_alone_at_five_receives() -> None:
    state = fresh(4)
    road(state, 0, *path(state, coast_nodes(state, 5)))
    assert state.longest_road == -1  # 4 is not enough
    road(state, 0, *path(state, coast_nodes(state, 6))[4:])
    assert state.longest_road == 0 and state.visible_vp(0) == 2


def test_ir69_tie_leaves_it_strictly_longer_takes() -> None:
    state = fresh(4)
    road(state, 0, *path(state, coast_nodes(state, 6)))
    far = coast_nodes(state, 8, start=15)
    road(state, 1, *path(state, far[:6]))
    assert state.road_length == [5, 5, 0, 0] and state.longest_road == 0
    road(state, 1, *path(state, far[5:7]))
    assert state.longest_road == 1


def test_ir70_award_rules_after_a_break() -> None:
    # (a) nobody at 5 or more: set aside
    assert award_after_change(0, [6, 4, 0], [3, 4, 0]) == -1
    # (b) the holder still at the maximum, even tied, keeps it
    assert award_after_change(0, [7, 5, 0], [5, 5, 0]) == 0
    # (c) exactly one player at the maximum takes it
    assert award_after_change(0, [8, 6, 0], [4, 6, 0]) == 1
    # (d) a tie among others at the maximum: set aside
    assert award_after_change(0, [8, 6, 6], [4, 6, 6]) == -1
    # a card set aside goes to the first player alone at the maximum with at least 5
    assert award_after_change(-1, [4, 6, 6], [4, 7, 6]) == 1
    assert award_after_change(-1, [4, 6, 6], [4, 6, 6]) == -1


def test_ir70_break_in_play_sets_aside_then_first_alone_takes() -> None:
    state = fresh(4)
    nodes = coast_nodes(state, 9)
    road(state, 0, *path(state, nodes))
    other = coast_nodes(state, 7, start=12)
    road(state, 1, *path(state, other))
    third = coast_nodes(state, 7, start=20)
    road(state, 2, *path(state, third))
    assert state.longest_road == 0 and state.road_length[:3] == [8, 6, 6]
    settle(state, 3, nodes[4])  # A: 4 + 4; B and C tie at 6: set aside (IR-70 d)
    assert state.road_length[0] == 4 and state.longest_road == -1
    extra = next(e for e in state.topology.node_edges[other[-1]] if state.edge_owner[e] < 0)
    road(state, 1, extra)
    assert state.longest_road == 1  # alone at the maximum with 7


def _middle_split_fixture() -> tuple[IslandState, list[int], int, int]:
    """A (seat 0) holds Longest Road with 8 coast segments whose middle node has a free
    inland edge; returns the state, the road's nodes, the middle node and the inland node."""
    state = fresh(4)
    for start in range(len(state.topology.coast)):
        nodes = coast_nodes(state, 9, start)
        mid = nodes[4]
        inland = [u for u in state.topology.node_adj[mid] if u not in nodes]
        if inland:
            return state, nodes, mid, inland[0]
    raise AssertionError("no coast path with an inland middle node")


def test_ir6_ir5_longest_road_regained_off_turn_wins_at_own_turn_start() -> None:
    state, nodes, mid, inland = _middle_split_fixture()
    road(state, 0, *path(state, nodes))  # A: 8 segments, holder
    used = set(nodes)
    for start in range(len(state.topology.coast)):
        cand = coast_nodes(state, 8, start)
        if not used & set(cand) and not any(
            u in used for v in cand for u in state.topology.node_adj[v]
        ):
            break
    road(state, 1, *path(state, cand))  # B: 7 segments
    for v in (51, 53, 41, 30):  # B: 4 cities = 8 VP
        settle(state, 1, v, city=True)
    assert state.longest_road == 0 and state.total_vp(1) == 8
    # C's turn: C builds a road to the middle of A's road, then a settlement on it
    set_turn(state, seat=2)
    road(state, 2, *path(state, [inland, mid]))
    give(state, 2, "1l 1b 1w 1g")
    do(state, f"settle {mid}")
    assert state.road_length[0] == 4 and state.longest_road == 1  # IR-70 (c)
    assert state.total_vp(1) == 10 and not state.is_terminal()  # not B's turn: no win
    next_turn(state)  # D's turn
    assert state.active == 3 and not state.is_terminal()
    next_turn(state)  # A's turn
    assert state.active == 0 and not state.is_terminal()
    do(state, "end")  # B's turn starts: B wins before rolling
    assert state.is_terminal() and state.winners() == [1] and state.returns()[1] == 1.0
    assert state.turn_count() == 4 and state.phase == OVER


# ---------------------------------------------------------------- Largest Army, awards off
def test_ir72_largest_army_first_to_three_strictly_more_takes() -> None:
    state = fresh(4)
    knights_played(state, 1, 2)
    deal(state, 0, "knight", 5)
    for _k in range(3):
        set_turn(state, card_played=False)  # one card a turn: as if in later turns
        do(state, "play knight", "robber 0" if state.robber != 0 else "robber 1")
    assert state.largest_army == 0 and state.visible_vp(0) == 2
    knights_played(state, 1, 1)  # 3 knights, not more than seat 0's: seat 0 keeps it
    assert state.largest_army == 0
    deal(state, 1, "knight", 2)
    set_turn(state, seat=1, card_played=False)
    do(state, "play knight", "robber 2")  # 4 > 3: takes it
    assert state.largest_army == 1
    set_turn(state, seat=0, card_played=False)
    do(state, "play knight", "robber 3")  # 4 knights, a tie with seat 1: stays with seat 1
    assert state.knights[0] == 4 and state.largest_army == 1


def test_ir73_awards_off_give_no_points_but_track_lengths() -> None:
    state = fresh(4, longest_road=False, largest_army=False)
    road(state, 0, *path(state, coast_nodes(state, 7)))
    assert state.road_length[0] == 6 and state.longest_road == -1 and state.visible_vp(0) == 0
    deal(state, 0, "knight")
    knights_played(state, 0, 2)
    do(state, "play knight", "robber 0")
    assert state.knights[0] == 3 and state.largest_army == -1


# ---------------------------------------------------------------- winning
def test_ir4_buying_a_vp_card_wins_at_once() -> None:
    state = fresh(4)
    for v in (0, 2, 18, 40):
        settle(state, 0, v, city=True)  # 8 VP
    settle(state, 0, 51)  # 9 VP
    give(state, 0, "1w 1g 1o")
    do(state, "buy")
    state.apply(A.parse("draw vp"))
    assert state.is_terminal() and state.winners() == [0]
    view = state.observation(2)  # IR-7: everything revealed at the end
    assert all("hand" in p and "dev_hand" in p for p in view["players"])
    assert view["players"][0]["vp"] == 10 and view["winner"] == 0


def test_ir4_largest_army_can_win_at_once() -> None:
    state = fresh(4)
    for v in (0, 2, 18, 40):
        settle(state, 0, v, city=True)  # 8 VP
    knights_played(state, 0, 2)
    deal(state, 0, "knight")
    do(state, "play knight")
    assert state.is_terminal() and state.winners() == [0]


def test_ir4_ir50_the_proposers_win_while_answers_are_pending_ends_at_its_seat() -> None:
    """The proposer builds on while seats answer its offer (IR-50): a build that wins ends the
    game at the proposer's seat, not at the seat the answers had come to."""
    state = fresh(4)
    for v in (0, 2, 18):
        settle(state, 0, v, city=True)  # 6 VP
    settle(state, 0, 40)
    settle(state, 0, 51)
    deal(state, 0, "vp")  # 9 VP
    give(state, 0, "3o 2g 1l")
    offer = next(a for a in state.legal_actions() if isinstance(a, A.Offer))
    state.apply(offer)
    assert state.phase == ANSWER and state.seat != 0 and 0 in state.acting_seats()
    city = state.parse_action_for(0, "city 51")
    state.apply_for(0, city)
    assert state.is_terminal() and state.winners() == [0] and state.seat == 0


def test_ir5_points_reached_by_another_player_do_not_end_the_game() -> None:
    state = fresh(4)
    for v in (0, 2, 18, 40, 51):
        settle(state, 1, v, city=v != 51)  # seat 1: 9 VP
    deal(state, 1, "vp")  # + a VP card: 10 VP, but it is seat 0's turn
    give(state, 0, "4l")
    do(state, "trade 4l for 1o")
    assert not state.is_terminal()
    do(state, "end")  # seat 1's turn starts: wins before the roll
    assert state.is_terminal() and state.winners() == [1] and state.stat("turns", 1) == [1]


def test_ir5_ir50_a_turn_ended_with_answers_pending_can_start_with_the_next_seats_win() -> None:
    """Ending the turn with an offer open (IR-28) starts the next seat's turn, where points
    reached off-turn win (IR-5): the game ends at the winner's seat."""
    state = fresh(4)
    for v in (0, 2, 18, 40, 51):
        settle(state, 1, v, city=v != 51)  # seat 1: 9 VP
    deal(state, 1, "vp")  # 10 VP, but it is seat 0's turn
    give(state, 0, "1l")
    offer = next(a for a in state.legal_actions() if isinstance(a, A.Offer))
    state.apply(offer)
    assert state.phase == ANSWER and state.seat != 0
    state.apply_for(0, state.parse_action_for(0, "end"))
    assert state.is_terminal() and state.winners() == [1] and state.seat == 1


def test_vp_target_option() -> None:
    state = fresh(4, vp_target=12)
    for v in (0, 2, 18, 40):
        settle(state, 0, v, city=True)
    settle(state, 0, 51)
    deal(state, 0, "vp", 2)  # 11
    give(state, 0, "1w 1g 1o")
    do(state, "buy")
    state.apply(A.parse("draw knight"))
    assert not state.is_terminal()


def test_ir8_turn_cap_means_no_winner() -> None:
    game = load_game("island", 4)
    bots = [kit.checks._RandomBot() for _ in range(4)]
    result = Match(game, bots, seed=3, turn_cap=12).run()
    assert not result.finished and result.returns == [0.0] * 4
    assert not result.state.is_terminal() and result.state.turn_count() == 12
    assert game.default_turn_cap == 1000


# ---------------------------------------------------------------- special build phase
def test_ir29_no_special_build_phase_below_five_players() -> None:
    state = fresh(4)
    do(state, "end")
    assert state.phase == PRE_ROLL and state.active == 1


def test_ir30_ir31_ir32_special_build_phase() -> None:
    state = fresh(5)
    settle(state, 2, 18)
    settle(state, 4, 51)
    give(state, 2, "1l 1b 4w")
    give(state, 4, "1w 1g 1o")
    deal(state, 2, "knight")
    do(state, "end")
    assert state.phase == SPECIAL_BUILD_SIGNUP
    order = []
    for join in (False, True, False, True):  # seats 1, 2, 3, 4 answer in turn
        order.append(state.current_player())
        do(state, "sbp join" if join else "sbp pass")
    assert order == [1, 2, 3, 4]
    assert state.phase == SPECIAL_BUILD and state.current_player() == 2
    legal = texts(state)
    assert legal[0] == "end" and any(t.startswith("road") for t in legal)
    assert not any(t.startswith(("trade", "offer", "play")) for t in legal)  # IR-32
    do(state, legal[1], "end")
    assert state.current_player() == 4
    do(state, "buy")
    state.apply(A.parse("draw knight"))
    assert state.phase == SPECIAL_BUILD and "play knight" not in texts(state)
    do(state, "end")
    assert state.phase == PRE_ROLL and state.active == 1


def test_ir33_nobody_wins_in_the_special_build_phase() -> None:
    state = fresh(5)
    for v in (0, 2, 18, 40):
        settle(state, 1, v, city=True)  # seat 1: 8 VP
    settle(state, 1, 51)  # 9 VP
    give(state, 1, "1w 1g 1o")
    do(state, "end", "sbp join", "sbp pass", "sbp pass", "sbp pass")
    do(state, "buy")
    state.apply(A.parse("draw vp"))  # 10 VP in SBP: no win yet
    assert state.total_vp(1) == 10 and not state.is_terminal()
    do(state, "end")  # seat 1's own turn starts: wins then (IR-5)
    assert state.is_terminal() and state.winners() == [1]


def test_ir34_card_bought_in_sbp_playable_next_turn() -> None:
    state = fresh(5)
    give(state, 1, "1w 1g 1o")
    do(state, "end", "sbp join", "sbp pass", "sbp pass", "sbp pass", "buy")
    state.apply(A.parse("draw knight"))
    do(state, "end")
    assert state.active == 1 and state.phase == PRE_ROLL
    assert texts(state) == ["roll", "play knight"]


# ---------------------------------------------------------------- statistics
def test_ir80_summary_statistics() -> None:
    game = load_game("island", 3)
    result = kit.play_random(game, 7)
    summary = result.state.summary()
    assert summary["turns"] == result.state.turn_count() and summary["winner"] is not None
    rolls = sum(v["rolled"] for v in summary["dice"].values())
    assert rolls == sum(sum(p["rolls"].values()) for p in summary["players"])
    assert abs(sum(v["expected"] for v in summary["dice"].values()) - rolls) < 0.1
    for p in summary["players"]:
        assert sum(p["vp_breakdown"].values()) == p["vp"]
        assert set(p["gained"]) == {
            "setup",
            "production",
            "steal",
            "monopoly",
            "plenty",
            "trade",
            "bank",
            "harbor",
        }
        produced = sum(p["gained"]["production"].values())
        assert produced >= 0 and p["turns"] > 0
    steals = sum(p["steals_made"] for p in summary["players"])
    assert steals == sum(p["steals_suffered"] for p in summary["players"])
    assert summary["scores"] == result.state.scores()
    assert result.state.phase == OVER and result.state.current_player() == -2
    assert MAIN != OVER


def test_ir71_longest_road_changes_hands_in_the_special_build_phase() -> None:
    state = fresh(5)
    road(state, 0, *path(state, coast_nodes(state, 6)))  # seat 0: 5, holder
    far = coast_nodes(state, 8, start=18)
    road(state, 2, *path(state, far[:6]))  # seat 2: 5
    settle(state, 2, far[0])
    assert state.longest_road == 0
    give(state, 2, "1l 1b")
    do(state, "end", "sbp pass", "sbp join", "sbp pass", "sbp pass")
    assert state.phase == SPECIAL_BUILD and state.current_player() == 2
    do(state, f"road {path(state, far[5:7])[0]}")
    assert state.longest_road == 2 and state.visible_vp(2) == 3 and not state.is_terminal()
