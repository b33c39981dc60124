"""Property tests (hypothesis): invariants along random playouts, road length against a brute
force, hidden information (IR-36, IR-59, IR-66/67, IR-74)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexfolk.core import CHANCE, TERMINAL, load_game
from hexfolk.core import testing as kit
from hexfolk.games.island.board import Topology
from hexfolk.games.island.board import topology as board_topology
from hexfolk.games.island.roads import road_length
from hexfolk.games.island.rules import PIECES_CITY, PIECES_ROAD, PIECES_SETTLEMENT
from hexfolk.games.island.state import IslandState

from .test_conformance import plant_private_log

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_invariants(state: IslandState) -> None:
    game = state.game
    for r in range(5):  # IR-36: bank plus hands is constant per resource
        assert state.bank[r] + sum(h[r] for h in state.hands) == game.bank_size
        assert state.bank[r] >= 0 and all(h[r] >= 0 for h in state.hands)
    for p in range(state.n):  # IR-59: piece limits
        settlements = sum(
            1 for v, o in enumerate(state.node_owner) if o == p and state.node_level[v] == 1
        )
        cities = sum(
            1 for v, o in enumerate(state.node_owner) if o == p and state.node_level[v] == 2
        )
        roads = state.edge_owner.count(p)
        assert settlements <= PIECES_SETTLEMENT and cities <= PIECES_CITY and roads <= PIECES_ROAD
        assert settlements == PIECES_SETTLEMENT - state.settlements_left[p]
        assert cities == PIECES_CITY - state.cities_left[p]
        assert roads == PIECES_ROAD - state.roads_left[p] == len(state.roads[p])
    for c in range(5):  # development cards: deck + held + played = the deck of sheet 1.3
        played = sum(state.stat("dev_played", p)[c] for p in range(state.n))
        held = sum(state.dev_cards[p][c] for p in range(state.n))
        assert state.deck[c] + held + played == game.deck[c]
    for i, d in enumerate(state.deficit):  # what an observer cannot know is part of the hand
        if d is not None:
            hand = state.hands[i % state.n]
            assert all(0 <= x <= h for x, h in zip(d, hand))
    for v, o in enumerate(state.node_owner):  # IR-19: the distance rule always holds
        if o >= 0:
            assert all(state.node_owner[u] < 0 for u in state.topology.node_adj[v])


@FAST
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8))
def test_ir36_ir59_invariants_along_random_playouts(seed: int, players: int) -> None:
    game = load_game("island", players)
    result = kit.play_random(game, seed, turn_cap=25)
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    for step, action in enumerate(result.actions):
        state.apply(action)
        if step % 3 == 0 or state.current_player() in (CHANCE, TERMINAL):
            _check_invariants(state)
    _check_invariants(state)


def _brute_length(
    topology: Topology, edge_owner: list[int], node_owner: list[int], player: int
) -> int:
    """Every trail from every node, no pruning (the definition of IR-66/IR-67)."""
    best = 0

    def walk(v: int, used: frozenset[int], length: int) -> None:
        nonlocal best
        best = max(best, length)
        owner = node_owner[v]
        if length and owner >= 0 and owner != player:
            return
        for e in topology.node_edges[v]:
            if edge_owner[e] == player and e not in used:
                walk(topology.edge_other[e][v], used | {e}, length + 1)

    for v in range(topology.num_nodes):
        walk(v, frozenset(), 0)
    return best


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), roads=st.integers(1, 15), blockers=st.integers(0, 4))
def test_ir66_ir67_road_length_matches_brute_force(seed: int, roads: int, blockers: int) -> None:
    # arbitrary boards, not positions of a game (roads apart, blockers next to each other):
    # the owners are plain lists handed to both counts
    topology = board_topology("hex19")
    rng = random.Random(seed)
    edge_owner = [-1] * topology.num_edges
    node_owner = [-1] * topology.num_nodes
    # grow a random connected-ish road network of seat 0 with a few random extra pieces
    start = rng.randrange(topology.num_edges)
    owned = [start]
    while len(owned) < roads:
        frontier = sorted(
            {
                f
                for e in owned
                for v in topology.edge_nodes[e]
                for f in topology.node_edges[v]
                if f not in owned
            }
        )
        if rng.random() < 0.15:
            frontier = [e for e in range(topology.num_edges) if e not in owned]
        owned.append(rng.choice(frontier))
    for e in owned:
        edge_owner[e] = 0
    for _ in range(blockers):
        node_owner[rng.randrange(topology.num_nodes)] = rng.choice([0, 1, 2])
    got = road_length(topology, edge_owner, node_owner, owned, 0)
    assert got == _brute_length(topology, edge_owner, node_owner, 0)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4, 6]))
def test_ir74_hidden_information_property(seed: int, players: int) -> None:
    kit.check_hidden_information(
        load_game("island", players),
        seeds=[seed],
        plant_sentinel=plant_private_log,
        every=11,
        turn_cap=30 if players <= 4 else 12,
    )
