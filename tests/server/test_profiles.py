"""Karma, profiles and "my games" (issue 30, points 4 and 5; docs/profiles.md) from real games:
a person who plays an island game to the end stays; one whose seat a stand-in bot plays to the
end (the grace period ran out, the person never came back) did not finish it."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from hexfolk.server import plays
from hexfolk.server.client import HexfolkClient, ServerError
from hexfolk.server.errors import ApiError
from hexfolk.server.karma import (
    KARMA_GAMES,
    KARMA_SHOWN_FROM,
    Karma,
    karma_of,
    karmas,
    require_karma,
)
from hexfolk.server.models import TableRow
from hexfolk.server.store import Step, Store
from tests.server.helpers import ThreadServer, play_scripted, quick_choice, run

TABLE: dict[str, Any] = {
    "game": "island",
    "players": 2,
    "options": {"vp_target": 8},
    "seats": [{"kind": "host"}, {"kind": "bot", "level": "easy"}],
    "clock": None,
    "bot_delay": 0,
    "disconnect": {"policy": "bot", "grace": 0.05},
}


async def _finish(host: HexfolkClient, seed: int) -> str:
    """``host`` plays a game against an easy bot to the end: the table id."""
    t = await host.create_table(**TABLE, seed=seed)
    await host.start(t["id"])
    async with host.connect(t["id"]) as conn:
        await play_scripted(conn, quick_choice(random.Random(seed)), timeout=240)
    return str(t["id"])


async def _abandon(host: HexfolkClient, seed: int) -> str:
    """``host`` starts a game, sees its first view and goes away for good: a stand-in plays
    the seat to the end (``host`` watches it as a spectator). The table id."""
    t = await host.create_table(**TABLE, seed=seed)
    await host.start(t["id"])
    async with host.connect(t["id"]) as conn:
        await conn.wait_for(lambda v: v is not None)
    async with host.connect(t["id"], spectate=True) as watcher:
        await watcher.wait_for(lambda v: v["status"] == "finished", timeout=240)
    return str(t["id"])


async def plays_written(client: HexfolkClient, player_id: str, games: int) -> None:
    """Wait until the game-end hooks (each in its own task) wrote ``games`` games of
    ``player_id`` (at most 60 s)."""
    for _ in range(600):
        prof = await client.request("GET", f"/api/players/{player_id}/profile")
        if prof["karma"]["games"] >= games:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the plays of {games} games were not written in 60 s")


@pytest.fixture(scope="module")
def two_games(server: ThreadServer) -> dict[str, Any]:
    """Ann finishes one game and abandons another (after both, the hooks have run)."""

    async def go() -> dict[str, Any]:
        async with HexfolkClient(server.url) as ann:
            me = await ann.create_player("Ann")
            finished = await _finish(ann, 4)
            abandoned = await _abandon(ann, 5)
            await plays_written(ann, me["id"], 2)
            return {"ann": me["id"], "token": ann.token, "finished": finished, "gone": abandoned}

    return run(go(), timeout=600)


def _get(server: ThreadServer, path: str, token: str | None = None, **params: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{server.url}{path}", params=params, headers=headers, timeout=30)


def test_a_finished_game_stays_and_an_abandoned_one_does_not(
    server: ThreadServer, two_games: dict[str, Any]
) -> None:
    """Point 4: the karma counts both started games, one of them finished by Ann herself."""
    r = _get(server, f"/api/players/{two_games['ann']}/profile")
    assert r.status_code == 200, r.text
    prof = r.json()
    assert prof["name"] == "Ann" and prof["account"] is False
    by_table = {g["table_id"]: g for g in prof["recent"]}
    assert by_table[two_games["finished"]]["stayed"] is True
    assert by_table[two_games["gone"]]["stayed"] is False
    assert prof["karma"] == {
        "karma": None,  # 2 started games: fewer than KARMA_SHOWN_FROM, not shown
        "games": 2,
        "stayed": 1,
        "of": KARMA_GAMES,
        "shown_from": KARMA_SHOWN_FROM,
    }
    assert prof["games"][0]["game"] == "island" and prof["games"][0]["played"] == 2
    # the recent games are the newest first, their seats as they sat, won as the result says
    assert [g["table_id"] for g in prof["recent"]] == [two_games["gone"], two_games["finished"]]
    for g in prof["recent"]:
        table = _get(server, f"/api/tables/{g['table_id']}").json()
        assert g["won"] == (0 in table["result"]["winners"])
        # the table's description gives each person's karma (the table page's one request)
        assert table["seats"][0]["karma"] == {"karma": None, "games": 2, "stayed": 1}
        assert "karma" not in table["seats"][1]
        bot_won = 1 in table["result"]["winners"]
        assert g["seats"][1] == {"seat": 1, "kind": "bot", "level": "easy", "won": bot_won}
    assert prof["games"][0]["won"] == sum(g["won"] for g in prof["recent"])
    # the stand-in's steps are the reason: the abandoned game's last step of seat 0 was one
    db = server.config.resolved_data_dir() / "hexfolk.sqlite"
    with sqlite3.connect(db) as conn:
        (last,) = conn.execute(
            "SELECT stand_in FROM events WHERE table_id = ? AND seat = 0 AND kind = 'action' "
            "ORDER BY seq DESC LIMIT 1",
            (two_games["gone"],),
        ).fetchone()
    assert last == 1


def test_karma_of_many_players_at_once(server: ThreadServer, two_games: dict[str, Any]) -> None:
    r = _get(server, "/api/players/karma", ids=f"{two_games['ann']},nobody-here")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["karma"][two_games["ann"]] == {"karma": None, "games": 2, "stayed": 1}
    assert body["karma"]["nobody-here"] == {"karma": None, "games": 0, "stayed": 0}
    assert (body["of"], body["shown_from"]) == (20, 5)
    too_many = ",".join(f"p{i}" for i in range(101))
    r = _get(server, "/api/players/karma", ids=too_many)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_ids"


def test_my_games_filters_and_pages(server: ThreadServer, two_games: dict[str, Any]) -> None:
    """Point 5: "my games", newest first, with filters checked."""
    tok = two_games["token"]
    every = _get(server, "/api/me/games", tok).json()
    assert every["total"] == 2 and every["page"] == 1 and every["pages"] == 1
    assert [g["table_id"] for g in every["games"]] == [two_games["gone"], two_games["finished"]]
    won = _get(server, "/api/me/games", tok, result="won").json()
    lost = _get(server, "/api/me/games", tok, result="lost").json()
    assert won["total"] + lost["total"] == 2
    assert all(g["won"] for g in won["games"]) and not any(g["won"] for g in lost["games"])
    assert _get(server, "/api/me/games", tok, game="scythe").json()["total"] == 0
    assert _get(server, "/api/me/games", tok, game="island", players=2).json()["total"] == 2
    assert _get(server, "/api/me/games", tok, players=3).json()["total"] == 0
    assert _get(server, "/api/me/games", tok, page=2).json()["games"] == []
    for params, code in [
        ({"result": "draw"}, "bad_filter"),
        ({"players": "9"}, "bad_filter"),
        ({"players": "two"}, "bad_filter"),
        ({"page": "0"}, "bad_filter"),
        ({"game": "chess"}, "unknown_game"),
    ]:
        r = _get(server, "/api/me/games", tok, **params)
        assert r.status_code == 422, (params, r.text)
        assert r.json()["error"]["code"] == code
    assert _get(server, "/api/me/games").status_code == 401


def test_an_unknown_player_has_no_profile(server: ThreadServer) -> None:
    r = _get(server, "/api/players/nobody-here/profile")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_table_with_a_least_karma_refuses_a_player_without_one(
    server: ThreadServer, two_games: dict[str, Any]
) -> None:
    """Point 4: the host's minimum; Ann has no karma yet (2 started games) and cannot sit."""

    async def go() -> None:
        async with HexfolkClient(server.url) as host, HexfolkClient(server.url) as ann:
            await host.create_player("Host")
            ann.token = two_games["token"]
            with pytest.raises(ServerError) as bad:
                await host.create_table(game="island", players=2, min_karma=101)
            assert bad.value.code == "bad_karma"
            t = await host.create_table(game="island", players=2, min_karma=80)
            assert t["min_karma"] == 80
            with pytest.raises(ServerError) as refused:
                await ann.join(t["id"])
            assert refused.value.code == "karma_unknown"
            assert refused.value.status == 409
            assert (await host.table(t["id"]))["seats"][1]["kind"] == "open"  # nothing changed
            # the host lifts the minimum (null): Ann sits down
            path = f"/api/tables/{t['id']}"
            changed = await host.request("PATCH", path, json={"min_karma": None})
            assert changed["min_karma"] is None
            await ann.join(t["id"])
            await host.request("PATCH", path, json={"min_karma": 50})
            assert (await host.table(t["id"]))["min_karma"] == 50

    run(go())


def test_the_plays_of_a_finished_game_are_written_again_at_start(
    server: ThreadServer, two_games: dict[str, Any]
) -> None:
    """A process that stopped before its game-end hook: the next start writes the plays, the
    same rows."""
    db = server.config.resolved_data_dir() / "hexfolk.sqlite"
    query = "SELECT seat, player_id, won, stayed FROM plays WHERE table_id = ? ORDER BY seat"
    with sqlite3.connect(db) as conn:
        before = conn.execute(query, (two_games["gone"],)).fetchall()
        conn.execute("DELETE FROM plays WHERE table_id = ?", (two_games["gone"],))
    assert before[0][1] == two_games["ann"] and before[0][3] == 0

    async def again() -> tuple[int, int]:
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        try:
            return await plays.catch_up(store), await plays.catch_up(store)
        finally:
            await store.close()

    assert asyncio.run(again()) == (1, 0)
    with sqlite3.connect(db) as conn:
        assert conn.execute(query, (two_games["gone"],)).fetchall() == before


def test_the_karma_rule() -> None:
    """The formula (docs/profiles.md): the last 20 started games, newest first; a percent from
    5 games on; the minimum refuses below it."""
    assert karma_of([True] * 4).percent is None
    assert karma_of([True] * 4 + [False]).percent == 80
    assert karma_of([False] * 5 + [True] * 30) == Karma(20, 15)
    assert karma_of([False] * 5 + [True] * 30).percent == 75
    require_karma(Karma(20, 15), 75)
    require_karma(Karma(2, 1), None)
    with pytest.raises(ApiError) as low:
        require_karma(Karma(20, 14), 75)
    assert low.value.code == "karma_too_low" and low.value.extra["karma"] == 70
    with pytest.raises(ApiError) as unknown:
        require_karma(Karma(4, 4), 10)
    assert unknown.value.code == "karma_unknown"


async def _plays_on(url: str) -> None:
    """Three finished tables of Ann's, written by the store as a room writes them (the last
    one's seat 0 played by a stand-in at the end), then read back through the plays."""
    store = await Store.open(url, sqlite_synchronous="NORMAL")
    try:
        await store.create_player("ann", "Ann", "a" * 64)
        for n, (stand_in, winner) in enumerate([(False, 0), (False, 1), (True, 0)]):
            tid = f"t{n}"
            at = 1000.0 + n
            await store.add_table(
                TableRow(
                    id=tid,
                    game="island",
                    players=2,
                    options={},
                    clock=None,
                    public=True,
                    spectators=True,
                    disconnect_policy="bot",
                    grace=60.0,
                    bot_delay=0.0,
                    seats=[
                        {"kind": "person", "player_id": "ann", "name": "Ann"},
                        {"kind": "bot", "level": "easy"},
                    ],
                    status="playing",
                    host_id="ann",
                    seed=7,
                    seeded=False,
                    version=0,
                    clock_state={},
                    created_at=at,
                    updated_at=at,
                    started_at=at,
                )
            )
            steps = [
                Step(1, "action", 0, "a", at=at),
                Step(2, "action", 1, "b", bot=True, at=at),
                Step(3, "action", 0, "c", bot=stand_in, stand_in=stand_in, at=at),
            ]
            await store.commit_steps(
                tid,
                steps,
                version=3,
                status="finished",
                result={"winners": [winner]},
                finished_at=at + 10,
            )
        assert await plays.catch_up(store) == 3
        async with store.sessions() as s:
            found = await karmas(s, ["ann", "ann", "bob"])
        assert found == {"ann": Karma(3, 2), "bob": Karma(0, 0)}
        assert await plays.per_game(store, "ann") == [{"game": "island", "played": 3, "won": 2}]
        total, rows = await plays.games_of(store, "ann", won=True, limit=1)
        assert total == 2 and [p.table_id for p, _ in rows] == ["t2"]
        total, rows = await plays.games_of(store, "ann", won=True, offset=1)
        assert total == 2 and [p.table_id for p, _ in rows] == ["t0"]
        assert [p.stayed for p, _ in (await plays.games_of(store, "ann"))[1]] == [
            False,
            True,
            True,
        ]
    finally:
        await store.close()


def test_plays_and_karma_on_sqlite(tmp_path: Path) -> None:
    """Migration 0008 and the queries of karma, profiles and "my games" on SQLite."""
    asyncio.run(_plays_on(f"sqlite+aiosqlite:///{tmp_path / 'plays.sqlite'}"))


def test_plays_and_karma_on_postgresql(pg_url: str) -> None:
    """The same on PostgreSQL (issue 30, point 6: both databases)."""
    asyncio.run(_plays_on(pg_url))


def test_the_endpoints_are_in_the_openapi_schema(server: ThreadServer) -> None:
    schema = httpx.get(server.url + "/openapi.json", timeout=30).json()
    for path in ("/api/players/{player_id}/profile", "/api/players/karma", "/api/me/games"):
        assert path in schema["paths"], path
    assert "min_karma" in schema["components"]["schemas"]["NewTable"]["properties"]
    assert "min_karma" in schema["components"]["schemas"]["TableChanges"]["properties"]
