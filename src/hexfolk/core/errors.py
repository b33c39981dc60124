"""The errors the kernel raises.

Every error a player or a file can cause is a :class:`HexfolkError`; each says what was wrong.
Raising one never changes the state it was raised from.
"""

from __future__ import annotations

from typing import Any


class HexfolkError(Exception):
    """Base class of every error caused by input (actions, options, records)."""


class ActionError(HexfolkError, ValueError):
    """An action text or value was refused. The state is unchanged."""


class MalformedActionError(ActionError):
    """The text is not an action of this game at all (syntax)."""


class IllegalActionError(ActionError):
    """The action is well formed but not legal in the current state.

    ``reason`` is the engine's sentence saying why, in the game's words with the rule's number
    (``"a city costs 3 ore and 2 grain; you have 1 ore (IR-58)"``), from
    :meth:`hexfolk.core.State.why_illegal`; the message starts with it. An engine without a
    specific reason gives the kernel's generic sentence, which is then the whole message.

    ``data`` is the same reason as data, ``{"code", "params", "rule"}``
    (:meth:`hexfolk.core.State.why_illegal_reason`), for clients that render it in their own
    language; ``None`` when the refusal did not come from a state (a bot's illegal choice).
    """

    def __init__(
        self, message: str = "", reason: str | None = None, data: dict[str, Any] | None = None
    ):
        super().__init__(message)
        self.reason: str = message if reason is None else reason
        self.data: dict[str, Any] | None = data

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:  # keep the reason across processes
        return type(self), (str(self), self.reason, self.data)


class AmbiguousActionError(ActionError):
    """A shorthand text matches several legal actions; the message lists them."""


class OptionError(HexfolkError, ValueError):
    """A game option (or the player count) is unknown or out of range.

    ``reasons`` are the same problems as data, ``{"code", "params", "rule"}`` each (a game
    that gives them: Scythe's factions and mats), for clients that say them in their own
    language; empty when the game gives only its sentence."""

    def __init__(self, message: str = "", reasons: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.reasons: list[dict[str, Any]] = list(reasons or [])

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return type(self), (str(self), self.reasons)


class PositionError(HexfolkError, ValueError):
    """A position document (:meth:`hexfolk.core.Game.load_position`) was refused.

    The message is one sentence naming the problem in the game's words (the field, the value
    and the invariant it breaks: ``"seat 2 has 9 workers; a faction has 8 (SR-4)"``). Nothing
    is built from a refused document.
    """


class RecordError(HexfolkError, ValueError):
    """A match record is corrupt, tampered with, or does not replay."""


class UnknownGameError(HexfolkError, KeyError):
    """No game is registered under that id."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a sentence.
        return str(self.args[0]) if self.args else "unknown game"
