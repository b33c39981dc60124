"""Fencing: the writes of a live table carry the lease token its owner process holds, and the
transaction that writes checks that token is still the table's, under a share lock of its lease
row (``docs/server.md``, "Many processes"). A process that lost a lease (paused, partitioned,
taken over) is refused with :class:`LeaseLost` and nothing of that write is stored.

The :class:`Fence` is off (``None`` on the store) when the server runs as one process.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import select

from hexfolk.server.models import LeaseRow


class LeaseLost(Exception):
    """This process no longer owns the table (its lease token moved on): nothing was written."""

    def __init__(self, table_id: str):
        super().__init__(f"table {table_id}: the lease moved to another process; nothing written")
        self.table_id = table_id


class Fence:
    """The lease tokens this process holds (table id → token). A write for a table listed here
    is fenced; a table not listed (not live here) is not."""

    def __init__(self) -> None:
        self.tokens: dict[str, int] = {}

    def held(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The tokens of those of ``table_ids`` that this process holds."""
        return {t: self.tokens[t] for t in table_ids if t in self.tokens}

    async def lost(self, conn: Any, table_ids: Iterable[str]) -> set[str]:
        """Inside a write's transaction (``conn``): lock the lease rows of the held tables among
        ``table_ids`` (FOR SHARE: a takeover waits until this transaction ends) and return the
        tables whose token is no longer ours."""
        mine = self.held(table_ids)
        if not mine:
            return set()
        rows = await conn.execute(
            select(LeaseRow.table_id, LeaseRow.token)
            .where(LeaseRow.table_id.in_(sorted(mine)))
            .order_by(LeaseRow.table_id)
            .with_for_update(read=True)
        )
        now = {t: int(k) for t, k in rows.all()}
        return {t for t, k in mine.items() if now.get(t) != k}

    async def lost_writes(self, conn: Any, tokens: Mapping[str, int | None]) -> set[str]:
        """Inside a group commit's transaction: the tables of ``tokens`` (table id → the token
        held when its write was asked for) whose write must be refused: none was held then (a
        table's steps are committed by its owner only), or the lease row's token moved on
        since. The rows are locked FOR SHARE (a takeover waits until this transaction ends).
        A write asked for before its room stopped and committed after (a stop that timed
        out) is refused here even though this process no longer lists the table."""
        held = {t: k for t, k in tokens.items() if k is not None}
        refused = {t for t, k in tokens.items() if k is None}
        if held:
            rows = await conn.execute(
                select(LeaseRow.table_id, LeaseRow.token)
                .where(LeaseRow.table_id.in_(sorted(held)))
                .order_by(LeaseRow.table_id)
                .with_for_update(read=True)
            )
            now = {t: int(k) for t, k in rows.all()}
            refused |= {t for t, k in held.items() if now.get(t) != k}
        return refused
