"""A smoke run of ``examples/train_island.py``: a few hundred environment steps and two PPO
updates (training itself is not part of the tests; torch is needed, else this is skipped)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_island.py"


def test_training_example_runs_a_few_hundred_steps() -> None:
    spec = importlib.util.spec_from_file_location("train_island", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = module.parser().parse_args(
        ["--envs", "2", "--horizon", "64", "--updates", "2", "--minibatch", "64"]
    )
    policy = module.train(args)
    assert sum(p.numel() for p in policy.parameters()) > 0
    assert module.wilson(5, 10)[0] < 0.5 < module.wilson(5, 10)[1]
