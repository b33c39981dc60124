"""The ratings in the database (``docs/ratings.md``): each account's current skill per game and
player-count family (``ratings``), one history row per player per rated game
(``rating_history``, unique per table and player), the leaderboard and a player's ratings.

:meth:`RatingBook.record` writes a rated table's changes in one transaction that first takes
the write lock (SQLite) or locks the players' rating rows (PostgreSQL), reads the skills before,
and refuses the whole table when any of its history rows exists: a table is rated once, however
often and in however many processes its game-end hook runs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from hexfolk.ratings import DEFAULT, Skill, displayed
from hexfolk.server.models import AccountRow, PlayerRow, RatingHistoryRow, RatingRow
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server.ratings")

LEADERBOARD_MAX = 100
"""The leaderboard shows at most this many players."""
HISTORY_MAX = 200
"""A player's rating history per game and family: at most the latest this many games."""
ATTEMPTS = 4
"""Tries of a rated table's transaction (two tables finishing together for one player race
for a new rating row; SQLite may refuse a busy write): a table is never lost to a race."""


@dataclass(frozen=True, slots=True)
class Change:
    """One account's rating change from one rated game."""

    player_id: str
    place: int
    left: bool
    before: Skill
    after: Skill


Update = Callable[[Mapping[str, Skill]], list[Change]]
"""Given each rated player's skill before the game, their changes."""


class RatingBook:
    """The ratings of the accounts in ``store``."""

    def __init__(self, store: Store):
        self.store = store
        self._lock = asyncio.Lock()
        """One rated table at a time in this process (SQLite has one writer anyway)."""

    async def is_rated(self, table_id: str) -> bool:
        """Whether the table's ratings are written."""
        async with self.store.sessions() as s:
            n = await s.execute(
                select(func.count())
                .select_from(RatingHistoryRow)
                .where(RatingHistoryRow.table_id == table_id)
            )
            return int(n.scalar_one()) > 0

    async def record(
        self, table_id: str, game: str, family: str, player_ids: Sequence[str], change: Update
    ) -> bool:
        """Rate a finished table once: ``change`` computes the changes from the skills the
        players have now (in the transaction that writes them). False: already rated."""
        async with self._lock:
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    return await self._record(table_id, game, family, player_ids, change)
                except (IntegrityError, DBAPIError) as exc:
                    if await self.is_rated(table_id):
                        return False
                    if attempt == ATTEMPTS:
                        raise
                    log.warning("table %s: rating it again after %s", table_id, type(exc).__name__)
                    await asyncio.sleep(0.05 * attempt)
        return False  # pragma: no cover (the loop returns or raises)

    async def _record(
        self, table_id: str, game: str, family: str, player_ids: Sequence[str], change: Update
    ) -> bool:
        now = time.time()
        ids = sorted(set(player_ids))
        pg = self.store.engine.dialect.name == "postgresql"
        async with self.store.sessions() as s, s.begin():
            if not pg:  # SQLite: take the write lock first, so nothing read below goes stale
                await s.execute(
                    update(RatingRow).where(RatingRow.player_id == "").values(games=RatingRow.games)
                )
            done = await s.execute(
                select(func.count())
                .select_from(RatingHistoryRow)
                .where(RatingHistoryRow.table_id == table_id)
            )
            if int(done.scalar_one()):
                return False
            query = select(RatingRow).where(
                RatingRow.player_id.in_(ids), RatingRow.game == game, RatingRow.family == family
            )
            if pg:
                query = query.order_by(RatingRow.player_id).with_for_update()
            rows = {r.player_id: r for r in (await s.execute(query)).scalars()}
            before = {
                pid: Skill(rows[pid].mu, rows[pid].sigma) if pid in rows else DEFAULT for pid in ids
            }
            for c in change(before):
                shown = displayed(c.after)
                s.add(
                    RatingHistoryRow(
                        table_id=table_id,
                        player_id=c.player_id,
                        game=game,
                        family=family,
                        place=c.place,
                        left=c.left,
                        mu_before=c.before.mu,
                        sigma_before=c.before.sigma,
                        mu_after=c.after.mu,
                        sigma_after=c.after.sigma,
                        rating_after=shown,
                        at=now,
                    )
                )
                row = rows.get(c.player_id)
                if row is None:
                    s.add(
                        RatingRow(
                            player_id=c.player_id,
                            game=game,
                            family=family,
                            mu=c.after.mu,
                            sigma=c.after.sigma,
                            rating=shown,
                            games=1,
                            updated_at=now,
                        )
                    )
                else:
                    row.mu, row.sigma, row.rating = c.after.mu, c.after.sigma, shown
                    row.games, row.updated_at = row.games + 1, now
        return True

    async def leaderboard(self, game: str, family: str) -> list[dict[str, Any]]:
        """The best :data:`LEADERBOARD_MAX` accounts of a game and family: highest rating
        first (then more games, then the earlier to reach it)."""
        async with self.store.sessions() as s:
            rows = await s.execute(
                select(RatingRow, PlayerRow.name)
                .join(AccountRow, AccountRow.player_id == RatingRow.player_id)
                .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                .where(RatingRow.game == game, RatingRow.family == family)
                .order_by(
                    RatingRow.rating.desc(), RatingRow.games.desc(), RatingRow.updated_at.asc()
                )
                .limit(LEADERBOARD_MAX)
            )
            return [
                {
                    "rank": i + 1,
                    "player_id": r.player_id,
                    "name": name,
                    "rating": r.rating,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "games": r.games,
                }
                for i, (r, name) in enumerate(rows.all())
            ]

    async def of_player(self, player_id: str) -> list[dict[str, Any]]:
        """A player's ratings, one per game and family played, each with its history (oldest
        first, the latest :data:`HISTORY_MAX` games)."""
        async with self.store.sessions() as s:
            ratings = list(
                (
                    await s.execute(
                        select(RatingRow)
                        .where(RatingRow.player_id == player_id)
                        .order_by(RatingRow.game, RatingRow.family)
                    )
                ).scalars()
            )
            out = []
            for r in ratings:
                history = (
                    await s.execute(
                        select(RatingHistoryRow)
                        .where(
                            RatingHistoryRow.player_id == player_id,
                            RatingHistoryRow.game == r.game,
                            RatingHistoryRow.family == r.family,
                        )
                        .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
                        .limit(HISTORY_MAX)
                    )
                ).scalars()
                out.append(
                    {
                        "game": r.game,
                        "family": r.family,
                        "rating": r.rating,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                        "history": [
                            {"table_id": h.table_id, "at": h.at, "rating": h.rating_after}
                            for h in reversed(list(history))
                        ],
                    }
                )
            return out
