"""Table chat: its two channels, the checks of a line, and the message every reader gets.

While a table is in its lobby or playing, the people holding a seat (from any of their
connections) write and read the ``players`` channel, everyone else the ``spectators`` channel;
after the end everyone reads both (``docs/server.md``, "Chat"). A players' line is stored with
its seat, a spectators' line without one. :func:`add_line` checks, stores and sends a line (in
the room's task); a new connection's ``welcome`` carries the lines it may read (:func:`history`,
so that opening a table costs no request for them), and ``GET /api/tables/{id}/chat`` reads them
back in the same form (:mod:`hexfolk.server.lobby`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexfolk.server.crowd import Connection, Crowd
from hexfolk.server.errors import ApiError
from hexfolk.server.limits import CHAT_MAX, CHAT_RATE, RateLimit
from hexfolk.server.models import ChatRow, TableRow
from hexfolk.server.seats import seats_of
from hexfolk.server.store import Store

LIVE = ("lobby", "playing")
"""The statuses of a table still going on (its channels are apart)."""


def channel_of(seat: int | None) -> str:
    """The channel of a stored chat line: a line written with a seat is the players'."""
    return "players" if seat is not None else "spectators"


def everyone_reads(status: str) -> bool:
    """After the end (finished or errored) everyone reads both channels."""
    return status not in LIVE


def checked_line(player_id: str | None, text: str, rate: RateLimit) -> str:
    """The line to store (trimmed), or a refusal (nothing stored)."""
    if player_id is None:
        raise ApiError("not_identified", "say hello with your player token to chat")
    body = text.strip()
    if not body:
        raise ApiError("bad_chat", "a chat message is not empty")
    if len(body) > CHAT_MAX:
        raise ApiError("bad_chat", f"a chat message has at most {CHAT_MAX} characters")
    if not rate.allow():
        n, secs = CHAT_RATE
        raise ApiError("rate_limited", f"at most {n} chat messages per {secs:g} s")
    return body


def line_json(row: ChatRow) -> dict[str, Any]:
    """A stored line as readers get it (the ``chat`` message without its ``type``)."""
    return {
        "id": row.id,
        "name": row.name,
        "player_id": row.player_id,
        "seat": row.seat,
        "channel": channel_of(row.seat),
        "text": row.text,
        "at": row.at,
    }


def send_line(
    crowd: Crowd, row: ChatRow, status: str, seat_of: Callable[[str | None], int | None]
) -> None:
    """Send a stored line to the connections that read its channel (``seat_of``: a player's
    seat at the table, from any of their connections)."""
    msg = {"type": "chat", **line_json(row)}
    everyone = everyone_reads(status)
    for conn in crowd:
        if everyone or channel_of(seat_of(conn.player_id)) == msg["channel"]:
            conn.send(msg)


async def add_line(
    store: Store,
    row: TableRow,
    crowd: Crowd,
    seat_of: Callable[[str | None], int | None],
    conn: Connection,
    text: str,
) -> None:
    """``conn``'s line ``text``: checked (:func:`checked_line`), stored with the writer's seat
    (``seat_of``: a player's seat at the table), sent to its channel (:func:`send_line`)."""
    body = checked_line(conn.player_id, text, conn.chats)
    assert conn.player_id is not None
    seat = seat_of(conn.player_id)  # a players' line is stored with its seat
    line = await store.add_chat(row.id, conn.player_id, conn.name, seat, body)
    send_line(crowd, line, row.status, seat_of)


async def history(store: Store, row: TableRow, player_id: str | None) -> list[dict[str, Any]]:
    """The last 200 stored lines that ``player_id`` reads at ``row``'s table, oldest first (the
    rule of ``GET /api/tables/{id}/chat``: while the table goes on, a seated player reads the
    players' channel and anyone else the spectators'; after the end, both). A watcher without a
    name gets none: it cannot chat, and ``GET /chat`` wants a player too."""
    if player_id is None:
        return []
    seated = any(s.held_by(player_id) for s in seats_of(row))
    rows = await store.chat(row.id, players=seated if row.status in LIVE else None)
    return [line_json(c) for c in rows]
