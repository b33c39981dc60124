"""Helpers of the browser tests: pages, waiting for a rendered view, the clickable-vs-listed
check, screenshots at desktop and phone sizes, Python clients in their own thread."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from tests.web.conftest import SCREENSHOTS_TAKEN, SHOTS, keep_screenshot

DESKTOP = {"width": 1440, "height": 900}
PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
SIZES = {"desktop": DESKTOP, "phone": PORTRAIT, "landscape": LANDSCAPE}

RENDERED = "() => window.__hexfolkView && window.__hexfolkVersion === window.__hexfolkView.version"

CLICKABLE_JS = """() => {
  const v = window.__hexfolkView;
  if (!v || window.__hexfolkVersion !== v.version) return false;  // read a drawn view only
  const shown = new Set();
  for (const el of document.querySelectorAll('[data-act]'))
    for (const a of el.dataset.act.split('|')) shown.add(a);
  const targets = [...document.querySelectorAll('#board .target')].map((el) => el.dataset.act);
  const enabledWithout = [...document.querySelectorAll('button.act:not([disabled])')]
    .filter((b) => !b.dataset.act).map((b) => b.textContent);
  const disabledWith = [...document.querySelectorAll('button.act[disabled][data-act]')]
    .map((b) => b.dataset.act);
  return {listed: v.legal.map((e) => e.action), shown: [...shown], targets,
          enabledWithout, disabledWith, version: v.version};
}"""


FRAMES_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def settle(page: Any) -> None:
    """Wait for the page's next two frames: a resize laid out and painted (the layout is CSS
    media queries alone, with no transition of size), rather than a fixed while."""
    page.evaluate(FRAMES_JS)


def new_page(browser: Any, locale: str = "en-US", size: dict[str, int] = DESKTOP) -> Any:
    ctx = browser.new_context(viewport=size, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_lines = []  # type: ignore[attr-defined]
    page.on("console", lambda m: page.console_lines.append(m.text))  # type: ignore[attr-defined]
    page.errors = errors  # type: ignore[attr-defined]
    return page


_SHOT: set[str] = set()


ALL_SIZES = ("desktop", "phone", "landscape")


def shoot(
    page: Any,
    name: str,
    sizes: tuple[str, ...] = ALL_SIZES,
    once: bool = True,
    show: str | None = None,
) -> None:
    """Screenshots of the page as it is now, at each size (back at desktop size after); a name
    is shot once per run unless ``once`` is false; ``show`` (a selector) is scrolled into view
    at each size first."""
    if once and name in _SHOT:
        return
    _SHOT.add(name)
    if not SCREENSHOTS_TAKEN:  # as after the shots: back at desktop size
        page.set_viewport_size(DESKTOP)
        settle(page)
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in sizes:
        page.set_viewport_size(SIZES[size])
        settle(page)
        if show:
            reveal_tab(page, show)
            page.locator(show).first.scroll_into_view_if_needed()
        keep_screenshot(page, SHOTS / f"{name}-{size}.png")
    page.set_viewport_size(DESKTOP)
    settle(page)


def reveal_tab(page: Any, selector: str) -> None:
    """On a phone a panel may sit in a tab not shown (table_page.js, issue 27): tap its tab."""
    page.evaluate(
        "(sel) => { const el = document.querySelector(sel);"
        " const pane = el && !el.checkVisibility() && el.closest('[data-pane]');"
        " const tab = pane && document.getElementById(`tab-${pane.dataset.pane}`);"
        " if (tab && tab.checkVisibility()) tab.click(); }",
        selector,
    )


def view(page: Any) -> dict[str, Any]:
    page.wait_for_function(RENDERED, timeout=15_000)
    return dict(page.evaluate("() => window.__hexfolkView"))


def wait_rendered(page: Any, predicate_js: str, timeout: float = 20_000) -> dict[str, Any]:
    """Wait for a drawn view where ``predicate_js`` (a JS expression over ``v``) holds."""
    page.wait_for_function(
        f"() => {{ const v = window.__hexfolkView; return !!v && "
        f"window.__hexfolkVersion === v.version && ({predicate_js}); }}",
        timeout=timeout,
    )
    return dict(page.evaluate("() => window.__hexfolkView"))


def check_clickable(page: Any) -> dict[str, Any]:
    """What the page offers is exactly what the server listed (no rule lives in JavaScript)."""
    got = page.wait_for_function(CLICKABLE_JS, timeout=15_000).json_value()
    assert sorted(set(got["shown"])) == sorted(set(got["listed"])), got
    assert not got["enabledWithout"] and not got["disabledWith"], got
    board_kinds = ("settle ", "road ", "city ", "robber ")
    listed_board = sorted(
        a for a in got["listed"] if a.startswith(board_kinds) and a != "robber stay"
    )
    on_board = sorted(a for t in got["targets"] for a in t.split("|"))
    assert on_board == listed_board, got
    return dict(got)


def act_and_wait(page: Any, target: Any, timeout: float = 15_000, seen: int | None = None) -> bool:
    """Click ``target`` (a selector: its first match, or a locator), then wait until a newer
    view is drawn (or the server's refusal shows). False when the thing to click went away
    first (the bots moved on: offers close, answers race)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    locator = page.locator(target).first if isinstance(target, str) else target
    v0 = page.evaluate("() => window.__hexfolkView.version")
    decided = v0 if seen is None else seen
    try:
        locator.click(timeout=3_000)
    except PlaywrightTimeout:
        if page.evaluate("() => window.__hexfolkView.version") == decided:
            raise  # the view the decision was made on lacks what it listed: a bug
        return False
    page.wait_for_function(
        f"() => (window.__hexfolkVersion > {v0}) || document.querySelector('#toast.show')",
        timeout=timeout,
    )
    return True


class Background:
    """A coroutine run with ``asyncio.run`` in its own thread (Playwright's sync API owns the
    main thread); ``result()`` joins it."""

    def __init__(self, fn: Callable[[], Awaitable[Any]]):
        self.value: Any = None
        self.error: BaseException | None = None

        def target() -> None:
            try:
                self.value = asyncio.run(fn())  # type: ignore[arg-type]
            except BaseException as exc:  # reported by result()
                self.error = exc

        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()

    def result(self, timeout: float = 120) -> Any:
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise TimeoutError("the background client did not finish")
        if self.error is not None:
            raise self.error
        return self.value


def in_thread(fn: Callable[[], Awaitable[Any]], timeout: float = 120) -> Any:
    return Background(fn).result(timeout)


def seed_tables(page: Any, seed: int) -> None:
    """Add a seed to the page's POST /api/tables, so the person's game is reproducible."""

    def handle(route: Any) -> None:
        req = route.request
        if req.method == "POST":
            body = json.loads(req.post_data or "{}")
            body["seed"] = seed
            route.continue_(post_data=json.dumps(body))
        else:
            route.continue_()

    page.route("**/api/tables", handle)
