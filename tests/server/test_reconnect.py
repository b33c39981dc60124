"""Reconnect and spectators: missed log lines after a short absence and after the server was
killed and restarted (the lines a client holds known from its version alone, issue 28 point 4),
the whole log flagged when an undo took back lines the client saw, several connections of one
seat in sync, spectators see the public view only; and the version check that accepts a
decision raced by another seat's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hexfolk.server.client import HexfolkClient
from hexfolk.server.limits import REPLAY_LIMIT, RateLimit
from tests.server.helpers import SubprocessServer, ThreadServer, run
from tests.server.undo_answer import undo_answer


async def _table(
    server: ThreadServer | SubprocessServer,
) -> tuple[HexfolkClient, HexfolkClient, str]:
    host, guest = HexfolkClient(server.url), HexfolkClient(server.url)
    await host.create_player("Host")
    await guest.create_player("Guest")
    t = await host.create_table(game="island", players=2, options={"vp_target": 8})
    await guest.join(t["id"])
    await host.start(t["id"])
    return host, guest, str(t["id"])


async def _act_until(conn: Any, other: Any, steps: int) -> None:
    """Play ``steps`` actions with whichever of the two connections may act."""
    for _ in range(steps):
        done = 0
        for c in (conn, other):
            view = c.view
            if view is not None and view["legal"]:
                await c.act(view["legal"][0]["action"], view["version"])
                done = (await c.expect("accepted"))["version"]  # before the new view
                break
        for c in (conn, other):
            await c.wait_for(lambda v, done=done: v["version"] >= done)


def test_reconnect_gets_the_missed_lines_or_the_whole_view(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, tid = await _table(server)
        async with host.connect(tid) as h, guest.connect(tid) as g:
            await h.next_view()
            await g.next_view()
            await _act_until(h, g, 3)
            seen = dict(g.view or {})
            seen_log = list(g.log)
        # the guest is away; the host's seat and the guest's (by the host's hand) move on
        async with host.connect(tid) as h:
            await h.next_view()
            async with guest.connect(tid) as g2:
                await g2.next_view()
                await _act_until(h, g2, 4)
            current = await host.table(tid)
            async with guest.connect(tid, since=seen["version"]) as back:
                view = await back.next_view()
                assert view["version"] == current["version"] > seen["version"]
                assert view["log_start"] == len(seen_log)  # only what was missed
                async with guest.connect(tid) as fresh:
                    full = await fresh.next_view()
                assert full["log_start"] == 0
                assert [x.to_json() for x in seen_log] + view["log"] == full["log"]
                assert view["observation"] == full["observation"]
            # a version the server never announced: the whole view
            async with guest.connect(tid, since=10**6) as lost:
                view = await lost.next_view()
                assert view["log_start"] == 0
        await host.aclose()
        await guest.aclose()

    run(scenario())


def test_a_reconnect_after_the_server_was_killed_gets_exactly_the_missed_lines(
    tmp_path: Path,
) -> None:
    """Issue 28, point 4, on one process: the guest saw version V and left; the game went on;
    the server was killed (SIGKILL) and started again on the same SQLite file, so it never
    sent version V (no log lengths in memory). The guest's reconnect with ``since: V`` gets the
    lines after its own (``log_start`` = the length it holds; its lines + the new ones = the
    whole log, nothing twice), not the whole log again; one naming the current version gets
    no line at all."""
    db = f"sqlite+aiosqlite:///{tmp_path / 'since.sqlite'}"
    srv = SubprocessServer(db, tmp_path).start()
    try:

        async def before() -> tuple[str, str, dict[str, Any], list[Any]]:
            host, guest, tid = await _table(srv)
            async with host.connect(tid) as h, guest.connect(tid) as g:
                await h.next_view()
                await g.next_view()
                await _act_until(h, g, 3)
                seen, seen_log = dict(g.view or {}), [x.to_json() for x in g.log]
            async with host.connect(tid) as h, guest.connect(tid) as g2:
                await h.next_view()
                await g2.next_view()
                await _act_until(h, g2, 4)
            await host.aclose()
            await guest.aclose()
            assert host.token and guest.token
            return guest.token, tid, seen, seen_log

        token, tid, seen, seen_log = run(before())
        srv.kill()
        again = SubprocessServer(db, tmp_path)
        again.port, again.url, again.args = srv.port, srv.url, srv.args
        srv = again.start()

        async def after() -> None:
            guest = HexfolkClient(srv.url, token=token)
            async with guest.connect(tid, since=seen["version"]) as back:
                view = await back.next_view()
            async with guest.connect(tid) as fresh:
                full = await fresh.next_view()
            assert view["version"] == full["version"] > seen["version"]
            assert view["log_start"] == len(seen_log) > 0 and view["log"]
            assert "log_rewritten" not in view
            assert seen_log + view["log"] == full["log"]
            async with guest.connect(tid, since=full["version"]) as current:
                now = await current.next_view()
            assert now["log_start"] == len(full["log"]) and now["log"] == []
            await guest.aclose()

        run(after())
    finally:
        srv.terminate()


def test_an_undo_of_lines_the_client_saw_sends_the_whole_log_flagged(
    server: ThreadServer,
) -> None:
    """The whole log goes to a reconnecting client only when its lines are not the table's
    log any more, and then says so (``log_rewritten``): the host's settlement, seen by the
    guest, was undone while the guest was away. A step made and undone while the guest was
    away touched none of its lines: it gets the lines it missed (none)."""

    async def scenario() -> None:
        host, guest, tid = await _table(server)
        async with host.connect(tid) as h, guest.connect(tid) as g:
            start = await h.next_view()
            await g.next_view()
            before_log = [x.to_json() for x in g.log]
            before = start["version"]
            await h.act(start["legal"][0]["action"], before)  # the first settlement
            settled = (await h.expect("accepted"))["version"]
            await g.wait_for(lambda v: v["version"] >= settled)
            seen, seen_log = settled, [x.to_json() for x in g.log]
        assert len(seen_log) > len(before_log)
        async with host.connect(tid) as h:
            await h.next_view()
            assert (await undo_answer(h, 1))["type"] == "undone"
        async with guest.connect(tid) as fresh:
            full = await fresh.next_view()
        async with guest.connect(tid, since=seen) as back:
            view = await back.next_view()
        assert view["log_start"] == 0 and view["log_rewritten"] is True
        assert view["log"] == full["log"] and "log_rewritten" not in full
        # from before the settlement: nothing it holds was taken back
        async with guest.connect(tid, since=before) as back:
            view = await back.next_view()
        assert view["log_start"] == len(before_log) and "log_rewritten" not in view
        assert before_log + view["log"] == full["log"]
        await host.aclose()
        await guest.aclose()

    run(scenario())


def test_replays_for_reconnects_are_limited_per_table(server: ThreadServer) -> None:
    """docs/server.md, "Limits": at most 4 replays of a table's event log per 10 s answer
    reconnects naming versions the server holds no log length of (a replay blocks the process
    for the game's length); a fifth within the 10 s gets the whole log, not flagged
    ``log_rewritten`` (its lines are still the table's)."""

    async def scenario() -> None:
        host, guest, tid = await _table(server)
        async with host.connect(tid) as h, guest.connect(tid) as g:
            await h.next_view()
            await g.next_view()
            await _act_until(h, g, 6)
            now = (h.view or {})["version"]
            # the limit's window made an hour long: the test does not depend on the machine's speed
            room = server.app.state.services.manager.rooms[tid]
            room.fanout.replays = RateLimit(REPLAY_LIMIT[0], 3600.0)
        watcher = HexfolkClient(server.url)
        starts = []
        for since in range(now - 1, now - 6, -1):  # versions no spectator was sent
            async with watcher.connect(tid, spectate=True, since=since) as w:
                view = await w.next_view()
                starts.append((view["log_start"], view.get("log_rewritten", False)))
        assert all(start > 0 and not flag for start, flag in starts[:4]), starts
        assert starts[4] == (0, False), starts
        await host.aclose()
        await guest.aclose()
        await watcher.aclose()

    run(scenario())


def test_connections_of_one_seat_stay_in_sync_and_spectators_see_less(
    server: ThreadServer,
) -> None:
    async def scenario() -> None:
        host, guest, tid = await _table(server)
        anonymous = HexfolkClient(server.url)
        async with (
            host.connect(tid) as tab1,
            host.connect(tid) as tab2,
            guest.connect(tid) as g,
            anonymous.connect(tid, spectate=True) as spectator,
            host.connect(tid, spectate=True) as host_watching,
        ):
            first = await tab1.next_view()
            await tab2.next_view()
            await tab1.act(first["legal"][0]["action"], first["version"])
            await tab1.expect("accepted")
            v1 = await tab1.wait_for(lambda v: v["version"] > first["version"])
            v2 = await tab2.wait_for(lambda v: v["version"] == v1["version"])
            assert v1["observation"] == v2["observation"] and v1["legal"] == v2["legal"]
            s = await spectator.wait_for(lambda v: v["version"] == v1["version"])
            w = await host_watching.wait_for(lambda v: v["version"] == v1["version"])
            assert s["seat"] is None and w["seat"] is None
            assert s["observation"] == w["observation"]  # a seated player's spectator tab
            assert s["legal"] == [] and w["legal"] == []
            assert s["observation"] != v1["observation"]
            assert "hand" not in str(s["observation"]["players"])
            await g.wait_for(lambda v: v["version"] == v1["version"])
        for c in (host, guest, anonymous):
            await c.aclose()

    run(scenario())
