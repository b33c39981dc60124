"""Actions: small immutable values with a canonical text notation.

Each game defines one frozen dataclass per kind of action, subclassing :class:`Action`, and a
parser (:meth:`hexfolk.core.game.Game.parse_action_syntax`) that turns the canonical text back
into the value. ``parse(str(a)) == a`` for every action ``a`` a game can produce (the
conformance kit checks it on every action of every random playout).

A parser may also return a *pattern*: an object with a ``matches(action)`` method that stands for
a shorthand (e.g. ``end`` for "the only end-turn action"). :meth:`State.parse_action` resolves a
pattern against the legal actions and raises :class:`AmbiguousActionError` when it fits several.

Every action also has a JSON form, ``{"kind": ..., <field>: ...}`` (:meth:`Action.to_json`),
declared per class with :func:`hexfolk.core.action_forms.action_kind`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from hexfolk.core.errors import MalformedActionError

if TYPE_CHECKING:
    from hexfolk.core.action_forms import ActionForm


class Action:
    """Base class of all actions. Subclasses are ``@dataclass(frozen=True, slots=True)``.

    ``str(action)`` is the canonical notation. Two actions are the same move exactly when they
    are equal; they are hashable so they can be used as dictionary keys by search bots.
    """

    __slots__ = ()

    json_form: ClassVar[ActionForm | None] = None
    """The class's JSON form (kind and field converters), set by ``@action_kind``."""

    def to_json(self) -> dict[str, Any]:
        """The structured form: ``{"kind": "settle", "node": 28}`` (plain JSON, a new dict)."""
        form = self.json_form
        if form is None:
            raise TypeError(
                f"{type(self).__name__} has no JSON form (declare it with @action_kind)"
            )
        return form.dump(self)

    @classmethod
    def from_json(cls, doc: Any) -> Action:
        """The action of this class that ``doc`` writes (its ``kind`` must be this class's);
        :class:`~hexfolk.core.errors.MalformedActionError` names what is wrong. To read a
        document of any kind, use the game's ``Game.action_from_json``."""
        form = cls.json_form
        if form is None or form.cls is not cls:
            raise TypeError(f"{cls.__name__} has no JSON form (declare it with @action_kind)")
        if type(doc) is not dict or doc.get("kind") != form.kind:
            raise MalformedActionError(
                f"a {cls.__name__} in JSON is an object whose kind is {form.kind!r}"
            )
        return form.load(doc)

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
