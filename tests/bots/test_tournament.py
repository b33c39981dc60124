"""The tournament runner API: seed derivation, seat rotation, Wilson intervals, sums, workers."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hexfolk.bots.tournament import (
    TournamentSpec,
    TournamentStats,
    class_ref,
    game_seed,
    iter_outcomes,
    load_class_ref,
    record_name,
    run_tournament,
    seat_of_entry,
    seats_for_game,
    wilson_interval,
)
from hexfolk.core import MatchRecord, OptionError, derive_seed, replay
from tests.core.toygame import BidsGame, register_toy

register_toy()


def test_game_seed_is_derive_seed_game_index() -> None:
    assert game_seed(7, 3) == derive_seed(7, "game", 3)
    assert len({game_seed(7, g) for g in range(100)}) == 100


def test_seat_rotation_entry_i_sits_at_i_plus_g_mod_n() -> None:
    assert [seat_of_entry(i, 0, 3) for i in range(3)] == [0, 1, 2]
    assert [seat_of_entry(i, 1, 3) for i in range(3)] == [1, 2, 0]
    assert [seat_of_entry(i, 5, 3) for i in range(3)] == [2, 0, 1]
    assert seats_for_game(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert seats_for_game(["a", "b", "c"], 1) == ["c", "a", "b"]
    assert seats_for_game(["a", "b", "c"], 2) == ["b", "c", "a"]


def test_wilson_interval_known_values() -> None:
    # textbook: 8 successes in 10 trials, 95% -> (0.4902, 0.9433)
    lo, hi = wilson_interval(8, 10)
    assert math.isclose(lo, 0.4902, abs_tol=1e-4) and math.isclose(hi, 0.9433, abs_tol=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and math.isclose(hi, 0.2775, abs_tol=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert math.isclose(lo, 0.7225, abs_tol=1e-4) and hi == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(50, 100)  # symmetric around one half
    assert math.isclose(lo + hi, 1.0) and math.isclose(lo, 0.4038, abs_tol=1e-4)
    lo, hi = wilson_interval(2.5, 5)  # a shared win counts as a fraction
    assert lo < 0.5 < hi


def test_class_ref_round_trip_and_refusals() -> None:
    assert class_ref(BidsGame) == "tests.core.toygame:BidsGame"
    assert load_class_ref(class_ref(BidsGame)) is BidsGame
    with pytest.raises(OptionError):
        load_class_ref("tests.core.toygame:NoSuchGame")
    with pytest.raises(OptionError):
        load_class_ref("__main__:Thing")


def test_spec_validates_game_options_bots_and_counts() -> None:
    with pytest.raises(OptionError, match="2 to 4"):
        TournamentSpec.create(BidsGame, ["random"], games=1)
    with pytest.raises(OptionError, match="hand"):
        TournamentSpec.create(BidsGame, ["random", "random"], games=1, options={"hand": 9})
    with pytest.raises(OptionError, match="unknown bot"):
        TournamentSpec.create(BidsGame, ["random", "nobot"], games=1)
    with pytest.raises(OptionError):
        TournamentSpec.create(BidsGame, ["random", "random"], games=-1)
    spec = TournamentSpec.create(BidsGame, ["random", "random"], games=2)
    assert spec.options == {"hand": 2} and spec.players == 2


def test_outcomes_come_in_game_order_with_rotated_returns() -> None:
    spec = TournamentSpec.create(BidsGame, ["random", "random", "random"], games=6, seed=1)
    outcomes = list(iter_outcomes(spec))
    assert [o.index for o in outcomes] == list(range(6))
    for o in outcomes:
        assert o.seed == game_seed(1, o.index)
        assert o.returns == tuple(o.seat_returns[seat_of_entry(i, o.index, 3)] for i in range(3))


def test_stats_are_running_sums() -> None:
    spec = TournamentSpec.create(BidsGame, ["random", "random"], games=10, seed=2)
    stats = TournamentStats(players=2)
    outcomes = list(iter_outcomes(spec))
    for o in outcomes:
        stats.add(o)
    assert stats.games == 10 and stats.finished == 10 and stats.capped == 0
    assert stats.wins == [sum(o.returns[i] for o in outcomes) for i in range(2)]
    assert math.isclose(sum(stats.wins), 10.0)
    assert stats.mean_turns == 2.0
    assert stats.mean_score(0) == sum(o.scores[0] for o in outcomes) / 10


def test_workers_give_identical_sums_and_records(tmp_path: Path) -> None:
    def run(workers: int) -> tuple[dict[str, object], list[str]]:
        folder = tmp_path / str(workers)
        spec = TournamentSpec.create(
            BidsGame, ["random", "random", "random"], games=12, seed=5, record_dir=folder
        )
        data = run_tournament(spec, workers=workers, chunksize=2).to_json()
        for key in ("seconds", "games_per_second", "workers"):
            data.pop(key)
        return data, [(folder / record_name(g)).read_text() for g in range(12)]

    assert run(1) == run(2)


def test_records_replay_and_name_the_seated_bots(tmp_path: Path) -> None:
    spec = TournamentSpec.create(BidsGame, ["random", "random"], games=2, record_dir=tmp_path)
    run_tournament(spec)
    rec = MatchRecord.load(tmp_path / "game-000001.json")
    assert rec.seed == game_seed(0, 1) and rec.bots == ["random", "random"]
    assert replay(rec).is_terminal()


def test_turn_cap_zero_means_no_cap_and_one_caps() -> None:
    capped = TournamentSpec.create(BidsGame, ["random", "random"], games=3, turn_cap=1)
    stats = run_tournament(capped).stats
    assert stats.capped == 3 and stats.wins == [0.0, 0.0]
    free = TournamentSpec.create(BidsGame, ["random", "random"], games=3, turn_cap=0)
    assert run_tournament(free).stats.finished == 3


def test_progress_is_called_once_per_game() -> None:
    spec = TournamentSpec.create(BidsGame, ["random", "random"], games=4)
    seen: list[int] = []
    run_tournament(spec, progress=lambda o: seen.append(o.index))
    assert seen == [0, 1, 2, 3]
