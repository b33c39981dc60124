"""Recovery after a bug inside a table's task: the table is rebuilt from its committed event
log (nothing else is trusted) and plays on; the same step failing :data:`FAULTS_MAX` times in
a row marks the table ``errored`` (a deterministic engine bug: no more retries). The room runs
the rebuild (:mod:`hexfolk.server.room`); here are the count and the row's changes.
"""

from __future__ import annotations

from hexfolk.server.models import TableRow

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
