"""Games register by id. Built-in games are found by module path, so the kernel imports none
of them (the layer rule: ``core`` never imports ``games``)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from hexfolk.core.errors import UnknownGameError
from hexfolk.core.game import Game

_BUILTIN: dict[str, str] = {
    "island": "hexfolk.games.island:IslandGame",
    "scythe": "hexfolk.games.scythe:ScytheGame",
}
_REGISTERED: dict[str, type[Game]] = {}


def register(game_class: type[Game]) -> type[Game]:
    """Register a game class under its ``id`` (usable as a class decorator)."""
    _REGISTERED[game_class.id] = game_class
    return game_class


def game_ids() -> list[str]:
    """All known game ids, sorted."""
    return sorted(set(_BUILTIN) | set(_REGISTERED))


def game_class(game_id: str) -> type[Game]:
    """The class registered under ``game_id``; raises UnknownGameError listing the known ids."""
    if game_id in _REGISTERED:
        return _REGISTERED[game_id]
    target = _BUILTIN.get(game_id)
    if target is None:
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        cls: type[Game] = getattr(module, attr)
    except Exception as exc:  # any failure to import is reported, not raised through
        raise UnknownGameError(f"game {game_id!r} is not available: {exc}") from exc
    _REGISTERED[game_id] = cls
    return cls


def load_game(
    game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Game:
    """Create a validated game: ``load_game("island", 4, {"vp_target": 12})``."""
    return game_class(game_id)(players, options)
