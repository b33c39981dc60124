"""Tournaments on Ray give the same sums as one process (the ``scale`` extra)."""

from __future__ import annotations

import pytest

from hexfolk.bots.tournament import TournamentSpec, run_tournament
from tests.core.toygame import BidsGame, register_toy

ray = pytest.importorskip("ray")


def test_ray_results_equal_single_process_results() -> None:
    register_toy()
    spec = TournamentSpec.create(BidsGame, ["random", "random", "random"], games=60, seed=9)
    local = run_tournament(spec, workers=1).to_json()
    on_ray = run_tournament(spec, ray_address="auto", chunksize=7).to_json()
    for key in ("seconds", "games_per_second", "workers"):
        local.pop(key)
        on_ray.pop(key)
    assert on_ray == local
