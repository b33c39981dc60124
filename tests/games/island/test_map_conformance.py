"""Issue 16: the conformance kit on every map of IR-83 at every player count it supports.

One test per (map, player count) runs the whole kit on a short game (a turn cap, one seed):
random playouts with record round-trips, determinism, hidden information with a planted
secret, clone isolation and arrival-order independence at simultaneous decisions. The turn
caps keep the 62 cases to about a minute; the long games are in ``test_map_play.py``.
"""

from __future__ import annotations

import pytest

from hexfolk.core import State, load_game
from hexfolk.core import testing as kit
from hexfolk.games.island.maps import all_maps
from hexfolk.games.island.state import IslandState

CASES = [(m.id, n) for m in all_maps() for n in range(m.min_players, m.max_players + 1)]


def plant_private_log(state: State, seat: int, sentinel: str) -> State | None:
    """The position with the sentinel in a log entry only ``seat`` may see."""
    assert isinstance(state, IslandState)
    doc = state.position()
    doc["log"].append([[seat], sentinel])
    return state.game.load_position(doc)


def test_every_map_and_player_count_is_covered() -> None:
    assert len({m for m, _ in CASES}) == 22
    assert len(CASES) == sum(m.max_players - m.min_players + 1 for m in all_maps())


@pytest.mark.parametrize(("map_id", "players"), CASES)
def test_conformance_kit_on_every_map(map_id: str, players: int) -> None:
    game = load_game("island", players, {"map": map_id})
    seed = players
    kit.check_random_playouts(game, seeds=[seed], turn_cap=20, deep_every=31)
    kit.check_determinism(game, seed=seed, turn_cap=6)
    kit.check_record_roundtrip(game, seed=seed, turn_cap=6)
    kit.check_hidden_information(
        game, seeds=[seed], plant_sentinel=plant_private_log, every=37, turn_cap=10
    )
    kit.check_clone_isolation(
        game,
        [seed],
        turn_cap=6,
        opening_steps=10,
        clone_every=50,
        continuation_steps=12,
        worlds=1,
        observe_every=100,
    )
    # two seats owe a decision at once: answers to an offer (3+ players) or discards on a 7
    kit.check_simultaneous(
        game,
        [seed],
        turn_cap=10,
        orders=1,
        max_nodes=2,
        secret_prompts=("discard",),
        require=players > 2,
    )
