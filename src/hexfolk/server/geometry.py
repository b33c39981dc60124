"""``GET /api/tables/{id}/geometry``: where a table's board places are drawn (for the browser).

Once the game has started it is the live state's ``State.board_geometry()`` (the board as laid
out: Driftland draws a new coastline from the seed, public once laid out); before, the kernel's
``Game.board_geometry()`` for the table's game, player count and options. Never from hidden
parts of the state: it is only places (hexes, nodes, edges, harbor slots) and, on the island,
the rules' build costs, the same for everyone and safe to cache for the table.
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
    """The board geometry of the table (``null`` when the game has none to give); 409 while a
    board drawn with the layout (Driftland) is not laid out yet."""
    room = svc.manager.rooms.get(table_id)
    row = room.row if room is not None else await svc.store.get_table(table_id)
    if row is None:
        raise not_found("table")
    try:
        game = load_game(row.game, row.players, row.options)
    except (HexfolkError, OptionError) as exc:
        raise ApiError("bad_option", str(exc), 422) from None
    if row.status != "lobby" and room is None:
        room = await svc.manager.room(table_id)
    state = room.state if room is not None else None
    geometry = state.board_geometry() if state is not None else None
    if geometry is None:
        try:
            geometry = game.board_geometry()
        except ValueError:  # the game's board is drawn with the layout (a MapError: Driftland)
            raise ApiError(
                "not_laid_out",
                "this map draws a new coastline with each game's layout: its board is known "
                "once the game has started",
                409,
            ) from None
    return {"table": row.id, "game": row.game, "geometry": geometry}
