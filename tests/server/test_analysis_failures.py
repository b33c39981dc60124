"""A post-game analysis that fails is never swallowed (issue 29 point 3; ``docs/analysis.md``,
"On the server"): its status becomes ``failed`` with the error, the failure is logged with its
traceback and counted in ``/metrics`` (``hexfolk_analysis_failures_total``), and the open
socket hears ``failed``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.analysis_helpers import bots_table, get_analysis, metric, wait_for
from tests.server.conftest import module_server
from tests.server.helpers import ThreadServer, run

SLOW_BUDGET = "rollouts=2,depth=20"
"""Playouts: the analysis runs for several seconds, long enough to stop its worker."""


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    yield from module_server(
        tmp_path_factory, "hexfolk-analysis-failures", analysis_budget=SLOW_BUDGET
    )


def finished_table(server: ThreadServer, seed: int) -> str:
    async def main() -> str:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Host")
            tid = await bots_table(host, seed)
            await host.start(tid)
            async with host.connect(tid, spectate=True) as watcher:
                await watcher.wait_for(lambda v: v["status"] == "finished", timeout=240)
            return tid

    return run(main(), timeout=300)


def sql(server: ThreadServer, statement: str, *args: Any) -> list[Any]:
    data = server.config.resolved_data_dir()
    with sqlite3.connect(data / "hexfolk.sqlite", timeout=30) as db:
        return db.execute(statement, args).fetchall()


def test_a_log_that_does_not_replay_fails_the_analysis_with_its_error(
    slow_server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A finished table whose stored log no longer replays (a step changed in the database):
    asked for again, its analysis is ``failed`` with the engine's error, logged and counted."""
    tid = finished_table(slow_server, seed=5)
    wait_for(slow_server.url, tid, {"ready", "failed"})
    before = metric(slow_server.url, "hexfolk_analysis_failures_total")
    sql(slow_server, "DELETE FROM analyses WHERE table_id = ?", tid)
    first = sql(
        slow_server,
        "SELECT seq FROM events WHERE table_id = ? AND kind = 'action' ORDER BY seq LIMIT 1",
        tid,
    )[0][0]
    sql(
        slow_server,
        "UPDATE events SET action = 'fly to the moon' WHERE table_id = ? AND seq = ?",
        tid,
        first,
    )
    with caplog.at_level(logging.ERROR, logger="hexfolk.server.analyses"):
        body = get_analysis(slow_server.url, tid).json()
        assert body["status"] in ("queued", "running", "failed")
        body = wait_for(slow_server.url, tid, {"ready", "failed"})
    assert body["status"] == "failed"
    assert body["analysis"] is None
    assert "fly to the moon" in body["error"]
    assert metric(slow_server.url, "hexfolk_analysis_failures_total") == before + 1
    failed = [r for r in caplog.records if "the analysis failed" in r.getMessage()]
    assert failed and failed[0].exc_info is not None
    assert tid in failed[0].getMessage()


def test_a_killed_worker_fails_the_analysis_and_the_socket_hears_it(
    slow_server: ThreadServer,
) -> None:
    """The lane's worker killed in the middle of an analysis: ``failed`` (the worker died),
    pushed to the open socket; the next analysis starts a fresh worker and is ready."""
    lane = slow_server.manager.pool.analysis

    async def main() -> tuple[str, list[dict[str, Any]]]:
        async with HexfolkClient(slow_server.url) as host:
            await host.create_player("Host")
            tid = await bots_table(host, seed=6)
            await host.start(tid)
            got: list[dict[str, Any]] = []
            async with host.connect(tid, spectate=True) as watcher:
                await watcher.wait_for(lambda v: v["status"] == "finished", timeout=240)
                loop = asyncio.get_running_loop()
                end = loop.time() + 300
                killed = False
                while not got or got[-1]["status"] not in ("ready", "failed"):
                    msg = await asyncio.wait_for(watcher.inbox.get(), max(0.01, end - loop.time()))
                    if msg.get("type") != "analysis":
                        continue
                    got.append(msg)
                    if not killed and msg["status"] == "running" and msg["progress"] > 0:
                        processes = list(lane._executor._processes.values())
                        assert len(processes) == 1
                        os.kill(processes[0].pid, signal.SIGKILL)
                        killed = True
            return tid, got

    tid, messages = run(main(), timeout=600)
    assert messages[-1] == {"type": "analysis", "status": "failed", "progress": 0.0}
    body = get_analysis(slow_server.url, tid).json()
    assert body["status"] == "failed"
    assert "analysis worker process died" in body["error"]

    again = finished_table(slow_server, seed=7)
    deadline = time.time() + 300
    assert (
        wait_for(slow_server.url, again, {"ready", "failed"}, deadline - time.time())["status"]
        == "ready"
    )
