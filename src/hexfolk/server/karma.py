"""Karma: the share of a player's last :data:`KARMA_GAMES` started games that they finished
themselves (``docs/profiles.md``, "Karma"). The one formula lives here.

A *started game* of a player is a finished table whose game reached ``playing`` with the player
seated as a person (one row of ``plays``, :mod:`hexfolk.server.plays`). Seats are fixed once a
game starts (nobody leaves or is moved out mid-game: :func:`.seats.require_lobby`), so the only
way a person does not finish a game is to go away: under disconnect policy ``bot`` a stand-in
bot takes the seat once the grace period runs out, and plays it until the person returns
(:mod:`hexfolk.server.crowd`). The person *stayed* (:func:`stayed`) unless the seat's last
step of the game was played by a stand-in (the event's ``stand_in`` flag): a person who came
back and played on counts as staying; one whose seat a stand-in played to the end does not.

Karma is a whole percent, shown once a player has :data:`KARMA_SHOWN_FROM` started games
(fewer say too little: None). It is computed by one indexed query per request
(``ix_plays_player``), never cached in a process: every process answers the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from hexfolk.server.errors import ApiError
from hexfolk.server.models import PlayRow
from hexfolk.server.store import Store

KARMA_GAMES = 20
"""Karma counts a player's last this many started games."""
KARMA_SHOWN_FROM = 5
"""Karma is shown (and counts for a table's minimum) from this many started games."""
MIN_KARMA_RANGE = (1, 100)
"""A table's least karma (percent) is one of these, or none."""
KARMA_IDS_MAX = 100
"""``GET /api/players/karma`` answers for at most this many players at once."""


@dataclass(frozen=True, slots=True)
class Karma:
    """A player's karma: ``percent`` (None below :data:`KARMA_SHOWN_FROM` games), from
    ``games`` started games (at most :data:`KARMA_GAMES`), ``stayed`` of them to the end."""

    games: int
    stayed: int

    @property
    def percent(self) -> int | None:
        if self.games < KARMA_SHOWN_FROM:
            return None
        return round(100 * self.stayed / self.games)

    def to_json(self) -> dict[str, Any]:
        return {"karma": self.percent, "games": self.games, "stayed": self.stayed}


class SeatStep(Protocol):
    """What :func:`stayed` reads of an event (an :class:`EventRow`, or a row of those columns)."""

    kind: str
    seat: int | None
    stand_in: bool


def stayed(seat: int, events: Iterable[SeatStep]) -> bool:
    """Did the person of ``seat`` finish the game themselves: was the seat's last step not
    played by a stand-in? (A seat that never acted stayed.)"""
    last = None
    for ev in events:
        if ev.kind == "action" and ev.seat == seat:
            last = ev
    return last is None or not last.stand_in


def karma_of(stays: Sequence[bool]) -> Karma:
    """The karma of the started games ``stays`` (newest first; only the first
    :data:`KARMA_GAMES` count)."""
    counted = stays[:KARMA_GAMES]
    return Karma(len(counted), sum(counted))


async def karmas(session: AsyncSession, player_ids: Sequence[str]) -> dict[str, Karma]:
    """Each player's karma (every id given gets one; no games: 0 of 0), in one query: the last
    :data:`KARMA_GAMES` plays of each player, each read by the index ``ix_plays_player``
    (``benchmarks/karma_query.py``)."""
    wanted = list(dict.fromkeys(player_ids))
    if not wanted:
        return {}
    stays: dict[str, list[bool]] = {pid: [] for pid in wanted}
    for start in range(0, len(wanted), KARMA_IDS_MAX):
        parts = [
            select(PlayRow.player_id, PlayRow.stayed)
            .where(PlayRow.player_id == pid)
            .order_by(PlayRow.started_at.desc())
            .limit(KARMA_GAMES)
            .subquery()
            .select()
            for pid in wanted[start : start + KARMA_IDS_MAX]
        ]
        rows = await session.execute(union_all(*parts) if len(parts) > 1 else parts[0])
        for pid, stay in rows:
            stays[pid].append(bool(stay))
    return {pid: karma_of(s) for pid, s in stays.items()}


def require_karma(karma: Karma, minimum: int | None) -> None:
    """A person may sit at a table of least karma ``minimum`` (None: anyone): 409
    ``karma_unknown`` below :data:`KARMA_SHOWN_FROM` started games, ``karma_too_low`` under it."""
    if minimum is None:
        return
    if karma.percent is None:
        raise ApiError(
            "karma_unknown",
            f"this table asks for a karma of at least {minimum}%; a karma shows after "
            f"{KARMA_SHOWN_FROM} started games and you have {karma.games}",
            409,
            required=minimum,
            games=karma.games,
            shown_from=KARMA_SHOWN_FROM,
        )
    if karma.percent < minimum:
        raise ApiError(
            "karma_too_low",
            f"this table asks for a karma of at least {minimum}%; yours is {karma.percent}%",
            409,
            required=minimum,
            karma=karma.percent,
        )


async def with_karma(store: Store, table: dict[str, Any]) -> dict[str, Any]:
    """A table's description (``GET /api/tables/{id}``) with each person seat's ``karma``
    (:meth:`Karma.to_json`): the table page shows it without a request of its own."""
    people = [s["player_id"] for s in table.get("seats", []) if s.get("player_id")]
    if people:
        async with store.sessions() as s:
            found = await karmas(s, people)
        for seat in table["seats"]:
            if seat.get("player_id") in found:
                seat["karma"] = found[seat["player_id"]].to_json()
    return table


async def require_karma_of(store: Store, player_id: str, minimum: int | None) -> None:
    """:func:`require_karma` for ``player_id``'s karma (no query without a minimum)."""
    if minimum is None:
        return
    async with store.sessions() as s:
        karma = (await karmas(s, [player_id]))[player_id]
    require_karma(karma, minimum)


def check_min_karma(value: int | None) -> int | None:
    """A table's least karma: 1..100 (%), or None (0 too: no minimum); else 422 ``bad_karma``."""
    if value is None or value == 0:
        return None
    low, high = MIN_KARMA_RANGE
    if not low <= value <= high:
        raise ApiError(
            "bad_karma", f"the least karma is {low}..{high} (%), or none; not {value}", 422
        )
    return value
