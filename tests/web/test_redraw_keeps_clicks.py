"""A redraw keeps a button that did not change as the same element (``keepEqual`` in
``web/dom.js``), so a click whose mouse-down came before the redraw and whose mouse-up came
after still lands. The island's action bar and board targets, and Scythe's decision bar,
status row and board targets redraw through it: the server resends a seat's view with the same
version when only its undo offer changed (docs/undo.md), a quarter of a second after a step,
which is when a player's next click is on its way. A click lost there left the game waiting
on a person who had clicked "end turn"."""

from __future__ import annotations

from typing import Any

from tests.server.helpers import ThreadServer
from tests.web.helpers import new_page

SETUP_JS = """async (mode) => {
  const dom = await import('/app/dom.js');
  const box = document.createElement('div');
  box.id = 'redraw-box';
  box.style.cssText = 'position:fixed;top:40px;left:40px;z-index:9999;background:#fff';
  document.body.append(box);
  window.__clicks = [];
  const make = (id, text) => {
    const b = document.createElement('button');
    b.id = id; b.textContent = text; b.style.cssText = 'width:120px;height:40px';
    b.addEventListener('click', () => window.__clicks.push(id));
    return b;
  };
  box.replaceChildren(make('a', 'A'), make('end', 'End turn'), make('c', 'C'));
  window.__old = [...box.children];
  window.__redraw = () => {
    const kids = [make('a', 'A'), make('end', 'End turn'), make('c', 'C changed')];
    if (mode === 'keep') dom.keepEqual(box, kids); else box.replaceChildren(...kids);
  };
}"""


def _click_across_redraw(page: Any, mode: str) -> list[str]:
    page.evaluate(SETUP_JS, mode)
    box = page.locator("#redraw-box #end").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 10)
    page.mouse.down()
    page.evaluate("() => window.__redraw()")
    page.mouse.up()
    return list(page.evaluate("() => window.__clicks"))


def test_a_click_across_a_redraw_lands_on_the_kept_button(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser)
    page.goto(web_server.url + "/")
    assert _click_across_redraw(page, "keep") == ["end"]
    kept = page.evaluate(
        "() => [...document.querySelector('#redraw-box').children].map("
        "(el, i) => [el.id, el.textContent, el === window.__old[i]])"
    )
    # the unchanged buttons are the old elements; the changed one is new
    assert kept == [["a", "A", True], ["end", "End turn", True], ["c", "C changed", False]]


def test_replacing_the_button_under_the_pointer_loses_the_click(
    browser: Any, web_server: ThreadServer
) -> None:
    """What keepEqual guards against, shown in the same browser: a replaced node gets the
    mouse-up but not the mouse-down, and no click fires on either."""
    page = new_page(browser)
    page.goto(web_server.url + "/")
    assert _click_across_redraw(page, "replace") == []


def test_keep_equal_orders_keeps_and_drops(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser)
    page.goto(web_server.url + "/")
    got = page.evaluate(
        """async () => {
          const dom = await import('/app/dom.js');
          const box = document.createElement('div');
          const mk = (t) => {
            const b = document.createElement('button');
            b.textContent = t;
            return b;
          };
          box.append(mk('A'), mk('B'), mk('C'));
          const old = [...box.children];
          dom.keepEqual(box, [mk('C'), null, 'text', mk('A'), [mk('D')]]);
          return [...box.childNodes].map((n) => [n.textContent, old.indexOf(n)]);
        }"""
    )
    assert got == [["C", 2], ["text", -1], ["A", 0], ["D", -1]]
