"""Game options: declared once per game with defaults and ranges, validated with clear errors."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from hexfolk.core.errors import OptionError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game.

    ``kind`` is ``"int"``, ``"bool"``, ``"choice"`` or ``"str"``. Integers have an inclusive range
    ``[minimum, maximum]``; choices a fixed tuple of allowed strings.
    """

    name: str
    kind: str
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def describe_range(self) -> str:
        """A short human description of the allowed values (for ``hexfolk games``)."""
        if self.kind == "int":
            return f"{self.minimum}..{self.maximum}"
        if self.kind == "bool":
            return "true|false"
        if self.kind == "choice":
            return "|".join(self.choices)
        return "text"

    def parse(self, text: str) -> Any:
        """Convert command-line text into a value of the right type, then validate it."""
        raw = text.strip()
        value: Any
        if self.kind == "int":
            try:
                value = int(raw)
            except ValueError:
                raise OptionError(
                    f"option {self.name!r} takes a whole number {self.describe_range()}, "
                    f"not {text!r}"
                ) from None
        elif self.kind == "bool":
            low = raw.lower()
            if low in _TRUE:
                value = True
            elif low in _FALSE:
                value = False
            else:
                raise OptionError(f"option {self.name!r} takes true or false, not {text!r}")
        else:
            value = raw
        return self.validate(value)

    def validate(self, value: Any) -> Any:
        """Return ``value`` if allowed, else raise :class:`OptionError` saying why."""
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
            assert self.minimum is not None and self.maximum is not None
            if not self.minimum <= value <= self.maximum:
                raise OptionError(
                    f"option {self.name!r} must be between {self.minimum} and {self.maximum}, "
                    f"not {value}"
                )
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes true or false, not {value!r}")
        elif self.kind == "choice":
            if value not in self.choices:
                raise OptionError(
                    f"option {self.name!r} must be one of {', '.join(self.choices)}, not {value!r}"
                )
        elif not isinstance(value, str):
            raise OptionError(f"option {self.name!r} takes text, not {value!r}")
        return value


class FrozenOptions(dict[str, Any]):
    """A game's resolved options: a mapping that cannot be changed after the game is made.

    It is a ``dict`` (so it serialises as JSON and reads at dict speed) whose every mutating
    method raises :class:`TypeError`; :attr:`hexfolk.core.Game.options` holds one, so a rule
    cannot change an option in the middle of a game. ``dict(options)`` is a plain, writable
    copy. Pickles and copies as itself (worker processes, Ray).
    """

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a game's options are read-only; make a new Game to change them")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[type[FrozenOptions], tuple[dict[str, Any]]]:
        return type(self), (dict(self),)

    def __copy__(self) -> FrozenOptions:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenOptions:
        return self

    def __repr__(self) -> str:
        return f"FrozenOptions({dict.__repr__(self)})"


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill in defaults and validate; unknown names are an error that lists the known ones."""
    by_name = {s.name: s for s in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"unknown option(s) {', '.join(unknown)}; this game knows: {known}")
    out: dict[str, Any] = {}
    for spec in specs:
        out[spec.name] = spec.validate(given[spec.name]) if spec.name in given else spec.default
    return out


def parse_option_texts(specs: Sequence[OptionSpec], texts: Iterable[str]) -> dict[str, Any]:
    """Parse ``key=value`` strings (from ``--option``) into typed values."""
    by_name = {s.name: s for s in specs}
    out: dict[str, Any] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"options are written key=value, not {text!r}")
        if key not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option {key!r}; this game knows: {known}")
        out[key] = by_name[key].parse(value)
    return out
