"""Card bundles, hexes, offers and log lines as sentences (never raw data).

The island notation writes cards as bundles (``2w 1o``: two wool, one ore); a person reads
"2 wool and 1 ore". Hexes are named by their board label, terrain and number ("hex F (fields 11)"),
intersections and edges by their labels (``docs/log.md``). Everything here works on the JSON of
``observation(seat)`` and the forms and params of its log lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hexfolk.games.island.log_forms import LOG

# bundles, lists and tiles in words are the engine's (hexfolk.games.island.words)
from hexfolk.games.island.words import and_list as and_list
from hexfolk.games.island.words import board_labels, log_words, tiles_of
from hexfolk.games.island.words import bundle_words as bundle_words
from hexfolk.games.island.words import hex_words as engine_hex_words
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


def hand_words(hand: Mapping[str, int], empty: str = "no cards") -> str:
    """A ``{"lumber": 2, ...}`` hand as ``"2 lumber and 1 ore"`` (``empty`` when empty)."""
    parts = [f"{n} {name}" for name, n in hand.items() if n]
    return and_list(parts) if parts else empty


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
    """``"hex F (fields 11)"``: a hex by its board label, terrain and number."""
    board = observation.get("board") or {}
    return engine_hex_words(tiles_of(board.get("layout")), hex_id, board_labels(board))


def seat_words(seat: int, viewer: int | None) -> str:
    """``"seat 2"``, or ``"you"`` for the viewer."""
    return "you" if seat == viewer else f"seat {seat}"


def island_sentence(line: str, observation: Mapping[str, Any], viewer: int | None) -> str:
    """One island log line (a :class:`~hexfolk.core.LogLine`, read by its form and params,
    ``docs/log.md``) as a sentence: bundles in words, hexes by label, terrain and number,
    spots and edges by the board's labels, offers from the reader's side ("seat 1 offers 1 ore
    for your 1 grain (offer #3)"). A plain string (no form) is shown as it is."""
    form = getattr(line, "form", None)
    params: Mapping[str, Any] = getattr(line, "params", {})
    if form == "offers":
        who, number = int(params["seat"]), params["offer"]
        give, get = hand_words(params["give"], "nothing"), hand_words(params["get"], "nothing")
        if viewer is not None and who != viewer:
            return f"seat {who} offers {give} for your {get} (offer #{number})"
        verb = "offer" if who == viewer else "offers"
        return f"{seat_words(who, viewer)} {verb} {give} for {get} (offer #{number})"
    if form == "answers":
        parts = []
        for part in params["answers"]:
            if part["answer"] == "counters":
                give = hand_words(part["give"], "nothing")
                get = hand_words(part["get"], "nothing")
                parts.append(f"seat {part['seat']} counters: would give {give} for {get}")
            else:
                parts.append(log_words(LOG.line(part["answer"], seat=part["seat"])))
        return f"answers to offer #{params['offer']}: " + ", ".join(parts)
    board = observation.get("board") or {}
    return log_words(line, tiles_of(board.get("layout")), board_labels(board))


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
