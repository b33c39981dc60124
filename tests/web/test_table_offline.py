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

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.bot_table import at_a_table_with_a_bot, table_with_a_bot
from tests.web.helpers import in_thread, new_page, shoot, wait_rendered
from tests.web.own_seat import enter
from tests.web.wire_tap import Tap

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


def test_back_online_the_page_gets_only_the_lines_it_missed(
    browser: Any, web_server: ThreadServer
) -> None:
    """Issue 28, point 4, in the browser: the page missed the views after its click (kept
    from it, as frames lost on a broken network), then the network dropped. Back online, its
    hello names the last version it drew, and the server's first view starts where the page's
    log ends (``log_start`` = the lines it holds, not 0, no ``log_rewritten``): the page's log
    is then the seat's whole log, each line once, and it plays on."""
    page = new_page(browser)
    tap = Tap(page)
    token = enter(page, web_server.url + "/", "Ann")
    tid = table_with_a_bot(web_server, token, "island", SEED)
    page.goto(f"{web_server.url}/#/t/{tid}")
    v = wait_rendered(page, "v.legal.length > 0")

    tap.drop_views = 1  # the view after the click never reaches the page
    page.evaluate("(a) => window.__hexfolkAct(a)", v["legal"][0]["action"])
    for _ in range(100):
        if tap.dropped and tap.received_of("accepted"):
            break
        page.wait_for_timeout(50)
    assert tap.dropped and page.evaluate("() => window.__hexfolkVersion") == v["version"]
    held = page_log(tap.received)
    page.context.set_offline(True)
    page.wait_for_function("() => document.body.classList.contains('offline')", timeout=5_000)
    hellos, seen = len(tap.sent_of("hello")), len(tap.received)
    page.context.set_offline(False)
    back = wait_rendered(page, f"v.version > {v['version']}")
    assert tap.sent_of("hello")[hellos:][0]["since"] == v["version"]
    first = next(m for m in tap.received[seen:] if m.get("type") == "view")
    assert first["log_start"] == len(held) > 0 and first["log"]
    assert "log_rewritten" not in first
    assert page_log(tap.received) == seat_log(web_server, token, tid, back["version"])
    page.evaluate("(a) => window.__hexfolkAct(a)", back["legal"][0]["action"])
    wait_rendered(page, f"v.version > {back['version']}")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def page_log(views: list[dict[str, Any]]) -> list[Any]:
    """The log the page built from the views it was given (``log[:log_start] + log`` each)."""
    log: list[Any] = []
    for m in views:
        if m.get("type") == "view":
            log = log[: m["log_start"]] + m["log"]
    return log


def seat_log(server: ThreadServer, token: str, tid: str, version: int) -> list[Any]:
    """Seat 0's whole log at ``version`` as a new connection gets it."""

    async def read() -> list[Any]:
        async with HexfolkClient(server.url, token=token) as me, me.connect(tid) as conn:
            view = await conn.wait_for(lambda v: v["version"] >= version)
            assert view["version"] == version
            return [x.to_json() for x in conn.log]

    return list(in_thread(read))
