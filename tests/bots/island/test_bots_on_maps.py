"""Issue 16: every bot level finishes a game on every map of IR-83 (no standard-board
assumption anywhere in the bots).

One short game per map (8 VP, its smallest player count): the hard (search) bot, with a small
budget, sits at every table; the other seats rotate through random, easy and medium, so each
level plays many maps. Every bot move is checked legal by the runner.
"""

from __future__ import annotations

import pytest

from hexfolk.bots import make_bot
from hexfolk.core import Match, load_game
from hexfolk.games.island.maps import all_maps

HARD = "hard:iters=8:setup=4"
OTHERS = ("random", "easy", "medium")
MAPS = [m.id for m in all_maps()]


def seats(i: int, players: int) -> list[str]:
    """The bot codes of map ``i``'s table: the hard bot in seat ``i % players``, the other
    levels in rotation."""
    codes = [OTHERS[(i + k) % len(OTHERS)] for k in range(players)]
    codes[i % players] = HARD
    return codes


def test_every_level_plays_several_maps() -> None:
    tables = [seats(i, m.min_players) for i, m in enumerate(all_maps())]
    for level in (HARD, *OTHERS):
        assert sum(level in t for t in tables) >= 5, level
    assert all(HARD in t for t in tables)


@pytest.mark.parametrize("map_id", MAPS)
def test_every_level_finishes_a_game_on_every_map(map_id: str) -> None:
    i = MAPS.index(map_id)
    m = all_maps()[i]
    game = load_game("island", m.min_players, {"map": map_id, "vp_target": 8})
    codes = seats(i, m.min_players)
    bots = [make_bot(c, "island") for c in codes]
    result = Match(game, bots, seed=i, turn_cap=600, check_legal=True).run(keep_actions=False)
    assert result.finished, f"{map_id} {codes}: no winner in {result.turns} turns"
    assert result.state.winners()
