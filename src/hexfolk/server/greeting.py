"""The ``welcome`` message a new connection gets first, built in this one place
(``docs/protocol.md``, "welcome"): who it is, its seat, the version, its limits (actions,
chat), the chat's lines it may read (``chat_history``, :func:`hexfolk.server.chat.history`: the
page asks for no history) and, once the game has started, the board's places (the page draws
without asking ``GET /geometry``; in the lobby the player count may still change).
"""

from __future__ import annotations

from typing import Any

from hexfolk.server.crowd import Connection
from hexfolk.server.limits import chat_limits
from hexfolk.server.table_core import TableCore


def welcome(
    conn: Connection,
    core: TableCore,
    action_rate: tuple[int, float],
    chat_history: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``conn``'s welcome at the table of ``core`` (its version and state now), with the chat
    lines it reads (``chat_history``, :func:`hexfolk.server.chat.history`)."""
    return {
        "type": "welcome",
        "protocol": 1,
        "table": core.row.id,
        "seat": conn.seat,
        "player_id": conn.player_id,
        "name": conn.name if conn.player_id is not None else None,
        "version": core.version,
        "action_rate": {"count": action_rate[0], "seconds": action_rate[1]},
        "chat": chat_limits(),
        "chat_history": chat_history or [],
        "geometry": core.state.board_geometry() if core.state is not None else None,
    }
