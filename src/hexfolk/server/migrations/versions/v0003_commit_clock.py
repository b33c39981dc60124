"""The commitment clock: ``tables.commit_clock``, seconds for a secret combat commitment
(Scythe), null: unlimited (issue 25, finding 10).

Tables made before it get 60 s when their turn clock runs, else none: what their defender's
commitment had (the turn clock capped at 60 s).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("commit_clock", sa.Float, nullable=True))
    op.execute(
        "UPDATE tables SET commit_clock = CASE WHEN clock < 60 THEN clock ELSE 60 END "
        "WHERE clock IS NOT NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("commit_clock")
