"""Rated tables in the database (issue 30, point 3; docs/ratings.md), on SQLite and on
PostgreSQL: the game-end hook rates a finished rated table once, however often it runs (even
at once), a casual table never, bots stay fixed, a leaver finishes last, and the leaderboard and
a player's ratings read back what was written."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select

from hexfolk.ratings import bot_skill, displayed
from hexfolk.server.models import EventRow, RatingHistoryRow, RatingRow, TableRow
from hexfolk.server.rated_games import RatedGames
from hexfolk.server.rating_book import RatingBook
from hexfolk.server.store import Store
from tests.server.accounts_for_tests import make_account


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'ratings.sqlite'}"
    else:
        yield request.getfixturevalue("pg_url")


async def _finished_table(
    store: Store,
    table_id: str,
    seats: list[dict[str, object]],
    result: dict[str, object],
    *,
    rated: bool = True,
    stand_in_seats: tuple[int, ...] = (),
) -> TableRow:
    now = time.time()
    row = TableRow(
        id=table_id, game="island", players=len(seats), options={}, clock=None,
        commit_clock=None, public=True, spectators=True, disconnect_policy="bot", grace=60,
        bot_delay=0, seats=seats, status="finished", host_id=str(seats[0]["player_id"]),
        seed=1, seeded=False, rated=rated, version=len(seats), clock_state={}, result=result,
        created_at=now, updated_at=now, started_at=now, finished_at=now,
    )  # fmt: skip
    await store.add_table(row)
    async with store.sessions() as s, s.begin():
        for seat in range(len(seats)):
            s.add(
                EventRow(
                    table_id=table_id, seq=seat, kind="action", seat=seat, action="end",
                    stand_in=seat in stand_in_seats, at=now,
                )
            )  # fmt: skip
    return row


async def _people(store: Store, names: list[str]) -> list[dict[str, object]]:
    """New accounts (ids ``p-<name>-<run>``: the PostgreSQL database is the module's)."""
    out: list[dict[str, object]] = []
    run = secrets.token_hex(3)
    for name in names:
        pid = f"p-{name}-{run}"
        await store.create_player(pid, name, f"hash-{pid}")
        await make_account(store, pid, f"{name}-{run}")
        out.append({"kind": "person", "player_id": pid, "name": name})
    return out


async def _count(
    store: Store, model: type[RatingHistoryRow] | type[RatingRow], people: list[dict[str, object]]
) -> int:
    """The rows of ``people`` in ``model``'s table."""
    ids = [str(p["player_id"]) for p in people]
    query = select(func.count()).select_from(model).where(model.player_id.in_(ids))
    async with store.sessions() as s:
        return int((await s.execute(query)).scalar_one())


def test_the_hook_rates_a_table_once_even_when_it_runs_at_once(db_url: str) -> None:
    async def main() -> None:
        store = await Store.open(db_url)
        try:
            rated = RatedGames(RatingBook(store))
            tag = secrets.token_hex(3)
            ann, bob = await _people(store, ["ann", "bob"])
            bot = {"kind": "bot", "level": "hard"}
            result = {"winners": [1], "scores": [6, 10, 7], "returns": [0, 1, 0]}
            row = await _finished_table(store, f"t-once-{tag}", [ann, bob, bot], result)
            # runs at once: twice here, and another process's (its own book, its own lock:
            # only the database keeps them apart), then once more
            other = RatedGames(RatingBook(store))
            await asyncio.gather(rated.finished(row), other.finished(row), rated.finished(row))
            await rated.finished(row)
            assert rated.rated + other.rated == 1
            assert await _count(store, RatingHistoryRow, [ann, bob]) == 2
            mine = await rated.book.of_player(str(bob["player_id"]))
            assert [(r["game"], r["family"], r["games"]) for r in mine] == [("island", "3-4p", 1)]
            # exactly OpenSkill's update: Bob first, the hard bot second, Ann last
            model = PlackettLuce()
            hard = bot_skill("hard")
            teams = [[model.rating()], [model.rating()], [model.rating(hard.mu, hard.sigma)]]
            after = model.rate(teams, ranks=[2.0, 0.0, 1.0])
            assert mine[0]["mu"] == after[1][0].mu and mine[0]["sigma"] == after[1][0].sigma
            [point] = mine[0]["history"]
            assert point == {
                "table_id": f"t-once-{tag}",
                "at": point["at"],
                "rating": mine[0]["rating"],
            }
            board = await rated.book.leaderboard("island", "3-4p")
            mine_only = [p for p in board if p["player_id"] in (ann["player_id"], bob["player_id"])]
            assert [p["player_id"] for p in mine_only] == [bob["player_id"], ann["player_id"]]
            board = mine_only
            assert board[0]["rating"] > 1000 > board[1]["rating"]
            assert board[1]["rating"] == displayed(type(hard)(after[0][0].mu, after[0][0].sigma))
            # a second game starts from the first one's skills
            row2 = await _finished_table(store, f"t-two-{tag}", [bob, ann, bot], result)
            await rated.finished(row2)
            again = await rated.book.of_player(str(bob["player_id"]))
            assert again[0]["games"] == 2 and len(again[0]["history"]) == 2
            assert again[0]["history"][1]["table_id"] == f"t-two-{tag}"
            assert again[0]["rating"] < mine[0]["rating"]  # Bob finished last this time
        finally:
            await store.close()

    asyncio.run(main())


def test_a_casual_table_changes_nothing(db_url: str) -> None:
    async def main() -> None:
        store = await Store.open(db_url)
        try:
            rated = RatedGames(RatingBook(store))
            tag = secrets.token_hex(3)
            ann, bob = await _people(store, ["ann", "bob"])
            result = {"winners": [0], "scores": [10, 3], "returns": [1, 0]}
            row = await _finished_table(store, f"t-casual-{tag}", [ann, bob], result, rated=False)
            await rated.finished(row)
            assert await rated.catch_up() == 0
            assert await _count(store, RatingHistoryRow, [ann, bob]) == 0
            assert await _count(store, RatingRow, [ann, bob]) == 0
            assert await rated.book.of_player(str(ann["player_id"])) == []
        finally:
            await store.close()

    asyncio.run(main())


def test_a_leaver_finishes_last_and_the_catch_up_rates_a_table_left_unrated(db_url: str) -> None:
    async def main() -> None:
        store = await Store.open(db_url)
        try:
            rated = RatedGames(RatingBook(store))
            tag = secrets.token_hex(3)
            ann, bob = await _people(store, ["ann", "bob"])
            # Ann's stand-in won, but Ann had left: she finishes last (docs/ratings.md)
            result = {"winners": [0], "scores": [10, 3], "returns": [1, 0]}
            await _finished_table(store, f"t-left-{tag}", [ann, bob], result, stand_in_seats=(0,))
            assert await rated.catch_up() >= 1  # its hook never ran (a process stopped)
            assert await rated.catch_up() == 0
            async with store.sessions() as s:
                query = select(RatingHistoryRow).where(RatingHistoryRow.table_id == f"t-left-{tag}")
                rows = (await s.execute(query)).scalars().all()
                got = {r.player_id: (r.place, r.left, r.mu_after < r.mu_before) for r in rows}
            assert got == {ann["player_id"]: (1, True, True), bob["player_id"]: (0, False, False)}
        finally:
            await store.close()

    asyncio.run(main())
