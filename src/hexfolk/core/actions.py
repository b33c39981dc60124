"""Actions: small immutable values with a canonical text notation.

Each game defines one frozen dataclass per kind of action, subclassing :class:`Action`, and a
parser (:meth:`hexfolk.core.game.Game.parse_action_syntax`) that turns the canonical text back
into the value. ``parse(str(a)) == a`` for every action ``a`` a game can produce (the
conformance kit checks it on every action of every random playout).

A parser may also return a *pattern*: an object with a ``matches(action)`` method that stands for
a shorthand (e.g. ``end`` for "the only end-turn action"). :meth:`State.parse_action` resolves a
pattern against the legal actions and raises :class:`AmbiguousActionError` when it fits several.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


class Action:
    """Base class of all actions. Subclasses are ``@dataclass(frozen=True, slots=True)``.

    ``str(action)`` is the canonical notation. Two actions are the same move exactly when they
    are equal; they are hashable so they can be used as dictionary keys by search bots.
    """

    __slots__ = ()

    def matches(self, action: Action) -> bool:
        """True if ``action`` is what this (possibly shorthand) value stands for."""
        return self == action

    def text(self) -> str:
        """The canonical text notation (same as ``str(self)``)."""
        return str(self)


@runtime_checkable
class ActionPattern(Protocol):
    """A shorthand returned by a parser; resolved against the legal actions."""

    def matches(self, action: Action) -> bool: ...
