"""The Gymnasium single-agent wrapper: Gymnasium's check_env, opponents by bot codes, rewards
of the learning seat, bad input, and a smoke run of a few hundred steps."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hexfolk import rl
from hexfolk.rl import EpisodeOverError, InvalidActionError


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("island", 2, {}),
        ("island", 3, {}),
        ("island", 4, {"hide_bank": True}),
        ("island", 3, {"map": "driftland"}),
        ("scythe", 2, {}),
        ("scythe", 3, {}),
    ],
)
def test_gymnasium_check_env(game: str, players: int, options: dict[str, object]) -> None:
    # check_env steps with unmasked samples: the documented penalty mode answers them
    env = rl.gym_env(
        game, players=players, options=options, seed=1, max_turns=30, invalid_penalty=-1.0
    )
    check_env(env, skip_render_check=True)


def test_check_env_on_the_strict_default_stops_at_a_masked_out_sample() -> None:
    # why the penalty flag (docs/rl.md): check_env steps action_space.sample() without the
    # mask (check_step_determinism even draws it before the reset it steps from, so no mask
    # could make it legal); the default wrapper refuses such a step loudly
    env = rl.gym_env("island", players=2, seed=1, max_turns=30)
    env.action_space.seed(0)
    with pytest.raises(InvalidActionError, match="is not legal now") as refused:
        check_env(env, skip_render_check=True)
    names = [f.name for f in _frames(refused.value)]
    assert names[-1] == "_check_index" and "step" in names  # the wrapper's step refused it
    assert {"env_step_passive_checker", "check_step_determinism"} & set(names)
    fingerprint = env.aec.state.fingerprint()
    with pytest.raises(InvalidActionError):
        env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))
    assert env.aec.state.fingerprint() == fingerprint


def _frames(exc: BaseException) -> list[traceback.FrameSummary]:
    return list(traceback.extract_tb(exc.__traceback__))


def test_check_env_render() -> None:
    env = rl.gym_env("island", players=2, seed=1, render_mode="ansi", max_turns=20)
    env.reset(seed=2)
    assert env.render() == env.game.render_observation(env.aec.state.observation(env.seat))


@pytest.mark.parametrize(
    ("game", "players", "opponents"),
    [("island", 4, "hard:ms=1,medium,random"), ("scythe", 3, "easy,random")],
)
def test_opponents_are_bot_codes_and_the_learner_sees_only_its_turns(
    game: str, players: int, opponents: str
) -> None:
    env = rl.gym_env(game, players=players, seed=5, seat=1, opponents=opponents, max_turns=12)
    assert [b.name for b in env.bots.values()] != []
    assert len(env.bots) == players - 1 and 1 not in env.bots
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert env.aec.agent_selection == "player_1"
        assert env.aec.state.current_player() == 1
        legal = np.flatnonzero(obs["action_mask"])
        assert np.array_equal(np.flatnonzero(env.action_masks()), legal)
        obs, _, term, trunc, _ = env.step(int(rng.choice(legal)))
        if term or trunc:
            break


def test_wrong_opponent_count_is_refused() -> None:
    with pytest.raises(ValueError, match="opponents"):
        rl.gym_env("island", players=4, opponents="random,random")


def test_masked_out_action_raises_or_pays_the_documented_penalty() -> None:
    env = rl.gym_env("island", players=2, seed=3)
    obs, _ = env.reset(seed=3)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.aec.state.fingerprint()
    with pytest.raises(InvalidActionError):
        env.step(forbidden)
    assert env.aec.state.fingerprint() == before
    penalised = rl.gym_env("island", players=2, seed=3, invalid_penalty=-0.5)
    obs, _ = penalised.reset(seed=3)
    again, reward, term, trunc, info = penalised.step(forbidden)
    assert (reward, term, trunc, info["invalid_action"]) == (-0.5, False, False, True)
    assert np.array_equal(again["observation"], obs["observation"])


def test_smoke_run_and_rewards_of_the_learning_seat() -> None:
    env = rl.gym_env("island", players=2, seed=8, opponents="random", options={"vp_target": 8})
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=8)
    total = 0.0
    for _step in range(5000):
        obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += float(reward)
        if term or trunc:
            break
    assert term
    assert total == env.aec.state.returns()[0]
    with pytest.raises(EpisodeOverError):
        env.step(0)
    obs, _ = env.reset()
    assert obs["action_mask"].any()


def test_same_seed_same_episode() -> None:
    def run() -> list[str]:
        env = rl.gym_env("scythe", players=2, seed=4, opponents="random", max_turns=20)
        obs, _ = env.reset(seed=4)
        rng = np.random.default_rng(2)
        for _ in range(200):
            obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if term or trunc:
                break
        return env.aec.history

    assert run() == run()


@pytest.mark.parametrize(
    ("game", "players", "options", "max_turns"),
    [
        ("island", 3, {"vp_target": 8}, None),
        ("island", 3, {}, 41),  # the cap reached by the learner's turn, then by each opponent's
        ("island", 3, {}, 42),
        ("island", 3, {}, 43),
        ("island", 2, {}, 40),
        ("scythe", 2, {}, 25),
        ("scythe", 3, {}, 31),
        ("scythe", 3, {}, 32),
    ],
)
def test_opponents_fast_loop_plays_as_one_play_action_per_decision(
    game: str, players: int, options: dict[str, object], max_turns: int | None
) -> None:
    # play_until skips per-step bookkeeping only where it cannot matter: with max_cycles set it
    # takes the plain play_action loop, which must give the same episode, rewards and ends
    def run(max_cycles: int | None) -> tuple[list[str], list[tuple[float, ...]]]:
        env = rl.gym_env(
            game,
            players=players,
            options=options,
            seed=6,
            max_turns=max_turns,
            max_cycles=max_cycles,
        )
        obs, _ = env.reset(seed=6)
        rng = np.random.default_rng(3)
        seen = []
        for _ in range(20000):
            obs, reward, term, trunc, _ = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            earned = [env.aec.earned(a) for a in env.aec.possible_agents]
            seen.append((float(reward), term, trunc, *earned))
            if term or trunc:
                break
        return env.aec.history, seen

    fast, slow = run(None), run(10**9)
    assert fast == slow
    assert fast[1][-1][1] or fast[1][-1][2]  # the episode ended inside the loop
