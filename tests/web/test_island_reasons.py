"""A disabled button says why (issue 17): the island page's standing buttons (Roll, Buy a card,
Play a knight, Play road building, End the turn) carry the server's reason — the view's
``refused`` (``docs/protocol.md``), the engine's ``why_illegal`` — as their tooltip (``title``)
and their accessible description (``aria-describedby``); a spectator has none. Playwright on
Debian's Chromium against a real uvicorn server."""

from __future__ import annotations

import random
from typing import Any

from hexfolk.server.client import TableConnection
from tests.server.helpers import ThreadServer
from tests.web.helpers import in_thread, new_page, wait_rendered
from tests.web.own_seat import enter, play_seat_until, with_random_bots

SEED = 11


def _no_card_to_buy(view: dict[str, Any]) -> bool:
    """The seat's own main phase (``end`` listed), a development card not affordable."""
    legal = [e["action"] for e in view["legal"]]
    return "end" in legal and "buy" not in legal


async def _to_a_turn_without_a_card(conn: TableConnection, rng: random.Random) -> dict[str, Any]:
    """Play the person's seat (setup at random, roll, reject offers, end the turn) until it is
    in its main phase and cannot buy a development card; that view."""

    def pick(legal: list[str]) -> str:
        return next((a for a in ("roll", "reject", "end") if a in legal), None) or rng.choice(legal)

    return await play_seat_until(
        conn,
        _no_card_to_buy,
        pick,
        "the person's seat never lacked the cards for a development card",
    )


async def _at_a_turn_without_a_card(url: str, token: str) -> tuple[str, dict[str, Any]]:
    """The person hosts 3-seat island table with two random bots (seed ``SEED``), played to a
    turn of theirs without a development card to buy: the table's id and that view."""
    return await with_random_bots(
        url, token, game="island", players=3, seed=SEED, drive=_to_a_turn_without_a_card
    )


def test_a_disabled_button_shows_the_servers_reason(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser)
    token = enter(page, web_server.url + "/", "Anna")

    tid, served = in_thread(lambda: _at_a_turn_without_a_card(web_server.url, token))
    why = {e["action"]: e["reason"] for e in served["refused"]}
    # IR-61: the cost and what the seat holds (its own hand, which its observation shows)
    assert why["buy"].startswith("a development card costs 1 wool, 1 grain and 1 ore; you have ")
    assert why["roll"] == "you have already rolled this turn (IR-23)"
    assert "end" not in why  # legal now: no reason

    page.goto(f"{web_server.url}/#/t/{tid}")
    shown = wait_rendered(page, f"v.version === {served['version']}")
    assert shown["refused"] == served["refused"]
    buy = page.locator("#btn-buy")
    assert buy.is_disabled()
    assert buy.get_attribute("title") == why["buy"]
    described = buy.get_attribute("aria-describedby")
    assert described == "btn-buy-why"
    assert page.locator(f"#{described}").text_content() == why["buy"]
    # the reason is the button's accessible description (what a screen reader says after it)
    desc = page.evaluate(
        "() => { const b = document.querySelector('#btn-buy'); "
        "return b.getAttribute('aria-describedby').split(' ')"
        ".map((id) => document.getElementById(id).textContent).join(' '); }"
    )
    assert desc == why["buy"]
    assert page.locator("#btn-roll").get_attribute("title") == why["roll"]
    # an enabled button has no refusal on it
    end = page.locator("#btn-end")
    assert end.is_enabled()
    assert end.get_attribute("title") is None and end.get_attribute("aria-describedby") is None
    for action, reason in why.items():
        button = page.locator(f"#btn-{action.replace(' ', '-')}")
        if button.count():
            assert button.is_disabled() and button.get_attribute("title") == reason

    # a spectator has no buttons and no reasons
    watcher = new_page(browser)
    watcher.goto(f"{web_server.url}/#/t/{tid}")
    seen = wait_rendered(watcher, "true")
    assert seen["seat"] is None and seen["refused"] == []
    assert watcher.locator("#btn-buy").count() == 0
    for p in (page, watcher):
        assert p.errors == []  # type: ignore[attr-defined]
        p.context.close()
