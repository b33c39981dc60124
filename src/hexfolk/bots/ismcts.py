"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game.

Each iteration draws a world the bot's seat cannot tell from the real one
(``observation.sample_world(rng)``, i.e. ``sample_consistent_state``), walks one shared tree of
action sequences with UCB1 corrected for availability (actions legal only in some worlds), expands
one node, finishes with a rollout guided by a game heuristic and cut at ``rollout_depth`` steps,
and backs up every seat's value. The tree node for a decision stores statistics from the point of
view of the seat deciding there, so opponents are modelled as maximising their own value.

The bot never sees the real state: only its observation and the worlds sampled from it.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hexfolk.core import CHANCE, TERMINAL, Action, Observation, State

Evaluator = Callable[[State], list[float]]
"""Per-seat value in [0, 1] of a (non-terminal) state: the heuristic leaf evaluation."""

RolloutPolicy = Callable[[State, list[Action], random.Random], Action]
"""Picks the rollout move for the seat to move."""


def terminal_or_score_value(state: State) -> list[float]:
    """Default evaluation: returns() at the end, else each seat's share of the score lead."""
    n = state.game.num_players
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    scores = state.scores()
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return [1.0 / n] * n
    return [0.5 * (s - lo) / (hi - lo) for s in scores]


def random_rollout(state: State, legal: list[Action], rng: random.Random) -> Action:
    return legal[int(rng.random() * len(legal))]


@dataclass(slots=True)
class SearchNode:
    """Statistics of one tree node: the value is from the point of view of the seat that chose
    the move leading here (the parent's ``seat``)."""

    seat: int
    visits: int = 0
    value: float = 0.0
    available: int = 0
    children: dict[Action, SearchNode] = field(default_factory=dict)


class ISMCTSBot:
    """ISMCTS with a budget in iterations and/or milliseconds (whichever ends first).

    Games tailor it with three hooks instead of rewriting the search:

    * :meth:`expand` — the branches of the tree at a decision (default: every legal action),
      or a single action to play without a tree node (e.g. a heuristic move at a minor prompt,
      or an opponent's secret commitment drawn from a mixed strategy);
    * :meth:`stop` — a search horizon (default: none; the rollout depth still applies);
    * ``expand_in_order`` — expand untried branches in the order given (best first) instead of
      at random.
    """

    expand_in_order = False

    def __init__(
        self,
        *,
        iterations: int | None = 200,
        ms: float | None = None,
        rollout_depth: int = 40,
        exploration: float = 0.7,
        evaluate: Evaluator = terminal_or_score_value,
        rollout: RolloutPolicy = random_rollout,
        name: str = "ismcts",
    ):
        if iterations is None and ms is None:
            raise ValueError("ISMCTS needs a budget: iterations, ms, or both")
        self.iterations = iterations
        self.ms = ms
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.evaluate = evaluate
        self.rollout = rollout
        self.name = name
        self.last_iterations = 0

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = self.run_search(observation, rng)
        legal = set(legal_actions)
        best = max(
            (a for a in legal_actions if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].value),
            default=None,
        )
        if best is None or best not in legal:
            return legal_actions[int(rng.random() * len(legal_actions))]
        return best

    # ------------------------------------------------------------------------------------------
    def run_search(self, observation: Observation, rng: random.Random) -> SearchNode:
        """Iterate within the budget over worlds sampled for the seat; return the root."""
        root = SearchNode(seat=observation.seat)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, observation.sample_world(rng), rng)
            done += 1
        self.last_iterations = done
        return root

    def expand(
        self, state: State, legal: list[Action], at_root: bool, rng: random.Random
    ) -> list[Action] | Action:
        """The tree's branches at this decision, or one action to play without a node."""
        return legal

    def stop(self, state: State) -> bool:
        """True when the search should stop descending and evaluate (a horizon)."""
        return False

    def _iterate(self, root: SearchNode, state: State, rng: random.Random) -> None:
        path: list[SearchNode] = [root]
        node = root
        while True:
            player = state.current_player()
            if player == TERMINAL or self.stop(state):
                break
            if player == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            branches = self.expand(state, state.legal_actions(), node is root, rng)
            if isinstance(branches, Action):
                state.apply_unchecked(branches)
                continue
            legal = branches
            if not legal:
                break
            if node.seat != player:
                node.seat = player
            untried = [a for a in legal if a not in node.children]
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                pick = 0 if self.expand_in_order else int(rng.random() * len(untried))
                action = untried[pick]
                child = SearchNode(seat=player, available=1)
                node.children[action] = child
                state.apply_unchecked(action)
                path.append(child)
                break
            action = self._select(node, legal)
            node = node.children[action]
            state.apply_unchecked(action)
            path.append(node)
        values = self._rollout(state, rng)
        # Each edge's statistics belong to the seat that chose it (stored on the parent's seat).
        for parent, child in itertools.pairwise(path):
            child.visits += 1
            child.value += values[parent.seat]
        root.visits += 1

    def _select(self, node: SearchNode, legal: list[Action]) -> Action:
        best_score = -math.inf
        best: Action = legal[0]
        c = self.exploration
        for action in legal:
            child = node.children[action]
            mean = child.value / child.visits if child.visits else 0.0
            score = mean + c * math.sqrt(math.log(max(child.available, 1)) / max(child.visits, 1))
            if score > best_score:
                best_score, best = score, action
        return best

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        for _ in range(self.rollout_depth):
            player = state.current_player()
            if player == TERMINAL or self.stop(state):
                break
            if player == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_unchecked(self.rollout(state, legal, rng))
        return self.evaluate(state)
