"""The browser reads the listed actions by their fields, never by their text (issue 26, Deliver 1
"Actions as data"): every legal entry of a view carries ``kind`` and named fields beside the
text, and the text is only the id sent back to the server (docs/protocol.md, docs/web.md).

Plain Python, no browser: the test scans the web client's JavaScript for regular expressions
that match action texts (a regex literal anchored at ``^`` whose first word is a word that
starts a listed action of either game, or a regex for a Scythe place id such as ``r3c4``, which
the entries carry as fields) and for ``.split(" ")`` applied to an action value (a
name bound to ``<entry>.action`` or to an item of the view's ``all`` list) or ``startsWith`` of
such a word and a space. The keywords come
from the games themselves: the first words of ``str(action)`` of every action listed to a seat
in seeded random games of both games (chance outcomes are never listed to a page)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from hexfolk.core import load_game

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"

NOT_ACTIONS: set[str] = set()
"""Files exempt from the scan: none (the log is read as data since issue 26, Deliver 2)."""

GAMES = (("island", (3, 5)), ("scythe", (2, 4)))
STEPS = 3000


def action_keywords() -> set[str]:
    """The first word of every action text listed to a seat in seeded random games."""
    words: set[str] = set()
    for game_id, counts in GAMES:
        for players in counts:
            rng = random.Random(26)
            state = load_game(game_id, players).new_initial_state()
            for _ in range(STEPS):
                if state.is_terminal():
                    state = load_game(game_id, players).new_initial_state()
                if state.is_chance():
                    state.apply(state.sample_chance(rng))
                    continue
                seats = state.acting_seats()
                for seat in seats:
                    words.update(str(a).split(" ")[0] for a in state.legal_actions_for(seat))
                seat = seats[rng.randrange(len(seats))]
                legal = state.legal_actions_for(seat)
                state.apply_for(seat, legal[rng.randrange(len(legal))])
    return words


# A regex literal: a slash after a token that cannot end an expression, then an anchored body.
REGEX_LITERAL = re.compile(r"(?:^|[=(,:\[!&|?{};]|\breturn)\s*/\^((?:\\.|\[[^\]]*\]|[^/\\\n])*)/")
LEADING_WORD = re.compile(r"[a-z][a-z_-]*")
PLACE_ID = "r\\d+c\\d+"
"""A Scythe place id (``r3c4``, docs/scythe.md) as a regex writes it."""


def leading_words(body: str) -> list[str]:
    """The literal words a regex body (after its ``^``) can start with."""
    if body.startswith("(?:"):
        body = "(" + body[3:]
    if not body.startswith("("):
        m = LEADING_WORD.match(body)
        return [m.group(0)] if m else []
    depth, end = 0, len(body)
    for i, ch in enumerate(body):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                end = i
                break
    out = []
    for alternative in body[1:end].split("|"):
        m = LEADING_WORD.match(alternative)
        if m:
            out.append(m.group(0))
    return out


STARTS = re.compile(r"\.startsWith\(\s*[`\"']([a-z][a-z_-]*) ")
"""A prefix test whose prefix is a word and a space, as ``a.startsWith(`play ${card} `)``."""
SPLIT = re.compile(r"\b([A-Za-z_$][\w$]*)\.split\(\s*(?:\" \"|' '|/\\s\+?/)\s*\)")
ACTION_NAMES = re.compile(
    r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*[\w$.]*\.action\b(?!\w)"
    r"|\bfor\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+[\w$.]*\.all\b"
)


def findings(keywords: set[str]) -> list[str]:
    found = []
    for path in sorted(WEB.rglob("*.js")):
        rel = path.relative_to(WEB).as_posix()
        if rel in NOT_ACTIONS:
            continue
        text = path.read_text(encoding="utf-8")
        action_names = {"action"} | {a or b for a, b in ACTION_NAMES.findall(text)}
        for number, line in enumerate(text.splitlines(), 1):
            for m in REGEX_LITERAL.finditer(line):
                body = m.group(1)
                hit = [w for w in leading_words(body) if w in keywords]
                if hit:
                    found.append(f"{rel}:{number}: /^{body}/ matches action texts ({hit[0]} ...)")
                elif PLACE_ID in body:
                    found.append(f"{rel}:{number}: /^{body}/ reads a place out of a text")
            for m in STARTS.finditer(line):
                if m.group(1) in keywords:
                    found.append(f"{rel}:{number}: {m.group(0)} tests an action text's prefix")
            for m in SPLIT.finditer(line):
                if m.group(1) in action_names:
                    found.append(f"{rel}:{number}: {m.group(0)} splits an action text")
    return found


def test_keywords_come_from_both_games() -> None:
    keywords = action_keywords()
    assert {"settle", "road", "robber", "trade", "offer"} <= keywords  # island (docs/island.md)
    assert {"section", "move", "to", "commit", "upgrade", "enlist"} <= keywords  # scythe


def test_the_scanner_sees_action_text_parsing() -> None:
    """The scanner itself: the forms the browser used before issue 26 are caught."""
    keywords = {"settle", "roll", "commit", "pay"}
    assert leading_words(r"settle (\d+)$") == ["settle"]
    assert "roll" in leading_words(r"(roll|buy|end)$")
    assert [w for w in leading_words(r"([a-z]+)(\d+)$") if w in keywords] == []
    assert PLACE_ID in r"(r\d+c\d+|home_[a-z]+)$"
    line = "    if ((m = /^settle (\\d+)$/.exec(a))) L.settle.set(Number(m[1]), a);"
    assert [m.group(1) for m in REGEX_LITERAL.finditer(line)] == [r"settle (\d+)$"]
    assert ACTION_NAMES.findall("  for (const a of L.all) {") == [("", "a")]
    assert SPLIT.search('const w = a.split(" ");')
    assert [m.group(1) for m in STARTS.finditer("a.startsWith(`play ${card} `)")] == ["play"]


def test_the_web_client_reads_fields_not_action_texts() -> None:
    assert findings(action_keywords()) == []
