"""The turn clock's defaults (IR-26..IR-28): one test per row of IR-28's table, and the property
that defaults always end the expired turn with legal actions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit
from hexfolk.games.island import actions as A
from hexfolk.games.island import timeouts as T
from hexfolk.games.island.phases import MAIN, PHASE_NAMES, PRE_ROLL, ROAD_BUILDING, ROBBER
from hexfolk.games.island.rules import DEV_NAMES
from hexfolk.games.island.state import IslandState

from .helpers import deal, do, fresh, give, set_turn, settle

CHANCE_KINDS = {"layout", "dice", "steal", "draw", "over"}
"""Phases that never ask a seat (chance nodes and the end)."""
TURN_BOUND = 40
"""Defaults one expired turn may take at most (discarding 20 cards of 40 is the longest)."""


def expire(state: IslandState, seat: int, rng: random.Random, cap: int = 200) -> list[str]:
    """The table's loop for ``seat``'s expired clock: apply its default, resolve chance, and
    ask again while the seat still owes a decision of the same turn or step (a setup placement
    ends with its road). Every applied default is checked legal for the seat. Returns the prompt
    kinds answered."""
    turn = state.turn_count()
    kinds: list[str] = []
    while not state.is_terminal() and state.turn_count() == turn:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        if seat not in state.acting_seats():
            break
        legal = state.legal_actions_for(seat)
        kind = T.pending_kind(state, seat)
        action = state.timeout_action(seat, rng)
        assert action is not None, kind
        # every default is listed, but the forfeit of Road Building (typed, not listed)
        assert action in legal or (kind == "road-building" and state.is_legal(action)), (
            kind,
            str(action),
        )
        state.apply_for(seat, action)
        kinds.append(kind)
        assert len(kinds) <= cap, kinds[-10:]
        if kind == "setup-road":
            break  # IR-27: each setup placement is a step of its own (the turn count stays 0)
    return kinds


def start(players: int = 4, seed: int = 0, **options: object) -> IslandState:
    game = load_game("island", players, {"board": "beginner", **options})
    state = kit.start_position(game, seed)
    assert isinstance(state, IslandState)
    return state


def test_every_decision_kind_has_a_default() -> None:
    assert set(T.DEFAULTS) == set(PHASE_NAMES) - CHANCE_KINDS


def test_timeout_action_is_none_for_a_seat_that_owes_nothing() -> None:
    state = fresh(4)
    assert state.timeout_action(1, random.Random(0)) is None
    assert state.timeout_action(0, random.Random(0)) is not None


def test_ir16_defaults_depend_only_on_the_state_and_the_rng() -> None:
    state = start(4)
    picks = {str(state.clone().timeout_action(0, random.Random(7))) for _ in range(5)}
    assert len(picks) == 1


# ---------------------------------------------------------------- IR-28, row by row
def test_ir28_setup_settlement_highest_pip_sum_random_tie_break() -> None:
    state = start(4)
    assert state.layout_tables is not None
    pips = state.layout_tables.node_pips
    legal = [a for a in state.legal_actions() if isinstance(a, A.BuildSettlement)]
    best = max(pips[a.node] for a in legal)
    top = {a.node for a in legal if pips[a.node] == best}
    chosen: Counter[int] = Counter()
    for seed in range(60):
        a = state.timeout_action(0, random.Random(seed))
        assert isinstance(a, A.BuildSettlement) and a in legal
        chosen[a.node] += 1
    assert set(chosen) <= top
    assert set(chosen) == top  # each spot of the best pip sum comes up


def test_ir28_setup_settlement_ties_are_broken_at_random() -> None:
    rng = random.Random(3)
    for seed in range(20):  # a board whose best pip sum is shared by several spots
        state = start(4, seed, board="standard")
        assert state.layout_tables is not None
        pips = state.layout_tables.node_pips
        legal = [a for a in state.legal_actions() if isinstance(a, A.BuildSettlement)]
        best = max(pips[a.node] for a in legal)
        top = {a.node for a in legal if pips[a.node] == best}
        if len(top) > 1:
            break
    else:
        pytest.fail("no standard board among 20 seeds has a tie for the best spot")
    chosen = set()
    for _ in range(80):
        a = state.timeout_action(0, random.Random(rng.random()))
        assert isinstance(a, A.BuildSettlement)
        chosen.add(a.node)
    assert chosen == top


def test_ir28_setup_road_is_a_random_legal_road_touching_the_settlement() -> None:
    state = start(4)
    do(state, "settle 18")
    touching = {f"road {e}" for e in state.topology.node_edges[18]}
    chosen = {str(state.timeout_action(0, random.Random(s))) for s in range(40)}
    assert chosen <= touching and len(chosen) > 1


def test_ir27_ir28_setup_placements_time_out_to_a_complete_setup() -> None:
    state = start(5)
    rng = random.Random(1)
    placements = 0
    while PHASE_NAMES[state.phase] in ("setup-settlement", "setup-road"):
        assert expire(state, state.current_player(), rng) == ["setup-settlement", "setup-road"]
        placements += 1
    assert placements == 2 * 5
    assert state.phase == PRE_ROLL and state.turn_count() == 1
    assert all(len(state.buildings[p]) == 2 and len(state.roads[p]) == 2 for p in range(5))


def _at_first_roll(players: int = 4, seed: int = 0) -> IslandState:
    state = start(players, seed)
    rng = random.Random(seed)
    while PHASE_NAMES[state.phase] in ("setup-settlement", "setup-road"):
        expire(state, state.current_player(), rng)
    assert state.phase == PRE_ROLL
    return state


def test_ir28_expiry_before_the_roll_rolls_and_ends_the_turn() -> None:
    state = _at_first_roll()
    p = state.current_player()
    assert state.timeout_action(p, random.Random(0)) == A.ROLL
    state.apply_for(p, A.ROLL)
    state.apply(A.DICE[8])
    assert state.phase == MAIN
    assert state.timeout_action(p, random.Random(0)) == A.END  # main phase: end the turn
    state.apply_for(p, A.END)
    assert state.turn_count() == 2 and state.current_player() == (p + 1) % 4


def test_ir28_expiry_before_the_roll_resolves_a_seven_with_defaults() -> None:
    state = _at_first_roll()
    p = state.current_player()
    give(state, p, "3l 3b 2w 2g")  # 10 cards and more from setup: the roller discards
    before = sum(state.hands[p])
    rng = random.Random(5)
    state.apply_for(p, state.timeout_action(p, rng))  # type: ignore[arg-type]
    state.apply(A.DICE[7])
    kinds = expire(state, p, rng)
    assert kinds == ["discard"] * (before // 2) + ["robber", "main"]
    assert sum(state.hands[p]) <= before - before // 2 + 1  # + a stolen card at most
    assert state.turn_count() == 2


def test_ir28_a_knight_before_the_roll_is_resolved_then_rolled() -> None:
    state = _at_first_roll()
    p = state.current_player()
    deal(state, p, "knight")  # an old knight
    do(state, "play knight")
    assert state.phase == ROBBER
    kinds = expire(state, p, random.Random(2))
    assert kinds[:2] == ["robber", "pre-roll"] and kinds[-1] == "main"
    assert state.turn_count() == 2


def test_ir28_discard_the_required_number_at_random() -> None:
    outcomes = set()
    for seed in range(12):
        state = fresh(4)
        give(state, 0, "4l 4b 2o")  # 10 cards: discard 5
        give(state, 2, "3w 3g 2o")  # 8 cards: discard 4
        set_turn(state, phase="dice")
        state.apply(A.DICE[7])
        rng = random.Random(seed)
        assert expire(state, 2, rng) == ["discard"] * 4
        kinds = expire(state, 0, rng)
        assert kinds[:5] == ["discard"] * 5
        assert sum(state.hands[0]) == 5 or kinds[5:] == ["robber", "main"]
        assert sum(state.hands[2]) in (4, 3)  # 3 when the robber stole from seat 2
        outcomes.add(tuple(state.hands[0]))
    assert len(outcomes) > 3  # random, not a fixed choice


def test_ir28_discard_draws_from_the_cards_still_held() -> None:
    state = fresh(4)
    give(state, 0, "7l 1o 6w")  # 14 cards: discard 7
    set_turn(state, phase="dice")
    state.apply(A.DICE[7])
    counts: Counter[int] = Counter()
    for seed in range(300):
        a = state.timeout_action(0, random.Random(seed))
        assert isinstance(a, A.Discard)
        counts[a.resource] += 1
    # lumber 7 times as likely as ore: a uniform random card of the hand
    assert counts[0] > 4 * counts[4] > 0
    do(state, "discard l", "discard l", "discard l", "discard l", "discard l")
    counts.clear()
    for seed in range(300):  # 2 lumber and 1 ore not yet chosen: lumber twice as likely
        a = state.timeout_action(0, random.Random(seed))
        assert isinstance(a, A.Discard)
        counts[a.resource] += 1
    assert counts[4] > 0 and 1.4 < counts[0] / counts[4] < 3


def _robber_position() -> IslandState:
    state = fresh(4)
    settle(state, 0, 18)
    set_turn(state, phase="robber")  # a 7 was rolled (no card above the limit)
    return state


def test_ir28_robber_prefers_a_hex_without_own_buildings() -> None:
    state = _robber_position()
    own = set(state.topology.node_hexes[18])
    legal = state.legal_actions()
    chosen = set()
    for seed in range(200):
        a = state.timeout_action(0, random.Random(seed))
        assert isinstance(a, A.MoveRobber) and a in legal
        chosen.add(a.hex)
    assert not chosen & own
    assert chosen == {a.hex for a in legal if isinstance(a, A.MoveRobber)} - own  # any of them


def test_ir28_robber_victim_is_a_random_eligible_one() -> None:
    state = fresh(4)
    h = (state.robber + 1) % state.topology.num_hexes  # not where the robber stands
    corners = state.topology.hex_nodes[h]
    settle(state, 1, corners[0])
    settle(state, 2, corners[2])
    settle(state, 3, corners[4])  # seat 3 holds no card: not eligible (IR-43)
    give(state, 1, "1l")
    give(state, 2, "1o")
    set_turn(state, phase="robber")
    victims: Counter[int] = Counter()
    for seed in range(600):
        a = state.timeout_action(0, random.Random(seed))
        assert isinstance(a, A.MoveRobber)
        if a.hex == h:
            victims[a.victim] += 1
    assert set(victims) == {1, 2}


def _road_building(before_roll: bool = False) -> IslandState:
    state = fresh(4)
    settle(state, 0, 18)
    deal(state, 0, "roads")  # an old Road Building card
    if before_roll:
        set_turn(state, phase="pre-roll", rolled=False)
    do(state, "play roads")
    assert state.phase == ROAD_BUILDING
    return state


def test_ir28_road_building_forfeits_the_unplaced_roads() -> None:
    state = _road_building()
    do(state, str(state.legal_actions()[0]))  # one road placed by hand
    left = state.roads_left[0]
    a = state.timeout_action(0, random.Random(0))
    assert a == A.END
    # typed, not listed: a player is asked to place the roads (IR-64); only the clock gives up
    assert a not in state.legal_actions() and state.is_legal(a)
    assert state.parse_action("end") == A.END
    state.apply_for(0, A.END)
    assert state.phase == MAIN and state.roads_left[0] == left and state.free_roads == 0
    assert state.visible_log(None)[-1] == "seat 0 forfeits 1 unplaced road(s)"
    assert expire(state, 0, random.Random(0)) == ["main"]  # and the turn ends
    assert state.turn_count() == 2


def test_ir28_road_building_before_the_roll_forfeits_then_rolls() -> None:
    state = _road_building(before_roll=True)
    kinds = expire(state, 0, random.Random(4))
    assert kinds[:2] == ["road-building", "pre-roll"] and kinds[-1] == "main"
    assert state.roads_left[0] == 15  # no road placed


def test_ir28_road_building_forfeit_replays_from_the_record() -> None:
    game = load_game("island", 4, {"board": "beginner"})
    rng = random.Random(11)
    for _ in range(50):  # random games until one reaches Road Building
        state = game.new_initial_state()
        assert isinstance(state, IslandState)
        texts: list[str] = []
        forfeited = after = 0
        while not state.is_terminal() and state.turn_count() < 300 and after < 30:
            if state.is_chance():
                action = state.sample_chance(rng)
            elif PHASE_NAMES[state.phase] == "road-building" and not forfeited:
                forfeit = state.timeout_action(state.current_player(), rng)
                assert forfeit == A.END
                action = forfeit
                forfeited = len(texts)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
            texts.append(str(action))
            after += bool(forfeited)
        if forfeited:
            break
    else:
        pytest.fail("no random game of 50 reached Road Building")
    assert texts[forfeited] == "end"
    replay = game.new_initial_state()
    for text in texts:
        replay.apply(replay.parse_action(text))
    assert replay.fingerprint() == state.fingerprint()


def test_ir28_open_offers_are_withdrawn_then_the_turn_ends() -> None:
    state = fresh(4)
    give(state, 0, "1l 1b")
    for seat in (1, 2, 3):
        give(state, seat, "1o 1g")
    do(state, "offer 1l for 1o")
    rng = random.Random(0)
    kinds = expire(state, 0, rng)
    assert kinds == ["main", "main"]  # withdraw the offer, then end
    log = state.visible_log(None)
    assert any("withdraws offer #1" in line for line in log)
    assert state.turn_count() == 2 and not state.offers


def test_ir28_an_unanswered_offer_is_rejected() -> None:
    state = fresh(4)
    give(state, 0, "1l")
    give(state, 1, "1o")
    do(state, "offer 1l for 1o")
    assert 1 in state.acting_seats()
    a = state.timeout_action(1, random.Random(0))
    assert isinstance(a, A.Reject)
    assert expire(state, 1, random.Random(0)) == ["answer"]
    assert 1 not in state.acting_seats()
    assert state.observation(None)["offers"][0]["answers"]["1"] == "reject"


def test_ir28_sbp_sign_up_defaults_to_not_signed_up() -> None:
    state = fresh(5)
    do(state, "end")
    rng = random.Random(0)
    for seat in (1, 2, 3, 4):
        assert state.timeout_action(seat, rng) in (A.SBP_PASS, None)
        assert expire(state, seat, rng) in (["sbp-signup"], [])
    assert state.turn_count() == 2 and state.active == 1 and state.phase == PRE_ROLL
    assert all(state.stat("sbp_slots", q) == [0] for q in range(5))


def test_ir28_sbp_slot_defaults_to_pass() -> None:
    state = fresh(5)
    give(state, 2, "1l 1b")
    do(state, "end")
    for text in ("sbp pass", "sbp join", "sbp pass", "sbp pass"):
        do(state, text)
    assert PHASE_NAMES[state.phase] == "sbp-build" and state.current_player() == 2
    assert expire(state, 2, random.Random(0)) == ["sbp-build"]
    assert state.roads_left[2] == 15 and state.turn_count() == 2


def test_ir28_plenty_and_monopoly_leave_no_choice_pending() -> None:
    # the engine takes the choice with the card, so IR-28's rows for them never arise;
    # and a default never plays a card
    state = fresh(4)
    deal(state, 0, "plenty")
    do(state, "play plenty 1l 1o")
    assert PHASE_NAMES[state.phase] == "main"
    state = fresh(4)
    deal(state, 0, "monopoly")
    do(state, "play monopoly w")
    assert PHASE_NAMES[state.phase] == "main"
    state = fresh(4)
    for card in DEV_NAMES:
        deal(state, 0, card)
    assert state.timeout_action(0, random.Random(0)) == A.END


# ---------------------------------------------------------------- the property
def _positions(players: int, games: int, every: int) -> Iterator[tuple[IslandState, random.Random]]:
    """States along random games (several seats act at random, chance from a seeded RNG),
    one every ``every`` decisions, each with its own RNG."""
    game = load_game("island", players)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        assert isinstance(state, IslandState)
        steps = 0
        while not state.is_terminal() and state.turn_count() < 120:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            steps += 1
            if steps % every == 0:
                yield state.clone(), random.Random(rng.random())
            seat = rng.choice(state.acting_seats())
            legal = state.legal_actions_for(seat)
            state.apply_for(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("players", [2, 4, 5, 7])
def test_ir28_defaults_end_the_expired_turn_from_random_positions(players: int) -> None:
    seen: Counter[str] = Counter()
    for state, rng in _positions(players, games=6, every=23):
        # the table's loop for one expired seat: its defaults only, bounded
        seat = rng.choice(state.acting_seats())
        mine = state.clone()
        kinds = expire(mine, seat, rng)
        seen.update(kinds)
        assert kinds and len(kinds) <= TURN_BOUND
        assert (
            mine.is_terminal()
            or mine.turn_count() != state.turn_count()
            or seat not in mine.acting_seats()
            or kinds[-1] == "setup-road"  # the snake's last seat places again: a new step
        )
        # every seat away: the defaults of whoever is to move end the active player's turn
        everyone = state.clone()
        turn = everyone.turn_count()
        for _ in range(TURN_BOUND * players):
            if everyone.is_terminal() or everyone.turn_count() != turn:
                break
            if everyone.is_chance():
                everyone.apply(everyone.sample_chance(rng))
                continue
            expire(everyone, everyone.current_player(), rng)
        assert everyone.is_terminal() or everyone.turn_count() != turn
    # the walk met the frequent decisions (rare ones have their own tests above)
    assert {"pre-roll", "main", "answer", "robber"} <= set(seen), seen
    if players >= 5:
        assert "sbp-signup" in seen


def test_ir28_defaults_hold_in_every_hand_size() -> None:
    # a huge hand's discard is bounded too (one card per action, IR-41: half rounded down)
    state = fresh(4)
    give(state, 0, "9l 9b 9w 9g 4o")
    set_turn(state, phase="dice")
    state.apply(A.DICE[7])
    kinds = expire(state, 0, random.Random(0))
    assert kinds.count("discard") == 20 and kinds[-1] == "main"
    assert sum(state.hands[0]) == 20  # nobody else holds a card: nothing stolen
