"""The group-commit writer on SQLite (its own connection in a thread) and PostgreSQL
(SQLAlchemy): what it writes reads back the same through SQLAlchemy, and one table's failing
write never fails another's in the same batch."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from hexfolk.server.models import TableRow
from hexfolk.server.store import Step, Store


def _table(table_id: str) -> TableRow:
    now = time.time()
    return TableRow(
        id=table_id,
        game="island",
        players=2,
        options={},
        clock=None,
        public=True,
        spectators=True,
        disconnect_policy="wait",
        grace=60.0,
        bot_delay=0.0,
        seats=[{"kind": "open"}, {"kind": "open"}],
        status="playing",
        host_id="p1",
        seed=7,
        seeded=False,
        version=0,
        clock_state={},
        created_at=now,
        updated_at=now,
    )


async def _check(url: str) -> None:
    store = await Store.open(url, sqlite_synchronous="NORMAL")
    try:
        await store.create_player("p1", "Ana", "h" * 64)
        for tid in ("ta", "tb"):
            await store.add_table(_table(tid))
        clock = {"windows": {"0": {"deadline": 12.5, "owner": True}}, "turn": 3}
        result = {"winners": [1], "scores": [3.0, 8.0], "summary": {"dice": {"7": 2}}}
        await store.commit_steps(
            "ta",
            [Step(1, "action", 0, "settle 3", at=1.0), Step(2, "chance", None, "roll 8", at=2.0)],
            version=2,
            clock_state=clock,
        )
        # a batch where table tb's write breaks the unique (table, seq) key: ta's goes in
        await store.commit_steps("tb", [Step(1, "action", 1, "x", at=1.0)], version=1)
        good = store.commit_steps(
            "ta",
            [Step(3, "action", 1, "road 4", bot=True, at=3.0), Step(4, "undo", 1, "undo 1")],
            version=4,
            status="finished",
            result=result,
        )
        bad = store.commit_steps("tb", [Step(1, "action", 1, "again", at=4.0)], version=2)
        outcomes = await asyncio.gather(good, bad, return_exceptions=True)
        assert outcomes[0] is None and isinstance(outcomes[1], RuntimeError)
        rows = await store.events("ta")
        assert [(e.seq, e.kind, e.seat, e.action, e.bot) for e in rows] == [
            (1, "action", 0, "settle 3", False),
            (2, "chance", None, "roll 8", False),
            (3, "action", 1, "road 4", True),
            (4, "undo", 1, "undo 1", False),
        ]
        assert [e.action for e in await store.events("tb")] == ["x"]
        row = await store.get_table("ta")
        assert row is not None
        assert (row.version, row.status, row.clock_state, row.result) == (
            4,
            "finished",
            clock,
            result,
        )
        tb = await store.get_table("tb")
        assert tb is not None and tb.version == 1
    finally:
        await store.close()


def test_sqlite_group_commit(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'store.sqlite'}"
    asyncio.run(_check(url))

    async def direct() -> bool:
        store = await Store.open(url)
        try:
            return store.direct is not None
        finally:
            await store.close()

    assert asyncio.run(direct())  # a file database: the writer's own connection


def test_postgresql_group_commit(pg_url: str) -> None:
    asyncio.run(_check(pg_url))
