"""The kernel's phase table (``core/phases.py``, issue 26 item 6): every phase has its row, the
columns are indexed by phase, and an ``apply`` built by action type hands each action to its
own rule function with the acting seat explicit."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import pytest

from hexfolk.core import Action
from hexfolk.core.phases import PhaseRules, PhaseTable, by_action_type


class Step(IntEnum):
    ASK = 0
    ANSWER = 1


@dataclass(frozen=True)
class Yes(Action):
    def __str__(self) -> str:
        return "yes"


@dataclass(frozen=True)
class No(Action):
    def __str__(self) -> str:
        return "no"


def _legal(log: list[tuple[int, str]], seat: int) -> list[Action]:
    return [Yes(), No()] if seat == 1 else []


def _yes(log: list[tuple[int, str]], seat: int, action: Action) -> None:
    log.append((seat, "said yes"))


def _no(log: list[tuple[int, str]], seat: int, action: Action) -> None:
    log.append((seat, "said no"))


def test_a_table_dispatches_per_phase_with_the_seat_explicit() -> None:
    answer = PhaseRules(_legal, by_action_type({Yes: _yes, No: _no}), lambda log, seat: ("?", {}))
    table: PhaseTable[list[tuple[int, str]]] = PhaseTable(
        Step, {Step.ASK: PhaseRules(_legal, _yes), Step.ANSWER: answer}
    )
    log: list[tuple[int, str]] = []
    assert list(table) == [Step.ASK, Step.ANSWER] and table[Step.ANSWER] is answer
    assert table.legal[Step.ANSWER](log, 1) == [Yes(), No()]
    assert table.legal[Step.ANSWER](log, 0) == []
    table.apply[Step.ANSWER](log, 2, No())
    table.apply[Step.ANSWER](log, 1, Yes())
    assert log == [(2, "said no"), (1, "said yes")]
    assert table.prompt[Step.ASK] is None and table.prompt[Step.ANSWER] is not None


def test_a_phase_without_its_row_is_refused_when_the_table_is_built() -> None:
    with pytest.raises(ValueError, match="missing \\['ANSWER'\\]"):
        PhaseTable(Step, {Step.ASK: PhaseRules(_legal, _yes)})


def test_the_moves_column_names_each_rule_function_without_a_call_in_between() -> None:
    """``moves[phase][type(action)]`` is the rule function that ``apply[phase]`` calls: the
    function itself for a row built by action type, the row's ``apply`` for any action class
    otherwise (the island's hot path applies every step so)."""
    answer = PhaseRules(_legal, by_action_type({Yes: _yes, No: _no}))
    table: PhaseTable[list[tuple[int, str]]] = PhaseTable(
        Step, {Step.ASK: PhaseRules(_legal, _no), Step.ANSWER: answer}
    )
    assert table.moves[Step.ANSWER][Yes] is _yes and table.moves[Step.ANSWER][No] is _no
    assert table.moves[Step.ASK][Yes] is _no and table.moves[Step.ASK][No] is _no
    log: list[tuple[int, str]] = []
    table.moves[Step.ANSWER][type(Yes())](log, 1, Yes())
    table.moves[Step.ASK][type(Yes())](log, 0, Yes())
    assert log == [(1, "said yes"), (0, "said no")]
    with pytest.raises(KeyError):
        table.moves[Step.ANSWER][Action]  # a class the row has no rule function for
