"""The PettingZoo AEC environment of a Hexfolk game (``docs/rl.md``).

One environment plays one game configuration. Agents are the seats, ``player_0`` ..
``player_{n-1}``. The agent to act is the seat the kernel's sequential walk names
(``state.current_player()``); at a simultaneous decision (discards after a 7, answers to an
island offer, Scythe's two combat commitments) every seat that owes a decision gets its own
turn in that walk, each seeing only its own observation. Chance steps (dice, draws, the board)
are drawn inside the environment from its seed, with the kernel's streams
(``make_rng(seed, "chance")``), so ``reset(seed=s)`` replays the same episode for the same
actions.
"""

from __future__ import annotations

import importlib
import operator
import secrets
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from hexfolk.core import CHANCE, TERMINAL, Action, Game, State, derive_seed, load_game, make_rng
from hexfolk.rl.codec import Codec

JSON = dict[str, Any]


class InvalidActionError(ValueError):
    """A step with an index the action mask forbids, out of range, or not an integer.
    The game is left unchanged."""


class EpisodeOverError(RuntimeError):
    """A step after the end of the episode (call ``reset()``)."""


def make_codec(game: Game) -> Codec:
    """The action catalogue and encoder of ``game``'s configuration: ``CODEC`` of the module
    ``hexfolk.rl.<game id>`` (a game's RL encoding is a file of its own; adding one edits none,
    ``docs/adding-a-game.md``)."""
    name = f"hexfolk.rl.{game.id}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise ValueError(
            f"no RL encoding for the game {game.id!r} ({name} does not exist)"
        ) from None
    codec: Callable[[Game], Codec] = module.CODEC
    return codec(game)


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class HexfolkEnv(AECEnv[str, dict[str, np.ndarray], int | None]):
    """A PettingZoo AEC environment over a Hexfolk game.

    ``observe(agent)`` is ``{"observation": float32[D], "action_mask": int8[N]}``; the mask is
    all zeros except for the agent to act. ``step(i)`` plays catalogue entry ``i``
    (:meth:`action_text` names it). Rewards: the game's ``returns()`` at the end (1 for a win,
    a shared win split), plus, when ``shaped`` is not zero, ``shaped`` times the change of the
    seat's own score (``scores()``: VP, Scythe coins) after every step. ``max_turns`` (default:
    the game's turn cap) truncates the game after that many player-turns; ``max_cycles`` after
    the busiest agent has taken that many steps.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "name": "hexfolk_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game = "island",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        max_turns: int | None = None,
        max_cycles: int | None = None,
        shaped: float = 0.0,
    ):
        super().__init__()
        self.game: Game = game if isinstance(game, Game) else load_game(game, players, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.codec: Codec = make_codec(self.game)
        n = self.game.num_players
        self.possible_agents = [agent_name(s) for s in range(n)]
        self.agents: list[str] = []
        self._seat = {agent_name(s): s for s in range(n)}
        self._size = size = self.codec.num_actions
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.codec.obs_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.metadata = {**self.metadata, "name": f"hexfolk_{self.game.id}_v0"}
        cap = self.game.default_turn_cap if max_turns is None else max_turns
        self.max_turns: int | None = cap
        self.max_cycles = max_cycles
        self.shaped = float(shaped)
        self._base_seed = seed
        self._episodes = 0
        self.episode_seed: int | None = None
        """The seed of the current episode (its chance steps)."""
        self.state: State = self.game.new_initial_state()
        self._played: list[Action] = []
        """The episode's actions so far, chance outcomes included (:attr:`history`)."""
        self._legal: tuple[list[int], list[Action]] | None = None
        """The catalogue indices of the legal actions of the agent to act, and the actions."""
        self._obs_cache: dict[int, JSON] = {}
        self._steps: dict[str, int] = {}
        self._scores: list[float] = []
        self._rewarded = False
        """Whether some reward may be non-zero (set at the end and by the shaped reward)."""

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    @property
    def history(self) -> list[str]:
        """Action texts of the episode so far, chance outcomes included (a match record's
        body; rendered on demand, so a step does not pay for the text)."""
        return [str(a) for a in self._played]

    @property
    def num_actions(self) -> int:
        return self.codec.num_actions

    def action_text(self, index: int) -> str:
        """The catalogue key of ``index`` (the action text, with ``@k`` / ``#k`` slots)."""
        return self.codec.actions[index]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode. ``seed`` fixes its chance steps; without one, the seed given at
        construction (then streams derived from it per episode), else a fresh random seed."""
        if seed is None:
            if self._base_seed is None:
                seed = secrets.randbits(63)
            elif self._episodes == 0:
                seed = self._base_seed
            else:
                seed = derive_seed(self._base_seed, "episode", self._episodes)
        self._episodes += 1
        self.episode_seed = seed
        self._chance = make_rng(seed, "chance")
        self.state = self.game.new_initial_state()
        self._played = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = dict.fromkeys(self.agents, 0)
        player = self._advance()
        self._scores = self.state.scores() if self.shaped else []
        self._after_step(player)

    def _advance(self) -> int:
        """Play chance steps from the environment's seed until a seat must act or the game
        ends; return ``current_player()`` then."""
        state = self.state
        rng = self._chance
        played = self._played
        player = state.current_player()
        while player == CHANCE:
            outcome = state.sample_chance(rng)
            played.append(outcome)
            state.apply_unchecked(outcome)
            player = state.current_player()
        return player

    def _after_step(self, player: int) -> None:
        """Set the agent to act, or end the episode. ``player`` is ``state.current_player()``
        (the caller has just read it, and ``is_terminal()`` is the same question: a call less
        at every step)."""
        self._legal = None
        if self._obs_cache:
            self._obs_cache = {}
        state = self.state
        if player == TERMINAL:
            self._rewarded = True
            for agent, value in zip(self.possible_agents, state.returns()):
                if agent in self.rewards:
                    self.rewards[agent] += value
                    self.terminations[agent] = True
            self.agent_selection = self.agents[0]
            return
        over_turns = self.max_turns is not None and state.turn_count() >= self.max_turns
        over_cycles = self.max_cycles is not None and max(self._steps.values()) >= self.max_cycles
        if over_turns or over_cycles:
            for agent in self.agents:
                self.truncations[agent] = True
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[player]

    # ------------------------------------------------------------------ observations
    def _observation_json(self, seat: int) -> JSON:
        obs = self._obs_cache.get(seat)
        if obs is None:
            obs = self._obs_cache[seat] = self.state.observation(seat, log=False)
        return obs

    def _legal_lists(self) -> tuple[list[int], list[Action]]:
        """The legal actions of the agent to act and their catalogue indices, in the engine's
        order (two lists: a step finds its index by a scan of a few ints, cheaper than
        building a dict at every step)."""
        if self._legal is None:
            seat = self._seat[self.agent_selection]
            legal = self.state.legal_actions_for(seat)
            self._legal = self.codec.indices(legal, self._observation_json(seat)), legal
        return self._legal

    def _to_act(self, agent: str) -> bool:
        return (
            agent == self.agent_selection
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
        )

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """int8[N]: 1 for the legal actions of ``agent`` (default: the agent to act)."""
        agent = self.agent_selection if agent is None else agent
        mask = np.zeros(self._size, np.int8)
        if self._to_act(agent):
            for i in self._legal_lists()[0]:  # (a few: cheaper than put's list-to-array cast)
                mask[i] = 1
        return mask

    def legal_texts(self) -> dict[int, str]:
        """Index -> canonical action text of the agent to act (empty after the end)."""
        if not self._to_act(self.agent_selection):
            return {}
        return {i: str(a) for i, a in sorted(zip(*self._legal_lists()))}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        return {
            "observation": self.codec.encode(self._observation_json(seat)),
            "action_mask": self.action_mask(agent),
        }

    # ------------------------------------------------------------------ steps
    def step(self, action: int | None) -> None:
        if not self.agents:
            raise EpisodeOverError("the episode is over: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise EpisodeOverError(
                    f"the episode is over for {agent}: the only step left is step(None)"
                )
            self._was_dead_step(action)
            return
        # the agent to act is live, so _after_step named it from current_player() and the
        # state has not moved since: its legal list is the current seat's (the fast path)
        self._play(agent, self._chosen(action), True)

    def _chosen(self, action: Any) -> Action:
        """The legal action of catalogue index ``action`` of the live agent to act, or
        :class:`InvalidActionError` (the game is unchanged)."""
        indices, legal = self._legal or self._legal_lists()  # (mostly listed by the mask)
        if action.__class__ is int and action in indices:  # the common case: a legal index
            return legal[indices.index(action)]
        return legal[self._check_index(action, indices, legal)]

    def play_action(self, action: Action, legal: Sequence[Action] | None = None) -> None:
        """Step the agent to act with a game action instead of an index (bots in the
        single-agent wrapper: no observation is encoded). ``legal``: the seat's legal actions
        if the caller has them (then an action among them takes the runner's fast path). An
        illegal action raises :class:`~hexfolk.core.IllegalActionError` and changes nothing."""
        if not self.agents:
            raise EpisodeOverError("the episode is over: call reset() before play_action()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise EpisodeOverError(f"the episode is over for {agent}")
        # the bots return an item of the list: an identity scan (C speed) finds it; the list
        # must be the current seat's (the caller's, so it is checked)
        fast = (
            legal is not None
            and any(map(operator.is_, legal, repeat(action)))
            and self.state.current_player() == self._seat[agent]
        )
        self._play(agent, action, fast)

    def play_until(self, seat: int, choose: Callable[[int, list[Action]], Action]) -> None:
        """Let ``choose(seat_to_act, its_legal_actions)`` play every decision until ``seat`` is
        the agent to act or the episode ends (the single-agent wrapper's opponents).

        The same as :meth:`play_action` once per decision (same game, same rewards,
        terminations and truncations), but the per-step bookkeeping that cannot change in
        between is done once at the end: without a shaped reward or ``max_cycles`` no reward
        appears before the game ends, and the end, the turn cap or ``seat``'s turn stops the
        loop. With either of them set it is exactly that loop of :meth:`play_action`."""
        if not self.agents:
            raise EpisodeOverError("the episode is over: call reset() before play_until()")
        if self.shaped or self.max_cycles is not None:
            while self._to_act(self.agent_selection):
                to_act = self._seat[self.agent_selection]
                if to_act == seat:
                    return
                legal = self.state.legal_actions_for(to_act)
                self.play_action(choose(to_act, legal), legal)
            return
        agent = self.agent_selection
        if not self._to_act(agent):
            return
        to_act = self._seat[agent]  # live: _after_step named it from current_player()
        if to_act != seat:
            self._run(seat, choose, to_act, None)

    def step_until(
        self, action: int | None, seat: int, choose: Callable[[int, list[Action]], Action]
    ) -> None:
        """:meth:`step` with ``action``, then :meth:`play_until` ``(seat, choose)`` (the
        single-agent wrapper's step): the same game, rewards, terminations and truncations, and
        without a shaped reward or ``max_cycles`` one pass of play_until's loop for both."""
        live = self.agents and self._to_act(self.agent_selection)
        if not live or self.shaped or self.max_cycles is not None:
            self.step(action)  # (EpisodeOverError, a dead agent's step, or the per-step loop)
            self.play_until(seat, choose)
            return
        # every reward is 0 until the end (nothing to clear, as _play would), and the agent's
        # action is taken from its legal list: the loop plays it as the first decision
        self._run(seat, choose, self._seat[self.agent_selection], self._chosen(action))

    def _run(
        self,
        seat: int,
        choose: Callable[[int, list[Action]], Action],
        to_act: int,
        chosen: Action | None,
    ) -> None:
        """Play from the live seat ``to_act`` until ``seat`` is to act or the episode ends, then
        do the bookkeeping once (play_until's loop: no shaped reward, no ``max_cycles``).
        ``chosen``: ``to_act``'s first action, taken from its legal list, if the caller has it;
        ``choose`` gives every other one."""
        state, played, steps = self.state, self._played, self._steps
        names, cap, rng = self.possible_agents, self.max_turns, self._chance
        while True:
            if chosen is not None:
                state.apply_unchecked(chosen)
            else:
                legal = state.legal_actions_for(to_act)
                chosen = choose(to_act, legal)
                if any(map(operator.is_, legal, repeat(chosen))):
                    state.apply_unchecked(chosen)  # the runner's fast path: taken from the list
                else:
                    state.apply_for(to_act, chosen)
            played.append(chosen)
            chosen = None
            steps[names[to_act]] += 1  # (every reward is 0 until the end: nothing to clear)
            # the chance steps, then the next to act (one current_player() answers both whether
            # a chance step follows and whether the game is over)
            to_act = state.current_player()
            while to_act == CHANCE:
                outcome = state.sample_chance(rng)
                played.append(outcome)
                state.apply_unchecked(outcome)
                to_act = state.current_player()
            if to_act in (seat, TERMINAL) or (cap is not None and state.turn_count() >= cap):
                break
        # (no reward of an earlier step is left to clear, as play_action would: only the end
        # and the shaped reward give one, and neither reaches this loop)
        self._after_step(to_act)
        if self._rewarded:
            self._accumulate_rewards()

    def _play(self, agent: str, chosen: Action, fast: bool) -> None:
        """Play ``agent``'s ``chosen``; ``fast``: it was taken from the current legal list of
        the seat to act (the runner's fast path, unchecked)."""
        state = self.state
        if fast:
            state.apply_unchecked(chosen)
        else:
            state.apply_for(self._seat[agent], chosen)
        self._played.append(chosen)
        self._steps[agent] += 1
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        if self._rewarded:  # else every reward is 0.0 already: nothing to clear or add
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        player = self._advance()
        if self.shaped:
            scores = self.state.scores()
            for s, a in enumerate(self.possible_agents):
                rewards[a] += self.shaped * (scores[s] - self._scores[s])
            self._scores = scores
            self._rewarded = True
        self._after_step(player)
        if self._rewarded:
            self._accumulate_rewards()

    def earned(self, agent: str) -> float:
        """What ``agent`` earned since its last step (what ``last()`` reports for it)."""
        return float(self._cumulative_rewards.get(agent, 0.0))

    def _check_index(self, action: Any, indices: list[int], legal: list[Action]) -> int:
        """The position in ``legal`` of the action with catalogue index ``action``, or
        :class:`InvalidActionError` (not an int, out of range, masked out). The common case,
        a legal plain int, :meth:`step` finds itself."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidActionError(f"an action is a catalogue index (int), not {action!r}")
        index = int(action)
        if not 0 <= index < self._size:
            raise InvalidActionError(
                f"action {index} is out of range: the catalogue has {self.codec.num_actions}"
            )
        if index not in indices:
            sample = ", ".join(f"{i} {a}" for i, a in sorted(zip(indices, legal))[:6])
            raise InvalidActionError(
                f"action {index} ({self.codec.actions[index]!r}) is not legal now for "
                f"{self.agent_selection}; the mask allows e.g. {sample}"
            )
        return indices.index(index)

    # ------------------------------------------------------------------ people
    def render(self) -> str | None:
        """``render_mode="ansi"``: the terminal view of the agent to act (a spectator's at
        the end)."""
        if self.render_mode is None:
            return None
        seat = None if self.state.is_terminal() else self._seat[self.agent_selection]
        return self.game.render_observation(self.state.observation(seat))

    def close(self) -> None:
        pass
