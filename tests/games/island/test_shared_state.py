"""Issue 11: what an island state shares with its clones, and why each shared thing is safe.

``IslandState.clone()`` shares a few structures with the original instead of copying them
(that is what makes the search bots' thousands of clones cheap). The bug of issue 11 was a memo
shared while empty and then filled by a clone for its imagined position. These tests

* list every attribute a state shares with a clone (``sharing.shared_attributes``) along complete
  games and fail on any attribute not reviewed below;
* prove the memos right for every state that holds them: after clones played on (as the hard
  bot's lookahead does, setup included), every memo entry of the original and of each clone
  equals what that state computes afresh;
* prove the copy-on-write structures and the frozen log unchanged in the original after its
  clones played on.
"""

from __future__ import annotations

import copy
import random

import pytest
from tests.games.sharing import shared_attributes

from hexfolk.core import load_game
from hexfolk.games.island.actions import trade_listing
from hexfolk.games.island.building import road_spots, settlement_spots
from hexfolk.games.island.production import compute_income
from hexfolk.games.island.robber import robber_table
from hexfolk.games.island.state import IslandState

REVIEWED = {
    # immutable tables of the board and the layout, built once and never written
    "topology": "board topology (frozen dataclass of tuples)",
    "layout_tables": "layout tables (tuples; replaced only by the layout chance step)",
    "texts": "log texts formatted once per player count (tuples of strings)",
    # copy-on-write: replaced (outer and inner list), never changed in place
    "buildings": "nodes built on per seat",
    "ratio": "maritime ratios per seat",
    "trade_cache": "per seat, the process-wide trade table of its ratios (entries by hand)",
    # the frozen part of the append-only log
    "log_base": "LogChunks: tuples, never changed; per observer the rendered lines of the "
    "frozen prefix (a function of those tuples only, filled lazily, never appended to)",
    # memos of what depends on the board only, replaced on every board change (issue 11)
    "income": "production by dice sum (and robber hex)",
    "robber_cache": "robber moves by seat and card holders",
    "build_cache": "road and settlement spots by seat",
}


def _play(state: IslandState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])


def _memo_errors(st: IslandState) -> list[str]:
    """Every memo entry of ``st`` that differs from what ``st`` computes afresh."""
    errors: list[str] = []
    if st.layout_tables is None:  # before the layout no memo can hold anything
        memos = {"income": st.income, "robber_cache": st.robber_cache, "build": st.build_cache}
        return [f"{name} filled before the layout" for name, memo in memos.items() if memo]
    for key, entry in list(st.income.items()):
        s = key & 15
        # a scratch clone with the memo emptied and the robber where the key says: the memo
        # is checked against the slow path on purpose (a position would rebuild every memo)
        fresh = st.clone()
        fresh.income = {}
        fresh.robber = (key >> 4) - 1 if key >= 16 else -1  # key < 16: robber not on an s hex
        if compute_income(fresh, s) != entry:
            errors.append(f"income[{key}]")
    for key, entry in list(st.robber_cache.items()):
        if robber_table(st, key & 7, key >> 3) != entry:
            errors.append(f"robber_cache[{key}]")
    for key, (sig, acts) in list(st.build_cache.items()):
        if sig != sum(st.roads_left):
            continue  # stale by construction: the state recomputes it
        p = key & 7
        if key >= 8:
            want = tuple(st.acts.settlement[v] for v in settlement_spots(st, p))
        else:
            want = tuple(st.acts.road[e] for e in road_spots(st, p))
        if want != acts:
            errors.append(f"build_cache[{key}]")
    for p, table in enumerate(st.trade_cache):
        for hand, trades in list(table.items())[:50]:
            if trade_listing(st.ratio[p], list(hand), st.n > 1) != trades:
                errors.append(f"trade_cache[{p}][{hand}]")
    return errors


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (4, {}), (6, {"friendly_robber": True}), (3, {"robber": False})],
)
def test_clone_shares_only_reviewed_attributes(players: int, options: dict[str, object]) -> None:
    game = load_game("island", players, options)
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    rng = random.Random(players)
    seen: set[str] = set()
    step = 0
    while not state.is_terminal() and step < 500:
        if step < 40 or step % 7 == 0:  # all of the setup, then a sample
            seen |= shared_attributes(state, state.clone())
        _play(state, rng, 1)
        step += 1
    assert seen <= set(REVIEWED), f"unreviewed shared attributes: {sorted(seen - set(REVIEWED))}"
    # the audit saw the memos it reviews (an audit that sees nothing proves nothing)
    assert {"income", "buildings", "log_base"} <= seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_memos_hold_for_every_state_sharing_them(seed: int) -> None:
    """The hard bot's pattern: clones of the real state, setup included, played on in
    imagination; then every memo entry of the real state and of the clones is right for it."""
    state = load_game("island", 4).new_initial_state()
    assert isinstance(state, IslandState)
    rng = random.Random(seed)
    checked = 0
    rounds = 0
    while not state.is_terminal() and rounds < 150:
        rounds += 1
        clones = [state.clone() for _ in range(2)]
        for c in clones:
            _play(c, rng, 25)
        for st in (state, *clones):
            errors = _memo_errors(st)
            assert not errors, f"turn {state.turn}: wrong memo entries {errors[:5]}"
            checked += len(st.income) + len(st.robber_cache) + len(st.build_cache)
        _play(state, rng, 3)
    assert checked > 1000  # the memos were really exercised


def test_copy_on_write_structures_survive_clones_playing_on() -> None:
    state = load_game("island", 4).new_initial_state()
    assert isinstance(state, IslandState)
    rng = random.Random(7)
    while not state.is_terminal() and state.turn < 40:
        before = copy.deepcopy(
            (
                state.buildings,
                state.ratio,
                state.log_entries(),
                state.layout_tables and state.layout_tables.production,
            )
        )
        for _ in range(2):
            _play(state.clone(), rng, 40)
        after = (
            state.buildings,
            state.ratio,
            state.log_entries(),
            state.layout_tables and state.layout_tables.production,
        )
        assert after == before, f"turn {state.turn}: a clone changed the original"
        _play(state, rng, 5)
