"""Issue 27, point 4 ("Bots flood people with offers": one medium bot made 42 offers in a
24-round game, and a person answered "reject" 67 times). At a table where a person may answer,
every island bot makes at most one offer of its own per turn (``trading.offers_per_turn``);
the table tells it which seats people play through the observation's context
(``Observation.people``). A bots-only table tells it nothing and its games stay as they were.

The real path (the table server, its bot pool's pickled states) is tested in
``tests/server/test_bot_offers_to_people.py``.
"""

from __future__ import annotations

import asyncio
import pickle
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest

from hexfolk.bots import make_bot
from hexfolk.bots.island.heuristics import COSTS, Target
from hexfolk.bots.island.trading import LevelRules, offers_per_turn, own_offer
from hexfolk.core import (
    CHANCE,
    TERMINAL,
    Action,
    LogLine,
    Match,
    Observation,
    State,
    load_game,
    make_rng,
)
from hexfolk.games.island import actions as A
from hexfolk.games.island.log_forms import LOG, cards_json
from hexfolk.server.botpool import BotPool, choose_text
from tests.bots.island.test_island_bots import _pos

SETTLE = Target("settlement", COSTS["settlement"], 0)
LEVELS = {x: LevelRules.of(x) for x in ("easy", "medium", "hard")}
PERSON = frozenset({0})
"""Seat 0 is a person's (in these games a medium bot stands in for the person)."""


def _play(seed: int, people: frozenset[int], players: int = 4) -> State:
    """A seeded game of medium bots told that ``people`` are people's seats."""
    game = load_game("island", players)
    bots = [make_bot("medium", "island") for _ in range(players)]
    state = game.new_initial_state()
    chance = make_rng(seed, "chance")
    rngs = [make_rng(seed, "bot", s) for s in range(players)]
    while state.current_player() != TERMINAL and state.turn_count() < 400:
        p = state.current_player()
        if p == CHANCE:
            state.apply_unchecked(state.sample_chance(chance))
            continue
        obs = Observation(state, p, people)
        state.apply(bots[p].choose(obs, state.legal_actions(), rngs[p]))
    return state


def offers_per_turn_in(log: Sequence[LogLine]) -> list[Counter[int]]:
    """Each turn's own offers by seat, read from the public log (``offers`` lines, turns
    ended by ``ends`` lines: ``docs/log.md``)."""
    turns: list[Counter[int]] = [Counter()]
    for line in log:
        if line.form == "offers":
            turns[-1][line.params["seat"]] += 1
        elif line.form == "ends":
            turns.append(Counter())
    return turns


def _most(turns: list[Counter[int]], seat: int) -> int:
    return max(t[seat] for t in turns)


# --- the rule -------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_issue27_one_own_offer_per_turn_when_a_person_may_answer(level: str) -> None:
    rules = LEVELS[level]
    pos = _pos([2, 0, 1, 1, 3])  # a settlement lacks brick; lumber and ore are surplus
    me = pos.seat
    person = {(me + 1) % pos.n}
    assert offers_per_turn(rules, me) == rules.offers_per_turn  # nobody's a person: as before
    assert offers_per_turn(rules, me, {me}) == rules.offers_per_turn  # only itself (a stand-in)
    assert offers_per_turn(rules, me, {me, *person}) == 1
    first = own_offer(rules, pos, SETTLE, [], [], people=person)
    assert first is not None
    give, get = cards_json(first.give), cards_json(first.get)
    made = [LOG.line("offers", seat=me, offer=1, give=give, get=get)]
    assert own_offer(rules, pos, SETTLE, [], made, people=person) is None
    if rules.offers_per_turn > 1:  # without people its level makes more
        assert own_offer(rules, pos, SETTLE, [], made) is not None
    # the next turn it may offer again
    again = [*made, LOG.line("ends", seat=me)]
    assert own_offer(rules, pos, SETTLE, [], again, people=person) is not None


# --- whole games ------------------------------------------------------------------------------
@cache
def _games(people: frozenset[int]) -> tuple[State, ...]:
    return tuple(_play(seed, people) for seed in (1, 2, 3))


def test_issue27_medium_bots_offer_once_per_turn_at_a_table_with_a_person() -> None:
    for state in _games(PERSON):
        assert state.is_terminal()
        turns = offers_per_turn_in(state.observation(None)["log"])
        for seat in (1, 2, 3):
            assert _most(turns, seat) == 1, (seat, turns)
        # the stand-in at the person's own seat is not limited by itself
        assert _most(turns, 0) == 2
    # bots-only: the same bots make two offers in a turn (medium's level, IR-77)
    for state in _games(frozenset()):
        turns = offers_per_turn_in(state.observation(None)["log"])
        assert all(_most(turns, seat) == 2 for seat in range(4))


def test_issue27_bots_only_games_are_unchanged() -> None:
    """No people: the kernel's ``Match`` (``simulate``, the tournaments, the benchmarks) passes
    no context, and a game told "no people" plays the very same moves."""
    for seed, told in zip((1, 2, 3), _games(frozenset()), strict=True):
        game = load_game("island", 4)
        result = Match(game, [make_bot("medium", "island") for _ in range(4)], seed).run()
        again = _play(seed, frozenset())
        assert again.full_state() == told.full_state()
        assert result.state.is_terminal() and told.is_terminal()


# --- the bot pool: the state pickled into a worker, the context beside it --------------------
@cache
def _second_offer() -> tuple[State, int, Action]:
    """A position of a bots-only game where a medium bot, having offered once this turn,
    offers again (the same walk as :func:`_play`)."""
    for seed in (1, 2, 3):
        game = load_game("island", 4)
        bots = [make_bot("medium", "island") for _ in range(4)]
        state = game.new_initial_state()
        chance = make_rng(seed, "chance")
        rngs = [make_rng(seed, "bot", s) for s in range(4)]
        offered: Counter[int] = Counter()
        while state.current_player() != TERMINAL:
            p = state.current_player()
            if p == CHANCE:
                state.apply_unchecked(state.sample_chance(chance))
                continue
            action = bots[p].choose(Observation(state, p), state.legal_actions(), rngs[p])
            if isinstance(action, A.Offer):
                if offered[p] and p != 0:
                    return state.clone(), p, action
                offered[p] += 1
            elif isinstance(action, A.EndTurn):
                offered.clear()
            state.apply(action)
    raise AssertionError("no second offer in a turn")


def test_issue27_the_bot_pool_passes_the_people_to_its_workers() -> None:
    state, seat, second = _second_offer()
    seed = 5
    assert choose_text(state, seat, "medium", seed) == str(second)  # medium is deterministic
    state = pickle.loads(pickle.dumps(state))

    async def both() -> tuple[str, str]:
        pool = BotPool(workers=1)
        try:
            alone = await pool.choose(state, seat, "medium", seed)
            beside = await pool.choose(state, seat, "medium", seed, PERSON)
            return alone, beside
        finally:
            pool.shutdown()

    alone, beside = asyncio.run(both())
    assert alone == str(second)
    assert not beside.startswith("offer"), beside
    assert state.is_legal(state.parse_action_for(seat, beside))
