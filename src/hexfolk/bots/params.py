"""Parameters of bot codes (``hard:iters=200:ms=500``), checked against a declared table."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hexfolk.core import OptionError

ParamSpec = tuple[str, Callable[[str], float], float, float]
"""``(meaning, parser, minimum, maximum)`` of one parameter."""

SEARCH_BUDGET: dict[str, ParamSpec] = {
    "iters": ("search iterations per decision (0: no limit, needs ms)", int, 0, 10**7),
    "ms": ("milliseconds per decision (0: no limit, needs iters)", float, 0.0, 10**7),
}
"""The budget parameters every search bot takes."""


def parse_params(
    bot: str, known: Mapping[str, ParamSpec], params: Mapping[str, str]
) -> dict[str, float]:
    """Typed, range-checked values; unknown names or bad values raise OptionError."""
    out: dict[str, float] = {}
    for key, text in params.items():
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise OptionError(f"the {bot} bot has no parameter {key!r}; it takes: {names}")
        meaning, kind, lo, hi = known[key]
        try:
            value = kind(text)
        except ValueError:
            raise OptionError(
                f"{bot} bot parameter {key} ({meaning}) takes a "
                f"{'whole number' if kind is int else 'number'}, not {text!r}"
            ) from None
        if not lo <= value <= hi:
            raise OptionError(
                f"{bot} bot parameter {key} must be between {lo:g} and {hi:g}, not {text}"
            )
        out[key] = value
    return out


def search_budget(
    bot: str, values: Mapping[str, float], default_iterations: int
) -> tuple[int | None, float | None]:
    """``(iterations, ms)`` from parsed ``iters``/``ms`` (0 means no limit on that one)."""
    iters: int | None = int(values["iters"]) if "iters" in values else None
    ms: float | None = values.get("ms")
    if iters is None and ms is None:
        iters = default_iterations
    if iters == 0:
        iters = None
    if ms == 0:
        ms = None
    if iters is None and ms is None:
        raise OptionError(f"the {bot} bot needs a budget: iters or ms above 0")
    return iters, ms
