"""A rated game's end (``docs/ratings.md``): the game-end hook (:mod:`.game_end`) that turns a
finished rated table into rating changes, and the lobby's rule that rated tables are for
accounts only.

Who is rated: every person seated at the end who has an account. Bots enter with their fixed
skill (:mod:`hexfolk.ratings.bot_levels`) and never change. A person seat whose last step of
the game was played by a stand-in (the person left, or was away for longer than the grace
period and did not come back before the end) *left*: it finishes last, whatever the seat
scored. The hook runs in the table's owner process only (the room that committed the end); a
table is rated once (:class:`.RatingBook`: unique per table and player).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence

from sqlalchemy import select

from hexfolk.ratings import DEFAULT, Entrant, Skill, bot_skill, family_of, placings, rate
from hexfolk.server.errors import ApiError
from hexfolk.server.models import AccountRow, EventRow, RatingHistoryRow, TableRow
from hexfolk.server.rating_book import Change, RatingBook
from hexfolk.server.seats import Seat, seats_of
from hexfolk.server.store import Store
from hexfolk.server.undo import live_events

log = logging.getLogger("hexfolk.server.ratings")

CATCH_UP_MAX = 500
"""At start, at most this many finished rated tables left unrated (a process died between a
game's end and its ratings) are rated."""


def leavers(seats: Sequence[Seat], events: Sequence[EventRow]) -> set[int]:
    """The person seats whose last step of the game was a stand-in's."""
    last: dict[int, bool] = {}
    for ev in live_events(events):
        if ev.kind == "action" and ev.seat is not None:
            last[ev.seat] = bool(ev.stand_in)
    return {i for i, s in enumerate(seats) if s.kind == "person" and last.get(i, False)}


async def accounts_among(store: Store, player_ids: Collection[str]) -> set[str]:
    """The players among ``player_ids`` who have an account (the others are guests)."""
    if not player_ids:
        return set()
    async with store.sessions() as s:
        rows = await s.execute(
            select(AccountRow.player_id).where(AccountRow.player_id.in_(list(player_ids)))
        )
        return set(rows.scalars())


def guest_refused() -> ApiError:
    """A guest asks for a seat at a rated table (403 ``account_required``)."""
    return ApiError(
        "account_required",
        "a rated table is for players with an account: claim your name with a password "
        "to sit at it, or join a casual table",
        403,
    )


def accounts_only(
    rated: Callable[[], bool], accounts: Collection[str]
) -> Callable[[Sequence[Seat]], None]:
    """A check of a lobby change's new seats: when the table is (or becomes) ``rated()``,
    every person seated has an account (in ``accounts``), or 409 ``guest_seated`` naming
    the guests' seats, nothing changed."""

    def check(seats: Sequence[Seat]) -> None:
        if not rated():
            return
        guests = [
            i for i, s in enumerate(seats) if s.kind == "person" and s.player_id not in accounts
        ]
        if guests:
            raise ApiError(
                "guest_seated",
                "a rated table is for players with an account, and a guest sits at seat(s) "
                f"{', '.join(str(i) for i in guests)}: the table stays casual",
                409,
                seats=guests,
            )

    return check


class RatedGames:
    """Rates the finished rated tables of ``book``'s store."""

    def __init__(self, book: RatingBook):
        self.book = book
        self.rated = 0
        """Tables this process rated."""

    async def finished(self, row: TableRow) -> None:
        """The game-end hook: rate ``row`` if it is a finished rated table."""
        if not row.rated or row.status != "finished" or not row.result:
            return
        await self.rate_table(row)

    async def rate_table(self, row: TableRow) -> bool:
        """Rate a finished rated table (False: already rated, or nobody to rate)."""
        seats = seats_of(row)
        people = [s.player_id for s in seats if s.kind == "person" and s.player_id]
        accounts = await accounts_among(self.book.store, people)
        if not accounts:
            return False
        left = leavers(seats, await self.book.store.events(row.id))
        places = placings(row.result or {}, left)
        family = family_of(row.game, row.players)

        def change(before: Mapping[str, Skill]) -> list[Change]:
            entrants = []
            for i, seat in enumerate(seats):
                if seat.kind == "bot":
                    entrants.append(Entrant(bot_skill(seat.level), places[i], fixed=True))
                else:  # a person without an account: an opponent of a new player's skill
                    pid = seat.player_id or ""
                    skill = before.get(pid, DEFAULT)
                    entrants.append(Entrant(skill, places[i], fixed=pid not in accounts))
            after = rate(entrants)
            return [
                Change(str(seat.player_id), places[i], i in left, entrants[i].skill, after[i])
                for i, seat in enumerate(seats)
                if seat.kind == "person" and seat.player_id in accounts
            ]

        done = await self.book.record(row.id, row.game, family, sorted(accounts), change)
        if done:
            self.rated += 1
            log.info("table %s: rated (%s %s, leavers %s)", row.id, row.game, family, sorted(left))
        return done

    async def catch_up(self) -> int:
        """Rate the finished rated tables a stopped process left unrated (at most
        :data:`CATCH_UP_MAX`, newest first); returns how many."""
        store = self.book.store
        async with store.sessions() as s:
            rated = select(RatingHistoryRow.table_id)
            rows = await s.execute(
                select(TableRow)
                .where(
                    TableRow.rated.is_(True),
                    TableRow.status == "finished",
                    TableRow.id.not_in(rated),
                )
                .order_by(TableRow.finished_at.desc())
                .limit(CATCH_UP_MAX)
            )
            tables = list(rows.scalars())
        count = 0
        for row in tables:
            try:
                count += int(await self.rate_table(row))
            except Exception:
                log.exception("table %s: could not be rated", row.id)
        return count
