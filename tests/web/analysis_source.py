"""Where the browser tests of the analysis pages (issue 29 point 3) get the analysis from.

The pages read only the contract ``GET /api/tables/{id}/analysis`` → ``{status, progress,
analysis, error}`` (404: no such table, 409: ``not_finished``) and the socket's ``{"type":
"analysis", status, progress}`` push (docs/analysis.md, "In the browser").

``analysis_endpoint`` waits until the real server (``finished_server``) has analysed each
finished game after it ended and checks that analysis equals the record's (``GET
/api/tables/{id}/record``) analysed in-process by :func:`hexfolk.analysis.analyze_record` at
the default budget, exactly what ``hexfolk analyze --json`` prints; the page then reads the
real endpoint. The progress tests (``scripted_analysis``) route the endpoint: they pin down how
the page shows each state of the contract, which a real server passes through too fast to
look at.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from hexfolk.analysis import Budget, analyze_record
from hexfolk.core import MatchRecord
from tests.server.helpers import ThreadServer

_CHECKED: set[str] = set()
"""The finished tables whose served analysis was already found equal to the in-process one."""

ANALYSIS_URL = re.compile(r"/api/tables/[^/?#]+/analysis(\?.*)?$")
"""What the routes answer: the analysis endpoint of any table, nothing else."""


def analysis_of(server: ThreadServer, table_id: str) -> dict[str, Any]:
    """The GameAnalysis JSON of a finished table: its record, analysed in-process (default
    budget), as ``hexfolk analyze --json`` prints it."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        r = http.get(f"/api/tables/{table_id}/record")
        r.raise_for_status()
        record = MatchRecord.loads(r.text)
    return analyze_record(record, Budget()).to_json()


@pytest.fixture(scope="session")
def real_analyses(
    finished_server: ThreadServer, finished_tables: dict[str, tuple[str, int]]
) -> dict[str, dict[str, Any]]:
    """Each finished game's real analysis (``analysis_of``), computed when first asked for."""

    class Lazy(dict[str, dict[str, Any]]):
        def __missing__(self, game: str) -> dict[str, Any]:
            self[game] = analysis_of(finished_server, finished_tables[game][0])
            return self[game]

    return Lazy()


def _answer(route: Any, status: int, body: dict[str, Any]) -> None:
    route.fulfill(status=status, content_type="application/json", body=json.dumps(body))


def served_analysis(server: ThreadServer, table_id: str, timeout: float = 240) -> dict[str, Any]:
    """The analysis the server computed after the game ended (``GET
    /api/tables/{id}/analysis``), once ``ready``; a ``failed`` one fails the test."""
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=server.url, timeout=60) as http:
        while True:
            body = http.get(f"/api/tables/{table_id}/analysis").json()
            if body["status"] == "ready":
                return dict(body["analysis"])
            assert body["status"] != "failed", body["error"]
            assert time.monotonic() < deadline, f"no analysis of {table_id} in {timeout} s: {body}"
            time.sleep(0.5)


@pytest.fixture
def analysis_endpoint(
    finished_server: ThreadServer,
    real_analyses: dict[str, dict[str, Any]],
    finished_tables: dict[str, tuple[str, int]],
) -> Callable[[Any], None]:
    """``serve(page)``: waits until the server has analysed each finished game (its low-priority
    lane, after the game ended) and checks the stored analysis equals the record's analysis
    computed in-process; the page then reads the real endpoint (nothing is routed)."""

    def serve(page: Any) -> None:
        for game, (tid, _) in list(finished_tables.items()):
            if tid not in _CHECKED:  # a stored analysis never changes: checked once a session
                assert served_analysis(finished_server, tid) == real_analyses[game]
                _CHECKED.add(tid)

    return serve


class Script:
    """The analysis endpoint's answer, changed by a test between requests (``state``), and the
    requests the page made (``asked``)."""

    def __init__(self) -> None:
        self.state: tuple[int, dict[str, Any]] = (
            200,
            {"status": "queued", "progress": 0.0, "analysis": None, "error": None},
        )
        self.asked = 0

    def set(self, status: str, progress: float, analysis: Any = None, error: Any = None) -> None:
        body = {"status": status, "progress": progress, "analysis": analysis, "error": error}
        self.state = (200, body)

    def handle(self, route: Any) -> None:
        self.asked += 1
        _answer(route, *self.state)


@pytest.fixture
def scripted_analysis() -> Iterator[Callable[[Any], Script]]:
    """``script(page)``: the analysis endpoint answers what the test sets (``Script.set``)."""

    def script(page: Any) -> Script:
        sc = Script()
        page.route(ANALYSIS_URL, sc.handle)
        return sc

    yield script
