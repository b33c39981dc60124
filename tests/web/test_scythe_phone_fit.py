"""Scythe played one-handed on a phone, and what is left of issue 27 ("Phone first"; the Deliver's
"the replay"; "One language": the end's reason as data):

- At 360x640 with the Mat tab open the board kept ~100 px and its zoom buttons were cut: now, at
  360x640, 390x844, 640x360 and 844x390, with the Mat tab open at each of the person's first
  decisions, the board keeps at least 30% of a window held upright (192 px at 360x640) and
  its three zoom buttons are whole inside it and on top; no page is wider than its window; every
  control offered is the top element at its centre (the prompt covers none); the section to pick
  is reached inside the mat with the board in sight, the page itself not scrolled.
- The replay at 360x640 had the step's text below the fold: now the step's text, the play,
  step and slider controls and the board are all in the window together, upright and on its side,
  for the island and Scythe.
- "Ended by" was the engine's English words: the page writes the summary's form in Korean and in
  Dutch (games/scythe/ended_by.py; the templates of web/i18n/scythe), Korean table headers
  break between words, not inside one.

Playwright on Debian's Chromium against a real uvicorn server, real games with bots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.bot_table import table_with_a_bot
from tests.web.helpers import settle, wait_rendered
from tests.web.own_seat import enter
from tests.web.scythe_helpers import calm_choice
from tests.web.test_phone_layout import ON_TOP_JS, SIZES, WIDTH_JS, _phone, _shot, _tap

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
EN = json.loads((WEB / "i18n" / "scythe" / "en.json").read_text(encoding="utf-8"))
FOUR = ("phone360", "phone390", "side640", "side844")

BOARD_JS = """() => {
  const w = document.querySelector('.board-wrap').getBoundingClientRect();
  const zoom = [...document.querySelectorAll('.board-wrap .zoom-btn')].map((b) => {
    const r = b.getBoundingClientRect();
    const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {inside: r.top >= w.top - 1 && r.bottom <= w.bottom + 1 && r.left >= w.left - 1
              && r.right <= w.right + 1 && r.bottom <= innerHeight,
            onTop: !!e && b.contains(e)};
  });
  return {top: w.top, bottom: w.bottom, height: w.height, width: w.width, inner: innerHeight,
          zoom, scrolled: document.scrollingElement.scrollTop};
}"""

# the first section of the mat to pick, scrolled into view inside the mat (not the page): its
# centre's top element, the page's scroll, the mat's box
SECTION_JS = """() => {
  const el = document.querySelector('#my-mat .section.pick');
  if (!el) return null;
  el.scrollIntoView({block: 'nearest'});
  const r = el.getBoundingClientRect();
  const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {onTop: !!e && el.contains(e), by: e ? `${e.tagName}.${e.className}` : null,
          inWindow: r.top >= 0 && r.bottom <= innerHeight + 1,
          scrolled: document.scrollingElement.scrollTop};
}"""


@pytest.fixture(scope="module")
def web_server(finished_server: ThreadServer) -> ThreadServer:
    """The session's server of finished games (conftest, as test_replay_controls): its
    finished games are played once per test process, not once more for this module; this
    module's own tables are made there too."""
    return finished_server


def _board_holds(page: Any, where: str, size: str) -> None:
    got = page.evaluate(BOARD_JS)
    held_upright = SIZES[size]["height"] > SIZES[size]["width"]
    least = 0.3 * got["inner"] if held_upright else 200  # 192 px at 360x640
    assert got["height"] >= least, (where, got)  # was ~100 px at 360x640 with the Mat tab
    assert got["top"] >= 0 and got["bottom"] <= got["inner"] + 1, (where, got)
    assert len(got["zoom"]) == 3 and all(z["inside"] and z["onTop"] for z in got["zoom"]), (
        where,
        got,
    )
    assert got["scrolled"] == 0, (where, got)


def _everything_fits(page: Any, where: str) -> None:
    wide = page.evaluate(WIDTH_JS)
    assert wide["scroll"] <= wide["inner"], (where, wide)
    for it in page.evaluate(ON_TOP_JS):
        if not it["inView"] and it["scroller"]:
            continue  # below in its own scroller (the mat): reached by scrolling it, below
        assert it["inView"] and it["onTop"], (where, it)


def test_the_mat_tab_leaves_the_board_and_its_zoom_in_sight(
    browser: Any, web_server: ThreadServer
) -> None:
    """At each of the person's first decisions, at each size of ``FOUR`` by resizing the page
    (the layout is CSS media queries alone); each size taps in turn. One game, not the same
    game's first decisions played once per size (CI time)."""
    page = _phone(browser, FOUR[0])
    token = enter(page, web_server.url + "/", "Ann")
    tid = table_with_a_bot(web_server, token, "scythe", seed=11)
    page.goto(f"{web_server.url}/#/t/{tid}")
    decisions = 0
    seen_pick: set[str] = set()
    tapped_at: set[str] = set()
    while decisions < 8:
        v = wait_rendered(page, "v.legal.length > 0", timeout=30_000)
        kind = (v["observation"].get("prompt") or {}).get("kind")
        tap_at = FOUR[decisions % len(FOUR)]
        for size in [s for s in FOUR if s != tap_at] + [tap_at]:
            page.set_viewport_size(SIZES[size])
            settle(page)
            where = f"{size} v{v['version']}"
            if kind == "choose-section" and size not in seen_pick:
                # away from the mat the hint names the tab, not "below the board" (not there)
                page.locator("#tab-log").tap()
                hint = page.locator("#hint-to-my-mat")
                assert hint.inner_text().strip() == EN["sc.on_mat_tab"], (where, hint.inner_text())
            page.locator("#tab-mat").tap()  # the person looks at their mat
            page.wait_for_timeout(150)
            _board_holds(page, where + " mat", size)
            _everything_fits(page, where + " mat")
            if kind == "choose-section":
                got = page.evaluate(SECTION_JS)
                assert got and got["onTop"] and got["inWindow"], (where, got)
                assert got["scrolled"] == 0, (where, got)  # the mat scrolled, not the page
                _board_holds(page, where + " section in view", size)
                if size not in seen_pick:
                    _shot(page, f"scythe-mat-tab-{size}")
                seen_pick.add(size)
        if _tap(page, calm_choice(v), v["version"]):
            decisions += 1
            tapped_at.add(tap_at)
    assert seen_pick == set(FOUR), seen_pick
    assert tapped_at == set(FOUR), tapped_at
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- a finished game of each: the end's reason and the replay ----------------------------------
@pytest.fixture(scope="module")
def finished(finished_tables: dict[str, tuple[str, int]]) -> dict[str, str]:
    """A finished island game and Scythe game of easy bots (finished_games.GAMES, shared with
    the replay's and the analysis' tests): their ids."""
    return {game: finished_tables[game][0] for game in ("island", "scythe")}


# the words (of two letters or more) of the text inside ``sel`` that a line break cuts in two
BROKEN_WORDS_JS = """(sel) => [...document.querySelectorAll(sel)].flatMap((el) => {
  const out = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const text = node.textContent;
    let at = 0;
    for (const word of text.split(/\\s+/)) {
      const start = text.indexOf(word, at);
      at = start + word.length;
      if (word.length < 2) continue;
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, at);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(word);
    }
  }
  return out;
})"""


# the pickers of the create form's seats whose chosen option's words run under the arrow
CUT_CHOICES_JS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('.sc-pick select')].filter((sel) => {
    const cs = getComputedStyle(sel);
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = sel.options[sel.selectedIndex].text;
    return ctx.measureText(text).width > sel.clientWidth - 22;  // the arrow and the padding
  }).map((sel) => sel.options[sel.selectedIndex].text);
}"""


def _in_language(browser: Any, url: str, lang: str, size: str) -> Any:
    page = _phone(browser, size)
    page.add_init_script(f"localStorage.setItem('hexfolk.lang', '{lang}');")
    page.goto(url + "/")
    return page


@pytest.mark.parametrize("lang", ["ko", "nl"])
def test_the_end_says_why_in_the_pages_language(
    browser: Any, web_server: ThreadServer, finished: dict[str, str], lang: str
) -> None:
    tid = finished["scythe"]
    page = _in_language(browser, web_server.url, lang, "phone360")
    summary = page.evaluate(
        f"async () => (await (await fetch('/api/tables/{tid}/summary')).json()).result.summary"
    )
    form = summary["ended_by"]["form"]
    english = summary["ended_by"]["text"]
    texts = json.loads((WEB / "i18n" / "scythe" / f"{lang}.json").read_text(encoding="utf-8"))
    words = texts[f"sc.ended_by.{form}"]
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#ended-by", timeout=20_000)
    said = page.locator("#ended-by").inner_text()
    assert words in said and english not in said, (said, words, english)
    frame = texts["sc.end_reason"].split("{why}")[0]
    assert said.startswith(frame), (said, frame)
    # Korean: a header of the score table breaks between words, never inside one
    broken = page.evaluate(BROKEN_WORDS_JS, "#scores th")
    assert broken == [], broken
    _shot(page, f"scythe-ended-by-{lang}")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


REPLAY_JS = """() => {
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null;
    const r = el.getBoundingClientRect();
    const e = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));
    return {top: r.top, bottom: r.bottom, height: r.height, onTop: !!e && el.contains(e),
            inWindow: r.top >= 0 && r.bottom <= innerHeight + 1 && r.height > 0}; };
  return {board: box('.board-wrap'), step: box('#replay-now'), play: box('#replay-play'),
          next: box('#replay-next'), prev: box('#replay-prev'), slider: box('#replay-slider'),
          scroll: document.documentElement.scrollWidth, inner: innerWidth,
          scrolled: document.scrollingElement.scrollTop};
}"""


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_replays_step_text_and_controls_fit_with_the_board(
    browser: Any, web_server: ThreadServer, finished: dict[str, str], game: str
) -> None:
    """At 360x640 and 640x360: the page is resized at each step looked at (the layout is CSS
    media queries alone), so the steps are stepped through once, not once per size."""
    sizes = ("phone360", "side640")
    page = _phone(browser, sizes[0])
    page.goto(f"{web_server.url}/#/t/{finished[game]}/replay")
    page.wait_for_selector("#replay-now", timeout=20_000)
    for turn, steps in enumerate((0, 12, 25)):  # the start, then steps that say something
        for _ in range(steps):
            page.locator("#replay-next").click()
        for size in sizes[turn % 2 :] + sizes[: turn % 2]:
            page.set_viewport_size(SIZES[size])
            settle(page)
            got = page.evaluate(REPLAY_JS)
            where = (game, size, steps, got)
            assert got["scroll"] <= got["inner"], where
            assert got["scrolled"] == 0, where
            assert got["board"]["inWindow"] and got["board"]["height"] >= 150, where
            for part in ("step", "play", "next", "prev", "slider"):
                assert got[part]["inWindow"] and got[part]["onTop"], (part, where)
            if turn == 2:
                _shot(page, f"replay-{game}-{size}")
    assert page.locator("#replay-now").inner_text().strip()
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", ["nl", "ko"])
def test_the_lobby_and_the_create_form_fit_a_long_name(
    browser: Any, web_server: ThreadServer, lang: str
) -> None:
    # the header of a person with a long name was 372 px wide at 360 px (Dutch), the language
    # picker cut; a Korean label of the create form broke inside a word ("크리미|아"); Dutch
    # "willekeurige factie" ran under its picker's arrow
    page = _in_language(browser, web_server.url, lang, "phone360")
    enter(page, web_server.url + "/", "Annemarie Wilhelmina")
    for game in ("island", "scythe"):
        page.select_option("#set-game", game)
        page.wait_for_timeout(200)
        wide = page.evaluate(WIDTH_JS)
        assert wide["scroll"] <= wide["inner"], (lang, game, wide)
        right = page.evaluate("() => document.querySelector('#lang').getBoundingClientRect().right")
        assert right <= 360, (lang, game, right)
        if lang == "ko":
            broken = page.evaluate(BROKEN_WORDS_JS, ".create label, .create h2, .create h3")
            assert broken == [], (game, broken)
        if game == "scythe":  # each seat's faction and mat pickers show their choice whole
            cut = page.evaluate(CUT_CHOICES_JS)
            assert cut == [], (lang, cut)
    _shot(page, f"create-form-{lang}-phone360")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
