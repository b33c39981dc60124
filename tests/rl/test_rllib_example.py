"""``examples/rllib_island.py`` under Ray RLlib: the environment builds through RLlib's
PettingZoo wrapper (``PettingZooEnv``) and plays masked steps that reach the game; the PPO
configuration with the action-masking module validates. Skipped where RLlib cannot be
imported (the ``scale`` extra brings it: ray, dm-tree, pandas, pyarrow, scipy; docs/rl.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rllib_island.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rllib_island", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.timeout(60)
def test_rllib_wrapper_plays_masked_steps_that_reach_the_game() -> None:
    example = _example()
    env = example.make_env({"players": 2, "max_turns": 40})
    aec = env.env.env  # RLlib's PettingZooEnv -> RLlibKeys -> HexfolkEnv
    space = env.observation_space["player_0"]
    assert space["observations"].shape == (aec.codec.obs_size,)
    assert space["action_mask"].shape == (aec.num_actions,)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for step in range(40):
        ((agent, o),) = obs.items()
        assert agent == aec.agent_selection
        assert space.contains(o)
        mine = aec.observe(agent)
        assert np.array_equal(o["observations"], mine["observation"])
        assert np.array_equal(o["action_mask"], mine["action_mask"].astype(np.float32))
        played = len(aec.history)
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        text = aec.legal_texts()[action]
        obs, _, terminated, truncated, _ = env.step({agent: action})
        assert aec.history[played] == text  # the step reached the game
        assert not (terminated["__all__"] or truncated["__all__"]), step
    assert example.check(steps=60) == 60


@pytest.mark.timeout(60)
def test_rllib_ppo_configuration_builds() -> None:
    config = _example().ppo_config(players=2)
    config.validate()
    assert config.policies.keys() == {"shared"}
    # RLlib's own environment check would step unmasked samples, which the env refuses
    assert config.disable_env_checking
