"""The island game's AEC environment under Ray RLlib, for training on a cluster (``docs/rl.md``).

RLlib runs PettingZoo AEC environments through ``PettingZooEnv`` (turn-based: each step
returns the observation of the one agent to act). Its action-masking PPO module
(``ActionMaskingTorchRLModule``) reads an observation dict with the keys ``observations`` and
``action_mask``, so :class:`RLlibKeys` renames Hexfolk's ``observation`` key. All seats share
one policy (self-play).

    pip install 'hexfolk[rl,scale]' torch    # or 'ray[rllib]' (pins gymnasium 1.2.2)
    python examples/rllib_island.py --check            # build, then a few random masked steps
    python examples/rllib_island.py --iterations 5     # PPO, local env runner
    python examples/rllib_island.py --iterations 1 --batch 256 --max-turns 30   # quick
    python examples/rllib_island.py --iterations 100 --env-runners 32 --address auto
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from hexfolk import rl

ENV_NAME = "hexfolk_island"


class RLlibKeys(BaseWrapper):
    """Hexfolk's ``{"observation", "action_mask"}`` as RLlib's masking module wants it:
    ``{"observations": float32[D], "action_mask": float32[N]}``."""

    def __init__(self, env: Any):
        super().__init__(env)
        inner = env.observation_space(env.possible_agents[0])
        self._space = spaces.Dict(
            {
                "observations": inner["observation"],
                "action_mask": spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {
            "observations": obs["observation"],
            "action_mask": obs["action_mask"].astype(np.float32),
        }


def make_env(config: dict[str, Any] | None = None) -> Any:
    """The RLlib environment (``config``: ``players``, ``options``, ``max_turns``)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    config = dict(config or {})
    aec = rl.env(
        "island",
        players=config.get("players", 2),
        options=config.get("options"),
        max_turns=config.get("max_turns"),
        shaped=config.get("shaped", 0.0),
    )
    return PettingZooEnv(RLlibKeys(aec))


def ppo_config(
    players: int = 2,
    env_runners: int = 0,
    max_turns: int | None = None,
    batch: int | None = None,
) -> Any:
    """A PPO configuration: one shared action-masking policy for every seat. ``batch``: the
    environment steps per training iteration (RLlib's default, 4000, when None; a small one
    makes a quick end-to-end check)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    config = (
        PPOConfig()
        .environment(
            ENV_NAME,
            env_config={"players": players, "max_turns": max_turns, "shaped": 0.1},
            # RLlib's environment check steps unmasked action_space.sample()s, which the
            # environment refuses (InvalidActionError, docs/rl.md); the masking module
            # only ever samples legal actions
            disable_env_checking=True,
        )
        .env_runners(num_env_runners=env_runners)
        .multi_agent(
            policies={"shared"},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared",
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [256, 256]},
                    )
                }
            )
        )
    )
    if batch is not None:
        config = config.training(
            train_batch_size_per_learner=batch, minibatch_size=min(batch, 128), num_epochs=2
        )
    return config


def check(steps: int = 50, seed: int = 1) -> int:
    """Build the RLlib environment and play ``steps`` random masked steps through it; return
    the steps played."""
    env = make_env({"players": 2, "max_turns": 40})
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played = 0
    for _ in range(steps):
        ((agent, o),) = obs.items()
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, _, terminated, truncated, _ = env.step({agent: action})
        played += 1
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset(seed=seed + played)
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="a few steps, no training")
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--env-runners", type=int, default=0)
    parser.add_argument("--address", default=None, help="a Ray cluster (default: local)")
    parser.add_argument("--max-turns", type=int, default=None, help="truncate games")
    parser.add_argument(
        "--batch", type=int, default=None, help="steps per iteration (default RLlib's 4000)"
    )
    args = parser.parse_args()
    if args.check:
        print(f"{check()} steps through RLlib's PettingZooEnv")
        return
    import ray

    ray.init(address=args.address)
    algo = ppo_config(args.players, args.env_runners, args.max_turns, args.batch).build_algo()
    for i in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        print(
            f"iteration {i + 1}: episodes {runners.get('num_episodes_lifetime')}, "
            f"mean return {runners.get('episode_return_mean')}",
            flush=True,
        )
    algo.stop()


if __name__ == "__main__":
    main()
