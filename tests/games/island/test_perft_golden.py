"""Perft counts from fixed positions and a golden playthrough.

``setup_beginner_3p``: from the first setup decision. Checked by hand: depth 1 = 54 free
intersections; depth 2 = 144 = the sum of node degrees (2 x 72 edges); depth 3 = 7236 =
18 x 2 x (54 - 3) + 36 x 3 x (54 - 4) (18 corner nodes of degree 2, 36 of degree 3; the
settlement and its neighbours are taken). ``first_roll_beginner_4p``: seat 0 before the first
roll; 11 dice sums, the 7 leading to 19 robber moves (hex 15 has two victims).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit

HERE = Path(__file__).parent


PERFT_FILES = (
    "first_roll_beginner_4p.perft",
    "setup_beginner_3p.perft",
    "setup_ring_isle_4p.perft",
    "start_keystone_2p.perft",
)
"""The perft files, named: a missing one fails instead of shrinking the test list."""


@pytest.mark.parametrize("name", PERFT_FILES)
def test_perft(name: str) -> None:
    path = HERE / "perft" / name
    assert path.exists(), f"perft file {path} is missing"
    kit.check_perft_file(path)


def test_every_perft_file_is_named() -> None:
    """A perft file added to the folder is checked only once it is named above."""
    assert sorted(p.name for p in (HERE / "perft").glob("*.perft")) == sorted(PERFT_FILES)


def test_perft_hand_counts() -> None:
    state = kit.start_position(load_game("island", 3, {"board": "beginner"}), 0)
    assert [kit.perft(state, d) for d in (1, 2, 3)] == [54, 144, 7236]
    assert 7236 == 18 * 2 * (54 - 3) + 36 * 3 * (54 - 4)


def test_golden_playthrough() -> None:
    game = load_game("island", 3, {"board": "beginner"})
    kit.check_golden(
        game, 2, HERE / "golden" / "beginner_3p_seed2.txt", max_steps=100, views="seat-change"
    )
