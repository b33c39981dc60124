"""The ``analyses`` rows (:class:`~hexfolk.server.models.AnalysisRow`): one per finished table
whose analysis was asked for. Every change of a row names the process that computes it
(``worker``), so a process whose claim was taken over by another writes nothing more: each
analysis is computed and stored by one process.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from hexfolk.server.models import AnalysisRow
from hexfolk.server.store import Store

UNFINISHED = ("queued", "running")
"""The statuses of an analysis not done yet (queued again after a restart)."""


async def add(store: Store, table_id: str, worker: str, budget: str) -> bool:
    """A new ``queued`` analysis of ``table_id`` claimed by ``worker``; False when the table
    already has one (another request, or another process, was first)."""
    row = AnalysisRow(
        table_id=table_id,
        status="queued",
        progress=0.0,
        worker=worker,
        budget=budget,
        queued_at=time.time(),
    )
    try:
        async with store.sessions() as s, s.begin():
            s.add(row)
    except IntegrityError:
        return False
    return True


async def get(store: Store, table_id: str) -> AnalysisRow | None:
    async with store.sessions() as s:
        return await s.get(AnalysisRow, table_id)


async def unfinished(store: Store) -> list[AnalysisRow]:
    """Every analysis queued or running, oldest first."""
    async with store.sessions() as s:
        rows = await s.execute(
            select(AnalysisRow)
            .where(AnalysisRow.status.in_(UNFINISHED))
            .order_by(AnalysisRow.queued_at)
        )
        return list(rows.scalars())


async def _change(store: Store, table_id: str, worker: str, **values: Any) -> bool:
    """Change the row of ``table_id`` if ``worker`` still holds it and it is unfinished."""
    async with store.sessions() as s, s.begin():
        done = await s.execute(
            update(AnalysisRow)
            .where(
                AnalysisRow.table_id == table_id,
                AnalysisRow.worker == worker,
                AnalysisRow.status.in_(UNFINISHED),
            )
            .values(**values)
        )
        return bool(done.rowcount)  # type: ignore[attr-defined]


async def started(store: Store, table_id: str, worker: str) -> bool:
    """``running`` from 0 (False: the claim is no longer ``worker``'s)."""
    return await _change(
        store, table_id, worker, status="running", progress=0.0, started_at=time.time()
    )


async def progressed(store: Store, table_id: str, worker: str, progress: float) -> bool:
    return await _change(store, table_id, worker, progress=progress)


async def ready(store: Store, table_id: str, worker: str, result: dict[str, Any]) -> bool:
    return await _change(
        store,
        table_id,
        worker,
        status="ready",
        progress=1.0,
        result=result,
        error=None,
        finished_at=time.time(),
    )


async def failed(store: Store, table_id: str, worker: str, error: str) -> bool:
    return await _change(
        store, table_id, worker, status="failed", error=error, finished_at=time.time()
    )


async def take(store: Store, table_id: str, was: str | None, worker: str) -> bool:
    """Claim an unfinished analysis that ``was`` held (a process gone, or this one before a
    restart) for ``worker``, queued again from 0; False when another process took it first."""
    held = AnalysisRow.worker.is_(None) if was is None else AnalysisRow.worker == was
    async with store.sessions() as s, s.begin():
        done = await s.execute(
            update(AnalysisRow)
            .where(
                AnalysisRow.table_id == table_id,
                AnalysisRow.status.in_(UNFINISHED),
                held,
            )
            .values(worker=worker, status="queued", progress=0.0, started_at=None)
        )
        return bool(done.rowcount)  # type: ignore[attr-defined]
