"""Perft counts from fixed positions and a golden playthrough.

``setup_beginner_3p``: from the first setup decision. Checked by hand: depth 1 = 54 free
intersections; depth 2 = 144 = the sum of node degrees (2 x 72 edges); depth 3 = 7236 =
18 x 2 x (54 - 3) + 36 x 3 x (54 - 4) (18 corner nodes of degree 2, 36 of degree 3; the
settlement and its neighbours are taken). ``first_roll_beginner_4p``: seat 0 before the first
roll; 11 dice sums, the 7 leading to 19 robber moves (hex 15 has two victims).
"""

from __future__ import annotations

from collections import Counter
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
    game = load_game("island", 3, {"board": "beginner"})
    state = kit.start_position(game, 0)
    counts = [kit.perft(state, d) for d in (1, 2, 3)]
    assert counts == [54, 144, 7236]
    # the hand count, computed from the board model rather than restated: a settlement on v
    # (degree d) leaves d roads, then every free spot but v and its d neighbours (IR-18..IR-20)
    degree = Counter(v for ends in game.topology.edge_nodes for v in ends)
    nodes = len(degree)
    assert sorted(Counter(degree.values()).items()) == [(2, 18), (3, 36)]
    assert counts[0] == nodes
    assert counts[1] == sum(degree.values())
    assert counts[2] == sum(d * (nodes - 1 - d) for d in degree.values())


def test_golden_playthrough() -> None:
    game = load_game("island", 3, {"board": "beginner"})
    kit.check_golden(
        game, 2, HERE / "golden" / "beginner_3p_seed2.txt", max_steps=100, views="seat-change"
    )
