"""Reasons as data on the Scythe page (issue 26, Deliver 3): on a Dutch touch screen the
section used last turn (SR-6) says why it cannot be chosen in Dutch, as its description and,
when tapped, in a bubble beside it (issue 27 point 8) — rendered by ``web/reasons.js`` from
the view's ``why`` with the ``sc.why.*`` templates of ``web/i18n/reasons/nl.json``.
Playwright on Debian's Chromium against a real uvicorn server."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hexfolk.server.client import TableConnection
from tests.server.helpers import ThreadServer
from tests.web.helpers import in_thread, wait_rendered
from tests.web.own_seat import enter, play_seat_until, with_random_bots
from tests.web.test_reasons_in_dutch import _touch_page

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
NL = json.loads((WEB / "i18n" / "reasons" / "nl.json").read_text(encoding="utf-8"))


async def _to_a_refused_section(conn: TableConnection, rng: random.Random) -> dict[str, Any]:
    """Play the person's seat at random until, choosing a section, one is refused."""

    def found(view: dict[str, Any]) -> bool:
        legal = [e["action"] for e in view["legal"]]
        choosing = any(a.startswith("section ") for a in legal)
        return choosing and any(e["action"].startswith("section ") for e in view["refused"])

    return await play_seat_until(
        conn, found, rng.choice, "no section was ever refused on the person's own turn"
    )


def test_a_dutch_scythe_page_says_why_a_section_is_refused(
    browser: Any, web_server: ThreadServer
) -> None:
    page = _touch_page(browser)
    token = enter(page, web_server.url + "/", "Anke")

    tid, served = in_thread(
        lambda: with_random_bots(
            web_server.url, token, game="scythe", players=2, seed=5, drive=_to_a_refused_section
        )
    )
    refused = [e for e in served["refused"] if e["action"].startswith("section ")]
    why = refused[0]["why"]
    assert why["code"] == "section_repeat" and why["rule"] == "SR-6", why
    n = why["params"]["section"]
    dutch = NL["sc.why.section_repeat"].replace("{section}", str(n)).replace("{rule}", "SR-6")

    page.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(page, f"v.version === {served['version']}")
    section = page.locator(f".section[data-section='{n}']").first
    assert section.get_attribute("title") == dutch  # "je gebruikte vak 2 vorige beurt; ..."
    # the mat is the decision's tab on a phone (table_page.js): in sight without a tab tapped
    assert section.is_visible()
    section.tap()  # a tap says why, in a bubble by the section (reasons.js, issue 27 point 8)
    page.wait_for_selector("#why-pop:not([hidden])")
    assert page.locator("#why-pop").text_content() == dutch
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
