"""Where the browser tests of the analysis pages (issue 29 point 3) get the analysis from.

The pages read only the contract ``GET /api/tables/{id}/analysis`` → ``{status, progress,
analysis, error}`` (404: no such table, 409: ``not_finished``) and the socket's ``{"type":
"analysis", status, progress}`` push (docs/analysis.md, "In the browser"). Until the server's
endpoint is merged, ``analysis_endpoint`` answers that GET in the browser (Playwright's
``page.route`` for ``/api/tables/*/analysis`` only) with the *real* analysis: the record of the
real finished game (``GET /api/tables/{id}/record`` of ``finished_server``) analysed in-process
by :func:`hexfolk.analysis.analyze_record` at the default budget, exactly what ``hexfolk analyze
--json`` prints. Every other request goes to the real server.

**The swap** (once the server computes and serves analyses): change ``analysis_endpoint`` alone
to wait for the real endpoint's ``ready`` and route nothing; the tests use no other way in. The
progress tests (``scripted_analysis``) keep their route: they pin down how the page shows each
state of the contract, which a real server passes through too fast to look at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from hexfolk.analysis import Budget, analyze_record
from hexfolk.core import MatchRecord
from tests.server.helpers import ThreadServer

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


@pytest.fixture
def analysis_endpoint(
    real_analyses: dict[str, dict[str, Any]], finished_tables: dict[str, tuple[str, int]]
) -> Callable[[Any], None]:
    """THE SWAP POINT. ``serve(page)``: the page gets each finished table's real analysis,
    ready, from ``GET /api/tables/{id}/analysis``; an unknown table gets the contract's 404."""

    def serve(page: Any) -> None:
        def handle(route: Any) -> None:
            # the games played so far (finished_tables plays each when first asked for)
            by_id = {tid: game for game, (tid, _) in finished_tables.items()}
            tid = route.request.url.split("/api/tables/")[1].split("/")[0]
            if tid not in by_id:
                _answer(route, 404, {"error": {"code": "no_table", "message": "no such table"}})
                return
            body = {"status": "ready", "progress": 1.0, "analysis": real_analyses[by_id[tid]]}
            _answer(route, 200, {**body, "error": None})

        page.route(ANALYSIS_URL, handle)

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
