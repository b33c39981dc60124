"""``hexfolk perft --position FILE`` and ``hexfolk play --position FILE`` (issue 14).

The position files are written by the games' own ``State.position()``: the toy game's here,
and each engine's (both implement positions; a game that raised NotImplementedError would
fail here, not be skipped).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hexfolk.core import MatchRecord, State, load_game, replay
from hexfolk.core.testing import perft, start_position
from tests.cli.helpers import one_json_object


def _write(tmp_path: Path, doc: object, name: str = "position.json") -> Path:
    """Write ``doc`` as JSON (``None``: a broken file)."""
    path = tmp_path / name
    path.write_text("[1, 2" if doc is None else json.dumps(doc), encoding="utf-8")
    return path


def _after_deal(players: int = 3) -> State:
    state = load_game("bids", players, {"hand": 2}).new_initial_state()
    rng = random.Random(11)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    return state


def test_perft_counts_from_a_position_file(cli, tmp_path: Path) -> None:
    state = _after_deal(3)
    state.apply(state.legal_actions()[0])  # seat 0 bids: seats 1 and 2 have 2 choices each
    path = _write(tmp_path, state.position())
    res = cli("perft", "bids", "--position", str(path), "--depth", "3", "--json")
    assert res.exit_code == 0, res.output
    data = one_json_object(res.stdout)
    assert data["counts"] == {"1": 2, "2": 4, "3": 4}  # then seat 0's last card: one line
    assert data["counts"] == {str(d): perft(state.clone(), d) for d in (1, 2, 3)}
    assert data["players"] == 3 and data["position"] == f"position {path}"
    # GAME and --players may be left out: the document names them
    again = cli("perft", "--position", str(path), "--depth", "3", "--json")
    assert one_json_object(again.stdout)["counts"] == data["counts"]


def test_a_bad_position_file_is_one_error_line(cli, tmp_path: Path) -> None:
    good = _after_deal(2).position()
    cases = [
        (tmp_path / "missing.json", "cannot read position"),
        (_write(tmp_path, None, "broken.json"), "not valid JSON"),
        (_write(tmp_path, [1, 2], "list.json"), "not a position document"),
        (_write(tmp_path, {**good, "round": 5}, "round.json"), "round 5 is not one of 0..2"),
        (_write(tmp_path, {**good, "game": "island"}, "island.json"), "not 'bids'"),
    ]
    for path, needle in cases:
        for command in (("perft", "--depth", "1"), ("play", "--players", "high,high")):
            res = cli(command[0], "bids", *command[1:], "--position", str(path), input="")
            assert res.exit_code == 2, (path, command, res.output)
            lines = res.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
            assert needle in lines[0], (needle, lines[0])
    res = cli("perft", "bids", "--depth", "1", "--position", str(path), "--record", str(path))
    assert res.exit_code == 2 and "not both" in res.stderr


def test_play_from_a_position_records_it_and_the_record_replays(cli, tmp_path: Path) -> None:
    state = _after_deal(2)
    state.apply(state.legal_actions()[1])  # seat 0 bids its higher card
    path = _write(tmp_path, state.position())
    out = tmp_path / "game.json"
    res = cli(
        "play", "bids", "--players", "high,high", "--position", str(path), "--record", str(out)
    )
    assert res.exit_code == 0, res.output
    assert "Game over." in res.stdout
    rec = MatchRecord.load(out)
    assert rec.position == state.position()
    assert not any(a.startswith("deal") for a in rec.actions)  # no deal: it started dealt
    assert len(rec.actions) == 3  # seat 1's bid, then one card each
    final = replay(rec)
    assert final.is_terminal() and rec.result["finished"] is True
    shown = cli("replay", str(out), "--json")  # `hexfolk replay` starts from the position too
    assert shown.exit_code == 0, shown.output
    data = one_json_object(shown.stdout)
    assert data["from_position"] is True and data["fingerprint_checked"] is True
    assert data["steps"] == 3 and data["terminal"] is True
    text = cli("replay", str(out)).stdout
    assert "replayed 3 steps from the record's start position: ok" in text


@pytest.mark.parametrize("game_id", ["island", "scythe"])
def test_engine_positions_work_with_perft_and_play(cli, tmp_path: Path, game_id: str) -> None:
    game = load_game(game_id, 2 if game_id == "scythe" else 3)
    state = start_position(game, 4)
    bad = _write(tmp_path, {"game": game_id, "players": game.num_players}, "bad.json")
    res = cli("perft", game_id, "--depth", "1", "--position", str(bad))
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1, res.output
    assert res.stderr.startswith("error: "), res.stderr
    doc = state.position()  # both engines write positions: no skip
    assert "does not load positions" not in res.stderr
    path = _write(tmp_path, doc)
    assert game.load_position(doc).fingerprint() == state.fingerprint()
    res = cli("perft", game_id, "--position", str(path), "--depth", "1", "--json")
    assert res.exit_code == 0, res.output
    assert one_json_object(res.stdout)["counts"] == {"1": perft(state.clone(), 1)}
    record = tmp_path / "game.json"
    bots = ",".join(["random"] * game.num_players)
    res = cli("play", game_id, "-p", bots, "--position", str(path), "--record", str(record))
    assert res.exit_code == 0, res.output
    rec = MatchRecord.load(record)
    assert rec.position == doc and replay(rec).is_terminal()
