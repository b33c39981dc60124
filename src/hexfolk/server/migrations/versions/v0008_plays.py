"""Profiles and karma: one row per seat of a finished game (``plays``) and a table's least
karma to sit down (``tables.min_karma``) (``docs/profiles.md``). The rows of the games finished
before this revision are written by the server at its start (:mod:`hexfolk.server.plays`,
``catch_up``), with the same rule as every later game.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "plays",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("stayed", sa.Boolean, nullable=False),
    )
    op.create_index("ix_plays_player", "plays", ["player_id", "started_at"])
    # in place (no batch copy: SQLite's copy of ``tables`` breaks the events' foreign keys)
    op.add_column("tables", sa.Column("min_karma", sa.Integer, nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE tables DROP COLUMN min_karma")  # in place (SQLite 3.35+, PostgreSQL)
    op.drop_index("ix_plays_player", table_name="plays")
    op.drop_table("plays")
