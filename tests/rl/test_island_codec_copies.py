"""The island codec's memo of action indices is keyed by value, never by ``id()`` (issue 25,
deliver 1): a codec pickled or copied (a vector environment's worker, a Ray actor) meets other
action objects than those it indexed, and an identity key names another action once the object
it was taken from is gone and its address reused. Before the fix the copy's ``known`` (id ->
index) gave the new roads the indices of the old ones."""

from __future__ import annotations

import copy
import gc
import pickle
from typing import Any

from hexfolk.core import Action, Game, load_game, make_rng
from hexfolk.rl.island import IslandCodec


def _fresh_roads(game: Game, edges: int) -> list[Action]:
    """Parsed actions: new objects each time (not the engine's canonical ones)."""
    return [game.parse_canonical(f"road {e}") for e in range(edges)]


def test_issue_25_a_copied_codec_indexes_new_action_objects_by_value() -> None:
    game = load_game("island", 2)
    state: Any = game.new_initial_state()
    state.apply(state.sample_chance(make_rng(1)))  # the layout: seat 0 places a settlement
    obs = state.observation(0, log=False)
    edges = state.topology.num_edges
    reference = IslandCodec(game)
    for how in ("pickle", "deepcopy"):
        codec = IslandCodec(game)
        codec.indices(_fresh_roads(game, edges), obs)
        copied = pickle.loads(pickle.dumps(codec)) if how == "pickle" else copy.deepcopy(codec)
        del codec  # the objects the original met are gone: their addresses are free again
        gc.collect()
        for _ in range(3):
            met = list(reversed(_fresh_roads(game, edges)))  # likely at those addresses
            assert copied.indices(met, obs) == reference.indices(met, obs), how
