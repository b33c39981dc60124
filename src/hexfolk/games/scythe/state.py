"""``ScytheState``: the kernel contract over a :class:`~.position.Position`, and the tables.

:data:`PHASES` maps each :class:`~.phases.Phase` to its (legal actions, apply, prompt) in the
rule module of that phase; :data:`CONTINUATIONS` maps each :class:`~.phases.Continuation` to
its function. :meth:`ScytheState._run` is the driver: it resolves automatic steps (the deal,
continuations, a single-choice payment) until a decision or a chance outcome is due. Chance
events (deals, combat-card draws, Scout, encounter cards) wait in ``chance``.

The public read API bots use (:meth:`ScytheState.controller`, :meth:`destinations`,
:meth:`top_value`, :meth:`produce_count`, :meth:`score_breakdown`, :meth:`fortune`, ...) are
the functions the rules themselves call.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hexfolk.core import CHANCE, TERMINAL, Action, ClockStep, PositionError, Prompt, check_seat
from hexfolk.core.phases import PhaseRules, PhaseTable
from hexfolk.games.scythe import buttons, final
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    FACTORY_TOP,
    TAKE_BOTTOM,
    Bolster,
    Carry,
    CarryPattern,
    Commit,
    EncounterOption,
    FactoryTop,
    MoveCoins,
    Pay,
    Produce,
    Reveal,
    TakeBottom,
    TradePopularity,
    parse_action,
)
from hexfolk.games.scythe.chance import apply_chance, chance_outcomes, chance_ready
from hexfolk.games.scythe.combat import (
    apply_artillery,
    apply_choose_combat,
    apply_commit,
    apply_retreat,
    combat_step,
    commit_limit,
    committing_seats,
    legal_artillery,
    legal_choose_combat,
    legal_commit,
    legal_retreat,
    next_combat,
    prompt_combat_territory,
    prompt_commit,
)
from hexfolk.games.scythe.encounters import (
    apply_encounter,
    legal_encounter,
    option_done,
    prompt_encounter,
)
from hexfolk.games.scythe.ended_by import ended_by
from hexfolk.games.scythe.factory import (
    apply_factory_offer,
    apply_pay_card,
    legal_factory_offer,
    legal_pay_card,
    prompt_factory_offer,
    prompt_pay_card,
)
from hexfolk.games.scythe.gains import (
    apply_gain,
    decline_fits,
    fixed_gains,
    legal_gain,
    next_gain,
    prompt_gain,
)
from hexfolk.games.scythe.mat import (
    after_top,
    apply_benefit_phase,
    apply_pay,
    apply_produce,
    apply_trade_second,
    bottom_cost,
    bottom_index,
    cube_slots,
    legal_benefit,
    legal_pay,
    legal_produce,
    legal_trade_second,
    pay,
    pay_options,
    produce_cost,
    produce_count,
    produce_options,
    prompt_benefit,
    prompt_pay,
    top_value,
)
from hexfolk.games.scythe.movement import (
    apply_carry,
    apply_move_unit,
    apply_step,
    carry_ok,
    destinations,
    legal_carry,
    legal_move_unit,
    legal_step,
    prompt_carry,
    prompt_move_unit,
    prompt_step,
    unit_options,
)
from hexfolk.games.scythe.phases import (
    CARRY,
    ENCOUNTER,
    OVER,
    PAY,
    PHASE_NAMES,
    Continuation,
    Phase,
)
from hexfolk.games.scythe.position import CHARACTER, MECH, WORKER, Position
from hexfolk.games.scythe.positions import load_position, write_position
from hexfolk.games.scythe.reasons import Why, why_illegal, why_illegal_reason
from hexfolk.games.scythe.scoring import score_breakdown, tile_count
from hexfolk.games.scythe.setup import begin, init_players
from hexfolk.games.scythe.stars import objective_holds, reveal, star_cap
from hexfolk.games.scythe.timeouts import clock_step, timeout_action
from hexfolk.games.scythe.turn import (
    apply_bottom,
    apply_end,
    apply_section,
    apply_top,
    legal_bottom,
    legal_end,
    legal_section,
    prompt_bottom,
    prompt_section,
    prompt_top,
    top_options,
)
from hexfolk.games.scythe.views import full_state, observation, resample

if TYPE_CHECKING:
    from hexfolk.core import Game

__all__ = [
    "CHARACTER",
    "CONTINUATIONS",
    "MECH",
    "PHASES",
    "PHASE_NAMES",
    "WORKER",
    "Phase",
    "ScytheState",
]


def _no_legal(s: Position, p: int) -> list[Action]:
    return []  # pragma: no cover - setup and over are never asked


def _no_apply(s: Position, p: int, a: Action) -> None:
    raise AssertionError(f"no decision in phase {PHASE_NAMES[s.phase]}")  # pragma: no cover


def _plain_prompt(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    return PHASE_NAMES[s.phase], {}


def _rules(
    legal: Callable[[Position, int], list[Action]],
    apply: Callable[[Position, int, Action], None],
    prompt: Callable[[Position, int], tuple[str, dict[str, Any]]] = _plain_prompt,
) -> PhaseRules[Position]:
    """A row of the table (a phase without a prompt of its own is asked by its name)."""
    return PhaseRules(legal, apply, prompt)


PHASES: PhaseTable[Position] = PhaseTable(
    Phase,
    {
        Phase.SETUP: _rules(_no_legal, _no_apply),
        Phase.SECTION: _rules(legal_section, apply_section, prompt_section),
        Phase.TOP: _rules(top_options, apply_top, prompt_top),
        Phase.MOVE_UNIT: _rules(legal_move_unit, apply_move_unit, prompt_move_unit),
        Phase.CARRY: _rules(legal_carry, apply_carry, prompt_carry),
        Phase.STEP: _rules(legal_step, apply_step, prompt_step),
        Phase.TRADE_SECOND: _rules(legal_trade_second, apply_trade_second),
        Phase.PRODUCE: _rules(legal_produce, apply_produce),
        Phase.COMBAT_CHOOSE: _rules(
            legal_choose_combat, apply_choose_combat, prompt_combat_territory
        ),
        Phase.ARTILLERY: _rules(legal_artillery, apply_artillery, prompt_combat_territory),
        Phase.COMMIT: _rules(legal_commit, apply_commit, prompt_commit),
        Phase.RETREAT: _rules(legal_retreat, apply_retreat, prompt_combat_territory),
        Phase.BOTTOM: _rules(legal_bottom, apply_bottom, prompt_bottom),
        Phase.PAY: _rules(legal_pay, apply_pay, prompt_pay),
        Phase.BENEFIT: _rules(legal_benefit, apply_benefit_phase, prompt_benefit),
        Phase.END: _rules(legal_end, apply_end),
        Phase.OVER: _rules(_no_legal, _no_apply),
        Phase.ENCOUNTER: _rules(legal_encounter, apply_encounter, prompt_encounter),
        Phase.GAIN: _rules(legal_gain, apply_gain, prompt_gain),
        Phase.FACTORY_OFFER: _rules(legal_factory_offer, apply_factory_offer, prompt_factory_offer),
        Phase.PAY_CARD: _rules(legal_pay_card, apply_pay_card, prompt_pay_card),
    },
)
"""Phase -> its rules (see ``docs/scythe.md`` for the decision chain of a turn)."""

_LEGAL = PHASES.legal
_APPLY = PHASES.apply
_PROMPT = PHASES.prompt
"""The table's columns, by phase."""

CONTINUATIONS: dict[Continuation, Callable[[Position], None]] = {
    Continuation.COMBAT_STEP: combat_step,
    Continuation.NEXT_COMBAT: next_combat,
    Continuation.NEXT_GAIN: next_gain,
    Continuation.ENCOUNTER_OPTION_DONE: option_done,
    Continuation.AFTER_TOP: after_top,
}
"""Continuation -> the rule step it runs."""


class ScytheState(Position):
    """A Scythe position with the kernel contract. See the module docstring and
    ``docs/scythe.md``."""

    def __init__(self, game: Game):
        super().__init__(game)
        begin(self, getattr(game, "fixed_factions", None), getattr(game, "fixed_mats", None))
        self._run()

    # ------------------------------------------------------------------------------------------
    # kernel contract
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.chance:
            return CHANCE
        return self.deciding_seat()

    def turn_count(self) -> int:
        return self.turns

    def timeout_action(self, seat: int, rng: random.Random) -> Action | None:
        """The turn clock's default for ``seat`` (see :mod:`.timeouts`, ``docs/scythe.md``)."""
        return timeout_action(self, seat, rng)

    def clock_step(self, seat: int) -> ClockStep:
        """The clock window of ``seat``'s decision (see :mod:`.timeouts`)."""
        return clock_step(self, seat)

    def prompt(self) -> Prompt | None:
        if self.phase == OVER or self.chance:
            return None
        return self._prompt(self.deciding_seat())

    def _prompt(self, seat: int) -> Prompt:
        """What ``seat`` is asked in the pending phase (the table's prompt, seat explicit)."""
        prompt = _PROMPT[self.phase]
        assert prompt is not None
        text, data = prompt(self, seat)
        return Prompt(PHASE_NAMES[self.phase], seat, text, data)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return chance_outcomes(self)

    def proceed(self, continuation: Continuation) -> None:
        CONTINUATIONS[continuation](self)

    def _run(self) -> None:
        """Process automatic steps until a decision or a chance outcome is needed."""
        while self.phase != OVER:
            while self.chance:
                item = self.chance[0]
                if item[0] == "init":
                    self.chance.pop(0)
                    init_players(self)
                    continue
                if not chance_ready(self, item):
                    self.chance.pop(0)
                    continue
                break
            if self.chance:
                return
            if self.continuation is None:
                if self.phase == PAY:
                    # a single territory to pay from is paid at once; a Coercion card choice
                    # is always asked (whether it exists depends on the secret hand)
                    opts = pay_options(self)
                    if len(opts) == 1 and isinstance(opts[0], Pay):
                        pay(self, opts[0])
                        continue
                return
            continuation = self.continuation
            self.continuation = None
            CONTINUATIONS[continuation](self)

    def legal_actions(self) -> list[Action]:
        if self.legal_cache is None:
            if self.phase == OVER or self.chance:
                self.legal_cache = []
            else:
                self.legal_cache = _LEGAL[self.phase](self, self.deciding_seat())
        return list(self.legal_cache)

    def is_legal(self, action: Action) -> bool:
        if self.phase == CARRY and not self.chance and isinstance(action, Carry):
            return carry_ok(self, action)
        partial = self._partial_full(action)
        if partial is not None:
            full, limit = partial
            return limit >= 1 and super().is_legal(full)
        return super().is_legal(action)

    def _partial_full(self, action: Action) -> tuple[Action, int] | None:
        """For an exact partial-benefit form (SR-12), the listed full action it shortens and
        whether the amount fits (limit >= 1 when it does); None for other actions."""
        if self.chance or self.phase == OVER:
            return None
        p = self.active
        if isinstance(action, TakeBottom) and not action.coins:
            return TAKE_BOTTOM, 1
        if isinstance(action, MoveCoins) and action.amount:
            full_v = top_value(self, p, "move-coins")
            return MoveCoins(), 1 if action.amount <= full_v else 0
        if isinstance(action, Bolster) and action.amount:
            box = "bolster-power" if action.kind == "power" else "bolster-cards"
            full_v = top_value(self, p, box)
            return Bolster(action.kind), 1 if action.amount <= full_v else 0
        if isinstance(action, Produce) and action.amount:
            full_v = produce_count(self, p, action.loc)
            return Produce(action.loc), 1 if action.amount <= full_v else 0
        if isinstance(action, TradePopularity) and action.amount:
            full_v = top_value(self, p, "trade-popularity")
            return TradePopularity(), 1 if action.amount <= full_v else 0
        if isinstance(action, EncounterOption) and action.decline:
            benefit: list[Any] = []
            if self.phase == ENCOUNTER and self.encounter_card >= 0:
                options = D.ENCOUNTER_BY_NUMBER[self.encounter_card]["options"]
                if 1 <= action.slot <= len(options):
                    benefit = options[action.slot - 1]["benefit"]
            ok = decline_fits(benefit, action.decline)
            return EncounterOption(action.slot), 1 if ok else 0
        if isinstance(action, FactoryTop) and action.decline:
            benefit = []
            if self.factory_card[p] >= 0:
                benefit = D.FACTORY_BY_NUMBER[self.factory_card[p]]["benefit"]
            return FACTORY_TOP, 1 if decline_fits(benefit, action.decline) else 0
        return None

    @staticmethod
    def fixed_gains(benefit: list[Any]) -> dict[str, int]:
        """SR-47/SR-49: the fixed gains of a card benefit that may be declined in part."""
        return fixed_gains(benefit)

    def parse_action(self, text: str) -> Action:
        pattern = parse_action(text)
        if isinstance(pattern, CarryPattern):
            if self.current_player() < 0 or self.phase != CARRY:
                raise self.refusal(self.current_player(), text)
            carries = [a for a in self.legal_actions() if isinstance(a, Carry)]
            return max(carries, key=lambda a: a.workers + sum(a.resources))
        if isinstance(pattern, Carry) and self.current_player() >= 0 and self.phase == CARRY:
            if carry_ok(self, pattern):
                return pattern
            raise self.refusal(self.current_player(), text, pattern)
        if self._partial_full(pattern) is not None:
            if self.is_legal(pattern):
                return pattern
            raise self.refusal(self.current_player(), text, pattern)
        return super().parse_action(text)

    def apply_unchecked(self, action: Action) -> None:
        self.legal_cache = None
        if self.chance:
            apply_chance(self, action)
        elif isinstance(action, Reveal):
            reveal(self, self.deciding_seat(), action.number)
        else:
            _APPLY[self.phase](self, self.deciding_seat(), action)
        self._run()
        self.legal_cache = None

    # --- several seats at once: the two secret commitments (SR-43 C2, SR-59)
    def acting_seats(self) -> list[int]:
        waiting = committing_seats(self)
        return waiting if waiting else super().acting_seats()

    def simultaneous_seats(self) -> list[int]:
        return committing_seats(self)

    def legal_actions_for(self, seat: int) -> list[Action]:
        if seat in committing_seats(self):
            if seat == self.deciding_seat():
                return self.legal_actions()
            return _LEGAL[self.phase](self, seat)
        return super().legal_actions_for(seat)

    def prompt_for(self, seat: int) -> Prompt | None:
        if seat in committing_seats(self):
            return self._prompt(seat)
        return super().prompt_for(seat)

    def parse_action_for(self, seat: int, text: str) -> Action:
        waiting = committing_seats(self)
        if seat not in waiting or seat == self.deciding_seat():
            return super().parse_action_for(seat, text)
        action = parse_action(text)
        if isinstance(action, Commit) and action in _LEGAL[self.phase](self, seat):
            return action
        raise self.refusal(seat, text.strip(), action)

    def apply_for(self, seat: int, action: Action) -> None:
        waiting = committing_seats(self)
        if seat not in waiting or seat == self.deciding_seat():
            super().apply_for(seat, action)
            return
        if not isinstance(action, Commit) or action not in _LEGAL[self.phase](self, seat):
            raise self.refusal(seat, str(action), action)
        self.legal_cache = None
        _APPLY[self.phase](self, seat, action)
        self._run()
        self.legal_cache = None

    def why_illegal(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, in the game's words (see :mod:`.reasons`)."""
        return why_illegal(self, seat, action)

    def why_final(self, seat: int, action: Action) -> str | None:
        """Why the step is final at a table (no undo), in the game's words (see :mod:`.final`)."""
        return final.why_final(self, seat, action)

    def can_reveal(self, seat: int, action: Action) -> bool:
        """Only a step that may end at the Factory offer: see :func:`.final.can_reveal`."""
        return final.can_reveal(self, seat, action)

    def why_illegal_reason(self, seat: int, action: Action) -> Why:
        """:meth:`why_illegal` as data (code, params, rule; see :mod:`.reasons`)."""
        return why_illegal_reason(self, seat, action)

    def standing_actions(self, seat: int) -> list[Action]:
        """The four mat sections, shown as buttons whether legal or not (see :mod:`.buttons`)."""
        return buttons.standing_actions(seat)

    # ------------------------------------------------------------------------------------------
    # results
    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self.n
        return list(self.result)

    def scores(self) -> list[float]:
        if self.phase == OVER:
            return [float(final["fortune"]) for final in self.final]
        return [
            float(score_breakdown(self, p)["fortune"]) if self.structure_tile >= 0 else 0.0
            for p in range(self.n)
        ]

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        out["end_reason"] = self.end_reason
        out["ended_by"] = ended_by(self.end_reason)
        out["breakdown"] = (
            [self.final[p] if self.final else score_breakdown(self, p) for p in range(self.n)]
            if self.structure_tile >= 0
            else []
        )
        out["factions"] = [D.FACTION_IDS[f] if f >= 0 else None for f in self.faction]
        out["mats"] = [D.MAT_IDS[m] if m >= 0 else None for m in self.mat]
        return out

    # ------------------------------------------------------------------------------------------
    # copies and views
    def clone(self) -> ScytheState:
        new = object.__new__(ScytheState)
        d = new.__dict__
        for k, v in self.__dict__.items():
            if type(v) is list:
                d[k] = v[:]
            else:
                d[k] = v
        new.objectives = [x[:] for x in self.objectives]
        new.objectives_discarded = [x[:] for x in self.objectives_discarded]
        new.commitments = self.commitments.copy() if self.commitments is not None else None
        new.move = self.move.copy()
        if self.combat is not None:
            new.combat = self.combat.copy()
        new.legal_cache = None
        new.control_cache = None
        return new

    def full_state(self) -> dict[str, Any]:
        return full_state(self)

    def observation(self, seat: int | None, *, log: bool = True) -> dict[str, Any]:
        return observation(self, seat, log=log)

    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> ScytheState:
        """Redraw what ``seat`` cannot know: others' cards and objectives, unseen offers."""
        check_seat(self, seat)
        s = self.clone()
        resample(s, seat, rng)
        return s

    def position(self) -> dict[str, Any]:
        """This state as a position document (``docs/scythe.md``, "Positions"): every field
        in the game's words, hidden ones included; ``ScytheGame.load_position`` reads it."""
        return write_position(self)

    @classmethod
    def from_position(cls, game: Game, doc: str | Mapping[str, Any]) -> ScytheState:
        """The state a position document describes, checked against the game's invariants;
        a bad document is refused with :class:`~hexfolk.core.PositionError`."""
        s = object.__new__(cls)
        Position.__init__(s, game)
        load_position(s, doc)
        seat = s.current_player()
        if seat >= 0 and not s.legal_actions_for(seat):
            raise PositionError(
                f"the pending prompt ({PHASE_NAMES[s.phase]}) offers seat {seat} no action"
            )
        return s

    # ------------------------------------------------------------------------------------------
    # the public read API (what bots and tools read; the rules call the same functions)
    def prompt_kind(self) -> str:
        """The pending decision's kind: ``prompt().kind`` without building the prompt
        (``"over"`` at the end, the phase's kind while a chance outcome is pending)."""
        return PHASE_NAMES[self.phase]

    def bottom_action(self) -> int:
        """The bottom-row action (``D.BOTTOM_ACTIONS`` index) of the chosen mat section."""
        return bottom_index(self)

    def destinations(self, seat: int, kind: int, loc: int) -> list[int]:
        """Where one step can take ``seat``'s unit of ``kind`` standing on ``loc``, carrying
        nothing (SR-25..SR-39)."""
        return destinations(self, seat, kind, loc, False)

    def movable_units(self, seat: int) -> list[Action]:
        """The ``SelectUnit`` actions of units ``seat`` could start moving now (SR-16)."""
        return unit_options(self, seat)

    def top_value(self, seat: int, box: str) -> int:
        """The value of top box ``box`` (``move-units``, ``bolster-power``...), upgraded or not."""
        return top_value(self, seat, box)

    def produce_count(self, seat: int, loc: int) -> int:
        """What Produce on ``loc`` would make for ``seat`` (workers there, the Mill, SR-19)."""
        return produce_count(self, seat, loc)

    def produce_territories(self, seat: int) -> list[int]:
        """Territories ``seat`` may still produce on in the current Produce (SR-19)."""
        return produce_options(self, seat)

    def produce_cost(self, seat: int) -> dict[str, int]:
        """SR-19: the produce track's cost for ``seat`` now."""
        return produce_cost(self, seat)

    def bottom_cost(self, seat: int, bottom: int) -> int:
        """SR-20: bottom action ``bottom``'s cost for ``seat`` after its upgrades."""
        return bottom_cost(self, seat, bottom)

    def cube_slots(self, seat: int, bottom: int) -> int:
        """Upgrade cubes bottom action ``bottom`` can take in all on ``seat``'s mat (SR-21)."""
        return cube_slots(self, seat, bottom)

    def commit_limit(self, seat: int, loc: int) -> int:
        """SR-43 C2: combat cards ``seat`` may add in a combat on ``loc``."""
        return commit_limit(self, seat, loc)

    def star_cap(self, seat: int, source: str) -> int:
        """SR-50: how many stars ``seat`` may place from ``source`` (``combat``, ...)."""
        return star_cap(self, seat, D.STAR_INDEX[source])

    def objective_holds(self, seat: int, number: int) -> bool:
        """True if objective ``number``'s condition holds for ``seat`` now (SR-51)."""
        return objective_holds(self, seat, number)

    def tile_count(self, seat: int) -> int:
        """What the structure bonus tile counts for ``seat`` (OQ-1, OQ-2)."""
        return tile_count(self, seat)

    def score_breakdown(self, seat: int) -> dict[str, Any]:
        """SR-53..SR-55: the fortune of ``seat`` now, itemised (the one fortune formula)."""
        return score_breakdown(self, seat)

    def fortune(self, seat: int) -> int:
        """SR-53: ``seat``'s fortune (coins after scoring) if the game ended now."""
        return int(score_breakdown(self, seat)["fortune"])
