"""Undo within your own turn (issue #15, /tmp UNDO contract, ``docs/protocol.md``): one step
and back to the start of the turn in both games, each barrier refused with its sentence, a
stale undo refused, spectators never offered one, the undone steps kept in the log, the record
and the replay of the game as played, and an undo after a restart (recovery)."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from hexfolk.core import MatchRecord, RecordError, load_game
from hexfolk.core.record import replay
from hexfolk.games.scythe import final as scythe_final
from hexfolk.server import undo as U
from hexfolk.server.client import HexfolkClient, TableConnection
from hexfolk.server.views import observation_json
from tests.server.helpers import SubprocessServer, ThreadServer, run
from tests.server.undo_answer import undo_answer


async def _pair(url: str, game: str, seed: int, **settings: Any) -> tuple[Any, Any, str]:
    host, guest = HexfolkClient(url), HexfolkClient(url)
    await host.create_player("Ana")
    await guest.create_player("Ben")
    t = await host.create_table(game=game, players=2, seed=seed, **settings)
    await guest.join(t["id"])
    await host.start(t["id"])
    return host, guest, str(t["id"])


async def _fresh(conn: TableConnection, version: int) -> dict[str, Any]:
    return await conn.wait_for(lambda v: v["version"] >= version)


async def _step(conn: TableConnection, text: str) -> dict[str, Any]:
    view = conn.view
    assert view is not None
    await conn.act(text, view["version"], ref="a")
    ack = await conn.expect("accepted")
    return await _fresh(conn, ack["version"])


def _events(server: ThreadServer, tid: str) -> list[tuple[Any, ...]]:
    db = server.config.resolved_data_dir() / "hexfolk.sqlite"
    with sqlite3.connect(db) as conn:
        return list(
            conn.execute(
                "SELECT seq, kind, seat, action, undoes FROM events WHERE table_id = ? "
                "ORDER BY seq",
                (tid,),
            )
        )


def test_island_undo_one_step_and_back_to_the_turn_start_and_each_barrier(
    server: ThreadServer,
) -> None:
    async def scenario() -> None:
        host, guest, tid = await _pair(server.url, "island", 11, options={"vp_target": 8})
        watcher = HexfolkClient(server.url)
        async with (
            host.connect(tid) as a,
            guest.connect(tid) as b,
            watcher.connect(tid, spectate=True) as spec,
            host.connect(tid, spectate=True) as host_tab,
        ):
            start = await a.next_view()
            await b.next_view()
            assert start["legal"] and start["undo"] is None
            first_log = list(a.log)
            # nothing yet: the sentence says so
            err = await undo_answer(a, 1)
            assert err["code"] == "cannot_undo" and err["message"] == U.NOTHING
            assert err["version"] == start["version"]
            settle = start["legal"][0]["action"]
            after_settle = await _step(a, settle)  # IR-18: the first settlement
            assert after_settle["undo"] == {"steps": 1, "turn": 1, "last": settle}
            assert (await _fresh(b, after_settle["version"]))["undo"] is None
            road = after_settle["legal"][0]["action"]
            after_road = await _step(a, road)
            assert after_road["undo"] == {"steps": 2, "turn": 2, "last": road}
            # a stale undo is refused, and nothing changes
            await a.undo(1, after_settle["version"], ref="s")
            stale = await a.expect("error")
            assert stale["code"] == "stale" and stale["ref"] == "s"
            # one step back: the road prompt again, a higher version, the whole log again
            done = await undo_answer(a, 1)
            assert done["type"] == "undone" and done["steps"] == 1
            assert done["version"] == after_road["version"] + 1
            view = a.view
            assert view is not None and view["log_start"] == 0
            assert view["legal"] == after_settle["legal"]
            assert view["observation"] == after_settle["observation"]
            assert view["undo"] == {"steps": 1, "turn": 1, "last": settle}
            # back to the start of the turn
            done = await undo_answer(a, "turn")
            assert done["type"] == "undone" and done["steps"] == 1
            view = a.view
            assert view is not None
            assert view["legal"] == start["legal"] and view["observation"] == start["observation"]
            assert a.log == first_log and view["undo"] is None
            # everyone follows: the other seat and the spectators see the same version
            for conn in (b, spec, host_tab):
                seen = await _fresh(conn, done["version"])
                assert seen["undo"] is None and seen["log_start"] == 0
            assert (
                spec.view is not None
                and spec.view["observation"]
                == ((await _fresh(spec, done["version"]))["observation"])
            )
            # the undone steps stay in the log, taken back by undo events
            events = _events(server, tid)
            kinds = [e[1] for e in events if e[1] != "chance"]
            assert kinds == ["action", "action", "undo", "undo"]
            undo_rows = [e for e in events if e[1] == "undo"]
            assert [(e[2], e[3]) for e in undo_rows] == [(0, "undo 1"), (0, "undo 1")]
            road_seq = next(e[0] for e in events if e[3] == road)
            settle_seq = next(e[0] for e in events if e[3] == settle)
            assert [e[4] for e in undo_rows] == [road_seq, settle_seq]
            # play the setup on; another seat's step is a barrier
            await _step(a, settle)
            await _step(a, a.view["legal"][0]["action"])  # type: ignore[index]
            b_view = await _fresh(b, a.view["version"])  # type: ignore[index]
            await _step(b, b_view["legal"][0]["action"])
            await _fresh(a, b.view["version"])  # type: ignore[index]
            err = await undo_answer(a, 1)
            assert err["code"] == "cannot_undo" and err["message"] == U.OTHER_SEAT
            # ... through the setup to the first roll (a chance step follows it)
            conns = {0: a, 1: b}
            while True:
                view = a.view
                assert view is not None
                seat = view["acting"][0]
                mine = await _fresh(conns[seat], view["version"])
                if any(e["action"] == "roll" for e in mine["legal"]):
                    break
                await _step(conns[seat], mine["legal"][0]["action"])
                await _fresh(a, conns[seat].view["version"])  # type: ignore[index]
            roller = conns[seat]
            rolled = await _step(roller, "roll")
            err = await undo_answer(roller, 1)
            assert err["code"] == "cannot_undo" and err["message"] == U.CHANCE
            assert rolled["undo"] is None
            # a 7 (discards, robber) is skipped over: play to the main prompt of the roller
            while not any(e["action"] == "end" for e in (roller.view or {}).get("legal", [])):
                view = roller.view
                assert view is not None
                s = view["acting"][0]
                mine = await _fresh(conns[s], view["version"])
                await _step(conns[s], mine["legal"][0]["action"])
                await _fresh(roller, conns[s].view["version"])  # type: ignore[index]
            main = roller.view
            assert main is not None
            offer = next(e["action"] for e in main["legal"] if e["action"].startswith("offer"))
            offered = await _step(roller, offer)
            assert offered["undo"] == {"steps": 1, "turn": 1, "last": offer}
            withdraw = next(
                e["action"] for e in offered["legal"] if e["action"].startswith("withdraw")
            )
            withdrawn = await _step(roller, withdraw)
            assert withdrawn["undo"]["steps"] == 2
            done = await undo_answer(roller, "turn")
            assert done["steps"] == 2
            back = roller.view
            assert back is not None
            assert back["legal"] == main["legal"] and back["observation"] == main["observation"]
            # an undo of more steps than allowed says how many may go
            await _step(roller, offer)
            err = await undo_answer(roller, 2)
            assert err["code"] == "cannot_undo" and err["message"].startswith("only 1 of your")
            await undo_answer(roller, 1)
            # the turn ends: a new turn is a barrier
            await _step(roller, "end")
            err = await undo_answer(roller, 1)
            assert err["code"] == "cannot_undo" and err["message"] == U.NEW_TURN
            # spectators (and a seated player's spectator tab) are refused and never offered
            for conn in (spec, host_tab):
                await _fresh(conn, roller.view["version"])  # type: ignore[index]
                assert conn.view is not None and conn.view["undo"] is None
                await conn.undo(1, conn.view["version"], ref="x")
                err = await conn.expect("error")
                assert err["code"] in ("no_seat", "not_identified")
        for c in (host, guest, watcher):
            await c.aclose()

    run(scenario(), timeout=180)


def test_scythe_undo_within_the_turn(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, tid = await _pair(server.url, "scythe", 5)
        async with host.connect(tid) as a, guest.connect(tid) as b:
            conns = {0: a, 1: b}
            view = await a.next_view()
            await b.next_view()
            seat = view["acting"][0]
            me = conns[seat]
            start = await _fresh(me, view["version"])
            assert start["undo"] is None
            trail: list[dict[str, Any]] = [start]
            # the turn's small decisions (section, top action, ...) until the turn ends
            rng = random.Random(5)
            while True:
                cur = trail[-1]
                # no combat card drawn (a chance step, the barrier tested with the island)
                calm = [
                    e["action"] for e in cur["legal"] if e["action"] not in ("end", "bolster cards")
                ]
                nxt = await _step(me, rng.choice(calm or [e["action"] for e in cur["legal"]]))
                if nxt["undo"] is None or seat not in nxt["acting"]:
                    break
                assert nxt["undo"]["steps"] == len(trail)
                trail.append(nxt)
                if len(trail) >= 4:
                    break
            assert len(trail) >= 3, "a Scythe turn has at least a section and a top action"
            done = await undo_answer(me, 1)
            assert done["steps"] == 1
            assert me.view is not None and me.view["legal"] == trail[-2]["legal"]
            assert me.view["observation"] == trail[-2]["observation"]
            done = await undo_answer(me, "turn")
            assert done["steps"] == len(trail) - 2
            assert me.view["legal"] == start["legal"]
            assert me.view["observation"] == start["observation"]
            other = conns[1 - seat]
            seen = await _fresh(other, done["version"])
            assert (
                seen["undo"] is None
                and seen["observation"] == (await _fresh(other, done["version"]))["observation"]
            )
        await host.aclose()
        await guest.aclose()

    run(scenario(), timeout=120)


def test_record_and_replay_after_undos_show_the_game_as_played(server: ThreadServer) -> None:
    """A whole game of two scripted people who undo now and then: the record verifies whole
    (checkpoints every 50 steps) and replays to the table's final state; undone steps are not
    in it; the statistics count the undos."""

    async def scenario() -> None:
        host, guest, tid = await _pair(server.url, "island", 23, options={"vp_target": 8})
        rng = random.Random(23)
        undos = {0: 0, 1: 0}
        async with host.connect(tid) as a, guest.connect(tid) as b:
            conns = {0: a, 1: b}
            await a.next_view()
            await b.next_view()
            for _ in range(6000):
                view = a.view
                assert view is not None
                if view["status"] == "finished":
                    break
                seat = view["acting"][0] if view["acting"] else 0
                me = await _fresh(conns[seat], view["version"])
                if me["status"] == "finished":
                    break
                if me["undo"] and rng.random() < 0.3:
                    done = await undo_answer(conns[seat], rng.choice([1, "turn"]))
                    assert done["type"] == "undone", done
                    undos[seat] += 1
                elif me["legal"]:
                    legal = [e["action"] for e in me["legal"]]
                    calm = [x for x in legal if not x.startswith(("offer", "counter"))]
                    await _step(conns[seat], rng.choice(calm or legal))
                await _fresh(a, conns[seat].view["version"])  # type: ignore[index]
            assert a.view is not None and a.view["status"] == "finished"
        assert sum(undos.values()) >= 3
        record = MatchRecord.loads(await host.record(tid))
        final = replay(record)  # raises on any mismatch, checkpoints included
        assert record.checkpoints and record.checkpoints[0][0] == 50
        assert [c[0] for c in record.checkpoints] == list(range(50, len(record.actions) + 1, 50))
        # a tampered dice roll that may still replay legally is named within 50 steps
        rolls = [i for i, e in enumerate(record.actions) if e.startswith("roll ") and i > 60]
        i = rolls[len(rolls) // 2]
        total = int(record.actions[i].split()[1])
        bad = MatchRecord.from_json(record.to_json())
        bad.actions[i] = f"roll {6 if total == 8 else 8}"
        with pytest.raises(RecordError) as err:
            replay(bad)
        named = [int(n) for n in re.findall(r"\d+", str(err.value))]
        assert any(i + 1 <= n <= i + 51 for n in named), str(err.value)
        assert final.is_terminal() and final.fingerprint() == record.final_fingerprint
        events = _events(server, tid)
        assert len(record.actions) == len(U.live_events(_rows(events)))
        assert len(record.actions) < len([e for e in events if e[1] != "undo"])
        summary = await host.request("GET", f"/api/tables/{tid}/summary")
        assert [s["undos"] for s in summary["statistics"]["seats"]] == [undos[0], undos[1]]
        rep = await host.request("GET", f"/api/tables/{tid}/replay", params={"limit": 1})
        assert rep["steps_total"] == len(record.actions)
        # the replay endpoint's last step is the record's final position
        last = await host.request(
            "GET",
            f"/api/tables/{tid}/replay",
            params={"start": len(record.actions), "limit": 1},
        )
        assert last["steps"][0]["observation"] == observation_json(final.observation(None))
        await host.aclose()
        await guest.aclose()

    run(scenario(), timeout=300)


class _Row:
    def __init__(self, seq: int, kind: str, undoes: int | None):
        self.seq, self.kind, self.undoes = seq, kind, undoes
        self.seat = None
        self.timeout = self.stand_in = self.bot = self.reveals = False


def _rows(events: list[tuple[Any, ...]]) -> list[_Row]:
    return [_Row(e[0], e[1], e[4]) for e in events]


def test_live_events_drop_what_undos_took_back() -> None:
    rows = [_Row(1, "action", None), _Row(2, "action", None), _Row(3, "undo", 2)]
    rows += [_Row(4, "action", None), _Row(5, "action", None), _Row(6, "undo", 1)]
    rows += [_Row(7, "action", None)]
    assert [r.seq for r in U.live_events(rows)] == [7]


def test_the_closing_combat_commitment_reveals_to_its_actor() -> None:
    """SR-43 C2: the second commitment reveals the first; the kernel's ``reveals_to`` (the
    sampled-worlds default) says so, and says no for the first commitment."""
    game = load_game("scythe", 2, {})
    found = 0
    for g in range(60):
        rng = random.Random(g)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 2000 and found < 2:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            seat = rng.choice(state.acting_seats())
            action = rng.choice(state.legal_actions_for(seat))
            sim = state.simultaneous_seats()
            if len(sim) == 2 and seat in sim:
                assert not state.reveals_to(seat, action, random.Random(1))
            elif sim == [seat] and state.prompt_for(seat).kind == "commit":  # type: ignore[union-attr]
                assert state.reveals_to(seat, action, random.Random(1))
                found += 1
            state.apply_for(seat, action)
            steps += 1
        if found >= 2:
            break
    assert found >= 1


def test_undo_after_a_restart(tmp_path: Path) -> None:
    """Recovery: the undoable steps are rebuilt from the log (no kept state), and the undo
    works on the restarted server."""
    db = f"sqlite+aiosqlite:///{tmp_path / 'undo.sqlite'}"
    srv = SubprocessServer(db, tmp_path, ["--allow-seeded-tables"]).start()
    try:

        async def before() -> tuple[Any, Any, str, dict[str, Any], dict[str, Any]]:
            host, guest, tid = await _pair(srv.url, "island", 31, options={"vp_target": 8})
            async with host.connect(tid) as a:
                start = await a.next_view()
                after = await _step(a, start["legal"][0]["action"])
            return host, guest, tid, start, after

        host, _guest, tid, start, after = run(before())
        srv.kill()
        srv2 = SubprocessServer(db, tmp_path, ["--allow-seeded-tables"])
        srv2.port, srv2.url = srv.port, srv.url
        srv2.args = srv.args
        srv2.start()
        srv = srv2

        async def again() -> None:
            h = HexfolkClient(srv.url, token=host.token)
            async with h.connect(tid) as a:
                view = await a.next_view()
                assert view["version"] == after["version"]
                assert view["undo"] == after["undo"] and view["undo"]["steps"] == 1
                done = await undo_answer(a, 1)
                assert done["type"] == "undone"
                assert a.view is not None and a.view["legal"] == start["legal"]
                assert a.view["observation"] == start["observation"]
            await h.aclose()

        run(again())
    finally:
        srv.terminate()


def _st(seq: int, seat: int | None, turn: int, kind: str = "action", **flags: Any) -> Any:
    from hexfolk.server.store import Step

    return Step(seq, kind, seat, f"step {seq}", turn=turn, **flags)


def test_every_barrier_of_the_undo_rules_with_its_sentence() -> None:
    """The walk back over the game as played (``undo.undoable``), barrier by barrier."""

    def can(steps: list[Any], seat: int = 0, turn: int = 5) -> tuple[int, str]:
        u = U.undoable(steps, [s.turn for s in steps], seat, turn)
        return u.steps, u.reason

    earlier = [_st(1, 1, 4), _st(2, None, 5, "chance")]  # the turn began with a chance step
    mine = [_st(3, 0, 5), _st(4, 0, 5)]
    assert can(earlier + mine) == (2, U.CHANCE)
    assert can(earlier) == (0, U.NOTHING)
    assert can(earlier + mine + [_st(5, None, 5, "chance")]) == (0, U.CHANCE)
    assert can(earlier + mine + [_st(5, 1, 5)]) == (0, U.OTHER_SEAT)
    assert can(earlier + mine + [_st(5, 0, 5, timeout=True)]) == (0, U.TIMEOUT)
    assert can(earlier + mine + [_st(5, 0, 5, stand_in=True, bot=True)]) == (0, U.STAND_IN)
    assert can(earlier + mine + [_st(5, 0, 5, reveals=True)]) == (0, U.REVEALED)
    assert can(earlier + mine + [_st(5, 0, 5, reveals=True), _st(6, 0, 5)]) == (1, U.REVEALED)
    # an unknown reveal flag counts as undoable (the room settles it before undoing)
    assert can(earlier + mine + [_st(5, 0, 5, reveals=None)]) == (3, U.CHANCE)
    # my step of the previous turn: a new turn
    assert can([_st(1, 0, 4)]) == (0, U.NEW_TURN)
    assert can([_st(1, 0, 4), _st(2, 0, 5)]) == (1, U.TURN_START)
    # another seat's step in my turn, nothing of mine behind it
    assert can([_st(1, 0, 4), _st(2, 1, 5)]) == (0, U.NOTHING)
    # someone else's undo rights are theirs: seat 1 sees nothing of its own
    assert can(earlier + mine, seat=1) == (0, U.NOTHING)


def test_the_combat_commitments_cannot_be_undone(server: ThreadServer) -> None:
    """SR-43 C2 through the wire (issue 25, finding 14): a combat commitment is final as soon
    as it is sent (every combat step is, ``scythe.final.COMBAT``), so neither committer is
    offered an undo and the closer's request is refused with the final step's sentence, at
    once (the commitment also reveals the other side's dial to the closer: the reveal check
    no longer needs to decide it). The first committer's undo is refused because the other
    seat has acted since. Seed 201 and this random policy reach the combat by step 682 (the
    room's seeded chance draws replayed offline, as in ``test_reconnect_prompts``)."""

    async def scenario() -> None:
        host, guest, tid = await _pair(server.url, "scythe", 201)
        rng = random.Random(201)
        async with host.connect(tid) as a, guest.connect(tid) as b:
            conns = {0: a, 1: b}
            await a.next_view()
            await b.next_view()
            first: int | None = None
            for _ in range(700):
                view = a.view
                assert view is not None and view["status"] == "playing"
                at = view["version"]
                seat = rng.choice(list(view["acting"]))
                mine = await conns[seat].wait_for(lambda v, at=at: v["version"] >= at)
                if mine["version"] != at or not mine["legal"]:
                    continue
                kind = (mine["observation"].get("prompt") or {}).get("kind")
                legal = [e["action"] for e in mine["legal"]]
                calm = [x for x in legal if not x.startswith(("counter", "withdraw"))]
                action = rng.choice(calm or legal)
                if kind == "commit":
                    # no power and no cards on either side: the loser draws no combat card,
                    # so no chance step follows the reveal
                    action = "commit 0"
                    assert action in legal
                done = await _step(conns[seat], action)
                for conn in conns.values():
                    await _fresh(conn, done["version"])
                if kind == "commit" and first is None:
                    first = seat
                    assert done["undo"] is None
                elif kind == "commit":
                    closer = conns[seat]
                    assert closer.view is not None and closer.view["version"] == done["version"]
                    assert done["version"] == at + 1, "no chance step after the reveal"
                    assert done["undo"] is None  # final at once, no check needed
                    err = await undo_answer(closer, 1)
                    assert err["code"] == "cannot_undo"
                    assert err["message"] == U.FINAL.format(why=scythe_final.COMBAT)
                    err = await undo_answer(conns[first], 1)
                    assert err["code"] == "cannot_undo" and err["message"] == U.OTHER_SEAT
                    break
            else:
                raise AssertionError("no combat reached")
        await host.aclose()
        await guest.aclose()

    run(scenario(), timeout=300)
