"""Issue 28, point 5 (operations): ``hexfolk serve --log-format json`` writes one JSON object a
line, each with the time, level, logger, message and the process; the lines about a table carry
its id (from the room's task, whatever the message says)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from hexfolk.server.structured_logs import JsonFormatter, table_context
from tests.server.helpers import free_port

KEYS = {"time", "level", "logger", "message", "process", "pid"}


def test_serve_writes_json_lines_naming_the_process_and_the_table(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    err_path = tmp_path / "stderr.log"
    with open(err_path, "wb") as err:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "hexfolk.cli.main", "serve", "--port", str(port)),
                *("--data-dir", str(tmp_path), "--bot-workers", "1", "--log-format", "json"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        try:
            deadline = time.time() + 60
            while True:
                assert proc.poll() is None, err_path.read_text()[-2000:]
                assert time.time() < deadline, "the server did not start"
                try:
                    if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            with httpx.Client(base_url=url, timeout=30) as http:
                token = http.post("/api/players", json={"name": "Logged"}).json()["token"]
                auth = {"Authorization": f"Bearer {token}"}
                bots = [{"kind": "bot", "level": "random"}] * 2
                body = {"game": "island", "players": 2, "bot_delay": 0, "seats": bots}
                tid = http.post("/api/tables", json=body, headers=auth).json()["id"]
                assert http.post(f"/api/tables/{tid}/start", headers=auth).status_code == 200
                while http.get(f"/api/tables/{tid}").json()["status"] != "finished":
                    assert time.time() < deadline + 120, "the bots' game did not finish"
                    time.sleep(0.2)
        finally:
            proc.terminate()
            proc.wait(30)
    lines = [ln for ln in err_path.read_text().splitlines() if ln.strip()]
    records = [json.loads(ln) for ln in lines]  # every line is one JSON object
    assert records
    for record in records:
        assert set(record) >= KEYS, record
        assert record["process"] == f"{socket.gethostname()}:{proc.pid}"
        assert record["pid"] == proc.pid
    about = [r for r in records if r.get("table") == tid]
    messages = [r["message"] for r in about]
    assert any("started" in m for m in messages), messages[:5]
    assert any("finished" in m for m in messages), messages[-5:]
    assert {"hexfolk.server.room"} <= {r["logger"] for r in about}
    ready = [r for r in records if "server ready" in r["message"]]
    assert ready and "table" not in ready[0]  # a line about no table names none
    requests = [r for r in records if r["message"].startswith("POST /api/tables ")]
    assert requests and "table" not in requests[0]
    probes = [r for r in records if r["message"].startswith("GET /healthz")]
    assert not probes  # a load balancer's probes are logged at DEBUG, not INFO


def test_a_line_logged_in_a_rooms_task_names_its_table() -> None:
    """The room's task runs in ``table_context``: a line whose message does not name the
    table (a bot's, a timer's) still carries it; a task outside any room carries none."""
    lines: list[dict[str, str]] = []

    class Keep(logging.Handler):  # formats as a stream handler does: in the logging task
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(json.loads(JsonFormatter().format(record)))

    logger = logging.getLogger("hexfolk.test.json")
    logger.addHandler(Keep())
    logger.setLevel(logging.INFO)

    async def in_room() -> None:
        logger.info("a bot chose in %d ms", 3)
        await asyncio.get_running_loop().create_task(child())

    async def child() -> None:
        logger.warning("a timer fired")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        await table_context("T42").run(loop.create_task, in_room())
        logger.info("outside")

    asyncio.run(main())
    assert [(x["message"], x.get("table")) for x in lines] == [
        ("a bot chose in 3 ms", "T42"),
        ("a timer fired", "T42"),
        ("outside", None),
    ]
    assert lines[1]["level"] == "WARNING" and lines[0]["logger"] == "hexfolk.test.json"
