"""Issue 11: records of games played by the search bots replay bit for bit.

The hard bots clone the real state thousands of times (island: the setup lookahead and ISMCTS;
Scythe: ISMCTS over the turn). A clone that shared a memo with the real state once made the real
game pay wrong production, and its records failed ``hexfolk replay``. These games use small
search budgets (iterations, not milliseconds, so they are deterministic and quick) and every
record goes through its JSON text and :func:`hexfolk.core.replay` (fingerprint and winners).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hexfolk.bots.tournament import TournamentSpec, play_game, run_tournament, verify_record
from hexfolk.core import MatchRecord, game_class, load_game

ISLAND_HARD = "hard:iters=8:setup=4:setup_depth=60"
SCYTHE_HARD = "hard:iters=12:width=3"


@pytest.mark.parametrize(
    ("game_id", "bots", "games"),
    [
        ("island", [ISLAND_HARD, "medium"], 3),
        ("island", [ISLAND_HARD, ISLAND_HARD, "medium", "easy"], 1),
        ("scythe", [SCYTHE_HARD, "medium"], 1),
    ],
)
def test_search_bot_games_replay(game_id: str, bots: list[str], games: int, tmp_path: Path) -> None:
    spec = TournamentSpec.create(
        game_class(game_id), bots, games=games, seed=4, record_dir=tmp_path, verify=True
    )
    result = run_tournament(spec)
    assert result.stats.replay_failures == []
    records = sorted(tmp_path.glob("game-*.json"))
    assert len(records) == games
    game = load_game(game_id, len(bots))
    for path in records:  # and once more from the files, as `hexfolk replay` reads them
        record = MatchRecord.load(path)
        assert record.final_fingerprint is not None
        assert verify_record(path.read_text(encoding="utf-8"), game) is None


def test_verify_reports_a_record_that_does_not_replay(tmp_path: Path) -> None:
    """The check can fail: a record whose dice were changed does not replay."""
    spec = TournamentSpec.create(
        game_class("island"), ["medium", "medium"], games=1, seed=2, record_dir=tmp_path
    )
    game = spec.make_game()
    play_game(spec, game, 0)
    text = (tmp_path / "game-000000.json").read_text(encoding="utf-8")
    assert verify_record(text, game) is None
    record = MatchRecord.loads(text)
    i = [i for i, a in enumerate(record.actions) if a.startswith("roll ")][3]
    record.actions[i] = "roll 12" if record.actions[i] != "roll 12" else "roll 2"
    assert verify_record(record.dumps(), game) is not None
