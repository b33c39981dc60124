"""Issue 25, finding 10: Scythe's secret combat commitments have a clock of their own, set in
the lobby from presets; a clock setting that is no number is refused with the list of presets
(not pydantic's sentence)."""

from __future__ import annotations

import random

import pytest

from hexfolk.core import State, load_game
from hexfolk.server.client import HexfolkClient, ServerError
from hexfolk.server.clock import TableClock, clock_steps
from tests.server.helpers import ThreadServer, run


def _at_a_commitment(seed: int) -> State | None:
    """A 2-player Scythe game played at random until both combatants owe a commitment."""
    state = load_game("scythe", 2).new_initial_state()
    rng = random.Random(seed)
    for _ in range(4000):
        if state.is_terminal():
            return None
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        acting = state.acting_seats()
        if len(acting) == 2 and all(state.prompt_for(s).kind == "commit" for s in acting):  # type: ignore[union-attr]
            return state
        seat = acting[0]
        legal = state.legal_actions_for(seat)
        state.apply_for(seat, rng.choice(legal))
    return None


def test_both_commitments_run_on_the_commitment_clock() -> None:
    state = next(s for s in map(_at_a_commitment, range(40)) if s is not None)
    attacker = state.active  # type: ignore[attr-defined]
    clock = TableClock(120, 15)
    # the attacker's turn ran for 20 s before the combat
    turn = state.turn_count()
    clock.turns[attacker] = clock.turns.get(attacker) or _turn_window(clock, attacker, turn)
    steps = clock_steps(state)
    assert {s.kind for s in steps.values()} == {"commitment"}
    clock.update(steps, turn, now=1020.0)
    for seat in state.acting_seats():
        w = clock.current(seat)
        assert w is not None and w.kind == "commitment" and w.deadline == 1035.0
    paused = clock.turns[attacker]
    assert paused.deadline is None and paused.remaining == 100.0
    view = clock.view(1020.0)
    assert view["commitment"] == 15
    assert all(v["kind"] == "commitment" for v in view["seats"].values())


def _turn_window(clock: TableClock, seat: int, turn: int) -> object:
    from hexfolk.core import ClockStep

    clock.update({seat: ClockStep("turn", ("turn", turn))}, turn, now=1000.0)
    return clock.turns[seat]


def test_unlimited_commitment_clock_runs_no_window() -> None:
    state = next(s for s in map(_at_a_commitment, range(40)) if s is not None)
    clock = TableClock(120, None)
    clock.follow(state, 5.0)
    assert clock.steps == {}


def test_the_lobby_sets_the_commitment_clock(server: ThreadServer) -> None:
    async def scenario() -> None:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Clocks")
            games = await host.request("GET", "/api/games")
            assert games["commit_clock_presets"] == [15, 30, 45, 60, 90, 120]
            t = await host.create_table(game="scythe", players=2, clock=120, commit_clock=30)
            assert t["commit_clock"] == 30
            default = await host.create_table(game="scythe", players=2, clock=120)
            assert default["commit_clock"] == 60
            untimed = await host.create_table(game="scythe", players=2, clock=None)
            assert untimed["commit_clock"] is None
            changed = await host.configure(t["id"], commit_clock="unlimited")
            assert changed["commit_clock"] is None
            changed = await host.configure(t["id"], commit_clock=45)
            assert changed["commit_clock"] == 45 and changed["clock"] == 120
            fetched = await host.table(t["id"])
            assert fetched["commit_clock"] == 45

    run(scenario())


@pytest.mark.parametrize(
    ("field", "value", "presets"),
    [
        ("clock", "fast", "30, 45, 60, 90, 120, 180, 240, 300"),
        ("clock", True, "30, 45, 60, 90, 120, 180, 240, 300"),
        ("commit_clock", "slow", "15, 30, 45, 60, 90, 120"),
    ],
)
def test_a_bad_clock_names_the_presets(
    strict_server: ThreadServer, field: str, value: object, presets: str
) -> None:
    async def scenario() -> None:
        async with HexfolkClient(strict_server.url) as host:
            await host.create_player("Picky")
            with pytest.raises(ServerError) as made:
                await host.create_table(game="scythe", players=2, **{field: value})
            assert made.value.code == "bad_clock", made.value
            assert presets in made.value.message and "unlimited" in made.value.message
            t = await host.create_table(game="scythe", players=2)
            with pytest.raises(ServerError) as changed:
                await host.configure(t["id"], **{field: value})
            assert changed.value.code == "bad_clock" and presets in changed.value.message
            with pytest.raises(ServerError) as odd:  # a number that is no preset
                await host.configure(t["id"], **{field: 31})
            assert odd.value.code == "bad_clock" and presets in odd.value.message
            assert (await host.table(t["id"]))[field] == (120 if field == "clock" else 60)

    run(scenario())
