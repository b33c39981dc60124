"""Recovery: SIGKILL the server in the middle of a game, start it again on the same database,
and find every acknowledged action, the game going on and the clocks given back their time.
Run on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import SubprocessServer, run


def _db_events(url: str, table_id: str) -> list[tuple[int, int | None, str]]:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1]
        with sqlite3.connect(path) as conn:
            rows = conn.execute(
                "SELECT seq, seat, action FROM events WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
            return [(int(a), b, str(c)) for a, b, c in rows]
    import asyncpg

    async def fetch() -> list[tuple[int, int | None, str]]:
        conn = await asyncpg.connect(url.replace("+asyncpg", ""))
        try:
            rows = await conn.fetch(
                "SELECT seq, seat, action FROM events WHERE table_id = $1 ORDER BY seq", table_id
            )
            return [(r["seq"], r["seat"], r["action"]) for r in rows]
        finally:
            await conn.close()

    return asyncio.run(fetch())


async def _play_some(url: str, steps: int) -> dict[str, Any]:
    host, guest = HexfolkClient(url), HexfolkClient(url)
    await host.create_player("Host")
    await guest.create_player("Guest")
    t = await host.create_table(game="island", players=2, clock=300)
    await guest.join(t["id"])
    await host.start(t["id"])
    acked: list[tuple[int, int, str]] = []
    async with host.connect(t["id"]) as h, guest.connect(t["id"]) as g:
        await h.next_view()
        await g.next_view()
        conns = {0: h, 1: g}
        for _ in range(steps):
            view = (h.view or {}) if (h.view or {}).get("legal") else (g.view or {})
            seat = view["seat"]
            await conns[seat].act(view["legal"][-1]["action"], view["version"])
            ack = await conns[seat].expect("accepted")
            acked.append((ack["version"], seat, ack["action"]))
            reached = int(ack["version"])
            for c in conns.values():
                await c.wait_for(lambda v, reached=reached: v["version"] >= reached)
        last = h.view or {}
    await host.aclose()
    await guest.aclose()
    return {
        "table": t["id"],
        "acked": acked,
        "last": last,
        "tokens": (host.token, guest.token),
        "killed_at": time.time(),
    }


def _recovery(db_url: str, tmp_path: Path) -> None:
    first = SubprocessServer(db_url, tmp_path).start()
    try:
        played = run(_play_some(first.url, 12))
    finally:
        first.kill()  # SIGKILL: no shutdown, no last heartbeat
    killed_at = time.time()
    time.sleep(2.0)  # the server is down
    events = _db_events(db_url, played["table"])
    by_seq = {seq: (seat, text) for seq, seat, text in events}
    for version, seat, text in played["acked"]:
        assert any(s == seat and t == text for q, (s, t) in by_seq.items() if q <= version)
    assert max(by_seq) == played["acked"][-1][0]
    second = SubprocessServer(db_url, tmp_path).start()
    try:

        async def resume() -> None:
            host = HexfolkClient(second.url, played["tokens"][0])
            guest = HexfolkClient(second.url, played["tokens"][1])
            table = await host.table(played["table"])
            assert table["status"] == "playing"
            assert table["version"] == played["acked"][-1][0]
            async with host.connect(played["table"]) as h, guest.connect(played["table"]) as g:
                view = await h.next_view()
                await g.next_view()
                before = played["last"]
                assert view["observation"] == before["observation"]
                seat = str(view["acting"][0])
                was = before["clocks"]["seats"][seat]["remaining"]
                now = view["clocks"]["seats"][seat]["remaining"]
                # the time the server was down is given back (heartbeat precision: 2 s)
                lost = killed_at - played["killed_at"]
                assert was - lost - 2.5 <= now <= was + 0.5, (was, now)
                mover = h if view["legal"] else g
                mv = mover.view or {}
                await mover.act(mv["legal"][0]["action"], mv["version"])
                ack = await mover.expect("accepted")
                assert ack["version"] > view["version"]
            await host.aclose()
            await guest.aclose()

        run(resume())
    finally:
        second.terminate()


def test_sigkill_and_restart_on_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "recovery.sqlite"
    _recovery(f"sqlite+aiosqlite:///{db}", tmp_path)


def test_sigkill_and_restart_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    _recovery(pg_url, tmp_path)


@pytest.mark.parametrize("kind", ["postgresql"])
def test_a_complete_game_on_postgresql(pg_url: str, tmp_path: Path, kind: str) -> None:
    from tests.server.helpers import play_scripted, quick_choice, thread_server

    with thread_server(
        db_url=pg_url, data_dir=tmp_path, testing=True, action_rate=(100_000, 1.0)
    ) as srv:

        async def scenario() -> str:
            async with HexfolkClient(srv.url) as host:
                await host.create_player("Pg")
                t = await host.create_table(
                    game="scythe",
                    players=2,
                    bot_delay=0,
                    seats=[{"kind": "host"}, {"kind": "open"}],
                )
                t = await host.fill_bots(t["id"], "random")
                await host.start(t["id"])
                import random

                async with host.connect(t["id"]) as conn:
                    await play_scripted(conn, quick_choice(random.Random(3)))
                record = await host.record(t["id"])
                assert '"format":"hexfolk-record"' in record
                return str(t["id"])

        tid = run(scenario())
    events = _db_events(pg_url, tid)
    assert events and [e[0] for e in events] == list(range(1, len(events) + 1))
