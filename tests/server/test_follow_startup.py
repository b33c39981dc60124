"""Issue 25, finding 16 (what the start-up checks left): every start-up failure of
``hexfolk serve`` is one ``error:`` line and exit code 1, never a traceback, also when the
failure comes after the checks (a migration the database refuses) or from a database URL whose
driver is missing. ``--log-level debug`` logs the traceback. Each case runs ``hexfolk serve``
as a child process. Before the fix a refused migration printed uvicorn's traceback and exited
with code 3, and a missing driver read "cannot reach the database"."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from tests.server.helpers import free_port, pg_database, pg_reachable
from tests.server.serve_command import serve

BOGUS = "ffffffffffff"
"""An alembic revision no migration script knows (a database of another, newer version)."""


def _serve(*args: str) -> tuple[int, list[str]]:
    """``hexfolk serve`` on a free port (60 s at most); its exit code and non-empty lines."""
    return serve("--port", str(free_port()), *args)


def _one_clear_line(code: int, lines: list[str], *words: str) -> None:
    text = "\n".join(lines)
    assert "Traceback" not in text, text
    assert code == 1, text
    errors = [ln for ln in lines if ln.startswith("error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], text
    # nothing but the migration's own INFO lines before it; never "ready" nor the address
    assert not any("ready" in ln or "table server on" in ln for ln in lines), text
    for word in words:
        assert word in errors[0], text


def _sqlite_of_another_version(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(folder / "hexfolk.sqlite") as db:
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        db.execute("INSERT INTO alembic_version VALUES (?)", (BOGUS,))


def test_a_refused_migration_on_sqlite_is_one_line(tmp_path: Path) -> None:
    _sqlite_of_another_version(tmp_path)
    code, lines = _serve("--data-dir", str(tmp_path))
    _one_clear_line(code, lines, "could not start", BOGUS)


def test_debug_logs_the_traceback(tmp_path: Path) -> None:
    _sqlite_of_another_version(tmp_path)
    code, lines = _serve("--data-dir", str(tmp_path), "--log-level", "debug")
    text = "\n".join(lines)
    assert code == 1, text
    assert "Traceback" in text and "DEBUG hexfolk.server: the server could not start" in text
    assert lines[-1].startswith("error: the server could not start") and BOGUS in lines[-1]


def test_a_refused_migration_on_postgresql_is_one_line(tmp_path: Path) -> None:
    if not pg_reachable():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL on 127.0.0.1:5432 is unreachable in CI")
        pytest.skip("PostgreSQL on 127.0.0.1:5432 is unreachable (CI unset)")
    import asyncpg

    with pg_database() as url:

        async def other_version() -> None:
            conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
            try:
                await conn.execute("CREATE TABLE alembic_version (version_num VARCHAR(32))")
                await conn.execute(f"INSERT INTO alembic_version VALUES ('{BOGUS}')")
            finally:
                await conn.close()

        asyncio.run(other_version())
        code, lines = _serve("--db", url, "--data-dir", str(tmp_path))
    _one_clear_line(code, lines, "could not start", BOGUS)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("postgresql+psycopg2://postgres:secret@127.0.0.1:5432/hexfolk", "psycopg2"),
        ("nosuchdb://postgres:secret@127.0.0.1/hexfolk", "nosuchdb"),
    ],
)
def test_a_missing_driver_is_one_line(tmp_path: Path, url: str, why: str) -> None:
    code, lines = _serve("--db", url, "--data-dir", str(tmp_path))
    _one_clear_line(code, lines, "no driver for the database", why)
    assert "secret" not in lines[-1]
