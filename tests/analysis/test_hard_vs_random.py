"""A game between a hard and a random bot shows the random bot with far more lost win chance
per decision (issue 29 point 6)."""

from __future__ import annotations

from hexfolk.analysis import Budget, analyze_record
from tests.analysis.records import record


def test_random_loses_far_more_per_decision_than_hard() -> None:
    rec = record("scythe", 2, ("hard:iters=40", "random"), 5, 12)
    analysis = analyze_record(rec, Budget())
    hard, rand = analysis.seats
    assert hard.decisions >= 10 and rand.decisions >= 10
    assert rand.lost_mean > 0.005
    assert rand.lost_mean >= 5 * hard.lost_mean
