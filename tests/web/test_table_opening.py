"""Opening a table page costs one HTTP request and the socket (issue 26, deliver 5): the page
asks ``GET /api/tables/{id}`` once, opens ``/ws/tables/{id}``, and draws the board from the
``welcome``'s geometry (docs/protocol.md) — no second fetch of the table, no ``/api/me``, no
``/geometry`` round trip before the first draw. Both games, counted with Playwright's request
events on Debian's Chromium against a real uvicorn server. The chat's history comes with the
``welcome`` too (``chat_history``): no ``GET /chat``. The chat's limits shown under it are the
welcome's (Scythe's page had none before)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.bot_table import at_a_table_with_a_bot
from tests.web.helpers import RENDERED, new_page

SEED = 11


def _api_requests(page: Any, url: str) -> list[str]:
    """Every request of the page to the server that is not a static file (/app/...)."""
    seen: list[str] = []

    def on_request(req: Any) -> None:
        path = req.url[len(url) :] if req.url.startswith(url) else req.url
        if not path.startswith("/app/") and path not in ("/", ""):
            seen.append(f"{req.method} {path.split('?')[0]}")

    page.on("request", on_request)
    page.on("websocket", lambda ws: seen.append(f"WS {ws.url.split('/ws/')[-1]}"))
    return seen


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_opening_a_table_costs_one_request_and_the_socket(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    page = new_page(browser)
    tid = at_a_table_with_a_bot(page, web_server, game, SEED)
    page.wait_for_function(RENDERED, timeout=20_000)
    # open the table afresh, as a person following a link does (the page's scripts cached)
    seen = _api_requests(page, web_server.url)
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.reload()
    page.wait_for_function(RENDERED, timeout=20_000)
    page.wait_for_timeout(300)  # anything asked just after the first draw is counted too
    sockets = [r for r in seen if r.startswith("WS ")]
    http = [r for r in seen if not r.startswith("WS ")]
    print(f"{game}: {http} + {len(sockets)} socket(s)")
    tables = [r for r in http if r == f"GET /api/tables/{tid}"]
    assert tables == [f"GET /api/tables/{tid}"], http
    assert not any(r.endswith("/geometry") or r == "GET /api/me" for r in http), http
    # the chat's history came with the welcome: no other request
    assert http == tables, http
    assert len(sockets) == 1, seen
    assert page.locator("#board").count() == 1
    # the chat's limits as the welcome announced them (server/limits.py), on both games' pages
    limits = page.inner_text("#chat-limits")
    assert "0/500" in limits and "at most 500 characters, 5 messages per 10 s" in limits
    assert page.get_attribute("#chat-input", "maxlength") == "500"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_player_the_server_forgot_opens_the_table_as_a_visitor(
    browser: Any, web_server: ThreadServer
) -> None:
    """The page no longer asks ``/api/me`` before it opens a table: a token the server does not
    know (a wiped database) is refused by the socket (``bad_token``), and the page forgets it
    and opens the table again as a visitor, watching, as ``checkMe`` did before."""
    page = new_page(browser)
    at_a_table_with_a_bot(page, web_server, "island", SEED)
    page.wait_for_function(RENDERED, timeout=20_000)
    page.evaluate(
        """() => localStorage.setItem("hexfolk.player",
             JSON.stringify({id: "nobody", name: "Ghost", token: "not-a-token"}))"""
    )
    page.reload()
    page.wait_for_function(RENDERED, timeout=20_000)
    assert page.evaluate("() => localStorage.getItem('hexfolk.player')") is None
    assert page.evaluate("() => window.__hexfolkView.seat") is None
    assert page.locator(".spectating").is_visible()
    assert page.locator("#shut-out").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
