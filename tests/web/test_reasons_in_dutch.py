"""Reasons as data (issue 26, Deliver 3): a Dutch page on a touch screen shows why an action is
refused in Dutch — the refused buttons' descriptions, a tap on the "?" beside one, and a refused
click — rendered by ``web/reasons.js`` from the reason's ``{code, params, rule}`` with the
templates of ``web/i18n/reasons/nl.json``, not the engine's English sentence. IR-23 (one roll
a turn) and IR-61 (a development card's cost). Playwright on Debian's Chromium against a real
uvicorn server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.server.helpers import ThreadServer
from tests.web.helpers import in_thread, wait_rendered
from tests.web.own_seat import enter
from tests.web.test_island_reasons import _at_a_turn_without_a_card

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
NL = json.loads((WEB / "i18n" / "reasons" / "nl.json").read_text(encoding="utf-8"))
NL_PAGE = json.loads((WEB / "i18n" / "nl.json").read_text(encoding="utf-8"))


def _touch_page(browser: Any) -> Any:
    """A Dutch phone: touch, no hover."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="nl-NL", has_touch=True, is_mobile=True
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def test_a_dutch_page_shows_a_refusal_in_dutch(browser: Any, web_server: ThreadServer) -> None:
    page = _touch_page(browser)
    token = enter(page, web_server.url + "/", "Anke")
    assert page.evaluate("() => document.documentElement.lang") == "nl"

    tid, served = in_thread(lambda: _at_a_turn_without_a_card(web_server.url, token))
    why = {e["action"]: e["why"] for e in served["refused"]}
    assert why["roll"] == {"code": "rolled", "params": {}, "rule": "IR-23"}
    assert why["buy"]["code"] == "cost" and why["buy"]["rule"] == "IR-61"

    page.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(page, f"v.version === {served['version']}")
    rolled = NL["why.rolled"].replace("{rule}", "IR-23")  # "je hebt deze beurt al gegooid (IR-23)"
    # the refused buttons' descriptions, in Dutch
    assert page.locator("#btn-roll").get_attribute("title") == rolled
    assert page.locator("#btn-roll-why").text_content() == rolled
    buy = page.locator("#btn-buy").get_attribute("title") or ""
    assert buy.startswith(NL["why.w.piece.dev"] + " kost "), buy  # "een ontwikkelingskaart kost"
    assert buy.endswith(" (IR-61)") and "costs" not in buy and "you have" not in buy, buy
    assert NL_PAGE["res.o"] in buy  # the resources by their Dutch names ("erts")

    # a touch screen has no hover: a tap on the "?" beside the refused button says why
    page.locator("#btn-roll-tap").tap()
    page.wait_for_selector("#toast.show")
    assert page.locator("#toast").text_content() == rolled
    page.evaluate("() => { document.getElementById('toast').className = ''; }")

    # a refused action: the server's reason as data, shown in Dutch
    page.evaluate("() => window.__hexfolkAct('roll')")  # the same path as a click
    page.wait_for_selector("#toast.show")
    assert page.locator("#toast").text_content() == NL_PAGE["err.illegal"].replace("{why}", rolled)

    # nested reasons, lists and plurals (the view's reasons while another seat decides), and a
    # code without a Dutch template (null: the page then shows the English sentence)
    render = "async (r) => (await import('/app/reasons.js')).renderReason(r, 'island')"
    waiting = {
        "code": "wait_decision",
        "rule": "IR-23",
        "params": {"seat": 1, "what": "roll the dice", "prompt": "pre-roll"},
    }
    nested = {
        "code": "not_your_decision",
        "params": {"seat": 2, "waiting": waiting},
        "rule": "IR-23",
    }
    assert page.evaluate(render, nested) == (
        f"stoel 2 hoeft nu niets te beslissen; stoel 1 is aan de beurt: "
        f"{NL_PAGE['prompt.pre-roll']} (IR-23)"
    )
    discarding = {"code": "wait_discard", "params": {"seats": [1, 2]}, "rule": "IR-41"}
    assert page.evaluate(render, discarding) == "stoelen 1 en 2 leggen kaarten af na een 7 (IR-41)"
    assert page.evaluate(render, {"code": "no_such_code", "params": {}, "rule": None}) is None
    # Scythe's codes are its own (both games have a not_your_decision): SR-6, SR-12
    scythe = "async (r) => (await import('/app/reasons.js')).renderReason(r, 'scythe')"
    choose = {
        "code": "wait_decision",
        "params": {"seat": 1, "decision": "choose-section"},
        "rule": "SR-7",
    }
    other = {"code": "not_your_decision", "params": {"seat": 2, "waiting": choose}, "rule": "SR-7"}
    assert page.evaluate(scythe, other) == (
        "P2 hoeft nu niets te beslissen; P1 is aan zet: een vak kiezen voor de actiefiche (SR-7)"
    )
    bolster = {
        "code": "cost_top",
        "rule": "SR-12, SR-15",
        "params": {"top": "bolster", "cost": {"coins": 1}, "held": {"coins": 0}},
    }
    assert page.evaluate(scythe, bolster) == "Versterken kost $1; je hebt $0 (SR-12, SR-15)"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
