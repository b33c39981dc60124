"""Accounts: a guest that claims its identity with a user name and a password, and the
sessions (devices) signed in to it (``docs/server.md``, "Accounts").

Every token now lives in ``sessions``: each guest's token hash moves there (one session per
guest, so every guest token keeps working) and ``players.token_hash`` goes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

import secrets
import sqlite3
import time

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

GUEST_LABEL = "guest"
"""The label of the session a guest's token became."""
CHUNK = 1000


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("username_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("password_changed_at", sa.Float, nullable=False),
    )
    sessions = op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(32), nullable=False, unique=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen_at", sa.Float, nullable=False),
        sa.Column("label", sa.String(64), nullable=False, server_default=""),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    assert sessions is not None
    bind = op.get_bind()
    players = sa.table(
        "players",
        sa.column("id", sa.String),
        sa.column("token_hash", sa.String),
        sa.column("created_at", sa.Float),
    )
    now = time.time()
    rows = bind.execute(sa.select(players.c.id, players.c.token_hash, players.c.created_at))
    while chunk := rows.fetchmany(CHUNK):
        op.bulk_insert(
            sessions,
            [
                {
                    "token_hash": r.token_hash,
                    "id": secrets.token_urlsafe(12),
                    "player_id": r.id,
                    "created_at": r.created_at,
                    "last_seen_at": now,
                    "label": GUEST_LABEL,
                }
                for r in chunk
            ],
        )
    if _sqlite() and sqlite3.sqlite_version_info < (3, 35):
        raise RuntimeError(f"SQLite 3.35 or newer is needed, not {sqlite3.sqlite_version}")
    op.drop_index("ix_players_token_hash", table_name="players")
    # in place on SQLite too (3.35+): a rebuilt ``players`` would break the other tables'
    # references to it under PRAGMA foreign_keys
    op.execute("ALTER TABLE players DROP COLUMN token_hash")


def downgrade() -> None:
    """Each player keeps the token of its oldest session; accounts and the other sessions are
    lost. On SQLite ``players.token_hash`` stays nullable (in place, like the upgrade)."""
    op.add_column("players", sa.Column("token_hash", sa.String(64), nullable=True))
    op.execute(
        "UPDATE players SET token_hash = (SELECT s.token_hash FROM sessions s "
        "WHERE s.player_id = players.id ORDER BY s.created_at, s.token_hash LIMIT 1)"
    )
    op.execute("UPDATE players SET token_hash = 'signed-out:' || id WHERE token_hash IS NULL")
    if not _sqlite():
        op.alter_column("players", "token_hash", existing_type=sa.String(64), nullable=False)
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)
    op.drop_index("ix_sessions_player", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
