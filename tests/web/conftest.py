"""Fixtures of the browser tests: a real uvicorn server on 127.0.0.1 and Debian's Chromium
driven by Playwright for Python. Without a browser the tests skip, unless ``CI`` is set (then
they fail: the test command installs ``chromium`` first)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import ThreadServer, thread_server

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("HEXFOLK_SCREENSHOTS") or ROOT / "build" / "web-screenshots")
"""Screenshots for review (``build/`` is git-ignored); ``HEXFOLK_SCREENSHOTS`` moves them."""
SCREENSHOTS_TAKEN = bool(os.environ.get("HEXFOLK_SCREENSHOTS")) or not os.environ.get("CI")
"""Screenshots are for a person to look at: taken on a developer's machine, not in CI (where
nobody looks and each costs a resize, a paint and a PNG) unless ``HEXFOLK_SCREENSHOTS`` asks."""


def keep_screenshot(target: Any, path: Path, **options: Any) -> None:
    """``target.screenshot`` (a page or a locator) into ``path`` when :data:`SCREENSHOTS_TAKEN`."""
    if SCREENSHOTS_TAKEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(path), **options)


ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
FAST_RATE = (100_000, 1.0)


def chromium_path() -> str | None:
    for candidate in (os.environ.get("HEXFOLK_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _no_browser(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the browser tests need Chromium and Playwright in CI: {why}")
    pytest.skip(f"no browser here (CI unset): {why}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module: Playwright's sync API runs an event loop in this thread
    while it is open, so it closes with the module (a server test run after it in the same
    worker calls ``asyncio.run``)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("playwright is not installed (pip install playwright)")
    path = chromium_path()
    if path is None:
        _no_browser("no chromium executable (apt-get install -y chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    with _test_server(tmp_path_factory, "hexfolk-web") as srv:
        yield srv


def _test_server(
    tmp_path_factory: pytest.TempPathFactory, name: str
) -> contextlib.AbstractContextManager[ThreadServer]:
    """A server of the browser tests: its own data folder, seeded tables, fast rates."""
    return thread_server(
        data_dir=tmp_path_factory.mktemp(name),
        testing=True,
        allow_seeded_tables=True,
        action_rate=FAST_RATE,
        sqlite_synchronous="NORMAL",
        bot_workers=1,
    )


@pytest.fixture(scope="session")
def finished_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server (as ``web_server``) holding the finished bots-only games of
    ``finished_games.GAMES``, shared by the modules that only read them (the replay, the
    overview): each game is played once per test process, not once per module."""
    with _test_server(tmp_path_factory, "hexfolk-finished") as srv:
        yield srv


@pytest.fixture(scope="session")
def finished_tables(finished_server: ThreadServer) -> dict[str, tuple[str, int]]:
    """Each game's finished table on ``finished_server`` (its id, its step count), played when
    first asked for (``finished_games.finished_game``) and kept for the session."""
    from tests.web.finished_games import GAMES, finished_game

    class Tables(dict[str, tuple[str, int]]):
        def __missing__(self, game: str) -> tuple[str, int]:
            assert game in GAMES, game
            self[game] = finished_game(finished_server, game)
            return self[game]

    return Tables()


@pytest.fixture(scope="session")
def finished_steps(
    finished_server: ThreadServer, finished_tables: dict[str, tuple[str, int]]
) -> dict[str, list[dict[str, Any]]]:
    """Each finished game's replay steps as a spectator gets them
    (``finished_games.public_steps``), fetched when first asked for and kept for the session
    (read only: the tests do not change them)."""
    from tests.web.finished_games import public_steps

    class Steps(dict[str, list[dict[str, Any]]]):
        def __missing__(self, game: str) -> list[dict[str, Any]]:
            self[game] = public_steps(finished_server, finished_tables[game][0])
            return self[game]

    return Steps()
