"""Recovery after a bug inside a table's task: the table is rebuilt from its committed event
log (nothing else is trusted) and plays on; the same step failing :data:`FAULTS_MAX` times in
a row marks the table ``errored`` (a deterministic engine bug: no more retries). The room runs
the rebuild it is given (:mod:`hexfolk.server.room`); here are the count, the policy and the
row's changes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from hexfolk.server.models import TableRow
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server.room")

FAULTS_MAX = 3
"""A table whose same step fails this many times in a row is marked ``errored``."""


class Faults:
    """The faults of one table: ``count`` in all, and how many in a row at one version."""

    def __init__(self) -> None:
        self.count = 0
        self.version = -1
        self.in_a_row = 0

    def note(self, version: int) -> bool:
        """A fault at ``version``: True when the table gives up (marked ``errored``)."""
        self.count += 1
        if version == self.version:
            self.in_a_row += 1
        else:
            self.version, self.in_a_row = version, 1
        return self.in_a_row >= FAULTS_MAX


def refresh_row(row: TableRow, fresh: TableRow) -> None:
    """Put the row as stored (``fresh``) into the live ``row`` object (which the core and the
    fan-out share), column by column."""
    for column in TableRow.__table__.columns:
        setattr(row, column.key, getattr(fresh, column.key))


def mark_errored(row: TableRow, exc: Exception) -> str:
    """The row's status becomes ``errored`` with the exception as its error (returned)."""
    row.status = "errored"
    row.error = f"{type(exc).__name__}: {exc}"[:500]
    return row.error


async def recover(
    row: TableRow,
    store: Store,
    faults: Faults,
    version: int,
    exc: Exception,
    rebuild: Callable[[], Awaitable[None]],
    errored: Callable[[], None],
) -> None:
    """After ``exc`` at ``version`` (the pending steps dropped, timers cancelled): put back the
    row as stored and ``rebuild`` the table from its event log; or, at the third fault at one
    version or when the rebuild fails, mark it ``errored`` (saved) and tell (``errored``)."""
    log.exception("table %s: internal error, rebuilding from its event log", row.id)
    if faults.note(version):  # a deterministic engine bug: stop retrying
        n = faults.in_a_row
        log.error("table %s: %d faults at version %d; marked errored", row.id, n, version)
    else:
        try:
            fresh = await store.get_table(row.id)
            if fresh is not None:
                refresh_row(row, fresh)
            return await rebuild()
        except Exception:
            log.exception("table %s: cannot be rebuilt; marked errored", row.id)
    try:
        await store.save_table(row.id, status="errored", error=mark_errored(row, exc))
    except Exception:
        log.exception("table %s: cannot save the errored status", row.id)
    errored()
