"""Luck + skill adds up to the final result minus the starting chance, exactly, per seat
(issue 29 points 2 and 6), and every step's chances are a distribution (point 1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hexfolk.analysis import Budget, analyze_record
from tests.analysis.records import record

GAMES = [
    ("island", 4, ("medium", "easy", "random", "medium"), 7, 14),
    ("scythe", 2, ("medium", "easy"), 7, 14),
    ("scythe", 3, ("medium", "random", "easy"), 8, 10),
]


@pytest.mark.parametrize(("game_id", "players", "codes", "seed", "cap"), GAMES)
def test_luck_plus_skill_is_final_minus_start_exactly(
    game_id: str, players: int, codes: tuple[str, ...], seed: int, cap: int
) -> None:
    rec = record(game_id, players, codes, seed, cap)
    analysis = analyze_record(rec, Budget(actions=4, horizon=10))
    assert len(analysis.steps) == len(rec.actions)
    for seat in analysis.seats:
        s = seat.seat
        luck, skill, prev = Fraction(0), Fraction(0), Fraction(analysis.start[s])
        for st in analysis.steps:  # summed again here, in step order, with fractions
            now = Fraction(st.chances[s])
            if st.kind == "chance":
                luck += now - prev
            else:
                skill += now - prev
            prev = now
        assert Fraction(seat.luck_exact) == luck
        assert Fraction(seat.skill_exact) == skill
        assert luck + skill == Fraction(seat.final) - Fraction(seat.start)
        assert seat.luck == float(luck) and seat.skill == float(skill)
        assert seat.final == analysis.steps[-1].chances[s]
    # the chance steps moved someone's chance: luck is not all zeros by construction
    assert any(seat.luck != 0 for seat in analysis.seats)


@pytest.mark.parametrize(("game_id", "players", "codes", "seed", "cap"), GAMES)
def test_every_step_is_a_distribution_over_the_seats(
    game_id: str, players: int, codes: tuple[str, ...], seed: int, cap: int
) -> None:
    analysis = analyze_record(record(game_id, players, codes, seed, cap), Budget(horizon=0))
    for chances in [analysis.start, *(st.chances for st in analysis.steps)]:
        assert len(chances) == players
        assert all(0.0 <= x <= 1.0 for x in chances)
        assert sum(chances) == pytest.approx(1.0, abs=1e-12)


def test_a_finished_game_ends_at_its_result() -> None:
    rec = record("scythe", 2, ("medium", "medium"), 21, 0)  # the forced-win test's game
    analysis = analyze_record(rec, Budget(actions=2, horizon=0))
    assert analysis.finished and rec.result["finished"]
    winners = rec.result["winners"]
    expected = [1.0 / len(winners) if s in winners else 0.0 for s in range(2)]
    assert list(analysis.steps[-1].chances) == expected
    assert [seat.final for seat in analysis.seats] == expected
