"""The server's post-game analysis (issue 29 point 3: "the server computes the analysis after a
game ends in the bot worker pool at low priority, stores it with the table and pushes it to open
pages when ready, with progress shown meanwhile"; ``docs/analysis.md``, "On the server").

A real server plays a short bots-only game to its end while a spectator's socket stays open on
the table; the analysis is then computed in the pool's low-priority lane, pushed, and stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from hexfolk.analysis import Budget, analyze_record
from hexfolk.core import MatchRecord
from hexfolk.server.analysis_lane import ANALYSIS_NICE
from hexfolk.server.client import HexfolkClient
from tests.server.analysis_helpers import STATUSES, bots_table, get_analysis, metric
from tests.server.conftest import module_server
from tests.server.helpers import ThreadServer, run

BUDGET = "rollouts=3,depth=30"
"""A budget with playouts: the analysis of the short game takes a few seconds, long enough to
report its progress several times (the default budget takes well under a second)."""


@pytest.fixture(scope="module")
def analysing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    yield from module_server(tmp_path_factory, "hexfolk-analysis", analysis_budget=BUDGET)


def test_unknown_table_is_404_and_a_game_not_over_is_409(analysing_server: ThreadServer) -> None:
    """The contract: 404 for an unknown table, 409 ``not_finished`` before the end."""

    async def main() -> None:
        async with HexfolkClient(analysing_server.url) as host:
            await host.create_player("Early")
            tid = await bots_table(host)
            r = get_analysis(analysing_server.url, tid)
            assert r.status_code == 409
            assert r.json()["error"]["code"] == "not_finished"

    run(main())
    r = get_analysis(analysing_server.url, "no-such-table")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_the_finished_game_is_analysed_pushed_and_stored(analysing_server: ThreadServer) -> None:
    """The socket open on the table gets ``analysis`` messages with a growing progress and a
    final ``ready``; the stored analysis is exactly ``hexfolk.analysis`` run on the table's
    published record in this process (it is deterministic), computed by a worker at nice 19."""

    async def main() -> tuple[str, list[dict[str, Any]]]:
        async with HexfolkClient(analysing_server.url) as host:
            await host.create_player("Watcher")
            tid = await bots_table(host)
            await host.start(tid)
            got: list[dict[str, Any]] = []
            async with host.connect(tid, spectate=True) as watcher:
                await watcher.wait_for(lambda v: v["status"] == "finished", timeout=240)
                end = asyncio.get_running_loop().time() + 300
                while not got or got[-1]["status"] not in ("ready", "failed"):
                    left = end - asyncio.get_running_loop().time()
                    msg = await asyncio.wait_for(watcher.inbox.get(), max(0.01, left))
                    if msg.get("type") == "analysis":
                        got.append(msg)
            return tid, got

    tid, messages = run(main(), timeout=600)
    assert messages, "no analysis message reached the open socket"
    assert all(set(m) == {"type", "status", "progress"} for m in messages)
    assert all(m["status"] in STATUSES for m in messages)
    assert messages[-1] == {"type": "analysis", "status": "ready", "progress": 1.0}
    assert messages[0]["status"] in ("queued", "running")
    progress = [m["progress"] for m in messages]
    assert progress == sorted(progress), progress
    running = [m["progress"] for m in messages if m["status"] == "running"]
    assert any(0 < p < 1 for p in running), f"no progress between 0 and 1 was pushed: {messages}"
    order = ["queued", "running", "ready"]
    assert [order.index(m["status"]) for m in messages] == sorted(
        order.index(m["status"]) for m in messages
    )

    body = get_analysis(analysing_server.url, tid).json()
    assert body["status"] == "ready"
    assert body["progress"] == 1.0
    assert body["error"] is None
    record_text = httpx.get(f"{analysing_server.url}/api/tables/{tid}/record", timeout=30).text
    here = analyze_record(MatchRecord.loads(record_text), Budget.parse(BUDGET)).to_json()
    assert body["analysis"] == here
    assert len(body["analysis"]["steps"]) == len(MatchRecord.loads(record_text).actions)

    lane = analysing_server.manager.pool.analysis
    assert run(lane.ask_nice()) == ANALYSIS_NICE
    assert metric(analysing_server.url, "hexfolk_analyses_ready_total") >= 1
