"""The conformance kit on Scythe at every player count (few seeds: keep it fast)."""

from __future__ import annotations

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit
from hexfolk.core.testing.action_json import check_action_json


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts(players: int) -> None:
    kit.check_random_playouts(load_game("scythe", players), seeds=range(1), deep_every=11)


def test_determinism() -> None:
    kit.check_determinism(load_game("scythe", 2), seed=3)


def test_record_roundtrip() -> None:
    kit.check_record_roundtrip(load_game("scythe", 3), seed=4)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_actions_as_data_every_player_count(players: int) -> None:
    """Issue 26: every action listed along a random game (and every chance outcome) round-trips
    through its JSON form; malformed forms are refused with MalformedActionError."""
    checked = check_action_json(load_game("scythe", players), seeds=[players], max_steps=800)
    assert checked > 1000
