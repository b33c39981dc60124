"""Fixtures: a real uvicorn server on 127.0.0.1 per test module (SQLite in a temp folder)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.server.helpers import ThreadServer, pg_database, pg_reachable, thread_server

FAST_RATE = (100_000, 1.0)
"""Scripted clients act as fast as the server answers; the rate-limit test uses the default."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    data = tmp_path_factory.mktemp("hexfolk-data")
    with thread_server(
        data_dir=data,
        testing=True,
        allow_seeded_tables=True,
        action_rate=FAST_RATE,
        sqlite_synchronous="NORMAL",
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """The default configuration: no seeds, no test clocks, the real action rate."""
    data = tmp_path_factory.mktemp("hexfolk-strict")
    with thread_server(data_dir=data) as srv:
        yield srv


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database (dropped afterwards). Skipped only when the server is
    unreachable and CI is unset."""
    if not pg_reachable():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL on 127.0.0.1:5432 is unreachable in CI")
        pytest.skip("PostgreSQL on 127.0.0.1:5432 is unreachable (CI unset)")
    with pg_database() as url:
        yield url
