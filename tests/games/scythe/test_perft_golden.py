"""Perft counts from fixed positions and a golden playthrough.

Neither can pass vacuously: the perft files are listed by name (a missing one fails, it does
not silently drop out of the parametrization), and a missing golden file fails unless
``HEXFOLK_REGEN_GOLDEN=1`` asks for it to be written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit

HERE = Path(__file__).parent
PERFT_FILES = (
    "encounter_polania_3p.perft",
    "factory_card_2p.perft",
    "midgame_3p.perft",
    "opening_move.perft",
)
GOLDEN = HERE / "golden" / "nordic_crimea_seed11.txt"


def test_every_perft_file_is_listed() -> None:
    assert sorted(p.name for p in (HERE / "perft").glob("*.perft")) == sorted(PERFT_FILES)


@pytest.mark.parametrize("name", PERFT_FILES)
def test_perft(name: str) -> None:
    path = HERE / "perft" / name
    assert path.is_file(), f"perft file {path} is missing"
    kit.check_perft_file(path)


def test_golden_playthrough_2p() -> None:
    if os.environ.get("HEXFOLK_REGEN_GOLDEN") != "1":
        assert GOLDEN.is_file(), f"{GOLDEN} is missing (HEXFOLK_REGEN_GOLDEN=1 writes it)"
    game = load_game("scythe", 2, {"factions": "nordic,crimea", "mats": "industrial,engineering"})
    kit.check_golden(game, 11, GOLDEN, max_steps=120, views="seat-change")
