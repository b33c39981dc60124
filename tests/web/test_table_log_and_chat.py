"""The log and the chat of both games' table pages for screen readers and for text that plays
with direction (issue 25, finding 18): the log is a polite live region (``role="log"``,
``aria-live="polite"``) whose drawn lines stay the same elements when new ones come, so only
the new lines are added (and read out), not the whole log again; a chat line starting with
U+202E (RIGHT-TO-LEFT OVERRIDE) is isolated, as is the name before it (``<bdi>``: direction
from its own text, ``unicode-bidi: isolate``), so it cannot turn the name or what follows.
Playwright on Debian's Chromium against a real uvicorn server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.bot_table import at_a_table_with_a_bot
from tests.web.helpers import new_page, shoot, wait_rendered

SEED = 9
OVERRIDE = "\u202e"

WATCH_LOG = """() => {
  const log = document.querySelector('#log');
  window.__added = 0;
  for (const li of log.children) li.__old = true;
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) if (n.nodeName === 'LI') window.__added++;
  }).observe(log, { childList: true });
  return log.children.length;
}"""


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_log_is_a_live_region_that_adds_only_the_new_lines(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    page = new_page(browser)
    at_a_table_with_a_bot(page, web_server, game, SEED)
    v = wait_rendered(page, "v.legal.length > 0")
    log = page.locator(".log-box:has(> #log)")  # the list's box (a role=log list breaks its items)
    assert log.get_attribute("aria-live") == "polite"
    assert log.get_attribute("role") == "log"

    # --- a new line is the only node added to the log ----------------------------------------
    page.wait_for_function("() => document.querySelector('#log').children.length > 0")
    before = page.evaluate(WATCH_LOG)
    page.evaluate("(a) => window.__hexfolkAct(a)", v["legal"][0]["action"])
    wait_rendered(page, f"v.version > {v['version']}")
    page.wait_for_function(f"() => document.querySelector('#log').children.length > {before}")
    after = page.evaluate("() => document.querySelector('#log').children.length")
    old_kept = page.evaluate(
        "() => [...document.querySelector('#log').children].filter((li) => li.__old).length"
    )
    assert old_kept == before, (old_kept, before)
    assert page.evaluate("() => window.__added") == after - before

    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_a_chat_line_starting_with_an_override_is_isolated(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    page = new_page(browser)
    at_a_table_with_a_bot(page, web_server, game, SEED)
    wait_rendered(page, "true")
    text = OVERRIDE + "hello world"
    page.fill("#chat-input", text)
    page.click(".chat-form button[type=submit]")
    line = page.locator("#chat li").last
    line.wait_for()
    name = line.locator("bdi.chat-name")
    said = line.locator("bdi.chat-text")
    assert name.text_content() == "Ann"
    assert said.text_content() == text
    for part in (name, said):
        assert part.evaluate("(e) => getComputedStyle(e).unicodeBidi") == "isolate"
        assert part.evaluate("(e) => e.dir") in ("", "auto")  # <bdi>: direction from its text
    # drawn: the name first (left), its letters in order, and the line's text after it
    boxes = line.evaluate(
        """(li) => {
          const at = (el, i) => { const r = document.createRange(); const t = el.firstChild;
            r.setStart(t, i); r.setEnd(t, i + 1); return r.getBoundingClientRect().left; };
          const n = li.querySelector('bdi.chat-name'), m = li.querySelector('bdi.chat-text');
          return {a: at(n, 0), n: at(n, 2), msg: m.getBoundingClientRect().left,
                  nameRight: n.getBoundingClientRect().right};
        }"""
    )
    assert boxes["a"] < boxes["n"] < boxes["nameRight"] <= boxes["msg"], boxes
    shoot(page, f"log-chat-{game}", ("desktop", "phone"), show="#chat")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
