"""After a restart nothing is lost (issue 29 point 3; ``docs/analysis.md``, "On the server"): an
analysis running when the server stopped stays ``running`` in the database and the next start
queues it again, then stores it ``ready``, equal to ``hexfolk.analysis`` run on the record.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from hexfolk.analysis import Budget, analyze_record
from hexfolk.core import MatchRecord
from hexfolk.server.client import HexfolkClient
from hexfolk.server.config import ServerConfig
from tests.server.analysis_helpers import bots_table, get_analysis, wait_for
from tests.server.conftest import FAST_RATE
from tests.server.helpers import ThreadServer, run
from tests.server.test_analysis_failures import SLOW_BUDGET


def server_on(data: Path) -> ThreadServer:
    return ThreadServer(
        ServerConfig(
            data_dir=data,
            testing=True,
            allow_seeded_tables=True,
            action_rate=FAST_RATE,
            sqlite_synchronous="NORMAL",
            analysis_budget=SLOW_BUDGET,
        )
    ).start()


def test_an_analysis_running_at_a_stop_is_queued_again_at_the_start(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    data = tmp_path_factory.mktemp("hexfolk-analysis-restart")
    first = server_on(data)
    try:

        async def main() -> str:
            async with HexfolkClient(first.url) as host:
                await host.create_player("Host")
                tid = await bots_table(host, seed=8)
                await host.start(tid)
                async with host.connect(tid, spectate=True) as watcher:
                    await watcher.wait_for(lambda v: v["status"] == "finished", timeout=240)
                return tid

        tid = run(main(), timeout=300)
        end = time.time() + 300
        while True:  # stopped in the middle of the analysis
            body = get_analysis(first.url, tid).json()
            assert body["status"] in ("queued", "running"), body
            if body["status"] == "running" and body["progress"] > 0:
                break
            assert time.time() < end, "the analysis never ran"
            time.sleep(0.05)
    finally:
        first.stop()

    with sqlite3.connect(data / "hexfolk.sqlite") as db:
        status, progress = db.execute(
            "SELECT status, progress FROM analyses WHERE table_id = ?", (tid,)
        ).fetchone()
    assert status == "running" and 0 < progress < 1

    second = server_on(data)
    try:
        body = wait_for(second.url, tid, {"ready", "failed"})
        assert body["status"] == "ready", body
        record = httpx.get(f"{second.url}/api/tables/{tid}/record", timeout=30).text
        here = analyze_record(MatchRecord.loads(record), Budget.parse(SLOW_BUDGET)).to_json()
        assert body["analysis"] == here
        assert second.app.state.analyses.ready == 1  # computed again here, once
    finally:
        second.stop()
