"""The WebSocket messages, both directions (``docs/protocol.md`` shows each with an example).

Client → server: ``hello`` (first, once), ``action``, ``undo``, ``chat``, ``sync``, ``ping``.
Server → client: ``welcome``, ``table``, ``view``, ``accepted``, ``undone``, ``error``,
``chat``, ``presence``, ``pong``, ``timeout``, ``kicked``, ``rematch``, ``analysis`` (a
finished table's post-game analysis changed: :mod:`.analyses`). Parsing here never touches a
table: it only checks shapes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import orjson

from hexfolk.server.errors import ApiError
from hexfolk.server.limits import MESSAGE_MAX, WIRE_INT_MAX

PROTOCOL_VERSION = 1

CLOSE_POLICY = 1008
"""Closed for what the client did: bad messages, a flood, a stuck (too slow) reader."""
CLOSE_AUTH = 4401
"""Closed because this connection may not be here: a refused hello, a kicked person at a
table without spectators."""
CLOSE_NOT_FOUND = 4404
CLOSE_MOVED = 1012
"""(Many processes) the table moved to another server process, or the way to its owner broke:
reconnect (with ``since``) and carry on there."""
CLOSE_AGAIN = 1013
"""(Many processes) the table's owner cannot be reached right now: reconnect a little later."""


def encode(message: Any) -> str:
    """A server message as the JSON text of one frame (also what the processes of a site send
    each other through Redis): compact, UTF-8, the keys of a dict that are not strings written
    as strings as ``json.dumps`` writes them. ``orjson`` writes it: a view message (3-4 KB) in
    4-6 µs against the standard library's 43-63 µs, the largest single cost of a step in the
    server load benchmark's profile. ``tests/server/test_wire_encoding.py`` checks that it
    reads back as the standard library's text does, on the views of random games."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(frozen=True, slots=True)
class Hello:
    token: str | None
    spectate: bool
    since: int | None


@dataclass(frozen=True, slots=True)
class ActionMsg:
    text: str
    version: int
    ref: str | None


@dataclass(frozen=True, slots=True)
class UndoMsg:
    steps: int | str
    """How many of the seat's latest steps to take back (>= 1), or ``"turn"``: all of them."""
    version: int
    ref: str | None


@dataclass(frozen=True, slots=True)
class ChatMsg:
    text: str


@dataclass(frozen=True, slots=True)
class SyncMsg:
    since: int | None


@dataclass(frozen=True, slots=True)
class PingMsg:
    ref: str | None


ClientMessage = Hello | ActionMsg | UndoMsg | ChatMsg | SyncMsg | PingMsg


CHAT_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""What a chat line may not hold: control characters (U+0000..U+001F but tab and newline,
U+007F..U+009F) and lone surrogates (a JSON ``\\ud800`` escape). Refused for every database
alike (PostgreSQL cannot store U+0000)."""


def _opt_int(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= WIRE_INT_MAX:
        raise ApiError("bad_message", f"{key!r} is a whole number 0..{WIRE_INT_MAX} or null")
    return value


def _ref(data: dict[str, Any]) -> str | None:
    ref = data.get("ref")
    if ref is None:
        return None
    if not isinstance(ref, str | int) or isinstance(ref, bool) or len(str(ref)) > 64:
        raise ApiError("bad_message", "'ref' is a short text or number you choose")
    return str(ref)


def parse_client_message(raw: str | bytes | None) -> ClientMessage:
    """Decode one client frame; raise ApiError (``too_large``, ``bad_json``, ``bad_message``,
    ``unknown_type``) saying what is wrong."""
    if raw is None:
        raise ApiError("bad_message", "send text frames holding one JSON object")
    if isinstance(raw, bytes):
        if len(raw) > MESSAGE_MAX:
            raise ApiError("too_large", f"a message is at most {MESSAGE_MAX} bytes")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError("bad_json", "a message is UTF-8 JSON text") from None
    if len(raw.encode("utf-8")) > MESSAGE_MAX:
        raise ApiError("too_large", f"a message is at most {MESSAGE_MAX} bytes")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ApiError("bad_json", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ApiError("bad_json", "a message is one JSON object")
    kind = data.get("type")
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 256):
            raise ApiError("bad_message", "'token' is your player token (text) or null")
        mode = data.get("as", "seat")
        if mode not in ("seat", "spectator"):
            raise ApiError("bad_message", "'as' is 'seat' or 'spectator'")
        return Hello(token or None, mode == "spectator", _opt_int(data, "since"))
    if kind == "action":
        text = data.get("action")
        if not isinstance(text, str) or not text.strip():
            raise ApiError("bad_message", "'action' is the action text, e.g. \"roll\"")
        version = _opt_int(data, "version")
        if version is None:
            raise ApiError("bad_message", "'version' is the version of the view you acted on")
        return ActionMsg(text, version, _ref(data))
    if kind == "undo":
        steps = data.get("steps", 1)
        if steps != "turn" and (
            isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= 1000
        ):
            raise ApiError("bad_message", "'steps' is 1 (the last step) or \"turn\" (all of it)")
        version = _opt_int(data, "version")
        if version is None:
            raise ApiError("bad_message", "'version' is the version of the view you undo on")
        return UndoMsg(steps, version, _ref(data))
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str):
            raise ApiError("bad_message", "'text' is the chat message")
        bad = CHAT_FORBIDDEN.search(text)
        if bad is not None:
            raise ApiError(
                "bad_chat",
                f"a chat message holds no control character (found U+{ord(bad.group()):04X}; "
                "tab and newline are allowed)",
            )
        return ChatMsg(text)
    if kind == "sync":
        return SyncMsg(_opt_int(data, "since"))
    if kind == "ping":
        return PingMsg(_ref(data))
    known = "hello, action, undo, chat, sync, ping"
    raise ApiError("unknown_type", f"unknown message type {kind!r}; known types: {known}")


def error_message(err: ApiError, ref: str | None = None) -> dict[str, Any]:
    """``{"type": "error", "code": ..., "message": ...}`` (with the sender's ``ref``)."""
    out: dict[str, Any] = {"type": "error", **err.to_json()}
    if ref is not None:
        out["ref"] = ref
    return out
