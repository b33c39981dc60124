"""The island bot levels (``docs/bots-island.md``).

* :class:`LevelBot` ``("easy")`` — the heuristic policy with a noisy setup and a share of random
  moves; trades by the easy column of IR-77.
* :class:`LevelBot` ``("medium")`` — the heuristic policy, deterministic; medium trading.
* :class:`HardBot` — information-set MCTS (:class:`hexfolk.bots.ismcts.ISMCTSBot`) over worlds
  from ``observation.sample_world(rng)`` for main-phase moves; the tree branches only on the
  heuristic's best candidates, other decisions and rollouts follow the heuristic (no player
  trades in the tree), rollouts are cut and valued by VP plus production. Setup settlements
  are chosen by a Monte Carlo lookahead over sampled worlds with common random numbers
  (:meth:`HardBot.setup_search`). Discards, robber and trading use the heuristic and hard's
  trading rules directly.

Every decision reads only the seat's observation (and, for hard, sampled worlds).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Sequence
from typing import Any, cast

from hexfolk.bots.island import policy
from hexfolk.bots.island.heuristics import Target, choose_target
from hexfolk.bots.island.rollout import fast_rollout
from hexfolk.bots.island.trading import (
    LEVELS,
    LevelRules,
    answer,
    completion,
    discard,
    own_offer,
)
from hexfolk.bots.island.view import (
    CONFIG,
    Pos,
    bundle_of,
    pos_from_observation,
    pos_from_state,
)
from hexfolk.bots.ismcts import ISMCTSBot
from hexfolk.core import CHANCE, TERMINAL, Action, Observation, State
from hexfolk.games.island import actions as A
from hexfolk.games.island.phases import Phase
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.rules import DEV_NAMES
from hexfolk.games.island.score import total_vp

OFFER_SCORE = 46.0
"""Own offers come before maritime trades (45) and after any build that keeps the target."""

_EV = CONFIG["evaluation"]
_VP_CARD = DEV_NAMES.index("vp")


def prompt_kind(data: dict[str, Any]) -> str:
    prompt = data.get("prompt")
    return str(prompt["kind"]) if prompt else ""


class LevelBot:
    """A heuristic island bot of level ``easy`` or ``medium`` (hard reuses its decisions)."""

    def __init__(self, level: str):
        if level not in LEVELS:
            raise ValueError(f"no island bot level {level!r}")
        cfg = LEVELS[level]
        self.level = level
        self.name = f"island-{level}"
        self.rules = LevelRules.of(level)
        self.epsilon = float(cfg["epsilon"])
        self.setup_choices = int(cfg["setup_choices"])
        self.shed = bool(cfg["shed_over_limit"])
        self.race = bool(cfg["longest_road_race"])
        self.robber_style = {"easy": "random", "medium": "leader", "hard": "leader+steal"}[level]

    # --- exposed to tests (IR-76: bots expose their target and S) -----------------------------
    def view(self, observation: Observation) -> Pos:
        """The seat's position as the bot reads it from the observation."""
        options = observation.game.options
        return pos_from_observation(
            observation.data,
            observation.seat,
            int(options["vp_target"]),
            int(options["discard_limit"]),
        )

    def target(self, observation: Observation) -> Target:
        """The build target the bot saves for."""
        return choose_target(self.view(observation))

    def shortfall(self, observation: Observation) -> int:
        """S: the cards it lacks for its target."""
        pos = self.view(observation)
        return choose_target(pos).shortfall(pos.hand)

    # --- deciding ------------------------------------------------------------------------------
    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.decide(observation, legal_actions, rng)

    def decide(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        data = observation.data
        pos = self.view(observation)
        kind = prompt_kind(data)
        target = choose_target(pos)
        if kind == "setup-settlement":
            return policy.setup_settlement(pos, legal, self.setup_choices, rng)
        if kind in ("setup-road", "road-building"):
            return policy.road_building(pos, legal)
        if kind == "pre-roll":
            return policy.pre_roll(pos, legal)
        if kind == "discard":
            selected = bundle_of((data.get("discards") or {}).get("selected", "-"))
            return discard(pos, target, legal, selected)
        if kind == "robber":
            return policy.robber(pos, legal, self.robber_style, rng)
        if kind == "answer":
            oid = data["prompt"]["data"]["offer"]
            offer = next(o for o in data["offers"] if o["id"] == oid)
            return answer(self.rules, pos, target, offer, data["log"])
        if kind == "sbp-signup":
            return policy.sbp_signup(pos)
        if kind == "sbp-build":
            ranked = self.ranked(pos, legal, target, sbp=True)
            return ranked[0][1] if ranked else (A.END if A.END in legal else legal[0])
        if kind == "main":
            return self.main(pos, target, data, legal, rng, observation.people)
        return legal[0]

    def ranked(
        self, pos: Pos, legal: Sequence[Action], target: Target, *, sbp: bool = False
    ) -> list[tuple[float, Action]]:
        """:func:`policy.rank_main` with this level's rules (hard sheds and races)."""
        return policy.rank_main(pos, legal, target, sbp=sbp, shed=self.shed, race=self.race)

    def main(
        self,
        pos: Pos,
        target: Target,
        data: dict[str, Any],
        legal: Sequence[Action],
        rng: random.Random,
        people: Collection[int] = (),
    ) -> Action:
        """Main phase: take a good answer to an own offer, build, offer, trade, or end
        (``people``: the seats people play, which caps its own offers, ``trading.own_offer``)."""
        done = completion(self.rules, pos, target, data["offers"], legal)
        if done is not None:
            return done
        ranked = self.ranked(pos, legal, target)
        if self.epsilon and ranked and rng.random() < self.epsilon:
            return ranked[int(rng.random() * len(ranked))][1]
        top = ranked[0][0] if ranked else 0.0
        if top < OFFER_SCORE:
            offer = own_offer(self.rules, pos, target, data["offers"], data["log"], people)
            if offer is not None:
                return offer
        if ranked:
            return ranked[0][1]
        return A.END if A.END in legal else legal[0]


# --- hard: search ------------------------------------------------------------------------------
def evaluate(state: State) -> list[float]:
    """Per-seat value in [0, 1]: returns at the end; otherwise a logistic of the seat's lead in
    VP plus production (pips), cards in hand and development cards."""
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    st = cast(IslandPosition, state)
    n = st.n
    pos = pos_from_state(st, 0)
    scores = []
    for p in range(n):
        pips = sum(policy.production(pos, p))
        dev = sum(st.dev_cards[p]) - st.dev_cards[p][_VP_CARD]
        scores.append(
            total_vp(st, p)
            + pips / _EV["pips_per_vp"]
            + _EV["card_value"] * min(sum(st.hands[p]), _EV["card_cap"])
            + _EV["dev_value"] * dev
        )
    out = []
    scale = float(_EV["scale"])
    for p in range(n):
        best_other = max(scores[q] for q in range(n) if q != p)
        out.append(1.0 / (1.0 + math.exp(-(scores[p] - best_other) / scale)))
    return out


def _kind(state: State) -> str:
    prompt = state.prompt()
    return prompt.kind if prompt is not None else ""


_HS = CONFIG["hard_search"]
_SETUP = CONFIG["hard_setup"]


class HardBot(ISMCTSBot):
    """ISMCTS for main-phase moves; hard's heuristic and trading rules for everything else."""

    expand_in_order = True  # untried branches in heuristic order: the best-ranked first

    DEFAULT_ITERATIONS: int = int(_HS["iterations"])
    DEFAULT_DEPTH: int = int(_HS["depth"])
    DEFAULT_WIDTH: int = int(_HS["width"])
    DEFAULT_EXPLORATION: float = float(_HS["exploration"])
    DEFAULT_SETUP_SAMPLES: int = int(_SETUP["samples"])
    DEFAULT_SETUP_DEPTH: int = int(_SETUP["depth"])
    DEFAULT_SETUP_WIDTH: int = int(_SETUP["width"])

    def __init__(
        self,
        *,
        iterations: int | None = DEFAULT_ITERATIONS,
        ms: float | None = None,
        depth: int = DEFAULT_DEPTH,
        width: int = DEFAULT_WIDTH,
        exploration: float = DEFAULT_EXPLORATION,
        setup_samples: int = DEFAULT_SETUP_SAMPLES,
        setup_depth: int = DEFAULT_SETUP_DEPTH,
        setup_width: int = DEFAULT_SETUP_WIDTH,
    ):
        super().__init__(
            iterations=iterations,
            ms=ms,
            rollout_depth=depth,
            exploration=exploration,
            evaluate=evaluate,
            rollout=fast_rollout,
            name="island-hard",
        )
        self.width = width
        self.setup_samples = setup_samples
        self.setup_depth = setup_depth
        self.setup_width = setup_width
        self.margin = float(_HS["margin"])
        self.base = LevelBot("hard")
        self.rules = self.base.rules
        self.level = "hard"
        self._root: list[Action] = []

    def target(self, observation: Observation) -> Target:
        """The build target (same rule as every level)."""
        return self.base.target(observation)

    def shortfall(self, observation: Observation) -> int:
        return self.base.shortfall(observation)

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        data = observation.data
        kind = prompt_kind(data)
        if kind == "setup-settlement" and self.setup_samples > 0:
            return self.setup_search(observation, legal_actions, rng)
        if kind != "main":
            return self.base.decide(observation, legal_actions, rng)
        pos = self.base.view(observation)
        target = choose_target(pos)
        done = completion(self.rules, pos, target, data["offers"], legal_actions)
        if done is not None:
            return done
        ranked = self.base.ranked(pos, legal_actions, target)
        top = ranked[0][0] if ranked else 0.0
        if top < OFFER_SCORE:
            offer = own_offer(
                self.rules, pos, target, data["offers"], data["log"], observation.people
            )
            if offer is not None:
                return offer
        candidates = [a for _, a in ranked[: self.width]]
        if A.END in legal_actions and A.END not in candidates:
            candidates.append(A.END)
        if len(candidates) == 1:
            return candidates[0]
        self._root = candidates
        return self.search(observation, candidates, rng)

    def setup_search(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """A setup settlement by :meth:`lookahead` over the heuristic's best ``setup_width``
        spots."""
        spots = policy.setup_spots(self.base.view(observation), legal)
        return self.lookahead(observation, spots[: self.setup_width], rng)

    def lookahead(
        self, observation: Observation, candidates: Sequence[Action], rng: random.Random
    ) -> Action:
        """Monte Carlo lookahead with common random numbers: every candidate is played out in
        the same ``setup_samples`` sampled worlds with the same dice (a separate generator for
        the dice, reseeded per candidate, so candidates differ by the move, not by luck), then
        ``setup_depth`` steps by the rollout policy for every seat, and valued by
        :func:`evaluate`; the best total wins (ties: the earlier candidate). With an ``ms``
        budget the sampling stops when the time is up (after one sample)."""
        if len(candidates) <= 1:
            return candidates[0]
        seat = observation.seat
        totals = [0.0] * len(candidates)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        for i in range(self.setup_samples):
            if deadline is not None and i and time.perf_counter() >= deadline:
                break
            world = observation.sample_world(rng)
            dice_seed, play_seed = rng.getrandbits(64), rng.getrandbits(64)
            for j, move in enumerate(candidates):
                state = world.clone()
                state.apply_unchecked(move)
                dice, play = random.Random(dice_seed), random.Random(play_seed)
                for _ in range(self.setup_depth):
                    p = state.current_player()
                    if p == TERMINAL:
                        break
                    if p == CHANCE:
                        st = cast(IslandPosition, state)
                        state.apply_unchecked(
                            state.sample_chance(dice if st.phase is Phase.DICE else play)
                        )
                    else:
                        state.apply_unchecked(fast_rollout(state, state.legal_actions(), play))
                totals[j] += evaluate(state)[seat]
        best = max(range(len(candidates)), key=lambda j: (totals[j], -j))
        return candidates[best]

    def search(
        self, observation: Observation, candidates: list[Action], rng: random.Random
    ) -> Action:
        """Run the ISMCTS iterations, then keep the heuristic's first choice unless another
        candidate was visited most and scored at least ``margin`` better on average."""
        root = self.run_search(observation, rng)
        top = candidates[0]
        stats = [(a, root.children[a]) for a in candidates if a in root.children]
        if not stats:
            return top
        best, node = max(stats, key=lambda x: (x[1].visits, x[1].value))
        first = root.children.get(top)
        if best == top or first is None or not first.visits or not node.visits:
            return best
        if node.value / node.visits >= first.value / first.visits + self.margin:
            return best
        return top

    def candidates(self, state: State, node_is_root: bool, rng: random.Random) -> list[Action]:
        """Tree branches at a main-phase node: at the root the heuristic's best ``width`` moves
        and end; below it the rollout policy's move and end."""
        legal = state.legal_actions()
        if node_is_root:
            legal_set = set(legal)
            return [a for a in self._root if a in legal_set]
        first = fast_rollout(state, legal, rng)
        return [first] if first == A.END or A.END not in legal else [first, A.END]

    def expand(
        self, state: State, legal: list[Action], at_root: bool, rng: random.Random
    ) -> list[Action] | Action:
        """Only main-phase moves branch; everything else follows the heuristic."""
        if _kind(state) != "main":
            return fast_rollout(state, legal, rng)
        return self.candidates(state, at_root, rng)


__all__ = ["HardBot", "LevelBot", "evaluate"]
