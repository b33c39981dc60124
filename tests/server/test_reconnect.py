"""Reconnect and spectators: missed log lines after a short absence, the whole view when too
far behind, several connections of one seat in sync, spectators see the public view only; and
the version check that accepts a decision raced by another seat's."""

from __future__ import annotations

from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run


async def _table(server: ThreadServer) -> tuple[HexfolkClient, HexfolkClient, str]:
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
