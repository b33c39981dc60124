"""Bot failures: an event flag ``bot_failed`` marks a bot step the clock's default played
because the bot failed to choose (logged with its traceback; the statistics count it per seat).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(
            sa.Column("bot_failed", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("bot_failed")
