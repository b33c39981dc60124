"""Perft counts from fixed positions and a golden playthrough."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit

HERE = Path(__file__).parent


@pytest.mark.parametrize("name", sorted(p.name for p in (HERE / "perft").glob("*.perft")))
def test_perft(name: str) -> None:
    kit.check_perft_file(HERE / "perft" / name)


def test_golden_playthrough_2p() -> None:
    game = load_game("scythe", 2, {"factions": "nordic,crimea", "mats": "industrial,engineering"})
    kit.check_golden(
        game, 11, HERE / "golden" / "nordic_crimea_seed11.txt", max_steps=120, views="seat-change"
    )
