"""Issue 16: playing on the maps of IR-83 — the ``map`` option, lakes (IR-10, IR-42, lake
harbors), Driftland's island in records, fixed layouts, the terminal view, golden
playthroughs and perft from map start positions."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from hexfolk.core import CHANCE, MalformedActionError, OptionError, load_game, make_rng
from hexfolk.core import testing as kit
from hexfolk.core.record import replay
from hexfolk.games.island import actions as A
from hexfolk.games.island.board import topology
from hexfolk.games.island.maps import (
    MapError,
    MapLayoutOutcome,
    board_topology,
    corners,
    draw_layout,
    lake_hexes,
    layout_text,
    load_map,
    outcome_of,
)
from hexfolk.games.island.rules import GENERIC, RESOURCE_HARBOR_RATIO
from hexfolk.games.island.state import IslandState

HERE = Path(__file__).parent


def laid_out(map_id: str, players: int, seed: int = 0, **options: object) -> IslandState:
    """A state of ``map_id`` right after its layout outcome (drawn from ``seed``)."""
    game = load_game("island", players, {"map": map_id, **options})
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    rng = make_rng(seed, "chance")
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    return state


# --- the option ------------------------------------------------------------------------------


def test_map_option_refuses_a_player_count_the_map_does_not_support() -> None:
    with pytest.raises(OptionError, match=r"map 'giants-land' \(Giants' Land\) is for 6-8"):
        load_game("island", 4, {"map": "giants-land"})
    with pytest.raises(OptionError, match=r"map 'mirror-isle' \(Mirror Isle\) is for 2-2"):
        load_game("island", 3, {"map": "mirror-isle"})
    with pytest.raises(OptionError, match="must be one of standard, lagoon"):
        load_game("island", 4, {"map": "atlantis"})
    with pytest.raises(OptionError, match="board=beginner is the standard board's"):
        load_game("island", 4, {"map": "keystone", "board": "beginner"})


def test_standard_map_leaves_options_as_they_were() -> None:
    game = load_game("island", 4)
    assert "map" not in game.options and game.options["map"] == "standard"
    assert game.options.get("map") == "standard" and game.config()["options"] == game.options
    assert load_game("island", 4, {"map": "standard"}).options == game.options
    keystone = load_game("island", 3, {"map": "keystone"})
    assert keystone.options["map"] == "keystone" and keystone.config()["options"]["map"]
    again = load_game("island", 3, keystone.config()["options"])
    assert again.options == keystone.options


@pytest.mark.parametrize(
    ("map_id", "players", "bank", "deck"),
    [
        ("keystone", 2, 19, 25),
        ("lagoon", 3, 19, 25),
        ("twin-meres", 5, 24, 34),
        ("giants-land", 6, 24, 34),
        ("star-isle", 8, 29, 43),
    ],
)
def test_ir81_bank_and_deck_follow_the_player_count(
    map_id: str, players: int, bank: int, deck: int
) -> None:
    game = load_game("island", players, {"map": map_id})
    assert game.bank_size == bank and sum(game.deck) == deck
    assert game.topology.board_id == map_id


def test_every_map_has_its_own_geometry() -> None:
    for m in (load_map(x) for x in ("lagoon", "ring-isle", "giants-land")):
        topology = load_game("island", m.max_players, {"map": m.id}).topology
        total, producing, deserts, _lakes = m.counts()
        assert topology.num_hexes == producing + deserts < total
    keystone = load_game("island", 4, {"map": "keystone"}).topology
    assert (keystone.num_hexes, keystone.num_nodes, keystone.num_edges) == (19, 54, 72)


# --- layouts ---------------------------------------------------------------------------------


def test_fixed_maps_list_their_layouts_as_chance_outcomes() -> None:
    state = load_game("island", 2, {"map": "keystone"}).new_initial_state()
    [(only, p)] = state.chance_outcomes()
    assert p == 1 and isinstance(only, MapLayoutOutcome)
    mirror = load_game("island", 2, {"map": "mirror-isle"}).new_initial_state()
    outcomes = mirror.chance_outcomes()
    assert len(outcomes) == 2 and {o.layout.robber for o, _ in outcomes} == {
        h for h, t in enumerate(outcomes[0][0].layout.terrain) if t == 5
    }


def test_board_random_shuffles_a_fixed_map() -> None:
    a, b = (laid_out("keystone", 3, seed, board="random") for seed in (1, 2))
    fixed = laid_out("keystone", 3)
    assert a.island != b.island and a.island != fixed.island
    assert a.topology is fixed.topology  # the same shape


def test_layout_outcomes_round_trip_and_foreign_layouts_are_refused() -> None:
    game = load_game("island", 4, {"map": "summit"})
    state = game.new_initial_state()
    outcome = state.sample_chance(make_rng(3, "chance"))
    text = str(outcome)
    assert text.startswith("layout ") and ";" in text
    assert game.parse_action_syntax(text) == outcome and state.is_possible_chance(outcome)
    other = outcome_of(draw_layout(load_map("spiral"), random.Random(0)))
    assert not state.is_possible_chance(other)
    with pytest.raises(MalformedActionError, match="bad layout"):
        game.parse_action_syntax("layout O10.W2 3 r0")
    # a graded map refuses a board whose 2 sits inland (IR-83 Summit): swap it with an inland
    # token; the text still parses, the board is not a possible layout
    island = outcome.island
    coast = island.coast_hexes()
    two = next(h for h in island.hexes if h.token == 2)
    inland = next(h for h in island.hexes if h.at not in coast and h.token not in (0, 2))
    hexes = tuple(
        dataclasses.replace(h, token=inland.token)
        if h is two
        else dataclasses.replace(h, token=2)
        if h is inland
        else h
        for h in island.hexes
    )
    tampered = game.parse_action_syntax(
        "layout " + layout_text(dataclasses.replace(island, hexes=hexes))
    )
    assert isinstance(tampered, MapLayoutOutcome) and not state.is_possible_chance(tampered)


# --- lakes -----------------------------------------------------------------------------------


def test_ir42_ir10_lakes_are_no_hexes_of_the_engine() -> None:
    state = laid_out("ring-isle", 4, seed=5)
    lakes = lake_hexes({"island": state.island})
    assert len(lakes) == 7
    lake_centres = {(2 * q + r, 3 * r) for q, r in lakes}
    assert not lake_centres & set(state.topology.hex_xy)  # no robber, no token, no production
    assert state.layout_tables is not None
    producing = {h for entries in state.layout_tables.production.values() for h, _, _ in entries}
    assert len(producing) == 28 and state.topology.num_hexes == 30
    # the inner lake's own corners touch no land: they are no intersections at all
    centre_corners = set(corners((0, 0)))
    assert not centre_corners & set(state.topology.node_xy)


def test_ir42_the_robber_moves_only_to_land() -> None:
    game = load_game("island", 5, {"map": "delta"})
    result = kit.play_random(game, 4, turn_cap=200)
    state = game.new_initial_state()
    seen = 0
    for action in result.actions:
        prompt = state.prompt()
        if prompt is not None and prompt.kind == "robber":
            targets = {a.hex for a in state.legal_actions() if isinstance(a, A.MoveRobber)}
            assert targets <= set(range(state.topology.num_hexes))
            seen += 1
        state.apply(action)
    assert seen, "no robber move in the game"


def test_ir53_a_lake_harbor_serves_its_shore() -> None:
    state = laid_out("twin-meres", 3, seed=1)
    lake_points = {p for h in lake_hexes({"island": state.island}) for p in corners(h)}
    assert state.layout_tables is not None
    slots = [
        (e, kind)
        for e, kind in zip(state.topology.harbor_slots, state.layout_tables.layout.harbors)
        if {state.topology.node_xy[v] for v in state.topology.edge_nodes[e]} <= lake_points
    ]
    assert len(slots) == 4 and all(kind != GENERIC for _, kind in slots)  # 2:1 lake harbors
    edge, kind = slots[0]
    node = state.topology.edge_nodes[edge][0]
    state.apply(A.BuildSettlement(node))
    assert state.ratio[0][kind] == RESOURCE_HARBOR_RATIO


# --- Driftland -------------------------------------------------------------------------------


def test_ir16_driftland_records_replay_their_island() -> None:
    game = load_game("island", 4, {"map": "driftland"})
    with pytest.raises(MapError, match="known only after the layout"):
        _ = game.topology
    a = kit.play_random(game, 7, turn_cap=40)
    b = kit.play_random(game, 8, turn_cap=40)
    assert a.record.actions[0] != b.record.actions[0]
    assert isinstance(a.state, IslandState) and isinstance(b.state, IslandState)
    assert a.state.island != b.state.island
    again = replay(a.record)
    assert again.fingerprint() == a.state.fingerprint()
    assert isinstance(again, IslandState) and again.island == a.state.island
    assert len(again.node_owner) == again.topology.num_nodes == a.state.topology.num_nodes


def test_driftland_observation_names_its_geometry() -> None:
    state = laid_out("driftland", 3, seed=11)
    board = state.observation(1)["board"]
    assert board["map"] == "driftland" and board["island"] == state.island
    topology = board_topology(board)
    assert (topology.num_hexes, topology.num_nodes, topology.num_edges) == (
        state.topology.num_hexes,
        state.topology.num_nodes,
        state.topology.num_edges,
    )
    before = load_game("island", 3, {"map": "driftland"}).new_initial_state()
    assert before.observation(0)["board"] == {
        "map": "driftland",
        "layout": None,
        "robber": -1,
        "island": None,
    }
    assert board_topology(before.observation(0)["board"]).num_hexes == 0


def test_standard_observation_is_unchanged() -> None:
    state = load_game("island", 4).new_initial_state()
    assert set(state.observation(0)["board"]) == {"map", "layout", "robber"}
    assert board_topology(state.observation(0)["board"]) is topology("hex19")


# --- the terminal view -----------------------------------------------------------------------


def test_terminal_view_draws_lakes_and_lake_harbors() -> None:
    state = laid_out("lagoon", 2, seed=0)
    text = state.game.render_observation(state.observation(0))
    assert "~~~~" in text and "(lake)" in text
    assert state.layout_tables is not None
    assert text.count("[") >= state.topology.num_hexes  # every land hex with its id


# --- golden playthroughs and perft -----------------------------------------------------------


@pytest.mark.parametrize(
    ("map_id", "players", "seed"),
    [("keystone", 3, 4), ("twin-meres", 3, 2), ("driftland", 4, 6)],
)
def test_golden_playthrough_on_a_map(map_id: str, players: int, seed: int) -> None:
    game = load_game("island", players, {"map": map_id})
    kit.check_golden(
        game,
        seed,
        HERE / "golden" / f"map_{map_id}_{players}p_seed{seed}.txt",
        max_steps=80,
        views="seat-change",
    )


def test_perft_hand_counts_on_maps() -> None:
    """Keystone from the very start: its one listed layout, then seat 0's first settlement on
    one of 54 intersections and a road on one of 2 x 72 edge ends (the 19-hex geometry; its
    perft file equals the beginner board's). Ring Isle from the first setup decision: 90 land
    intersections, a road at each node's degree, then seat 1 on any node not next to the
    first settlement (IR-19): the sum of d x (89 - d)."""
    keystone = load_game("island", 2, {"map": "keystone"}).new_initial_state()
    assert [kit.perft(keystone, d) for d in (1, 2, 3)] == [1, 54, 144]
    ring = kit.start_position(load_game("island", 4, {"map": "ring-isle"}), 0)
    assert isinstance(ring, IslandState)
    degrees = [len(adj) for adj in ring.topology.node_adj]
    assert kit.perft(ring, 1) == len(degrees) == 90
    assert kit.perft(ring, 2) == sum(degrees) == 2 * ring.topology.num_edges
    assert kit.perft(ring, 3) == sum(d * (89 - d) for d in degrees) == 20700
