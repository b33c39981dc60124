"""What a state and its clone share: the audit of issue 11.

:func:`shared_attributes` walks two states' attributes and names every top-level attribute
through which the two reach one and the same object that is not a plain immutable value (int,
str, tuple of such, frozenset, an :class:`~hexfolk.core.Action`). Each game's audit test lists
the attributes it expects to be shared, with the reason each one is safe, and fails on any other:
a new shared cache cannot slip in unreviewed.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action, State

_PLAIN = (int, float, str, bytes, bool, type(None), Action)


def _reach(value: Any, out: dict[int, Any], depth: int = 0) -> None:
    """Every object below ``value`` that could be changed in place, by id."""
    if isinstance(value, _PLAIN) or depth > 6:
        return
    if isinstance(value, tuple | frozenset):
        for item in value:
            _reach(item, out, depth + 1)
        return
    if id(value) in out:
        return
    out[id(value)] = value
    if isinstance(value, dict):
        for k, v in value.items():
            _reach(k, out, depth + 1)
            _reach(v, out, depth + 1)
    elif isinstance(value, list | set):
        for item in value:
            _reach(item, out, depth + 1)
    else:
        fields = getattr(value, "__dict__", None)
        if fields is not None:
            for v in fields.values():
                _reach(v, out, depth + 1)
        for slot in getattr(type(value), "__slots__", ()):
            if hasattr(value, slot):
                _reach(getattr(value, slot), out, depth + 1)


def shared_attributes(a: State, b: State, *, skip: tuple[str, ...] = ("game",)) -> set[str]:
    """Top-level attributes of ``a`` through which ``a`` and ``b`` reach a common mutable
    object (attributes in ``skip`` are not walked: the game object is shared by design)."""
    reach_b: dict[int, Any] = {}
    for name, value in vars(b).items():
        if name not in skip:
            _reach(value, reach_b)
    shared: set[str] = set()
    for name, value in vars(a).items():
        if name in skip:
            continue
        mine: dict[int, Any] = {}
        _reach(value, mine)
        if any(i in reach_b for i in mine):
            shared.add(name)
    return shared
