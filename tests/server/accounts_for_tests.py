"""Accounts for the ratings tests, made in the database directly (issue 30: the accounts API is
built beside the ratings; the lead switches these helpers to it after the merge)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from sqlalchemy import insert

from hexfolk.server.models import AccountRow
from hexfolk.server.store import Store


def account_row(player_id: str, username: str) -> dict[str, object]:
    now = time.time()
    return {
        "player_id": player_id,
        "username": username,
        "username_key": username.casefold(),
        "password_hash": "$argon2id$not-a-real-hash",
        "created_at": now,
        "password_changed_at": now,
    }


async def make_account(store: Store, player_id: str, username: str) -> None:
    """The player ``player_id`` claims ``username`` (through the store's engine)."""
    async with store.sessions() as s, s.begin():
        await s.execute(insert(AccountRow), [account_row(player_id, username)])


def make_account_sqlite(db: Path, player_id: str, username: str) -> None:
    """The same in a running server's SQLite file."""
    row = account_row(player_id, username)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO accounts (player_id, username, username_key, password_hash, "
            "created_at, password_changed_at) VALUES (:player_id, :username, :username_key, "
            ":password_hash, :created_at, :password_changed_at)",
            row,
        )
