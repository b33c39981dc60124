"""Scythe bots: ``easy``, ``medium`` and ``hard`` (see ``docs/bots-scythe.md``).

``make_level_bot(level, params)`` is what ``hexfolk.bots.registry`` calls for the codes in
``--players`` (``hard:iters=200``, ``hard:ms=500``, ``medium:width=6``). Unknown levels or
parameters raise :class:`~hexfolk.core.OptionError`.
"""

from __future__ import annotations

from hexfolk.bots.params import SEARCH_BUDGET, ParamSpec, parse_params, search_budget
from hexfolk.bots.scythe.bots import EasyBot, HardBot, MediumBot
from hexfolk.core import Bot, OptionError

__all__ = ["EasyBot", "HardBot", "MediumBot", "make_level_bot"]

_PARAMS: dict[str, dict[str, ParamSpec]] = {
    # name -> (meaning, parser, minimum, maximum)
    "easy": {
        "noise": ("spread of the score noise, in coins", float, 0.0, 100.0),
        "eps": ("share of uniformly random moves", float, 0.0, 1.0),
    },
    "medium": {
        "width": ("candidates tried by a one-step lookahead (1: none)", int, 1, 1000),
    },
    "hard": {
        **SEARCH_BUDGET,
        "depth": ("turns after the current one before the evaluation", int, 0, 20),
        "width": ("candidate actions per tree node", int, 1, 1000),
        "c": ("UCB exploration constant", float, 0.0, 100.0),
    },
}


def make_level_bot(level: str, params: dict[str, str]) -> Bot:
    """Build the Scythe bot of ``level`` (``easy``, ``medium``, ``hard``) with ``params``."""
    if level not in _PARAMS:
        raise OptionError(f"no scythe bot level {level!r}; levels: easy, medium, hard")
    p = parse_params(f"scythe {level}", _PARAMS[level], params)
    if level == "easy":
        return EasyBot(noise=p.get("noise", 2.0), epsilon=p.get("eps", 0.15))
    if level == "medium":
        return MediumBot(width=int(p.get("width", MediumBot.DEFAULT_WIDTH)))
    iters, ms = search_budget("scythe hard", p, HardBot.DEFAULT_ITERATIONS)
    return HardBot(
        iterations=iters,
        ms=ms,
        depth=int(p.get("depth", HardBot.DEFAULT_DEPTH)),
        width=int(p.get("width", HardBot.DEFAULT_WIDTH)),
        exploration=p.get("c", HardBot.DEFAULT_EXPLORATION),
    )
