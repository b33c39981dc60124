"""Why an action is refused, as data: a :class:`Reason` is ``{code, params, rule}``.

A game keeps one :class:`ReasonBook`: a table of English templates, one per ``code`` (a stable
snake_case id of one sentence form). The engine builds a reason from a code and its params
(JSON-plain values: numbers, strings, lists, string-keyed dicts, and nested reasons, which
:meth:`Reason.to_json` writes as ``{"code", "params", "rule"}``); its English sentence
(:attr:`Reason.text`) is rendered from the template, so the English lives in one place and
clients render the same data in their own language (``web/reasons.js`` with the templates of
``web/i18n/reasons``).

Template syntax (the same in every language):

- ``{name}`` the param as it is (a nested reason is rendered in turn); ``{rule}`` the rule;
- ``{name:kind}`` the param through a named renderer: the kernel's ``seats`` (``seat 2`` /
  ``seats 1 and 3``), ``seats_or`` (``seat 1 or seat 3``), ``players`` (``P1, P2``), ``list``
  (``a, b``), ``list_or`` (``a or b``), ``cap`` (``Produce``), ``q`` (an action text quoted:
  ``'settle 0'``), or one of the game's book;
- ``{name|one|other}`` ``one`` when the param is 1 (or a list of one), else ``other``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+)|\|([^|{}]*)\|([^|{}]*))?\}")
"""``{name}``, ``{name:kind}`` or ``{name|one|other}``."""


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _seats(seats: Any) -> str:
    items = [str(q) for q in seats]
    return f"seat {items[0]}" if len(items) == 1 else "seats " + _and(items)


KERNEL_KINDS: dict[str, Callable[[Any], str]] = {
    "seats": _seats,
    "seats_or": lambda seats: " or ".join(f"seat {q}" for q in seats),
    "players": lambda seats: ", ".join(f"P{q}" for q in seats),
    "list": lambda items: ", ".join(str(x) for x in items),
    "list_or": lambda items: " or ".join(str(x) for x in items),
    "cap": lambda word: str(word).capitalize(),
    "q": lambda text: repr(str(text)),
}
"""The renderers every book knows (English); a game's book adds its own."""


class Places(Protocol):
    """The readable labels of one board's places, as the board shows them (``A`` for a hex,
    ``14`` for an intersection, ``F4`` for a Scythe territory): what a ``{name:kind}`` of a
    place kind renders. A game lists its place kinds in its books (``place_kinds``); clients
    get the same labels with the board's geometry."""

    def label(self, kind: str, value: Any) -> str:
        """The label of place ``value`` of ``kind`` (``"node"``, ``"hex"``, ``"territory"``…)."""
        ...


def render_kind(
    kinds: Mapping[str, Callable[[Any], str]], kind: str, value: Any, places: Places | None
) -> str:
    """``value`` through the renderer of ``kind``; a place kind (one without a renderer of its
    own) is the board's label when ``places`` is given, else the value as it is."""
    render = kinds.get(kind)
    if render is not None:
        return render(value)
    return places.label(kind, value) if places is not None else str(value)


class Reason:
    """One refusal: ``code`` (the sentence form), ``params`` (JSON-plain), ``rule`` (the rule's
    number, ``"IR-57"``, or ``None``). ``text`` is the English sentence. Treat it as a value:
    equal when code, params and rule are."""

    __slots__ = ("book", "code", "params", "places", "rule")

    def __init__(
        self,
        code: str,
        params: Mapping[str, Any],
        rule: str | None,
        book: ReasonBook,
        places: Places | None = None,
    ) -> None:
        self.code = code
        self.params = params
        self.rule = rule
        self.book = book
        self.places = places
        """The labels of the board the reason speaks of (for ``{name:place kind}``), or None."""

    @property
    def text(self) -> str:
        """The English sentence (the book's template for ``code`` with the params filled in)."""
        return self.book.render(self.code, self.params, self.rule, self.places)

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params", "rule"}`` as sent to clients (a nested reason as its JSON)."""
        params = {k: v.to_json() if type(v) is Reason else v for k, v in self.params.items()}
        return {"code": self.code, "params": params, "rule": self.rule}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reason):
            return NotImplemented
        return (self.code, self.params, self.rule) == (other.code, other.params, other.rule)

    __hash__ = None  # type: ignore[assignment]  # params are a dict

    def __repr__(self) -> str:
        return f"Reason({self.code!r}, {dict(self.params)!r}, {self.rule!r})"

    def __str__(self) -> str:
        return self.text


Part = tuple[str, str | None, str | None, str | None, str | None]
"""A literal, then the placeholder after it: name, kind, one, other (name None at the end)."""


def template_parts(template: str) -> list[Part]:
    """``template`` cut into its literals and placeholders (reasons and log lines alike)."""
    parts: list[Part] = []
    at = 0
    for m in PLACEHOLDER.finditer(template):
        name, kind, one, other = m.groups()
        parts.append((template[at : m.start()], name, kind, one, other))
        at = m.end()
    parts.append((template[at:], None, None, None, None))
    return parts


class ReasonBook:
    """The English templates of one game's refusals, one per code, and the renderers of its
    ``{name:kind}`` placeholders."""

    def __init__(
        self,
        templates: Mapping[str, str],
        kinds: Mapping[str, Callable[[Any], str]] | None = None,
        place_kinds: frozenset[str] = frozenset(),
    ):
        self.templates: dict[str, str] = dict(templates)
        self.kinds: dict[str, Callable[[Any], str]] = {**KERNEL_KINDS, **(kinds or {})}
        self.place_kinds = place_kinds
        """Kinds rendered by the board's labels (:class:`Places`), not by a renderer."""
        self._parts = {code: template_parts(template) for code, template in self.templates.items()}
        for code, parts in self._parts.items():
            for _, name, kind, _, _ in parts:
                if kind is not None and kind not in self.kinds and kind not in place_kinds:
                    raise ValueError(f"{code!r}: no renderer for {{{name}:{kind}}}")

    def __call__(self, code: str, rule: str | None = None, **params: Any) -> Reason:
        """The reason ``code`` with ``params`` (JSON-plain values or nested reasons)."""
        return self.on_board(None, code, rule, **params)

    def on_board(
        self, places: Places | None, code: str, rule: str | None = None, **params: Any
    ) -> Reason:
        """The reason ``code`` with ``params``, the params of a place kind (``node``, ``hex``…)
        labelled by ``places`` in its English sentence."""
        if code not in self._parts:
            raise KeyError(f"no template for reason code {code!r}")
        return Reason(code, params, rule, self, places)

    def placeholders(self, code: str) -> set[str]:
        """The param names the template of ``code`` uses (``rule`` included)."""
        return {name for _, name, _, _, _ in self._parts[code] if name is not None}

    def render(
        self,
        code: str,
        params: Mapping[str, Any],
        rule: str | None,
        places: Places | None = None,
    ) -> str:
        """The English sentence of ``code`` with ``params`` and ``rule`` (``places`` labels the
        params of a place kind)."""
        out: list[str] = []
        for literal, name, kind, one, other in self._parts[code]:
            out.append(literal)
            if name is None:
                continue
            value = rule if name == "rule" else params[name]
            if one is not None:
                single = len(value) == 1 if isinstance(value, list) else value == 1
                out.append(one if single else (other or ""))
            elif kind is not None:
                out.append(render_kind(self.kinds, kind, value, places))
            elif type(value) is Reason:
                out.append(value.book.render(value.code, value.params, value.rule, value.places))
            elif isinstance(value, dict) and "code" in value:
                out.append(self.render(value["code"], value["params"], value.get("rule"), places))
            else:
                out.append(str(value))
        return "".join(out)


GENERIC = ReasonBook(
    {
        "generic_game_over": "{text:q} is not legal: the game is over",
        "generic_not_chance_outcome": "{text:q} is not a possible chance outcome here",
        "generic_no_decision": "seat {seat} has no decision to make now",
        "generic_sentence": "{text}",
        "generic_not_legal_now": (
            "{text:q} is not legal now for seat {seat}; legal are e.g.: {sample:list}"
        ),
        "generic_not_legal_pending": (
            "{text:q} is not legal now for seat {seat} (pending: {pending}); "
            "legal are e.g.: {sample:list}"
        ),
    }
)
"""The kernel's generic refusals (an engine without a specific reason); their codes start with
``generic_`` so that no game's code meets them. ``generic_sentence`` carries the English sentence
of an engine that overrides ``why_illegal`` without a book of its own."""
