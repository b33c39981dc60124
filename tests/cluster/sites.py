"""Helpers of the many-processes tests (issue 28): a site of real ``hexfolk serve``
subprocesses on one fresh PostgreSQL database and a Redis key prefix of its own, a Redis server
a test starts itself, and players that reconnect to whichever process is up."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from random import Random
from typing import Any

import asyncpg
import httpx
import pytest
import websockets

from tests.server.helpers import SubprocessServer, free_port, pg_database, pg_reachable

LEASE = 2.0
"""The tests' lease (``--lease-seconds``): a dead owner's tables move within about this."""
REDIS_BIN = "/usr/bin/redis-server"


def need_services() -> None:
    """Skip without PostgreSQL (CI unset); fail in CI."""
    if not pg_reachable():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL on 127.0.0.1:5432 is unreachable in CI")
        pytest.skip("PostgreSQL on 127.0.0.1:5432 is unreachable (CI unset)")


class OwnRedis:
    """A ``redis-server`` of the test's own on a free loopback port (no disk)."""

    def __init__(self, data_dir: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.data_dir = data_dir
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> OwnRedis:
        args = [REDIS_BIN, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--dir", str(self.data_dir)]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        import socket

        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Site:
    """Server processes sharing ``db_url`` and ``redis_url`` (prefix of this test)."""

    def __init__(self, db_url: str, redis_url: str, data_dir: Path):
        self.db_url, self.redis_url, self.data_dir = db_url, redis_url, data_dir
        self.prefix = f"hexfolk_t_{secrets.token_hex(4)}"
        self.procs: list[SubprocessServer] = []
        self.extra: list[str] = []
        """More ``hexfolk serve`` arguments of every process."""

    def _server(self) -> SubprocessServer:
        extra = ["--redis", self.redis_url, "--redis-prefix", self.prefix]
        extra += ["--lease-seconds", str(LEASE), "--testing", "--log-level", "info"]
        extra += self.extra
        return SubprocessServer(self.db_url, self.data_dir, extra)

    def add(self, n: int = 1) -> list[SubprocessServer]:
        """Start ``n`` more processes (together) and wait until each answers."""
        made = [self._server() for _ in range(n)]
        for s in made:
            s.log = open(s.log_path, "ab")  # noqa: SIM115 - closed in kill/terminate
            s.proc = subprocess.Popen(s.args, stdout=s.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        for s in made:
            assert s.proc is not None
            while True:
                if s.proc.poll() is not None:
                    raise RuntimeError(f"server exited: {s.log_path.read_text()[-3000:]}")
                try:
                    if httpx.get(s.url + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.time() > deadline:
                    raise RuntimeError("a server did not start")
                time.sleep(0.1)
        self.procs += made
        return made

    def stop(self) -> None:
        alive = [s for s in self.procs if s.proc is not None and s.proc.poll() is None]
        for s in alive:  # all at once, then each waited for
            assert s.proc is not None
            os.kill(s.proc.pid, signal.SIGCONT)
            s.proc.terminate()
        for s in self.procs:
            s.terminate()

    def urls(self) -> list[str]:
        return [s.url for s in self.procs if s.proc is not None and s.proc.poll() is None]

    def by_port(self, url: str) -> SubprocessServer:
        return next(s for s in self.procs if s.url == url)


@contextmanager
def site(
    tmp_path: Path, n: int = 3, redis_url: str | None = None, extra: list[str] | None = None
) -> Iterator[Site]:
    need_services()
    with pg_database() as db:
        s = Site(db, redis_url or "redis://127.0.0.1:6379/0", tmp_path)
        s.extra = list(extra or [])
        try:
            s.add(n)
            yield s
        finally:
            s.stop()


def pg_dsn(db_url: str) -> str:
    return db_url.replace("postgresql+asyncpg://", "postgresql://")


async def owner_port(db_url: str, table_id: str, site: Site) -> str:
    """The URL of the process that owns ``table_id`` now (by its lease and its log line)."""
    conn = await asyncpg.connect(pg_dsn(db_url))
    try:
        owner = await conn.fetchval("SELECT owner FROM leases WHERE table_id=$1", table_id)
    finally:
        await conn.close()
    for s in site.procs:
        if f"process {owner}: one of many" in s.log_path.read_text():
            return s.url
    raise AssertionError(f"no process logged the id {owner}")


async def events(db_url: str, table_id: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(pg_dsn(db_url))
    try:
        return list(
            await conn.fetch(
                "SELECT seq, kind, seat, action, bot, stand_in FROM events WHERE table_id=$1 "
                "ORDER BY seq",
                table_id,
            )
        )
    finally:
        await conn.close()


async def http(url: str, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
    """One request (retried while the table's owner is being replaced: 503 ``moved``)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for _ in range(40):
            r = await client.request(method, path, headers=headers, **kw)
            if r.status_code != 503:
                break
            await asyncio.sleep(0.25)
        assert r.status_code < 400, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()


class Player:
    """A person at a seat who reconnects (to the next process in ``urls``) whenever the socket
    closes, saying the last version seen; acts at random when the seat may act. Keeps every
    ``accepted`` (ref, version, action), its log as the views built it, and each connection's
    first view as :attr:`rejoins`."""

    def __init__(self, name: str, token: str, table: str, urls: list[str], seed: int):
        self.name, self.token, self.table, self.urls = name, token, table, list(urls)
        self.rng = Random(seed)
        self.view: dict[str, Any] | None = None
        self.log: list[Any] = []
        self.acks: list[tuple[str, int, str]] = []
        self.sent: dict[str, tuple[int, str]] = {}
        self.reconnects = 0
        self.rejoins: list[tuple[int | None, int, int, bool]] = []
        """Each connection's first view: (the version said in the hello, the log length held
        then, the view's ``log_start``, its ``log_rewritten`` flag)."""
        self.closes: list[int] = []
        self.errors: list[dict[str, Any]] = []
        self.paused = False
        self.stop = False
        self.reconnect = True
        """False: :meth:`run` returns when the socket closes instead of reconnecting."""
        self.spectate = False
        """Watch the public view (the hello's ``"as": "spectator"``)."""
        self.deaf = False
        """Drop what arrives, as frames lost on a broken network (the version stays behind)."""
        self.ws: Any = None
        self._n = 0

    @property
    def version(self) -> int | None:
        return None if self.view is None else int(self.view["version"])

    async def run(self, until: Any) -> None:
        """Play until ``until(self)`` is true (or :attr:`stop`)."""
        i = 0
        while not self.stop and not until(self):
            url = self.urls[i % len(self.urls)].replace("http://", "ws://")
            try:
                async with websockets.connect(f"{url}/ws/tables/{self.table}") as ws:
                    self.ws = ws
                    hello = {"type": "hello", "token": self.token, "since": self.version}
                    if self.spectate:
                        hello["as"] = "spectator"
                    await ws.send(json.dumps(hello))
                    await self._talk(ws, until, self.version)
                    if until(self) or self.stop:
                        return
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake) as exc:
                # InvalidHandshake: refused (InvalidStatus) or cut off mid-handshake by a
                # process that is stopping (InvalidMessage); a browser tries again too
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                self.closes.append(int(code) if code else -1)
            self.ws = None
            if not self.reconnect:
                return
            self.reconnects += 1
            i += 1
            await asyncio.sleep(0.1)

    async def _talk(self, ws: Any, until: Any, since: int | None) -> None:
        acted = -1
        first = True
        while not self.stop and not until(self):
            v = self.view
            if (
                v is not None
                and not self.paused
                and v["status"] == "playing"
                and v["legal"]
                and v["version"] != acted
            ):
                acted = v["version"]
                legal = [e["action"] for e in v["legal"]]
                calm = [a for a in legal if not a.startswith(("offer", "counter"))] or legal
                action = str(self.rng.choice(calm))
                self._n += 1
                ref = f"{self.name}-{self._n}"
                self.sent[ref] = (int(v["version"]), action)
                msg = {"type": "action", "action": action, "version": v["version"], "ref": ref}
                await ws.send(json.dumps(msg))
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            if self.deaf:
                continue
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "view":
                start = int(msg.get("log_start", 0))
                if first:
                    flag = bool(msg.get("log_rewritten", False))
                    self.rejoins.append((since, len(self.log), start, flag))
                    first = False
                self.log = self.log[:start] + list(msg.get("log", []))
                self.view = msg
            elif kind == "accepted":
                self.acks.append((msg["ref"], int(msg["version"]), msg["action"]))
            elif kind == "error":
                self.errors.append(msg)
                acted = -1


def check_log(evs: list[asyncpg.Record], players: list[Player]) -> None:
    """Every acknowledged action is in the log exactly once, at the seat's own step: each
    ``accepted`` names a distinct action event of its text after the version it was sent at
    and at most the version it acknowledges (issue 28, point 4); events numbered 1, 2, ...
    without a gap; no more people's actions in the log than were sent."""
    assert [e["seq"] for e in evs] == list(range(1, len(evs) + 1)), "the event log has a gap"
    used: set[int] = set()
    for p in players:
        for ref, version, action in p.acks:
            sent_at, sent = p.sent[ref]
            assert sent == action
            match = [
                e["seq"]
                for e in evs
                if e["kind"] == "action"
                and e["action"] == action
                and sent_at < e["seq"] <= version
                and not e["bot"]
                and e["seq"] not in used
            ]
            assert match, f"acknowledged {ref} ({action} at {sent_at}) is not in the log"
            used.add(match[0])
    people = [e for e in evs if e["kind"] == "action" and not e["bot"] and not e["stand_in"]]
    unacked = sum(len(p.sent) - len(p.acks) for p in players)
    assert len(people) - len(used) <= unacked, "an action is in the log more often than sent"
