"""Checks shared by the environments' tests of both games."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from hexfolk.core import make_rng
from hexfolk.rl import EpisodeOverError, HexfolkEnv, InvalidActionError


def _random_index(env: HexfolkEnv, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(env.action_mask())))


def random_episode(env: HexfolkEnv, seed: int, rng_seed: int) -> tuple[str, ...]:
    """The action texts of one episode of random masked actions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    for _agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else _random_index(env, rng))
    return tuple(env.history)


def coverage_walk(env: HexfolkEnv, steps: int) -> None:
    """Every legal action of every acting seat, at every step of random games, has an index;
    the index names that action; the mask allows exactly the legal actions."""
    codec = env.codec
    rng = np.random.default_rng(0)
    episode = 0
    done = 0
    while done < steps:
        env.reset(seed=1000 + episode)
        episode += 1
        state = env.state
        while done < steps and env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            for seat in state.acting_seats():
                legal = state.legal_actions_for(seat)
                obs = state.observation(seat)
                keys = codec.keys(legal, obs)
                for i, key in zip(codec.indices(legal, obs), keys):  # raises if unmapped
                    assert codec.actions[i] == key
            mask = env.action_mask()
            seat = state.current_player()
            assert int(mask.sum()) == len(state.legal_actions_for(seat))
            env.step(_random_index(env, rng))
            done += 1


def hidden_information_walk(env: HexfolkEnv, steps: int) -> None:
    """Worlds a seat cannot tell from the real one (``sample_consistent_state``) give that
    seat the identical encoded observation and mask, for every seat, all along random games."""
    rng = np.random.default_rng(1)
    world_rng = make_rng(7, "worlds")
    env.reset(seed=77)
    state = env.state
    codec = env.codec
    redrawn = 0
    for step in range(steps):
        if not env.agents:
            env.reset(seed=78 + step)
            state = env.state
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        if step % 3 == 0:
            for s, name in enumerate(env.possible_agents):
                mine = env.observe(name)
                world = state.sample_consistent_state(s, world_rng)
                redrawn += world.fingerprint() != state.fingerprint()
                other = codec.encode(world.observation(s))
                assert np.array_equal(mine["observation"], other), f"seat {s} step {step}"
                if name == agent:
                    legal = world.legal_actions_for(s)
                    idx = sorted(codec.indices(legal, world.observation(s)))
                    assert idx == sorted(np.flatnonzero(mine["action_mask"]).tolist())
        env.step(_random_index(env, rng))
    assert redrawn, "no sampled world differed from the real one: the walk tested nothing"


def bad_input_checks(env: HexfolkEnv) -> None:
    """Masked-out, out-of-range and non-integer indices raise and change nothing; a step
    after the end raises."""
    env.reset(seed=3)
    mask = env.action_mask()
    before = (env.state.fingerprint(), env.agent_selection, list(env.history))
    forbidden = int(np.flatnonzero(mask == 0)[0])
    for bad in (forbidden, -1, env.num_actions, 1.5, "0", None, True):
        with pytest.raises(InvalidActionError):
            env.step(bad)  # type: ignore[arg-type]
        assert (env.state.fingerprint(), env.agent_selection, list(env.history)) == before
    assert np.array_equal(env.action_mask(), mask)
    rng = np.random.default_rng(2)
    for _agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            with pytest.raises(EpisodeOverError):
                env.step(0)
            env.step(None)
        else:
            env.step(_random_index(env, rng))
    with pytest.raises(EpisodeOverError):
        env.step(None)
    with pytest.raises(EpisodeOverError):
        env.step(0)


def cycles_property(make: Callable[[int], HexfolkEnv]) -> None:
    """PettingZoo's ``max_cycles_test`` property for turn-based games (its parallel half
    does not apply): with ``max_cycles=k`` the busiest agent is asked ``k`` times, plus once
    more to take its end (``step(None)``)."""
    for k in (3, 7):
        env = make(k)
        env.reset()
        counts = dict.fromkeys(env.possible_agents, 0)
        rng = np.random.default_rng(k)
        for agent in env.agent_iter():
            counts[agent] += 1
            _, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else _random_index(env, rng))
        assert max(counts.values()) - 1 == k
