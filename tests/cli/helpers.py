"""Test helpers for the CLI tests: a deterministic bot and a scripted toy-game deal.

Importing this module registers the bot ``high`` (always bids its highest card), so worker
processes that import the bot's module (as the tournament runner does) know it too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from hexfolk.bots.registry import register_bot
from hexfolk.core import Action, Bot, Observation, load_game, make_rng
from tests.core.toygame import register_toy

register_toy()


class HighBot:
    """Bids its highest card: beats the random bot most of the time in the toy game."""

    name = "high"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal_actions[-1]


def _high(game_id: str, params: dict[str, str]) -> Bot:
    return HighBot()


register_bot("high", _high)


class CrashBot:
    """Raises on its first move (stands for a bot or engine bug)."""

    name = "crash"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        raise RuntimeError("the crash bot always fails")


def _crash(game_id: str, params: dict[str, str]) -> Bot:
    return CrashBot()


register_bot("crash", _crash)


def dealt_hands(seed: int, players: int = 2, hand: int = 2) -> list[list[int]]:
    """The toy game's hands after the deal of a game played with ``seed`` (same chance stream
    as Match and `hexfolk play`)."""
    state = load_game("bids", players, {"hand": hand}).new_initial_state()
    rng = make_rng(seed, "chance")
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    return [sorted(h) for h in state.hands]  # type: ignore[attr-defined]


def one_json_object(stdout: str) -> dict[str, object]:
    """Assert stdout is exactly one JSON object on one line and return it."""
    text = stdout.strip()
    assert text and "\n" not in text, f"expected one JSON line, got:\n{stdout}"
    data = json.loads(text)
    assert isinstance(data, dict)
    return data
