"""Issue 28, point 1 (run it): the nginx configuration of ``docs/server.md`` ("Behind nginx"),
read from the doc itself, in front of two real server processes on one PostgreSQL database:
HTTP is spread over both, and a WebSocket upgrade goes through to a table."""

from __future__ import annotations

import asyncio
import os
import random
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import (
    SubprocessServer,
    free_port,
    play_scripted,
    quick_choice,
    run,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def documented_config() -> str:
    """The ```nginx block of docs/server.md (the one configuration the doc gives)."""
    blocks = re.findall(r"```nginx\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 1, "docs/server.md gives one nginx configuration"
    return blocks[0]


@contextmanager
def nginx(tmp: Path, upstreams: list[int]) -> Iterator[str]:
    """nginx in the foreground with the documented configuration, its two upstream ports
    replaced by ``upstreams`` and its listening port by a free one; temp pid and log files."""
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(exe):
        pytest.fail("nginx is not installed (the Makefile installs it as root)")
    port = free_port()
    block = documented_config()
    assert "127.0.0.1:8001" in block and "127.0.0.1:8002" in block
    block = block.replace("127.0.0.1:8001", f"127.0.0.1:{upstreams[0]}")
    block = block.replace("127.0.0.1:8002", f"127.0.0.1:{upstreams[1]}")
    block = block.replace("listen 127.0.0.1:8000;", f"listen 127.0.0.1:{port};")
    temps = (
        "\n".join(
            f"    {kind}_temp_path {tmp / kind};" for kind in ("client_body", "proxy", "fastcgi")
        )
        + f"\n    uwsgi_temp_path {tmp / 'uwsgi'};\n    scgi_temp_path {tmp / 'scgi'};"
    )
    conf = tmp / "nginx.conf"
    conf.write_text(
        f"master_process off;\nworker_processes 1;\npid {tmp / 'nginx.pid'};\n"
        f"error_log {tmp / 'error.log'} info;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n    access_log {tmp / 'access.log'};\n{temps}\n{block}\n}}\n"
    )
    proc = subprocess.Popen(
        [exe, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 20
        while True:
            if proc.poll() is not None:
                raise RuntimeError("nginx ended: " + (tmp / "error.log").read_text()[-2000:])
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.time() < deadline, "nginx did not answer"
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def two_servers(pg_url: str, tmp: Path, extra: list[str]) -> Iterator[list[SubprocessServer]]:
    servers = [SubprocessServer(pg_url, tmp, ["--testing", *extra]) for _ in range(2)]
    try:
        for server in servers:  # one after the other: the first migrates the database
            server.start()
        yield servers
    finally:
        for server in servers:
            server.terminate()


def both_answer(url: str) -> set[int]:
    pids = set()
    for _ in range(20):
        pids.add(int(httpx.get(url + "/healthz", timeout=5).json()["pid"]))
    return pids


def test_nginx_spreads_http_and_upgrades_websockets(pg_url: str, tmp_path: Path) -> None:
    with (
        two_servers(pg_url, tmp_path, []) as servers,
        nginx(tmp_path, [s.port for s in servers]) as url,
    ):
        assert both_answer(url) == {s.proc.pid for s in servers if s.proc is not None}
        run(read_a_finished_game(servers[0].url, url))


async def read_a_finished_game(direct: str, url: str) -> None:
    """A bots' game played at one process (no ownership yet to share a live table); then,
    through nginx, its table over HTTP and its final view over a WebSocket, four times
    (either process answers), and a body over the limit refused by nginx itself."""
    async with HexfolkClient(direct) as host:
        await host.create_player("Behind nginx")
        bots = [{"kind": "bot", "level": "random"}] * 2
        t = await host.create_table(game="island", players=2, bot_delay=0, seats=bots)
        await host.start(t["id"])
        end = time.time() + 120
        while (await host.table(t["id"]))["status"] != "finished":
            assert time.time() < end, "the bots' game did not finish"
            await asyncio.sleep(0.2)
    async with HexfolkClient(url, token=host.token) as proxied:
        for _ in range(4):
            assert (await proxied.table(t["id"]))["status"] == "finished"
            async with proxied.connect(t["id"]) as conn:
                assert conn.welcome is not None
                view = await conn.wait_for(lambda v: v["status"] == "finished")
                assert view["result"]["winners"] and view["table"] == t["id"]
        big = await proxied.http.post("/api/players", content=b"x" * 70_000)
        assert big.status_code == 413  # nginx's own limit, the server's number


def test_a_game_played_through_nginx_over_two_processes(pg_url: str, tmp_path: Path) -> None:
    redis = ["--redis", "redis://127.0.0.1:6379/0", "--redis-prefix", f"t{secrets.token_hex(4)}"]
    extra = [*redis, "--allow-seeded-tables", "--action-rate", "100000/1"]
    with (
        two_servers(pg_url, tmp_path, extra) as servers,
        nginx(tmp_path, [s.port for s in servers]) as url,
    ):
        assert len(both_answer(url)) == 2
        run(play_a_game(url), timeout=200)


async def play_a_game(url: str) -> None:
    """A person against a bot, every HTTP call and the WebSocket through nginx."""
    async with HexfolkClient(url) as person:
        await person.create_player("Through nginx")
        t = await person.create_table(
            game="island",
            players=2,
            options={"vp_target": 8},
            seed=5,  # with this script, a game that ends (tests/server/test_games.py)
            bot_delay=0,
            seats=[{"kind": "host"}, {"kind": "bot", "level": "easy"}],
        )
        await person.start(t["id"])
        async with person.connect(t["id"]) as conn:
            view = await play_scripted(conn, quick_choice(random.Random(5)), timeout=150)
        assert view["status"] == "finished"
