"""What karma, profiles and "my games" cost in the database (issue 30, docs/profiles.md): a
database of many finished games (``--tables`` tables of ``--seats`` people each, among
``--players`` players, written as the server writes them: ``plays`` rows), then the time of

- one player's karma (``karmas`` for 1 id), and of a lobby's worth (``--lobby`` ids at once:
  what ``GET /api/players/karma`` asks for a full listing);
- a profile's games per game (``per_game``) and its recent games (``games_of``, one page);
- "my games" filtered by result and player count, page 3;
- ``catch_up`` when every game already has its plays (each server start), and when 1000
  tables have none (the first start after the upgrade; these tables have no events).

SQLite in a temporary folder by default; ``--db postgresql+asyncpg://...`` for PostgreSQL (a
database of its own: the tables are written into it). Medians of ``--repeat`` runs, in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import delete, insert

from hexfolk.server import plays
from hexfolk.server.karma import karmas
from hexfolk.server.models import PlayerRow, PlayRow, TableRow
from hexfolk.server.store import Store


async def fill(store: Store, tables: int, seats: int, players: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    ids = [f"p{i:07d}" for i in range(players)]
    now = time.time()
    async with store.sessions() as s, s.begin():
        await s.execute(
            insert(PlayerRow),
            [
                {"id": pid, "name": f"P{i}", "token_hash": f"{i:064d}", "created_at": now}
                for i, pid in enumerate(ids)
            ],
        )
    batch = 2000
    for start in range(0, tables, batch):
        rows: list[dict[str, Any]] = []
        play_rows: list[dict[str, Any]] = []
        for n in range(start, min(tables, start + batch)):
            tid = f"t{n:09d}"
            who = rng.sample(ids, seats)
            at = now - (tables - n) * 60.0
            winner = rng.randrange(seats)
            rows.append(
                {
                    "id": tid,
                    "game": "island",
                    "players": seats,
                    "options": {},
                    "clock": None,
                    "commit_clock": None,
                    "public": True,
                    "spectators": True,
                    "disconnect_policy": "bot",
                    "grace": 60.0,
                    "bot_delay": 0.0,
                    "seats": [{"kind": "person", "player_id": p, "name": p} for p in who],
                    "status": "finished",
                    "host_id": who[0],
                    "seed": 1,
                    "seeded": False,
                    "version": 0,
                    "clock_state": {},
                    "result": {"winners": [winner]},
                    "created_at": at,
                    "updated_at": at + 1800,
                    "started_at": at,
                    "finished_at": at + 1800,
                }
            )
            for seat, pid in enumerate(who):
                play_rows.append(
                    {
                        "table_id": tid,
                        "seat": seat,
                        "player_id": pid,
                        "game": "island",
                        "players": seats,
                        "started_at": at,
                        "finished_at": at + 1800,
                        "won": seat == winner,
                        "stayed": rng.random() < 0.9,
                    }
                )
        async with store.sessions() as s, s.begin():
            await s.execute(insert(TableRow), rows)
            await s.execute(insert(PlayRow), play_rows)
    return ids


async def timed(fn: Callable[[], Awaitable[Any]], repeat: int) -> float:
    await fn()  # warm
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite+aiosqlite:///{Path(tmp) / 'karma.sqlite'}"
        store = await Store.open(url, sqlite_synchronous="NORMAL")
        try:
            t0 = time.perf_counter()
            ids = await fill(store, args.tables, args.seats, args.players, args.seed)
            print(
                f"{args.tables} finished tables, {args.tables * args.seats} plays, "
                f"{args.players} players ({time.perf_counter() - t0:.1f} s to write)"
            )
            one, lobby = ids[:1], ids[: args.lobby]

            async def karma(which: list[str]) -> Any:
                async with store.sessions() as s:
                    return await karmas(s, which)

            results = {
                "karma, 1 player": await timed(lambda: karma(one), args.repeat),
                f"karma, {len(lobby)} players": await timed(lambda: karma(lobby), args.repeat),
                "profile: per game": await timed(
                    lambda: plays.per_game(store, ids[0]), args.repeat
                ),
                "profile: 10 recent": await timed(
                    lambda: plays.games_of(store, ids[0], limit=10), args.repeat
                ),
                "my games: won, 4 players, page 3": await timed(
                    lambda: plays.games_of(store, ids[0], won=True, players=4, offset=40),
                    args.repeat,
                ),
                "catch_up with nothing to do": await timed(
                    lambda: plays.catch_up(store), args.repeat
                ),
            }
            # the first start after the upgrade: finished tables without plays (here 1000)
            async with store.sessions() as s, s.begin():
                await s.execute(delete(PlayRow).where(PlayRow.table_id < "t000001000"))
            t0 = time.perf_counter()
            written = await plays.catch_up(store)
            results[f"catch_up writing {written} tables"] = 1000 * (time.perf_counter() - t0)
            for name, ms in results.items():
                print(f"{name:36s} {ms:8.2f} ms")
        finally:
            await store.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50_000)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--players", type=int, default=2_000)
    ap.add_argument("--lobby", type=int, default=100, help="ids per karma request (max 100)")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None, help="a database URL (default: SQLite in a temp dir)")
    asyncio.run(main(ap.parse_args()))
