"""The bot protocol and the observation a bot is handed.

A bot is anything with ``choose(observation, legal_actions, rng) -> Action``. It sees only
:class:`Observation`: the seat's JSON view (built lazily, so a bot that never looks costs
nothing), the seat number, and :meth:`Observation.sample_world`, which draws a full state
consistent with what that seat knows (for search bots). It never sees the true state.

Besides the game, a bot may be told one thing about the table it plays at: ``people``, the
seats a person plays (issue 27). Whoever runs the bots passes it (the table server, ``hexfolk
play``); a simulation or a bots-only table passes nothing, so bots there play as they always
did. It is public (every player sees who sits where) and a plain frozenset, so it pickles
with the observation's arguments into a bot worker.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from hexfolk.core.actions import Action
from hexfolk.core.game import Game, State


class Observation:
    """One seat's view of a state, handed to a bot.

    ``data`` is ``state.observation(seat)`` (computed on first use). ``sample_world(rng)`` is
    ``state.sample_consistent_state(seat, rng)``: hidden parts redrawn, so it reveals nothing.
    ``people`` is the table's context: the seats a person plays (empty: none, or not told).
    """

    __slots__ = ("_data", "_state", "game", "people", "seat")

    def __init__(self, state: State, seat: int, people: frozenset[int] = frozenset()):
        self._state = state
        self._data: dict[str, Any] | None = None
        self.seat = seat
        self.game: Game = state.game
        self.people = people

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._state.observation(self.seat)
        return self._data

    def sample_world(self, rng: random.Random) -> State:
        """A full state this seat cannot tell apart from the real one."""
        return self._state.sample_consistent_state(self.seat, rng)


@runtime_checkable
class Bot(Protocol):
    """A player program. ``name`` is shown in tables; ``choose`` must return a legal action."""

    name: str

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action: ...
