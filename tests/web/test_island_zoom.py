"""Zoom and pan of the board (issue 13: "works on a phone in portrait and landscape"): the
buttons, the wheel, a two-finger pinch, a drag once zoomed, and the keys + − 0 and the arrows;
the SVG keeps filling its box (only its viewBox changes), a drag never clicks the target under
it, and what is clickable stays exactly what the server listed."""

from __future__ import annotations

from typing import Any

from tests.server.helpers import ThreadServer
from tests.web.helpers import PORTRAIT, act_and_wait, check_clickable, new_page, shoot

VIEWBOX = "() => document.querySelector('#board').getAttribute('viewBox').split(' ').map(Number)"
ZOOM = "() => Number(document.querySelector('#board').dataset.zoom)"
BOX = """() => {
  const r = document.querySelector('#board').getBoundingClientRect();
  return [r.width, r.height];
}"""

NEAREST_JS = """() => {
  const r = document.querySelector('#board').getBoundingClientRect();
  const mx = r.left + r.width / 2, my = r.top + r.height / 2;
  let best = null, bd = Infinity;
  for (const el of document.querySelectorAll('.target-node.settle')) {
    const b = el.getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height / 2;
    const d = Math.hypot(x - mx, y - my);
    if (d < bd) { bd = d; best = [x, y, el.dataset.act]; }
  }
  return best;
}"""

PINCH_JS = """([grow]) => {
  const svg = document.querySelector('#board');
  const r = svg.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const ev = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: x,
    clientY: cy, bubbles: true, cancelable: true, pointerType: 'touch', isPrimary: id === 1}));
  ev('pointerdown', 1, cx - 20); ev('pointerdown', 2, cx + 20);
  for (let i = 1; i <= 5; i++) {
    ev('pointermove', 1, cx - 20 - i * grow);
    ev('pointermove', 2, cx + 20 + i * grow);
  }
  ev('pointerup', 1, cx - 20 - 5 * grow); ev('pointerup', 2, cx + 20 + 5 * grow);
  return Number(svg.dataset.zoom);
}"""


def test_zoom_and_pan_on_a_phone(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser, size=PORTRAIT)
    page.goto(web_server.url + "/")
    page.fill("#name", "Pia")
    page.click(".name-form button[type=submit]")
    page.wait_for_selector("#create-table")
    page.select_option("#set-players", "3")
    page.select_option("#set-bot-delay", "0")
    for i in (1, 2):
        page.select_option(f"#spec-{i}", "bot:random")
    page.click("#create-table")
    page.wait_for_selector("#start")
    page.click("#start")
    page.wait_for_selector(".target-node.settle")
    home = page.evaluate(VIEWBOX)
    box = page.evaluate(BOX)
    assert box[0] >= PORTRAIT["width"] - 40  # the board fills the phone's width
    assert page.evaluate(ZOOM) == 1
    assert page.locator(".zoom-out").is_disabled() and page.locator(".zoom-home").is_disabled()

    # the buttons
    page.click(".zoom-in")
    assert page.evaluate(ZOOM) == 1.5
    vb = page.evaluate(VIEWBOX)
    assert abs(vb[2] - home[2] / 1.5) < 0.05 and abs(vb[3] - home[3] / 1.5) < 0.05
    assert page.evaluate(BOX) == box  # still the same box: only the view zooms
    check_clickable(page)  # the same targets, listed and shown
    shoot(page, "table-zoomed", ("phone", "landscape"))
    page.click(".zoom-home")
    assert page.evaluate(ZOOM) == 1 and page.evaluate(VIEWBOX) == home

    # the keyboard: + − 0 and the arrows with the board focused
    page.focus("#board")
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert page.evaluate(ZOOM) == 2.25
    before = page.evaluate(VIEWBOX)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    after = page.evaluate(VIEWBOX)
    assert after[0] > before[0] and after[1] > before[1] and after[2] == before[2]
    page.keyboard.press("-")
    assert page.evaluate(ZOOM) == 1.5
    page.keyboard.press("0")
    assert page.evaluate(ZOOM) == 1

    # the wheel zooms around the pointer; a pinch of two fingers zooms too
    r = page.locator("#board").bounding_box()
    page.mouse.move(r["x"] + r["width"] / 2, r["y"] + r["height"] / 2)
    page.mouse.wheel(0, -200)
    page.wait_for_function("() => Number(document.querySelector('#board').dataset.zoom) > 1")
    page.click(".zoom-home")
    assert page.evaluate(PINCH_JS, [12]) > 1.5
    assert page.evaluate(PINCH_JS, [-3]) < page.evaluate(ZOOM) + 1e-9  # fingers closing: out

    # a drag over a target pans and does not build; a click then builds
    if page.locator(".zoom-home").is_enabled():
        page.click(".zoom-home")
    page.click(".zoom-in")
    page.click(".zoom-in")
    v0 = page.evaluate("() => window.__hexfolkView.version")
    # the target nearest the middle of the board (zoomed in, others lie outside the view)
    x, y, _ = page.evaluate(NEAREST_JS)
    vb0 = page.evaluate(VIEWBOX)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y + 30, steps=6)
    page.mouse.up()
    page.wait_for_timeout(400)
    assert page.evaluate(VIEWBOX) != vb0  # it panned
    assert page.evaluate("() => window.__hexfolkView.version") == v0  # and sent nothing
    check_clickable(page)
    act = page.evaluate(NEAREST_JS)[2]  # one in view after the pan
    assert act_and_wait(page, f'.target-node[data-act="{act}"]')
    assert page.evaluate("() => window.__hexfolkView.version") > v0
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
