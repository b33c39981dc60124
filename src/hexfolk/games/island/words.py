"""The island's texts for people: card bundles, hexes, offers, discards and log lines as
sentences in the game's words (issue 17: no raw data, no bare resource letters).

The log's lines are data (``docs/log.md``): a form and params, with a sentence in notation
(``seat 1 trades 4l for 1o``). :func:`log_words` renders one line's form and params as the
English sentence in words of the text rendering (``render_observation``: replay ``--show``,
golden files, RL's ansi render), from the templates :data:`WORD_TEMPLATES`; it never reads the
sentence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from hexfolk.core import LogBook, Places
from hexfolk.games.island.labels import PLACE_KINDS, Labels, labels
from hexfolk.games.island.log_forms import TEMPLATES
from hexfolk.games.island.maps import board_topology
from hexfolk.games.island.rules import LETTERS, RESOURCES, TERRAIN_LETTERS, TERRAINS

_NAME_OF_LETTER = dict(zip(LETTERS, RESOURCES))
_TERRAIN_OF_LETTER = {**dict(zip(TERRAIN_LETTERS, TERRAINS)), "~": "lake"}
_ONE = re.compile(r"(\d+)([lbwgo])")
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


def hex_words(tiles: str, hex_id: int, places: Places | None = None) -> str:
    """``"hex E (fields 11)"``: a hex by its label (by id without ``places``), terrain and
    number (``tiles``: :func:`tiles_of`)."""
    names = tiles.split(".") if tiles else []
    name = places.label("hex", hex_id) if places is not None else str(hex_id)
    if 0 <= hex_id < len(names):
        return f"hex {name} ({tile_words(names[hex_id])})"
    return f"hex {name}"


def cards_words(k: int) -> str:
    """``"1 card"``, ``"4 cards"``."""
    return f"{k} card" if k == 1 else f"{k} cards"


def board_labels(board: Mapping[str, Any] | None) -> Labels | None:
    """The place labels of an observation's ``board`` (None before its layout, or for a board
    this process does not know)."""
    if not board or not board.get("layout"):
        return None
    try:
        return labels(board_topology(board))
    except (KeyError, ValueError):
        return None


class WordPlaces:
    """Places in words for :data:`WORDS`: ``hex E (fields 11)`` (label, terrain and number;
    ``tiles``: :func:`tiles_of`), ``spot 14``, ``edge 12-13``."""

    def __init__(self, places: Places | None, tiles: str):
        self.places = places
        self.tiles = tiles

    def label(self, kind: str, value: Any) -> str:
        if kind == "hex":
            return hex_words(self.tiles, value, self.places)
        name = self.places.label(kind, value) if self.places is not None else str(value)
        return f"{'spot' if kind == 'node' else kind} {name}"


WORD_TEMPLATES: dict[str, str] = {
    **TEMPLATES,
    "laid_out": "the board is laid out; the robber stands on {hex:hex}",
    "laid_out_no_robber": "the board is laid out; there is no robber (IR-47)",
    "blocked": "the robber on {hex:hex} blocks {cards:cards} for {seat:seat} (IR-44)",
    "short": "the bank cannot pay {seat:seat} {cards:cards} (IR-37)",
    "stole": "({seat:seat} stole 1 {resource} from {victim:seat})",
    "draws": "{seat:seat} draws {card:dev}",
    "forfeits": "{seat:seat} forfeits {count} unplaced {count|road|roads}",
    "trade": "{seat:seat} trades {give:cards} with the bank for {get:cards}",
    "offers": "{seat:seat} offers {give:cards} for {get:cards} (offer #{offer})",
    "counters": "{seat:seat} counters: {give:cards} for {get:cards}",
}
"""The log's forms as sentences in words (cards and places named, rules cited): the log's own
templates (:data:`~.log_forms.TEMPLATES`) where they read well already."""


def _word_cards(cards: Mapping[str, int]) -> str:
    return hand_words(cards, "nothing")


WORDS: LogBook = LogBook(
    WORD_TEMPLATES,
    {
        "seat": lambda p: f"seat {p}",
        "cards": _word_cards,
        "letter": str,
        "resource": str,
        "dev": lambda key: DEV_WORDS[key],
        "payouts": lambda paid: "; ".join(WORDS.book.render("gets", x, None) for x in paid),
        "answers": lambda parts: "; ".join(WORDS.book.render(x["answer"], x, None) for x in parts),
    },
    PLACE_KINDS,
)
"""The words book of :func:`log_words`."""


def log_words(line: str, tiles: str = "", places: Places | None = None) -> str:
    """One log line (a :class:`~hexfolk.core.LogLine`, read by its form and params) as an
    English sentence in words for the text rendering: bundles and resources in words, the
    robber's hex by label, terrain and number (``tiles``: :func:`tiles_of` of the board),
    spots and edges named as such by the board's labels (``places``). A line without a form
    (a plain string) is shown as it is."""
    form = getattr(line, "form", None)
    if form is None or form not in WORD_TEMPLATES or form == "text":
        return str(line)
    params: dict[str, Any] = line.params  # type: ignore[attr-defined]
    return WORDS.book.render(form, params, None, WordPlaces(places, tiles))


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
