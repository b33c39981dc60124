"""The turn clock: presets in the views, time-outs applying the game's defaults (short clocks
on a ``--testing`` server), pauses, the down-time shift; stand-in bots after the grace."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from hexfolk.core import ClockStep
from hexfolk.server.client import HexfolkClient
from hexfolk.server.clock import TableClock
from tests.server.helpers import ThreadServer, run
from tests.server.people_tables import against_a_bot


def _events(server: ThreadServer, table_id: str) -> list[tuple[Any, ...]]:
    db = server.config.resolved_data_dir() / "hexfolk.sqlite"
    with sqlite3.connect(db) as conn:
        return list(
            conn.execute(
                "SELECT seq, kind, seat, action, timeout, stand_in, bot FROM events "
                "WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        )


def test_owner_window_pauses_and_resumes() -> None:
    clock = TableClock(120)
    turn1 = ClockStep("turn", ("turn", 1))
    clock.update({0: turn1}, turn=1, now=1000.0)
    assert clock.turns[0].deadline == 1120.0
    # seat 1 must discard during seat 0's turn: 0 pauses, 1 gets at most 60 s (IR-27)
    clock.update({1: ClockStep("parallel", ("discard", 1))}, turn=1, now=1030.0)
    assert clock.turns[0].deadline is None and clock.turns[0].remaining == 90.0
    assert clock.steps[1].deadline == 1090.0
    clock.update({0: turn1}, turn=1, now=1050.0)
    assert clock.turns[0].deadline == 1140.0 and 1 not in clock.steps
    # the next turn: a fresh window for its owner
    clock.update({1: ClockStep("turn", ("turn", 2))}, turn=2, now=1060.0)
    assert set(clock.turns) == {1} and clock.turns[1].deadline == 1180.0
    clock.shift(15.0)
    assert clock.turns[1].deadline == 1195.0
    again = TableClock.from_json(120, None, clock.to_json())
    assert again.to_json() == clock.to_json()
    assert clock.expired(1194.0) == [] and clock.expired(1195.0) == [1]


def test_unlimited_clock_never_runs() -> None:
    clock = TableClock(None)
    clock.update(
        {0: ClockStep("turn", ("turn", 3)), 1: ClockStep("parallel", ("discard", 3))},
        turn=3,
        now=5.0,
    )
    assert clock.turns == {} and clock.steps == {} and clock.next_deadline() is None


def test_views_carry_absolute_deadlines_default_120(server: ThreadServer) -> None:
    async def scenario() -> None:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Timer")
            t = await host.create_table(game="scythe", players=2, bot_delay=0)
            await host.fill_bots(t["id"], "easy")
            await host.set_seat(t["id"], 1, "open")
            other = HexfolkClient(server.url)
            await other.create_player("Other")
            await other.join(t["id"])
            await host.start(t["id"])
            async with host.connect(t["id"]) as conn:
                view = await conn.next_view()
                clocks = view["clocks"]
                assert clocks["limit"] == 120
                seat = str(view["acting"][0])
                entry = clocks["seats"][seat]
                assert entry["running"] and 115 < entry["remaining"] <= 120
                assert abs(entry["deadline"] - view["server_time"] - entry["remaining"]) < 0.01
            await other.aclose()

    run(scenario())


def test_expiry_applies_the_defaults_as_timeouts(server: ThreadServer) -> None:
    async def scenario() -> str:
        async with HexfolkClient(server.url) as host:
            t = await against_a_bot(
                host,
                "Sleepy",
                "random",
                clock=0.3,
                disconnect={"policy": "wait", "grace": 10},
                bot_delay=0,
            )
            await host.start(t["id"])
            async with host.connect(t["id"]) as conn:
                # nobody answers for seat 0: its clock runs out again and again
                view = await conn.wait_for(lambda v: v["version"] > 40, timeout=30)
                assert view["status"] == "playing"
            return str(t["id"])

    tid = run(scenario())
    events = _events(server, tid)
    person = [e for e in events if e[2] == 0]
    assert person and all(e[4] for e in person), "every step of the sleeping seat timed out"
    assert all(not e[4] for e in events if e[2] == 1)
    assert any(e[3].startswith("settle") for e in person)  # IR-28: setup placement default


def test_a_stand_in_plays_after_the_grace_and_hands_the_seat_back(server: ThreadServer) -> None:
    async def scenario() -> str:
        async with HexfolkClient(server.url) as host:
            t = await against_a_bot(
                host,
                "Away",
                "random",
                options={"vp_target": 8},
                clock=None,
                disconnect={"policy": "bot", "grace": 0.2},
                bot_delay=0,
            )
            await host.start(t["id"])
            await asyncio.sleep(0.1)
            watcher = HexfolkClient(server.url)
            async with watcher.connect(t["id"], spectate=True) as spy:
                view = await spy.wait_for(lambda v: v["version"] > 30, timeout=30)
                assert view["seats"][0]["stand_in"] is True
            await watcher.aclose()
            async with host.connect(t["id"]) as conn:
                back = await conn.wait_for(lambda v: bool(v["legal"]) or v["status"] != "playing")
                if back["status"] == "playing":
                    assert back["seats"][0]["stand_in"] is False
                    await asyncio.sleep(0.5)  # the stand-in is gone: nothing moves for seat 0
                    later = [e for e in _events(server, t["id"]) if e[0] > back["version"]]
                    assert not [e for e in later if e[2] == 0 or e[5]], later
            return str(t["id"])

    tid = run(scenario())
    events = _events(server, tid)
    assert any(e[5] for e in events if e[2] == 0), "stand-in steps are flagged"
    assert all(e[6] for e in events if e[5])


def test_wait_policy_keeps_the_seat_waiting(server: ThreadServer) -> None:
    async def scenario() -> None:
        async with HexfolkClient(server.url) as host:
            t = await against_a_bot(
                host,
                "Patient",
                "random",
                clock=None,
                disconnect={"policy": "wait", "grace": 0.1},
                bot_delay=0,
            )
            started = await host.start(t["id"])
            await asyncio.sleep(0.6)
            table = await host.table(t["id"])
            assert table["version"] == started["version"] or table["version"] <= 2
            assert table["seats"][0]["stand_in"] is False

    run(scenario())
