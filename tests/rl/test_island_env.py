"""The island game's AEC environment: PettingZoo's API and seed tests, the action catalogue's
coverage, hidden information in the encoding, bad input, rendering (``docs/rl.md``)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hexfolk import rl
from hexfolk.core import load_game, make_rng
from hexfolk.rl.island import IslandCodec, catalogue
from tests.rl.helpers import (
    bad_input_checks,
    coverage_walk,
    cycles_property,
    hidden_information_walk,
    random_episode,
)

CORNERS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
"""Corner offsets of a hex on the doubled grid (``docs/maps.md``, *Coordinates*)."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(rl.env("island", players=players, seed=players, max_turns=40), num_cycles=200)


def test_pettingzoo_api_test_special_build_board() -> None:
    # 5 players: the 30-hex board, special build sign-ups after every turn
    api_test(rl.env("island", players=5, seed=5, max_turns=30), num_cycles=150)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: rl.env("island", players=players, max_turns=40), num_cycles=200)


def test_max_cycles_truncates_after_the_busiest_agents_cycles() -> None:
    cycles_property(lambda k: rl.env("island", players=3, seed=1, max_cycles=k))


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (2, {}, 11),
        (3, {"friendly_robber": True, "discard_limit": 5}, 12),
        (4, {"board": "beginner", "hide_bank": True}, 13),
        (6, {"vp_target": 8}, 14),
    ],
)
def test_every_legal_action_of_random_games_has_an_index(
    players: int, options: dict[str, object], seed: int
) -> None:
    coverage_walk(rl.env("island", players=players, options=options, seed=seed), steps=1500)


def test_catalogue_is_stable_and_documented_sizes() -> None:
    game = load_game("island", 4)
    codec = IslandCodec(game)
    assert codec.actions[:3] == ("end", "roll", "buy")
    assert codec.actions == tuple(catalogue(4, 19, 54, 72))
    assert codec.index["settle 0"] == 8
    assert codec.num_actions == len(set(codec.actions))
    # the index of an action never depends on the state: two envs of one config agree
    assert rl.env("island", players=4).codec.actions == codec.actions


def test_offer_numbers_are_keyed_by_open_offer_slot() -> None:
    codec = IslandCodec(load_game("island", 3))
    obs = {"offers": [{"id": 41}, {"id": 44}]}
    actions = [
        load_game("island", 3).parse_action_syntax(t) for t in ("accept 44", "complete 41 with 2")
    ]
    assert codec.keys(actions, obs) == ["accept @2", "complete @1 with 2"]


@pytest.mark.parametrize("players", [2, 4])
def test_encoding_ignores_what_the_seat_cannot_see(players: int) -> None:
    hidden_information_walk(rl.env("island", players=players, seed=21 + players), steps=600)


def test_bad_input_raises_and_changes_nothing() -> None:
    bad_input_checks(rl.env("island", players=2, seed=3, max_turns=30))


def test_ansi_render_is_the_terminal_view_of_the_agent_to_act() -> None:
    env = rl.env("island", players=2, seed=4, render_mode="ansi")
    env.reset()
    text = env.render()
    seat = int(env.agent_selection.split("_")[1])
    assert text == env.game.render_observation(env.state.observation(seat))
    assert text


def test_seed_reproduces_the_episode_and_chance_follows_the_seed() -> None:
    a = random_episode(rl.env("island", players=2, max_turns=40), seed=9, rng_seed=1)
    b = random_episode(rl.env("island", players=2, max_turns=40), seed=9, rng_seed=1)
    c = random_episode(rl.env("island", players=2, max_turns=40), seed=10, rng_seed=1)
    assert a == b
    assert a[0] != c[0]  # another seed lays another board


def test_game_returns_are_the_rewards_at_the_end() -> None:
    env = rl.env("island", players=2, seed=5, options={"vp_target": 8})
    env.reset()
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.state.is_terminal()
    assert list(total.values()) == env.state.returns()


def test_shaped_reward_is_the_change_of_own_score() -> None:
    env = rl.env("island", players=2, seed=6, shaped=0.1, max_turns=30)
    env.reset()
    rng = make_rng(0, "t")
    earned = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        earned[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    scores = env.state.scores()  # setup settlements: 2 VP each
    for s, agent in enumerate(env.possible_agents):
        assert earned[agent] == pytest.approx(0.1 * scores[s], abs=1e-6)


def test_simultaneous_discards_are_one_turn_per_seat_each_seeing_its_own() -> None:
    # a low discard limit makes 7s hit several seats at once (IR-41)
    env = rl.env("island", players=4, seed=17, options={"discard_limit": 3})
    env.reset()
    rng = np.random.default_rng(3)
    turns: list[str] = []
    for _ in range(20000):
        agent = env.agent_selection
        assert not (env.terminations[agent] or env.truncations[agent])
        prompt = env.state.prompt()
        owing = env.state.acting_seats()
        discarding = prompt is not None and prompt.kind == "discard"
        if discarding and (turns or len(owing) > 1):
            assert int(agent.split("_")[1]) in owing
            turns.append(agent)
            for other in env.possible_agents:
                mask = env.observe(other)["action_mask"]
                assert mask.any() == (other == agent)  # only the agent to act has a mask
                kinds = {env.action_text(i).split()[0] for i in np.flatnonzero(mask)}
                assert kinds <= {"discard"}
        elif turns:
            break
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    assert len(set(turns)) > 1, "no 7 made several seats discard at once"
    assert turns == sorted(turns, key=turns.index)  # each seat's discards in one run


@pytest.mark.parametrize(("island_map", "players"), [("lagoon", 2), ("twin-meres", 3)])
def test_maps_of_ir83_with_lakes(island_map: str, players: int) -> None:
    options = {"map": island_map}
    api_test(rl.env("island", players=players, options=options, seed=2, max_turns=30), 150)
    coverage_walk(rl.env("island", players=players, options=options, seed=3), steps=600)


DRIFTLAND = {"map": "driftland"}


@pytest.mark.parametrize("players", [3, 5])
def test_driftland_pettingzoo_api_test(players: int) -> None:
    api_test(rl.env("island", players=players, options=DRIFTLAND, seed=6, max_turns=30), 150)


def test_driftland_seed_test_and_a_new_coastline_per_seed() -> None:
    seed_test(lambda: rl.env("island", players=4, options=DRIFTLAND, max_turns=30), 150)
    env = rl.env("island", players=3, options=DRIFTLAND)
    islands, sizes = [], set()
    for seed in (1, 1, 2):
        env.reset(seed=seed)
        islands.append(env.state.observation(0)["board"]["island"])
        sizes.add((env.num_actions, env.observe(env.agent_selection)["observation"].shape))
    assert islands[0] == islands[1] != islands[2]  # the seed draws the coastline
    assert len(sizes) == 1  # one catalogue and one vector size for every coastline
    a = random_episode(rl.env("island", players=3, options=DRIFTLAND, max_turns=30), 4, 1)
    b = random_episode(rl.env("island", players=3, options=DRIFTLAND, max_turns=30), 4, 1)
    assert a == b


def test_driftland_every_legal_action_has_an_index_and_hidden_information() -> None:
    coverage_walk(rl.env("island", players=3, options=DRIFTLAND, seed=7), steps=1200)
    hidden_information_walk(rl.env("island", players=4, options=DRIFTLAND, seed=8), steps=300)


def _island_hexes(island: str) -> dict[tuple[int, int], str]:
    """``q,r`` -> code of the observation's island text (``docs/maps.md``), read here
    independently of the codec."""
    out = {}
    for item in island.split(" ")[0].split(";"):
        at, code = item.split(":")
        q, r = at.split(",")
        out[(int(q), int(r))] = code
    return out


def test_driftland_window_places_are_the_engine_places() -> None:
    # the window keys name the same hexes and intersections as the engine's ids: a robber
    # key's window hex carries the terrain and token the engine layout gives its engine hex,
    # settle keys are corners of land hexes, road keys join two corners of one land hex
    env = rl.env("island", players=3, options=DRIFTLAND, seed=9)
    window = env.codec.window
    assert window is not None and (len(window.hexes), len(window.points)) == (61, 150)
    checked = set()
    rng = np.random.default_rng(0)
    for episode in range(3):
        env.reset(seed=20 + episode)
        obs = env.state.observation(0)
        hexes = _island_hexes(obs["board"]["island"])
        words = obs["board"]["layout"].split(" ")[0].split(".")
        corners = {h: {(2 * h[0] + h[1] + dx, 3 * h[1] + dy) for dx, dy in CORNERS} for h in hexes}
        land_points = {p for h, pts in corners.items() if hexes[h] != "~" for p in pts}
        for _ in range(400):
            if not env.agents:
                break
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            for i, text in env.legal_texts().items():
                key = env.action_text(i).split()
                if key[0] == "robber" and key[1] != "stay":
                    engine_hex = int(text.split()[1])
                    assert hexes[window.hexes[int(key[1][1:])]] == words[engine_hex]
                    checked.add("robber")
                elif key[0] in ("settle", "city"):
                    assert window.points[int(key[1][1:])] in land_points
                    checked.add(key[0])
                elif key[0] == "road":
                    a, b = env.codec.window.edges[int(key[1][1:])]
                    ends = {window.points[a], window.points[b]}
                    assert any(ends <= pts for h, pts in corners.items() if hexes[h] != "~")
                    checked.add("road")
            env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    assert {"robber", "settle", "road"} <= checked
