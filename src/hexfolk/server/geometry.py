"""``GET /api/tables/{id}/geometry``: where a table's board places are drawn (for the browser).

Built from the kernel's ``Game.board_geometry()`` for the table's game, player count and options
only — never from its state — so it is the same for everyone and safe to cache.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hexfolk.core import HexfolkError, OptionError, load_game
from hexfolk.server.errors import ApiError, not_found
from hexfolk.server.lobby import Svc

router = APIRouter(prefix="/api")


@router.get("/tables/{table_id}/geometry", tags=["lobby"])
async def table_geometry(table_id: str, svc: Svc) -> dict[str, Any]:
    """The board geometry of the table's game (``null`` when the game has none to give)."""
    room = svc.manager.rooms.get(table_id)
    row = room.row if room is not None else await svc.store.get_table(table_id)
    if row is None:
        raise not_found("table")
    try:
        game = load_game(row.game, row.players, row.options)
    except (HexfolkError, OptionError) as exc:
        raise ApiError("bad_option", str(exc), 422) from None
    return {"table": row.id, "game": row.game, "geometry": game.board_geometry()}
