"""Helpers of the Scythe browser tests: the clickable-vs-listed check, clicking a listed action
through the page (a board target, a mat section, a chooser, a button), the scripted person and
the steered opponent, and hex distances from the public data module (to steer, never to judge:
every action sent is one the server listed)."""

from __future__ import annotations

import collections
from typing import Any

from hexfolk.games.scythe import data as D

DESKTOP = {"width": 1440, "height": 900}
TABLET = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "tablet": TABLET, "portrait": TABLET_PORTRAIT, "phone": PHONE}

CLICKABLE_JS = """() => {
  const v = window.__hexfolkView;
  if (!v || window.__hexfolkVersion !== v.version) return false;  // read a drawn view only
  const shown = new Set();
  for (const el of document.querySelectorAll('[data-act]'))
    for (const a of el.dataset.act.split('|')) shown.add(a);
  const targets = [...document.querySelectorAll('#board .target')]
    .flatMap((el) => el.dataset.act.split('|'));
  const enabledWithout = [...document.querySelectorAll('button.act:not([disabled])')]
    .filter((b) => !b.dataset.act).map((b) => b.textContent);
  return {listed: v.legal.map((e) => e.action), shown: [...shown], targets, enabledWithout,
          version: v.version, view: v};
}"""

LOC_WORD = r"^(r\d+c\d+|home_[a-z]+)$"


def listed(v: dict[str, Any]) -> list[str]:
    return [e["action"] for e in v["legal"]]


def hints(v: dict[str, Any]) -> dict[str, str]:
    return {e["action"]: e.get("hint", "") for e in v["legal"]}


def names_a_place(action: str) -> bool:
    import re

    return any(re.match(LOC_WORD, w) for w in action.split(" "))


def check_clickable(page: Any) -> dict[str, Any]:
    """What the page offers is exactly what the server listed (no rule lives in JavaScript),
    and the board's targets are exactly the listed actions that name a place."""
    got = page.wait_for_function(CLICKABLE_JS, timeout=15_000).json_value()
    assert sorted(set(got["shown"])) == sorted(set(got["listed"])), got
    assert not got["enabledWithout"], got
    on_board = sorted(got["targets"])
    assert on_board == sorted(a for a in got["listed"] if names_a_place(a)), got
    return dict(got)


def wait_drawn(page: Any, predicate_js: str, timeout: float = 20_000) -> dict[str, Any]:
    page.wait_for_function(
        f"() => {{ const v = window.__hexfolkView; return !!v && "
        f"window.__hexfolkVersion === v.version && ({predicate_js}); }}",
        timeout=timeout,
    )
    return dict(page.evaluate("() => window.__hexfolkView"))


def click_action(
    page: Any, action: str, seen: int, timeout: float = 15_000, keyboard: bool = False
) -> bool:
    """Do ``action`` (listed in the drawn view of version ``seen``) by clicking what carries
    it: the element whose ``data-act`` is exactly it, or the element holding it among others
    and then the chooser's button. Waits for a newer drawn view (or a refusal's message).
    False when a newer view was drawn first (a forced step moved the game on)."""
    v0 = page.evaluate("() => window.__hexfolkVersion")
    if v0 != seen:
        return False
    mark = """(a) => {
          const els = [...document.querySelectorAll('[data-act]')]
            .filter((el) => el.dataset.act.split('|').includes(a));
          const exact = els.find((el) => el.dataset.act === a);
          const el = exact || els[0];
          if (!el) return null;
          for (const x of document.querySelectorAll('[data-click-me]'))
            x.removeAttribute('data-click-me');
          el.setAttribute('data-click-me', '1');
          return exact ? 'exact' : 'chooser';
        }"""
    page.evaluate("() => { document.getElementById('toast').className = ''; }")
    found = None
    for _ in range(4):
        found = page.evaluate(mark, action)
        if not found and page.evaluate("() => window.__hexfolkVersion") != seen:
            return False
        assert found, f"nothing on the page carries the listed action {action!r}: " + str(
            page.evaluate(
                "() => [window.__hexfolkVersion, window.__hexfolkView.version, "
                "window.__hexfolkView.observation.prompt, window.__hexfolkView.legal, "
                "[...document.querySelectorAll('[data-act]')].map((e) => e.dataset.act)]"
            )
        )
        try:
            if keyboard:  # Tab's target: focus it, then Enter
                page.locator("[data-click-me]").first.focus(timeout=2_000)
                page.keyboard.press("Enter")
            else:
                page.locator("[data-click-me]").first.click(timeout=2_000)
            break
        except Exception:  # redrawn under the pointer: mark the new element and click again
            if page.evaluate("() => window.__hexfolkVersion") != seen:
                return False
    else:
        raise AssertionError(f"could not click {action!r}")
    if found == "chooser":
        page.wait_for_selector("#dialog")
        if keyboard:
            page.locator(f'#dialog [data-act="{action}"]').focus()
            page.keyboard.press("Enter")
        else:
            page.locator(f'#dialog [data-act="{action}"]').click()
    page.wait_for_function(
        f"() => (window.__hexfolkVersion > {v0}) || document.querySelector('#toast.show')",
        timeout=timeout,
    )
    return True


# --- distances on the board (for steering) ----------------------------------------------------
TERRAIN = {t["id"]: t["terrain"] for t in D.TERRITORIES}
RIVERWALK = {f["id"]: tuple(f["riverwalk_terrains"]) for f in D.FACTIONS}


def _graph(riverwalk: tuple[str, ...]) -> dict[str, list[str]]:
    """Steps between territories: no lake, a river only onto a ``riverwalk`` terrain."""
    graph: dict[str, list[str]] = {}
    for i, steps in enumerate(D.GEO):
        graph[D.LOC_NAMES[i]] = [
            D.LOC_NAMES[j]
            for j, river in steps
            if not D.IS_LAKE[j]
            and not D.IS_HOME[j]
            and (not river or TERRAIN.get(D.LOC_NAMES[j]) in riverwalk)
        ]
    return graph


def distance(a: str, b: str, riverwalk: tuple[str, ...] = ()) -> int:
    """Steps from ``a`` to ``b`` (BFS; 99 when out of reach)."""
    graph = _graph(riverwalk)
    seen = {a: 0}
    todo = collections.deque([a])
    while todo:
        x = todo.popleft()
        if x == b:
            return seen[x]
        for y in graph.get(x, []):
            if y not in seen:
                seen[y] = seen[x] + 1
                todo.append(y)
    return 99


def character_at(obs: dict[str, Any], seat: int) -> str | None:
    for loc, cell in obs.get("board", {}).items():
        if (cell.get("units") or {}).get(str(seat), {}).get("character"):
            return str(loc)
    return None


class Hunter:
    """The steered opponent (Rusviet, Relentless): it trades for metal, deploys a Riverwalk
    mech, walks it to the person's character and attacks, committing nothing; afterwards it
    plays the first calm listed action. Every choice is one of the listed actions."""

    def __init__(self, prey: int, post: str):
        self.prey = prey
        self.post = post  # where the person's character waits
        self.fought = False

    def __call__(self, v: dict[str, Any]) -> str:
        legal = listed(v)
        h = hints(v)
        obs = v["observation"]
        kind = (obs.get("prompt") or {}).get("kind")
        me = obs["player_state"][v["seat"]]
        if obs.get("combat") or kind == "commit":
            self.fought = True
        if kind == "commit":
            return "commit 0"
        rw = RIVERWALK[me["faction"]]
        if not self.fought:
            has_mech = bool(me.get("mechs"))
            if kind == "choose-section":
                top = "move" if has_mech else "trade"
                picks = [a for a in legal if h[a].startswith(top)]
                if picks:
                    return picks[0]
            if kind in ("top-action", "trade-second-token"):
                metal = [a for a in legal if a.startswith("trade metal")]
                if metal and not has_mech:
                    return metal[0]
                mechs = [a for a in legal if a.startswith("move mech")]
                if mechs:
                    return mechs[0]
            if kind == "bottom-action" and "bottom" in legal and not has_mech:
                return "bottom"
            if kind == "benefit":
                deploys = [a for a in legal if a.startswith("deploy riverwalk")]
                if deploys:
                    return min(deploys, key=lambda a: distance(a.split()[2], self.post, rw))
            if kind == "step":
                steps = [a for a in legal if a.startswith("to ")]
                if steps:
                    return min(steps, key=lambda a: distance(a.split()[1], self.post, rw))
            if kind == "pay":
                return next((a for a in legal if not a.startswith("pay card")), legal[0])
        for calm in ("carry none", "no artillery", "done", "end", "skip"):
            if calm in legal:
                return calm
        return legal[0]


FACTORY = "r4c3"


class FactoryGoer:
    """A steered seat that walks its character over ``goals`` (territories, in order) and then
    to the Factory: it trades for metal, deploys a Riverwalk mech (its character then crosses
    rivers onto the faction's Riverwalk terrains, SR-26), never upgrades, and otherwise plays
    the first calm listed action. Every choice is one of the listed actions."""

    def __init__(self, goals: tuple[str, ...]):
        self.goals = list(goals)

    def __call__(self, v: dict[str, Any]) -> str:
        legal = listed(v)
        h = hints(v)
        obs = v["observation"]
        kind = (obs.get("prompt") or {}).get("kind")
        seat = v["seat"]
        me = obs["player_state"][seat]
        has_mech = bool(me.get("mechs"))
        rw = RIVERWALK[me["faction"]] if "riverwalk" in (me.get("mechs") or []) else ()
        char = character_at(obs, seat) or ""
        while self.goals and self.goals[0] == char:
            self.goals.pop(0)
        goal = self.goals[0] if self.goals else FACTORY
        walk = char != goal and distance(char, goal, rw) < 99
        if kind == "choose-section":
            metal = sum(
                (cell.get("resources") or {}).get("metal", 0)
                for cell in obs.get("board", {}).values()
                if str(seat) in (cell.get("units") or {})
            )
            if metal >= 3 and not has_mech:
                deploy = [a for a in legal if "deploy" in h[a]]
                if deploy:
                    return deploy[0]
            for top in (["move"] if walk else ["trade"]) + ["move", "bolster", "produce"]:
                picks = [a for a in legal if h[a].startswith(top) and a != "section factory"]
                if picks:
                    return picks[0]
        if kind in ("top-action", "trade-second-token"):
            if walk and f"move character {char}" in legal:
                return f"move character {char}"
            metal_trades = [a for a in legal if a.startswith("trade metal")]
            if metal_trades and not has_mech:
                return metal_trades[0]
        if kind == "bottom-action":
            if "bottom" in legal and not has_mech and "deploy" in h["bottom"]:
                return "bottom"
            if "skip" in legal:
                return "skip"
        if kind == "benefit":
            deploys = [a for a in legal if a.startswith("deploy riverwalk")]
            if deploys:
                return deploys[0]
        if kind == "step" and (obs.get("selected") or {}).get("kind") == "character":
            steps = [a for a in legal if a.startswith("to ")]
            if steps:
                full = RIVERWALK[me["faction"]]
                return min(steps, key=lambda a: distance(a.split()[1], goal, full))
        if kind == "pay":
            return next((a for a in legal if not a.startswith("pay card")), legal[0])
        return calm_choice(v)


def calm_choice(v: dict[str, Any]) -> str:
    """A quiet seat: Produce or Trade sections, then the first calm listed action."""
    legal = listed(v)
    h = hints(v)
    if (v["observation"].get("prompt") or {}).get("kind") == "choose-section":
        for top in ("produce", "trade", "bolster"):
            picks = [a for a in legal if h[a].startswith(top) and a != "section factory"]
            if picks:
                return picks[0]
    for calm in ("carry none", "no artillery", "done", "end", "skip"):
        if calm in legal:
            return calm
    return legal[0]
