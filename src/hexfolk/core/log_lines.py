"""Log entries as data: a :class:`LogLine` is one entry's English sentence *and* its form and
params, made by a game's :class:`LogBook` (boardgame.io's ``LogEntry``, lichess's event data).

An engine's log holds ``(visibility, line)`` entries (visibility ``None``: everyone, else the
seats that see it). The line is a ``str`` whose value is the English sentence — what golden
files, records, the terminal and ``str()`` show — and it carries ``form`` (a stable snake_case
id of the sentence form, in the game's words) and ``params`` (named JSON-plain values: seats,
counts, resources by name, places by their id). Clients render ``form`` and ``params`` in their
own language from their templates (``web/i18n/log/<game>/<lang>.json``); bots read the params,
never the sentence. English lives in one place: the book's templates.

Template syntax is the reasons' (:mod:`hexfolk.core.reasons`): ``{name}``, ``{name:kind}``,
``{name|one|other}``; a place kind (``node``, ``hex``, ``territory``…) renders as the board's
label (:class:`~hexfolk.core.reasons.Places`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hexfolk.core.reasons import Places, ReasonBook


class LogLine(str):
    """One log entry: the English sentence (the ``str`` value) with ``form`` and ``params``.

    Equal to, hashed as and printed as its sentence, so code that reads lines as text keeps
    working; treat ``params`` as read-only (lines are shared by cloned states). Pickles, copies
    and deep-copies by value."""

    form: str
    """The sentence form (a key of the game's :class:`LogBook`)."""
    params: dict[str, Any]
    """The named values the sentence was made from (JSON-plain)."""

    def __new__(cls, text: str, form: str, params: dict[str, Any]) -> LogLine:
        line = str.__new__(cls, text)
        line.form = form
        line.params = params
        return line

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, (str(self), self.form, self.params))

    def to_json(self) -> dict[str, Any]:
        """``{"form", "params", "text"}`` as sent to clients and written to records."""
        return {"form": self.form, "params": self.params, "text": str(self)}

    @classmethod
    def from_json(cls, doc: Any) -> LogLine:
        """The line of a received entry ``{"form", "params", "text"}`` (what :meth:`to_json`
        wrote), so a remote client holds what an in-process one does; a plain string (a line
        of an older server or document) is a :data:`TEXT_FORM` line."""
        if isinstance(doc, str):
            return text_line(doc)
        if not isinstance(doc, dict) or not isinstance(doc.get("text"), str):
            raise ValueError(f"a log line is {{form, params, text}}, not {doc!r}")
        form, params = doc.get("form"), doc.get("params")
        if not isinstance(form, str) or not isinstance(params, dict):
            return text_line(doc["text"])
        return cls(doc["text"], form, params)


TEXT_FORM = "text"
"""The form of a line that carries only its sentence (``params``: ``{"text"}``): a line of an
old position document or of an engine that logs plain strings."""


def text_line(text: str) -> LogLine:
    """The :data:`TEXT_FORM` line of ``text``."""
    return LogLine(text, TEXT_FORM, {"text": text})


class LogBook:
    """The English templates of one game's log forms, one per form, and the renderers of
    their ``{name:kind}`` placeholders (as a :class:`~hexfolk.core.ReasonBook` has)."""

    def __init__(
        self,
        templates: Mapping[str, str],
        kinds: Mapping[str, Callable[[Any], str]] | None = None,
        place_kinds: frozenset[str] = frozenset(),
    ):
        self.book = ReasonBook(templates, kinds, place_kinds)
        self.templates: dict[str, str] = self.book.templates
        """English template by form."""

    def line(
        self,
        form: str,
        places: Places | None = None,
        /,
        *,
        line_class: type[LogLine] = LogLine,
        **params: Any,
    ) -> LogLine:
        """The line of ``form`` with ``params``, its places labelled by ``places``."""
        if form not in self.templates:
            raise KeyError(f"no template for log form {form!r}")
        return line_class(self.book.render(form, params, None, places), form, params)

    def placeholders(self, form: str) -> set[str]:
        """The param names the template of ``form`` uses."""
        return self.book.placeholders(form)
