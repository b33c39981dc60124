"""A Hexfolk server for the browser benchmarks (``web_speed.py``, ``replay_speed.py``).

``served(data, web)`` starts the server on a free port of 127.0.0.1 in a thread of its own and
yields its URL; ``web`` serves another copy of the web client at ``/app/`` (``--against``: the
pages are opened at ``/app/index.html``, so each side loads its own shell). On leaving, the
server is told to stop and its thread is waited for, so that its rooms, stores and sockets
close while the interpreter still runs: a server left running in a daemon thread was cut off
at the interpreter's exit, in the middle of a write ("cannot schedule new futures after
shutdown", "the write failed"). A server that does not stop in ``STOP_S`` is an error.

``run(coro)`` runs a coroutine to its end in a thread of its own (Playwright's sync API owns
the main thread's event loop): the benchmarks' HTTP clients set their tables up through it.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from hexfolk.server import app as server_app
from hexfolk.server.app import create_app
from hexfolk.server.config import ServerConfig

STOP_S = 30.0
"""How long a server may take to stop (its open sockets are closed first, in at most 5 s)."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(coro: Any) -> Any:
    """``asyncio.run(coro)`` in a thread of its own; its result (its exception raised here)."""
    out: list[Any] = []
    err: list[BaseException] = []

    def go() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as e:  # raised again in the caller's thread below
            err.append(e)

    th = threading.Thread(target=go)
    th.start()
    th.join()
    if err:
        raise err[0]
    return out[0]


@contextmanager
def served(
    data: Path,
    web: Path | None = None,
    configure: Callable[[ServerConfig], None] | None = None,
) -> Iterator[str]:
    """A server over the data folder ``data`` (SQLite, synchronous NORMAL) while the block
    runs: its URL. ``configure`` may change its configuration first (rates, seeded tables)."""
    port = free_port()
    cfg = ServerConfig(host="127.0.0.1", port=port, data_dir=data, sqlite_synchronous="NORMAL")
    if configure is not None:
        configure(cfg)
    saved = (server_app.WEB_DIR, server_app.INDEX)
    if web is not None:
        server_app.WEB_DIR, server_app.INDEX = web, web / "index.html"
    try:
        app = create_app(cfg)
    finally:
        server_app.WEB_DIR, server_app.INDEX = saved
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=5
        )
    )
    thread = threading.Thread(target=server.run, name=f"hexfolk-server-{port}")
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError(f"the server on port {port} stopped before it started")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(STOP_S)
        if thread.is_alive():
            raise RuntimeError(f"the server on port {port} did not stop in {STOP_S:.0f} s")
