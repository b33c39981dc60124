"""Nothing outside the engines parses an action's text (issue 26, Deliver 1 "Actions as data"):
RL, the terminal and the bots read an action's kind and fields (``Action.to_json()``,
``docs/island.md`` and ``docs/scythe.md``); its text is only the id a client sends back and the
key of RL's action catalogue (``docs/rl.md``), used whole, never taken apart.

Plain Python, no engine run beyond the keywords: the test reads the sources of
``src/hexfolk/rl``, ``src/hexfolk/cli`` and ``src/hexfolk/bots`` (their syntax trees) and fails
on

* a regular expression anchored at ``^`` whose first word starts a listed action of either game
  (``r"^counter (\\d+): ..."``; the keywords are those of ``tests/web``'s scan of the browser);
* a string method that takes a text apart (``split``, ``partition``, ``startswith``...) or a
  ``re`` call applied to ``str(action)``, or to a name bound to ``str(action)`` in the file;
* ``str(action)`` handed to a function (which then parses it), other than writing it whole;
* a split on ``" for "``, the give/get separator of offer, trade and counter texts.

"action" above is any name read as one: ``action``, ``a``, ``act``, ``move``, ``choice`` and
names ending in ``_action``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.web.test_no_action_text_parsing import action_keywords, leading_words

SRC = Path(__file__).resolve().parents[1] / "src" / "hexfolk"
SCANNED = ("rl", "cli", "bots")

NOT_ACTIONS: set[str] = set()
"""Files exempt from this scan (none: log lines are read as data, as
``tests/test_no_log_sentence_parsing.py`` checks)."""

ACTION_NAME = re.compile(r"^(?:a|act|action|move|choice|\w+_action)$")
TAKE_APART = {
    "split",
    "rsplit",
    "partition",
    "rpartition",
    "startswith",
    "endswith",
    "removeprefix",
    "removesuffix",
    "find",
    "index",
}
RE_CALLS = {"match", "fullmatch", "search", "findall", "finditer", "split", "sub"}
WHOLE = {"print", "append", "add", "join", "repr", "len", "hash", "set", "escape", "echo"}
"""Functions that write or keep a text whole (a menu entry, a message)."""


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_action_text(node: ast.AST, bound: set[str]) -> bool:
    """``str(<action>)``, or a name bound to one."""
    if isinstance(node, ast.Name) and node.id in bound:
        return True
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) == 1
    ):
        name = _name(node.args[0])
        return name is not None and ACTION_NAME.match(name) is not None
    return False


def findings_in(rel: str, source: str, keywords: set[str]) -> list[str]:
    tree = ast.parse(source)
    bound = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and _is_action_text(node.value, set())
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found = []
    for node in ast.walk(tree):
        where = f"{rel}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.startswith("^"):
                hit = [w for w in leading_words(node.value[1:]) if w in keywords]
                if hit:
                    found.append(f"{where}: regex {node.value!r} matches action texts ({hit[0]})")
            continue
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in TAKE_APART and _is_action_text(func.value, bound):
                found.append(f"{where}: .{func.attr}() takes an action text apart")
            if (
                isinstance(func.value, ast.Name)
                and func.value.id == "re"
                and func.attr in RE_CALLS
                and any(_is_action_text(a, bound) for a in node.args)
            ):
                found.append(f"{where}: re.{func.attr}() over an action text")
            if func.attr in ("split", "rsplit", "partition") and any(
                isinstance(a, ast.Constant) and a.value == " for " for a in node.args
            ):
                found.append(f"{where}: .{func.attr}(' for ') splits an offer's give and get")
        called = _name(func)
        if called not in WHOLE and called != "str":
            for a in node.args:
                if _is_action_text(a, bound):
                    found.append(f"{where}: {called}() is handed an action's text to read")
    return sorted(found, key=lambda f: int(f.split(":")[1]))


def findings(keywords: set[str]) -> list[str]:
    found = []
    for part in SCANNED:
        for path in sorted((SRC / part).rglob("*.py")):
            rel = path.relative_to(SRC).as_posix()
            if rel not in NOT_ACTIONS:
                found += findings_in(rel, path.read_text(encoding="utf-8"), keywords)
    return found


@pytest.fixture(scope="module")
def keywords() -> set[str]:
    words = action_keywords()
    assert {"settle", "counter", "complete", "move", "carry"} <= words
    return words


def test_rl_cli_and_bots_read_actions_by_their_fields(keywords: set[str]) -> None:
    assert findings(keywords) == []


def test_the_scan_finds_each_way_of_parsing_an_action_text(keywords: set[str]) -> None:
    """The forms RL and the terminal used before issue 26 are all found."""
    before = """
import re
_COUNTER = re.compile(r"^counter (\\d+): (.+) for (.+)$")
_PLACE = re.compile(r"^(settle|city|road|robber) (\\d+)( steal \\d+)?$")
def slotted(action):
    return str(action).split(" ", 1)[0] in ("accept", "reject")
def key(self, action, place):
    return self._key_of(str(action), place)
def hint(text):
    give, get = text.split(" ", 1)[1].split(" for ", 1)
def keys(legal):
    for action in legal:
        text = str(action)
        if text.startswith("carry "):
            pass
"""
    found = findings_in("x.py", before, keywords)
    assert list(dict.fromkeys(f.split(": ", 1)[0] for f in found)) == [
        "x.py:3",
        "x.py:4",
        "x.py:6",
        "x.py:8",
        "x.py:10",
        "x.py:14",
    ], found
