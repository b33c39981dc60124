"""Migration 0007 (issue 30, points 3 and 6; docs/ratings.md, "Storage") on SQLite and on
PostgreSQL: a database of revision 0006 with a guest and a table upgrades keeping both, the
table casual; the migration goes down to 0006 and up again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from hexfolk.server.store import _alembic_config


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'migrate.sqlite'}"
    else:
        yield request.getfixturevalue("pg_url")


def test_0007_keeps_guests_and_tables_and_goes_down_and_up(db_url: str) -> None:
    async def main() -> None:
        engine = create_async_engine(db_url)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(lambda c: command.upgrade(_alembic_config(c), "0006"))
                now = time.time()
                await conn.execute(
                    text("INSERT INTO players (id, name, created_at) VALUES ('g1', 'Guest', :now)"),
                    {"now": now},
                )
                await conn.execute(
                    text(
                        "INSERT INTO tables (id, game, players, options, public, spectators, "
                        "disconnect_policy, grace, bot_delay, seats, status, host_id, seed, "
                        "seeded, version, clock_state, created_at, updated_at) VALUES ('t0007', "
                        "'island', 2, '{}', true, true, 'bot', 60, 0.8, '[]', 'lobby', 'g1', 1, "
                        "false, 0, '{}', :now, :now)"
                    ),
                    {"now": now},
                )
            async with engine.begin() as conn:
                await conn.run_sync(lambda c: command.upgrade(_alembic_config(c), "head"))
                row = (
                    await conn.execute(text("SELECT host_id, rated FROM tables WHERE id = 't0007'"))
                ).one()
                assert (row[0], bool(row[1])) == ("g1", False)
                names = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
                assert {"ratings", "rating_history"} <= names
            async with engine.begin() as conn:
                await conn.run_sync(lambda c: command.downgrade(_alembic_config(c), "0006"))
                names = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
                assert not {"ratings", "rating_history"} & names
                columns = await conn.run_sync(
                    lambda c: {col["name"] for col in inspect(c).get_columns("tables")}
                )
                assert "rated" not in columns
            async with engine.begin() as conn:
                await conn.run_sync(lambda c: command.upgrade(_alembic_config(c), "head"))
                count = await conn.execute(text("SELECT count(*) FROM players WHERE id = 'g1'"))
                assert count.scalar_one() == 1
        finally:
            await engine.dispose()

    asyncio.run(main())
