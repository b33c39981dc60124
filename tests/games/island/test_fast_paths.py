"""The engine's speed structures keep the rules exact: caches shared by clones (income by dice
sum, robber moves, road and settlement spots, trade listings), the copy-on-write parts of a
clone (log chunks, buildings, ratios, deficits) and the incremental Longest Road update."""

from __future__ import annotations

import random

import pytest

from hexfolk.core import CHANCE, TERMINAL, Action, load_game, visible_log
from hexfolk.games.island import actions as A
from hexfolk.games.island.board import topology
from hexfolk.games.island.building import after_settlement, place_settlement
from hexfolk.games.island.log import LOG_CHUNKS_MAX
from hexfolk.games.island.position import log_line
from hexfolk.games.island.roads import length_after_road, road_length
from hexfolk.games.island.state import IslandState

from .helpers import deal, do, fresh, give, path, set_turn, settle, texts


def place(state: IslandState, seat: int, node: int) -> None:
    """A settlement of ``seat`` on ``node`` put by the engine's own routine (what a build does
    once paid), so the memos listed so far must follow it; a position load (the helpers'
    ``settle``) would rebuild them and leave nothing to check."""
    place_settlement(state, seat, node)
    after_settlement(state, seat, node)


def next_turn(state: IslandState) -> None:
    """End the turn; the next player rolls an 8 (no 7: no robber, no discards)."""
    do(state, "end", "roll")
    state.apply(A.DICE[8])


def _step(state: IslandState, rng: random.Random) -> None:
    if state.current_player() == CHANCE:
        state.apply_unchecked(state.sample_chance(rng))
    else:
        legal = state.legal_actions()
        state.apply_unchecked(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (5, 8)])
def test_clones_never_leak_into_each_other(players: int, seed: int) -> None:
    """A clone played on (other moves, trades with offers, 7s, steals) changes nothing in its
    original, and the original's game equals an uninterrupted replay of the same steps."""
    game = load_game("island", players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    actions: list[Action] = []
    while state.current_player() != TERMINAL and state.turn_count() < 70:
        if len(actions) % 29 == 7:
            twin = state.clone()
            before = state.fingerprint()
            assert twin.fingerprint() == before
            side = random.Random(len(actions))
            for _ in range(40):
                if twin.current_player() == TERMINAL:
                    break
                _step(twin, side)
            assert state.fingerprint() == before  # the twin's moves did not reach the original
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        actions.append(action)
        state.apply_unchecked(action)
    replay = game.new_initial_state()
    for action in actions:
        replay.apply_unchecked(action)
    assert replay.fingerprint() == state.fingerprint()
    assert replay.observation(0) == state.observation(0)


def test_log_chunks_merge_and_keep_every_entry() -> None:
    """IR-74 logs survive many clones: chains of shared chunks merge past their limit."""
    state = fresh(3)
    for i in range(LOG_CHUNKS_MAX * 3):
        log_line(state, None, "text", text=f"entry {i}")  # the engine's own append
        state = state.clone()
    assert state.log_base is not None and state.log_base.depth <= LOG_CHUNKS_MAX
    texts_ = [str(t) for _, t in state.log_entries()]
    assert texts_[-LOG_CHUNKS_MAX * 3 :] == [f"entry {i}" for i in range(LOG_CHUNKS_MAX * 3)]


def test_ir35_income_cache_follows_cities_and_the_robber() -> None:
    """IR-35/IR-44: production after a city upgrade and after the robber moves."""
    state = fresh(4)
    tables = state.layout_tables
    assert tables is not None
    # a node on a hex whose token is not 7, and the hex itself
    h = next(h for h in range(state.topology.num_hexes) if tables.tokens[h] not in (0, 7))
    total = tables.tokens[h]
    v = state.topology.hex_nodes[h][0]
    settle(state, 1, v)
    give(state, 1, "2g 3o")
    deal(state, 2, "knight")
    # from here on in play only: a position load would rebuild the cache this test is about

    def cards_after_roll() -> int:
        """The next player rolls ``total``: the cards seat 1 receives."""
        before = sum(state.hands[1])
        do(state, "end", "roll")
        state.apply(A.DICE[total])
        return sum(state.hands[1]) - before

    from_hexes = sum(1 for x in state.topology.node_hexes[v] if tables.tokens[x] == total)
    assert cards_after_roll() == from_hexes  # seat 1's turn
    do(state, f"city {v}")
    assert cards_after_roll() == 2 * from_hexes  # the cache dropped the settlement's income
    do(state, "play knight", f"robber {h} steal 1")  # seat 2 moves the robber to h
    state.apply(state.chance_outcomes()[0][0])
    assert cards_after_roll() == 2 * (from_hexes - 1)  # IR-44: the robber's hex pays nothing


def test_ir43_robber_moves_follow_new_settlements() -> None:
    """IR-43: a settlement placed after the robber moves were listed adds its victim."""
    state = fresh(4)
    give(state, 1, "1l")
    set_turn(state, phase="robber")
    before = texts(state)
    assert not [t for t in before if "steal" in t]
    place(state, 1, 18)
    hexes = [h for h in state.topology.node_hexes[18] if h != state.robber]
    after = texts(state)
    assert [t for t in after if "steal" in t] == [f"robber {h} steal 1" for h in hexes]


def test_ir56_cached_road_spots_follow_opponents_roads() -> None:
    """IR-56: a road spot another seat builds on leaves the listing at once."""
    state = fresh(4)
    geometry = state.topology
    w = geometry.node_adj[18][0]
    u = next(x for x in geometry.node_adj[w] if x != 18)
    shared = next(e for e in geometry.node_edges[18] if w in geometry.edge_nodes[e])
    settle(state, 0, 18)
    settle(state, 1, u)
    give(state, 0, "1l 1b")
    assert sorted(t for t in texts(state) if t.startswith("road")) == sorted(
        f"road {e}" for e in geometry.node_edges[18]
    )
    give(state, 1, "2l 2b")
    toward = next(e for e in geometry.node_edges[u] if w in geometry.edge_nodes[e])
    # from here on in play only: a position load would rebuild the listing this test is about
    next_turn(state)  # seat 1's turn
    do(state, f"road {toward}", f"road {shared}")
    for _ in range(3):  # round to seat 0 again
        next_turn(state)
    assert state.active == 0
    assert sorted(t for t in texts(state) if t.startswith("road")) == sorted(
        f"road {e}" for e in geometry.node_edges[18] if e != shared
    )


def test_ir66_incremental_longest_road_matches_a_full_search() -> None:
    """IR-66/IR-67: the length after each new road equals a search of all the roads, with
    other players' roads and buildings (that break roads) on the board."""
    geometry = topology("hex19")
    rng = random.Random(66)
    for _ in range(300):
        edge_owner = [-1] * geometry.num_edges
        node_owner = [-1] * geometry.num_nodes
        for _ in range(rng.randrange(0, 8)):
            node_owner[rng.randrange(geometry.num_nodes)] = rng.choice([0, 1, 2])
        for e in range(geometry.num_edges):
            if rng.random() < 0.08:
                edge_owner[e] = 1
        owned: list[int] = []
        length = 0
        for _ in range(15):
            free = [e for e in range(geometry.num_edges) if edge_owner[e] < 0]
            near = sorted(
                {
                    f
                    for e in owned
                    for v in geometry.edge_nodes[e]
                    for f in geometry.node_edges[v]
                    if edge_owner[f] < 0
                }
            )
            choices = near if near and rng.random() < 0.9 else free
            if not choices:
                break
            e = rng.choice(choices)
            edge_owner[e] = 0
            owned.append(e)
            length = length_after_road(geometry, edge_owner, node_owner, 0, e, length)
            assert length == road_length(geometry, edge_owner, node_owner, owned, 0)


def test_ir57_cached_settlement_spots_follow_new_settlements() -> None:
    """IR-57: a settlement next to a listed spot (distance rule) removes it at once."""
    state = fresh(4)
    geometry = state.topology
    settle(state, 0, 18)
    give(state, 0, "3l 3b 1w 1g")
    a = geometry.node_adj[18][0]
    b = next(x for x in geometry.node_adj[a] if x != 18)
    do(state, *(f"road {e}" for e in path(state, [18, a, b])))
    assert [t for t in texts(state) if t.startswith("settle")] == [f"settle {b}"]
    place(state, 1, next(x for x in geometry.node_adj[b] if x != a))
    assert not [t for t in texts(state) if t.startswith("settle")]


def test_ir56_diverging_clones_list_their_own_road_spots() -> None:
    """IR-56: two clones that build different roads each list the spots of their own board."""
    state = fresh(4)
    geometry = state.topology
    settle(state, 0, 18)
    give(state, 0, "3l 3b")
    first, second = geometry.node_edges[18][:2]
    twin = state.clone()
    do(state, f"road {first}")
    do(twin, f"road {second}")
    for st, built in ((state, first), (twin, second)):
        spots = {t for t in texts(st) if t.startswith("road")}
        assert f"road {built}" not in spots
        other = second if built == first else first
        assert f"road {other}" in spots


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (4, 12)])
def test_ir74_uncertain_masks_cover_every_deficit(players: int, seed: int) -> None:
    """IR-74 bookkeeping: a resource in which some observer cannot tell a seat's cards apart
    (after steals) is always flagged for that seat, so public losses still update what every
    observer knows; also for sampled worlds played on."""
    game = load_game("island", players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    n = state.n
    flagged = 0

    def check(st: IslandState) -> int:
        seen = 0
        for i, d in enumerate(st.deficit):
            if d is not None:
                for r in range(len(d)):
                    if d[r] > 0:
                        assert st.uncertain[i % n] >> r & 1
                        seen += 1
        return seen

    while state.current_player() != TERMINAL and state.turn_count() < 120:
        flagged += check(state)
        if state.turn_count() % 10 == 3 and state.current_player() >= 0:
            world = state.sample_consistent_state(state.current_player(), random.Random(1))
            for _ in range(30):
                if world.current_player() == TERMINAL:
                    break
                _step(world, rng)
                check(world)
        _step(state, rng)
    assert flagged  # steals happened: the check had deficits to look at


def test_ir52_listed_and_parsed_maritime_trades_do_the_same() -> None:
    """IR-52/IR-53: a listed single-lot trade (fast path) and the same trade parsed from text
    (general path) leave identical states, at the bank ratio and at a harbor."""
    for node, text in ((18, "trade 4l for 1o"), (0, "trade 3l for 1o")):  # node 0: 3:1 harbor
        state = fresh(4)
        settle(state, 0, node)
        give(state, 0, "4l")
        listed = next(a for a in state.legal_actions() if str(a) == text)
        parsed = A.parse(text)
        assert parsed == listed and parsed is not listed
        twin = state.clone()
        state.apply(listed)
        twin.apply(parsed)
        assert state.full_state() == twin.full_state()
        assert state.stat("maritime", 0) == twin.stat("maritime", 0) != [0, 0, 0]


@pytest.mark.parametrize("seed", [1, 2])
def test_ir74_incremental_log_matches_a_fresh_filter_through_clones(seed: int) -> None:
    """IR-74 (issue 18): the per-observer log cache of ``observation`` always equals filtering
    the whole log afresh, for every observer, along a game whose states are cloned, observed,
    played on and left behind (clones inherit frozen chunks and their rendered lines)."""
    state = fresh(4)
    rng = random.Random(seed)
    observers: list[int | None] = [None, 0, 1, 2, 3]
    checked = 0
    for step in range(1200):
        if state.current_player() == TERMINAL:
            break
        if step % 3 == 0:
            seat = observers[step % 5]
            want = [str(t) for t in visible_log(state.log_entries(), seat)]
            assert state.observation(seat)["log"] == want
            checked += 1
        if step % 7 == 0:
            twin = state.clone()
            _step(twin, random.Random(step))  # the twin plays on; the original must not see it
            if step % 14 == 0:
                state = twin  # and sometimes the game goes on in the clone
        _step(state, rng)
    assert checked > 100
    for seat in observers:
        assert state.observation(seat)["log"] == [
            str(t) for t in visible_log(state.log_entries(), seat)
        ]
