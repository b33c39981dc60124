"""Card bundles, hexes, offers and log lines as sentences (never raw data).

The island notation writes cards as bundles (``2w 1o``: two wool, one ore); a person reads
"2 wool and 1 ore". Hexes are named by terrain and number ("hex 5, fields 11"). Everything
here works on the text and JSON of ``observation(seat)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# bundles, lists and tiles in words are the engine's (hexfolk.games.island.words)
from hexfolk.games.island.words import and_list as and_list
from hexfolk.games.island.words import bundle_words as bundle_words
from hexfolk.games.island.words import tile_words as tile_words

RESOURCE_NAMES: dict[str, str] = {
    "l": "lumber",
    "b": "brick",
    "w": "wool",
    "g": "grain",
    "o": "ore",
}
"""The island's resource letters (docs/island.md notation)."""

TERRAIN_NAMES: dict[str, str] = {
    "L": "forest",
    "B": "hills",
    "W": "pasture",
    "G": "fields",
    "O": "mountains",
    "D": "desert",
    "~": "lake",
}
"""The island's terrain letters in a layout (``O8`` = mountains with token 8)."""

_BUNDLE = re.compile(r"(?<![\w#])\d+[lbwgo](?: \d+[lbwgo])*(?![\w])")


def hand_words(hand: Mapping[str, int]) -> str:
    """A ``{"lumber": 2, ...}`` hand as ``"2 lumber and 1 ore"`` (``"no cards"`` when empty)."""
    parts = [f"{n} {name}" for name, n in hand.items() if n]
    return and_list(parts) if parts else "no cards"


def with_bundles_in_words(line: str) -> str:
    """Every card bundle inside a sentence written in words."""
    return _BUNDLE.sub(lambda m: bundle_words(m.group(0)), line)


def hex_tiles(observation: Mapping[str, Any]) -> list[str]:
    """The layout's tiles by hex id (``["O8", "O9", "D", ...]``), empty before the layout."""
    board = observation.get("board") or {}
    layout = str(board.get("layout") or "")
    if not layout:
        return []
    return layout.split(" ", 1)[0].split(".")


def hex_words(observation: Mapping[str, Any], hex_id: int) -> str:
    """``"hex 5 (fields 11)"``: a hex by id, terrain and number."""
    tiles = hex_tiles(observation)
    if 0 <= hex_id < len(tiles):
        return f"hex {hex_id} ({tile_words(tiles[hex_id])})"
    return f"hex {hex_id}"


def seat_words(seat: int, viewer: int | None) -> str:
    """``"seat 2"``, or ``"you"`` for the viewer."""
    return "you" if seat == viewer else f"seat {seat}"


_ROBBER = re.compile(r"(robber (?:stays on|to|on) )(?:hex )?(\d+)")
_STOLE = re.compile(r"\bstole ([lbwgo])\b")
_OFFER = re.compile(r"^seat (\d+) offers #(\d+): (.+) for (.+)$")
_COUNTER = re.compile(r"seat (\d+) counters (.+?) for (.+?)(?=, seat |$)")
_SETTLES = re.compile(r"\b(settles|settlement on|city on) (\d+)\b")
_ROAD = re.compile(r"\broad on (\d+)\b")


def island_sentence(line: str, observation: Mapping[str, Any], viewer: int | None) -> str:
    """One island log line read as a sentence: bundles in words, hexes by terrain and number,
    offers from the reader's side ("seat 1 offers 1 ore for your 1 grain (offer #3)")."""
    m = _OFFER.match(line)
    if m:
        who, number, give, get = int(m[1]), m[2], m[3], m[4]
        if viewer is not None and who != viewer:
            return (
                f"seat {who} offers {bundle_words(give)} for your {bundle_words(get)} "
                f"(offer #{number})"
            )
        give, get = bundle_words(give), bundle_words(get)
        verb = "offer" if who == viewer else "offers"
        return f"{seat_words(who, viewer)} {verb} {give} for {get} (offer #{number})"
    line = _COUNTER.sub(
        lambda c: f"seat {c[1]} counters: would give {bundle_words(c[2])} for {bundle_words(c[3])}",
        line,
    )
    line = _ROBBER.sub(lambda r: r[1] + hex_words(observation, int(r[2])), line)
    line = _STOLE.sub(lambda s: f"stole 1 {RESOURCE_NAMES[s[1]]}", line)
    line = _SETTLES.sub(lambda s: f"{s[1]} spot {s[2]}", line)
    line = _ROAD.sub(lambda s: f"road on edge {s[1]}", line)
    return with_bundles_in_words(line)


def summary_words(lines: list[str]) -> list[str]:
    """A rendered summary's list items (``[0]`` followed by ``seat: 0``) as ``seat 0:``."""
    out: list[str] = []
    skip = False
    for i, line in enumerate(lines):
        if skip:
            skip = False
            continue
        m = re.fullmatch(r"(\s*)\[(\d+)\]", line)
        if m:
            following = lines[i + 1].strip() if i + 1 < len(lines) else ""
            skip = following == f"seat: {m[2]}"
            out.append(f"{m[1]}{'seat' if skip else 'item'} {m[2]}:")
            continue
        out.append(line)
    return out
