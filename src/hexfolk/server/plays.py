"""The ``plays`` of finished games: one row per seat (``docs/profiles.md``), what profiles,
"my games" and karma read.

A game's rows are written once it is over: by the game-end hook :func:`record_hook` in the
process that finished it, and after every server start by :func:`catch_up` (in a task of its
own: :func:`start_catch_up`) for any finished table without rows (games finished before
migration 0008, or a process that stopped between the final commit and its hook). Both use
:func:`plays_of`, from the table row and its events only, so a game's rows are the same whoever
writes them; writing them twice changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Integer, and_, cast, exists, func, insert, select, true
from sqlalchemy.exc import IntegrityError

from hexfolk.server.karma import SeatStep, stayed
from hexfolk.server.models import EventRow, PlayRow, TableRow
from hexfolk.server.seats import seats_of
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server.plays")

CATCH_UP_BATCH = 100
""":func:`catch_up` reads and writes this many finished tables without plays at a time."""


def plays_of(row: TableRow, events: Sequence[SeatStep]) -> list[PlayRow]:
    """The plays of the finished table ``row`` with its ``events``: each seat, its person
    (None: a bot), whether it is among the winners, and whether its person stayed
    (:func:`.karma.stayed`)."""
    winners = set((row.result or {}).get("winners") or [])
    started = row.started_at if row.started_at is not None else row.created_at
    finished = row.finished_at if row.finished_at is not None else row.updated_at
    out = []
    for i, seat in enumerate(seats_of(row)):
        person = seat.kind == "person" and seat.player_id is not None
        out.append(
            PlayRow(
                table_id=row.id,
                seat=i,
                player_id=seat.player_id if person else None,
                game=row.game,
                players=row.players,
                started_at=started,
                finished_at=finished,
                won=i in winners,
                stayed=stayed(i, events) if person else True,
            )
        )
    return out


async def record(store: Store, table_id: str) -> int:
    """Write the plays of the finished table ``table_id`` unless it has them: how many were
    written (0: already there, or not finished)."""
    async with store.sessions() as s:
        row = await s.get(TableRow, table_id)
        if row is None or row.status != "finished":
            return 0
        there = await s.execute(select(PlayRow.seat).where(PlayRow.table_id == table_id).limit(1))
        if there.first() is not None:
            return 0
        events = list(
            (
                await s.execute(
                    select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
                )
            ).scalars()
        )
        plays = plays_of(row, events)
    try:
        async with store.sessions() as s, s.begin():
            s.add_all(plays)
    except IntegrityError:  # another process wrote them meanwhile: the same rows
        return 0
    return len(plays)


def record_hook(store: Store) -> Any:
    """The game-end hook (:mod:`.game_end`) that writes a finished game's plays."""

    async def record_plays(row: TableRow) -> None:
        await record(store, row.id)

    return record_plays


async def catch_up(store: Store) -> int:
    """Write the plays of every finished table that has none: how many tables. A batch of
    :data:`CATCH_UP_BATCH` tables is read in two queries (the rows, their actions' seats and
    stand-in flags) and written in one transaction; a batch another writer got to first is
    written table by table (:func:`record`)."""
    done = 0
    skipped: set[str] = set()
    while True:
        async with store.sessions() as s:
            rows = list(
                (
                    await s.execute(
                        select(TableRow)
                        .where(
                            TableRow.status == "finished",
                            ~exists().where(PlayRow.table_id == TableRow.id),
                            TableRow.id.not_in(skipped) if skipped else true(),
                        )
                        .order_by(TableRow.id)
                        .limit(CATCH_UP_BATCH)
                    )
                ).scalars()
            )
            steps: dict[str, list[Any]] = defaultdict(list)
            if rows:
                found = await s.execute(
                    select(EventRow.table_id, EventRow.kind, EventRow.seat, EventRow.stand_in)
                    .where(EventRow.table_id.in_([r.id for r in rows]), EventRow.kind == "action")
                    .order_by(EventRow.table_id, EventRow.seq)
                )
                for ev in found:
                    steps[ev.table_id].append(ev)
        if not rows:
            break
        batch = {row.id: plays_of(row, steps[row.id]) for row in rows}
        skipped.update(tid for tid, new in batch.items() if not new)  # no seats
        try:
            values = [_values(p) for new in batch.values() for p in new]
            if values:
                async with store.sessions() as s, s.begin():
                    await s.execute(insert(PlayRow), values)
            done += sum(1 for new in batch.values() if new)
        except IntegrityError:  # another process wrote some of them: one table at a time
            for tid in batch:
                if await record(store, tid):
                    done += 1
                else:
                    skipped.add(tid)
    if done:
        log.info("plays written for %d finished tables", done)
    return done


def _values(play: PlayRow) -> dict[str, Any]:
    return {c.key: getattr(play, c.key) for c in PlayRow.__table__.columns}


def start_catch_up(store: Store) -> asyncio.Task[int]:
    """Run :func:`catch_up` in a task of its own (the server takes connections meanwhile); a
    failure is logged with its traceback."""

    def report(task: asyncio.Task[int]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("writing the plays of finished games failed", exc_info=task.exception())

    task = asyncio.get_running_loop().create_task(catch_up(store))
    task.add_done_callback(report)
    return task


# --- reading ------------------------------------------------------------------------------------
async def per_game(store: Store, player_id: str) -> list[dict[str, Any]]:
    """Games played and won per game by ``player_id`` (most played first)."""
    async with store.sessions() as s:
        rows = await s.execute(
            select(PlayRow.game, func.count(), func.sum(cast(PlayRow.won, Integer)))
            .where(PlayRow.player_id == player_id)
            .group_by(PlayRow.game)
        )
        counts = [(str(g), int(n), int(w or 0)) for g, n, w in rows]
    counts.sort(key=lambda x: (-x[1], x[0]))
    return [{"game": g, "played": n, "won": w} for g, n, w in counts]


async def games_of(
    store: Store,
    player_id: str,
    *,
    game: str | None = None,
    won: bool | None = None,
    players: int | None = None,
    offset: int = 0,
    limit: int = 20,
) -> tuple[int, list[tuple[PlayRow, TableRow]]]:
    """The finished games of ``player_id`` (newest first) with the filters: how many match,
    and the page ``offset..offset+limit`` of them (each play with its table)."""
    where = [PlayRow.player_id == player_id]
    if game is not None:
        where.append(PlayRow.game == game)
    if won is not None:
        where.append(PlayRow.won == won)
    if players is not None:
        where.append(PlayRow.players == players)
    async with store.sessions() as s:
        total = (
            await s.execute(select(func.count()).select_from(PlayRow).where(and_(*where)))
        ).scalar_one()
        rows = await s.execute(
            select(PlayRow, TableRow)
            .join(TableRow, TableRow.id == PlayRow.table_id)
            .where(and_(*where))
            .order_by(PlayRow.finished_at.desc(), PlayRow.table_id.desc())
            .offset(offset)
            .limit(limit)
        )
        return int(total), [(p, t) for p, t in rows.all()]
