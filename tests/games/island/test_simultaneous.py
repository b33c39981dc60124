"""Several seats at once (issue 12 item 5): discards after a 7 (IR-41) and answers to trade
offers (IR-48..IR-51), which never block. Any arrival order of the discarding or answering
seats gives the same state; records keep the arrival order."""

from __future__ import annotations

import itertools
import random

import pytest
from tests.games.island.helpers import Doc, deal, do, edit, fresh, give, hand, roll, texts

from hexfolk.core import AmbiguousActionError, IllegalActionError, MatchRecord, load_game, replay
from hexfolk.core import testing as kit
from hexfolk.games.island import actions as A
from hexfolk.games.island.phases import ANSWER, DISCARD, MAIN, ROBBER
from hexfolk.games.island.state import IslandState


def act(state: IslandState, seat: int, *actions: str) -> None:
    for text in actions:
        state.apply_for(seat, state.parse_action_for(seat, text))


# ------------------------------------------------------------------ the kit
@pytest.mark.parametrize(("players", "seeds"), [(3, range(3)), (4, range(3)), (6, [1])])
def test_every_arrival_order_gives_the_same_state(players: int, seeds: range) -> None:
    checked = kit.check_simultaneous(
        load_game("island", players), seeds, secret_prompts=("discard",), max_nodes=25
    )
    assert checked >= 10


# ------------------------------------------------------------------ IR-41 discards
def _seven() -> IslandState:
    state = fresh(4)
    give(state, 1, "5l 4o")  # 9 cards: discards 4
    give(state, 2, "8w")  # 8 cards: discards 4
    give(state, 3, "4g 4b")  # 8 cards: discards 4
    roll(state, 7)
    return state


def test_ir41_discarding_seats_act_at_once_the_walk_names_the_first() -> None:
    state = _seven()
    assert state.phase == DISCARD and state.current_player() == 1
    assert state.acting_seats() == [1, 2, 3] == state.simultaneous_seats()
    assert state.legal_actions_for(0) == []
    assert [str(a) for a in state.legal_actions_for(2)] == ["discard w"]
    assert state.prompt_for(3) is not None and state.prompt_for(3).data == {"need": 4, "left": 4}
    act(state, 3, "discard g")  # seat 3 before seat 1: no need to wait
    assert state.current_player() == 1 and state.acting_seats() == [1, 2, 3]
    assert state.prompt_for(3).data["left"] == 3  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError):
        state.apply_for(0, A.DISCARDS[0])  # the roller discards nothing
    with pytest.raises(IllegalActionError):
        state.parse_action_for(2, "discard o")  # seat 2 holds no ore


def test_ir41_a_partial_discard_is_seen_by_its_seat_only() -> None:
    state = _seven()
    act(state, 3, "discard g", "discard b")
    assert state.observation(3)["discards"]["selected"] == "1b 1g"
    assert state.observation(3)["prompt"]["seat"] == 3  # its own decision
    for viewer in (None, 0, 1, 2):
        view = state.observation(viewer)
        assert "selected" not in view["discards"] or viewer in (1, 2)
        assert "1b 1g" not in str(view)
    act(state, 3, "discard g", "discard g")
    assert state.observation(3)["discards"]["own"] == "1b 3g"
    assert "1b 3g" not in str(state.observation(1)) and "1b 3g" not in str(state.observation(None))
    assert state.observation(1)["discards"]["committed"] == [3]
    assert hand(state, 3) == "4b 4g"  # nothing leaves a hand before the reveal


def test_ir41_any_interleaving_of_the_discards_gives_the_same_state() -> None:
    runs = {1: ["discard o", "discard l", "discard o", "discard o"], 2: ["discard w"] * 4}
    runs[3] = ["discard g", "discard b", "discard g", "discard b"]
    prints = set()
    orders = [[1] * 4 + [2] * 4 + [3] * 4, [3, 2, 1] * 4, [2] * 4 + [3, 1] * 4]
    for order in orders:
        state = _seven()
        pos = dict.fromkeys(runs, 0)
        for seat in order:
            act(state, seat, runs[seat][pos[seat]])
            pos[seat] += 1
        assert state.phase == ROBBER and state.current_player() == 0
        assert hand(state, 1) == "4l 1o" and hand(state, 2) == "4w" and hand(state, 3) == "2b 2g"
        prints.add(state.fingerprint())
    assert len(prints) == 1
    log = state.observation(None)["log"]
    assert log[-3:] == ["seat 1 discards 1l 3o", "seat 2 discards 4w", "seat 3 discards 2b 2g"]


def test_ir41_sampled_worlds_redraw_other_seats_partial_discards() -> None:
    state = _seven()
    act(state, 1, "discard o")
    act(state, 3, "discard g")
    rng = random.Random(1)
    for viewer in (None, 0, 1, 2, 3):
        world = state.sample_consistent_state(viewer, rng)
        assert world.observation(viewer) == state.observation(viewer)
        assert world.acting_seats() == state.acting_seats()
        for seat in world.acting_seats():
            assert sum(world.discard_partial[seat]) == sum(state.discard_partial[seat])
        if viewer is not None:  # the viewer's own decision is the same in every world
            assert world.legal_actions_for(viewer) == state.legal_actions_for(viewer)
            assert world.prompt_for(viewer) == state.prompt_for(viewer)


# ------------------------------------------------------------------ offers never block
def _offer(players: int = 4) -> IslandState:
    state = fresh(players)
    give(state, 0, "2l 1w")
    give(state, 1, "1o")
    give(state, 2, "1o 1b")
    give(state, 3, "1o")
    do(state, "offer 1l for 1o")
    return state


def test_ir50_every_seat_may_answer_and_the_proposer_plays_on() -> None:
    state = _offer()
    assert state.phase == ANSWER and state.current_player() == 1  # the walk asks in order
    assert state.acting_seats() == [0, 1, 2, 3]
    assert state.simultaneous_seats() == [1, 2, 3]  # the proposer races them
    assert "end" in [str(a) for a in state.legal_actions_for(0)]
    assert state.prompt_for(0).kind == "main" and state.prompt_for(3).kind == "answer"  # type: ignore[union-attr]
    act(state, 3, "accept 1")
    assert state.offers[0].answers[3] == "accept" and state.current_player() == 1
    # the proposer completes with seat 3 at once: seats 1 and 2 never answered
    act(state, 0, "complete 1 with 3")
    assert hand(state, 0) == "1l 1w 1o" and hand(state, 3) == "1l"
    assert state.phase == MAIN and state.current_player() == 0 and state.acting_seats() == [0]
    log = state.observation(None)["log"]
    assert log[-2:] == [
        "answers to offer #1: seat 1 does not answer, seat 2 does not answer, seat 3 accepts",
        "seat 0 trades 1l for 1o with seat 3",
    ]
    with pytest.raises(IllegalActionError):
        act(state, 1, "accept 1")  # the offer is closed


def test_ir50_answers_commute_and_the_last_one_writes_the_answers_line() -> None:
    prints = set()
    for order in itertools.permutations([1, 2, 3]):
        state = _offer()
        answers = {1: "reject 1", 2: "counter 1: 1b for 1l", 3: "accept 1"}
        for seat in order:
            act(state, seat, answers[seat])
        assert state.phase == MAIN and state.current_player() == 0
        prints.add(state.fingerprint())
    assert len(prints) == 1
    assert state.observation(2)["log"][-1] == (
        "answers to offer #1: seat 1 rejects, seat 2 counters 1b for 1l, seat 3 accepts"
    )
    assert "complete 1 with 2" in texts(state) and "complete 1 with 3" in texts(state)


def test_ir50_the_proposer_may_build_while_answers_are_pending() -> None:
    state = _offer()
    give(state, 0, "1b 1g")
    act(state, 0, "offer 1w for 1b")  # a second offer, before anyone answered the first
    assert [o.id for o in state.offers] == [1, 2]
    with pytest.raises(AmbiguousActionError):
        state.parse_action_for(2, "reject")  # which offer?
    act(state, 2, "reject 2", "accept 1")
    assert state.current_player() == 1 and state.acting_seats() == [0, 1, 3]
    act(state, 0, "complete 1 with 2")
    assert hand(state, 2) == "1l 1b"
    assert state.phase == ANSWER and state.current_player() == 1  # offer 2 still open


def test_ir51_withdrawn_unanswered_offer_counts_as_rejected() -> None:
    state = _offer()
    act(state, 1, "reject 1")
    act(state, 0, "withdraw 1")
    assert state.phase == MAIN and state.offers == []
    assert state.observation(None)["log"][-2] == (
        "answers to offer #1: seat 1 rejects, seat 2 does not answer, seat 3 does not answer"
    )
    with pytest.raises(IllegalActionError):
        state.parse_action("offer 1l for 1o")  # IR-51: not re-sent unchanged this turn


def test_ir28_ending_the_turn_closes_offers_missing_answers_are_rejections() -> None:
    state = _offer()
    act(state, 2, "accept 1")
    act(state, 0, "end")
    assert state.offers == [] and state.active == 1
    assert "seat 0's open offers are withdrawn" in state.observation(None)["log"]


def test_decline_all_rejects_at_once_and_is_never_asked() -> None:
    state = _offer()
    assert "decline-all on" not in [str(a) for a in state.legal_actions_for(1)]  # typed only
    act(state, 1, "decline-all on")
    assert state.offers[0].answers[1] == "reject" and state.current_player() == 2
    assert state.observation(3)["players"][1]["declines_offers"] is True
    act(state, 2, "reject 1")
    act(state, 3, "reject 1")
    assert state.offers == []  # rejected by everyone
    give(state, 0, "1b")
    do(state, "offer 1b for 1o")
    assert state.offers[0].answers[1] == "reject" and state.current_player() == 2
    with pytest.raises(IllegalActionError):
        act(state, 1, "decline-all on")  # not acting now, and already on
    do(state, "reject 2", "reject 2")
    do(state, "end")  # seat 1's turn: it may switch it off
    assert state.current_player() == 1
    do(state, "decline-all off")
    assert "declines_offers" not in state.observation(0)["players"][1]


def test_all_seats_declining_closes_an_offer_at_once() -> None:
    state = fresh(3)
    give(state, 0, "1l")

    def declines(doc: Doc) -> None:  # the position where seats 1 and 2 decline every offer
        for seat in (1, 2):
            doc["seats"][seat]["declines_offers"] = True

    edit(state, declines)
    do(state, "offer 1l for 1o")
    assert state.phase == MAIN and state.offers == [] and state.current_player() == 0


def test_old_answer_texts_still_parse_as_shorthands() -> None:
    state = _offer()
    assert state.parse_action("accept") == A.Accept(1)
    assert state.parse_action("counter 1o for 2l") == A.Counter((0, 0, 0, 0, 1), (2, 0, 0, 0, 0), 1)
    do(state, "reject", "accept", "reject")
    assert state.current_player() == 0


def test_a_knight_while_answers_are_pending_comes_back_to_them() -> None:
    state = _offer()
    deal(state, 0, "knight")  # a knight bought before this turn
    act(state, 0, "play knight")
    assert state.phase == ROBBER and state.acting_seats() == [0]  # answers wait for the main phase
    move = state.legal_actions()[0]
    state.apply(move)
    while state.is_chance():
        state.apply(state.chance_outcomes()[0][0])
    assert state.phase == ANSWER and state.current_player() == 1 and 0 in state.acting_seats()


# ------------------------------------------------------------------ records
def test_records_keep_answers_that_arrive_out_of_order() -> None:
    game = load_game("island", 4, {"board": "beginner"})
    result = kit.play_random(game, 3, turn_cap=40)
    # replay until the first offer, then let seat 3 answer before seats 1 and 2
    state = game.new_initial_state()
    steps: list[tuple[int | None, str]] = []
    for action in result.actions:
        if state.phase == ANSWER and len(state.simultaneous_seats()) >= 2:
            break
        steps.append((None, str(action)))
        state.apply(action)
    else:
        pytest.skip("no offer in this game")
    for seat in reversed(state.simultaneous_seats()):
        action = state.legal_actions_for(seat)[-1]
        steps.append((seat, str(action)))
        state.apply_for(seat, action)
    record = MatchRecord.from_steps(game, 3, steps)
    assert any(e.startswith("@") for e in record.actions)
    assert replay(MatchRecord.loads(record.dumps()), game=game).fingerprint() == state.fingerprint()


# ------------------------------------------------------------------ IR-30 special build sign-up
def test_ir30_sign_ups_arrive_in_any_order_slots_stay_in_seat_order() -> None:
    prints = set()
    for order in ([1, 2, 3, 4], [4, 3, 2, 1], [3, 1, 4, 2]):
        state = fresh(5)
        do(state, "end")
        assert state.acting_seats() == [1, 2, 3, 4] == state.simultaneous_seats()
        assert state.current_player() == 1
        answers = {1: "sbp pass", 2: "sbp join", 3: "sbp pass", 4: "sbp join"}
        for seat in order:
            act(state, seat, answers[seat])
        assert state.sbp_joined == [2, 4] and state.current_player() == 2  # IR-31
        prints.add(state.fingerprint())
    assert len(prints) == 1
    assert state.observation(None)["log"][-4:] == [
        "seat 1 passes the special build phase",
        "seat 2 signs up for the special build phase",
        "seat 3 passes the special build phase",
        "seat 4 signs up for the special build phase",
    ]


def test_decline_all_beside_the_walk_keeps_the_seat_to_move() -> None:
    state = _seven()
    act(state, 3, "decline-all on")  # seat 3 discards later; the walk still names seat 1
    assert state.current_player() == 1 and state.decline_all == 0b1000
    state = fresh(5)
    do(state, "end")
    act(state, 4, "decline-all on")
    assert state.current_player() == 1 and state.acting_seats() == [1, 2, 3, 4]


def test_records_keep_a_proposer_that_completes_before_the_others_answer() -> None:
    """The proposer races the answers: it completes with the last seat of the walk while the
    seats before it have not answered; both steps are written with their seat."""
    game = load_game("island", 4, {"board": "beginner"})
    for seed in range(30):
        result = kit.play_random(game, seed, turn_cap=60)
        state = game.new_initial_state()
        steps: list[tuple[int | None, str]] = []
        for action in result.actions:
            if state.phase == ANSWER and len(state.simultaneous_seats()) >= 2:
                last = state.simultaneous_seats()[-1] if state.active == 0 else None
                oid = state.offers[-1].id
                if last is not None and A.Accept(oid) in state.legal_actions_for(last):
                    break
            steps.append((None, str(action)))
            state.apply(action)
        else:
            continue
        state.apply_for(last, A.Accept(oid))
        complete = A.Complete(oid, last)
        if complete not in state.legal_actions_for(0):
            continue
        state.apply_for(0, complete)
        steps += [(last, str(A.Accept(oid))), (0, str(complete))]
        record = MatchRecord.from_steps(game, seed, steps)
        assert record.actions[-2:] == [f"@{last} accept {oid}", f"@0 complete {oid} with {last}"]
        assert "does not answer" in state.observation(None)["log"][-2]
        assert replay(record, game=game).fingerprint() == state.fingerprint()
        return
    pytest.skip("no such offer in these games")
