"""``GET /api/ratings/{game}`` (a leaderboard) and ``GET /api/players/{id}/ratings`` (a
player's ratings with their histories): public reads (``docs/ratings.md``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from hexfolk.core import HexfolkError, game_class
from hexfolk.ratings import BOT_SKILLS, displayed, families_of, family_of
from hexfolk.ratings.families import UnratedGame
from hexfolk.server.errors import ApiError, not_found
from hexfolk.server.rated_games import RatedGames
from hexfolk.server.rating_book import LEADERBOARD_MAX, RatingBook

router = APIRouter(prefix="/api")


def _rated(request: Request) -> RatedGames:
    rated: RatedGames = request.app.state.rated
    return rated


def _book(request: Request) -> RatingBook:
    return _rated(request).book


def default_family(game: str) -> str:
    """The family a leaderboard shows when none is asked for: the game's default count's."""
    return family_of(game, game_class(game).default_players)


@router.get("/ratings/{game}", tags=["ratings"])
async def leaderboard(
    game: str,
    request: Request,
    family: Annotated[str | None, Query(description="e.g. 2p; omitted: the usual count's")] = None,
) -> dict[str, Any]:
    """The leaderboard of a game and player-count family: the best 100 accounts by displayed
    rating (``round(1000 + 40 × (μ − 3σ))``), with their rated games; the families; the
    bots' fixed ratings."""
    try:
        families = families_of(game)
        chosen = family if family is not None else default_family(game)
    except (UnratedGame, HexfolkError):
        raise not_found("rated game") from None
    if chosen not in families:
        raise ApiError(
            "bad_family",
            f"the families of {game} are {', '.join(families)}, not {chosen!r}",
            422,
            families=families,
        )
    return {
        "game": game,
        "family": chosen,
        "families": families,
        "limit": LEADERBOARD_MAX,
        "players": await _book(request).leaderboard(game, chosen),
        "bots": [
            {"level": level, "rating": displayed(skill), "mu": skill.mu, "sigma": skill.sigma}
            for level, skill in BOT_SKILLS.items()
        ],
    }


@router.get("/players/{player_id}/ratings", tags=["ratings"])
async def player_ratings(player_id: str, request: Request) -> list[dict[str, Any]]:
    """A player's ratings: one per game and family with a rated game, each ``{game, family,
    rating, mu, sigma, games, history: [{table_id, at, rating}]}`` (history oldest first, its
    latest 200 games). A guest or a player without rated games: ``[]``; an unknown id: 404."""
    book = _book(request)
    if not await book.store.players_by_id([player_id]):
        raise not_found("player")
    return await book.of_player(player_id)
