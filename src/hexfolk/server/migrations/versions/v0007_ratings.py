"""Ratings (``docs/ratings.md``): a table is ``rated`` or casual; each account's current skill
per game and player-count family, and one history row per player per rated game (its table,
the skill before and after, its place; unique per table and player: a table is rated once).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # in place (no batch copy: SQLite's copy of ``tables`` breaks the events' foreign keys)
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "family", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "player_id", name="uq_rating_history_table_player"),
    )
    op.create_index(
        "ix_rating_history_player", "rating_history", ["player_id", "game", "family", "at"]
    )


def downgrade() -> None:
    op.drop_index("ix_rating_history_player", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.execute("ALTER TABLE tables DROP COLUMN rated")  # in place (SQLite 3.35+, PostgreSQL)
