"""Issue 27, "the Korean page renders its glyphs": with the page in Korean, the Hangul of the home
page's title and of a table's prompt is drawn with a font that has it (the test command
installs ``fonts-noto-cjk`` with Chromium), not as boxes. Two ways, both in Debian's Chromium:
the fonts Chromium used for the element's text (DevTools ``CSS.getPlatformFontsForNode``) cover
every Hangul character with a CJK font, and, drawn one by one on a canvas in the element's own
font, different syllables give different pictures, none the picture of a character no font has
(U+10FFFD, a tofu box)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.bot_table import table_with_a_bot
from tests.web.helpers import new_page
from tests.web.own_seat import enter

HANGUL = re.compile(r"[\uac00-\ud7a3]")

GLYPHS_JS = """(sel) => {
  const el = document.querySelector(sel);
  const font = getComputedStyle(el).font;
  const text = el.innerText;
  const syllables = [...new Set([...text].filter((c) => /[\\uac00-\\ud7a3]/.test(c)))].slice(0, 8);
  const picture = (c) => {
    const cv = document.createElement('canvas');
    cv.width = 64; cv.height = 64;
    const g = cv.getContext('2d');
    g.font = font.replace(/\\d+(\\.\\d+)?px/, '40px');
    g.fillStyle = '#000';
    g.textBaseline = 'top';
    g.fillText(c, 4, 4);
    const d = g.getImageData(0, 0, 64, 64).data;
    let s = '', ink = 0;
    for (let i = 3; i < d.length; i += 4) { s += d[i] > 127 ? '1' : '0'; if (d[i] > 127) ink += 1; }
    return {s, ink};
  };
  const tofu = picture('\\u{10FFFD}').s;
  const pics = syllables.map((c) => ({c, ...picture(c)}));
  return {font, text, syllables,
          tofu: pics.filter((p) => p.s === tofu).map((p) => p.c),
          blank: pics.filter((p) => p.ink === 0).map((p) => p.c),
          distinct: new Set(pics.map((p) => p.s)).size};
}"""


def _fonts_used(page: Any, selector: str) -> list[dict[str, Any]]:
    """The platform fonts Chromium drew ``selector``'s text with (family, glyph count)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    # the fonts of an element's own text nodes: ask for the element and each element in it
    described = cdp.send("DOM.describeNode", {"nodeId": node, "depth": -1})["node"]
    backend: list[int] = []
    todo = list(described.get("children") or [])
    while todo:
        n = todo.pop()
        todo += n.get("children") or []
        if n.get("nodeType") == 1:
            backend.append(n["backendNodeId"])
    ids = [node]
    if backend:
        pushed = cdp.send("DOM.pushNodesByBackendIdsToFrontend", {"backendNodeIds": backend})
        ids += pushed["nodeIds"]
    fonts: list[dict[str, Any]] = []
    for nid in dict.fromkeys(ids):
        fonts += cdp.send("CSS.getPlatformFontsForNode", {"nodeId": nid})["fonts"]
    cdp.detach()
    return fonts


def _check_hangul(page: Any, selector: str) -> None:
    got = page.evaluate(GLYPHS_JS, selector)
    hangul = HANGUL.findall(got["text"])
    assert len(hangul) >= 2, f"no Korean text in {selector}: {got['text']!r}"
    assert len(got["syllables"]) >= 2, got
    # drawn, not boxes: each syllable has ink, none is the no-font box, they differ
    assert not got["blank"] and not got["tofu"], (selector, got["font"], got)
    assert got["distinct"] == len(got["syllables"]), (selector, got["font"], got)
    fonts = _fonts_used(page, selector)
    cjk = [f for f in fonts if re.search(r"CJK|KR|Korean|Gothic|Hangul|Nanum", f["familyName"])]
    assert cjk, f"{selector}'s Hangul drawn with {fonts}, no CJK font among them"
    assert sum(f["glyphCount"] for f in cjk) >= len(hangul), (fonts, len(hangul))


@pytest.mark.parametrize("size", [{"width": 1440, "height": 900}, {"width": 390, "height": 844}])
def test_the_korean_pages_draw_hangul_with_a_cjk_font(
    browser: Any, web_server: ThreadServer, size: dict[str, int]
) -> None:
    page = new_page(browser, locale="ko-KR", size=size)
    page.goto(web_server.url + "/")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.wait_for_selector("h1")
    _check_hangul(page, "h1")
    token = enter(page, web_server.url + "/", "민지")
    tid = table_with_a_bot(web_server, token, "island", seed=3)
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#status")
    page.wait_for_function(
        r"() => /[\uac00-\ud7a3]{2}/.test(document.querySelector('#status').innerText)"
    )
    _check_hangul(page, "#status")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
