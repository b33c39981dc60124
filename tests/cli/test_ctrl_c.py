"""Nothing is lost (issue 17): Ctrl-C in `hexfolk play` saves the record as quit does; Ctrl-C
in `hexfolk simulate` stops cleanly with the results of the games finished so far."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hexfolk.bots.tournament import TournamentSpec, run_tournament
from hexfolk.cli import play_cmd
from hexfolk.core import MatchRecord, game_class, replay
from tests.cli.helpers import one_json_object

ROOT = Path(__file__).resolve().parents[2]


def _interrupting_reader(lines: list[str]):  # type: ignore[no-untyped-def]
    """A terminal that answers ``lines`` and then gets Ctrl-C."""

    def factory(console):  # type: ignore[no-untyped-def]
        queue = list(lines)

        def read(prompt: str) -> str | None:
            if not queue:
                raise KeyboardInterrupt
            return queue.pop(0)

        return read

    return factory


def test_ctrl_c_in_play_saves_the_record_as_quit_does(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(play_cmd, "stdin_reader", _interrupting_reader(["1"]))
    path = tmp_path / "game.json"
    res = cli("play", "bids", "--seed", "3", "--record", str(path))
    assert res.exit_code == 130, res.output
    assert "Interrupted: you left the game." in res.stdout
    assert "record saved to" in res.stdout and path.exists()
    rec = MatchRecord.load(path)
    assert rec.result["quit"] is True and rec.result["finished"] is False
    assert sum(a.startswith("bid") for a in rec.actions) == 2  # yours, then the bot's
    replay(rec)  # the record so far replays, its result checked whole


def test_ctrl_c_in_the_middle_of_a_step_keeps_a_whole_record(tmp_path: Path) -> None:
    """An interrupt inside apply leaves the session's state rebuilt from the steps taken."""
    from rich.console import Console

    from hexfolk.core import load_game

    game = load_game("bids", 2)
    console = Console(file=io.StringIO())
    session = play_cmd.PlaySession(game, ["random", "random"], 5, console=console, read_line=input)
    real = session.state.apply
    calls = {"n": 0}

    def flaky(action):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 6:
            real(action)  # the step is half-taken: the state moved, the record did not
            raise KeyboardInterrupt
        real(action)

    session.state.apply = flaky  # type: ignore[method-assign]
    session.run()
    assert session.interrupted and len(session.actions) == 5
    assert replay(session.record()).fingerprint() == session.state.fingerprint()


def test_ctrl_c_in_a_tournament_keeps_the_finished_games() -> None:
    spec = TournamentSpec.create(game_class("bids"), ["random", "random"], games=50, seed=1)
    seen: list[int] = []

    def progress(outcome) -> None:  # type: ignore[no-untyped-def]
        seen.append(outcome.index)
        if len(seen) == 7:
            raise KeyboardInterrupt

    result = run_tournament(spec, progress=progress)
    assert result.interrupted and result.stats.games == 7
    data = result.to_json()
    assert data["interrupted"] is True and data["games"] == 7 and data["games_planned"] == 50


def _spawn(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100"}
    return subprocess.Popen(
        [sys.executable, "-m", "hexfolk.cli.main", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess")
def test_sigint_to_play_saves_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    proc = _spawn("play", "island", "--seed", "4", "--record", str(path))
    assert proc.stdout is not None
    seen = ""
    deadline = time.monotonic() + 60
    while "seat 0> " not in seen and time.monotonic() < deadline:
        seen += proc.stdout.read(1)
    assert "seat 0> " in seen, seen[-500:]
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "Interrupted: you left the game." in out and "record saved to" in out
    rec = MatchRecord.load(path)
    assert rec.result["quit"] is True and rec.actions[0].startswith("layout")
    replay(rec)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess")
def test_sigint_to_simulate_with_workers_reports_the_finished_games(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    proc = _spawn(
        "simulate", "scythe", "-n", "100000", "-w", "2", "--json", "-q", "--record-dir", str(runs)
    )
    # interrupted once a game is on disk (rather than after a fixed while): a run under way
    deadline = time.monotonic() + 60
    while not list(runs.glob("game-*.json")) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    assert list(runs.glob("game-*.json")), "no game finished in 60 s"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    data = one_json_object(out)
    assert data["interrupted"] is True and data["games_planned"] == 100000
    assert 0 <= data["games"] < 100000
    assert f"interrupted: {data['games']} of 100000 games finished" in err
    assert len(data["seats"]) == 2 and json.dumps(data)
    # every record on disk is whole: none cut off mid-write, the newest ones replay
    assert not list(runs.glob("*.part"))
    written = sorted(runs.glob("game-*.json"))
    assert len(written) >= data["games"]
    for path in written[-2:]:
        replay(MatchRecord.load(path))
