"""The three Scythe bot levels.

* :class:`EasyBot` — the rule policy (:class:`.policy.RulePolicy`) with noise and a share of
  random moves.
* :class:`MediumBot` — the rule policy, deterministic (no noise, no lookahead). With
  ``width`` > 1 it adds a one-step lookahead: the rule policy's best ``width`` actions are each
  tried in a world sampled from its observation, the rest of its own turn is played by the
  rule policy, and the action whose turn ends with the best lead in projected fortune
  (:mod:`.evaluation`) is played (about as strong as hard; see ``docs/bots-scythe.md``).
* :class:`HardBot` — information-set MCTS (:class:`hexfolk.bots.ismcts.ISMCTSBot`) over
  sampled worlds, the tree restricted to the rule policy's best candidates, rollouts played by
  the rule policy and cut after ``depth`` steps, leaves valued by :func:`.evaluation.evaluate`.

All three answer a combat commitment with the mixed strategy of :mod:`.combat` and see only
:class:`~hexfolk.core.Observation`: the seat's JSON view (the prompt kind) and worlds drawn
by ``observation.sample_world(rng)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from hexfolk.bots.ismcts import ISMCTSBot
from hexfolk.bots.scythe import combat
from hexfolk.bots.scythe.evaluation import evaluate, potentials
from hexfolk.bots.scythe.policy import RulePolicy
from hexfolk.bots.scythe.weights import DEFAULT, Weights
from hexfolk.core import CHANCE, TERMINAL, Action, Observation, State
from hexfolk.games.scythe.state import ScytheState

COMMIT_KIND = "commit"
RULE_KINDS = frozenset(("carry", "pay", "choose-combat", "artillery", "retreat", "end-turn"))
"""Prompts the hard bot answers with the rule policy alone (little to gain from search)."""


def prompt_kind(observation: Observation) -> str:
    """The pending prompt's kind from the seat's observation (``""`` if none)."""
    prompt = observation.data.get("prompt")
    return str(prompt["kind"]) if prompt else ""


def _world(observation: Observation, rng: random.Random) -> ScytheState:
    world = observation.sample_world(rng)
    assert isinstance(world, ScytheState)
    return world


class EasyBot:
    """Greedy rules with noise: a casual opponent."""

    def __init__(self, noise: float = 2.0, epsilon: float = 0.15, w: Weights = DEFAULT):
        self.name = "scythe-easy"
        self.policy = RulePolicy(w, noise=noise, epsilon=epsilon, commit_noise=2.0)

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        world = _world(observation, rng)
        return self.policy.choose(world, legal_actions, rng)


class MediumBot:
    """The rule policy without noise; ``width`` > 1: a one-step lookahead to the end of its
    own turn over that many candidates, judged by the evaluation."""

    DEFAULT_WIDTH = 1

    def __init__(self, width: int = DEFAULT_WIDTH, w: Weights = DEFAULT, max_steps: int = 60):
        self.name = "scythe-medium"
        self.width = width
        self.w = w
        self.max_steps = max_steps
        self.policy = RulePolicy(w, commit_noise=1.0)

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        seat = observation.seat
        world = _world(observation, rng)
        if prompt_kind(observation) == COMMIT_KIND:
            return combat.choose_commit(world, seat, legal_actions, rng, self.w, 1.0)
        if self.width <= 1:
            return self.policy.choose(world, legal_actions, rng)
        legal = list(legal_actions)
        rule = self.policy.scores(world, legal, rng)
        order = sorted(range(len(legal)), key=lambda i: -rule[i])[: self.width]
        best_i, best_v = order[0], -1e18
        for i in order:
            v = self._line_value(world, legal[i], seat, rng) + 1e-3 * rule[i]
            if v > best_v:
                best_i, best_v = i, v
        return legal[best_i]

    def _line_value(
        self, world: ScytheState, action: Action, seat: int, rng: random.Random
    ) -> float:
        c = world.clone()
        c.apply_unchecked(action)
        steps = 0
        while steps < self.max_steps:
            player = c.current_player()
            if player == TERMINAL:
                return 1e6 * (c.returns()[seat] - 0.5)
            if c.active != seat:
                break
            if player == CHANCE:
                c.apply_unchecked(c.sample_chance(rng))
            else:
                c.apply_unchecked(self.policy.choose(c, c.legal_actions(), rng))
            steps += 1
        pots = potentials(c, self.w)
        return pots[seat] - max(v for q, v in enumerate(pots) if q != seat)


class HardBot(ISMCTSBot):
    """ISMCTS with rule-policy candidates, rollouts and the heuristic evaluation."""

    DEFAULT_ITERATIONS = 300
    DEFAULT_DEPTH = 0
    DEFAULT_WIDTH = 6
    DEFAULT_EXPLORATION = 0.1
    DEFAULT_SCALE = 4.0
    MAX_ROLLOUT_STEPS = 400
    DEFAULT_PER_BRANCH = 50

    def __init__(
        self,
        *,
        iterations: int | None = DEFAULT_ITERATIONS,
        ms: float | None = None,
        depth: int = DEFAULT_DEPTH,
        width: int = DEFAULT_WIDTH,
        exploration: float = DEFAULT_EXPLORATION,
        per_branch: int = DEFAULT_PER_BRANCH,
        w: Weights = DEFAULT,
    ):
        self.policy = RulePolicy(w, commit_noise=1.0)
        self.ranker = self.policy
        self.w = w
        self.width = width
        self.per_branch = per_branch
        self.turns_ahead = depth
        self._horizon = 0
        sharp = replace(w, eval_scale=self.DEFAULT_SCALE)
        super().__init__(
            iterations=iterations,
            ms=ms,
            rollout_depth=self.MAX_ROLLOUT_STEPS,  # the horizon (stop) ends rollouts first
            exploration=exploration,
            evaluate=lambda s: evaluate(s, sharp),
            rollout=self.policy,
            name="scythe-hard",
        )

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        kind = prompt_kind(observation)
        if kind == COMMIT_KIND:
            world = _world(observation, rng)
            return combat.choose_commit(world, observation.seat, legal_actions, rng, self.w, 1.0)
        if kind in RULE_KINDS:
            return self.ranker.choose(_world(observation, rng), legal_actions, rng)
        world = _world(observation, rng)
        self._horizon = world.turns + 1 + self.turns_ahead
        branches = len(self.candidates(world, list(legal_actions)))
        if branches <= 1:
            return self.ranker.choose(world, legal_actions, rng)
        full = self.iterations
        if full is not None:
            # a few branches need fewer iterations to tell apart
            self.iterations = min(full, self.per_branch * branches)
        try:
            return super().choose(observation, legal_actions, rng)
        finally:
            self.iterations = full

    def candidates(self, state: ScytheState, legal: list[Action]) -> list[Action]:
        """The tree's branches: all actions if few, else the rule policy's best ``width``."""
        if len(legal) <= self.width:
            return legal
        scores = self.ranker.scores(state, legal)
        order = sorted(range(len(legal)), key=lambda i: -scores[i])[: self.width]
        return [legal[i] for i in sorted(order)]

    def stop(self, state: State) -> bool:
        """The search horizon: the end of the turn ``depth`` turns after the current one."""
        assert isinstance(state, ScytheState)
        return state.turns >= self._horizon

    def expand(
        self, state: State, legal: list[Action], at_root: bool, rng: random.Random
    ) -> list[Action] | Action:
        assert isinstance(state, ScytheState)
        if state.prompt_kind() == "commit" and not at_root:
            # secret commitments: a draw from the mixed strategy, like a chance node
            return combat.choose_commit(state, state.current_player(), legal, rng, self.w)
        return self.candidates(state, legal)
