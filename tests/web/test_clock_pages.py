"""Issue 25 in the browser: the table's log marks the lines a time-out's defaults wrote
(finding 5), and the overview shows the game's duration and each player's turn times
(finding 17). One game: an idle person whose clock keeps running out against an easy bot."""

from __future__ import annotations

from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.server.people_tables import against_a_bot, start_and_watch_to_the_end
from tests.web.helpers import in_thread, new_page


def test_time_outs_marked_and_turn_times_shown(browser: Any, web_server: ThreadServer) -> None:
    async def sleepy_game() -> str:
        async with HexfolkClient(web_server.url) as host:
            t = await against_a_bot(
                host,
                "Sleepy",
                "easy",
                clock=0.05,
                disconnect={"policy": "wait", "grace": 600},
                bot_delay=0,
                options={"vp_target": 8},
            )
            await start_and_watch_to_the_end(host, t["id"], timeout=120)
            return str(t["id"])

    tid = in_thread(sleepy_game, timeout=150)
    page = new_page(browser, locale="nl-NL")
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#log li.timeout")
    marked = page.locator("#log li.timeout").all_inner_texts()
    assert marked and all(x.endswith("(tijd om)") for x in marked), marked[:5]
    engine = [
        page.locator("#log li").nth(i).get_attribute("title") or ""
        for i in range(page.locator("#log li").count())
    ]
    plain = page.locator("#log li:not(.timeout)").all_inner_texts()
    assert not any("(tijd om)" in x for x in plain)
    assert any(e.startswith("seat 1 ") for e in engine)  # the bot's own lines, unmarked
    page.goto(f"{web_server.url}/#/t/{tid}/overview")
    page.wait_for_selector("#time-card")
    duration = page.locator("#duration").inner_text()
    assert duration.startswith("Het spel duurde "), duration
    rows = page.locator("#time-card tbody tr").all_inner_texts()
    assert len(rows) == 2, rows
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_scythe_lobby_form_sets_the_commitment_clock(
    browser: Any, web_server: ThreadServer
) -> None:
    """Finding 10: the lobby form has the commitment clock, with its presets."""
    page = new_page(browser)
    page.goto(web_server.url + "/")
    page.fill("#name", "Clockwise")
    page.click(".name-form button[type=submit]")
    page.wait_for_selector("#set-game")
    page.select_option("#set-game", "scythe")
    page.wait_for_selector("#set-commit-clock")
    options = page.locator("#set-commit-clock option").evaluate_all(
        "(els) => els.map((e) => e.value)"
    )
    assert options == ["15", "30", "45", "60", "90", "120", "unlimited"]
    assert page.input_value("#set-commit-clock") == "60"
    page.select_option("#set-commit-clock", "30")
    page.click("#create-table")
    page.wait_for_selector("#seats li.seat")
    tid = page.url.rsplit("/", 1)[-1]
    table = page.evaluate(f"() => fetch('/api/tables/{tid}').then((r) => r.json())")
    assert table["commit_clock"] == 30
    # the host changes it before the start (PATCH), unlimited included
    page.click("details.settings summary")
    assert page.input_value("#set-commit-clock") == "30"
    page.select_option("#set-commit-clock", "unlimited")
    page.click("details.settings button:has-text('Save')")
    fetch = f"() => fetch('/api/tables/{tid}').then((r) => r.json())"
    for _ in range(50):
        table = page.evaluate(fetch)
        if table["commit_clock"] is None:
            break
        page.wait_for_timeout(100)
    assert table["commit_clock"] is None and table["clock"] == 120, table
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
