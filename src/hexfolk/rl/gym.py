"""The Gymnasium single-agent wrapper: one seat learns, bots play the others (``docs/rl.md``).

``SingleAgentEnv("island", players=2, opponents="random")``: ``reset`` and ``step`` return the
learning seat's observation (``{"observation", "action_mask"}``, as in the AEC environment);
between two of its decisions the opponents (bot codes of ``hexfolk.bots.registry.make_bot``,
one per other seat in seat order, or one code for all) play, chance steps are drawn, and the
reward is what the learning seat earned meanwhile (the game's return at the end, plus the
optional shaped reward). ``action_masks()`` gives the mask for maskable algorithms
(sb3-contrib's MaskablePPO).

A masked-out or out-of-range action raises :class:`~hexfolk.rl.InvalidActionError` and changes
nothing; with ``invalid_penalty=x`` it instead returns reward ``x``, the same observation,
``info["invalid_action"] = True``, and still changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from hexfolk.bots.registry import make_bot
from hexfolk.core import Action, Bot, Game, Observation, make_rng
from hexfolk.rl.aec import EpisodeOverError, HexfolkEnv, InvalidActionError, agent_name

ObsType = dict[str, np.ndarray]


class SingleAgentEnv(gymnasium.Env[ObsType, np.int64]):
    """One learning ``seat`` against ``opponents`` (bot codes, comma-separated).

    ``max_turns`` truncates after that many player-turns (default: the game's turn cap),
    ``max_cycles`` after that many decisions of the busiest seat (a guard against a policy
    that never ends its turn); ``shaped`` and rendering as in :class:`HexfolkEnv`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        game: str | Game = "island",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        seat: int = 0,
        opponents: str = "random",
        render_mode: str | None = None,
        max_turns: int | None = None,
        max_cycles: int | None = None,
        shaped: float = 0.0,
        invalid_penalty: float | None = None,
    ):
        self.aec = HexfolkEnv(
            game,
            players,
            options,
            None,
            render_mode=render_mode,
            max_turns=max_turns,
            max_cycles=max_cycles,
            shaped=shaped,
        )
        self.game: Game = self.aec.game
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not at a table of {n}")
        self.seat = seat
        self.agent = agent_name(seat)
        codes = [c.strip() for c in opponents.split(",") if c.strip()]
        if len(codes) == 1:
            codes = codes * (n - 1)
        if len(codes) != n - 1:
            raise ValueError(
                f"opponents names {len(codes)} bots for {n - 1} other seats: {opponents!r}"
            )
        others = [s for s in range(n) if s != seat]
        self.opponent_codes = dict(zip(others, codes))
        self.bots: dict[int, Bot] = {s: make_bot(c, self.game.id) for s, c in zip(others, codes)}
        self.render_mode = render_mode
        self.invalid_penalty = invalid_penalty
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._seed = seed
        self._bot_rngs: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        if seed is None and self._seed is not None:
            seed, self._seed = self._seed, None
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.aec.reset(seed=game_seed)
        self._bot_rngs = {s: make_rng(game_seed, "bot", s) for s in self.bots}
        self._play_opponents()
        return self.aec.observe(self.agent), self._info()

    def _play_opponents(self) -> None:
        """The other seats' decisions (their bots), up to the learning seat's next one."""
        self.aec.play_until(self.seat, self._choose)

    def _choose(self, seat: int, legal: list[Action]) -> Action:
        return self.bots[seat].choose(
            Observation(self.aec.state, seat), legal, self._bot_rngs[seat]
        )

    def _info(self) -> dict[str, Any]:
        return {"turn": self.aec.state.turn_count()}

    def action_masks(self) -> np.ndarray:
        """The legal-action mask of the learning seat (bool), for MaskablePPO."""
        return self.aec.action_mask(self.agent).astype(bool)

    def step(
        self, action: np.int64 | int
    ) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.terminations[self.agent] or aec.truncations[self.agent]:
            raise EpisodeOverError("the episode is over: call reset() before step()")
        try:
            # the learning seat's action, then the opponents' up to its next decision
            aec.step_until(
                int(action) if isinstance(action, np.integer) else action, self.seat, self._choose
            )
        except InvalidActionError:  # (raised before anything is played)
            if self.invalid_penalty is None:
                raise
            info = {**self._info(), "invalid_action": True}
            return aec.observe(self.agent), self.invalid_penalty, False, False, info
        reward = aec.earned(self.agent)
        terminated = bool(aec.terminations[self.agent])
        truncated = bool(aec.truncations[self.agent])
        return aec.observe(self.agent), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.aec.state
        seat = None if state.is_terminal() else self.seat
        return self.game.render_observation(state.observation(seat))
