"""Accounts for the ratings tests (issue 30): through the real accounts API
(:func:`claim`, what a player does), or, for the store-level tests that run no server, rows
written with the store (:func:`make_account`)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import insert

from hexfolk.server.client import HexfolkClient
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


PASSWORD = "a long enough password"


async def claim(client: HexfolkClient, username: str) -> dict[str, Any]:
    """The client's guest claims the account ``username`` (``POST /api/account/claim``); the
    client goes on with the new token the claim gives (the guest token stops working), and its
    ``player`` (the identity a page stores) carries it too. Returns that identity."""
    got = await client.request(
        "POST", "/api/account/claim", json={"username": username, "password": PASSWORD}
    )
    client.token = got["token"]
    assert client.player is not None
    client.player = {**client.player, "token": got["token"], "username": got["username"]}
    return dict(client.player)
