"""Many processes: a lease per live table (owner, fencing token, expiry) and the live server
processes (``docs/server.md``, "Many processes"). Unused by a single process.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("renewed_at", sa.Float, nullable=False),
    )
    op.create_table(
        "server_processes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("alive_at", sa.Float, nullable=False, index=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("tables", sa.Integer, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("server_processes")
    op.drop_table("leases")
