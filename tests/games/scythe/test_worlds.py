"""``ScytheGame.world_from_observation`` (issue 12, ``hexfolk connect``): a world rebuilt from a
seat's observation alone shows that seat exactly what the true state shows it (SR-59: the
observation is all a seat knows), offers it the same legal actions, and redraws what is hidden
from it (others' combat cards and objectives, an unseen Factory offer: SR-59) at random."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from hexfolk.core import PositionError, State, load_game
from hexfolk.core.testing.random_step import random_step


def _positions(players: int, seed: int, every: int = 11, steps: int = 1200) -> Iterator[State]:
    """Every ``every``-th decision of a seeded random game (simultaneous seats in random
    order); chance nodes are skipped (no seat decides there)."""
    game = load_game("scythe", players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for step in range(steps):
        if state.is_terminal():
            yield state
            return
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        if step % every == 0:
            yield state
        seats = state.acting_seats() or [state.current_player()]
        seat = rng.choice(seats)
        state.apply_for(seat, rng.choice(state.legal_actions_for(seat)))


def _legal(state: State, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions_for(seat)}


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 0), (5, 1)])
def test_world_shows_the_seat_its_observation(players: int, seed: int) -> None:
    """One seeded game per player count (a second seed walked the same kinds of decisions)."""
    game = load_game("scythe", players)
    checked = acting = differ = 0
    for state in _positions(players, seed):
        for seat in range(players):
            obs = state.observation(seat)
            # what a remote client holds: the log as entries {form, params, text} (issue 26)
            wire = json.loads(json.dumps({**obs, "log": [line.to_json() for line in obs["log"]]}))
            world = game.world_from_observation(wire, seat, random.Random(checked))
            assert world.observation(seat) == obs  # every field, the log included
            checked += 1
            if seat in state.acting_seats():
                acting += 1
                truth, got = _legal(state, seat), _legal(world, seat)
                if truth != got:
                    # docs/scythe.md, "Worlds from an observation": which of two units of one
                    # kind on one territory moved (or is mid-move) is not shown
                    assert all(a == "stop" or a.startswith("move ") for a in truth ^ got)
                    differ += 1
    assert checked > 150 and acting > 60
    assert differ <= acting // 50, (differ, acting)


@pytest.mark.parametrize("players", [2, 4])
def test_worlds_are_real_samples_of_the_hidden_parts(players: int) -> None:
    """Different seeds deal the other seats different combat cards and objectives (same
    counts); the seat's own cards never change."""
    game = load_game("scythe", players)
    varied = positions = 0
    for state in _positions(players, 5, every=37):
        obs = state.observation(0)
        if not obs["order"] or state.is_terminal():
            continue
        docs = [game.world_from_observation(obs, 0, random.Random(k)).position() for k in range(8)]
        truth = state.position()
        hidden = {
            json.dumps(
                [
                    [d["seats"][q]["combat_cards"], d["seats"][q]["objectives"]]
                    for q in range(1, players)
                ]
            )
            for d in docs
        }
        for d in docs:
            assert sorted(d["seats"][0]["combat_cards"]) == sorted(
                truth["seats"][0]["combat_cards"]
            )
            assert sorted(d["seats"][0]["objectives"]) == sorted(truth["seats"][0]["objectives"])
            for q in range(1, players):
                assert len(d["seats"][q]["combat_cards"]) == len(truth["seats"][q]["combat_cards"])
        positions += 1
        varied += len(hidden) > 1
    assert positions >= 5 and varied == positions


def test_a_doctored_observation_is_refused() -> None:
    """The world is loaded through load_position: an observation claiming more combat cards
    than the deck holds (SR-46) is refused with PositionError."""
    game = load_game("scythe", 2)
    state = next(s for s in _positions(2, 3) if s.observation(0)["order"])
    obs = state.observation(0)
    obs["player_state"][1]["combat_cards"] = 99
    with pytest.raises(PositionError):
        game.world_from_observation(obs, 0, random.Random(0))


COMBAT_KINDS = ("commit", "artillery", "retreat")


def test_combat_decisions_are_rebuilt_exactly() -> None:
    """SR-43: at a combat's secret commitments (C2, simultaneous: each seat's own commitment
    kept, the other's drawn again from its drawn hand), Artillery (C1) and the retreat (C3), the
    world shows the seat what the truth shows and offers the same actions."""
    seen: dict[str, int] = dict.fromkeys(COMBAT_KINDS, 0)
    for players, seed in [(2, 100), (2, 101), (2, 102), (2, 103), (3, 100), (3, 101)]:
        game = load_game("scythe", players)
        for state in _positions(players, seed, every=1, steps=2500):
            kind = state.observation(None)["phase"]
            if kind not in COMBAT_KINDS:
                continue
            for seat in state.acting_seats():
                obs = state.observation(seat)
                world = game.world_from_observation(obs, seat, random.Random(seed))
                assert world.observation(seat) == obs
                assert _legal(world, seat) == _legal(state, seat)
                seen[kind] += 1
    assert seen["commit"] >= 10 and seen["artillery"] + seen["retreat"] >= 1, seen


@pytest.mark.parametrize("players", [2, 3])
def test_a_world_rebuilt_amid_a_cards_gains_plays_on(players: int) -> None:
    """A world rebuilt while a card's granted benefits are being taken (an encounter's or a
    Factory card's, SR-47/SR-49) goes on as the game does: after the last gain, the encounter
    or the turn continues (a search bot plays such worlds; the world once lost the step after
    the gains and the hard bot raised at a real table)."""
    game = load_game("scythe", players)
    worlds = 0
    for seed in range(6):
        for state in _positions(players, seed, every=1, steps=900):
            if state.is_terminal() or state.prompt_kind() not in ("gain", "produce"):
                continue
            seat = state.current_player()
            world = game.world_from_observation(state.observation(seat), seat, random.Random(seed))
            rng = random.Random(worlds)
            for _ in range(12):  # past the gains, into what follows them
                if world.is_terminal():
                    break
                random_step(world, rng)
            worlds += 1
    assert worlds >= 10, worlds
