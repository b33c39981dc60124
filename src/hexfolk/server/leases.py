"""Leases of live tables in PostgreSQL, for a site of many server processes (``docs/server.md``,
"Many processes"). A process owns a table while it holds the table's lease row; it renews its
leases every :attr:`LeaseBook.renew_seconds`; a lease not renewed for
:attr:`LeaseBook.lease_seconds` may be taken by another process, which raises the fencing
token by one (:mod:`.fence` refuses the old owner's writes). Times are the database's clock
(``clock_timestamp()``), so the processes' own clocks need not agree.

The live processes are rows of ``server_processes`` (renewed with the leases); a new table goes
to the one that owns the fewest tables.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from hexfolk.server.errors import ApiError
from hexfolk.server.fence import Fence
from hexfolk.server.models import LeaseRow, ProcessRow, TableRow

log = logging.getLogger("hexfolk.server.leases")

LEASE_SECONDS = 10.0
"""A lease holds this long after its last renewal (``--lease-seconds``)."""
RENEW_FRACTION = 0.3
"""Leases are renewed every ``lease × 0.3`` seconds (3 s for a 10 s lease)."""
LIVE = ("lobby", "playing")


class NotOwner(ApiError):
    """The table is owned by another live process (``owner``)."""

    def __init__(self, table_id: str, owner: str):
        super().__init__("moved", f"table {table_id} is served by another process", 503)
        self.owner = owner


@dataclass(frozen=True, slots=True)
class Acquired:
    """A lease taken: its ``token``; ``since``: when the previous owner last renewed it (the
    table stood still from then; 0 for a first lease)."""

    token: int
    since: float


def process_id() -> str:
    """A new identity for this process start (never reused)."""
    return secrets.token_hex(8)


async def _now(conn: Any) -> float:
    return float(
        (await conn.execute(text("SELECT extract(epoch from clock_timestamp())"))).scalar()
    )


class LeaseBook:
    """The leases of this process (``me``) in the database of ``engine``; ``fence`` holds their
    tokens for the writes."""

    def __init__(self, engine: AsyncEngine, me: str, lease_seconds: float = LEASE_SECONDS):
        self.engine, self.me, self.fence = engine, me, Fence()
        self.lease_seconds = lease_seconds
        self.renew_seconds = lease_seconds * RENEW_FRACTION
        self.renewals = 0
        """Successful renewals of this process's leases (each renews them all)."""
        self.on_renewed: Callable[[int], object] = lambda n: None
        """Called with the number of leases each renewal renewed (the metrics)."""

    @property
    def held(self) -> dict[str, int]:
        return self.fence.tokens

    async def register(self) -> None:
        """This process is alive (its row)."""
        async with self.engine.begin() as conn:
            now = await _now(conn)
            await conn.execute(
                insert(ProcessRow).values(id=self.me, alive_at=now, started_at=now, tables=0)
            )

    async def renew(self) -> set[str]:
        """Renew every held lease and this process's row; the tables whose lease is gone (taken
        by another process) are returned (and forgotten by the fence only when their room
        stops). Only the leases held when the renewal began are asked about: a table taken
        while it runs (its own transaction, between this one's statements) is not lost, and a
        lease taken again meanwhile (a newer token) is not lost by its older token."""
        asked = dict(self.held)
        async with self.engine.begin() as conn:
            now = await _now(conn)
            await conn.execute(
                update(ProcessRow)
                .where(ProcessRow.id == self.me)
                .values(alive_at=now, tables=len(asked))
            )
            if not asked:
                return set()
            rows = await conn.execute(
                select(LeaseRow.table_id, LeaseRow.token)
                .where(LeaseRow.table_id.in_(sorted(asked)), LeaseRow.owner == self.me)
                .order_by(LeaseRow.table_id)
                .with_for_update()
            )
            ours = {t for t, k in rows.all() if asked.get(t) == int(k)}
            now = await _now(conn)  # after the row locks
            if ours:
                await conn.execute(
                    update(LeaseRow)
                    .where(LeaseRow.table_id.in_(sorted(ours)))
                    .values(expires_at=now + self.lease_seconds, renewed_at=now)
                )
        self.renewals += 1
        self.on_renewed(len(ours))
        return {t for t, k in asked.items() if t not in ours and self.held.get(t) == k}

    async def acquire(self, table_id: str) -> Acquired:
        """Take the lease of ``table_id`` (first lease, expired, or assigned to this process),
        its token one higher; :class:`NotOwner` when another live process holds it."""
        async with self.engine.begin() as conn:
            # the row first, expired and of nobody, when the table has none: a row that does
            # not exist cannot be locked, and two processes taking a new table (its creator
            # and a sweep) would both insert it
            await conn.execute(
                pg_insert(LeaseRow)
                .values(table_id=table_id, owner="", token=0, expires_at=0.0, renewed_at=0.0)
                .on_conflict_do_nothing(index_elements=["table_id"])
            )
            row = (
                await conn.execute(
                    select(LeaseRow.owner, LeaseRow.token, LeaseRow.expires_at, LeaseRow.renewed_at)
                    .where(LeaseRow.table_id == table_id)
                    .with_for_update()
                )
            ).one()
            now = await _now(conn)  # after the row lock: not before a wait for it
            if row.owner != self.me and row.expires_at > now:
                raise NotOwner(table_id, row.owner)
            token = int(row.token) + 1
            await conn.execute(
                update(LeaseRow)
                .where(LeaseRow.table_id == table_id)
                .values(
                    token=token, owner=self.me, expires_at=now + self.lease_seconds, renewed_at=now
                )
            )
            mine = row.owner == self.me and table_id not in self.held  # assigned here: no takeover
            got = Acquired(token, 0.0 if mine else float(row.renewed_at))
        self.held[table_id] = got.token
        return got

    async def owner_of(self, table_id: str) -> str | None:
        """The other live process holding ``table_id``'s lease, or None."""
        async with self.engine.connect() as conn:
            now = await _now(conn)
            row = (
                await conn.execute(
                    select(LeaseRow.owner).where(
                        LeaseRow.table_id == table_id,
                        LeaseRow.expires_at > now,
                        LeaseRow.owner != self.me,
                    )
                )
            ).first()
        return None if row is None else str(row.owner)

    def forget(self, table_id: str) -> None:
        """The room of ``table_id`` stopped here: its writes are no longer fenced here."""
        self.held.pop(table_id, None)

    async def release(self, table_ids: Sequence[str]) -> None:
        """Give up the leases of ``table_ids`` now (expired at once: any process may take
        them without waiting)."""
        mine = self.fence.held(table_ids)
        for t in table_ids:
            self.forget(t)
        if not mine:
            return
        async with self.engine.begin() as conn:
            for t, k in mine.items():
                await conn.execute(
                    update(LeaseRow)
                    .where(LeaseRow.table_id == t, LeaseRow.token == k, LeaseRow.owner == self.me)
                    .values(expires_at=0.0)
                )

    async def retire(self) -> None:
        """At shutdown: release every lease and delete this process's row."""
        await self.release(list(self.held))
        async with self.engine.begin() as conn:
            await conn.execute(delete(ProcessRow).where(ProcessRow.id == self.me))

    async def live_processes(self) -> dict[str, int]:
        """The live processes (renewed within a lease) and the tables each owns."""
        async with self.engine.connect() as conn:
            now = await _now(conn)
            rows = await conn.execute(
                select(ProcessRow.id).where(ProcessRow.alive_at > now - self.lease_seconds)
            )
            procs = {str(r.id): 0 for r in rows}
            owned = await conn.execute(
                select(LeaseRow.owner, func.count())
                .where(LeaseRow.expires_at > now)
                .group_by(LeaseRow.owner)
            )
            for owner, n in owned.all():
                if owner in procs:
                    procs[owner] = int(n)
        procs.setdefault(self.me, len(self.held))
        return procs

    async def place(self, table_id: str) -> str:
        """Choose the owner of a new table (the live process owning the fewest tables; this
        one on a tie) and give it the lease (token 1). Returns the owner's id."""
        procs = await self.live_processes()
        owner = min(procs, key=lambda p: (procs[p], p != self.me, p))
        async with self.engine.begin() as conn:  # this one's too: no other process's sweep takes it
            now = await _now(conn)
            values = {"owner": owner, "expires_at": now + self.lease_seconds, "renewed_at": now}
            await conn.execute(
                pg_insert(LeaseRow)
                .values(table_id=table_id, token=1, **values)
                .on_conflict_do_nothing(index_elements=["table_id"])
            )  # a sweep may have taken the new table already: it keeps it
            taken = await conn.execute(select(LeaseRow.owner).where(LeaseRow.table_id == table_id))
            return str(taken.scalar_one())

    async def unowned(self) -> list[str]:
        """Live tables to take: their lease expired (the owner died or was cut off), assigned
        to this process and not held yet, or never leased (left by a single process before
        the site had many). Oldest expiry first."""
        async with self.engine.connect() as conn:
            now = await _now(conn)
            rows = await conn.execute(
                select(TableRow.id)
                .outerjoin(LeaseRow, TableRow.id == LeaseRow.table_id)
                .where(
                    TableRow.status.in_(LIVE),
                    LeaseRow.table_id.is_(None)
                    | (LeaseRow.expires_at < now)
                    | (LeaseRow.owner == self.me),
                )
                .order_by(LeaseRow.expires_at.nulls_first())
            )
            return [str(r.id) for r in rows if r.id not in self.held]
