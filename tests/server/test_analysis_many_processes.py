"""Many processes (PostgreSQL + Redis, issue 28) and the post-game analysis (issue 29 point 3;
``docs/analysis.md``, "On the server"): the analysis is computed once, by one process; a
socket connected through another process (piped to the table's owner) hears its messages; and
``GET /api/tables/{id}/analysis`` gives the same answer at every process.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from hexfolk.analysis import Budget, analyze_record
from hexfolk.core import MatchRecord
from hexfolk.server.client import HexfolkClient
from tests.cluster.sites import site
from tests.server.analysis_helpers import metric, wait_for
from tests.server.helpers import run

BUDGET = "rollouts=2,depth=20"
"""Playouts: the analysis lasts several of the processes' lease lengths (2 s), through which
no other process may take it."""


def test_one_process_computes_it_every_process_answers_it(tmp_path: Path) -> None:
    with site(tmp_path, n=2, extra=["--analysis-budget", BUDGET]) as s:
        first, second = s.urls()

        async def main() -> tuple[str, list[dict[str, Any]]]:
            async with HexfolkClient(first) as host:
                await host.create_player("Host")
                t = await host.create_table(
                    game="island",
                    players=2,
                    options={"vp_target": 8},
                    seats=[{"kind": "bot", "level": "easy"}] * 2,
                    bot_delay=0,
                    clock=None,
                )
                tid = str(t["id"])
                await host.start(tid)
                far = HexfolkClient(second, token=host.token)
                got: list[dict[str, Any]] = []
                async with far, far.connect(tid, spectate=True) as watcher:
                    await watcher.wait_for(lambda v: v["status"] == "finished", timeout=240)
                    loop = asyncio.get_running_loop()
                    end = loop.time() + 300
                    while not got or got[-1]["status"] not in ("ready", "failed"):
                        left = max(0.01, end - loop.time())
                        msg = await asyncio.wait_for(watcher.inbox.get(), left)
                        if msg.get("type") == "analysis":
                            got.append(msg)
                return tid, got

        tid, messages = run(main(), timeout=600)
        assert messages[-1] == {"type": "analysis", "status": "ready", "progress": 1.0}
        answers = [wait_for(url, tid, {"ready", "failed"}) for url in (first, second)]
        assert answers[0] == answers[1]
        assert answers[0]["status"] == "ready"
        record = httpx.get(f"{second}/api/tables/{tid}/record", timeout=30).text
        assert (
            answers[0]["analysis"]
            == analyze_record(MatchRecord.loads(record), Budget.parse(BUDGET)).to_json()
        )
        ready = [metric(url, "hexfolk_analyses_ready_total") for url in (first, second)]
        assert sorted(ready) == [0.0, 1.0], ready  # computed once, by one process
        running = [m for m in messages if m["status"] == "running"]
        assert [m["progress"] for m in running] == sorted(m["progress"] for m in running)
        assert sum(m["status"] == "queued" for m in messages) == 1  # never queued again
