"""``examples/rllib_island.py`` under Ray RLlib: the environment builds through RLlib's
PettingZoo wrapper and plays masked steps; the PPO configuration builds (skipped where
RLlib is not installed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

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


def test_rllib_wrapper_plays_masked_steps() -> None:
    assert _example().check(steps=60) == 60


def test_rllib_ppo_configuration_builds() -> None:
    config = _example().ppo_config(players=2)
    config.validate()
    assert config.policies.keys() == {"shared"}
