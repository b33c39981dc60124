"""A click that reaches the server after the game moved on (issue 25, finding 18): the server
answers ``stale`` with the current view (docs/protocol.md, the order of checks, 6); when the
clicked action is no longer listed there, the page says so in the page's language and asks for
the current view (``sync``), on both games' pages. The test makes the page late on purpose: it
keeps from the page the view that follows its first click (``wire_tap.Tap``), so the targets of
the old view are still drawn when the second click comes. Playwright on Debian's Chromium
against a real uvicorn server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.bot_table import at_a_table_with_a_bot
from tests.web.helpers import new_page, shoot, wait_rendered
from tests.web.wire_tap import Tap

I18N = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web" / "i18n"
SEED = 3
# per game: the page's language, the kind of click the test makes twice, where it is drawn
CASES = {
    "island": ("nl-NL", "nl", "settle ", "#board .target-node[data-act='{a}']"),
    "scythe": ("es-ES", "es", "section ", ".sc-mat [data-act='{a}']"),
}


@pytest.mark.parametrize("game", list(CASES))
def test_a_stale_click_is_told_and_the_page_resyncs(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    locale, lang, kind, where = CASES[game]
    texts = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    page = new_page(browser, locale=locale)
    tap = Tap(page)
    at_a_table_with_a_bot(page, web_server, game, SEED)
    v = wait_rendered(page, f"v.legal.filter((e) => e.action.startsWith('{kind}')).length >= 2")
    first, second = [e["action"] for e in v["legal"] if e["action"].startswith(kind)][:2]

    # the first click is taken; the view that follows it is kept from the page
    tap.drop_views = 1
    page.locator(where.format(a=first)).first.click()
    page.wait_for_function("() => true")  # let Playwright pass the frames on
    for _ in range(100):
        if tap.dropped and any(m.get("type") == "accepted" for m in tap.received):
            break
        page.wait_for_timeout(50)
    assert tap.dropped, "the view after the first click never came"
    assert page.evaluate("() => window.__hexfolkVersion") == v["version"]  # late, on purpose
    syncs = len(tap.sent_of("sync"))

    # the second click is on the old drawing: stale, and no longer listed
    page.locator(where.format(a=second)).first.click()
    page.wait_for_selector("#toast.show")
    stale = [m for m in tap.received_of("error") if m.get("code") == "stale"]
    assert stale, tap.received_of("error")
    assert page.locator("#toast").text_content() == texts["err.stale"]
    shown = wait_rendered(page, f"v.version >= {stale[-1]['version']}")
    assert second not in [e["action"] for e in shown["legal"]]
    assert len(tap.sent_of("sync")) == syncs + 1  # and it asked for the current view
    page.wait_for_function(f"() => window.__hexfolkVersion >= {tap.dropped[0]['version']}")
    shoot(page, f"stale-click-{game}", ("desktop", "phone"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
