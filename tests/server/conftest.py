"""Fixtures: a real uvicorn server on 127.0.0.1 per test module (SQLite in a temp folder)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import Any

import pytest

from hexfolk.server.botpool import BOT_FAILURE
from tests.server.helpers import ThreadServer, pg_database, pg_reachable, thread_server

FAST_RATE = (100_000, 1.0)
"""Scripted clients act as fast as the server answers; the rate-limit test uses the default."""


def module_server(
    tmp_path_factory: pytest.TempPathFactory, name: str, **extra: Any
) -> Iterator[ThreadServer]:
    """A module's server on a fresh SQLite folder: seeded tables allowed, clients as fast as it
    answers; ``extra`` config on top (e.g. ``analysis_budget``)."""
    data = tmp_path_factory.mktemp(name)
    with thread_server(
        data_dir=data,
        testing=True,
        allow_seeded_tables=True,
        action_rate=FAST_RATE,
        sqlite_synchronous="NORMAL",
        **extra,
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    yield from module_server(tmp_path_factory, "hexfolk-data")


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


class BotFailureWatch(logging.Handler):
    """Collects the ERROR records of the ``hexfolk`` loggers that report a bot failure."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if BOT_FAILURE in record.getMessage():
            self.records.append(record)


@pytest.fixture(autouse=True)
def no_bot_failures(request: pytest.FixtureRequest) -> Iterator[BotFailureWatch]:
    """Issue 25 (Deliver 3): any server test during which a bot failure is logged fails (a test
    that provokes one on purpose asks for ``bot_failures_expected`` and checks them itself)."""
    watch = BotFailureWatch()
    logger = logging.getLogger("hexfolk")
    logger.addHandler(watch)
    try:
        yield watch
    finally:
        logger.removeHandler(watch)
    if "bot_failures_expected" in request.fixturenames:
        return
    if watch.records:
        first = watch.records[0]
        tb = logging.Formatter().formatException(first.exc_info) if first.exc_info else ""
        pytest.fail(
            f"{len(watch.records)} bot failure(s) logged during the test; the first: "
            f"{first.getMessage()}\n{tb}",
            pytrace=False,
        )


@pytest.fixture
def bot_failures_expected(no_bot_failures: BotFailureWatch) -> BotFailureWatch:
    """The bot-failure records of this test, which provokes them on purpose."""
    return no_bot_failures
