"""One rematch per finished table, whichever process is asked and however many at once
(issue 28, point 3: any process serves any request the same). The database decides:
``Store.add_rematch`` adds the new table and sets the old one's ``rematch_id`` only where it
is still empty, in one transaction, so the request that comes second writes nothing and
answers the first one's table. Before, an ``asyncio.Lock`` of one process guarded it: two
processes could each make a rematch."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from hexfolk.server.models import TableRow
from hexfolk.server.store import Store
from tests.cluster.sites import Site, http, need_services, pg_dsn, site
from tests.server.helpers import pg_database, run
from tests.server.test_store import _table

pytestmark = pytest.mark.timeout(300)

RACES = 20


def _finished(tid: str, host: str = "p1") -> TableRow:
    row = _table(tid)
    row.status, row.host_id = "finished", host
    row.seats = [
        {"kind": "person", "player_id": host, "name": "Ana"},
        {"kind": "bot", "level": "easy"},
    ]
    return row


def _rematch_of(tid: str, new_id: str) -> TableRow:
    row = _table(new_id)
    row.status, row.rematch_of = "lobby", tid
    return row


async def _race(url: str) -> None:
    a, b = await Store.open(url), await Store.open(url)
    try:
        await a.create_player("p1", "Ana", "h" * 64)
        for i in range(RACES):
            tid = f"f{i}"
            await a.add_table(_finished(tid))
            got = await asyncio.gather(
                a.add_rematch(tid, _rematch_of(tid, f"{tid}-a")),
                b.add_rematch(tid, _rematch_of(tid, f"{tid}-b")),
            )
            assert got[0] == got[1] and got[0] in (f"{tid}-a", f"{tid}-b"), got
            loser = f"{tid}-b" if got[0] == f"{tid}-a" else f"{tid}-a"
            assert await a.get_table(loser) is None  # never written
            old = await b.get_table(tid)
            assert old is not None and old.rematch_id == got[0]
            # asked again later: the same table, nothing new
            assert await a.add_rematch(tid, _rematch_of(tid, f"{tid}-c")) == got[0]
            assert await a.get_table(f"{tid}-c") is None
    finally:
        await a.close()
        await b.close()


def test_two_stores_making_a_rematch_at_once_on_postgresql() -> None:
    need_services()
    with pg_database() as url:
        run(_race(url), 120)


def test_two_stores_making_a_rematch_at_once_on_sqlite(tmp_path: Path) -> None:
    run(_race(f"sqlite+aiosqlite:///{tmp_path / 'rematch.sqlite'}"), 120)


def test_two_processes_asked_for_a_rematch_at_once_make_one(tmp_path: Path) -> None:
    """Two ``hexfolk serve`` processes on one PostgreSQL database; finished tables that no
    process holds (as after a restart); the host asks both processes for the rematch of each
    at the same moment, twenty times: one rematch table per finished table, and both answers
    name it."""

    async def scenario(s: Site) -> None:
        u0, u1 = s.urls()
        me = await http(u0, "POST", "/api/players", json={"name": "Ana"})
        store = await Store.open(s.db_url)
        try:
            tids = [f"fin{i}" for i in range(RACES)]
            for tid in tids:
                row = _finished(tid, me["id"])
                row.created_at = row.updated_at = time.time()
                await store.add_table(row)
        finally:
            await store.close()
        for tid in tids:
            path = f"/api/tables/{tid}/rematch"
            answers: list[Any] = await asyncio.gather(
                http(u0, "POST", path, me["token"]), http(u1, "POST", path, me["token"])
            )
            assert answers[0]["id"] == answers[1]["id"], answers
            assert answers[0]["rematch_of"] == tid and answers[0]["status"] == "lobby"
        conn = await asyncpg.connect(pg_dsn(s.db_url))
        try:
            made = await conn.fetch(
                "SELECT rematch_of, count(*) AS n FROM tables WHERE rematch_of IS NOT NULL "
                "GROUP BY rematch_of"
            )
            named = await conn.fetch("SELECT id, rematch_id FROM tables WHERE id LIKE 'fin%'")
        finally:
            await conn.close()
        assert {r["rematch_of"]: r["n"] for r in made} == dict.fromkeys(tids, 1)
        assert all(r["rematch_id"] for r in named)

    with site(tmp_path, 2) as s:
        run(scenario(s), 200)
