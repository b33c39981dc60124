"""The match runner: plays one game between bots with seeded, independent random streams.

Chance outcomes come from the runner's own RNG (``make_rng(seed, "chance")``); each seat's bot
gets its own (``make_rng(seed, "bot", seat)``), so a bot's choices never shift the dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hexfolk.core.bot import Bot, Observation
from hexfolk.core.errors import IllegalActionError
from hexfolk.core.game import CHANCE, TERMINAL, Game, State
from hexfolk.core.record import Checkpoints, MatchRecord
from hexfolk.core.rng import make_rng


@dataclass
class MatchResult:
    """The outcome of :meth:`Match.run`."""

    record: MatchRecord
    state: State
    finished: bool
    """True if the game ended by its rules; False if stopped by the turn cap."""
    turns: int
    decisions: int
    actions: list[Any] = field(default_factory=list)
    """The applied actions (with ``keep_actions``), chance outcomes included."""

    @property
    def returns(self) -> list[float]:
        return self.state.returns() if self.finished else [0.0] * self.state.game.num_players

    @property
    def scores(self) -> list[float]:
        return self.state.scores()


class Match:
    """``Match(game, bots, seed).run()`` plays to the end (or the turn cap) and records it."""

    def __init__(
        self,
        game: Game,
        bots: Sequence[Bot],
        seed: int,
        *,
        turn_cap: int | None = None,
        check_legal: bool = False,
        checkpoint_every: int = 0,
    ):
        """``checkpoint_every`` > 0 writes the state's fingerprint into the record every that
        many steps (:data:`~hexfolk.core.record.CHECKPOINT_EVERY` for records people keep:
        ``hexfolk simulate --record-dir``); each costs one :meth:`State.fingerprint`."""
        if len(bots) != game.num_players:
            raise ValueError(f"{game.id} with {game.num_players} players needs as many bots")
        self.game = game
        self.bots = list(bots)
        self.seed = seed
        # None: the game's default cap; 0 (or less): no cap at all.
        cap = game.default_turn_cap if turn_cap is None else turn_cap
        self.turn_cap = cap if cap is not None and cap > 0 else None
        self.check_legal = check_legal
        self.checkpoint_every = checkpoint_every

    def run(self, *, keep_actions: bool = True) -> MatchResult:
        game = self.game
        state = game.new_initial_state()
        chance_rng = make_rng(self.seed, "chance")
        bot_rngs = [make_rng(self.seed, "bot", seat) for seat in range(game.num_players)]
        actions: list[Any] = []
        cap = self.turn_cap
        decisions = 0
        finished = True
        # Hot loop: bound methods in locals (about 3% of a fast game's time).
        current_player = state.current_player
        turn_count = state.turn_count
        legal_actions = state.legal_actions
        apply = state.apply_unchecked
        sample_chance = state.sample_chance
        choosers = [bot.choose for bot in self.bots]
        check = self.check_legal
        every = self.checkpoint_every if keep_actions else 0
        marks = Checkpoints(every)
        steps = 0
        while True:
            player = current_player()
            if player == TERMINAL:
                break
            if cap is not None and turn_count() >= cap:
                finished = False
                break
            if player == CHANCE:
                action = sample_chance(chance_rng)
            else:
                legal = legal_actions()
                action = choosers[player](Observation(state, player), legal, bot_rngs[player])
                decisions += 1
                if check and action not in legal and not state.is_legal(action):
                    name = self.bots[player].name
                    raise IllegalActionError(f"bot {name} chose illegal {action}")
            if keep_actions:
                actions.append(action)
            apply(action)
            if every:
                steps += 1
                if steps % every == 0:
                    marks.after_step(steps, state)
        record = MatchRecord.played(
            game,
            self.seed,
            [str(a) for a in actions],
            state,
            bots=[b.name for b in self.bots],
            checkpoints=marks.items,
            fingerprint=keep_actions,
        )
        return MatchResult(record, state, finished, state.turn_count(), decisions, actions)
