"""Issue 11: clones and sampled worlds played on never change how the real Scythe game plays.

Search bots clone the state and draw worlds with ``sample_consistent_state`` (others' combat
cards and objectives and unseen offers redrawn); the kit's
:func:`~hexfolk.core.testing.check_clone_isolation` plays random continuations on such copies
at every step of the opening and then every few steps, and checks the real game against one
rebuilt from its history, in lockstep, to the end of the game.
"""

from __future__ import annotations

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit


@pytest.mark.parametrize("players", [2, 4, 5])
def test_issue_11_clones_never_change_the_real_game(players: int) -> None:
    kit.check_clone_isolation(load_game("scythe", players), seeds=range(2))


def test_issue_11_clones_never_change_the_real_game_with_fixed_mats_and_open_rules() -> None:
    options = {
        "factions": "nordic,crimea,rusviet",
        "mats": "industrial,patriotic,mechanical",
        "allow_banned_pairs": True,
        "oq5_disarm_tunnels_only": False,
        "oq6_camaraderie_combat_only": False,
        "oq8_seaworthy_lake_retreat": False,
    }
    kit.check_clone_isolation(load_game("scythe", 3, options), seeds=[7])
