"""The command line is consistent (issue 17): every usage error is one `error:` line on stderr
with exit code 2 (docs/cli.md), `simulate` never offers `human`, an unknown bot is named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _one_error_line(res) -> str:  # type: ignore[no-untyped-def]
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and "Usage:" not in res.output
    line = res.stderr.strip()
    assert "\n" not in line and line.startswith("error: "), res.stderr
    return line


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play"], "hexfolk play: missing argument 'GAME'"),
        (["replay"], "hexfolk replay: missing argument 'RECORD'"),
        (["play", "--bogus", "bids"], "hexfolk play: no such option: --bogus"),
        (["simulate", "bids", "--games", "many"], "invalid value for '--games'"),
        (["simulate", "bids", "--workers", "0"], "invalid value for '--workers'"),
        (["nosuchcommand"], "hexfolk: no such command 'nosuchcommand'"),
        (["games", "--bogus"], "hexfolk games: no such option: --bogus"),
        (["perft", "bids"], "hexfolk perft: missing option '--depth'"),
    ],
)
def test_usage_errors_are_one_error_line_with_exit_2(cli, args: list[str], needle: str) -> None:
    line = _one_error_line(cli(*args))
    assert needle in line, line
    assert line.endswith("--help)")


def test_an_unknown_bot_is_named_not_read_as_a_player_count(cli) -> None:
    line = _one_error_line(cli("simulate", "bids", "--players", "nonsense"))
    assert line == "error: unknown bot 'nonsense'; the bots are: " + _bots() + ""
    line = _one_error_line(cli("play", "bids", "--players", "human,nonsense"))
    assert "unknown bot 'nonsense'" in line and "and human (a person at this terminal)" in line


def _bots() -> str:
    from hexfolk.bots.registry import bot_names

    return ", ".join(bot_names())


def test_simulate_does_not_offer_human(cli) -> None:
    line = _one_error_line(cli("simulate", "bids", "--players", "nonsense,random"))
    assert "human" not in line
    assert "human" not in cli("simulate", "--help").stdout
    line = _one_error_line(cli("simulate", "bids", "--players", "human,random"))
    assert "use `hexfolk play`" in line


def test_the_console_script_prints_one_error_line() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    res = subprocess.run(
        [sys.executable, "-m", "hexfolk.cli.main", "play", "--bogus"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert res.returncode == 2
    assert res.stderr.strip().count("\n") == 0 and res.stderr.startswith("error: ")
