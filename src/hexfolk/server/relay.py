"""The way between server processes, through Redis pub/sub (``docs/server.md``, "Many
processes"). Each process listens on one channel, ``<prefix>:proc:<process id>``.

A WebSocket that reaches a process that does not own its table is *piped*: the process (the
edge) passes its frames to the owner's channel and writes what comes back on its own channel to
the socket. The owner runs the very same socket handler (:mod:`.sockets`) on a
:class:`RemoteSocket` — hello, checks, errors, versions, rate limits and views are the owner's,
built per viewer there; only that connection's frames travel back. HTTP requests about a table
owned elsewhere travel the same way (:meth:`Relay.http`) and are answered by the owner's app.

Nothing is kept in Redis: when it (or the owner) is gone, the piped sockets are closed with 1012
and the clients reconnect (``since`` gives them exactly the events they missed).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as aioredis

from hexfolk.server.protocol import CLOSE_AGAIN, CLOSE_MOVED, encode

log = logging.getLogger("hexfolk.server.relay")

HTTP_TIMEOUT = 15.0
"""An HTTP request relayed to the owner fails (503) after this many seconds without answer."""
RETRY_SECONDS = 0.5
"""After Redis dropped the subscription, it is tried again this often."""

Message = dict[str, Any]


class RemoteSocket:
    """At the owner: a WebSocket whose client is piped from another process (``edge``). It has
    the calls the socket handler uses: ``accept``, ``receive``, ``send_text``, ``close``."""

    def __init__(self, relay: Relay, key: str, edge: str):
        self.relay, self.key, self.edge = relay, key, edge
        self.app: Any = None
        """The owner's application (the socket handler reads its state, as a WebSocket's)."""
        self.frames: asyncio.Queue[Message] = asyncio.Queue()
        self.gone = False

    async def accept(self) -> None:
        return None

    async def receive(self) -> Message:
        return await self.frames.get()

    def feed(self, msg: Message) -> None:
        if "b" in msg:
            self.frames.put_nowait(
                {"type": "websocket.receive", "bytes": base64.b64decode(msg["b"])}
            )
        else:
            self.frames.put_nowait({"type": "websocket.receive", "text": msg.get("d", "")})

    def disconnected(self, code: int = 1001) -> None:
        if not self.gone:
            self.gone = True
            self.frames.put_nowait({"type": "websocket.disconnect", "code": code})

    async def send_text(self, text: str) -> None:
        if self.gone:
            raise ConnectionError("the piped client is gone")
        if not await self.relay.publish(self.edge, {"k": "out", "c": self.key, "d": text}):
            self.disconnected()
            raise ConnectionError("the piping process is gone")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.relay.publish(
            self.edge, {"k": "close", "c": self.key, "code": code, "r": reason}
        )
        self.disconnected()


class Relay:
    """This process's side of the way between processes (``me``: its id). ``serve(socket,
    table_id)`` runs the socket handler for a piped client; ``answer(request)`` answers a
    relayed HTTP request (a dict: method, path, query, headers, body) with status, headers,
    body."""

    def __init__(
        self,
        url: str,
        prefix: str,
        me: str,
        serve: Callable[[RemoteSocket, str], Awaitable[None]],
        answer: Callable[[Message], Awaitable[Message]],
    ):
        self.url, self.prefix, self.me = url, prefix, me
        self.serve, self.answer = serve, answer
        self.client: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=5, socket_connect_timeout=2
        )
        self.remote: dict[str, RemoteSocket] = {}
        self.pipes: dict[str, tuple[str, asyncio.Queue[tuple[Any, ...]]]] = {}
        self.replies: dict[str, asyncio.Future[Message]] = {}
        self._keys = itertools.count(1)
        self._listener: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.on_push: Callable[[str, Message], object] | None = None
        """``on_push(table_id, message)``: a message for the connections of a table this process
        holds, from the process that made it (a post-game analysis's progress)."""
        self.up = asyncio.Event()
        self.outages = 0
        self.publish_failures = 0

    def channel(self, process: str) -> str:
        return f"{self.prefix}:proc:{process}"

    def start(self) -> None:
        self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.client.aclose()

    async def ping(self) -> bool:
        """Redis answers (readiness)."""
        try:
            return bool(await self.client.ping())
        except Exception:
            return False

    # --- the listener -----------------------------------------------------------------------
    async def _listen(self) -> None:
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.subscribe(self.channel(self.me))
                self.up.set()
                log.info("relay: listening on %s", self.channel(self.me))
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is not None and msg.get("type") == "message":
                        self._dispatch(orjson.loads(msg["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.up.is_set():
                    self.outages += 1
                    log.warning("relay: Redis unreachable (%s); piped sockets closed", exc)
                self.up.clear()
                self._outage()
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                try:
                    await pubsub.aclose()
                except Exception as exc:  # the connection is already broken
                    log.debug("relay: closing the subscription: %s", exc)

    def _outage(self) -> None:
        """Redis is gone: every piped socket, either side, is closed (the clients reconnect)."""
        self.close_pipes(lambda _owner: True, CLOSE_MOVED, "the way to the table's server broke")
        for sock in list(self.remote.values()):
            sock.disconnected()
        for fut in self.replies.values():
            if not fut.done():
                fut.set_exception(ConnectionError("Redis is unreachable"))

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _dispatch(self, msg: Message) -> None:
        kind, key = msg.get("k"), str(msg.get("c"))
        if kind == "open":
            sock = RemoteSocket(self, key, str(msg["from"]))
            self.remote[key] = sock
            self._spawn(self._serve(sock, str(msg["t"])))
        elif kind == "in":
            remote = self.remote.get(key)
            if remote is not None:
                remote.feed(msg)
        elif kind == "bye":
            remote = self.remote.get(key)
            if remote is not None:
                remote.disconnected(int(msg.get("code", 1001)))
        elif kind in ("out", "close"):
            pipe = self.pipes.get(key)
            if pipe is not None:
                pipe[1].put_nowait((kind, msg.get("d"), msg.get("code"), msg.get("r")))
        elif kind == "push":
            if self.on_push is not None:
                self.on_push(str(msg["t"]), dict(msg["d"]))
        elif kind == "http":
            self._spawn(self._answer(msg))
        elif kind == "http_reply":
            fut = self.replies.pop(key, None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        else:
            log.warning("relay: unknown message %r", kind)

    async def _serve(self, sock: RemoteSocket, table_id: str) -> None:
        try:
            await self.serve(sock, table_id)
        except Exception:
            log.exception("table %s: a piped connection failed", table_id)
        finally:
            self.remote.pop(sock.key, None)
            if not sock.gone:
                await sock.close(CLOSE_MOVED, "closed")

    async def _answer(self, msg: Message) -> None:
        try:
            reply = await self.answer(msg)
        except Exception:
            log.exception("relay: a relayed HTTP request failed")
            reply = {"status": 500, "headers": {}, "body": ""}
        await self.publish(str(msg["from"]), {"k": "http_reply", "c": msg["c"], **reply})

    async def publish(self, process: str, msg: Message) -> int:
        """Send ``msg`` to ``process``; how many listened (0: it is gone, or Redis is)."""
        try:
            return int(await self.client.publish(self.channel(process), encode(msg)))
        except Exception as exc:
            self.publish_failures += 1
            log.warning("relay: cannot publish to %s: %s", process, exc)
            return 0

    # --- the edge ---------------------------------------------------------------------------
    async def pipe(self, ws: Any, table_id: str, owner: str) -> None:
        """Pipe the (accepted) WebSocket ``ws`` to ``owner``, which serves ``table_id``."""
        key = f"{self.me}:{next(self._keys)}"
        inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.pipes[key] = (owner, inbox)
        try:
            opened = {"k": "open", "c": key, "from": self.me, "t": table_id}
            if not self.up.is_set() or not await self.publish(owner, opened):
                await _close(ws, CLOSE_AGAIN, "the table's server cannot be reached; try again")
                return
            reader = asyncio.ensure_future(self._pipe_in(ws, key, owner))
            writer = asyncio.ensure_future(_pipe_out(ws, inbox))
            done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
            for task in (reader, writer):
                if task not in done:
                    task.cancel()
                elif task.exception() is not None:  # the client went away while written to
                    log.info("table %s: a piped socket ended: %r", table_id, task.exception())
            if writer in done:  # the owner closed it, the way broke, the client went: tell
                await self.publish(owner, {"k": "bye", "c": key})
        finally:
            self.pipes.pop(key, None)

    async def _pipe_in(self, ws: Any, key: str, owner: str) -> None:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                await self.publish(owner, {"k": "bye", "c": key, "code": msg.get("code", 1001)})
                return
            out: Message = {"k": "in", "c": key}
            if msg.get("text") is not None:
                out["d"] = msg["text"]
            else:
                out["b"] = base64.b64encode(msg.get("bytes") or b"").decode()
            if not await self.publish(owner, out):
                await _close(ws, CLOSE_MOVED, "the table's server is gone; reconnect")
                return

    def close_pipes(self, which: Callable[[str], bool], code: int, reason: str) -> int:
        """Close the piped sockets whose owner satisfies ``which``; how many."""
        n = 0
        for owner, inbox in list(self.pipes.values()):
            if which(owner):
                inbox.put_nowait(("close", None, code, reason))
                n += 1
        return n

    def pipe_owners(self) -> set[str]:
        return {owner for owner, _ in self.pipes.values()}

    async def http(self, owner: str, request: Message) -> Message:
        """Ask ``owner`` to answer an HTTP request; its reply (status, headers, body)."""
        key = f"{self.me}:h{next(self._keys)}"
        fut: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.replies[key] = fut
        try:
            if not await self.publish(owner, {"k": "http", "c": key, "from": self.me, **request}):
                raise ConnectionError("the table's server cannot be reached")
            return await asyncio.wait_for(fut, HTTP_TIMEOUT)
        finally:
            self.replies.pop(key, None)


async def _pipe_out(ws: Any, inbox: asyncio.Queue[tuple[Any, ...]]) -> None:
    while True:
        kind, text, code, reason = await inbox.get()
        if kind == "out":
            await ws.send_text(text)
        else:
            await _close(ws, int(code or CLOSE_MOVED), str(reason or ""))
            return


async def _close(ws: Any, code: int, reason: str) -> None:
    try:
        await ws.close(code=code, reason=reason)
    except Exception as exc:  # already closed by the peer
        log.debug("relay: closing a socket: %s", exc)
