"""Island bots: ``easy``, ``medium`` and ``hard`` (see ``docs/bots-island.md``).

``make_level_bot(level, params)`` is what :mod:`hexfolk.bots.registry` calls for the codes in
``--players`` (``hard:ms=500``, ``hard:iters=200``). Unknown levels or parameters raise
:class:`~hexfolk.core.OptionError`.
"""

from __future__ import annotations

from collections.abc import Callable

from hexfolk.bots.island.bots import HardBot, LevelBot
from hexfolk.core import Bot, OptionError

__all__ = ["HardBot", "LevelBot", "make_level_bot"]

_PARAMS: dict[str, dict[str, tuple[str, Callable[[str], float], float, float]]] = {
    # name -> (meaning, parser, minimum, maximum)
    "easy": {},
    "medium": {},
    "hard": {
        "iters": ("search iterations per decision (0: no limit, needs ms)", int, 0, 10**7),
        "ms": ("milliseconds per decision (0: no limit, needs iters)", float, 0.0, 10**7),
        "depth": ("rollout steps before the evaluation", int, 0, 10**4),
        "width": ("candidate moves per tree node", int, 1, 100),
        "c": ("UCB exploration constant", float, 0.0, 100.0),
    },
}


def _parse(level: str, params: dict[str, str]) -> dict[str, float]:
    known = _PARAMS[level]
    out: dict[str, float] = {}
    for key, text in params.items():
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise OptionError(f"the island {level} bot has no parameter {key!r}; it takes: {names}")
        meaning, kind, lo, hi = known[key]
        try:
            value = kind(text)
        except ValueError:
            raise OptionError(
                f"island {level} bot parameter {key} ({meaning}) takes a "
                f"{'whole number' if kind is int else 'number'}, not {text!r}"
            ) from None
        if not lo <= value <= hi:
            raise OptionError(
                f"island {level} bot parameter {key} must be between {lo:g} and {hi:g}, not {text}"
            )
        out[key] = value
    return out


def make_level_bot(level: str, params: dict[str, str]) -> Bot:
    """Build the island bot of ``level`` (``easy``, ``medium``, ``hard``) with ``params``."""
    if level not in _PARAMS:
        raise OptionError(f"no island bot level {level!r}; levels: easy, medium, hard")
    p = _parse(level, params)
    if level != "hard":
        return LevelBot(level)
    iters: int | None = int(p["iters"]) if "iters" in p else None
    ms: float | None = p.get("ms")
    if iters is None and ms is None:
        iters = HardBot.DEFAULT_ITERATIONS
    if iters == 0:
        iters = None
    if ms == 0:
        ms = None
    if iters is None and ms is None:
        raise OptionError("the island hard bot needs a budget: iters or ms above 0")
    return HardBot(
        iterations=iters,
        ms=ms,
        depth=int(p.get("depth", HardBot.DEFAULT_DEPTH)),
        width=int(p.get("width", HardBot.DEFAULT_WIDTH)),
        exploration=p.get("c", HardBot.DEFAULT_EXPLORATION),
    )
