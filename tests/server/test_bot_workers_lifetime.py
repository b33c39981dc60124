"""Issue 25, finding 12: the bot worker processes never outlive their server. A SIGKILLed
``hexfolk serve`` runs no clean-up; before the fix its spawned workers were reparented to PID 1
and lived forever. Now each worker watches its parent and exits within
``PARENT_CHECK`` (0.5 s) of the server's death."""

from __future__ import annotations

import time
from pathlib import Path

from hexfolk.server.client import HexfolkClient
from hexfolk.server.config import sqlite_url
from tests.server.helpers import SubprocessServer, run

GONE_WITHIN = 5.0
"""Seconds after the SIGKILL by which every worker must have ended."""


def children(pid: int) -> set[int]:
    """The child processes of ``pid`` (Linux /proc)."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out.update(int(x) for x in text)
    return out


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = next(line for line in status.splitlines() if line.startswith("State:"))
    return "Z" not in state.split()[1]


async def _start_bots_table(url: str) -> str:
    async with HexfolkClient(url) as host:
        await host.create_player("Organizer")
        t = await host.create_table(
            game="island",
            players=2,
            clock=None,
            bot_delay=0,
            seats=[{"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "hard"}],
        )
        await host.start(t["id"])
        async with host.connect(t["id"], spectate=True) as watcher:
            await watcher.wait_for(lambda v: v["version"] >= 6, timeout=60)
        return str(t["id"])


def test_bot_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    srv = SubprocessServer(sqlite_url(tmp_path), tmp_path, ["--bot-workers", "2"]).start()
    try:
        run(_start_bots_table(srv.url), timeout=90)
        assert srv.proc is not None
        workers = children(srv.proc.pid)
        assert workers, "the bots' decisions started no worker process"
    finally:
        srv.kill()
    deadline = time.monotonic() + GONE_WITHIN
    while time.monotonic() < deadline and any(alive(p) for p in workers):
        time.sleep(0.1)
    left = sorted(p for p in workers if alive(p))
    assert not left, f"bot workers {left} outlived the killed server"
