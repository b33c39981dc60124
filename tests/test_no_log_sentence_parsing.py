"""Nothing outside the engines reads a log line's sentence (issue 26, Deliver 2 "Log entries as
data", ``docs/log.md``): the browser renders each line from its form and params with the
templates of ``web/i18n/log/<game>/<lang>.json``; the terminal, the bots and RL read a line's
``form`` and ``params``. A regular expression (or a string test) written against the island's
English log sentences in ``src/hexfolk/{web,cli,bots,rl}`` fails this test.

The scan looks for the fragments a pattern matching the island's log sentences needs (a seat
written ``seat (\\d+)`` or ``seat \\d`` before a verb of the log, an offer number ``#(\\d+)``),
and for string tests (``startswith``/``endswith``) against the log's words. It is first
shown to fire on planted patterns, so it cannot pass vacuously. Scythe's log readers
(``web/scythe/``, ``cli/terminal/scythe_view.py``) are the Scythe half of Deliver 2 and are not
scanned here yet.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "hexfolk"
SCANNED = ("web", "cli", "bots", "rl")
SKIPPED_DIRS = ("web/scythe/", "web/i18n/", "cli/terminal/scythe_view.py")
"""Scythe's page and terminal view (the other half of Deliver 2) and the language files
(templates, not code)."""
PROMPTS = {"cli/terminal/game_view.py", "cli/terminal/island_prompts.py"}
"""Files that read the engine's *prompt* texts (``seat 2: ...``), not log lines: prompts as
data are another step of issue 26."""

SENTENCE = re.compile(
    r"seat \(\\{1,2}d|seat \\{1,2}d+[ +)]*(?:rolls|settles|builds|offers|trades|gets|plays|ends)|"
    r"\bseat \(\?|offers #(?:\(|\\{1,2}d)|answers to offer #(?:\(|\\{1,2}d)|"
    r"stole \(|\bgets \(|rolls \(|moves the robber to \$\{|"
    r"(?:ends|starts)_?[wW]ith\(f?[\"'][^\"']*(?:seat|ends the turn|rolls|plays|offers|builds)"
)
"""Fragments of a pattern (or string test) written against an island log sentence."""


def offending(text: str) -> list[str]:
    """The lines of ``text`` that read log sentences."""
    return [line.strip() for line in text.splitlines() if SENTENCE.search(line)]


def _sources() -> list[Path]:
    out = []
    for part in SCANNED:
        for path in sorted((SRC / part).rglob("*")):
            rel = path.relative_to(SRC).as_posix()
            if path.suffix not in (".py", ".js") or rel.startswith(SKIPPED_DIRS) or rel in PROMPTS:
                continue
            out.append(path)
    return out


@pytest.mark.parametrize(
    "planted",
    [
        r'_OFFER_RE = re.compile(r"^seat (\d+) offers #\d+: (.+) for (.+)$")',
        'if line.endswith(" ends the turn"):',
        'const S = "seat (\\\\d+)";',
        r"m = re.fullmatch(r'seat \d+ settles (\d+)', line)",
        '  ["robs", `${S} moves the robber to ${N} and robs ${S}`],',
    ],
)
def test_the_scan_fires_on_a_log_sentence_pattern(planted: str) -> None:
    assert offending(planted), planted


def test_no_client_bot_or_rl_code_reads_a_log_sentence() -> None:
    sources = _sources()
    assert any(p.name == "table.js" for p in sources) and any(p.suffix == ".py" for p in sources)
    found = {
        p.relative_to(SRC).as_posix(): bad
        for p in sources
        if (bad := offending(p.read_text(encoding="utf-8")))
    }
    assert not found, found
