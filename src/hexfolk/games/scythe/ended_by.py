"""Why a Scythe game ended, as data (issue 27): the end's form and params, the way the log's lines
and the refusals travel (docs/log.md), so every client writes it in its own language.

The forms are the game-over log line's (:data:`~hexfolk.games.scythe.log_forms.GAME_OVER_FORMS`:
one per way a sixth star is placed, SR-11), each with the reason alone as its English template
(the line's words between the parentheses); any other reason (a position document's, a game
ended by hand) is ``game_over_because`` with the reason as it was given. The summary
(``State.summary()["ended_by"]``) carries ``{"form", "params", "text"}``; the page's templates
are ``sc.ended_by.<form>`` in ``web/i18n/scythe/<lang>.json``.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core.reasons import ReasonBook
from hexfolk.games.scythe.log_forms import GAME_OVER_FORMS

TEMPLATES: dict[str, str] = {
    "game_over": "sixth star",
    "game_over_combat": "sixth star in combat",
    "game_over_recruit": "sixth star from a recruit bonus",
    "game_over_objective": "sixth star from an objective",
    "game_over_because": "{reason}",
}
"""The English words of each way the game ends (syntax: :mod:`hexfolk.core.reasons`)."""

BOOK = ReasonBook(TEMPLATES)


def ended_by(reason: str) -> dict[str, Any] | None:
    """The end ``reason`` (``Position.end_reason``, as :func:`~.scoring.end_game` got it) as
    ``{"form", "params", "text"}``; ``None`` while the game goes on (``""``)."""
    if not reason:
        return None
    form = GAME_OVER_FORMS.get(reason)
    params: dict[str, Any] = {} if form is not None else {"reason": reason}
    form = form or "game_over_because"
    return {"form": form, "params": params, "text": BOOK.render(form, params, None)}


def ended_by_text(summary: dict[str, Any]) -> str:
    """The English words of why the game of ``summary`` ended: its ``ended_by`` rendered from
    form and params, else (a summary stored before issue 27) its ``end_reason`` as it is."""
    doc = summary.get("ended_by")
    if isinstance(doc, dict) and doc.get("form") in TEMPLATES:
        params = doc.get("params") or {}
        if BOOK.placeholders(doc["form"]) <= set(params):
            return BOOK.render(doc["form"], params, None)
    return str(summary.get("end_reason") or "")
