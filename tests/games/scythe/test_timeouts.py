"""The turn clock's defaults (issue 12, ``docs/scythe.md`` "Turn clock defaults"): one test per
prompt kind, and the property that defaults always end the expired turn with legal actions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from hexfolk.core import load_game
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe import timeouts as T
from hexfolk.games.scythe.actions import Commit, Reveal, Step
from hexfolk.games.scythe.state import PHASE_NAMES, ScytheState

from .helpers import (
    L,
    clear_board,
    give,
    hand,
    legal,
    play,
    position,
    put_char,
    put_mech,
    put_res,
    put_workers,
    res_at,
    set_hand,
    set_objectives,
)
from .test_cards import encounter_position, factory_position
from .test_combat import battle

TURN_BOUND = 60
"""Defaults one expired turn may take at most (a move of 3 units with cargo and combats, an
encounter's gains and a paid bottom action stay far below)."""


def expire(state: ScytheState, seat: int, rng: random.Random, cap: int = 200) -> list[str]:
    """The table's loop for ``seat``'s expired clock: apply its default, resolve chance, and
    ask again while the seat still owes a decision of the same turn. Every applied default is
    checked legal (and listed) for the seat. Returns the prompt kinds answered."""
    turn = state.turn_count()
    kinds: list[str] = []
    while not state.is_terminal() and state.turn_count() == turn:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        if seat not in state.acting_seats():
            break
        legal_now = state.legal_actions_for(seat)
        kind = T.pending_kind(state, seat)
        action = state.timeout_action(seat, rng)
        assert action is not None and action in legal_now, (kind, str(action))
        state.apply_for(seat, action)
        kinds.append(kind)
        assert len(kinds) <= cap, kinds[-10:]
    return kinds


def kind(state: ScytheState) -> str:
    prompt = state.prompt()
    return prompt.kind if prompt is not None else ""


def default(state: ScytheState, seat: int | None = None) -> str:
    seat = state.current_player() if seat is None else seat
    return str(state.timeout_action(seat, random.Random(0)))


def test_every_decision_kind_has_a_default() -> None:
    assert set(T.DEFAULTS) == set(PHASE_NAMES) - {"setup", "over"}


def test_timeout_action_is_none_for_a_seat_that_owes_nothing() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    assert s.timeout_action(1 - s.active, random.Random(0)) is None


# ---------------------------------------------------------------- a whole turn
def test_sr8_an_expired_turn_is_a_dead_turn() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    p = s.active
    before = (s.coins[p], s.power[p], s.popularity[p], s.upgrades[p], s.star_total[p], hand(s, p))
    kinds = expire(s, p, random.Random(0))
    # SR-6/SR-8: the token moves to the first legal section; nothing else is taken (SR-7)
    assert kinds[:3] == ["choose-section", "top-action", "bottom-action"]
    assert kinds[3:] in ([], ["end-turn"])  # the reveal window, when objectives are held
    assert s.last_section[p] == 0 and s.turn_count() == 1 and s.active != p
    assert (
        s.coins[p],
        s.power[p],
        s.popularity[p],
        s.upgrades[p],
        s.star_total[p],
        hand(s, p),
    ) == before


def test_sr6_expired_turns_alternate_the_first_two_sections() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    sections = []
    rng = random.Random(0)
    for _ in range(6):
        p = s.active
        expire(s, p, rng)
        sections.append(s.last_section[p])
    assert sections == [0, 0, 1, 1, 0, 0]  # never last turn's section (SR-6)


def test_sr6_relentless_may_repeat_and_the_factory_card_is_never_chosen() -> None:
    s = position("rusviet,crimea", "engineering,industrial")
    rusviet = s.faction.index(D.FACTION_INDEX["rusviet"])
    give(s, rusviet, factory_card=4)
    sections: dict[int, list[int]] = {0: [], 1: []}
    rng = random.Random(0)
    for _ in range(4):
        p = s.active
        if p == rusviet:
            assert "section factory" in legal(s)  # the timeout passes it over
        expire(s, p, rng)
        sections[p].append(s.last_section[p])
    assert sections[rusviet] == [0, 0]  # Relentless may repeat a mat section (SR-6)
    assert sections[1 - rusviet] == [0, 1]


# ---------------------------------------------------------------- one prompt kind each
def with_a_held_objective() -> ScytheState:
    """Seat 0 (to play) holds objective 12, "have at least $20", and has $20 (SR-51)."""
    s = position("nordic,crimea", "industrial,engineering")
    set_objectives(s, 0, [12])
    give(s, 0, coins=20)
    return s


def test_sr7_top_action_is_skipped_even_when_a_reveal_is_possible() -> None:
    s = with_a_held_objective()
    play(s, "section 1")
    assert any(isinstance(a, Reveal) for a in s.legal_actions())
    assert default(s) == "skip"


def test_sr16_choose_unit_is_done() -> None:
    s = battle()
    put_workers(s, 0, "r3c2", 1)
    play(s, "section 3", "move worker r3c2", "to r3c3")
    assert kind(s) == "choose-unit"
    assert default(s) == "done"


def test_sr31_step_goes_where_no_opponent_stands() -> None:
    s = battle()  # P1's mech and worker on the Factory r4c3, next to P0's character on r3c3
    pop = s.popularity[0]
    play(s, "section 3", "move character r3c3")
    assert kind(s) == "step" and "to r4c3" in legal(s)
    a = s.timeout_action(0, random.Random(0))
    assert isinstance(a, Step) and a.loc != L("r4c3")
    kinds = expire(s, 0, random.Random(0))
    assert "commit" not in kinds and s.popularity[0] == pop and s.turn_count() == 1


def test_sr31_step_displaces_no_worker() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_workers(s, 1, "r2c3", 1)
    put_workers(s, 1, "r3c2", 1)
    pop = s.popularity[0]
    play(s, "section 3", "move character r3c3")
    assert legal(s) == ["to r2c3", "to r3c2", "to r4c3"]
    assert default(s) == "to r4c3"  # the one step that displaces nobody
    expire(s, 0, random.Random(0))
    assert (
        s.popularity[0] == pop
        and s.workers_on[L("r2c3") * 2 + 1] == 1
        and s.workers_on[L("r3c2") * 2 + 1] == 1
    )
    # with an opponent on every destination the unit still steps (its first step is owed)
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    for t in ("r2c3", "r3c2", "r4c3"):
        put_workers(s, 1, t, 1)
    play(s, "section 3", "move character r3c3")
    assert default(s) == "to r2c3"


def test_sr34_step_stops_a_speed_unit_after_its_first_step() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 0, "speed", "r1c6")
    play(s, "section 3", "move character r3c3", "to r3c2")
    assert kind(s) == "step" and legal(s)[0] == "stop"
    assert default(s) == "stop"


def test_sr30_carry_takes_nothing_before_the_first_step() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_mech(s, 0, "riverwalk", "r3c3")
    put_workers(s, 0, "r3c3", 2)
    put_res(s, "r3c3", "oil", 2)
    play(s, "section 3", "move mech r3c3")
    assert kind(s) == "carry"
    assert default(s) == "carry none"


def test_sr30_carry_keeps_the_cargo_mid_move() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_mech(s, 0, "speed", "r3c3")
    put_res(s, "r3c3", "oil", 2)
    put_res(s, "r3c2", "wood", 1)
    play(s, "section 3", "move mech r3c3", "carry 2oil", "to r3c2")
    assert kind(s) == "carry"
    assert default(s) == "carry 2oil"  # what the mech holds stays with it


def test_sr18_second_trade_token_is_taken_once_paid() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    coins = s.coins[0]
    play(s, "section 4")
    first = next(t for t in legal(s) if t.startswith("trade ") and t != "trade popularity")
    play(s, first)
    assert kind(s) == "trade-second-token" and s.coins[0] == coins - 1
    second = default(s)
    assert second.startswith("trade ") and second == legal(s)[1]


def test_sr19_produce_goes_on_once_paid() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    play(s, "section 2")
    first = next(t for t in legal(s) if t.startswith("produce "))
    play(s, first)
    assert kind(s) == "produce"
    assert default(s) == next(t for t in legal(s) if t.startswith("produce "))
    kinds = expire(s, 0, random.Random(0))
    assert kinds[0] == "produce" and kinds[-1] in ("bottom-action", "end-turn")


def test_sr43_combat_defaults_first_combat_no_artillery_dial_zero_no_cards() -> None:
    s = battle()
    put_mech(s, 0, "artillery", "r3c2")
    put_mech(s, 0, "speed", "r1c6")
    put_char(s, 1, "r2c5")
    power, cards = list(s.power), [hand(s, 0), hand(s, 1)]
    play(s, "section 3", "move character r3c3", "to r4c3", "move mech r1c6", "to r2c5")
    assert kind(s) == "choose-combat"
    assert default(s) == "fight r2c5"  # the first listed combat
    play(s, "fight r2c5")
    assert kind(s) == "artillery" and default(s) == "no artillery"
    play(s, "no artillery")
    assert kind(s) == "commit"
    for seat in s.acting_seats():
        a = s.timeout_action(seat, random.Random(0))
        assert a == Commit(0, ())  # SR-43 C2: nothing is spent
    while kind(s) == "commit":
        seat = s.acting_seats()[0]
        s.apply_for(seat, Commit(0, ()))
    assert s.power[1] == power[1] and hand(s, 1) == cards[1]


def test_sr43_the_defenders_commitment_defaults_to_nothing() -> None:
    s = battle()
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 2")
    assert 1 in s.acting_seats()
    kinds = expire(s, 1, random.Random(0))
    assert kinds == ["commit"]
    assert s.power[1] == 5 and hand(s, 1) == [2, 3]
    assert not s.is_chance()  # C7: a loser who revealed 0 draws nothing


def test_oq8_retreat_goes_home() -> None:
    s = position("crimea,nordic", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 1, "seaworthy", "r4c3")
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert kind(s) == "retreat" and s.current_player() == 1
    assert default(s) == "retreat home_nordic"


def test_sr14_pay_takes_a_token_before_a_coercion_card() -> None:
    s = position("crimea,nordic", "industrial,engineering")
    put_res(s, "r7c3", "oil", 2)
    set_hand(s, 0, [2, 4])
    play(s, "section 1", "skip", "bottom")
    assert legal(s) == ["pay oil r7c3", "pay card 2", "pay card 4"]
    assert default(s) == "pay oil r7c3"
    play(s, "pay oil r7c3")
    assert legal(s) == ["pay oil r7c3", "pay card 2", "pay card 4"]
    play(s, "pay oil r7c3")
    assert default(s) == "pay card 2"  # no token left: the lowest card (SR-41)


def test_sr12_benefit_is_taken_once_paid() -> None:
    s = position("crimea,nordic", "industrial,engineering")
    put_res(s, "r7c3", "oil", 3)
    ups = bin(s.upgrades[0]).count("1")
    play(s, "section 1", "skip", "bottom")  # Upgrade: 3 oil, paid from the one source
    assert kind(s) == "benefit" and res_at(s, "r7c3", "oil") == 0
    assert default(s) == legal(s)[1] == "upgrade move-units upgrade"  # the first listed
    assert expire(s, 0, random.Random(0))[0] == "benefit"
    assert bin(s.upgrades[0]).count("1") == ups + 1 and s.turn_count() == 1


def test_sr51_end_turn_without_a_reveal() -> None:
    s = with_a_held_objective()
    play(s, "section 1", "skip", "skip")
    assert kind(s) == "end-turn" and any(isinstance(a, Reveal) for a in s.legal_actions())
    assert default(s) == "end"
    expire(s, 0, random.Random(0))
    assert s.star_total[0] == 0 and s.turn_count() == 1


def test_sr47_encounter_takes_the_cheapest_option() -> None:
    for card in (1, 13, 25):
        s = encounter_position()
        play(s, f"encounter {card}")
        assert kind(s) == "encounter"
        assert default(s) == "option 1"  # option 1 costs nothing on every card
        costs = [sum(o["cost"].values()) for o in D.ENCOUNTER_BY_NUMBER[card]["options"]]
        assert costs[0] == min(costs)


def test_sr41_meander_stops_after_one_option() -> None:
    s = encounter_position("polania", "industrial")
    play(s, "encounter 13", "option 1")
    assert kind(s) == "encounter" and "done" in legal(s)
    assert default(s) == "done"


def test_sr47_gain_takes_the_granted_action_once_paid() -> None:
    s = encounter_position()
    pop = s.popularity[0]
    play(s, "encounter 1", "option 3")  # cost 2 popularity: build
    assert kind(s) == "gain" and s.popularity[0] == pop - 2
    built = s.structures_built(0)
    kinds = expire(s, 0, random.Random(0))
    assert kinds[0] == "gain" and s.structures_built(0) == built + 1


def test_sr47_gain_places_resource_tokens_once_paid() -> None:
    s = encounter_position()
    play(s, "encounter 13", "option 3")  # cost 3 popularity: 5 resources of any kind
    assert kind(s) == "gain"
    total = sum(res_at(s, "r2c6", r) for r in D.RESOURCES)
    kinds = expire(s, 0, random.Random(0))
    assert kinds[:5] == ["gain"] * 5
    assert sum(res_at(s, "r2c6", r) for r in D.RESOURCES) == total + 5


def test_sr48_factory_offer_keeps_the_lowest_card() -> None:
    s = battle()
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert kind(s) == "factory-offer"
    offer = sorted(s.factory_offer)
    assert default(s) == f"factory {offer[0]}"


def test_sr49_pay_card_pays_the_lowest_card() -> None:
    s = factory_position(4)  # top: pay 1 combat card, gain $3
    set_hand(s, 0, [5, 2, 3])
    play(s, "section factory", "top")
    assert kind(s) == "pay-card"
    assert default(s) == "pay card 2"


def test_sr49_factory_section_top_and_move_are_skipped() -> None:
    s = factory_position(5)
    play(s, "section factory")
    assert default(s) == "skip"
    play(s, "skip")
    assert kind(s) == "bottom-action" and default(s) == "skip"
    coins = s.coins[0]
    expire(s, 0, random.Random(0))
    assert s.coins[0] == coins and s.turn_count() == 1


# ---------------------------------------------------------------- the property
def _positions(players: int, games: int, every: int) -> Iterator[tuple[ScytheState, random.Random]]:
    """States along random games (chance from a seeded RNG), one every ``every`` decisions."""
    game = load_game("scythe", players)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        assert isinstance(state, ScytheState)
        steps = 0
        while not state.is_terminal() and state.turn_count() < 150:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            steps += 1
            if steps % every == 0:
                yield state.clone(), random.Random(rng.random())
            seat = rng.choice(state.acting_seats())
            legal_now = state.legal_actions_for(seat)
            state.apply_for(seat, legal_now[rng.randrange(len(legal_now))])


@pytest.mark.parametrize("players", [2, 3, 5])
def test_defaults_end_the_expired_turn_from_random_positions(players: int) -> None:
    seen: Counter[str] = Counter()
    for state, rng in _positions(players, games=5, every=7):
        seat = rng.choice(state.acting_seats())
        # the table's loop for the expired seat, the others answering at random
        mine = state.clone()
        turn = mine.turn_count()
        applied = 0
        for _ in range(TURN_BOUND * 4):
            if mine.is_terminal() or mine.turn_count() != turn:
                break
            if seat != mine.active and seat not in mine.acting_seats():
                break  # a defender's step is over
            if mine.is_chance():
                mine.apply(mine.sample_chance(rng))
            elif seat in mine.acting_seats():
                kinds = expire(mine, seat, rng)
                seen.update(kinds)
                applied += len(kinds)
            else:
                other = mine.acting_seats()[0]
                options = mine.legal_actions_for(other)
                mine.apply_for(other, options[rng.randrange(len(options))])
        assert 0 < applied <= TURN_BOUND
        assert mine.is_terminal() or mine.turn_count() != turn or seat != mine.active
        # every seat away: the defaults of whoever is to move end the active player's turn
        everyone = state.clone()
        for _ in range(TURN_BOUND * 2):
            if everyone.is_terminal() or everyone.turn_count() != turn:
                break
            if everyone.is_chance():
                everyone.apply(everyone.sample_chance(rng))
            else:
                expire(everyone, everyone.acting_seats()[0], rng)
        assert everyone.is_terminal() or everyone.turn_count() != turn
    # the walk met the frequent decisions (rare ones have their own tests above)
    common = {"choose-section", "top-action", "bottom-action", "end-turn", "step", "choose-unit"}
    assert common <= set(seen), seen
