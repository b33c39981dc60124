"""The checks a person makes by looking (issue 27, "Checks that a person would make, automated"),
as functions over a Playwright page: nothing wider than the screen, every clickable thing the
top element at its centre, an axe-core scan with no serious or critical violation, and Hangul
drawn with a CJK font. Each returns what it found wrong as sentences (empty: nothing), so a
test can gather them over a whole game and report them together."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core from the npm registry (tests/web/package.json; `make test` runs `npm install`)."""

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1440, "height": 900}
SIZES = {"desktop": DESKTOP, "phone390": PHONE, "phone360": SMALL_PHONE}

OVERFLOW_JS = """() => {
  const inner = window.innerWidth;
  const wide = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  if (wide <= inner) return null;
  // the elements whose right edge passes the screen's, outermost first (the culprits)
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= inner + 0.5) continue;
    if (out.some((o) => o.el.contains(el))) continue;
    out.push({el, right: Math.round(r.right + window.scrollX)});
    if (out.length >= 5) break;
  }
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  return {inner, wide, culprits: out.map((o) => `${name(o.el)} (right ${o.right})`)};
}"""

HIT_JS = """() => {
  const name = (el) => {
    if (!el) return 'nothing';
    let s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    const cls = el.getAttribute('class');
    if (cls) s += '.' + cls.trim().split(/\\s+/).join('.');
    if (el.dataset && el.dataset.act) s += `[data-act="${el.dataset.act}"]`;
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 30);
    return text ? `${s} "${text}"` : s;
  };
  const modal = document.querySelector('.modal');
  const root = modal || document;
  // what a person can press: enabled buttons, links styled as buttons, and everything that
  // carries a listed action (the board's targets, mat sections, choices)
  const els = new Set(root.querySelectorAll(
    'button:not([disabled]), a.button, [data-act]:not([disabled])'));
  const bad = [];
  let checked = 0;
  for (const el of els) {
    if (el.closest('[hidden], [inert]') || el.getClientRects().length === 0) continue;
    // not drawn (display, visibility, a closed <details>' content) or not pressable
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    if (getComputedStyle(el).pointerEvents === 'none') continue;
    // as a person scrolling meets it: at the bottom edge coming down from the top, at the
    // top edge coming up from the bottom (where a pinned bar may lie over it)
    for (const from of ['top', 'bottom']) {
      window.scrollTo(0, from === 'top' ? 0 : document.documentElement.scrollHeight);
      el.scrollIntoView({block: 'nearest', inline: 'nearest'});
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) break;
      if (from === 'top') checked += 1;
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const at = `scrolled in from the ${from}, its centre (${Math.round(x)}, ${Math.round(y)})`;
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) {
        const screen = `${window.innerWidth}x${window.innerHeight}`;
        bad.push(`${name(el)}: ${at} stays off the ${screen} screen`);
        break;
      }
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) continue;
      bad.push(`${name(el)}: ${at} is under ${name(hit)}`);
      break;
    }
  }
  window.scrollTo(0, 0);
  return {checked, bad};
}"""

AXE_RUN_JS = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}: ` +
                    n.failureSummary.split('\\n').slice(1).join(' ').trim()),
                  count: v.nodes.length}));
}"""


def overflow(page: Any, where: str) -> list[str]:
    """The page is no wider than the screen (scrollWidth <= innerWidth); else what sticks out."""
    got = page.evaluate(OVERFLOW_JS)
    if not got:
        return []
    return [
        f"{where}: the page is {got['wide']} px wide on a {got['inner']} px screen;"
        f" sticking out: {', '.join(got['culprits'])}"
    ]


def covered(page: Any, where: str) -> tuple[int, list[str]]:
    """Every clickable thing, scrolled into view, is the top element at its centre
    (``elementFromPoint``); how many were checked and the ones covered or off screen."""
    got = page.evaluate(HIT_JS)
    return int(got["checked"]), [f"{where}: {b}" for b in got["bad"]]


def axe_missing() -> str | None:
    """None when axe-core is installed; the reason when it cannot be (no node/npm), for the
    test to skip its scan with; fails when npm is there but the install was not run."""
    if AXE.exists():
        return None
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node/npm is absent: axe-core (tests/web/package.json) cannot be installed"
    pytest.fail(f"{AXE} is missing: run `npm install --prefix tests/web` (make test does)")


def axe_violations(page: Any, where: str) -> list[str]:
    """The serious and critical violations of an axe-core scan of the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(AXE_RUN_JS)
    return [
        f"{where}: [{v['impact']}] {v['id']} ({v['help']}), {v['count']} node(s): "
        + " | ".join(v["nodes"])
        for v in found
    ]
