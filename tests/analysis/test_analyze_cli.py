"""``hexfolk analyze RECORD [--json] [--budget ...]`` on records of both games (issue 29
point 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tests.cli.helpers  # noqa: F401  (registers the toy game ``bids``)
from hexfolk.bots.registry import make_bot
from hexfolk.cli.main import app
from hexfolk.core import Match, load_game
from tests.analysis.records import bot_record

RUNNER = CliRunner()


@pytest.mark.parametrize(
    ("game_id", "players", "codes"),
    [("island", 4, ("medium", "easy", "random", "medium")), ("scythe", 2, ("medium", "easy"))],
)
def test_json_analysis_of_a_record(
    tmp_path: Path, game_id: str, players: int, codes: tuple[str, ...]
) -> None:
    path = tmp_path / "game.json"
    text = bot_record(game_id, players, codes, 9, 8)
    path.write_text(text)
    result = RUNNER.invoke(
        app, ["analyze", str(path), "--json", "-q", "--budget", "actions=5,horizon=8"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["game"] == game_id and doc["players"] == players
    assert doc["budget"] == {"actions": 5, "rollouts": 0, "depth": 40, "horizon": 8}
    assert len(doc["steps"]) == len(json.loads(text)["actions"])
    assert len(doc["seats"]) == players and doc["turning_points"]


def test_text_report(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(bot_record("scythe", 2, ("medium", "easy"), 9, 8))
    result = RUNNER.invoke(app, ["analyze", str(path), "-q", "--budget", "actions=3"])
    assert result.exit_code == 0, result.output
    assert "luck + skill = final - start" in result.stdout
    assert "turning points" in result.stdout


def test_help_documents_the_budget() -> None:
    result = RUNNER.invoke(app, ["analyze", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for word in ("--budget", "actions=N", "rollouts=N", "depth=N", "horizon=N", "default 12"):
        assert word in text, word


def test_bad_budget_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(bot_record("scythe", 2, ("medium", "easy"), 9, 8))
    result = RUNNER.invoke(app, ["analyze", str(path), "--budget", "actions=lots"])
    assert result.exit_code == 2
    assert "error: --budget: budget actions must be a whole number" in result.stderr


def test_a_game_without_an_estimator_is_refused(tmp_path: Path) -> None:
    game = load_game("bids", 2)
    rec = Match(game, [make_bot("random", "bids") for _ in range(2)], 1).run().record
    path = tmp_path / "bids.json"
    rec.save(path)
    result = RUNNER.invoke(app, ["analyze", str(path), "-q"])
    assert result.exit_code == 2
    assert "no win-chance estimator for the game 'bids'" in result.stderr


def test_a_changed_record_is_refused(tmp_path: Path) -> None:
    doc = json.loads(bot_record("scythe", 2, ("medium", "easy"), 9, 8))
    doc["result"]["turns"] = doc["result"]["turns"] + 1
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(doc))
    result = RUNNER.invoke(app, ["analyze", str(path), "-q"])
    assert result.exit_code == 2
    assert "error: record says turns" in result.stderr
