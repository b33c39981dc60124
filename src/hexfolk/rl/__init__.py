"""Reinforcement-learning adapters: PettingZoo AEC environments and a Gymnasium single-agent
wrapper for every Hexfolk game (the ``rl`` extra: ``pip install hexfolk[rl]``).

>>> from hexfolk import rl
>>> e = rl.env("island", players=2, seed=7)
>>> e.reset()
>>> e.agent_selection
'player_0'

See ``docs/rl.md`` for the feature layout, the action catalogue, rewards and seeding.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexfolk.rl.aec import EpisodeOverError, HexfolkEnv, InvalidActionError, make_codec
from hexfolk.rl.codec import Codec, UnmappedActionError

__all__ = [
    "Codec",
    "EpisodeOverError",
    "HexfolkEnv",
    "InvalidActionError",
    "UnmappedActionError",
    "env",
    "gym_env",
    "make_codec",
]


def env(
    game: str = "island",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    **kwargs: Any,
) -> HexfolkEnv:
    """A PettingZoo AEC environment of ``game`` (``"island"`` or ``"scythe"``); ``kwargs``:
    ``render_mode="ansi"``, ``max_turns``, ``max_cycles``, ``shaped`` (:class:`HexfolkEnv`)."""
    return HexfolkEnv(game, players, options, seed, **kwargs)


def gym_env(
    game: str = "island",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    **kwargs: Any,
) -> Any:
    """A Gymnasium environment: seat ``seat`` (0) learns, ``opponents`` (bot codes, default
    ``"random"``) play the others (:class:`hexfolk.rl.gym.SingleAgentEnv`)."""
    from hexfolk.rl.gym import SingleAgentEnv

    return SingleAgentEnv(game, players, options, seed, **kwargs)
