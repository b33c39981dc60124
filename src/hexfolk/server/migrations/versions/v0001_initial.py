"""The first schema: players, tables, events, chat, heartbeat.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("clock", sa.Float, nullable=True),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("spectators", sa.Boolean, nullable=False),
        sa.Column("disconnect_policy", sa.String(16), nullable=False),
        sa.Column("grace", sa.Float, nullable=False),
        sa.Column("bot_delay", sa.Float, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seeded", sa.Boolean, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("clock_state", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("rematch_of", sa.String(32), nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("timeout", sa.Boolean, nullable=False),
        sa.Column("stand_in", sa.Boolean, nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])
    op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("alive_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("heartbeat")
    op.drop_index("ix_chat_table", "chat")
    op.drop_table("chat")
    op.drop_table("events")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
    op.drop_index("ix_players_token_hash", "players")
    op.drop_table("players")
