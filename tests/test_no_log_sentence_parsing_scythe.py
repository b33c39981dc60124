"""Nothing outside the Scythe engine reads Scythe's log sentences (issue 26, Deliver 2 "Log
entries as data"): the browser, the bots, RL and the terminal read each entry's ``form`` and
``params`` (``docs/scythe.md``, "The log"), so rewording a template in
``games/scythe/log_forms.py`` changes no client's behaviour.

Plain Python, no browser: the test scans the code of the Scythe page (``web/scythe``), the
Scythe bots, the Scythe RL adapter and the command line for string and regex literals that
match a log sentence: a literal holding a phrase of two or more words of a log template (the
English templates and their rules-0.2 forms, ``chooses section``, ``wins the combat on``,
``commits dial``…), or a pattern of the sentences' seat names (``P(\\d)``, ``P\\d``).
Comments and docstrings are not code and are not scanned.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hexfolk.core.reasons import template_parts
from hexfolk.games.scythe.log_forms import RULES_0_2, TEMPLATES

SRC = Path(__file__).resolve().parents[1] / "src" / "hexfolk"
SCANNED = (
    (SRC / "web" / "scythe", "*.js"),
    (SRC / "bots" / "scythe", "*.py"),
    (SRC / "rl", "scythe.py"),
    (SRC / "cli", "*.py"),
)

SEAT_PATTERN = re.compile(r"P\(\\d|P\\d|\\bP\(")
"""A regex reading a seat out of a sentence as the log writes it (``P0``)."""


def _words(text: str) -> str:
    """``text``'s words, an identifier or key (``sc.combat_on``) one word."""
    return " ".join(re.findall(r"[a-z0-9_.'-]+", text.lower()))


def phrases() -> set[str]:
    """The literal phrases of two or more words of every Scythe log template."""
    out: set[str] = set()
    for template in (*TEMPLATES.values(), *RULES_0_2.values()):
        for literal, *_ in template_parts(template):
            words = _words(literal)
            if len(words.split()) >= 2:
                out.add(words)
    return out


MATCHING_JS = re.compile(
    r"(?:startsWith|endsWith|includes|indexOf|RegExp|match|split)\(\s*$|[!=]==?\s*$"
)
"""What a JavaScript string literal that is matched against a text follows."""


def _js_literals(text: str) -> list[tuple[int, str, bool]]:
    """The string, template and regex literals of JavaScript ``text``: line number, source and
    whether the literal matches a text (a regex; a string compared with one or searched in
    one). Comments are left out."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    literal = re.compile(
        r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`'
        r"|(?:^|(?<=[=(,:\[!&|?{};]))\s*/(?![/*])(?:\\.|\[[^\]\n]*\]|[^/\\\n])+/"
        r"|(?<![:\"'`\w])//[^\n]*",
        re.M,
    )
    out = []
    for m in literal.finditer(text):
        src = m.group(0)
        if src.startswith("//"):
            continue  # a comment
        is_regex = src.lstrip().startswith("/")
        before = text[max(0, m.start() - 40) : m.start()]
        after = text[m.end() : m.end() + 6]
        matched = (
            is_regex or bool(MATCHING_JS.search(before)) or bool(re.match(r"\s*[!=]==?", after))
        )
        out.append((text.count("\n", 0, m.start()) + 1, src.strip(), matched))
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


MATCHING_PY = {"compile", "match", "search", "fullmatch", "sub", "subn", "findall", "finditer"}
"""``re`` functions whose first argument is a pattern."""
PREFIX_PY = {"startswith", "endswith", "find", "index", "rfind", "count", "removeprefix"}
"""``str`` methods that look for their argument in a text."""


def _matched_nodes(tree: ast.AST) -> set[int]:
    """The string nodes used to match a text: a pattern of ``re``, an argument of a ``str``
    search, an operand of ``==``, ``!=``, ``in`` or ``not in``."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            f = node.func
            is_re = isinstance(f.value, ast.Name) and f.value.id == "re" and f.attr in MATCHING_PY
            if (is_re or f.attr in PREFIX_PY) and node.args:
                ids.add(id(node.args[0]))
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops
        ):
            ids.update(id(x) for x in (node.left, *node.comparators))
    return ids


def _py_literals(text: str) -> list[tuple[int, str, bool]]:
    """The string constants of Python ``text`` (f-strings by their literal parts), without
    docstrings: line number, text, whether it matches a text."""
    tree = ast.parse(text)
    skip = _docstrings(tree)
    matched = _matched_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
            out.append((node.lineno, "".join(str(p) for p in parts), id(node) in matched))
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            out.append((node.lineno, node.value, id(node) in matched))
    return sorted(out)


def findings_in(rel: str, literals: list[tuple[int, str, bool]], known: set[str]) -> list[str]:
    """The literals that read a log sentence: a matched literal holding a phrase of a
    template; a sentence as the log writes it, a seat then a phrase (``P{n} chooses section``,
    made to be compared with a line); any literal holding a pattern of the sentences' seats."""
    found = []
    for line, lit, matched in literals:
        words = _words(lit)
        hit = next(
            (p for p in sorted(known) if re.search(rf"(?<!\S){re.escape(p)}(?!\S)", words)), None
        )
        if hit and (matched or lit.startswith("P{} ")):
            found.append(f"{rel}:{line}: {lit[:60]!r} holds the log phrase {hit!r}")
        elif SEAT_PATTERN.search(lit):
            found.append(f"{rel}:{line}: {lit[:60]!r} reads a seat out of a log sentence")
    return found


def findings() -> list[str]:
    known = phrases()
    found = []
    for root, pattern in SCANNED:
        paths = [root] if root.is_file() else sorted(root.rglob(pattern))
        for path in paths:
            rel = path.relative_to(SRC).as_posix()
            text = path.read_text(encoding="utf-8")
            lits = _js_literals(text) if path.suffix == ".js" else _py_literals(text)
            found += findings_in(rel, lits, known)
    return found


def test_the_phrases_come_from_the_templates() -> None:
    known = phrases()
    assert {"chooses section", "wins the combat on", "commits dial", "combat on"} <= known
    assert "places a star" in known and "cards" not in known  # two words at least


def test_the_scanner_sees_log_sentence_parsing() -> None:
    """The forms the clients used before issue 26 are caught (web/scythe/logwords.js,
    combat.js's lastReveal, the terminal's seat marks, the worlds' move lines)."""
    known = phrases()
    js = "\n".join(
        [
            r"  [/^P(\d) chooses section (\w+) \((\w+)\/(\w+)\)$/, 'slog.section'],",
            r"  if (/^combat on /.test(log[i])) { start = i; break; }",
            r"  else if (/wins the combat|retreat|places a star \(combat\)/.test(l)) x();",
            "  // a comment about the combat on a territory is not code",
        ]
    )
    found = findings_in("x.js", _js_literals(js), known)
    assert [f.split(":")[1] for f in found] == ["1", "2", "3"], found
    py = "\n".join(
        [
            '"""The sentences such as "P0 chooses section 2" are read here."""',
            r'_P = re.compile(r"\bP(\d)\b")',
            r'_MOVED = re.compile(r"P(\d+) (character|mech|worker) to (\S+)$")',
            'mark = f"P{active} chooses section "',
        ]
    )
    found = findings_in("x.py", _py_literals(py), known)
    assert [f.split(":")[1] for f in found] == ["2", "3", "4"], found


def test_no_client_reads_scythe_log_sentences() -> None:
    assert findings() == []
