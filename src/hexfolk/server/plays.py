"""The ``plays`` of finished games: one row per seat (``docs/profiles.md``), what profiles,
"my games" and karma read.

A game's rows are written once it is over: by the game-end hook :func:`record_hook` in the
process that finished it, and at every server start by :func:`catch_up` for any finished table
without rows (games finished before migration 0007, or a process that stopped between the
final commit and its hook). Both use :func:`plays_of`, from the table row and its events only,
so a game's rows are the same whoever writes them; writing them twice changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Integer, and_, cast, exists, func, select, true
from sqlalchemy.exc import IntegrityError

from hexfolk.server.karma import stayed
from hexfolk.server.models import EventRow, PlayRow, TableRow
from hexfolk.server.seats import seats_of
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server.plays")

CATCH_UP_BATCH = 200
""":func:`catch_up` reads this many finished tables without plays at a time."""


def plays_of(row: TableRow, events: Sequence[EventRow]) -> list[PlayRow]:
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
    """Write the plays of every finished table that has none: how many tables."""
    done = 0
    skipped: set[str] = set()
    while True:
        async with store.sessions() as s:
            ids = list(
                (
                    await s.execute(
                        select(TableRow.id)
                        .where(
                            TableRow.status == "finished",
                            ~exists().where(PlayRow.table_id == TableRow.id),
                            TableRow.id.not_in(skipped) if skipped else true(),
                        )
                        .limit(CATCH_UP_BATCH)
                    )
                ).scalars()
            )
        if not ids:
            break
        for table_id in ids:
            if await record(store, table_id) == 0:
                skipped.add(table_id)  # no seats, or written by another process
            else:
                done += 1
    if done:
        log.info("plays written for %d finished tables", done)
    return done


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
