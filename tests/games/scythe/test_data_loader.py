"""SR-1..SR-3: game numbers come from the data files, and unresolved card values are refused."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from hexfolk.games.scythe import data as D

REFERENCE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "scythe_base_data.json"
"""The reference data file, copied into the repository beside the rules sheet it belongs to."""


def test_sr3_a_disputed_value_is_refused() -> None:
    with pytest.raises(ValueError, match="unresolved disputed value"):
        D.reject_unresolved({"benefit": "DISPUTED: +2 popularity or +2 power"}, "factory:3")


@pytest.mark.parametrize(
    "edit",
    [
        lambda r: r.__setitem__("cost", {"popularity": "two"}),
        lambda r: r.__setitem__("cost", {"bribe": 1}),
        lambda r: r.__setitem__("benefit", ["gain something nice"]),
        lambda r: r.__setitem__("benefit", [{"power": True}]),
        lambda r: r.__setitem__("benefit", [{"choose": ["teleport"]}]),
    ],
)
def test_sr2_card_effects_must_be_resolved_values_of_known_kinds(edit: object) -> None:
    record = copy.deepcopy(D.FACTORY_CARDS[0])
    D.check_card_effects(record)  # the real record passes
    edit(record)  # type: ignore[operator]
    with pytest.raises(ValueError):
        D.check_card_effects(record)


def test_sr1_card_counts_match_the_reference_facts() -> None:
    facts = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert len(D.ENCOUNTER_CARDS) == len(facts["encounter_cards"]["cards"]) == 28
    assert len(D.FACTORY_CARDS) == len(facts["factory_cards"]["cards"]) == 12
