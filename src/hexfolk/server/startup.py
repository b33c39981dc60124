"""The checks ``hexfolk serve`` makes before it migrates or starts anything, in this order: the
port can be bound (the socket is kept and handed to uvicorn), the data folder of the embedded
database is writable, another database answers. Each failure is a :class:`StartupError` whose
message is one line for the operator (no traceback). Then :func:`run_server` starts the app
(migrations, recovery) and serves; a failure of that start-up is a :class:`StartupError` too,
its traceback logged at DEBUG (``--log-level debug``)."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import tempfile
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.ext.asyncio import create_async_engine

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI

log = logging.getLogger("hexfolk.server")

DATABASE_TIMEOUT = 10.0
"""Seconds the start-up check waits for a database to answer."""


class StartupError(Exception):
    """The server cannot start; ``str()`` says why in one line."""


def _reason(exc: BaseException) -> str:
    """The first line of an exception's message (its type when it has none)."""
    words = str(exc).strip().splitlines()
    return words[0] if words else type(exc).__name__


def bind_port(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A TCP socket bound to ``host:port`` (not listening yet), as uvicorn would bind it;
    ``reuse_port``: shared with the other processes that bind it so (``SO_REUSEPORT``: the
    kernel spreads the connections over them; ``hexfolk serve --processes N``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        why = exc.strerror or _reason(exc)
        if exc.errno == errno.EADDRINUSE:
            why = "it is already in use"
        raise StartupError(f"cannot listen on {host}:{port}: {why}") from None
    sock.set_inheritable(True)
    return sock


def check_data_folder(folder: Path) -> None:
    """``folder`` exists (created if needed) and a file can be written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".hexfolk-probe-"):
            pass
    except OSError as exc:
        why = exc.strerror or _reason(exc)
        raise StartupError(f"the data folder {folder} is not writable: {why}") from None


def shown_url(url: str) -> str:
    """A database URL as printed: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        raise StartupError(f"--db is not a database URL: {url.split('@')[-1]!r}") from None


def sqlite_folder(url: str) -> Path | None:
    """The folder of an SQLite database file (None for another database or memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).expanduser().resolve().parent


def check_database(url: str, shown: str) -> None:
    """A database that is not SQLite answers ``SELECT 1`` within :data:`DATABASE_TIMEOUT`
    seconds; ``shown`` is the URL as printed (password hidden)."""

    async def probe() -> None:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    async def bounded() -> None:
        await asyncio.wait_for(probe(), DATABASE_TIMEOUT)

    try:
        asyncio.run(bounded())
    except TimeoutError:
        raise StartupError(
            f"the database {shown} did not answer within {DATABASE_TIMEOUT:g} s"
        ) from None
    except (ModuleNotFoundError, NoSuchModuleError) as exc:  # the URL names a missing driver
        raise StartupError(
            f"no driver for the database {shown}: {_reason(exc)} "
            "(PostgreSQL: postgresql+asyncpg://)"
        ) from None
    except Exception as exc:  # every driver's own error: shown in one line
        cause = exc.__cause__ or exc
        raise StartupError(f"cannot reach the database {shown}: {_reason(cause)}") from None


def run_server(app: FastAPI, server: uvicorn.Server, sock: socket.socket, announce: str) -> None:
    """Start ``app`` (its lifespan: migrations, engines, recovery), print ``announce``, serve on
    ``sock`` until stopped, then stop the app. ``server`` runs with ``lifespan="off"``: the
    start-up runs here, so that its failure, whatever it is (a migration the database refuses,
    a table that cannot be recovered), is a :class:`StartupError` of one line; the traceback
    goes to the log at DEBUG. A failure after the start is not caught here."""
    started = False

    async def main() -> None:
        nonlocal started
        async with app.router.lifespan_context(app):
            started = True
            print(announce, flush=True)
            await server.serve(sockets=[sock])

    # the app stops inside the captured signals too (as under uvicorn's own lifespan): a
    # SIGTERM is raised again only after the tables are closed
    try:
        with (
            suppress(KeyboardInterrupt),
            server.capture_signals(),
            asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner,
        ):
            runner.run(main())
    except Exception as exc:
        if started:
            raise
        raise startup_failure(exc) from None


def startup_failure(exc: BaseException) -> StartupError:
    """The one line for a failed start-up; its traceback goes to the log at DEBUG."""
    log.debug("the server could not start", exc_info=exc)
    return StartupError(
        f"the server could not start: {type(exc).__name__}: {_reason(exc)} "
        "(--log-level debug logs the traceback)"
    )
