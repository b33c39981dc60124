"""The accounts' migration (issue 30 point 6) on both databases, against the real servers: a
database of today's schema (revision 0005) with guests, a table being played (its events) and
a chat line is upgraded by a server's start; every guest, table, event and chat line is kept,
and every old guest token still works, over HTTP and the table's socket. The downgrade gives
each guest its token back in ``players.token_hash``."""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import create_async_engine

from hexfolk.core import load_game
from hexfolk.server.client import HexfolkClient
from hexfolk.server.store import _alembic_config
from tests.server.helpers import pg_database, pg_reachable, run, thread_server

META = sa.MetaData()
PLAYERS_0005 = sa.Table(
    "players",
    META,
    sa.Column("id", sa.String(32)),
    sa.Column("name", sa.String(64)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("created_at", sa.Float),
)
TABLES_0005 = sa.Table(
    "tables",
    META,
    *(
        sa.Column(name, kind)
        for name, kind in [
            ("id", sa.String(32)),
            ("game", sa.String(32)),
            ("players", sa.Integer),
            ("options", sa.JSON),
            ("clock", sa.Float),
            ("commit_clock", sa.Float),
            ("public", sa.Boolean),
            ("spectators", sa.Boolean),
            ("disconnect_policy", sa.String(16)),
            ("grace", sa.Float),
            ("bot_delay", sa.Float),
            ("seats", sa.JSON),
            ("status", sa.String(16)),
            ("host_id", sa.String(32)),
            ("seed", sa.BigInteger),
            ("seeded", sa.Boolean),
            ("version", sa.Integer),
            ("clock_state", sa.JSON),
            ("created_at", sa.Float),
            ("updated_at", sa.Float),
            ("started_at", sa.Float),
        ]
    ),
)
EVENTS_0005 = sa.Table(
    "events",
    META,
    *(
        sa.Column(name, kind)
        for name, kind in [
            ("table_id", sa.String(32)),
            ("seq", sa.Integer),
            ("kind", sa.String(16)),
            ("seat", sa.Integer),
            ("action", sa.Text),
            ("timeout", sa.Boolean),
            ("stand_in", sa.Boolean),
            ("bot", sa.Boolean),
            ("bot_failed", sa.Boolean),
            ("at", sa.Float),
        ]
    ),
)
CHAT_0005 = sa.Table(
    "chat",
    META,
    sa.Column("table_id", sa.String(32)),
    sa.Column("player_id", sa.String(32)),
    sa.Column("name", sa.String(64)),
    sa.Column("seat", sa.Integer),
    sa.Column("text", sa.Text),
    sa.Column("at", sa.Float),
)
STEPS = 30


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind: a SQLite file, or a PostgreSQL database of its own
    (dropped at the end)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite'}"
        return
    if not pg_reachable():
        pytest.skip("PostgreSQL on 127.0.0.1:5432 is unreachable")
    with pg_database() as url:
        yield url


def _played_steps(options: dict[str, Any]) -> list[tuple[str, int | None, str]]:
    """The first steps (at least :data:`STEPS`, up to a person's decision) of a real two-seat
    island game: (kind, seat, text) each."""
    state = load_game("island", 2, options).new_initial_state()
    rng = random.Random(30)
    steps: list[tuple[str, int | None, str]] = []
    while len(steps) < STEPS or state.is_chance():
        if state.is_chance():
            action = state.sample_chance(rng)
            steps.append(("chance", None, str(action)))
            state.apply(action)
        else:
            seat = state.acting_seats()[0]
            action = state.legal_actions_for(seat)[0]
            steps.append(("action", seat, str(action)))
            state.apply_for(seat, action)
    return steps


def _migrate(url: str, revision: str, down: bool = False) -> None:
    async def go() -> None:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:

                def step(c: Any) -> None:
                    cfg = _alembic_config(c)
                    (command.downgrade if down else command.upgrade)(cfg, revision)

                await conn.run_sync(step)
        finally:
            await engine.dispose()

    asyncio.run(go())


def _old_database(url: str) -> dict[str, Any]:
    """A database at revision 0005 holding three guests, a table of two of them being played
    (its events) and a chat line: what was written, tokens included."""
    _migrate(url, "0005")
    now = time.time()
    guests = [
        {"id": secrets.token_urlsafe(12), "name": name, "token": secrets.token_urlsafe(32)}
        for name in ("Ana", "Bram", "Chen")
    ]
    options = dict(load_game("island", 2, {}).options)
    steps = _played_steps(options)
    table_id = secrets.token_urlsafe(16)

    async def fill() -> None:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    PLAYERS_0005.insert(),
                    [
                        {
                            "id": g["id"],
                            "name": g["name"],
                            "token_hash": hashlib.sha256(g["token"].encode()).hexdigest(),
                            "created_at": now - 100,
                        }
                        for g in guests
                    ],
                )
                await conn.execute(
                    TABLES_0005.insert(),
                    {
                        "id": table_id,
                        "game": "island",
                        "players": 2,
                        "options": options,
                        "clock": None,
                        "commit_clock": None,
                        "public": True,
                        "spectators": True,
                        "disconnect_policy": "wait",
                        "grace": 60.0,
                        "bot_delay": 0.0,
                        "seats": [
                            {"kind": "person", "player_id": g["id"], "name": g["name"]}
                            for g in guests[:2]
                        ],
                        "status": "playing",
                        "host_id": guests[0]["id"],
                        "seed": 12345,
                        "seeded": False,
                        "version": len(steps),
                        "clock_state": {},
                        "created_at": now - 90,
                        "updated_at": now - 10,
                        "started_at": now - 80,
                    },
                )
                await conn.execute(
                    EVENTS_0005.insert(),
                    [
                        {
                            "table_id": table_id,
                            "seq": i + 1,
                            "kind": kind,
                            "seat": seat,
                            "action": text,
                            "timeout": False,
                            "stand_in": False,
                            "bot": False,
                            "bot_failed": False,
                            "at": now - 50 + i,
                        }
                        for i, (kind, seat, text) in enumerate(steps)
                    ],
                )
                await conn.execute(
                    CHAT_0005.insert(),
                    {
                        "table_id": table_id,
                        "player_id": guests[1]["id"],
                        "name": "Bram",
                        "seat": 1,
                        "text": "good luck, kept across the upgrade",
                        "at": now - 20,
                    },
                )
        finally:
            await engine.dispose()

    asyncio.run(fill())
    return {"guests": guests, "table": table_id, "steps": steps}


async def _count(url: str, sql: str) -> Any:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return (await conn.execute(sa.text(sql))).all()
    finally:
        await engine.dispose()


def test_the_upgrade_keeps_every_guest_table_and_token(db_url: str, tmp_path: Path) -> None:
    """Issue 30 point 6: from revision 0005 to the newest, on SQLite and on PostgreSQL: the
    guests, the table, its events and its chat line are kept; each old guest token works
    (``/api/me``, "my tables", the table's socket at the table's version); a guest of the old
    database can then claim an account and keep its table; the downgrade hands the guests'
    tokens back to ``players.token_hash``."""
    old = _old_database(db_url)
    guests = old["guests"]
    with thread_server(db_url=db_url, data_dir=tmp_path, testing=True) as srv:
        for g in guests:
            r = httpx.get(srv.url + "/api/me", headers={"Authorization": f"Bearer {g['token']}"})
            assert r.status_code == 200, r.text
            assert r.json() == {"id": g["id"], "name": g["name"]}
        ana = {"Authorization": f"Bearer {guests[0]['token']}"}
        mine = httpx.get(srv.url + "/api/me/tables", headers=ana).json()["tables"]
        assert [t["id"] for t in mine] == [old["table"]]
        table = httpx.get(srv.url + f"/api/tables/{old['table']}", headers=ana).json()
        assert table["status"] == "playing" and table["version"] == len(old["steps"])
        chat = httpx.get(srv.url + f"/api/tables/{old['table']}/chat", headers=ana).json()
        assert "good luck, kept across the upgrade" in str(chat)

        async def at_the_table() -> dict[str, Any]:
            async with (
                HexfolkClient(srv.url, token=guests[1]["token"]) as bram,
                bram.connect(old["table"]) as conn,
            ):
                assert conn.welcome is not None
                return await conn.wait_for(lambda v: v["version"] == len(old["steps"]), timeout=20)

        view = run(at_the_table())
        assert view["status"] == "playing"
        claim = httpx.post(
            srv.url + "/api/account/claim",
            json={"username": "chen_" + secrets.token_hex(3), "password": "kept all along"},
            headers={"Authorization": f"Bearer {guests[2]['token']}"},
        )
        assert claim.status_code == 201 and claim.json()["id"] == guests[2]["id"]
    counts = run(
        _count(
            db_url,
            "SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM events), "
            "(SELECT count(*) FROM chat), (SELECT count(*) FROM sessions), "
            "(SELECT count(*) FROM accounts)",
        )
    )
    assert tuple(counts[0]) == (3, len(old["steps"]), 1, 3, 1)
    _migrate(db_url, "0005", down=True)
    rows = run(_count(db_url, "SELECT id, token_hash FROM players"))
    hashes = dict((r[0], r[1]) for r in rows)
    for g in guests[:2]:
        assert hashes[g["id"]] == hashlib.sha256(g["token"].encode()).hexdigest()
    assert hashes[guests[2]["id"]] != hashlib.sha256(guests[2]["token"].encode()).hexdigest()
    _migrate(db_url, "head")
    with thread_server(db_url=db_url, data_dir=tmp_path, testing=True) as srv:
        r = httpx.get(srv.url + "/api/me", headers=ana)
        assert r.status_code == 200 and r.json()["id"] == guests[0]["id"]
