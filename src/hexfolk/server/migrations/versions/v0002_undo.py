"""Undo within a turn: an ``undo`` event kind takes back a seat's latest steps.

An ``undo`` event (``kind`` ``undo``, its ``seat``, ``action`` ``undo <n>``) sets ``undoes``:
the first ``seq`` it takes back (every step of the game as played from that one on). Nothing is
deleted: the undone steps stay in the log, and the state is rebuilt from the log without them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("undoes", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("undoes")
