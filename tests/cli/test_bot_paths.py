"""Issue 25 (Deliver 3): every bot level of both games plays through every path a bot plays
through outside the server with no failure: ``hexfolk simulate`` with local worker processes
and with Ray, ``hexfolk play`` bots-only, and the RL environment's opponents. (The server's
worker pool and ``hexfolk connect`` are in ``tests/server/test_bot_pool.py`` and
``test_bot_connect.py``.)

On these paths a bot that raises is never replaced: the run stops with the traceback naming the
game and its seed (``simulate`` exits 1, ``play`` exits 1, the environment's ``step`` raises),
so "no failure" is a run that ends normally with every seat's bot having decided.

Games are bounded: ``simulate`` by ``--turn-cap``, ``play`` by starting from a position near the
end of a seeded game of easy bots, the RL episodes by ``max_turns``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hexfolk.bots.registry import LEVELS, make_bot
from hexfolk.core import Match, load_game
from hexfolk.core.record import apply_entry, split_entry

ALL_LEVELS = ("random", *LEVELS)
PLAYERS = ",".join(ALL_LEVELS)
"""One 4-player table seats every level."""
OPTIONS: dict[str, dict[str, Any]] = {"island": {"vp_target": 8}, "scythe": {}}
TURN_CAP = {"island": 14, "scythe": 16}
BACK = {"island": 100, "scythe": 60}
"""``play`` starts this many steps before the end of a seeded game of easy bots."""


def hexfolk(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hexfolk.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "120"},
    )


def option_args(game: str) -> list[str]:
    return [x for k, v in OPTIONS[game].items() for x in ("-o", f"{k}={v}")]


def simulate(game: str, *extra: str) -> dict[str, Any]:
    out = hexfolk(
        "simulate",
        game,
        "-p",
        PLAYERS,
        "-n",
        "2",
        "--seed",
        "5",
        "--turn-cap",
        str(TURN_CAP[game]),
        "--json",
        "-q",
        *option_args(game),
        *extra,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.stdout)
    assert result["games"] == 2 and not result["interrupted"]
    assert result["mean_decisions"] > 4 * 8  # every seat decided, the hard one included
    return result


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_simulate_with_local_workers_plays_every_level(game: str) -> None:
    result = simulate(game, "--workers", "2")
    assert result["workers"] == 2


def test_simulate_with_ray_plays_every_level_of_both_games() -> None:
    """The tournament runner of ``simulate --ray``, both games in one Ray session (starting
    Ray costs most of the time on a small machine)."""
    ray = pytest.importorskip("ray")
    from hexfolk.bots.tournament import TournamentSpec, run_tournament
    from hexfolk.core import game_class

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for game in ("island", "scythe"):
            spec = TournamentSpec.create(
                game_class(game),
                ALL_LEVELS,
                games=2,
                seed=5,
                options=OPTIONS[game],
                turn_cap=TURN_CAP[game],
            )
            result = run_tournament(spec, ray_address="auto").to_json()
            assert result["games"] == 2 and not result["interrupted"], game
            assert result["mean_decisions"] > 4 * 8, game
    finally:
        ray.shutdown()


def near_the_end(game_id: str, path: Path) -> Path:
    """A position ``BACK`` steps before the end of a seeded 4-player game of easy bots."""
    game = load_game(game_id, 4, OPTIONS[game_id])
    bots = [make_bot("easy", game_id) for _ in range(4)]
    actions = Match(game, bots, 3).run(keep_actions=True).record.actions
    state = game.new_initial_state()
    for entry in actions[: len(actions) - BACK[game_id]]:
        apply_entry(state, entry)
    path.write_text(json.dumps(state.position()))
    return path


def decisions_per_seat(game_id: str, record: dict[str, Any]) -> list[int]:
    game = load_game(game_id, 4, record["options"])
    state = game.load_position(record["position"])
    counts = [0] * 4
    for entry in record["actions"]:
        seat, _ = split_entry(entry)
        if seat is None and not state.is_chance():
            seat = state.current_player()
        if seat is not None:
            counts[seat] += 1
        apply_entry(state, entry)
    assert state.is_terminal()
    return counts


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_play_bots_only_plays_every_level(game: str, tmp_path: Path) -> None:
    position = near_the_end(game, tmp_path / "position.json")
    record = tmp_path / "record.json"
    out = hexfolk(
        "play",
        game,
        "-p",
        PLAYERS,
        "--seed",
        "1",
        "--position",
        str(position),
        "--record",
        str(record),
    )
    assert out.returncode == 0, out.stderr[-3000:]
    counts = decisions_per_seat(game, json.loads(record.read_text()))
    assert min(counts) >= 5, counts


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_rl_opponents_of_every_level_play(game: str) -> None:
    from hexfolk.rl.gym import SingleAgentEnv

    for level in ALL_LEVELS:
        env = SingleAgentEnv(
            game, players=2, options=OPTIONS[game], seed=9, opponents=level, max_turns=10
        )
        rng = np.random.default_rng(1)
        env.reset()
        steps = 0
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
        assert steps > 3 and info["turn"] >= 3, (level, steps, info)
