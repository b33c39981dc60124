"""The island's log forms: one English template per form, and :data:`LOG`, the game's
:class:`~hexfolk.core.LogBook` that makes every line of the log (``docs/log.md``; the list with
examples is in ``docs/island.md``, "The log").

Params, named in the game's words: ``seat`` the seat the line is about, ``victim`` / ``partner``
another seat (numbers; the ``seat`` kind writes ``seat 2``); bundles of cards as counts by
resource name (``{"lumber": 2, "ore": 1}``; the ``cards`` kind writes the notation ``2l 1o``,
``-`` for none); a resource by name (``"ore"``); a development card by key (``"knight"``); places
by id: ``node``, ``edge``, ``hex`` (written as the board labels them, :mod:`.labels`); offers by
number. The browser's templates are ``web/i18n/log/island/<lang>.json`` (the English one is
:data:`TEMPLATES`, checked equal by ``tests/games/test_log_templates.py``).

Two lines hold a list of parts, each written with a form of its own: ``production``
(``paid``: ``{seat, cards}`` per seat, each a ``gets``, joined by ``"; "``) and ``answers``
(``answers``: ``{seat, answer[, give, get]}`` per addressee, ``answer`` the form of the part:
``accepts``, ``rejects``, ``silent``, ``counters``; joined by ``", "``).

Every offer ends with one line that names it (issue 27: a client tells the proposer what became
of its own offer in its own language): ``trade_with`` (taken: ``seat`` the proposer, ``partner``
who accepted or countered, ``offer``), ``rejected_all`` (``offer``, ``seat`` the proposer),
``withdraws`` (``seat``, ``offer``) and ``withdrawn`` at the end of the turn (``seat``,
``offers``: the numbers of the offers still open). The params a template does not write change
no sentence, so the fingerprints and golden files are the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hexfolk.core import LogBook
from hexfolk.games.island.labels import PLACE_KINDS
from hexfolk.games.island.rules import LETTERS, RESOURCES

TEMPLATES: dict[str, str] = {
    # the board and the setup
    "laid_out": "board laid out; robber on hex {hex:hex}",
    "laid_out_no_robber": "board laid out; no robber (IR-47)",
    "settles": "{seat:seat} settles {node:node}",
    "receives": "{seat:seat} receives {cards:cards}",
    # the dice and production
    "rolls": "{seat:seat} rolls {total}",
    "production": "{paid:payouts}",
    "gets": "{seat:seat} gets {cards:cards}",
    "blocked": "the robber on hex {hex:hex} blocks {cards:cards} for {seat:seat}",
    "short": "the bank is short of {cards:cards} for {seat:seat}",
    # building
    "settlement": "{seat:seat} builds a settlement on {node:node}",
    "road": "{seat:seat} builds a road on {edge:edge}",
    "city": "{seat:seat} builds a city on {node:node}",
    "longest": "{seat:seat} takes Longest Road ({length})",
    "longest_aside": "Longest Road is set aside",
    # the robber
    "discards": "{seat:seat} discards {cards:cards}",
    "robber_stays": "{seat:seat}: the robber stays on {hex:hex}",
    "robber": "{seat:seat} moves the robber to {hex:hex}",
    "robs": "{seat:seat} moves the robber to {hex:hex} and robs {victim:seat}",
    "steals": "{seat:seat} steals a card from {victim:seat}",
    "stole": "({seat:seat} stole {resource:letter} from {victim:seat})",
    # development cards
    "buys": "{seat:seat} buys a development card",
    "draws": "{seat:seat} draws {card:dev}",
    "knight": "{seat:seat} plays a knight",
    "largest": "{seat:seat} takes Largest Army ({knights})",
    "road_building": "{seat:seat} plays road building",
    "plenty": "{seat:seat} plays year of plenty: {cards:cards}",
    "monopoly": "{seat:seat} plays monopoly on {resource:resource} and takes {count}",
    "forfeits": "{seat:seat} forfeits {count} unplaced road(s)",
    # trade
    "trade": "{seat:seat} trades {give:cards} for {get:cards}",
    "offers": "{seat:seat} offers #{offer}: {give:cards} for {get:cards}",
    "answers": "answers to offer #{offer}: {answers:answers}",
    "accepts": "{seat:seat} accepts",
    "rejects": "{seat:seat} rejects",
    "silent": "{seat:seat} does not answer",
    "counters": "{seat:seat} counters {give:cards} for {get:cards}",
    "rejected_all": "offer #{offer} is rejected by every seat",
    "trade_with": "{seat:seat} trades {give:cards} for {get:cards} with {partner:seat}",
    "withdraws": "{seat:seat} withdraws offer #{offer}",
    "withdrawn": "{seat:seat}'s open offers are withdrawn",
    # the turn
    "ends": "{seat:seat} ends the turn",
    "sbp_join": "{seat:seat} signs up for the special build phase",
    "sbp_pass": "{seat:seat} passes the special build phase",
    "wins": "{seat:seat} wins with {vp} VP",
    # a line of an old position document, kept as its text
    "text": "{text}",
}
"""English template of each log form (syntax: :mod:`hexfolk.core.reasons`)."""

PLACE_FORMS = frozenset(
    form for form, template in TEMPLATES.items() if any(f":{k}}}" in template for k in PLACE_KINDS)
)
"""Forms whose line names a place (written by its label)."""

NOTE_FORMS = frozenset({"blocked", "short"})
"""Forms of the lines that only tell what the rules did (:class:`~.log.Note`)."""

ANSWER_FORMS = ("accepts", "rejects", "silent", "counters")
"""The forms of an addressee's part of an ``answers`` line."""


FIELDS: dict[str, tuple[str, ...]] = {
    "laid_out": ("hex",),
    "laid_out_no_robber": (),
    "settles": ("seat", "node"),
    "receives": ("seat", "cards"),
    "rolls": ("seat", "total"),
    "production": ("paid",),
    "gets": ("seat", "cards"),
    "blocked": ("hex", "cards", "seat"),
    "short": ("cards", "seat"),
    "settlement": ("seat", "node"),
    "road": ("seat", "edge"),
    "city": ("seat", "node"),
    "longest": ("seat", "length"),
    "longest_aside": (),
    "discards": ("seat", "cards"),
    "robber_stays": ("seat", "hex"),
    "robber": ("seat", "hex"),
    "robs": ("seat", "hex", "victim"),
    "steals": ("seat", "victim"),
    "stole": ("seat", "resource", "victim"),
    "buys": ("seat",),
    "draws": ("seat", "card"),
    "knight": ("seat",),
    "largest": ("seat", "knights"),
    "road_building": ("seat",),
    "plenty": ("seat", "cards"),
    "monopoly": ("seat", "resource", "count"),
    "forfeits": ("seat", "count"),
    "trade": ("seat", "give", "get"),
    "offers": ("seat", "offer", "give", "get"),
    "answers": ("offer", "answers"),
    "accepts": ("seat",),
    "rejects": ("seat",),
    "silent": ("seat",),
    "counters": ("seat", "give", "get"),
    "rejected_all": ("offer", "seat"),
    "trade_with": ("seat", "give", "get", "partner", "offer"),
    "withdraws": ("seat", "offer"),
    "withdrawn": ("seat", "offers"),
    "ends": ("seat",),
    "sbp_join": ("seat",),
    "sbp_pass": ("seat",),
    "wins": ("seat", "vp"),
    "text": ("text",),
}
"""The params of each form in the order the engine writes them (:func:`written`): a written
line is the flat tuple ``(form, value, ...)`` of its values in this order, a bundle of cards
(``cards``, ``give``, ``get``) as its per-resource counts (a :data:`~.actions.Bundle`), the
``offers`` of ``withdrawn`` as a tuple of numbers, the ``answers`` of ``answers`` as one tuple
per addressee, ``(seat, answer)`` or ``(seat, "counters", give, get)``. Nothing in it is a dict
or a list, so a line costs the garbage collector nothing once written (a tuple of immutable
values is untracked at its first collection) and is its own key in the made lines' memo
(:func:`~.log.make_line`); :func:`params_of` gives the named JSON params when the line is
read. ``production`` is written as a :class:`~.production.ProductionText`, not in this form."""


def cards_json(bundle: Sequence[int]) -> dict[str, int]:
    """A bundle of per-resource counts as a param: ``{"lumber": 2}`` (counts above 0 only)."""
    return {RESOURCES[r]: c for r, c in enumerate(bundle) if c}


def _answer_parts(parts: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """The ``answers`` param of written parts (see :data:`FIELDS`)."""
    out: list[dict[str, Any]] = []
    for part in parts:
        if len(part) > 2:
            seat, answer, give, get = part
            out.append(
                {"seat": seat, "answer": answer, "give": cards_json(give), "get": cards_json(get)}
            )
        else:
            out.append({"seat": part[0], "answer": part[1]})
    return out


_READ: dict[str, Any] = {
    "cards": cards_json,
    "give": cards_json,
    "get": cards_json,
    "offers": list,
    "answers": _answer_parts,
}
"""How a written value of these params becomes its JSON param."""

_READ_BY_FORM: dict[str, tuple[tuple[str, Any], ...]] = {
    form: tuple((name, _READ[name]) for name in names if name in _READ)
    for form, names in FIELDS.items()
}


def params_of(line: tuple[Any, ...]) -> dict[str, Any]:
    """The named JSON params of a written line ``(form, value, ...)`` (:data:`FIELDS`)."""
    form = line[0]
    params = dict(zip(FIELDS[form], line[1:]))
    for name, read in _READ_BY_FORM[form]:
        params[name] = read(params[name])
    return params


def written(form: str, params: Mapping[str, Any]) -> tuple[Any, ...]:
    """The written line of ``form`` with named ``params`` (the inverse of :func:`params_of`:
    bundles given as ``{"ore": 1}`` or as counts; slow, for callers outside the hot paths)."""
    values: list[Any] = []
    for name in FIELDS[form]:
        value = params[name]
        if name in ("cards", "give", "get"):
            value = _bundle_of(value)
        elif name == "offers":
            value = tuple(value)
        elif name == "answers":
            value = tuple(
                (p["seat"], p["answer"], _bundle_of(p["give"]), _bundle_of(p["get"]))
                if "give" in p
                else (p["seat"], p["answer"])
                for p in value
            )
        values.append(value)
    if len(params) != len(values):
        extra = sorted(set(params) - set(FIELDS[form]))
        raise TypeError(f"log form {form!r} takes no params {extra}")
    return (form, *values)


def _bundle_of(cards: Any) -> tuple[int, ...]:
    if isinstance(cards, Mapping):
        return tuple(int(cards.get(r, 0)) for r in RESOURCES)
    return tuple(cards)


def _cards(cards: Mapping[str, int]) -> str:
    """``2l 1o`` (the notation of actions); ``-`` when empty."""
    words = [f"{cards[r]}{c}" for r, c in zip(RESOURCES, LETTERS) if cards.get(r)]
    return " ".join(words) if words else "-"


def _payouts(paid: list[dict[str, Any]]) -> str:
    return "; ".join(LOG.book.render("gets", part, None) for part in paid)


def _answers(answers: list[dict[str, Any]]) -> str:
    return ", ".join(LOG.book.render(part["answer"], part, None) for part in answers)


_LETTER = dict(zip(RESOURCES, LETTERS))

LOG = LogBook(
    TEMPLATES,
    {
        "seat": lambda p: f"seat {p}",
        "cards": _cards,
        "letter": lambda r: _LETTER[r],
        "resource": str,
        "dev": str,
        "payouts": _payouts,
        "answers": _answers,
    },
    PLACE_KINDS,
)
"""The island's log book: ``LOG.line(form, labels, **params)`` makes a line."""
