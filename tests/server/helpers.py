"""Test helpers: a real uvicorn server on 127.0.0.1 (in a thread or a subprocess)."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn

from hexfolk.server.app import create_app
from hexfolk.server.client import TableConnection
from hexfolk.server.config import ServerConfig
from hexfolk.server.models import TableRow

T = TypeVar("T")
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThreadServer:
    """uvicorn in a background thread (its own event loop)."""

    def __init__(self, config: ServerConfig):
        config.host = "127.0.0.1"
        config.port = free_port()
        self.config = config
        self.app = create_app(config)
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host="127.0.0.1",
                port=config.port,
                log_level="warning",
                access_log=False,
                ws_max_size=1 << 20,
                lifespan="on",
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{config.port}"

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.time() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.time() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    @property
    def manager(self) -> Any:
        return self.app.state.services.manager


@contextmanager
def thread_server(**kwargs: Any) -> Iterator[ThreadServer]:
    server = ThreadServer(ServerConfig(**kwargs)).start()
    try:
        yield server
    finally:
        server.stop()


def run(coro: Awaitable[T], timeout: float = 120) -> T:
    """Run a scenario with a hard time limit."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


def pg_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return True
    except OSError:
        return False


@contextmanager
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this run, dropped afterwards (asyncpg URL)."""
    import asyncpg

    name = f"hexfolk_test_{secrets.token_hex(6)}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(PG_ADMIN)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class SubprocessServer:
    """``hexfolk serve`` as a child process (for SIGKILL recovery)."""

    def __init__(self, db_url: str, data_dir: Path, extra: list[str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [
            sys.executable,
            "-m",
            "hexfolk.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--db",
            db_url,
            "--data-dir",
            str(data_dir),
            "--bot-workers",
            "1",
            *(extra or []),
        ]
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / f"server-{self.port}.log"

    def start(self) -> SubprocessServer:
        env = dict(os.environ)
        self.log = open(self.log_path, "ab")  # noqa: SIM115 - closed in kill/terminate
        self.proc = subprocess.Popen(self.args, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server subprocess did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)
        self.log.close()

    def terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


async def play_scripted(
    conn: TableConnection,
    choose: Callable[[dict[str, Any]], str],
    *,
    max_actions: int = 5000,
    timeout: float = 90,
) -> dict[str, Any]:
    """Act whenever the connection's seat may act, until the game is finished."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    acted = -1
    while loop.time() < end:
        view = conn.view
        if view is not None and view["status"] == "finished":
            return view
        if view is not None and view["legal"] and view["version"] != acted:
            acted = view["version"]
            await conn.act(choose(view), view["version"])
            max_actions -= 1
            if max_actions <= 0:
                raise AssertionError("too many actions")
        try:
            msg = await asyncio.wait_for(conn.inbox.get(), max(0.01, end - loop.time()))
        except TimeoutError:
            break
        if msg.get("type") == "error":
            if msg.get("code") not in ("stale", "not_your_turn", "not_playing"):
                raise AssertionError(f"refused: {msg}")
            acted = -1  # refused (a race): decide again on the newest view
    view = conn.view or {}
    raise AssertionError(
        f"the game did not finish in time: seat {view.get('seat')} at version "
        f"{view.get('version')}, acting {view.get('acting')}, legal {view.get('legal')}"
    )


def quick_choice(rng: Any) -> Callable[[dict[str, Any]], str]:
    """A scripted person: random, but mostly not opening trade offers (shorter games)."""

    def choose(view: dict[str, Any]) -> str:
        legal = [e["action"] for e in view["legal"]]
        calm = [a for a in legal if not a.startswith(("offer", "counter"))]
        if calm and rng.random() < 0.95:
            return str(rng.choice(calm))
        return str(rng.choice(legal))

    return choose


def lobby_row(seats: list[dict[str, Any]], status: str = "lobby") -> TableRow:
    """A 3-seat island table row hosted by player ``h`` (no server): the room parts' and
    the lobby seats' unit tests start from it."""
    return TableRow(
        id="t1",
        game="island",
        players=3,
        options={"vp_target": 10},
        clock=None,
        commit_clock=None,
        public=True,
        spectators=False,
        disconnect_policy="bot",
        grace=60.0,
        bot_delay=0.5,
        host_id="h",
        status=status,
        version=7,
        seats=seats,
    )
