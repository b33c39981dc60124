"""Scythe's AEC environment: PettingZoo's API and seed tests, the catalogue's coverage (every
small decision of the turn chain), hidden information in the encoding, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hexfolk import rl
from hexfolk.core import load_game, make_rng
from hexfolk.rl.scythe import ScytheCodec, catalogue
from tests.rl.helpers import (
    bad_input_checks,
    coverage_walk,
    cycles_property,
    hidden_information_walk,
    random_episode,
)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(rl.env("scythe", players=players, seed=players, max_turns=30), num_cycles=200)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: rl.env("scythe", players=players, max_turns=30), num_cycles=200)


def test_max_cycles_truncates_after_the_busiest_agents_cycles() -> None:
    cycles_property(lambda k: rl.env("scythe", players=2, seed=1, max_cycles=k))


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (2, {}, 31),
        (3, {"factions": "nordic,rusviet,polania"}, 32),
        (4, {"oq8_seaworthy_lake_retreat": False}, 33),
        (5, {}, 34),
    ],
)
def test_every_legal_action_of_random_games_has_an_index(
    players: int, options: dict[str, object], seed: int
) -> None:
    coverage_walk(rl.env("scythe", players=players, options=options, seed=seed), steps=2500)


def test_catalogue_is_the_same_at_every_player_count() -> None:
    sizes = {ScytheCodec(load_game("scythe", n)).actions for n in (2, 3, 4, 5)}
    assert len(sizes) == 1
    keys = catalogue()
    assert keys[:5] == ["section 1", "section 2", "section 3", "section 4", "section factory"]
    assert "commit 7 cards 2,3,5" in keys
    assert "deploy speed r4c6" in keys


def test_cargo_is_keyed_by_its_place_in_the_listing() -> None:
    game = load_game("scythe", 2)
    codec = ScytheCodec(game)
    legal = [
        game.parse_action_syntax(t) for t in ("carry none", "carry 2oil 1wood", "carry 1worker")
    ]
    assert codec.keys(legal, {}) == ["carry #1", "carry #2", "carry #3"]


@pytest.mark.parametrize("players", [2, 3])
def test_encoding_ignores_what_the_seat_cannot_see(players: int) -> None:
    hidden_information_walk(rl.env("scythe", players=players, seed=41 + players), steps=900)


def test_bad_input_raises_and_changes_nothing() -> None:
    bad_input_checks(rl.env("scythe", players=2, seed=3, max_turns=20))


def test_seed_reproduces_the_episode() -> None:
    a = random_episode(rl.env("scythe", players=2, max_turns=30), seed=9, rng_seed=1)
    b = random_episode(rl.env("scythe", players=2, max_turns=30), seed=9, rng_seed=1)
    assert a == b


def test_ansi_render_is_the_terminal_view() -> None:
    env = rl.env("scythe", players=2, seed=4, render_mode="ansi")
    env.reset()
    seat = int(env.agent_selection.split("_")[1])
    assert env.render() == env.game.render_observation(env.state.observation(seat))


def test_a_committed_combat_dial_is_not_in_the_opponents_encoding() -> None:
    # seed 3: the first combat of this random game comes at step 840
    env = rl.env("scythe", players=2, seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    world_rng = make_rng(3, "worlds")
    for _ in range(6000):
        prompt = env.state.prompt()
        if prompt is not None and prompt.kind == "commit":
            combat = env.state.observation(prompt.seat)["combat"]
            if combat["commitments"]["committed"]:  # the attacker has committed in secret
                break
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    else:
        pytest.fail("no combat commitment reached")
    defender = prompt.seat
    mine = env.observe(env.possible_agents[defender])["observation"]
    worlds = [env.state.sample_consistent_state(defender, world_rng) for _ in range(8)]
    assert any(w.fingerprint() != env.state.fingerprint() for w in worlds)
    for world in worlds:
        assert np.array_equal(env.codec.encode(world.observation(defender)), mine)
