"""Actions as data: the JSON form of every action, built once per action class.

Beside its text (the id a client sends back, as UCI is for chess), every action has a
structured form: a ``kind`` naming it in the game's words and one named field per dataclass
field, each written as the text writes it (ids as numbers, names as words)::

    {"kind": "settle", "node": 28}
    {"kind": "move", "unit": "mech", "from": "r3c4"}

A game declares the form on each action class with :func:`action_kind`, which reads the
dataclass fields once and builds a table of field converters (:class:`FieldCodec`), so
:meth:`Action.to_json` costs one small dict and :meth:`ActionForms.from_json` one constructor
call. A whole number (``int``) or a flag (``bool``) field needs no converter; every other field
names one (a choice of words, counts by name, a list of numbers, a value with "none" written
``null``, or a game's own). The game lists its forms in :class:`ActionForms`
(``Game.action_forms``), which dispatches a document on its ``kind``.

``from_json`` checks the *form* only (an object, a known kind, every field present once with a
value of its type; fields with a default may be left out); whether the action is legal is the
state's business, as for a text. A malformed document raises
:class:`~hexfolk.core.errors.MalformedActionError` naming the kind and the field, never
``KeyError`` or ``TypeError``.

Shorthand patterns (classes that override :meth:`Action.matches`, such as ``carry all``) are
text conveniences resolved against the legal actions; they have no JSON form.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from hexfolk.core.actions import Action
from hexfolk.core.errors import MalformedActionError

ActionDoc = dict[str, Any]
"""An action's JSON form: ``{"kind": ..., <field>: <value>, ...}`` (plain JSON)."""

KIND_WORD = re.compile(r"^[a-z][a-z0-9_]*$")
"""What a kind looks like: lower-case words joined by ``_`` (``settle``, ``play_knight``)."""

A = TypeVar("A", bound=type[Action])


class FieldCodec:
    """How one field is written in JSON: ``dump`` (value -> JSON; ``None`` when the value is
    written as it is) and ``load`` (JSON -> value; raises ``ValueError`` when it is not
    ``what``, the words an error message uses: ``"a whole number"``)."""

    __slots__ = ("dump", "load", "what")

    def __init__(
        self, what: str, load: Callable[[Any], Any], dump: Callable[[Any], Any] | None = None
    ):
        self.what = what
        self.load = load
        self.dump = dump

    def __repr__(self) -> str:
        return f"FieldCodec({self.what!r})"


def _whole(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError
    return value


def _flag(value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError
    return value


WHOLE = FieldCodec("a whole number (0 or more)", _whole)
"""An ``int`` field: a JSON whole number, 0 or more (the default for ``int`` fields)."""
FLAG = FieldCodec("true or false", _flag)
"""A ``bool`` field: JSON ``true`` or ``false`` (the default for ``bool`` fields)."""


def words(choices: Sequence[str]) -> FieldCodec:
    """A ``str`` field holding one of ``choices``, written as it is."""
    allowed = frozenset(choices)

    def load(value: Any) -> str:
        if type(value) is not str or value not in allowed:
            raise ValueError
        return value

    return FieldCodec("one of " + ", ".join(repr(c) for c in choices), load)


def named(names: Sequence[str]) -> FieldCodec:
    """An ``int`` index into ``names``, written as the name (``"ore"``, ``"r3c4"``)."""
    table = tuple(names)
    index = {name: i for i, name in enumerate(table)}

    def load(value: Any) -> int:
        if type(value) is not str or value not in index:
            raise ValueError
        return index[value]

    shown = ", ".join(repr(n) for n in table[:8]) + (", ..." if len(table) > 8 else "")
    return FieldCodec(f"one of {shown}", load, table.__getitem__)


def optional(codec: FieldCodec, absent: Any) -> FieldCodec:
    """``codec``'s values, with the engine's "none" value ``absent`` written ``null``."""
    inner_dump, inner_load = codec.dump, codec.load

    def load(value: Any) -> Any:
        return absent if value is None else inner_load(value)

    def dump(value: Any) -> Any:
        if value == absent:
            return None
        return value if inner_dump is None else inner_dump(value)

    return FieldCodec(f"{codec.what} or null", load, dump)


def counts(names: Sequence[str]) -> FieldCodec:
    """A tuple of counts, one per name, written ``{name: count}`` with the counts above 0 only
    (``{"lumber": 4}``; ``{}`` for none), keys in the order of ``names``."""
    table = tuple(names)
    index = {name: i for i, name in enumerate(table)}
    size = len(table)

    def load(value: Any) -> tuple[int, ...]:
        if type(value) is not dict:
            raise ValueError
        out = [0] * size
        for name, count in value.items():
            if name not in index or type(count) is not int or count <= 0:
                raise ValueError
            out[index[name]] = count
        return tuple(out)

    def dump(value: tuple[int, ...]) -> dict[str, int]:
        return {table[i]: c for i, c in enumerate(value) if c}

    return FieldCodec("an object of counts above 0 by name (" + ", ".join(table) + ")", load, dump)


def numbers(*, ordered: bool = False) -> FieldCodec:
    """A tuple of whole numbers, written as a list; ``ordered``: kept sorted (as the text
    writes it), so ``[3, 1]`` loads as ``(1, 3)``."""

    def load(value: Any) -> tuple[int, ...]:
        if type(value) is not list:
            raise ValueError
        out = tuple(_whole(v) for v in value)
        return tuple(sorted(out)) if ordered else out

    return FieldCodec("a list of whole numbers", load, list)


def written(what: str, load: Callable[[Any], Any], dump: Callable[[Any], Any]) -> FieldCodec:
    """A game's own converter (``load`` raises ``ValueError`` on a value that is not ``what``)."""
    return FieldCodec(what, load, dump)


@dataclasses.dataclass(frozen=True, slots=True)
class Renamed:
    """A field written under another name (a JSON word that is not a Python name, or a field
    named ``kind``): ``loc=Renamed("from", LOCATION)``."""

    name: str
    codec: FieldCodec | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Derived:
    """A field not written at all: computed from the others when loading (a value the text
    leaves out because another field determines it)."""

    compute: Callable[[Mapping[str, Any]], Any]


FieldSpec = FieldCodec | Renamed | Derived

_DEFAULTS: dict[str, FieldCodec] = {"int": WHOLE, "bool": FLAG}


class ActionForm:
    """The JSON form of one action class: its kind and its field converters (built once)."""

    __slots__ = ("_dump", "_names", "_required", "cls", "derived", "fields", "kind")

    def __init__(self, cls: type[Action], kind: str, specs: Mapping[str, FieldSpec]):
        where = f"{cls.__module__}.{cls.__qualname__}"
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{where}: an action with a JSON form is a dataclass")
        if not KIND_WORD.match(kind):
            raise TypeError(f"{where}: kind {kind!r} is not lower-case words joined by '_'")
        own = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(specs) - set(own)
        if unknown:
            raise TypeError(f"{where}: {sorted(unknown)} are not fields of the dataclass")
        self.cls: type[Action] = cls
        self.kind: str = kind
        fields: list[tuple[str, str, FieldCodec, bool]] = []
        derived: list[tuple[str, Callable[[Mapping[str, Any]], Any]]] = []
        for name, f in own.items():
            spec = specs.get(name)
            if isinstance(spec, Derived):
                derived.append((name, spec.compute))
                continue
            json_name = spec.name if isinstance(spec, Renamed) else name
            codec = spec.codec if isinstance(spec, Renamed) else spec
            if codec is None:
                codec = _DEFAULTS.get(str(f.type))
            if codec is None:
                raise TypeError(
                    f"{where}.{name}: a {f.type} field needs a FieldCodec saying how it is "
                    "written in JSON"
                )
            if json_name == "kind":
                raise TypeError(f"{where}.{name}: 'kind' names the action; rename the field")
            has_default = (
                f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            )
            fields.append((name, json_name, codec, has_default))
        self.fields: tuple[tuple[str, str, FieldCodec, bool], ...] = tuple(fields)
        """``(attribute, JSON name, converter, has a default)`` per written field."""
        self.derived: tuple[tuple[str, Callable[[Mapping[str, Any]], Any]], ...] = tuple(derived)
        """``(attribute, compute)`` per field not written (:class:`Derived`)."""
        self._names: frozenset[str] = frozenset(n for _, n, _, _ in fields) | {"kind"}
        self._required: tuple[str, ...] = tuple(n for _, n, _, d in fields if not d)
        self._dump: tuple[tuple[str, str, Callable[[Any], Any] | None], ...] = tuple(
            (a, n, c.dump) for a, n, c, _ in fields
        )

    def dump(self, action: Action) -> ActionDoc:
        """The JSON form of ``action`` (an instance of this class)."""
        doc: ActionDoc = {"kind": self.kind}
        for attr, name, fn in self._dump:
            value = getattr(action, attr)
            doc[name] = value if fn is None else fn(value)
        return doc

    def load(self, doc: Mapping[str, Any]) -> Action:
        """The action ``doc`` writes (``doc["kind"]`` is this form's kind)."""
        extra = [k for k in doc if k not in self._names]
        if extra:
            raise MalformedActionError(
                f"a {self.kind!r} action has no field {extra[0]!r} "
                f"(its fields: {self._field_list()})"
            )
        for name in self._required:
            if name not in doc:
                raise MalformedActionError(
                    f"a {self.kind!r} action needs the field {name!r} (its fields: "
                    f"{self._field_list()})"
                )
        values: dict[str, Any] = {}
        for attr, name, codec, _ in self.fields:
            if name not in doc:
                continue
            raw = doc[name]
            try:
                values[attr] = codec.load(raw)
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                raise MalformedActionError(
                    f"the field {name!r} of a {self.kind!r} action is {codec.what}, "
                    f"not {_shown(raw)}"
                ) from None
        for attr, compute in self.derived:
            try:
                values[attr] = compute(values)
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                raise MalformedActionError(
                    f"a {self.kind!r} action cannot be built from {_shown(dict(doc))}"
                ) from None
        return self.cls(**values)

    def _field_list(self) -> str:
        names = [n for _, n, _, _ in self.fields]
        return ", ".join(repr(n) for n in names) if names else "none"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def action_kind(kind: str, /, **fields: FieldSpec) -> Callable[[A], A]:
    """Class decorator (above ``@dataclass``) giving an action class its JSON form.

    ``kind`` names the action in the game's words; each keyword names a dataclass field whose
    JSON form is not the default (``int`` and ``bool`` fields are written as they are): a
    :class:`FieldCodec`, a :class:`Renamed` field or a :class:`Derived` one::

        @action_kind("move", kind=Renamed("unit", named(UNIT_KINDS)), loc=Renamed("from", LOC))
        @dataclass(frozen=True, slots=True)
        class SelectUnit(Action): ...
    """

    def declare(cls: A) -> A:
        cls.json_form = ActionForm(cls, kind, fields)
        return cls

    return declare


def is_pattern(cls: type[Action]) -> bool:
    """True for a shorthand pattern class (it overrides :meth:`Action.matches`)."""
    return cls.matches is not Action.matches


def own_form(cls: type[Action]) -> ActionForm | None:
    """The JSON form declared on ``cls`` itself (not inherited), or None."""
    form = cls.__dict__.get("json_form")
    return form if isinstance(form, ActionForm) and form.cls is cls else None


class ActionForms:
    """The JSON forms of one game's actions, by kind (``Game.action_forms``).

    Built from the action classes (:meth:`of_modules` takes every action class a module
    defines); refuses, when built, a class without a form and two classes with one kind.
    """

    def __init__(self, classes: Iterable[type[Action]]):
        by_kind: dict[str, ActionForm] = {}
        for cls in classes:
            form = own_form(cls)
            if form is None:
                raise TypeError(
                    f"{cls.__module__}.{cls.__qualname__} has no JSON form: declare it with "
                    "@action_kind"
                )
            other = by_kind.get(form.kind)
            if other is not None and other.cls is not cls:
                raise TypeError(
                    f"kind {form.kind!r} names both {other.cls.__qualname__} and {cls.__qualname__}"
                )
            by_kind[form.kind] = form
        self.by_kind: Mapping[str, ActionForm] = by_kind
        self.kinds: tuple[str, ...] = tuple(by_kind)
        self._choices = ", ".join(self.kinds)

    @classmethod
    def of_modules(cls, *module_names: str) -> ActionForms:
        """The forms of every action class the named modules define (shorthand patterns
        left out)."""
        classes: list[type[Action]] = []
        for module_name in module_names:
            for value in vars(sys.modules[module_name]).values():
                if (
                    isinstance(value, type)
                    and issubclass(value, Action)
                    and value.__module__ == module_name
                    and not is_pattern(value)
                ):
                    classes.append(value)
        return cls(classes)

    def classes(self) -> tuple[type[Action], ...]:
        return tuple(form.cls for form in self.by_kind.values())

    def from_json(self, doc: Any) -> Action:
        """The action a JSON form writes; :class:`MalformedActionError` when it is not one."""
        if type(doc) is not dict:
            raise MalformedActionError(
                f"an action in JSON is an object with a 'kind', not {_shown(doc)}"
            )
        kind = doc.get("kind")
        if kind is None:
            raise MalformedActionError(f"the action {_shown(doc)} has no 'kind'")
        form = self.by_kind.get(kind) if type(kind) is str else None
        if form is None:
            raise MalformedActionError(
                f"{_shown(kind)} is not a kind of action of this game (kinds: {self._choices})"
            )
        return form.load(doc)
