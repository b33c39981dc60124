"""Players seen by others: karma, profiles and a player's finished games (``/api/...``;
``docs/profiles.md``). Everything here is read from ``plays`` (:mod:`.plays`) and ``players``;
nothing is kept in a process.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from hexfolk.core import HexfolkError, game_class
from hexfolk.server import plays
from hexfolk.server.errors import ApiError, not_found
from hexfolk.server.karma import KARMA_GAMES, KARMA_IDS_MAX, KARMA_SHOWN_FROM, karmas
from hexfolk.server.lobby import Me, Svc
from hexfolk.server.models import AccountRow, PlayerRow, PlayRow, TableRow
from hexfolk.server.seats import seats_of

router = APIRouter(prefix="/api")

RECENT_GAMES = 10
"""A profile lists this many of the player's latest finished games."""
GAMES_PAGE = 20
"""``GET /api/me/games`` gives this many games a page."""
PLAYERS_RANGE = (2, 8)
"""The player counts the ``players`` filter takes."""


def game_json(play: PlayRow, table: TableRow) -> dict[str, Any]:
    """One finished game of a player: the table, the player's seat, whether it won and
    stayed, and who sat where (the names they had when they sat down)."""
    seats = []
    for i, seat in enumerate(seats_of(table)):
        entry: dict[str, Any] = {"seat": i, "kind": seat.kind}
        if seat.kind == "person":
            entry.update(player_id=seat.player_id, name=seat.name or "?")
        elif seat.kind == "bot":
            entry.update(level=seat.level)
        entry["won"] = i in ((table.result or {}).get("winners") or [])
        seats.append(entry)
    return {
        "table_id": play.table_id,
        "game": play.game,
        "players": play.players,
        "seat": play.seat,
        "won": play.won,
        "stayed": play.stayed,
        "started_at": play.started_at,
        "finished_at": play.finished_at,
        "turns": (table.result or {}).get("turns"),
        "seats": seats,
    }


@router.get("/players/karma", tags=["players"])
async def players_karma(
    svc: Svc, ids: Annotated[str, Query(description="player ids, comma-separated")]
) -> dict[str, Any]:
    """The karma of up to 100 players (``ids``: their ids, comma-separated): each one's
    ``karma`` (a percent, or null below ``shown_from`` started games), ``games`` counted (the
    last ``of`` at most) and ``stayed`` (finished themselves). Unknown ids get 0 games."""
    wanted = sorted({x.strip() for x in ids.split(",") if x.strip()})
    if not wanted:
        raise ApiError("bad_ids", "give one or more player ids, comma-separated", 422)
    if len(wanted) > KARMA_IDS_MAX:
        raise ApiError(
            "bad_ids", f"at most {KARMA_IDS_MAX} players at once, not {len(wanted)}", 422
        )
    async with svc.store.sessions() as s:
        found = await karmas(s, wanted)
    return {
        "karma": {pid: k.to_json() for pid, k in found.items()},
        "of": KARMA_GAMES,
        "shown_from": KARMA_SHOWN_FROM,
    }


@router.get("/players/{player_id}/profile", tags=["players"])
async def profile(player_id: str, svc: Svc) -> dict[str, Any]:
    """A player's public profile: the name, whether it is an account (its user name is never
    shown to others: it is half of a sign-in), games played and won per game, karma, and the
    latest finished games (at most 10)."""
    async with svc.store.sessions() as s:
        player = await s.get(PlayerRow, player_id)
        if player is None:
            raise not_found("player")
        account = await s.get(AccountRow, player_id)
        karma = (await karmas(s, [player_id]))[player_id]
    _, recent = await plays.games_of(svc.store, player_id, limit=RECENT_GAMES)
    return {
        "id": player.id,
        "name": player.name,
        "account": account is not None,
        "since": player.created_at,
        "karma": {**karma.to_json(), "of": KARMA_GAMES, "shown_from": KARMA_SHOWN_FROM},
        "games": await plays.per_game(svc.store, player_id),
        "recent": [game_json(p, t) for p, t in recent],
    }


def _check_game(game: str | None) -> str | None:
    if game in (None, ""):
        return None
    try:
        game_class(game)
    except HexfolkError as exc:
        raise ApiError("unknown_game", str(exc), 422) from None
    return game


@router.get("/me/games", tags=["players"])
async def my_games(
    player: Me,
    svc: Svc,
    game: str | None = None,
    result: str | None = None,
    players: str | None = None,
    page: str | None = None,
) -> dict[str, Any]:
    """Your finished games, newest first, 20 a page (``page`` from 1), filtered by ``game``
    (a game id), ``result`` (``won`` or ``lost``) and ``players`` (the player count, 2-8).
    A bad filter is refused (422 ``bad_filter``, ``unknown_game``)."""
    chosen = _check_game(game)
    won: bool | None = None
    if result not in (None, ""):
        if result not in ("won", "lost"):
            raise ApiError("bad_filter", f'result is "won" or "lost", not {result!r}', 422)
        won = result == "won"
    count = _whole(players, "players", *PLAYERS_RANGE) if players not in (None, "") else None
    number = _whole(page, "page", 1, 10**6) if page not in (None, "") else 1
    total, rows = await plays.games_of(
        svc.store,
        player.id,
        game=chosen,
        won=won,
        players=count,
        offset=(number - 1) * GAMES_PAGE,
        limit=GAMES_PAGE,
    )
    return {
        "games": [game_json(p, t) for p, t in rows],
        "total": total,
        "page": number,
        "pages": max(1, -(-total // GAMES_PAGE)),
        "per_page": GAMES_PAGE,
    }


def _whole(text: str | None, name: str, low: int, high: int) -> int:
    """A whole number ``low..high`` from a query parameter (422 ``bad_filter``)."""
    try:
        value = int(str(text))
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ApiError("bad_filter", f"{name} is a whole number {low}..{high}, not {text!r}", 422)
    return value
