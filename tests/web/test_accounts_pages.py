"""Accounts in the browser (issue 30 point 1, the lobby's account area): a guest claims its
identity in one browser, signs in from a second browser context (another device, a phone at
360x640, in Dutch) and is the same player there (the same tables in "my tables"); the second
device lists both sessions and signs the first out ("sign out other devices"), changes the
password and signs out. Playwright on Debian's Chromium against a real server."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import httpx

from tests.server.helpers import ThreadServer
from tests.web.conftest import SHOTS as CONFTEST_SHOTS
from tests.web.conftest import keep_screenshot
from tests.web.helpers import DESKTOP, new_page, settle

SHOTS = CONFTEST_SHOTS / Path(__file__).stem  # build/web-screenshots/<module>
PHONE = {"width": 360, "height": 640}
PASSWORD = "a long walk home"
NL = json.loads(
    (Path(__file__).resolve().parents[2] / "src/hexfolk/web/i18n/nl.json").read_text("utf-8")
)
WIDTH_JS = "() => document.documentElement.scrollWidth <= innerWidth"


def _player(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player'))"))


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    keep_screenshot(page, SHOTS / f"{name}.png", full_page=True)


def test_claim_then_sign_in_on_another_device(browser: Any, web_server: ThreadServer) -> None:
    """Issue 30 point 1: claim in one browser, sign in in another, same player and tables;
    then sessions, "sign out other devices", a new password and sign-out from the second."""
    first = new_page(browser, size=DESKTOP)
    first.goto(web_server.url + "/#/")
    first.fill("#name", "Walker")
    first.click(".name-form button[type=submit]")
    first.wait_for_selector("#my-tables")
    guest = _player(first)
    table = httpx.post(
        web_server.url + "/api/tables",
        json={"game": "island", "players": 2, "seats": [{"kind": "host"}, {"kind": "open"}]},
        headers={"Authorization": f"Bearer {guest['token']}"},
    ).json()
    mine = f"#my-tables a[href='#/t/{table['id']}']"
    first.wait_for_selector(mine)
    # claim this guest
    first.click("#account > summary")
    username = "walker_" + secrets.token_hex(3)
    first.fill("#claim-username", username)
    first.fill("#claim-password", username)  # long enough for the browser, refused by the server
    first.click("#claim-form button[type=submit]")
    problem = first.wait_for_selector("#claim-form .form-problems:not([hidden])")
    assert "8–256" in problem.inner_text()
    assert (
        first.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player')).token")
        == (guest["token"])
    )
    first.fill("#claim-password", PASSWORD)
    first.click("#claim-form button[type=submit]")
    first.wait_for_selector(f"#account > summary:has-text('Signed in as {username}')")
    claimed = _player(first)
    assert claimed["id"] == guest["id"] and claimed["token"] != guest["token"]
    # the top bar: the name, and no "change name" (an account signs out in its area)
    assert first.locator("#top-extra").inner_text().strip() == "Walker"
    first.wait_for_selector("#sessions li.session.current")
    _shot(first, "account-desktop-claimed")

    # another device: a phone, in Dutch
    second = new_page(browser, locale="nl-NL", size=PHONE)
    second.goto(web_server.url + "/#/")
    second.wait_for_selector("#signin-form")
    assert second.evaluate(WIDTH_JS), "the welcome page is wider than a 360 px phone"
    _shot(second, "account-phone-welcome-nl")
    second.fill("#signin-username", username.upper())
    second.fill("#signin-password", "not the password")
    second.click("#signin-form button[type=submit]")
    refused = second.wait_for_selector("#signin-form .form-problems:not([hidden])")
    assert refused.inner_text() == NL["account.err.bad_credentials"]
    second.fill("#signin-username", username)
    second.fill("#signin-password", PASSWORD)
    second.click("#signin-form button[type=submit]")
    second.wait_for_selector(mine)  # the same player's tables
    there = _player(second)
    assert there["id"] == guest["id"] and there["token"] != claimed["token"]
    summary = second.locator("#account > summary")
    assert summary.inner_text() == NL["account.signed_in"].replace("{name}", username)
    summary.click()
    second.wait_for_selector("#sessions li.session >> nth=1")
    assert second.locator("#sessions li.session").count() == 2
    assert second.evaluate(WIDTH_JS), "the account area is wider than a 360 px phone"
    _shot(second, "account-phone-sessions-nl")

    # sign out the other devices: the first browser is a visitor again
    second.click("#end-others")
    second.wait_for_function("() => document.querySelectorAll('#sessions li.session').length === 1")
    first.reload()
    first.wait_for_selector("#signin-form")
    assert first.evaluate("() => localStorage.getItem('hexfolk.player')") is None

    # a new password, then sign out
    second.fill("#password-current", PASSWORD)
    second.fill("#password-new", PASSWORD + " again")
    second.click("#password-form button[type=submit]")
    changed = NL["account.changed"].replace("{n}", "0")
    second.wait_for_function(f"() => document.getElementById('toast').textContent === {changed!r}")
    assert second.locator("#password-form .form-problems:not([hidden])").count() == 0
    old = httpx.post(
        web_server.url + "/api/account/signin",
        json={"username": username, "password": PASSWORD},
        headers={"X-Forwarded-For": "10.9.0.1"},
    )
    assert old.status_code == 401
    second.click("#sign-out")
    second.wait_for_selector("#signin-form")
    gone = httpx.get(
        web_server.url + "/api/me", headers={"Authorization": f"Bearer {there['token']}"}
    )
    assert gone.status_code == 401
    assert not first.errors and not second.errors, first.errors + second.errors


def test_the_account_area_in_every_language(browser: Any, web_server: ThreadServer) -> None:
    """Issue 30 point 1: the account area's texts in nl, en, es and ko (no key shown raw), at
    phone size without a page wider than the phone."""
    for locale in ("nl-NL", "en-US", "es-ES", "ko-KR"):
        page = new_page(browser, locale=locale, size=PHONE)
        page.goto(web_server.url + "/#/")
        page.fill("#name", "Polyglot")
        page.click(".name-form button[type=submit]")
        page.click("#account > summary")
        page.wait_for_selector("#claim-form")
        text = page.locator("#account").inner_text()
        assert "account." not in text, f"{locale}: a raw key in {text!r}"
        assert page.evaluate(WIDTH_JS), f"{locale}: wider than the phone"
        _shot(page, f"account-phone-guest-{locale[:2]}")
        page.context.close()
