"""Walk a match record and analyse it: the win chances after every step, the chance each
decision lost against the best choice found, luck and skill per seat, the turning points
(``docs/analysis.md``).

Definitions (``W_k[s]``: seat ``s``'s win chance after the first ``k`` record entries, by
:class:`~hexfolk.analysis.estimator.WinChanceModel`; ``W_0`` the start, ``W_N`` the end, which
is the result when the game finished):

* a step is a *chance* step when the record entry is a chance outcome (the state's
  ``current_player()`` was CHANCE), else a *decision* of the seat that took it;
* ``luck[s]`` = sum of ``W_k[s] - W_{k-1}[s]`` over chance steps ``k``;
* ``skill[s]`` = the same sum over decision steps (``skill_own``: the seat's own decisions,
  ``skill_others``: the other seats'), so ``luck[s] + skill[s] = W_N[s] - W_0[s]`` exactly:
  the sums are taken in rational arithmetic (``fractions.Fraction`` of the float chances,
  which is exact) and only then rounded to floats;
* ``lost`` at a decision = the seat's chance after the best action found minus its chance
  after the played one, each followed by the same completion of the turn by the strongest
  bot's rollout policy (the action subset and the completion:
  :class:`~hexfolk.analysis.result.Budget`).

The analysis reads the full record after the game: hidden cards are known to it. It is
deterministic: every random draw (the action subset, playouts) comes from a generator seeded
by the record's seed and the step (:func:`hexfolk.core.rng.make_rng`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from hexfolk.analysis.estimator import WinChanceModel
from hexfolk.analysis.features import features_of
from hexfolk.analysis.result import (
    Budget,
    GameAnalysis,
    SeatAnalysis,
    StepAnalysis,
    TurningPoint,
    TurnPoint,
    fraction_text,
    label_of,
)
from hexfolk.core import CHANCE, TERMINAL, Action, MatchRecord, State, replay
from hexfolk.core.record import split_entry
from hexfolk.core.rng import make_rng

TURNING_POINTS = 5
"""How many turning points an analysis lists."""

Progress = Callable[[int, int], None]
"""``progress(steps done, steps in all)``."""


def analyze_record(
    record: MatchRecord,
    budget: Budget | None = None,
    *,
    progress: Progress | None = None,
    verify: bool = True,
) -> GameAnalysis:
    """The analysis of ``record`` (see the module docstring). With ``verify`` the record is
    first checked whole as ``hexfolk replay`` checks it (:func:`hexfolk.core.replay`:
    checkpoints, final fingerprint, result). RecordError when the record does not replay or
    was changed; ValueError for a game without an estimator (nothing is analysed then)."""
    budget = budget or Budget()
    game = record.make_game()
    features_of(game.id)
    if verify:
        replay(record, verify=True)
    n = game.num_players
    model = WinChanceModel.for_game(
        game.id, n, rollouts=budget.rollouts, depth=budget.depth if budget.rollouts else 0
    )
    rollout = model.features.rollout

    def value(state: State, step: int) -> list[float]:
        # common random numbers: every estimate at one step draws the same playouts
        return model.chances(state, make_rng(record.seed, "analysis", step, "playouts"))

    def judge(state: State, seat: int, action: Action, step: int) -> float:
        # the action, then the turn completed by the rollout policy with the same draws for
        # every action of this step (common random numbers), valued for ``seat``
        world = state.clone()
        turn = world.turn_count()
        world.apply_for(seat, action)
        rng = make_rng(record.seed, "analysis", step, "completion")
        for _ in range(budget.horizon):
            player = world.current_player()
            if player == TERMINAL or world.turn_count() != turn:
                break
            if player == CHANCE:
                world.apply_unchecked(world.sample_chance(rng))
            else:
                world.apply_unchecked(rollout(world, world.legal_actions(), rng))
        return value(world, step)[seat]

    state = record.start_state(game)
    start = tuple(value(state, 0))
    steps: list[StepAnalysis] = []
    total = len(record.actions)
    for i, entry in enumerate(record.actions):
        step = i + 1
        turn = state.turn_count()
        seat_mark, text = split_entry(entry)
        mover = state.current_player()
        if mover == CHANCE and seat_mark is None:
            action = state.parse_action(text)
            state.apply_unchecked(action)
            after = value(state, step)
            steps.append(StepAnalysis(step, turn, "chance", None, entry, tuple(after)))
        else:
            seat = mover if seat_mark is None else seat_mark
            action = state.parse_action_for(seat, text)
            legal = state.legal_actions_for(seat)
            rng = make_rng(record.seed, "analysis", step, "choices")
            others = _choices(state, seat, action, legal, budget.actions, rollout, rng)
            choice = len(legal) > 1
            played = judge(state, seat, action, step) if choice else 0.0
            best_chance, best = played, action
            for alt in others:
                chance = judge(state, seat, alt, step)
                if chance > best_chance:
                    best_chance, best = chance, alt
            lost = best_chance - played
            state.apply_for(seat, action)
            after = value(state, step)
            steps.append(
                StepAnalysis(
                    step,
                    turn,
                    "decision",
                    seat,
                    entry,
                    tuple(after),
                    legal=len(legal),
                    evaluated=len(others) + 1,
                    best=str(best) if choice else None,
                    best_chance=best_chance if choice else None,
                    played_chance=played if choice else None,
                    lost=lost,
                    label=label_of(lost),
                )
            )
        if progress is not None:
            progress(step, total)
    final = state
    return GameAnalysis(
        game=game.id,
        rules_version=game.rules_version,
        players=n,
        seed=record.seed,
        finished=final.is_terminal(),
        winners=tuple(final.winners()),
        budget=budget,
        start=start,
        steps=tuple(steps),
        seats=tuple(_seat_totals(start, steps, n)),
        turning_points=tuple(turning_points(start, steps)),
        turns=tuple(_turn_curve(steps)),
        estimator={
            "method": "softmax of the strongest bot's seat scores, temperature by progress",
            "a": model.a,
            "b": model.b,
            "rollouts": model.rollouts,
            "depth": model.depth,
        },
    )


def _choices(
    state: State,
    seat: int,
    played: Action,
    legal: list[Action],
    limit: int,
    rollout: Callable[..., Action],
    rng: random.Random,
) -> list[Action]:
    """The actions other than ``played`` to evaluate: all when the seat had at most ``limit``,
    else the rollout policy's choice (when it is the seat to move) and a seeded sample."""
    others = [a for a in legal if a != played]
    if len(legal) <= limit:
        return others
    chosen: list[Action] = []
    if state.current_player() == seat:
        pick = rollout(state, legal, rng)
        if pick != played:
            chosen.append(pick)
    rest = [a for a in others if a not in chosen]
    room = max(0, limit - 1 - len(chosen))
    chosen.extend(rng.sample(rest, min(room, len(rest))))
    return chosen


def _seat_totals(start: tuple[float, ...], steps: list[StepAnalysis], n: int) -> list[SeatAnalysis]:
    """Luck and skill per seat, summed exactly (see the module docstring)."""
    out = []
    for s in range(n):
        luck = Fraction(0)
        own = Fraction(0)
        others = Fraction(0)
        prev = Fraction(start[s])
        lost_total = 0.0
        decisions = 0
        counts = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for st in steps:
            now = Fraction(st.chances[s])
            delta = now - prev
            prev = now
            if st.kind == "chance":
                luck += delta
            elif st.seat == s:
                own += delta
            else:
                others += delta
            if st.seat == s and st.legal > 1:
                decisions += 1
                lost_total += st.lost
                if st.label is not None:
                    counts[st.label] += 1
        skill = own + others
        final = steps[-1].chances[s] if steps else start[s]
        out.append(
            SeatAnalysis(
                seat=s,
                start=start[s],
                final=final,
                luck=float(luck),
                skill=float(skill),
                skill_own=float(own),
                skill_others=float(others),
                luck_exact=fraction_text(luck),
                skill_exact=fraction_text(skill),
                decisions=decisions,
                lost_total=lost_total,
                lost_mean=lost_total / decisions if decisions else 0.0,
                inaccuracies=counts["inaccuracy"],
                mistakes=counts["mistake"],
                blunders=counts["blunder"],
            )
        )
    return out


def turning_points(
    start: tuple[float, ...], steps: list[StepAnalysis], count: int = TURNING_POINTS
) -> list[TurningPoint]:
    """The ``count`` steps with the largest swing, largest first (ties: the earlier step)."""
    points = []
    prev = start
    for st in steps:
        delta = tuple(a - b for a, b in zip(st.chances, prev))
        prev = st.chances
        swing = max(abs(d) for d in delta)
        points.append(TurningPoint(st.step, st.turn, st.kind, st.seat, st.action, swing, delta))
    points.sort(key=lambda p: (-p.swing, p.step))
    return points[:count]


def _turn_curve(steps: list[StepAnalysis]) -> list[TurnPoint]:
    """The chances at the end of every turn (``turn``: the turn count during it) and after
    the last step."""
    out = []
    for i, st in enumerate(steps):
        next_turn = steps[i + 1].turn if i + 1 < len(steps) else None
        if next_turn is None or next_turn != st.turn:
            out.append(TurnPoint(st.turn, st.step, st.chances))
    return out
