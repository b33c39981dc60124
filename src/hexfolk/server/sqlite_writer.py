"""The group-commit writer's own SQLite connection, in one thread of its own.

Through SQLAlchemy's async layer every statement of a transaction is a round trip between
the event loop and aiosqlite's thread (begin, each execute, commit): while the loop is busy
with views and sockets, each hop waits for it, and under load a group commit of a few tables
took tens to hundreds of milliseconds, with every table of the batch waiting for it
(``benchmarks/server_load.py --trace``: ``txn_write``). Here the whole batch is one call into
the writer thread, which runs it in C (``executemany``) and releases the GIL while SQLite
works: one hop per batch. Reads and every other write still go through SQLAlchemy; they
share the database through WAL and ``busy_timeout``.

The writer's connection does not checkpoint the WAL itself (``wal_autocheckpoint=0``): an
automatic checkpoint runs inside the commit that crosses 1000 pages and made that batch, and
every table in it, wait for the database file's fsync. A second thread checkpoints
(``PASSIVE``, which never blocks the writer) at most every :data:`CHECKPOINT_EVERY` seconds
after a write.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import JSON, Boolean

from hexfolk.server.models import EventRow, TableRow

EVENT_COLUMNS: tuple[str, ...] = (
    "table_id",
    "seq",
    "kind",
    "seat",
    "action",
    "timeout",
    "stand_in",
    "bot",
    "bot_failed",
    "at",
    "undoes",
)
CHECKPOINT_EVERY = 1.0
"""Seconds between two WAL checkpoints (at most; only after writes)."""
_TABLE_COLUMNS = {c.name: c for c in TableRow.__table__.columns}
assert set(EVENT_COLUMNS) <= {c.name for c in EventRow.__table__.columns}


def _db_value(column: str, value: Any) -> Any:
    """A table column's value as SQLAlchemy stores it in SQLite (JSON as text, bools 0/1)."""
    col = _TABLE_COLUMNS.get(column)
    if col is None:
        raise KeyError(f"tables has no column {column!r}")
    if value is None:
        return None
    if isinstance(col.type, JSON):
        return json.dumps(value)
    if isinstance(col.type, Boolean):
        return int(bool(value))
    return value


class SqliteWriter:
    """``await writer.write(events, updates)`` commits one batch in the writer thread."""

    def __init__(self, path: str, synchronous: str):
        self.path = path
        self.synchronous = synchronous
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexfolk-writer")
        self._conn: sqlite3.Connection | None = None
        self._checkpointer = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="hexfolk-checkpoint"
        )
        self._ckpt_conn: sqlite3.Connection | None = None
        self._last_checkpoint = time.monotonic()
        self._checkpointing = False

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={self.synchronous}")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._conn = conn
        return self._conn

    def _checkpoint(self) -> None:
        try:
            if self._ckpt_conn is None:
                self._ckpt_conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                self._ckpt_conn.execute("PRAGMA busy_timeout=30000")
            self._ckpt_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            self._checkpointing = False

    def _write(
        self,
        events: Sequence[dict[str, Any]],
        updates: Sequence[tuple[str, dict[str, Any]]],
    ) -> None:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if events:
                names = ", ".join(EVENT_COLUMNS)
                marks = ", ".join("?" for _ in EVENT_COLUMNS)
                conn.executemany(
                    f"INSERT INTO events ({names}) VALUES ({marks})",
                    [tuple(ev[c] for c in EVENT_COLUMNS) for ev in events],
                )
            groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
            for table_id, values in updates:
                keys = tuple(sorted(values))
                row = (*(_db_value(k, values[k]) for k in keys), table_id)
                groups.setdefault(keys, []).append(row)
            for keys, rows in groups.items():
                sets = ", ".join(f"{k} = ?" for k in keys)
                conn.executemany(f"UPDATE tables SET {sets} WHERE id = ?", rows)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    async def write(
        self,
        events: Sequence[dict[str, Any]],
        updates: Sequence[tuple[str, dict[str, Any]]],
    ) -> None:
        """Append ``events`` and apply ``updates`` (table id, column values) in one committed
        transaction; raises (and rolls back) on failure."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._thread, self._write, events, updates)
        now = time.monotonic()
        if not self._checkpointing and now - self._last_checkpoint >= CHECKPOINT_EVERY:
            self._checkpointing = True
            self._last_checkpoint = now
            self._checkpointer.submit(self._checkpoint)

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _close_checkpointer(self) -> None:
        if self._ckpt_conn is not None:
            self._ckpt_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._ckpt_conn.close()
            self._ckpt_conn = None

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=True)
        await loop.run_in_executor(self._checkpointer, self._close_checkpointer)
        self._checkpointer.shutdown(wait=True)
