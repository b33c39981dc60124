"""Load test of the table server on loopback: N concurrent tables, each with one scripted
person (seat 0, over a real WebSocket) and random bots, for a bounded time.

Prints actions/s (every committed step, and the person's actions), the p50/p99 time from
sending an action to receiving the new version, the server's memory per table, and whether any
acknowledged action is missing from the event log. The latency is printed three ways: over the
whole run; *held*, of the actions sent after the first ``--warmup`` seconds (default 10: every
table is created and says hello in the first seconds, a burst that is not the load the tables
are held at); and the p99 per 5 s of the run, which shows that burst and anything periodic.

The load client is this script alone: plain HTTP calls (one ``httpx`` client for every table)
and a lean WebSocket reader (:class:`LoadConnection`) that stamps each frame on arrival, before
parsing it, on ``uvloop`` with ``orjson`` (both installed with the server): the client shares
the machine's cores with the servers, so its own CPU is kept small. It imports nothing of
``hexfolk``, so ``before_after.py`` (which runs this script
with each tree's ``src``) measures both trees' servers with the same client: with the tree's
own ``hexfolk.server.client`` the after tree's client also rebuilt every log line it received
(``LogLine.from_json``) before the latency was taken.

    .venv/bin/python benchmarks/server_load.py --tables 200 --seconds 60

The server runs as a child process (``hexfolk serve``) on 127.0.0.1 with a temporary SQLite
database (or ``--db URL``); traffic goes to loopback only, bounded by ``--tables`` (at most
500) and ``--seconds`` (at most 600).

``--trace`` switches on the server's latency trace (:mod:`hexfolk.server.trace`): per stage
of a person's action (parse, queue, apply, commit, views, send, total), the group-commit
transactions, the event loop's lag and its slowest callbacks, printed at the end.

``--json`` prints, after the text, the figures unrounded as one JSON line (what
``before_after.py`` reads).

``--think S`` makes the person wait 0..2S seconds before each action (default 0: every view
answered at once, the load ``docs/server.md``'s tables are held at) and ``--ramp S`` creates
the tables over S seconds instead of all at once.

``--processes N`` (1..8) runs N server processes on PostgreSQL and Redis instead (issue 28):
a database of its own for the run (``hexfolk_load_<random>`` on ``--pg``, dropped after) and a
Redis key prefix of its own (when the server has ``--redis``), each process on its own
loopback port; table ``i`` is created at process ``i mod N`` and, with ``--connect creator``
(the default), its person connects there too (``--connect any``: to the next process, its
actions relayed through Redis to the owner). It adds the servers' CPU and memory summed over
the processes, and the load client's own CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
import websockets

GAME_OPTIONS: dict[str, dict[str, Any]] = {"island": {"vp_target": 8}, "scythe": {}}
GAMES = list(GAME_OPTIONS.items())
BOT_DELAY = 0.0
"""Set by ``--bot-delay``: 0 makes bots answer at once (the server saturates)."""
RAMP = 0.0
"""Set by ``--ramp``: the tables are created over this many seconds, table ``i`` of ``T`` at
``i * RAMP / T`` (0: all at once, a burst no site sees)."""
RETRIED = 0
"""HTTP requests sent again (:data:`HTTP_TRIES`)."""
TABLES = 1
"""The run's table count (``--tables``), for :data:`RAMP`."""
THINK = 0.0
"""Set by ``--think``: the person's mean time to decide, in seconds (each wait drawn evenly
from 0 to twice it). 0, the default, is a person who answers each view at once: the load the
figures of ``docs/server.md`` are held at, far above a table of people."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


WINDOW = 5.0
"""The latency's p99 is also printed per window of this many seconds of the run."""


def percentiles(lat: list[float]) -> tuple[float, float, float]:
    """p50, p95 and p99 in ms of sorted latencies in seconds (NaN when there are none)."""
    if not lat:
        return float("nan"), float("nan"), float("nan")
    at = lambda q: lat[min(len(lat) - 1, int(len(lat) * q))] * 1000  # noqa: E731
    return statistics.median(lat) * 1000, at(0.95), at(0.99)


class Stats:
    def __init__(self) -> None:
        self.started = time.perf_counter()
        """When the run began (the tables' creation)."""
        self.latencies: list[float] = []
        self.sent: list[float] = []
        """When each latency's action was sent (``perf_counter``), beside :attr:`latencies`."""
        self.acked: list[tuple[str, int, str]] = []
        self.refused = 0
        self.refused_codes: dict[str, int] = {}
        self.finished = 0
        self.reconnects = 0
        """Sockets the server closed mid-game (a table moved, a process stopping), reopened."""
        self.errors: list[str] = []


class LoadConnection:
    """A lean WebSocket at a table, this script's own: the same client code measures either
    tree's server (``before_after.py`` runs this script with each tree's ``src``, so a tree's
    own :class:`~hexfolk.server.client.TableConnection` would make its client's work part of
    its latency). Frames are read by the playing task itself, each stamped when it is
    received, before it is parsed: the latency of a view is its arrival, not the end of this
    client's parsing (decoding JSON, rebuilding log lines) or of a reader task's queue."""

    def __init__(self, ws: Any):
        self.ws = ws

    @classmethod
    async def open(cls, base_url: str, table_id: str, token: str | None) -> LoadConnection:
        url = base_url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        conn = cls(await websockets.connect(url, max_size=1 << 24))
        await conn.ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        while True:
            _, msg = await conn.recv(10.0)
            if msg.get("type") == "welcome":
                return conn
            if msg.get("type") == "error":
                await conn.close()
                raise RuntimeError(f"hello refused: {msg.get('code')}: {msg.get('message')}")

    async def recv(self, timeout: float) -> tuple[float, dict[str, Any]]:
        """The next message and the ``perf_counter()`` of its arrival (before parsing)."""
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        arrived = time.perf_counter()
        return arrived, orjson.loads(raw)

    async def act(self, action: str, version: int) -> None:
        await self.ws.send(json.dumps({"type": "action", "action": action, "version": version}))

    async def close(self) -> None:
        await self.ws.close()


HTTP_TRIES = 3
"""A request whose connection broke (``httpx.TransportError``: a kept-alive connection the
server had just closed, under load) is sent again, at most this many times in all."""


async def call(http: httpx.AsyncClient, path: str, token: str | None, body: Any = None) -> Any:
    """POST ``body`` to the server's API as ``token``; an error answer raises."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for attempt in range(HTTP_TRIES):
        try:
            response = await http.post(path, json=body, headers=headers)
            break
        except httpx.TransportError:
            if attempt == HTTP_TRIES - 1:
                raise
            global RETRIED
            RETRIED += 1
            await asyncio.sleep(0.2)
    if response.status_code >= 400:
        raise RuntimeError(f"POST {path}: {response.status_code} {response.text[:200]}")
    return response.json()


async def table_worker(
    http: httpx.AsyncClient,
    url: str,
    ws_url: str,
    index: int,
    stats: Stats,
    end: float,
    rng: random.Random,
    tables: list[str],
) -> None:
    """Keep one table busy: create, start, play seat 0 until the end of time; repeat."""
    game, options = GAMES[index % len(GAMES)]
    loop = asyncio.get_running_loop()
    try:
        if RAMP > 0:
            await asyncio.sleep(index * RAMP / TABLES)
        token = (await call(http, "/api/players", None, {"name": f"load{index}"}))["token"]
        while loop.time() < end:
            settings = {
                "game": game,
                "players": 2,
                "options": options,
                "clock": None,
                "bot_delay": BOT_DELAY,
                "disconnect": {"policy": "wait", "grace": 60},
                "seats": [{"kind": "host"}, {"kind": "bot", "level": "random"}],
            }
            t = await call(http, "/api/tables", token, settings)
            tables.append(t["id"])
            await call(http, f"/api/tables/{t['id']}/start", token)
            while loop.time() < end:
                try:
                    conn = await LoadConnection.open(ws_url, t["id"], token)
                except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError):
                    # closed during the hello (1012: the table is moving; 1013: its owner
                    # cannot be reached yet) or refused: try again, as a browser does
                    stats.reconnects += 1
                    await asyncio.sleep(0.2)
                    continue
                try:
                    how = await play(conn, t["id"], stats, end, rng)
                finally:
                    await conn.close()
                if how == "finished":
                    stats.finished += 1
                if how != "closed":
                    break
                # the server closed the socket (1012: the table moved to another process,
                # or the process is stopping): connect again, as a browser does
                stats.reconnects += 1
                await asyncio.sleep(0.1)
    except Exception as exc:  # reported, not raised: one table's trouble is a figure
        stats.errors.append(f"table worker {index}: {type(exc).__name__}: {exc}")


async def play(
    conn: LoadConnection, table_id: str, stats: Stats, end: float, rng: random.Random
) -> str:
    """Play seat 0 with random legal actions (mostly not trade offers) until the game ends
    (``"finished"``), the time is up (``"time"``) or the server closes the socket
    (``"closed"``). An action's latency runs from its send to the arrival of the first view
    of a newer version."""
    loop = asyncio.get_running_loop()
    sent_at: float | None = None
    sent_version = -1
    view: dict[str, Any] | None = None
    while loop.time() < end:
        if view is not None:
            if view["status"] == "finished":
                return "finished"
            if sent_at is None and view["legal"] and view["version"] != sent_version:
                if THINK > 0:  # a person reads the view before deciding
                    await asyncio.sleep(min(rng.uniform(0, 2 * THINK), max(0.0, end - loop.time())))
                    if loop.time() >= end:
                        return "time"
                legal = [e["action"] for e in view["legal"]]
                calm = [a for a in legal if not a.startswith(("offer", "counter"))]
                action = rng.choice(calm if calm and rng.random() < 0.95 else legal)
                sent_version = view["version"]
                sent_at = time.perf_counter()
                await conn.act(action, sent_version)
        try:
            arrived, msg = await conn.recv(max(0.01, end - loop.time()))
        except TimeoutError:
            return "time"
        except websockets.ConnectionClosed:
            return "time" if loop.time() >= end else "closed"
        kind = msg.get("type")
        if kind == "view":
            view = msg
            if sent_at is not None and msg["version"] > sent_version:
                stats.latencies.append(arrived - sent_at)
                stats.sent.append(sent_at)
                sent_at = None
        elif kind == "accepted":
            stats.acked.append((table_id, int(msg["version"]), str(msg["action"])))
        elif kind == "error":
            stats.refused += 1
            code = str(msg.get("code"))
            stats.refused_codes[code] = stats.refused_codes.get(code, 0) + 1
            sent_at = None
            sent_version = -1
    return "time"


def sqlite_events(db: Path) -> list[tuple[str, int, str]]:
    """The person's events (seat 0) of an SQLite run: (table, seq, action)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT table_id, seq, seat, action FROM events WHERE seat = 0")
        return [(t, seq, a) for t, seq, _seat, a in rows]


def lost_actions(events: list[tuple[str, int, str]], acked: list[tuple[str, int, str]]) -> int:
    have = set(events)
    # an action is acknowledged with the version after its step and the chance steps it
    # triggered, so look for it at or before that version
    by_table: dict[str, set[tuple[int, str]]] = {}
    for t, seq, a in have:
        by_table.setdefault(t, set()).add((seq, a))
    lost = 0
    for table, version, text in acked:
        if not any(seq <= version and a == text for seq, a in by_table.get(table, ())):
            lost += 1
    return lost


async def drive(
    urls: list[str], tables: int, seconds: float, pids: list[int], connect_any: bool = False
) -> tuple[Stats, float, int, float]:
    """Keep ``tables`` tables busy for ``seconds``: table ``i`` at ``urls[i % N]`` (its
    person's WebSocket at the next process with ``connect_any``). Returns the stats, the
    time taken, the peak summed RSS of ``pids`` (KiB) and their CPU seconds."""
    stats = Stats()
    rng = random.Random(1)
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    cpu0 = sum(cpu_seconds(p) for p in pids)
    end = loop.time() + seconds
    ids: list[str] = []
    # one HTTP client per process for every table (an httpx client costs ~40 ms of CPU for
    # its TLS context: 200 of them took seconds of a loaded machine before the first step)
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    clients = [httpx.AsyncClient(base_url=u, timeout=60.0, limits=limits) for u in urls]
    try:
        n = len(urls)
        workers = [
            asyncio.create_task(
                table_worker(
                    clients[i % n],
                    urls[i % n],
                    urls[(i + 1) % n] if connect_any else urls[i % n],
                    i,
                    stats,
                    end,
                    random.Random(rng.random()),
                    ids,
                )
            )
            for i in range(tables)
        ]
        peak = 0
        while not all(w.done() for w in workers):
            await asyncio.sleep(1.0)
            peak = max(peak, sum(rss_kib(p) for p in pids))
        await asyncio.gather(*workers)
    finally:
        for client in clients:
            await client.aclose()
    return stats, time.perf_counter() - started, peak, sum(cpu_seconds(p) for p in pids) - cpu0


PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
"""Where ``--processes`` creates the run's database (``--pg``)."""
REDIS = "redis://127.0.0.1:6379/0"
"""The Redis of ``--processes`` (``--redis``); the run uses a key prefix of its own."""


async def _pg_admin(admin: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _pg_events(url: str) -> tuple[list[tuple[str, int, str]], int]:
    """The person's events (seat 0) and the number of every committed step."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT table_id, seq, action FROM events WHERE seat = 0")
        steps = await conn.fetchval("SELECT COUNT(*) FROM events")
    finally:
        await conn.close()
    return [(r["table_id"], r["seq"], r["action"]) for r in rows], int(steps)


def serves_redis() -> bool:
    """Whether this tree's ``hexfolk serve`` has ``--redis`` (table ownership, issue 28)."""
    out = subprocess.run(
        [sys.executable, "-m", "hexfolk.cli.main", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    return "--redis-prefix" in out


def start_server(
    port: int, db_url: str, extra: list[str], log_path: Path, env: dict[str, str]
) -> subprocess.Popen[bytes]:
    """``hexfolk serve`` on 127.0.0.1:``port``, answering ``/healthz`` (60 s at most)."""
    cmd = [
        *(sys.executable, "-m", "hexfolk.cli.main", "serve", "--port", str(port)),
        *("--db", db_url, "--action-rate", "100000/1", "--log-level", "warning", *extra),
    ]
    log = open(log_path, "wb")  # noqa: SIM115 - the child holds it; closed with the run
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        if time.time() > deadline or server.poll() is not None:
            server.kill()
            raise SystemExit("the server did not start; see " + str(log_path))
        time.sleep(0.2)


def stop_servers(servers: list[subprocess.Popen[bytes]]) -> None:
    for server in servers:
        if server.poll() is None:
            server.terminate()
    for server in servers:
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (max 1000)")
    parser.add_argument("--seconds", type=float, default=60, help="duration (max 600)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="seconds at the start left out of the held latency (the tables' creation)",
    )
    parser.add_argument("--db", default=None, help="database URL (default: temporary SQLite)")
    parser.add_argument("--sqlite-synchronous", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, help="the tables' bot delay (0..5 s, default 0.8)"
    )
    parser.add_argument(
        "--games", default="island,scythe", help="games the tables play, in turn (island,scythe)"
    )
    parser.add_argument(
        "--trace", action="store_true", help="print the server's latency trace per stage"
    )
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="create the tables over this many seconds (0..60, default 0: all at once)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="the person's mean time to decide (0..10 s, default 0: answers every view at once)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=None,
        help="N server processes (1..8) on PostgreSQL and Redis (a database and prefix of "
        "the run's own) instead of one on SQLite",
    )
    parser.add_argument("--pg", default=PG_ADMIN, help="PostgreSQL admin URL (--processes)")
    parser.add_argument("--redis", default=REDIS, help="Redis URL (--processes)")
    parser.add_argument(
        "--connect",
        default="creator",
        choices=["creator", "any"],
        help="--processes: a table's person connects to the process that created it, or to "
        "the next one (relayed to the owner through Redis)",
    )
    args = parser.parse_args()
    global BOT_DELAY, GAMES, THINK, RAMP, TABLES
    GAMES = [(g, GAME_OPTIONS[g]) for g in args.games.split(",") if g in GAME_OPTIONS] or GAMES
    BOT_DELAY = max(0.0, min(args.bot_delay, 5.0))
    THINK = max(0.0, min(args.think, 10.0))
    RAMP = max(0.0, min(args.ramp, 60.0))
    tables = max(1, min(args.tables, 1000 if args.processes else 500))
    TABLES = tables
    tmp = Path(tempfile.mkdtemp(prefix="hexfolk-load-"))
    db = tmp / "load.sqlite"
    env = dict(os.environ)
    trace_path = tmp / "trace.json"
    if args.trace:
        env["HEXFOLK_TRACE"] = str(trace_path)
        env.setdefault("HEXFOLK_PROFILE", str(tmp / "loop.prof"))
    multi = args.processes is not None
    count = max(1, min(args.processes or 1, 8))
    routing = ""
    pg_name = f"hexfolk_load_{random.SystemRandom().getrandbits(48):012x}"
    if multi:
        db_url = f"postgresql+asyncpg://{args.pg.split('://', 1)[1].rsplit('/', 1)[0]}/{pg_name}"
        asyncio.run(_pg_admin(args.pg, f'CREATE DATABASE "{pg_name}"'))
        extra = ["--bot-workers", "1"]
        if serves_redis():
            prefix = f"hexfolk-load-{pg_name[-12:]}"
            extra += ["--redis", args.redis, "--redis-prefix", prefix]
            routing = f"Redis {args.redis} prefix {prefix}; "
        else:
            routing = "no --redis in this tree (no ownership): "
            if args.connect == "any":
                raise SystemExit("--connect any needs a server with --redis (table ownership)")
        routing += "person at the " + ("next process" if args.connect == "any" else "creator")
    else:
        db_url = args.db or f"sqlite+aiosqlite:///{db}"
        extra = ["--sqlite-synchronous", args.sqlite_synchronous]
    try:
        figures = run_load(args, count, db_url, extra, tmp, env, multi, db)
    finally:
        if multi:
            asyncio.run(_pg_admin(args.pg, f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)'))
    report(args, figures, count, multi, routing, tables, trace_path)


def run_load(
    args: argparse.Namespace,
    count: int,
    db_url: str,
    extra: list[str],
    tmp: Path,
    env: dict[str, str],
    multi: bool,
    db: Path,
) -> dict[str, Any]:
    """Start the servers, drive the tables, stop the servers; the raw figures."""
    tables = max(1, min(args.tables, 1000 if multi else 500))
    seconds = max(1.0, min(args.seconds, 600.0))
    servers: list[subprocess.Popen[bytes]] = []
    try:
        urls = []
        for i in range(count):  # one after the other: the first migrates the database
            port = free_port()
            servers.append(start_server(port, db_url, extra, tmp / f"server{i}.log", env))
            urls.append(f"http://127.0.0.1:{port}")
        pids = [s.pid for s in servers]
        idle = sum(rss_kib(p) for p in pids)
        client_cpu0 = time.process_time()
        # uvloop and orjson (the server's own) keep the client's share of the two cores small
        stats, elapsed, peak, cpu = uvloop.run(
            drive(urls, tables, seconds, pids, connect_any=multi and args.connect == "any")
        )
        client_cpu = time.process_time() - client_cpu0
    finally:
        stop_servers(servers)
    if multi:
        events, steps = asyncio.run(_pg_events(db_url.replace("+asyncpg", "")))
    elif not args.db:
        events = sqlite_events(db)
        with sqlite3.connect(db) as conn:
            steps = int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    else:
        events, steps = [], 0
    return {
        "stats": stats,
        "elapsed": elapsed,
        "peak": peak,
        "cpu": cpu,
        "idle": idle,
        "client_cpu": client_cpu,
        "events": events,
        "steps": steps,
    }


def report(
    args: argparse.Namespace,
    raw: dict[str, Any],
    count: int,
    multi: bool,
    routing: str,
    tables: int,
    trace_path: Path,
) -> None:
    """Print the figures (and the JSON line, the trace)."""
    stats: Stats = raw["stats"]
    elapsed, peak, cpu, idle = raw["elapsed"], raw["peak"], raw["cpu"], raw["idle"]
    client_cpu, events, steps = raw["client_cpu"], raw["events"], raw["steps"]
    lat = sorted(stats.latencies)
    p50, p95, p99 = percentiles(lat)
    # held: the actions sent after the first --warmup seconds (the tables' creation and the
    # first hellos of all of them at once are over)
    since = [(at - stats.started, x) for x, at in zip(stats.latencies, stats.sent)]
    steady = sorted(x for t, x in since if t >= args.warmup)
    s50, s95, s99 = percentiles(steady)
    by_window: dict[int, list[float]] = {}
    for t, x in since:
        by_window.setdefault(int(t // WINDOW), []).append(x)
    windows = [percentiles(sorted(by_window[k]))[2] for k in sorted(by_window)]
    lost = lost_actions(events, stats.acked) if (multi or not args.db) else -1
    held = len({t for t, _v, _a in stats.acked})
    if multi:
        print(f"server processes:         {count} on PostgreSQL ({routing})")
    print(
        f"tables (concurrent):      {tables}  (bot delay {BOT_DELAY:g} s, think {THINK:g} s, "
        f"created over {RAMP:g} s)"
    )
    print(f"tables held:              {held} with acknowledged actions")
    print(f"duration:                 {elapsed:.1f} s")
    print(f"games finished:           {stats.finished}")
    print(f"sockets reopened:         {stats.reconnects} (closed by a server, or refused at hello)")
    print(f"HTTP requests sent again: {RETRIED} (the connection broke)")
    if steps:
        print(f"committed steps/s:        {steps / elapsed:.0f}  ({steps} steps, bots and chance)")
        print(f"server CPU per step:      {cpu / steps * 1000:.2f} ms ({cpu:.1f} s CPU)")
    else:
        print(f"server CPU:               {cpu:.1f} s")
    # on a loaded machine the servers get a share of the cores: this says how much they had
    print(f"server CPU share:         {cpu / elapsed * 100:.0f}% of one core (all processes)")
    print(
        f"load client CPU:          {client_cpu:.1f} s (this process, "
        f"{client_cpu / elapsed * 100:.0f}% of a core)"
    )
    print(f"machine load (1 min):     {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"person actions/s:         {len(stats.acked) / elapsed:.0f}  ({len(stats.acked)} acked)")
    print(
        f"latency action->version:  p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms "
        f"({len(lat)} samples)"
    )
    print(
        f"  held (after {args.warmup:g} s):    p50 {s50:.1f} ms, p95 {s95:.1f} ms, "
        f"p99 {s99:.1f} ms ({len(steady)} samples)"
    )
    print(f"  p99 per {WINDOW:g} s:          {', '.join(f'{x:.0f}' for x in windows)} ms")
    print(
        f"server memory:            idle {idle / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB"
        f"{' (summed)' if count > 1 else ''}, {max(0, peak - idle) / tables:.0f} KiB per "
        f"table above idle, {peak / tables:.0f} KiB per table in all"
    )
    print(f"refused actions:          {stats.refused} {stats.refused_codes}")
    print(f"acknowledged actions lost: {lost if lost >= 0 else 'not checked (--db given)'}")
    for err in stats.errors[:5]:
        print("error:", err)
    if args.json:
        figures = {
            "processes": count if multi else None,
            "tables": tables,
            "held": held,
            "seconds": elapsed,
            "finished": stats.finished,
            "reconnects": stats.reconnects,
            "steps": steps,
            "steps_per_s": steps / elapsed,
            "server_cpu_s": cpu,
            "client_cpu_s": client_cpu,
            "cpu_ms_per_step": cpu / steps * 1000 if steps else None,
            "person_actions_per_s": len(stats.acked) / elapsed,
            "p50_ms": p50 if lat else None,
            "p95_ms": p95 if lat else None,
            "p99_ms": p99 if lat else None,
            "held_p50_ms": s50 if steady else None,
            "held_p95_ms": s95 if steady else None,
            "held_p99_ms": s99 if steady else None,
            "p99_per_window_ms": windows,
            "samples": len(lat),
            "refused": stats.refused,
            "lost": lost,
            "errors": len(stats.errors),
            "kib_per_table": peak / tables,
        }
        print(json.dumps(figures))
    if args.trace:
        print_trace(trace_path)


def print_trace(path: Path) -> None:
    profile = path.parent / "loop.prof"
    if profile.exists():
        print(f"event-loop profile: python -m pstats {profile}")
    if not path.exists():
        print("trace: none written (a server without hexfolk.server.trace?)")
        return
    data = json.loads(path.read_text())
    print(f"trace: loop busy {data['loop_busy'] * 100:.0f}% of {data['wall']:.0f} s")

    def row(name: str, p: dict[str, float]) -> str:
        if not p.get("n"):
            return f"  {name:<12} -"
        return (
            f"  {name:<12} n {int(p['n']):>7}  p50 {p['p50_ms']:7.2f}  p90 {p['p90_ms']:7.2f}  "
            f"p99 {p['p99_ms']:7.2f}  max {p['max_ms']:7.1f} ms"
        )

    order = ["parse", "queue", "apply", "commit", "views", "send", "total", "transaction"]
    for name in order + sorted(set(data["stages"]) - set(order)):
        if name in data["stages"]:
            print(row(name, data["stages"][name]))
    print(row("loop lag", data["lag"]))
    for entry in data["slow_callbacks"][:8]:
        print(
            f"  slow: {entry['n']:>5} x, sum {entry['sum']:.2f} s, max {entry['max_ms']:.0f} ms: "
            f"{entry['name']}"
        )


if __name__ == "__main__":
    main()
