"""The budget's text form and the documented thresholds of an inaccuracy, a mistake and a
blunder (issue 29 point 2; docs/analysis.md)."""

from __future__ import annotations

import pytest

from hexfolk.analysis import Budget
from hexfolk.analysis.estimator import softmax_chances
from hexfolk.analysis.result import label_of


def test_budget_text_round_trip_and_defaults() -> None:
    assert Budget.parse("default") == Budget() == Budget(actions=12, rollouts=0, depth=40)
    budget = Budget.parse("horizon=5, actions=3,rollouts=2")
    assert budget == Budget(actions=3, rollouts=2, depth=40, horizon=5)
    assert Budget.parse(budget.text()) == budget


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("actions=0", "at least 1"),
        ("rollouts=-1", "must not be negative"),
        ("width=3", "is not actions=N"),
        ("actions", "is not actions=N"),
        ("depth=deep", "whole number"),
    ],
)
def test_bad_budget_is_refused_with_its_reason(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Budget.parse(text)


def test_thresholds() -> None:
    assert label_of(0.0) is None
    assert label_of(0.0499) is None
    assert label_of(0.05) == "inaccuracy"
    assert label_of(0.0999) == "inaccuracy"
    assert label_of(0.10) == "mistake"
    assert label_of(0.1999) == "mistake"
    assert label_of(0.20) == "blunder"
    assert label_of(1.0) == "blunder"


def test_softmax_is_a_distribution_even_for_huge_scores() -> None:
    chances = softmax_chances([1000.0, 0.0, 999.0], 0.05)
    assert sum(chances) == pytest.approx(1.0) and chances[0] > chances[2] > chances[1] >= 0.0
    assert softmax_chances([3.0, 3.0], 1.0) == [0.5, 0.5]
