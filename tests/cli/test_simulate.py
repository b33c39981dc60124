"""`hexfolk simulate`: JSON shape, determinism across workers, seat rotation, records, errors."""

from __future__ import annotations

import json
from pathlib import Path

from hexfolk.bots.registry import make_bot
from hexfolk.core import Match, derive_seed, load_game
from tests.cli.helpers import one_json_object

KEYS = {"game", "games", "finished", "capped", "seconds", "games_per_second", "mean_turns", "seats"}
TIMING = ("seconds", "games_per_second", "workers")


def _manual_wins(codes: list[str], games: int, seed: int, *, rotate: bool) -> list[float]:
    """Per-entry wins computed directly with Match: game g uses derive_seed(S, "game", g) and
    entry i sits at seat (i + g) mod n (the issue's rule)."""
    n = len(codes)
    game = load_game("bids", n)
    wins = [0.0] * n
    for g in range(games):
        shift = g if rotate else 0
        by_seat = [""] * n
        for i, code in enumerate(codes):
            by_seat[(i + shift) % n] = code
        result = Match(
            game, [make_bot(c, "bids") for c in by_seat], derive_seed(seed, "game", g)
        ).run()
        for i in range(n):
            wins[i] += result.returns[(i + shift) % n]
    return wins


def test_simulate_json_is_exactly_one_object_with_the_keys(cli) -> None:
    res = cli("simulate", "bids", "--players", "random,random", "--games", "6", "--json")
    assert res.exit_code == 0, res.output
    data = one_json_object(res.stdout)
    assert set(data) >= KEYS
    assert data["game"] == "bids" and data["games"] == 6
    assert data["finished"] + data["capped"] == 6
    seats = data["seats"]
    assert [s["bot"] for s in seats] == ["random", "random"]
    for s in seats:
        assert {"bot", "wins", "mean_score", "win_rate", "ci95"} <= set(s)
        lo, hi = s["ci95"]
        assert 0.0 <= lo <= s["win_rate"] <= hi <= 1.0
    # every finished toy game hands out exactly one point of returns (shared wins split)
    assert abs(sum(s["wins"] for s in seats) - data["finished"]) < 1e-9


def test_simulate_results_identical_for_workers_1_and_2(cli) -> None:
    args = ["simulate", "bids", "--players", "high,random,random", "--games", "40", "--seed", "9"]
    one = one_json_object(cli(*args, "--json", "--workers", "1").stdout)
    two = one_json_object(cli(*args, "--json", "--workers", "2").stdout)
    for key in TIMING:
        one.pop(key)
        two.pop(key)
    assert one == two


def test_simulate_seat_rotation_counts_wins_per_entry(cli) -> None:
    codes = ["high", "random", "random"]
    res = cli(
        "simulate", "bids", "--players", ",".join(codes), "--games", "30", "--seed", "4", "--json"
    )
    data = one_json_object(res.stdout)
    expected = _manual_wins(codes, 30, 4, rotate=True)
    assert [s["wins"] for s in data["seats"]] == expected
    # the test can tell: without rotation the per-entry sums differ for this seed
    assert expected != _manual_wins(codes, 30, 4, rotate=False)
    assert [s["mean_score"] for s in data["seats"]] != []


def test_simulate_game_seed_is_derived_per_game(cli, tmp_path: Path) -> None:
    cli("simulate", "bids", "--games", "3", "--seed", "11", "--record-dir", str(tmp_path), "-q")
    seeds = [json.loads((tmp_path / f"game-{g:06d}.json").read_text())["seed"] for g in range(3)]
    assert seeds == [derive_seed(11, "game", g) for g in range(3)]


def test_simulate_record_dir_records_replay(cli, tmp_path: Path) -> None:
    res = cli(
        "simulate",
        "bids",
        "--players",
        "high,random",
        "--games",
        "4",
        "--seed",
        "2",
        "--record-dir",
        str(tmp_path / "runs"),
        "--json",
    )
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert files == [f"game-{g:06d}.json" for g in range(4)]
    for g in range(4):
        path = tmp_path / "runs" / f"game-{g:06d}.json"
        rec = json.loads(path.read_text())
        assert rec["bots"] == (["high", "random"] if g % 2 == 0 else ["random", "high"])
        out = cli("replay", str(path), "--json")
        assert out.exit_code == 0, out.output
        summary = one_json_object(out.stdout)
        assert summary["verified"] and summary["fingerprint_checked"]
        assert summary["winners"] == rec["result"]["winners"]


def test_simulate_record_dir_same_files_for_any_worker_count(cli, tmp_path: Path) -> None:
    for w in ("1", "2"):
        res = cli(
            "simulate",
            "bids",
            "--games",
            "5",
            "--seed",
            "3",
            "--workers",
            w,
            "-q",
            "--record-dir",
            str(tmp_path / w),
        )
        assert res.exit_code == 0, res.output
    for g in range(5):
        name = f"game-{g:06d}.json"
        assert (tmp_path / "1" / name).read_text() == (tmp_path / "2" / name).read_text()


def test_simulate_turn_cap_counts_capped_games(cli) -> None:
    data = one_json_object(
        cli("simulate", "bids", "--games", "5", "--turn-cap", "1", "--json").stdout
    )
    assert data["capped"] == 5 and data["finished"] == 0
    assert data["mean_turns"] == 1.0
    assert all(s["wins"] == 0 for s in data["seats"])


def test_simulate_option_changes_the_game(cli) -> None:
    data = one_json_object(
        cli("simulate", "bids", "--option", "hand=1", "--games", "3", "--json").stdout
    )
    assert data["options"] == {"hand": 1}
    assert data["mean_turns"] == 1.0


def test_simulate_table_shows_entries_ci_and_speed(cli) -> None:
    res = cli("simulate", "bids", "--players", "high,random", "--games", "5")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for text in ("high", "random", "95% CI", "mean score", "games/s", "finished 5"):
        assert text in out
    assert "simulating" in res.stderr  # the progress bar is on stderr
    assert "simulating" not in out


def _assert_user_error(res, *needles: str) -> None:  # type: ignore[no-untyped-def]
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    for needle in needles:
        assert needle in lines[0]
    assert res.stdout == ""


def test_simulate_unknown_game_is_exit_2(cli) -> None:
    _assert_user_error(cli("simulate", "nosuchgame", "--games", "1"), "nosuchgame", "known games")


def test_simulate_unknown_bot_is_exit_2(cli) -> None:
    _assert_user_error(cli("simulate", "bids", "--players", "random,wizard"), "wizard")


def test_simulate_bad_options_are_exit_2(cli) -> None:
    _assert_user_error(cli("simulate", "bids", "--option", "hand=5"), "hand", "1 and 2")
    _assert_user_error(cli("simulate", "bids", "--option", "colour=red"), "colour")
    _assert_user_error(cli("simulate", "bids", "--option", "hand"), "key=value")
    _assert_user_error(cli("simulate", "bids", "--option", "hand=two"), "hand")


def test_simulate_wrong_player_count_is_exit_2(cli) -> None:
    _assert_user_error(cli("simulate", "bids", "--players", "random"), "2 to 4")
    _assert_user_error(cli("simulate", "bids", "--players", "random," * 4 + "random"), "not 5")
    _assert_user_error(cli("simulate", "bids", "--players", "random,,random"), "--players")


def test_simulate_refuses_the_human_bot(cli) -> None:
    _assert_user_error(cli("simulate", "bids", "--players", "human,random"), "human")


def test_simulate_a_crashing_game_names_its_index_and_seed(cli) -> None:
    for workers in ("1", "2"):
        res = cli(
            "simulate",
            "bids",
            "--players",
            "crash,random",
            "--games",
            "4",
            "--seed",
            "6",
            "--workers",
            workers,
            "-q",
        )
        assert res.exit_code == 1, res.output
        assert "RuntimeError: the crash bot always fails" in res.stderr  # the traceback
        last = res.stderr.strip().splitlines()[-1]
        assert (
            last == f"error: game 0 (seed {derive_seed(6, 'game', 0)}) crashed: "
            "RuntimeError: the crash bot always fails"
        )
