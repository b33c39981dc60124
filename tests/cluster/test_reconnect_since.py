"""A client whose table's owner died carries on at another process with exactly the log lines
it missed (issue 28, point 4: "connected clients carry on after a reconnect with exactly the
events they missed"). Its hello names the last version it saw; the new owner never sent that
version to that viewer, and finds where the client's log stands by replaying the event log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.cluster.sites import Player, Site, check_log, events, owner_port, site
from tests.cluster.test_many_processes import at, play, three_seat_table
from tests.server.helpers import run

pytestmark = pytest.mark.timeout(300)


async def fresh_log(url: str, like: Player) -> list[object]:
    """The log a new connection of ``like``'s viewer gets at ``url``."""
    fresh = Player("fresh", like.token, like.table, [url], seed=0)
    fresh.paused, fresh.spectate = True, like.spectate
    await asyncio.wait_for(fresh.run(lambda p: p.view is not None), 15)
    return fresh.log


def test_a_client_of_a_killed_owner_gets_exactly_the_missed_lines_at_another_process(
    tmp_path: Path,
) -> None:
    """Two processes; the three people play through the process that does not own the table
    (piped to the owner), and three watchers are connected to the owner itself: a second
    connection of seat 0 that loses the last views before the owner dies (frames lost on a
    broken network: it is behind the version the new owner starts at), one of seat 1, and a
    spectator (a viewer nobody watches as at the other process). The owner is killed
    (SIGKILL) while the game runs; the watchers stay away while the game goes on at the other
    process, then reconnect there with the version they saw. Their first view starts where
    their logs end (``log_start`` = the length they hold, not 0, no ``log_rewritten``) and
    brings the lines they missed; their logs are then the logs a fresh connection gets, each
    line once."""

    async def scenario(s: Site) -> None:
        u0, u1 = s.urls()
        table, players = await three_seat_table(s, u0, [u0, u1, u0])
        owner = await owner_port(s.db_url, table, s)
        other = u1 if owner == u0 else u0
        for p in players:
            p.urls = [other]  # piped to the owner
        watchers = [Player(f"W{i}", players[i].token, table, [owner], seed=0) for i in (0, 1, 0)]
        watchers[2].spectate = True
        for w in watchers:
            w.paused = True
        watching = [asyncio.ensure_future(w.run(lambda w: False)) for w in watchers]
        await play(players, at(15))
        while min(w.version or 0 for w in watchers) < 15:
            await asyncio.sleep(0.05)
        for w in watchers:
            assert w.rejoins == [(None, 0, 0, False)]  # a new connection: the whole log
            w.reconnect = False  # no reconnect until told
        watchers[0].deaf = True  # from here on its frames are lost
        v0 = max(p.version or 0 for p in players)
        going = asyncio.ensure_future(play(players, at(v0 + 25)))
        while max(p.version or 0 for p in players) < v0 + 3:  # the play is under way
            await asyncio.sleep(0.002)
        s.by_port(owner).kill()
        await asyncio.gather(*watching)  # their sockets closed with the owner
        assert all(w.closes for w in watchers)
        seen = [(w.version, len(w.log)) for w in watchers]
        killed_at = max(p.version or 0 for p in players)
        assert (seen[0][0] or 0) < killed_at  # seat 0's watcher is behind
        await going  # the game went on at the other process
        assert await owner_port(s.db_url, table, s) == other
        check_log(await events(s.db_url, table), players)
        end = len(await events(s.db_url, table))
        for w in watchers:
            w.reconnect, w.deaf, w.urls = True, False, [other]
        got_to = lambda w: (w.version or 0) >= end  # noqa: E731
        await asyncio.wait_for(asyncio.gather(*(w.run(got_to) for w in watchers)), 60)
        for w, (version, held) in zip(watchers, seen, strict=True):
            since, length, start, rewritten = w.rejoins[-1]
            assert since == version and length == held > 0
            assert start == held and not rewritten, w.rejoins  # only what it missed
            assert w.view is not None and w.view["version"] == end
            assert len(w.view["log"]) > 0  # it did miss lines
            assert w.log == await fresh_log(other, w)  # each line once, none missing

    with site(tmp_path, 2) as s:
        run(scenario(s), 200)
