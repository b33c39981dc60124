"""The island's texts for people: card bundles, hexes, offers, discards and log lines as
sentences in the game's words (issue 17: no raw data, no bare resource letters).

The log keeps its fixed sentence forms in notation (``seat 1 trades 4l for 1o``): they are
part of the fingerprint (``views.full_state``), bots read them (offers made this turn) and the
browser translates them form by form (``web/logwords.js``). :func:`log_words` makes the
English sentence of one such line for the text rendering (``render_observation``: replay
``--show``, golden files, RL's ansi render); it is a pure function of the line and the board's
tiles, memoised, so a line is rewritten once, not at every rendering.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from hexfolk.games.island.rules import LETTERS, RESOURCES, TERRAIN_LETTERS, TERRAINS

_NAME_OF_LETTER = dict(zip(LETTERS, RESOURCES))
_TERRAIN_OF_LETTER = {**dict(zip(TERRAIN_LETTERS, TERRAINS)), "~": "lake"}
_ONE = re.compile(r"(\d+)([lbwgo])")
_BUNDLE = re.compile(r"(?<![\w#])(?:\d+[lbwgo](?: \d+[lbwgo])*)(?![\w])")
DEV_WORDS: dict[str, str] = {
    "knight": "a knight",
    "vp": "a victory point card",
    "roads": "road building",
    "plenty": "year of plenty",
    "monopoly": "monopoly",
}
"""Development cards (notation names) in words."""


def and_list(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@lru_cache(maxsize=4096)
def bundle_words(text: str) -> str:
    """``"2w 1o"`` -> ``"2 wool and 1 ore"``; ``"-"`` (nothing) -> ``"nothing"``."""
    text = text.strip()
    if text in ("", "-"):
        return "nothing"
    parts = [f"{n} {_NAME_OF_LETTER[r]}" for n, r in _ONE.findall(text)]
    return and_list(parts) if parts else text


def resource_word(letter: str) -> str:
    """``"o"`` -> ``"ore"``."""
    return _NAME_OF_LETTER.get(letter, letter)


def hand_words(hand: Mapping[str, int], empty: str = "no cards") -> str:
    """A ``{"lumber": 2, ...}`` hand as ``"2 lumber and 1 ore"``."""
    parts = [f"{n} {name}" for name, n in hand.items() if n]
    return and_list(parts) if parts else empty


def tiles_of(layout: str | None) -> str:
    """The tiles part of a layout text (``"O5.W10.L8...."``; empty before the layout)."""
    return layout.split(" ", 1)[0] if layout else ""


def tile_words(tile: str) -> str:
    """``"O8"`` -> ``"mountains 8"``; ``"D"`` -> ``"desert"``."""
    name = _TERRAIN_OF_LETTER.get(tile[:1], tile[:1])
    return f"{name} {tile[1:]}" if tile[1:] else name


def hex_words(tiles: str, hex_id: int) -> str:
    """``"hex 5 (fields 11)"``: a hex by id, terrain and number (``tiles``: :func:`tiles_of`)."""
    names = tiles.split(".") if tiles else []
    if 0 <= hex_id < len(names):
        return f"hex {hex_id} ({tile_words(names[hex_id])})"
    return f"hex {hex_id}"


def cards_words(k: int) -> str:
    """``"1 card"``, ``"4 cards"``."""
    return f"{k} card" if k == 1 else f"{k} cards"


_ROBBER_TO = re.compile(r"(robber (?:stays on|to|on) )(?:hex )?(\d+)")
_LAID_OUT = re.compile(r"^board laid out; robber on hex (\d+)$")
_STOLE = re.compile(r"^\(seat (\d+) stole ([lbwgo]) from seat (\d+)\)$")
_ANSWERS = re.compile(r"^answers to offer #(\d+): (.*)$")
_COUNTER = re.compile(r"^(seat \d+) counters (.+) for (.+)$")
_OFFERS = re.compile(r"^seat (\d+) offers #(\d+): (.+) for (.+)$")
_TRADE_WITH = re.compile(r"^seat (\d+) trades (.+) for (.+) with seat (\d+)$")
_TRADE = re.compile(r"^seat (\d+) trades (.+) for (.+)$")
_FORFEITS = re.compile(r"^seat (\d+) forfeits (\d+) unplaced road\(s\)$")
_DRAWS = re.compile(r"^seat (\d+) draws (knight|vp|roads|plenty|monopoly)$")
_PLACES = re.compile(r"\b(settles|settlement on|city on) (\d+)$")
_ROAD = re.compile(r"\broad on (\d+)$")
_BLOCKED = re.compile(r"^the robber on hex (\d+) blocks (.+) for seat (\d+)$")
_SHORT = re.compile(r"^the bank is short of (.+) for seat (\d+)$")


def _answer_words(part: str) -> str:
    m = _COUNTER.match(part)
    if m:
        return f"{m[1]} counters: {bundle_words(m[2])} for {bundle_words(m[3])}"
    return part


@lru_cache(maxsize=65536)
def log_words(line: str, tiles: str = "") -> str:
    """One log line of the engine's fixed forms (``docs/island.md``, "The log") as an English
    sentence: bundles and resources in words, the robber's hex by terrain and number
    (``tiles``: :func:`tiles_of` of the board), spots and edges named as such."""
    m = _LAID_OUT.match(line)
    if m:
        return f"the board is laid out; the robber stands on {hex_words(tiles, int(m[1]))}"
    if line == "board laid out; no robber (IR-47)":
        return "the board is laid out; there is no robber (IR-47)"
    m = _STOLE.match(line)
    if m:
        return f"(seat {m[1]} stole 1 {resource_word(m[2])} from seat {m[3]})"
    m = _ANSWERS.match(line)
    if m:
        parts = [_answer_words(p) for p in m[2].split(", ")]
        return f"answers to offer #{m[1]}: " + "; ".join(parts)
    m = _OFFERS.match(line)
    if m:
        return f"seat {m[1]} offers {bundle_words(m[3])} for {bundle_words(m[4])} (offer #{m[2]})"
    m = _TRADE_WITH.match(line)
    if m:
        return f"seat {m[1]} trades {bundle_words(m[2])} for {bundle_words(m[3])} with seat {m[4]}"
    m = _TRADE.match(line)
    if m:
        return f"seat {m[1]} trades {bundle_words(m[2])} with the bank for {bundle_words(m[3])}"
    m = _FORFEITS.match(line)
    if m:
        roads = "road" if m[2] == "1" else "roads"
        return f"seat {m[1]} forfeits {m[2]} unplaced {roads}"
    m = _DRAWS.match(line)
    if m:
        return f"seat {m[1]} draws {DEV_WORDS[m[2]]}"
    m = _BLOCKED.match(line)
    if m:
        return (
            f"the robber on {hex_words(tiles, int(m[1]))} blocks {bundle_words(m[2])} "
            f"for seat {m[3]} (IR-44)"
        )
    m = _SHORT.match(line)
    if m:
        return f"the bank cannot pay seat {m[2]} {bundle_words(m[1])} (IR-37)"
    line = _ROBBER_TO.sub(lambda r: r[1] + hex_words(tiles, int(r[2])), line)
    line = _PLACES.sub(lambda s: f"{s[1]} spot {s[2]}", line)
    line = _ROAD.sub(lambda s: f"road on edge {s[1]}", line)
    return _BUNDLE.sub(lambda b: bundle_words(b[0]), line)


def offer_words(offer: Mapping[str, Any], proposer: int, n: int) -> str:
    """An open offer of the observation (``offers[]``) as a sentence: what the proposer
    offers and every other seat's answer so far, in seat order after the proposer."""
    head = (
        f"offer #{offer['id']}: seat {proposer} offers {bundle_words(str(offer['give']))} "
        f"for {bundle_words(str(offer['get']))}"
    )
    answers = offer.get("answers") or {}
    parts = []
    for i in range(1, n):
        q = (proposer + i) % n
        a = answers.get(str(q))
        if a is None:
            parts.append(f"seat {q} has not answered")
        elif a == "accept":
            parts.append(f"seat {q} accepts")
        elif a == "reject":
            parts.append(f"seat {q} rejects")
        elif isinstance(a, Mapping) and "counter" in a:
            c = a["counter"]
            parts.append(
                f"seat {q} counters: {bundle_words(str(c['give']))} "
                f"for {bundle_words(str(c['get']))}"
            )
        else:
            parts.append(f"seat {q}: {a}")
    return head + ("; " + ", ".join(parts) if parts else "")


def discards_words(discards: Mapping[str, Any]) -> list[str]:
    """The discards of a 7 (observation ``discards``) as sentences, one per seat (IR-41)."""
    need = discards.get("need") or {}
    committed = set(discards.get("committed") or [])
    out = []
    for q in discards.get("seats") or []:
        k = int(need.get(str(q), 0))
        done = " (chosen, hidden until every seat has chosen)" if q in committed else ""
        out.append(f"seat {q} must discard {cards_words(k)}{done}")
    if "own" in discards:
        out.append(f"your discard: {bundle_words(str(discards['own']))}")
    if "selected" in discards and str(discards["selected"]) != "-":
        out.append(f"chosen so far: {bundle_words(str(discards['selected']))}")
    return out


__all__ = [
    "DEV_WORDS",
    "and_list",
    "bundle_words",
    "cards_words",
    "discards_words",
    "hand_words",
    "hex_words",
    "log_words",
    "offer_words",
    "resource_word",
    "tile_words",
    "tiles_of",
]
