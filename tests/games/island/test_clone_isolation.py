"""Issue 11: clones and sampled worlds played on never change how the real island game plays.

The hard bot's setup lookahead once wrote income and build-spot entries for imagined buildings
into memo dicts that ``IslandState.clone()`` shared with the real game (fixed in 37558ef); the
real game then paid wrong production (IR-35) and its records did not replay. The kit's
:func:`~hexfolk.core.testing.check_clone_isolation` clones the state at every step of setup and
the first turns, then every few steps, plays random continuations on the copies and checks the
real state against one rebuilt from its history, in lockstep.

The seeds are ones on which the engine before that fix fails the check (a throwaway script
loaded ``git show 37558ef~1:src/hexfolk/games/island/state.py`` in place of the engine): each
configuration below would have caught the bug (one such seed each: a second one repeated the
same check). The turn cap keeps each case to a few seconds.
"""

from __future__ import annotations

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit


@pytest.mark.parametrize(
    ("players", "options", "seeds"),
    [
        (2, {}, [1]),
        (4, {}, [0]),
        (5, {}, [0]),
        (4, {"friendly_robber": True}, [2]),  # IR-46: robber targets are not memoised
        (3, {"board": "beginner"}, [3]),  # fixed layouts: listed chance outcomes
        (6, {"vp_target": 8}, [2]),  # IR-29: the special build phase
    ],
)
def test_issue_11_clones_never_change_the_real_game(
    players: int, options: dict[str, object], seeds: list[int]
) -> None:
    kit.check_clone_isolation(load_game("island", players, options), seeds, turn_cap=60)
