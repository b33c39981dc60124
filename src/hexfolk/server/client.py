"""A Python client of the table server: HTTP helpers (httpx) and a table connection
(websockets). The tests, the benchmark and ``hexfolk connect`` use it.

    async with HexfolkClient("http://127.0.0.1:8000") as client:
        me = await client.create_player("Ann")
        seats = [{"kind": "host"}, {"kind": "bot", "level": "easy"}]
        table = await client.create_table(game="island", players=2, seats=seats)
        await client.start(table["id"])
        async with client.connect(table["id"]) as conn:
            view = await conn.next_view()
            await conn.act(view["legal"][0]["action"], view["version"])

It speaks only the wire protocol (``docs/protocol.md``); it imports nothing of the server.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import websockets

from hexfolk.core import LogLine


class ServerError(Exception):
    """An error answer: ``code`` and ``message`` from ``{"error": {...}}`` or an error frame."""

    def __init__(self, code: str, message: str, status: int | None = None, data: Any = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.data = data


DEFAULT_ACTION_RATE = (20, 2.0)
"""The server's default action rate (``docs/protocol.md``): what a client paces itself to when
the ``welcome`` does not say (a server older than its ``action_rate`` field)."""
PACING_MARGIN = 1.05
"""A paced client spreads its actions over 5% more time than the server's window (a frame sent
exactly one window after another may arrive a little sooner)."""


NOT_ACTION_ANSWERS = frozenset({"bad_chat", "rate_limited", "bad_json", "bad_message"})
"""Error codes that need not answer an action (chat, a malformed frame; ``rate_limited`` may
answer a chat message, and the server does not count a refused action anyway)."""


class ActionPacer:
    """Keeps a connection's actions and undos under the server's rate (``count`` per
    ``seconds``): :meth:`wait` sleeps just long enough before a send.

    The server counts an action when it receives it, which is after the client sent it and
    before the client reads its answer. So the window is measured from the answer
    (:meth:`answered`: ``accepted``, ``undone`` or an action's ``error``) once it has come, and
    from the send until then: a frame held up on its way (a busy machine) then cannot make two
    that the client spaced a window apart arrive closer than the window."""

    def __init__(self, count: int, seconds: float):
        self.count = max(1, count)
        self.seconds = seconds * PACING_MARGIN + 0.02
        self._sent: deque[float] = deque()
        self._unanswered = 0
        """How many of the newest times in ``_sent`` are still send times (no answer yet)."""

    async def wait(self) -> None:
        now = time.monotonic()
        while self._sent and now - self._sent[0] >= self.seconds:
            self._drop_oldest()
        if len(self._sent) >= self.count:
            await asyncio.sleep(self._sent[0] + self.seconds - now)
            self._drop_oldest()
        self._sent.append(time.monotonic())
        self._unanswered += 1

    def answered(self) -> None:
        """The answer to the oldest unanswered send has come: its window starts now (answers
        come in the order of the sends)."""
        if self._unanswered:
            k = len(self._sent) - self._unanswered
            self._sent[k] = time.monotonic()
            self._unanswered -= 1

    def _drop_oldest(self) -> None:
        self._sent.popleft()
        self._unanswered = min(self._unanswered, len(self._sent))


class TableConnection:
    """One WebSocket at a table. Messages arrive in :attr:`inbox`; the newest ``view`` is kept in
    :attr:`view`, the last ``table`` description in :attr:`table`."""

    def __init__(self, ws: Any):
        self.ws = ws
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.log: list[LogLine] = []
        """The seat's log so far, each line a :class:`~hexfolk.core.LogLine` again (its form
        and params as received), so a remote bot reads what an in-process bot reads."""
        self.timeouts: list[dict[str, Any]] = []
        """The time-out marks of :attr:`log` (``{"seat", "log_from", "log_to"}``, kept like the
        log: ``docs/protocol.md``, "Time-outs"); :meth:`timed_out` reads them per line."""
        self.received: list[str] = []
        """Every raw frame received (for the tests of hidden information)."""
        self.keep_raw = False
        self.closed: asyncio.Event = asyncio.Event()
        self.greeted: asyncio.Event = asyncio.Event()
        """Set on the ``welcome`` (or the refusal of the hello, kept in :attr:`refusal`)."""
        self.refusal: dict[str, Any] | None = None
        self.close_code: int | None = None
        self._reader: asyncio.Task[None] | None = None
        self.pacer = ActionPacer(*DEFAULT_ACTION_RATE)
        """Set from the ``welcome``'s ``action_rate``; with :attr:`paced`, actions and undos
        wait for it: never more than the server's rate."""
        self.paced = False
        """Pace actions and undos to the server's rate (``hexfolk connect``; the tests that
        flood the server on purpose leave it off)."""

    def start(self) -> None:
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                if self.keep_raw:
                    self.received.append(raw if isinstance(raw, str) else raw.decode())
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "view":
                    start = int(msg.get("log_start", 0))
                    lines = [LogLine.from_json(x) for x in msg.get("log", [])]
                    self.log = self.log[:start] + lines
                    kept = [m for m in self.timeouts if int(m["log_to"]) <= start]
                    self.timeouts = kept + list(msg.get("timeouts", []))
                    self.view = msg
                elif kind == "table":
                    self.table = msg.get("table")
                elif kind == "welcome":
                    self.welcome = msg
                    rate = msg.get("action_rate") or {}
                    if rate.get("count") and rate.get("seconds"):
                        self.pacer = ActionPacer(int(rate["count"]), float(rate["seconds"]))
                    self.greeted.set()
                elif kind == "error" and not self.greeted.is_set():
                    self.refusal = msg
                    self.greeted.set()
                if kind in ("accepted", "undone") or (
                    kind == "error" and msg.get("code") not in NOT_ACTION_ANSWERS
                ):
                    self.pacer.answered()
                await self.inbox.put(msg)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = getattr(self.ws, "close_code", None)
            self.closed.set()
            self.greeted.set()

    def timed_out(self, line: int) -> int | None:
        """The seat whose clock's defaults wrote log line ``line``, or None (a choice)."""
        for m in self.timeouts:
            if int(m["log_from"]) <= line < int(m["log_to"]):
                return int(m["seat"])
        return None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of any type."""
        return await asyncio.wait_for(self.inbox.get(), timeout)

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Skip messages until one of type ``kind`` arrives; an ``error`` raises when waiting
        for something else."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), max(0.001, end - loop.time()))
            if msg.get("type") == kind:
                return msg
            if msg.get("type") == "error" and kind != "error":
                raise ServerError(msg.get("code", "?"), msg.get("message", ""), data=msg)

    async def next_view(self, timeout: float = 10.0) -> dict[str, Any]:
        return await self.expect("view", timeout)

    async def wait_for(self, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Skip messages until ``predicate(view)`` holds for a view (checks the newest first)."""
        if self.view is not None and predicate(self.view):
            return self.view
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), max(0.001, end - loop.time()))
            if msg.get("type") == "view" and predicate(msg):
                return msg

    async def act(self, action: str, version: int, ref: str | None = None) -> None:
        """Send an action (answered by ``accepted`` or ``error`` with the same ``ref``); with
        :attr:`paced`, no faster than the server's action rate."""
        msg: dict[str, Any] = {"type": "action", "action": action, "version": version}
        if ref is not None:
            msg["ref"] = ref
        if self.paced:
            await self.pacer.wait()
        await self.send(msg)

    async def undo(self, steps: int | str, version: int, ref: str | None = None) -> None:
        """Take back the seat's latest steps: ``1`` (the last) or ``"turn"`` (back to the start
        of the turn); answered by ``undone`` or an ``error`` (``cannot_undo``, ``stale``...)."""
        msg: dict[str, Any] = {"type": "undo", "steps": steps, "version": version}
        if ref is not None:
            msg["ref"] = ref
        if self.paced:
            await self.pacer.wait()
        await self.send(msg)

    async def chat(self, text: str) -> None:
        await self.send({"type": "chat", "text": text})

    async def sync(self, since: int | None = None) -> None:
        await self.send({"type": "sync", "since": since})

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (TimeoutError, asyncio.CancelledError):
                self._reader.cancel()


class HexfolkClient:
    """HTTP helpers for one identity (``token``) plus :meth:`connect` for the WebSocket."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.player: dict[str, Any] | None = None
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)

    async def __aenter__(self) -> HexfolkClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """Send a request; a non-2xx answer raises :class:`ServerError`."""
        response = await self.http.request(method, path, headers=self._headers(), **kwargs)
        if response.status_code >= 400:
            try:
                err = response.json()["error"]
                raise ServerError(err["code"], err["message"], response.status_code, err)
            except (ValueError, KeyError, TypeError):
                raise ServerError("http_error", response.text, response.status_code) from None
        if response.headers.get("content-type", "").startswith("application/json"):
            return response.json()
        return response.text

    async def create_player(self, name: str) -> dict[str, Any]:
        """A new guest identity; this client then uses its token."""
        player = await self.request("POST", "/api/players", json={"name": name})
        self.token = player["token"]
        self.player = player
        return dict(player)

    async def create_table(self, **settings: Any) -> dict[str, Any]:
        return dict(await self.request("POST", "/api/tables", json=settings))

    async def table(self, table_id: str) -> dict[str, Any]:
        return dict(await self.request("GET", f"/api/tables/{table_id}"))

    async def join(self, table_id: str, seat: int | None = None) -> dict[str, Any]:
        return dict(await self.request("POST", f"/api/tables/{table_id}/join", json={"seat": seat}))

    async def leave(self, table_id: str) -> dict[str, Any]:
        return dict(await self.request("POST", f"/api/tables/{table_id}/leave"))

    async def kick(self, table_id: str, seat: int) -> dict[str, Any]:
        return dict(await self.request("POST", f"/api/tables/{table_id}/kick", json={"seat": seat}))

    async def set_seat(self, table_id: str, seat: int, kind: str, level: str | None = None) -> Any:
        body = {"kind": kind, "level": level}
        return await self.request("PUT", f"/api/tables/{table_id}/seats/{seat}", json=body)

    async def fill_bots(self, table_id: str, level: str = "medium") -> dict[str, Any]:
        path = f"/api/tables/{table_id}/fill-bots"
        return dict(await self.request("POST", path, json={"level": level}))

    async def configure(self, table_id: str, **changes: Any) -> dict[str, Any]:
        return dict(await self.request("PATCH", f"/api/tables/{table_id}", json=changes))

    async def start(self, table_id: str) -> dict[str, Any]:
        return dict(await self.request("POST", f"/api/tables/{table_id}/start"))

    async def rematch(self, table_id: str) -> dict[str, Any]:
        return dict(await self.request("POST", f"/api/tables/{table_id}/rematch"))

    async def record(self, table_id: str) -> str:
        response = await self.http.get(f"/api/tables/{table_id}/record")
        if response.status_code >= 400:
            err = response.json()["error"]
            raise ServerError(err["code"], err["message"], response.status_code)
        return response.text

    @asynccontextmanager
    async def connect(
        self,
        table_id: str,
        *,
        spectate: bool = False,
        since: int | None = None,
        keep_raw: bool = False,
        paced: bool = False,
    ) -> AsyncIterator[TableConnection]:
        """A WebSocket at the table, hello sent (with this client's token). ``keep_raw`` keeps
        every frame received in :attr:`TableConnection.received`; ``paced`` keeps its actions
        under the server's action rate (:attr:`TableConnection.paced`)."""
        url = self.base_url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        ws = await websockets.connect(url, max_size=1 << 24)
        conn = TableConnection(ws)
        conn.keep_raw = keep_raw
        conn.paced = paced
        conn.start()
        hello: dict[str, Any] = {"type": "hello", "token": self.token, "since": since}
        if spectate:
            hello["as"] = "spectator"
        await conn.send(hello)
        try:
            await asyncio.wait_for(conn.greeted.wait(), 10)
            if conn.welcome is None:
                err = conn.refusal or {}
                raise ServerError(err.get("code", "closed"), err.get("message", ""), data=err)
            yield conn
        finally:
            await conn.close()
