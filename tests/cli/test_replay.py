"""`hexfolk replay`: verify records, show a step, refuse corrupt or tampered records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli.helpers import one_json_object


@pytest.fixture
def record(cli, tmp_path: Path) -> Path:
    res = cli(
        "simulate",
        "bids",
        "--players",
        "high,random",
        "--games",
        "1",
        "--seed",
        "5",
        "--record-dir",
        str(tmp_path),
        "-q",
    )
    assert res.exit_code == 0, res.output
    return tmp_path / "game-000000.json"


def test_replay_prints_summary_winners_scores_turns(cli, record: Path) -> None:
    rec = json.loads(record.read_text())
    res = cli("replay", str(record))
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "replayed 8 steps: ok (final fingerprint matches)" in out  # 4 deals + 4 bids
    assert "turns: 2" in out
    winners = ", ".join(f"seat {s}" for s in rec["result"]["winners"]) or "none"
    assert f"winners: {winners}" in out
    assert "scores: seat 0:" in out


def test_replay_json_matches_the_record(cli, record: Path) -> None:
    rec = json.loads(record.read_text())
    data = one_json_object(cli("replay", str(record), "--json").stdout)
    assert data["steps"] == len(rec["actions"]) == 8
    assert data["winners"] == rec["result"]["winners"]
    assert data["scores"] == rec["result"]["scores"]
    assert data["turns"] == 2 and data["terminal"] is True
    assert data["summary"]["turns"] == 2


def test_replay_show_prints_spectator_observation_after_step(cli, record: Path) -> None:
    data = one_json_object(cli("replay", str(record), "--show", "2", "--json").stdout)
    obs = data["show"]["observation"]
    assert data["show"]["step"] == 2
    assert obs["hand"] is None  # the spectator sees no hand
    assert obs["deck_size"] == 7 and obs["hand_sizes"] == [1, 1]
    assert obs["log"] == ["seat 0 is dealt a card", "seat 1 is dealt a card"]
    text = cli("replay", str(record), "--show", "0").stdout
    assert "after step 0 (spectator)" in text and "round 0" in text


def test_replay_show_beyond_the_record_is_exit_2(cli, record: Path) -> None:
    res = cli("replay", str(record), "--show", "9")
    assert res.exit_code == 2
    assert res.stderr.strip() == "error: --show 9: the record has only 8 steps"


def _tampered(cli, record: Path, change) -> object:  # type: ignore[no-untyped-def]
    data = json.loads(record.read_text())
    change(data)
    record.write_text(json.dumps(data))
    return cli("replay", str(record))


def _assert_record_error(res, needle: str) -> None:  # type: ignore[no-untyped-def]
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    line = res.stderr.strip()
    assert "\n" not in line and line.startswith("error: ") and needle in line, line


def test_replay_tampered_action_is_exit_2(cli, record: Path) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        # the last action is seat 1's last bid; bid a card it does not hold
        hand_cards = {a for a in data["actions"]}
        free = next(f"bid {c}" for c in range(1, 10) if f"deal {c}" not in hand_cards)
        data["actions"][-1] = free

    _assert_record_error(_tampered(cli, record, change), "step 7")


def test_replay_tampered_deal_is_exit_2(cli, record: Path) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["actions"][1] = data["actions"][0]  # the same card dealt twice

    _assert_record_error(_tampered(cli, record, change), "step 1")


def test_replay_tampered_winners_is_exit_2(cli, record: Path) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["result"]["winners"] = [0, 1] if data["result"]["winners"] != [0, 1] else [0]
        data["final_fingerprint"] = None

    _assert_record_error(_tampered(cli, record, change), "winners")


def test_replay_tampered_fingerprint_is_exit_2(cli, record: Path) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["final_fingerprint"] = "0" * 32

    _assert_record_error(_tampered(cli, record, change), "fingerprint")


def test_replay_corrupt_or_missing_file_is_exit_2(cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    _assert_record_error(cli("replay", str(bad)), "not valid JSON")
    bad.write_text(json.dumps({"format": "something-else"}))
    _assert_record_error(cli("replay", str(bad)), "not a hexfolk record")
    _assert_record_error(cli("replay", str(tmp_path / "missing.json")), "cannot read record")


def test_replay_unknown_game_in_record_is_exit_2(cli, record: Path) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["game"] = "nosuchgame"

    _assert_record_error(_tampered(cli, record, change), "nosuchgame")


# --- records are checked whole (issue 17) ------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "value"), [("finished", False), ("scores", [0.0, 99.0]), ("turns", 7)]
)
def test_replay_tampered_result_field_is_exit_2(cli, record: Path, key: str, value: object) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["result"][key] = value

    _assert_record_error(_tampered(cli, record, change), f"record says {key}")


@pytest.fixture
def island_record(cli, tmp_path: Path) -> Path:
    res = cli(
        "simulate",
        "island",
        "-p",
        "easy,easy,easy",
        "-n",
        "1",
        "-s",
        "2",
        "--record-dir",
        str(tmp_path),
        "-q",
    )
    assert res.exit_code == 0, res.output
    return tmp_path / "game-000000.json"


def test_replay_checks_the_checkpoints_of_a_simulated_record(cli, island_record: Path) -> None:
    data = json.loads(island_record.read_text())
    assert data["checkpoints"][0][0] == 50
    res = cli("replay", str(island_record))
    assert res.exit_code == 0, res.output
    assert f"{len(data['checkpoints'])} checkpoints match" in res.stdout


def test_replay_names_a_tampered_dice_roll_within_the_checkpoint_interval(
    cli, island_record: Path
) -> None:
    data = json.loads(island_record.read_text())
    swap = {"roll 6": "roll 8", "roll 8": "roll 6", "roll 5": "roll 9", "roll 9": "roll 5"}
    for i, entry in enumerate(data["actions"]):
        if entry in swap and 60 < i < len(data["actions"]) - 100:
            tampered = json.loads(island_record.read_text())
            tampered["actions"][i] = swap[entry]
            island_record.write_text(json.dumps(tampered))
            res = cli("replay", str(island_record))
            assert res.exit_code == 2, res.output
            line = res.stderr.strip()
            window = re.search(r"record steps (\d+)\.\.(\d+)", line)
            if window:  # a checkpoint caught it: entry i is step i + 1
                first, last = int(window.group(1)), int(window.group(2))
                assert first <= i + 1 <= last and last - first < 50, line
            else:  # a later step stopped replaying, within the interval
                step = int(re.search(r"record step (\d+)", line).group(1))  # type: ignore[union-attr]
                assert i <= step < i + 50, line
            return
    raise AssertionError("no dice roll to tamper with")
