"""What one connection sees: its seat's observation, legal actions with hints, log lines.

Everything here is built from ``state.observation(seat)`` (``None`` for spectators) and
``state.legal_actions_for(seat)`` with ``game.describe_action(observation, action)``; never
from ``full_state``, the seed or another seat's observation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexfolk.core import State


@dataclass(frozen=True, slots=True)
class ViewParts:
    """One viewer's view of one version (shared by every connection of that viewer)."""

    observation: dict[str, Any]
    """The observation without its ``log``."""
    log: list[str]
    legal: list[dict[str, str]]
    """``[{"action": text, "hint": text}]`` (empty unless the viewer's seat may act now)."""


def build_parts(state: State, viewer: int | None) -> ViewParts:
    """The view of ``viewer`` (a seat, or ``None`` for a spectator)."""
    obs = state.observation(viewer)
    raw_log = obs.pop("log", None)
    log = [str(line) for line in raw_log] if isinstance(raw_log, list) else []
    legal: list[dict[str, str]] = []
    if viewer is not None and viewer in state.acting_seats():
        describe = state.game.describe_action
        for action in state.legal_actions_for(viewer):
            legal.append({"action": str(action), "hint": describe(obs, action)})
    return ViewParts(obs, log, legal)
