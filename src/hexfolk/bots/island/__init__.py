"""Island bots: ``easy``, ``medium`` and ``hard`` (see ``docs/bots-island.md``).

``make_level_bot(level, params)`` is what :mod:`hexfolk.bots.registry` calls for the codes in
``--players`` (``hard:ms=500``, ``hard:iters=200``). Unknown levels or parameters raise
:class:`~hexfolk.core.OptionError`.
"""

from __future__ import annotations

from hexfolk.bots.island.bots import HardBot, LevelBot
from hexfolk.bots.params import SEARCH_BUDGET, ParamSpec, parse_params, search_budget
from hexfolk.core import Bot, OptionError

__all__ = ["HardBot", "LevelBot", "make_level_bot"]

_PARAMS: dict[str, dict[str, ParamSpec]] = {
    # name -> (meaning, parser, minimum, maximum)
    "easy": {},
    "medium": {},
    "hard": {
        **SEARCH_BUDGET,
        "depth": ("rollout steps before the evaluation", int, 0, 10**4),
        "width": ("candidate moves per tree node", int, 1, 100),
        "c": ("UCB exploration constant", float, 0.0, 100.0),
        "setup": ("sampled worlds per setup settlement (0: the heuristic's spot)", int, 0, 10**5),
        "setup_depth": ("rollout steps after each setup spot", int, 1, 10**4),
        "setup_width": ("setup spots compared", int, 1, 100),
    },
}


def make_level_bot(level: str, params: dict[str, str]) -> Bot:
    """Build the island bot of ``level`` (``easy``, ``medium``, ``hard``) with ``params``."""
    if level not in _PARAMS:
        raise OptionError(f"no island bot level {level!r}; levels: easy, medium, hard")
    p = parse_params(f"island {level}", _PARAMS[level], params)
    if level != "hard":
        return LevelBot(level)
    iters, ms = search_budget("island hard", p, HardBot.DEFAULT_ITERATIONS)
    return HardBot(
        iterations=iters,
        ms=ms,
        depth=int(p.get("depth", HardBot.DEFAULT_DEPTH)),
        width=int(p.get("width", HardBot.DEFAULT_WIDTH)),
        exploration=p.get("c", HardBot.DEFAULT_EXPLORATION),
        setup_samples=int(p.get("setup", HardBot.DEFAULT_SETUP_SAMPLES)),
        setup_depth=int(p.get("setup_depth", HardBot.DEFAULT_SETUP_DEPTH)),
        setup_width=int(p.get("setup_width", HardBot.DEFAULT_SETUP_WIDTH)),
    )
