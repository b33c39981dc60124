"""Bots by short code, as written in ``--players``: ``random``, ``easy``, ``medium``, ``hard``.

The levels are game-specific: ``easy`` for the island game is built by
``hexfolk.bots.island.make_level_bot("easy", params)``.

A code may carry parameters after colons: ``hard:ms=500:iters=0`` (parsed by its factory).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from hexfolk.bots.random_bot import RandomBot
from hexfolk.core import Bot, OptionError

BotFactory = Callable[[str, dict[str, str]], Bot]


def _random(game_id: str, params: dict[str, str]) -> Bot:
    if params:
        raise OptionError(f"the random bot takes no parameters, got {sorted(params)}")
    return RandomBot()


LEVELS = ("easy", "medium", "hard")
"""Bot levels every game provides, in ``hexfolk.bots.<game id>`` (``make_level_bot``)."""


def _level(level: str) -> BotFactory:
    def factory(game_id: str, params: dict[str, str]) -> Bot:
        try:
            module = importlib.import_module(f"hexfolk.bots.{game_id}")
        except ImportError:
            raise OptionError(f"there is no {level} bot for {game_id!r} yet") from None
        make: Callable[[str, dict[str, str]], Bot] = module.make_level_bot
        return make(level, params)

    return factory


_FACTORIES: dict[str, BotFactory] = {"random": _random, **{lv: _level(lv) for lv in LEVELS}}


def register_bot(code: str, factory: BotFactory) -> None:
    """Make ``code`` usable in ``--players``."""
    _FACTORIES[code] = factory


def bot_names() -> list[str]:
    return sorted(_FACTORIES)


def make_bot(spec: str, game_id: str) -> Bot:
    """Build a bot from a code such as ``random`` or ``hard:ms=500``."""
    code, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, rest.split(":")):
        key, sep, value = part.partition("=")
        if not sep:
            raise OptionError(f"bot parameters are key=value, not {part!r} in {spec!r}")
        params[key.strip()] = value.strip()
    factory = _FACTORIES.get(code)
    if factory is None:
        raise OptionError(f"unknown bot {code!r}; known bots: {', '.join(bot_names())}, human")
    return factory(game_id, params)
