"""Issue 28, point 1 (run it): ``hexfolk serve --processes N`` starts N server processes on one
port (``SO_REUSEPORT``) that form one site; SIGTERM stops them all; a child that dies is
reported and started again. Real PostgreSQL (a database per test) and Redis (a key prefix per
test)."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.helpers import free_port
from tests.server.serve_command import serve


def pids_answering(url: str, want: int, timeout: float = 90) -> set[int]:
    """The pids that answer ``/healthz`` 200 on ``url`` (each probe a new connection, which
    the kernel gives to one of the processes on the port), until ``want`` of them did."""
    seen: set[int] = set()
    deadline = time.time() + timeout
    while len(seen) < want:
        assert time.time() < deadline, f"only {seen} answered {url}/healthz"
        try:
            answer = httpx.get(url + "/healthz", timeout=5)
            if answer.status_code == 200:
                seen.add(int(answer.json()["pid"]))
        except httpx.HTTPError:
            time.sleep(0.2)
    return seen


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def stop(launcher: subprocess.Popen[bytes], children: set[int]) -> None:
    """SIGTERM to the launcher alone: it stops every child, then exits 0."""
    launcher.send_signal(signal.SIGTERM)
    assert launcher.wait(60) == 0
    assert not [pid for pid in children if alive(pid)]


def test_processes_need_postgresql_and_redis(pg_url: str) -> None:
    port = str(free_port())
    code, lines = serve("--processes", "2", "--port", port)
    assert code == 2
    assert lines == ["error: --processes needs a PostgreSQL --db shared by the processes"]
    code, lines = serve("--processes", "2", "--port", port, "--db", pg_url)
    assert code == 2
    assert lines == ["error: --processes needs --redis (the processes meet there)"]


def test_two_processes_share_one_port_restart_and_stop(pg_url: str, tmp_path: Path) -> None:
    """The launcher itself (:class:`hexfolk.server.launcher.Launcher`) over two real
    ``hexfolk serve --reuse-port`` children."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    child = [
        *(sys.executable, "-m", "hexfolk.cli.main", "serve", "--reuse-port"),
        *("--port", str(port), "--db", pg_url, "--bot-workers", "1"),
        *("--data-dir", str(tmp_path), "--log-level", "warning"),
    ]
    code = (
        "import sys; from hexfolk.server.launcher import Launcher; "
        f"sys.exit(Launcher(2, lambda i: {child!r}, {url + '/healthz'!r}).run())"
    )
    log = tmp_path / "launcher.log"
    with open(log, "wb") as out:
        launcher = subprocess.Popen([sys.executable, "-c", code], stderr=out, stdout=out)
    try:
        pids = pids_answering(url, 2)
        assert {parent_of(pid) for pid in pids} == {launcher.pid}
        dead = min(pids)
        os.kill(dead, signal.SIGKILL)  # a child dies: reported, started again
        now = pids_answering(url, 2)
        assert dead not in now and len(now) == 2
        text = log.read_text()
        assert "ended (killed by SIGKILL); restarting it in 1 s" in text, text[-2000:]
        stop(launcher, now)
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait(10)


def test_serve_processes_2_forms_one_site_and_sigterm_stops_it(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    args = [
        *(sys.executable, "-m", "hexfolk.cli.main", "serve", "--processes", "2"),
        *("--port", str(port), "--db", pg_url, "--bot-workers", "1"),
        *("--redis", "redis://127.0.0.1:6379/0", "--redis-prefix", f"t{secrets.token_hex(4)}"),
        *("--data-dir", str(tmp_path), "--log-level", "warning"),
    ]
    with open(tmp_path / "serve.log", "wb") as out:
        launcher = subprocess.Popen(args, stderr=out, stdout=out)
    try:
        pids = pids_answering(url, 2)
        assert {parent_of(pid) for pid in pids} == {launcher.pid}
        stop(launcher, pids)
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait(10)
