"""The Scythe bots: parameters, legality, hidden information, mixed combat, finished games."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from hexfolk.bots import RandomBot, make_bot
from hexfolk.bots.scythe import EasyBot, HardBot, MediumBot, make_level_bot
from hexfolk.bots.scythe.combat import choose_commit
from hexfolk.bots.scythe.evaluation import evaluate
from hexfolk.bots.scythe.policy import RulePolicy
from hexfolk.core import Bot, Game, Match, Observation, OptionError, load_game, make_rng
from hexfolk.games.scythe.actions import Commit
from hexfolk.games.scythe.state import ScytheState


def _game(factions: str = "nordic,crimea", mats: str = "industrial,engineering") -> Game:
    return load_game("scythe", 2, {"factions": factions, "mats": mats})


def _positions(seed: int, steps: int, every: int) -> list[ScytheState]:
    """States along a seeded game between medium bots, every ``every`` decisions."""
    game = _game()
    state = game.new_initial_state()
    assert isinstance(state, ScytheState)
    chance = make_rng(seed, "chance")
    rng = make_rng(seed, "bots")
    bot = MediumBot(width=4)
    out = []
    decisions = 0
    while not state.is_terminal() and decisions < steps:
        if state.is_chance():
            state.apply_unchecked(state.sample_chance(chance))
            continue
        if decisions % every == 0:
            out.append(state.clone())
        p = state.current_player()
        state.apply_unchecked(bot.choose(Observation(state, p), state.legal_actions(), rng))
        decisions += 1
    return out


def _commit_state(min_options: int = 8) -> ScytheState:
    """The first commit prompt of a random game (seeds tried in order) with enough options."""
    game = _game()
    for seed in range(200):
        state = game.new_initial_state()
        assert isinstance(state, ScytheState)
        rng = random.Random(seed)
        while not state.is_terminal() and state.turn_count() < 300:
            if state.is_chance():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            prompt = state.prompt()
            commit = prompt is not None and prompt.kind == "commit"
            if commit and len(state.legal_actions()) >= min_options:
                return state
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    raise AssertionError("no combat found")


# --- levels and parameters -------------------------------------------------------------------
def test_levels_by_code_in_players() -> None:
    assert isinstance(make_bot("easy", "scythe"), EasyBot)
    assert isinstance(make_bot("medium:width=4", "scythe"), MediumBot)
    hard = make_bot("hard:iters=50:depth=2:width=4:c=0.3", "scythe")
    assert isinstance(hard, HardBot)
    assert hard.iterations == 50 and hard.ms is None and hard.turns_ahead == 2
    assert hard.width == 4 and hard.exploration == 0.3
    timed = make_bot("hard:ms=500", "scythe")
    assert isinstance(timed, HardBot) and timed.ms == 500 and timed.iterations is None
    both = make_level_bot("hard", {"ms": "300", "iters": "100"})
    assert isinstance(both, HardBot) and both.ms == 300 and both.iterations == 100
    default = make_level_bot("hard", {})
    assert isinstance(default, HardBot) and default.iterations == HardBot.DEFAULT_ITERATIONS


@pytest.mark.parametrize(
    "code",
    [
        "hard:budget=3",
        "hard:iters=many",
        "hard:iters=-1",
        "hard:iters=0",
        "hard:depth=99",
        "hard:ms=0:iters=0",
        "medium:iters=10",
        "medium:width=0",
        "easy:eps=2",
        "easy:depth=3",
    ],
)
def test_unknown_or_bad_parameters_are_refused(code: str) -> None:
    with pytest.raises(OptionError):
        make_bot(code, "scythe")


def test_medium_is_the_rule_policy_without_noise() -> None:
    # medium's default (width 1) is the deterministic rule policy: depth 0, no noise
    medium = make_bot("medium", "scythe")
    assert isinstance(medium, MediumBot) and medium.width == 1
    policy = RulePolicy()
    checked = 0
    for k, state in enumerate(_positions(seed=11, steps=120, every=9)):
        seat = state.current_player()
        legal = state.legal_actions()
        if state.prompt() is None or state.prompt().kind == "commit" or len(legal) < 2:
            continue
        ours = medium.choose(Observation(state, seat), legal, make_rng(k, "m"))
        assert ours == policy.choose(state, legal, make_rng(k, "m"))
        checked += 1
    assert checked >= 5


def test_unknown_level_is_refused() -> None:
    with pytest.raises(OptionError):
        make_level_bot("expert", {})


# --- legal choices, prompt by prompt -----------------------------------------------------------
@pytest.mark.parametrize(
    "make",
    [lambda: EasyBot(), lambda: MediumBot(width=4), lambda: HardBot(iterations=8)],
    ids=["easy", "medium", "hard"],
)
def test_sr7_every_choice_is_legal(make: Callable[[], Bot]) -> None:
    # A turn is a chain of prompts (SR-7): the bot answers each with a legal action.
    game = _game("rusviet,polania", "patriotic,agricultural")
    result = Match(game, [make(), RandomBot()], seed=3, turn_cap=24, check_legal=True).run()
    assert result.turns >= 24 or result.finished


# --- hidden information (SR-59) ------------------------------------------------------------------
@pytest.mark.parametrize(
    "make",
    [
        lambda: EasyBot(),
        lambda: MediumBot(),
        lambda: MediumBot(width=4),
        lambda: HardBot(iterations=12),
    ],
    ids=["easy", "medium", "medium-lookahead", "hard"],
)
def test_sr59_bot_plays_the_same_when_hidden_parts_are_scrambled(
    make: Callable[[], Bot],
) -> None:
    states = [*_positions(seed=11, steps=120, every=9), _commit_state()]
    checked = 0
    for k, state in enumerate(states):
        seat = state.current_player()
        legal = state.legal_actions()
        scrambled = state.sample_consistent_state(seat, random.Random(1000 + k))
        assert scrambled.observation(seat) == state.observation(seat)
        if scrambled.full_state() != state.full_state():
            checked += 1
        real = make().choose(Observation(state, seat), legal, make_rng(k, "same"))
        other = make().choose(Observation(scrambled, seat), legal, make_rng(k, "same"))
        assert real == other, f"position {k}: {real} vs {other}"
    assert checked >= len(states) // 2  # the scrambles really changed hidden parts


# --- combat (SR-43) ------------------------------------------------------------------------------
def test_sr43_commitment_is_a_mixed_strategy() -> None:
    state = _commit_state()
    seat = state.current_player()
    legal = state.legal_actions()
    most = max(a.dial + sum(a.cards) for a in legal if isinstance(a, Commit))
    picks = [choose_commit(state, seat, legal, random.Random(i)) for i in range(60)]
    assert all(a in legal for a in picks)
    totals = {a.dial + sum(a.cards) for a in picks if isinstance(a, Commit)}
    assert len(set(picks)) >= 2, "the same commitment every time is a pure strategy"
    assert min(totals) < most, "always the maximum is not a mixed strategy"


def test_sr43_commitment_uses_only_what_the_seat_knows() -> None:
    # The opponent's hidden cards are redrawn: the distribution of commitments is unchanged.
    state = _commit_state()
    seat = state.current_player()
    legal = state.legal_actions()
    scrambled = state.sample_consistent_state(seat, random.Random(7))
    assert isinstance(scrambled, ScytheState)
    for i in range(20):
        a = choose_commit(state, seat, legal, random.Random(i))
        b = choose_commit(scrambled, seat, legal, random.Random(i))
        assert a == b


# --- evaluation ----------------------------------------------------------------------------------
def test_sr53_evaluation_is_a_value_per_seat_in_unit_interval() -> None:
    for state in _positions(seed=5, steps=60, every=15):
        values = evaluate(state)
        assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)


# --- whole games ---------------------------------------------------------------------------------
def test_sr11_games_between_bots_finish_by_the_rules() -> None:
    # Bots make progress: games end on a sixth star well before the turn cap (SR-11).
    game = load_game("scythe", 2)
    for seed in (1, 2):
        result = Match(game, [MediumBot(), EasyBot()], seed=seed, turn_cap=300).run()
        assert result.finished, f"seed {seed} hit the cap"
        assert result.state.summary()["end_reason"].startswith("sixth star")


def test_medium_beats_random_in_a_small_match() -> None:
    game = load_game("scythe", 2)
    wins = 0.0
    for seed in range(4):
        seats: list[Bot] = (
            [MediumBot(), RandomBot()] if seed % 2 == 0 else [RandomBot(), MediumBot()]
        )
        result = Match(game, seats, seed=100 + seed).run(keep_actions=False)
        wins += result.returns[seed % 2]
    assert wins >= 4
