"""Storage: an async SQLAlchemy engine on SQLite (WAL) or PostgreSQL, migrated by Alembic.

Every write is one transaction; :meth:`Store.commit_steps` appends a table's new events and
updates its row together, so an acknowledged action is on disk before anyone is told. Steps of
many tables that arrive together are committed by one writer task in one transaction (group
commit); if that transaction fails, each table's write is retried alone, so one table's bad
write never fails another's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import bindparam, event, func, insert, select, text, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from hexfolk.server.fence import Fence, LeaseLost
from hexfolk.server.identity import new_id
from hexfolk.server.models import (
    ChatRow,
    EventRow,
    HeartbeatRow,
    PlayerRow,
    SessionRow,
    TableRow,
)
from hexfolk.server.sqlite_writer import SqliteWriter
from hexfolk.server.trace import TRACE

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x68657866
"""PostgreSQL advisory lock held while migrating: processes started together migrate once."""
GROUP_MAX = 256
"""At most this many tables' writes share one transaction."""
log = logging.getLogger("hexfolk.server.store")


class _Beaten(Exception):
    """Another request made the table's rematch first (:meth:`Store.add_rematch`)."""


@dataclass(frozen=True, slots=True)
class Step:
    """An event to append: ``kind`` ``action``, ``chance`` or ``undo``; ``seat`` None for
    chance. ``turn`` (the state's ``turn_count()`` before the step), ``reveals`` and ``final``
    are kept in memory only."""

    seq: int
    kind: str
    seat: int | None
    action: str
    timeout: bool = False
    stand_in: bool = False
    bot: bool = False
    bot_failed: bool = False
    """A bot step the bot failed to choose: the clock's default was played instead."""
    at: float = 0.0
    undoes: int | None = None
    reveals: bool | None = None
    """Did the step show its actor hidden information (``State.reveals_to``)? ``None``: not
    known yet (checked off the event loop after the step is announced). In memory only."""
    turn: int = -1
    final: str | None = None
    """Why the step can never be undone (``undo.final_reason``: an answer given at once with
    other seats, or ``State.why_final``), or None. In memory only, like ``turn``."""


@dataclass
class _Write:
    table_id: str
    steps: list[Step]
    values: dict[str, Any]
    done: asyncio.Future[None]
    queued_at: float = 0.0
    token: int | None = None
    """Many processes: the lease token this process held for the table when the write was
    asked for (None: none held, or one process)."""


def _event_rows(writes: Sequence[_Write]) -> list[dict[str, Any]]:
    return [
        {
            "table_id": w.table_id,
            "seq": st.seq,
            "kind": st.kind,
            "seat": st.seat,
            "action": st.action,
            "timeout": st.timeout,
            "stand_in": st.stand_in,
            "bot": st.bot,
            "bot_failed": st.bot_failed,
            "at": st.at,
            "undoes": st.undoes,
        }
        for w in writes
        for st in w.steps
    ]


async def _apply_writes(conn: Any, writes: Sequence[_Write]) -> None:
    """All events of the batch in one executemany; the table updates grouped by the columns
    they set, one executemany per group."""
    events = _event_rows(writes)
    if events:
        await conn.execute(insert(EventRow), events)
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for w in writes:
        keys = tuple(sorted(w.values))
        groups.setdefault(keys, []).append({"_id": w.table_id, **w.values})
    for keys, rows in groups.items():
        stmt = (
            update(TableRow)
            .where(TableRow.id == bindparam("_id"))
            .values({k: bindparam(f"v_{k}") for k in keys})
        )
        rows = [{"_id": r["_id"], **{f"v_{k}": r[k] for k in keys}} for r in rows]
        await conn.execute(stmt, rows)


def _size_band(n: int) -> str:
    return "1" if n == 1 else "2-4" if n <= 4 else "5-16" if n <= 16 else "17+"


def _settle(write: _Write, failed: bool = False, lost: bool = False) -> None:
    if write.done.done():
        return
    if lost:
        write.done.set_exception(LeaseLost(write.table_id))
    elif failed:
        write.done.set_exception(RuntimeError(f"table {write.table_id}: the write failed"))
    else:
        write.done.set_result(None)


def _alembic_config(connection: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def _upgrade(connection: Connection) -> None:
    command.upgrade(_alembic_config(connection), "head")


class Store:
    """The database of one server. ``await Store.open(url)`` migrates it to the newest schema."""

    def __init__(self, engine: AsyncEngine, url: str):
        self.engine = engine
        self.url = url
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._writes: asyncio.Queue[_Write] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.direct: SqliteWriter | None = None
        """SQLite files: the group commit's own connection in a thread (one hop a batch)."""
        self.fence: Fence | None = None
        """Many processes (PostgreSQL only): the lease tokens every write of a live table is
        checked against in its transaction (:mod:`.fence`); None for one process."""

    @classmethod
    async def open(cls, url: str, *, sqlite_synchronous: str = "FULL") -> Store:
        """Connect, create the SQLite folder if needed, switch on WAL, run ``alembic upgrade
        head`` programmatically, and return the store."""
        parsed = make_url(url)
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            # SQLite has one writer (the group-commit task); WAL lets readers run beside it.
            kwargs["pool_size"] = 3
            kwargs["max_overflow"] = 0
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs["pool_size"] = 8
            kwargs["max_overflow"] = 4
        engine = create_async_engine(url, **kwargs)
        if parsed.get_backend_name() == "sqlite":
            sync = sqlite_synchronous.upper()
            if sync not in ("FULL", "NORMAL"):
                raise ValueError("sqlite synchronous is FULL or NORMAL")

            @event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute(f"PRAGMA synchronous={sync}")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA busy_timeout=30000")
                cursor.close()

        async with engine.begin() as conn:
            if parsed.get_backend_name() == "postgresql":  # many processes start at once
                await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
            await conn.run_sync(_upgrade)
        store = cls(engine, url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            store.direct = SqliteWriter(str(parsed.database), sqlite_synchronous.upper())
        return store

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
        if self.direct is not None:
            await self.direct.close()
        await self.engine.dispose()

    # --- players ----------------------------------------------------------------------------
    async def create_player(
        self,
        player_id: str,
        name: str,
        token_hash: str,
        session_id: str | None = None,
        label: str = "guest",
    ) -> PlayerRow:
        """A guest and its first session (its token, by hash; ``session_id`` a new one when
        None), in one transaction."""
        now = time.time()
        row = PlayerRow(id=player_id, name=name, created_at=now)
        async with self.sessions() as s, s.begin():
            s.add(row)
            await s.flush()
            s.add(
                SessionRow(
                    token_hash=token_hash,
                    id=session_id or new_id(12),
                    player_id=player_id,
                    created_at=now,
                    last_seen_at=now,
                    label=label,
                )
            )
        return row

    async def player_by_token_hash(self, token_hash: str) -> PlayerRow | None:
        """The player a token (by its hash) belongs to: a guest's token or a device signed in
        to an account (``accounts.authenticate`` gives the session and account too)."""
        async with self.sessions() as s:
            return (
                await s.execute(
                    select(PlayerRow)
                    .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                    .where(SessionRow.token_hash == token_hash)
                )
            ).scalar_one_or_none()

    async def players_by_id(self, ids: Sequence[str]) -> dict[str, PlayerRow]:
        if not ids:
            return {}
        async with self.sessions() as s:
            rows = (await s.execute(select(PlayerRow).where(PlayerRow.id.in_(ids)))).scalars()
            return {r.id: r for r in rows}

    # --- tables -----------------------------------------------------------------------------
    async def add_table(self, row: TableRow) -> None:
        async with self.sessions() as s, s.begin():
            s.add(row)

    async def add_rematch(self, of: str, row: TableRow) -> str:
        """Add ``row`` as the rematch of the finished table ``of`` unless it has one already:
        in one transaction the new row and ``UPDATE tables SET rematch_id = <row.id> WHERE id
        = <of> AND rematch_id IS NULL``. When another request, at this process or any other,
        got there first, the update finds no row and the transaction is rolled back: ``row``
        was never written. Returns the id of ``of``'s rematch either way. (PostgreSQL: the
        second update waits for the first's row lock, then sees its ``rematch_id``; SQLite:
        the insert takes the database's write lock first, so the second waits before it.)"""
        async with self.sessions() as s:
            try:
                async with s.begin():
                    await self._fenced(s, of)
                    s.add(row)
                    await s.flush()
                    done = await s.execute(
                        update(TableRow)
                        .where(TableRow.id == of, TableRow.rematch_id.is_(None))
                        .values(rematch_id=row.id, updated_at=time.time())
                    )
                    if getattr(done, "rowcount", 0) != 1:
                        raise _Beaten
                return row.id
            except _Beaten:  # rolled back: the new row was never written
                pass
            winner = await s.scalar(select(TableRow.rematch_id).where(TableRow.id == of))
            if winner is None:
                raise LookupError(f"table {of} has no rematch and none could be added")
            return str(winner)

    async def get_table(self, table_id: str) -> TableRow | None:
        async with self.sessions() as s:
            return await s.get(TableRow, table_id)

    async def save_table(self, table_id: str, **values: Any) -> None:
        """Update columns of a table row (``updated_at`` is set too); fenced (raises
        :class:`.LeaseLost`, nothing written, when this process lost the table's lease)."""
        values.setdefault("updated_at", time.time())
        async with self.sessions() as s, s.begin():
            await self._fenced(s, table_id)
            await s.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    async def _fenced(self, session: Any, table_id: str) -> None:
        """In a write's transaction: refuse it when this process lost the table's lease."""
        if self.fence is not None and await self.fence.lost(session, [table_id]):
            raise LeaseLost(table_id)

    async def tables_with_status(self, statuses: Sequence[str]) -> list[TableRow]:
        async with self.sessions() as s:
            rows = await s.execute(
                select(TableRow)
                .where(TableRow.status.in_(statuses))
                .order_by(TableRow.created_at.desc())
            )
            return list(rows.scalars())

    async def count_hosted(self, player_id: str, statuses: Sequence[str]) -> int:
        async with self.sessions() as s:
            n = await s.execute(
                select(func.count())
                .select_from(TableRow)
                .where(TableRow.host_id == player_id, TableRow.status.in_(statuses))
            )
            return int(n.scalar_one())

    async def tables_of(self, player_id: str, limit: int = 200) -> list[TableRow]:
        """Tables the player hosts or sits at (newest first). JSON seats are filtered here."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(TableRow).order_by(TableRow.created_at.desc()).limit(5000)
            )
            out = []
            for row in rows.scalars():
                if row.host_id == player_id or any(
                    seat.get("player_id") == player_id for seat in row.seats
                ):
                    out.append(row)
                    if len(out) >= limit:
                        break
            return out

    # --- events -----------------------------------------------------------------------------
    async def commit_steps(self, table_id: str, steps: Sequence[Step], **table_values: Any) -> None:
        """Append events and update the table row, committed (the acknowledgement). Returns
        once the transaction holding them is committed; raises if it could not be."""
        table_values.setdefault("updated_at", time.time())
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        token = self.fence.tokens.get(table_id) if self.fence is not None else None
        self._writes.put_nowait(
            _Write(table_id, list(steps), table_values, fut, time.perf_counter(), token)
        )
        await fut

    async def _write_loop(self) -> None:
        """The group-commit writer: everything queued goes into one transaction."""
        while True:
            batch = [await self._writes.get()]
            while not self._writes.empty() and len(batch) < GROUP_MAX:
                batch.append(self._writes.get_nowait())
            t = time.perf_counter()
            if TRACE.enabled:
                for w in batch:
                    TRACE.add("writer_wait", t - w.queued_at)
            try:
                lost = await self._commit(batch)
                if TRACE.enabled:
                    done = time.perf_counter()
                    TRACE.add("transaction", done - t)
                    TRACE.add(f"txn_batch_{_size_band(len(batch))}", done - t)
            except Exception:
                if len(batch) == 1:
                    log.exception("table %s: a write failed", batch[0].table_id)
                    _settle(batch[0], failed=True)
                    continue
                log.warning("a group commit of %d writes failed; retrying one by one", len(batch))
                for write in batch:
                    try:
                        lost = await self._commit([write])
                    except Exception:
                        log.exception("table %s: a write failed", write.table_id)
                        _settle(write, failed=True)
                    else:
                        _settle(write, lost=write.table_id in lost)
            else:
                for write in batch:
                    _settle(write, lost=write.table_id in lost)

    async def _commit(self, batch: Sequence[_Write]) -> set[str]:
        """One transaction holding ``batch``: the direct SQLite writer, or SQLAlchemy. With a
        fence, the writes of tables whose lease this process lost are left out (their ids are
        returned; :class:`.LeaseLost` for them), checked under the lease rows' lock."""
        if self.direct is not None:
            await self.direct.write(_event_rows(batch), [(w.table_id, w.values) for w in batch])
            return set()
        async with self.engine.begin() as conn:
            lost: set[str] = set()
            if self.fence is not None:
                lost = await self.fence.lost_writes(conn, {w.table_id: w.token for w in batch})
                if lost:
                    batch = [w for w in batch if w.table_id not in lost]
                    log.warning("tables %s: lease lost; their writes refused", sorted(lost))
            if batch:
                await _apply_writes(conn, batch)
            return lost

    async def events(self, table_id: str) -> list[EventRow]:
        async with self.sessions() as s:
            rows = await s.execute(
                select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
            )
            return list(rows.scalars())

    # --- chat -------------------------------------------------------------------------------
    async def add_chat(
        self, table_id: str, player_id: str, name: str, seat: int | None, text: str
    ) -> ChatRow:
        row = ChatRow(
            table_id=table_id, player_id=player_id, name=name, seat=seat, text=text, at=time.time()
        )
        async with self.sessions() as s, s.begin():
            await self._fenced(s, table_id)
            s.add(row)
        return row

    async def chat(
        self, table_id: str, limit: int = 200, *, players: bool | None = None
    ) -> list[ChatRow]:
        """The last ``limit`` chat lines of a table, oldest first: every line, or (``players``
        True / False) only the players' lines (written with a seat) / only the others'."""
        query = select(ChatRow).where(ChatRow.table_id == table_id)
        if players is not None:
            query = query.where(ChatRow.seat.is_not(None) if players else ChatRow.seat.is_(None))
        async with self.sessions() as s:
            rows = await s.execute(query.order_by(ChatRow.id.desc()).limit(limit))
            return list(reversed(list(rows.scalars())))

    # --- heartbeat --------------------------------------------------------------------------
    async def heartbeat(self, now: float | None = None) -> None:
        t = time.time() if now is None else now
        async with self.sessions() as s, s.begin():
            row = await s.get(HeartbeatRow, 1)
            if row is None:
                s.add(HeartbeatRow(id=1, alive_at=t))
            else:
                row.alive_at = t

    async def last_heartbeat(self) -> float | None:
        async with self.sessions() as s:
            row = await s.get(HeartbeatRow, 1)
            return None if row is None else row.alive_at
