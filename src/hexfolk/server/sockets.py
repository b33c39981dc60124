"""The WebSocket endpoint ``/ws/tables/{id}``: hello first, then actions, undos, chat, sync,
ping.

Frames are parsed here (size, JSON, shape); everything that touches the table goes through the
room's queue. Bad messages get an error to the sender only; 20 bad messages in a row (rate-limited
ones included), or more than 40 rate-limited ones within 10 s, close the connection (code 1008);
the table goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hexfolk.server.accounts import authenticate
from hexfolk.server.errors import ApiError
from hexfolk.server.identity import hash_token
from hexfolk.server.limits import FLOOD_LIMIT, GARBAGE_LIMIT, HELLO_TIMEOUT, RateLimit
from hexfolk.server.lobby import Services
from hexfolk.server.protocol import (
    CLOSE_AUTH,
    CLOSE_MOVED,
    CLOSE_NOT_FOUND,
    CLOSE_POLICY,
    ActionMsg,
    ChatMsg,
    Hello,
    PingMsg,
    SyncMsg,
    UndoMsg,
    encode,
    error_message,
    parse_client_message,
)
from hexfolk.server.room import Connection, Room
from hexfolk.server.session_sockets import SessionSockets
from hexfolk.server.trace import TRACE

router = APIRouter()
log = logging.getLogger("hexfolk.server.sockets")


class NotUtf8Frames(logging.Filter):
    """A text frame that is not UTF-8 is bad input that uvicorn handles itself: it closes the
    socket with 1007 (RFC 6455: data inconsistent with the message type) before the frame
    reaches the endpoint, and logs an ERROR with a traceback. This filter (on the
    ``uvicorn.error`` logger) turns that record into one WARNING line with a running count."""

    UVICORN_MESSAGE = "Invalid UTF-8 sequence received from client."

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if record.msg == self.UVICORN_MESSAGE and isinstance(exc, UnicodeDecodeError):
            self.count += 1
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = "a client sent a text frame that is not UTF-8: closed (1007) (%d so far)"
            record.args = (self.count,)
            record.exc_info, record.exc_text = None, None
        return True


def watch_bad_frames() -> NotUtf8Frames:
    """Install :class:`NotUtf8Frames` once per process (every app of the process shares it)."""
    logger = logging.getLogger("uvicorn.error")
    for existing in logger.filters:
        if isinstance(existing, NotUtf8Frames):
            return existing
    made = NotUtf8Frames()
    logger.addFilter(made)
    return made


async def _send(ws: Any, message: dict[str, Any]) -> None:
    await ws.send_text(encode(message))


async def _read(ws: Any) -> str | bytes | None:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text = msg.get("text")
    return text if text is not None else msg.get("bytes")


async def _writer(ws: Any, conn: Connection) -> None:
    while True:
        message = await conn.outbox.get()
        if message is None:
            return
        await _send(ws, message)
        if TRACE.enabled:
            conn.traced_sent(message)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    svc: Services = ws.app.state.services
    await ws.accept()
    cluster = getattr(ws.app.state, "cluster", None)
    if cluster is not None:  # many processes: a table owned elsewhere is piped to its owner
        owner = await cluster.owner_for(table_id)
        if owner is not None:
            await cluster.relay.pipe(ws, table_id, owner)
            return
    await serve_socket(ws, svc, table_id)


async def serve_socket(ws: Any, svc: Services, table_id: str) -> None:
    """The table's socket after its ``accept``: hello, then the messages until it closes.
    ``ws`` is a Starlette WebSocket, or a client piped from another process
    (:class:`.relay.RemoteSocket`, with the same calls)."""
    try:
        raw = await asyncio.wait_for(_read(ws), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect):
        await _close(ws, CLOSE_POLICY, "say hello first")
        return
    try:
        hello = parse_client_message(raw)
        if not isinstance(hello, Hello):
            raise ApiError("hello_first", 'the first message is {"type": "hello", ...}')
        player = None
        session = None
        if hello.token is not None:
            session = hash_token(hello.token)
            player = (await authenticate(svc.store, hello.token)).player
        elif not hello.spectate:
            raise ApiError("no_token", 'send your token, or "as": "spectator" to watch', 401)
        room = await svc.manager.room(table_id)
        conn = await room.attach(player, hello.spectate, hello.since)
    except ApiError as err:
        await _send(ws, error_message(err))
        code = CLOSE_NOT_FOUND if err.status == 404 else CLOSE_AUTH
        if err.code == "moved":  # another process owns the table now: reconnect there
            code = CLOSE_MOVED
        await _close(ws, code, err.code)
        return
    writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
    ws.app.state.metrics.connections.inc()
    ended: SessionSockets = ws.app.state.session_sockets
    if session is not None:  # closed when its session ends (signed out, here or elsewhere)
        ended.opened(session, conn)
    log.info("table %s: connection %d opened (seat %s)", table_id, conn.id, conn.seat)
    try:
        await _serve(ws, room, conn, writer)
    finally:
        ws.app.state.metrics.connections.dec()
        if session is not None:
            ended.closed(session, conn)
        try:
            await room.detach(conn)
        except ApiError as err:  # the room stopped (moved elsewhere): nothing to tell it
            log.info(
                "table %s: connection %d left a stopped room (%s)", table_id, conn.id, err.code
            )
        writer.cancel()
        log.info("table %s: connection %d closed", table_id, conn.id)
        svc.manager.forget_if_idle(room)


BAD_CODES = frozenset(("bad_json", "bad_message", "too_large", "unknown_type", "rate_limited"))
"""Refusals that count as bad messages (:data:`GARBAGE_LIMIT` in a row close the socket)."""


async def _serve(ws: Any, room: Room, conn: Connection, writer: asyncio.Task[None]) -> None:
    bad = 0
    flood = RateLimit(*FLOOD_LIMIT)
    while not conn.closed:
        reader = asyncio.ensure_future(_read(ws))
        done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        if writer in done:  # the room closed the connection (a stuck reader, a kick)
            reader.cancel()
            await _close(ws, conn.close_code, conn.close_reason)
            return
        try:
            raw = reader.result()
        except (WebSocketDisconnect, RuntimeError):
            return
        ref = None
        received = time.perf_counter()
        try:
            msg = parse_client_message(raw)
            if TRACE.enabled:
                conn.trace_received, conn.trace_parsed = received, time.perf_counter()
                TRACE.add("parse", conn.trace_parsed - received)
            if isinstance(msg, Hello):
                raise ApiError("bad_message", "hello is sent once, first")
            if isinstance(msg, ActionMsg):
                ref = msg.ref
                await room.act(conn, msg.text, msg.version, msg.ref)
                ws.app.state.metrics.acted(time.perf_counter() - received)
            elif isinstance(msg, UndoMsg):
                ref = msg.ref
                await room.undo(conn, msg.steps, msg.version, msg.ref)
            elif isinstance(msg, ChatMsg):
                await room.chat(conn, msg.text)
            elif isinstance(msg, SyncMsg):
                await room.sync(conn, msg.since)
            elif isinstance(msg, PingMsg):
                conn.send({"type": "pong", "ref": msg.ref})
            bad = 0
        except ApiError as err:
            bad = bad + 1 if err.code in BAD_CODES else 0
            conn.send(error_message(err, ref))
            if bad >= GARBAGE_LIMIT:
                await _shut(ws, conn, writer, f"{GARBAGE_LIMIT} bad messages in a row")
                await _close(ws, CLOSE_POLICY, "too many bad messages")
                return
            if err.code == "rate_limited" and not flood.allow():
                count, seconds = FLOOD_LIMIT
                why = f"more than {count} messages refused for their rate within {seconds:g} s"
                log.warning("table %s: connection %d closed: %s", room.id, conn.id, why)
                await _shut(ws, conn, writer, why)
                await _close(ws, CLOSE_POLICY, "flooding")
                return


async def _shut(ws: Any, conn: Connection, writer: asyncio.Task[None], why: str) -> None:
    """Tell the connection why it is closed (a ``closed`` error), then let its writer finish."""
    conn.send(error_message(ApiError("closed", why)))
    conn.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer, 2)


async def _close(ws: Any, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):  # already closed by the peer
        await ws.close(code=code, reason=reason)
