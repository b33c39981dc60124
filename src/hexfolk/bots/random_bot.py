"""The random bot: a uniformly random legal action from its own seeded RNG."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hexfolk.core import Action, Observation


class RandomBot:
    """Picks uniformly among the legal actions. Never looks at the observation."""

    name = "random"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal_actions[int(rng.random() * len(legal_actions))]
