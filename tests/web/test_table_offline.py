"""A dropped network on both games' table pages (issue 25, finding 18: the Scythe page never
noticed one): the browser's ``offline`` event shows "Not connected: reconnecting…" over the
board at once and closes the socket; back ``online`` the page reconnects at once, is back at
its seat with the current view, and its clicks reach the server again (docs/web.md,
"Reconnect"). The island's watch moved into the shared ``network.js``; its case here checks that
nothing of it was lost. Playwright (``set_offline``) on Debian's Chromium against a real uvicorn
server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.bot_table import at_a_table_with_a_bot
from tests.web.helpers import new_page, shoot, wait_rendered

SEED = 5


@pytest.mark.parametrize("game", ["scythe", "island"])
def test_the_page_notices_a_dropped_network_and_comes_back(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    page = new_page(browser)
    at_a_table_with_a_bot(page, web_server, game, SEED)
    v = wait_rendered(page, "v.legal.length > 0")
    banner = page.locator("#offline-banner")
    assert banner.count() == 1 and not banner.is_visible()

    page.context.set_offline(True)
    page.wait_for_function("() => document.body.classList.contains('offline')", timeout=5_000)
    assert banner.is_visible()
    assert banner.text_content() == "Not connected: reconnecting…"
    assert banner.get_attribute("role") == "status"
    shoot(page, f"offline-{game}", ("desktop", "phone"))

    page.context.set_offline(False)
    page.wait_for_function("() => !document.body.classList.contains('offline')", timeout=10_000)
    assert not banner.is_visible()
    # back at the seat: a listed action clicked now is taken (a newer view comes back)
    v = wait_rendered(page, f"v.version >= {v['version']} && v.legal.length > 0")
    page.evaluate("(a) => window.__hexfolkAct(a)", v["legal"][0]["action"])
    wait_rendered(page, f"v.version > {v['version']}")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
