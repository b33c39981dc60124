"""Issue 27, point 7, in the browser on both games: a clock running out is announced to
everyone at the table, in the page's language (the server's ``timeout`` notice, docs/protocol.md
"Time-outs"), and the log says the lines it wrote came from the clock ("(time-out)" in the
reader's language): the person whose clock ran out reads "your time is up", everyone else
"<name> ran out of time". IR-28 (island) and the Scythe clock's defaults."""

from __future__ import annotations

from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.bot_table import table_with_a_bot
from tests.web.helpers import in_thread, new_page
from tests.web.own_seat import enter


def _idle_against_a_bot(server: ThreadServer, token: str, game: str) -> str:
    """A started table: the person of ``token`` in seat 0 (never acting: the clock of one
    second plays their defaults), an easy bot in seat 1; its id."""
    return table_with_a_bot(
        server,
        token,
        game,
        seed=27,
        level="easy",
        clock=1.0,
        disconnect={"policy": "wait", "grace": 600},
    )


def _sleeper(server: ThreadServer) -> str:
    async def make() -> str:
        async with HexfolkClient(server.url) as c:
            return str((await c.create_player("Slaapkop"))["token"])

    return str(in_thread(make))


def _toast_with(page: Any, words: str) -> str:
    page.wait_for_function(
        "(w) => { const t = document.querySelector('#toast');"
        " return t.classList.contains('show') && t.textContent.includes(w); }",
        arg=words,
        timeout=30_000,
    )
    return str(page.locator("#toast").text_content())


def test_an_island_time_out_is_told_to_the_person_whose_clock_ran_out(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser, locale="nl-NL")
    token = enter(page, web_server.url + "/", "Ann")
    tid = _idle_against_a_bot(web_server, token, "island")
    page.goto(f"{web_server.url}/#/t/{tid}")
    text = _toast_with(page, "Je tijd is op")
    assert "standaardzetten" in text, text
    page.wait_for_selector("#log li.timeout")
    marked = page.locator("#log li.timeout").all_inner_texts()
    assert marked and all(x.endswith("(tijd om)") for x in marked), marked[:4]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_scythe_time_out_is_told_to_a_watcher_by_name(
    browser: Any, web_server: ThreadServer
) -> None:
    tid = _idle_against_a_bot(web_server, _sleeper(web_server), "scythe")
    page = new_page(browser, locale="nl-NL")
    page.goto(f"{web_server.url}/#/t/{tid}")
    # (the bot's clock of one second may run out too: it is told the same way)
    text = _toast_with(page, "Slaapkop had geen tijd meer")
    assert text == "Slaapkop had geen tijd meer", text
    page.wait_for_selector("#log li.timeout")
    marked = page.locator("#log li.timeout").all_inner_texts()
    assert marked and all(x.endswith("(tijd om)") for x in marked), marked[:4]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
