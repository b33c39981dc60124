"""The analysis of a finished game as data: :class:`GameAnalysis` and its parts, JSON-able
(:meth:`GameAnalysis.to_json`, :meth:`GameAnalysis.from_json`). The schema is documented field
by field in ``docs/analysis.md`` ("The result"); :data:`SCHEMA_VERSION` is bumped whenever a
field changes meaning."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

SCHEMA_VERSION = 1

INACCURACY = 0.05
"""Win chance lost against the best choice found from which a decision is an inaccuracy."""
MISTAKE = 0.10
"""... a mistake."""
BLUNDER = 0.20
"""... a blunder."""


def label_of(lost: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for a decision that lost
    ``lost`` win chance (thresholds :data:`INACCURACY`, :data:`MISTAKE`, :data:`BLUNDER`)."""
    if lost >= BLUNDER:
        return "blunder"
    if lost >= MISTAKE:
        return "mistake"
    if lost >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class Budget:
    """How much work the analysis spends (``hexfolk analyze --budget``)."""

    actions: int = 12
    """Most actions evaluated per decision, the played one included: all of them when the seat
    had at most this many; otherwise the played one, the strongest bot's rollout choice and
    the rest drawn without replacement from the others (seeded)."""
    rollouts: int = 0
    """Playouts per estimate (0: the static estimator alone)."""
    depth: int = 40
    """Steps per playout (with ``rollouts`` > 0)."""
    horizon: int = 40
    """Most steps of the turn's completion that judges a choice: each evaluated action (the
    played one too) is followed by the strongest bot's rollout policy until the turn count
    moves on (or the game ends, or this many steps), with the same seeded draws for every
    action, and valued there. 0: each action's resulting state is valued at once."""

    def __post_init__(self) -> None:
        if self.actions < 1:
            raise ValueError(f"the budget's actions must be at least 1, not {self.actions}")
        if min(self.rollouts, self.depth, self.horizon) < 0:
            raise ValueError("the budget's rollouts, depth and horizon must not be negative")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"actions=12,rollouts=4,depth=40,horizon=40"`` (any subset, any order;
        ``"default"``: the defaults). ValueError naming a bad part."""
        values: dict[str, int] = {}
        text = text.strip()
        if text in ("", "default"):
            return cls()
        for part in text.split(","):
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep or key not in ("actions", "rollouts", "depth", "horizon"):
                raise ValueError(
                    f"budget part {part.strip()!r} is not actions=N, rollouts=N, depth=N "
                    "or horizon=N"
                )
            try:
                values[key] = int(value)
            except ValueError:
                raise ValueError(f"budget {key} must be a whole number, not {value!r}") from None
        return cls(**values)

    def text(self) -> str:
        return (
            f"actions={self.actions},rollouts={self.rollouts},depth={self.depth},"
            f"horizon={self.horizon}"
        )


@dataclass(frozen=True)
class StepAnalysis:
    """One step of the record and the win chances after it."""

    step: int
    """1-based: the chances after the record's first ``step`` entries."""
    turn: int
    """The game's turn count before the step."""
    kind: str
    """``"chance"`` or ``"decision"``."""
    seat: int | None
    """Who decided (``None`` at a chance step)."""
    action: str
    """The record entry."""
    chances: tuple[float, ...]
    """Each seat's win chance after the step."""
    legal: int = 0
    """How many legal actions the seat had (0 at a chance step)."""
    evaluated: int = 0
    """How many of them the analysis evaluated (the budget)."""
    best: str | None = None
    """The best action found (``None``: no choice was evaluated)."""
    best_chance: float | None = None
    """The seat's win chance after the best action found and the turn's completion
    (:attr:`Budget.horizon`)."""
    played_chance: float | None = None
    """The seat's win chance after the played action and the same completion."""
    lost: float = 0.0
    """``best_chance - played_chance`` (>= 0; 0 without a choice)."""
    label: str | None = None
    """``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or ``None`` (:func:`label_of`)."""


@dataclass(frozen=True)
class SeatAnalysis:
    """One seat's totals. ``luck + skill == final - start`` exactly (in rational arithmetic:
    the ``*_exact`` fields are the fractions, ``"p/q"``)."""

    seat: int
    start: float
    final: float
    luck: float
    skill: float
    skill_own: float
    """The part of ``skill`` at the seat's own decisions."""
    skill_others: float
    """The part at the other seats' decisions."""
    luck_exact: str
    skill_exact: str
    decisions: int
    """Decisions with more than one legal action."""
    lost_total: float
    lost_mean: float
    """``lost_total / decisions`` (0 without decisions)."""
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class TurningPoint:
    """A step with one of the largest swings: ``swing`` is the largest change of any seat's
    win chance at that step."""

    step: int
    turn: int
    kind: str
    seat: int | None
    action: str
    swing: float
    delta: tuple[float, ...]


@dataclass(frozen=True)
class TurnPoint:
    """The chances at the end of a turn (the last step before the turn count moves on)."""

    turn: int
    step: int
    chances: tuple[float, ...]


@dataclass(frozen=True)
class GameAnalysis:
    """The whole analysis of one record (``docs/analysis.md``)."""

    game: str
    rules_version: str
    players: int
    seed: int
    finished: bool
    winners: tuple[int, ...]
    budget: Budget
    start: tuple[float, ...]
    """Each seat's win chance before the first step."""
    steps: tuple[StepAnalysis, ...]
    seats: tuple[SeatAnalysis, ...]
    turning_points: tuple[TurningPoint, ...]
    turns: tuple[TurnPoint, ...]
    thresholds: dict[str, float] = field(
        default_factory=lambda: {
            "inaccuracy": INACCURACY,
            "mistake": MISTAKE,
            "blunder": BLUNDER,
        }
    )
    estimator: dict[str, Any] = field(default_factory=dict)
    """How the chances were estimated: the model's numbers (``a``, ``b``) and the method."""
    schema: int = SCHEMA_VERSION

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (lists for tuples); :meth:`from_json` reads it back equal."""
        data: dict[str, Any] = asdict(self)
        return _lists(data)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameAnalysis:
        """The analysis a :meth:`to_json` document describes (ValueError for another schema)."""
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"analysis schema {data.get('schema')!r} is not {SCHEMA_VERSION}")

        def tup(x: Any) -> tuple[Any, ...]:
            return tuple(x)

        return cls(
            game=data["game"],
            rules_version=data["rules_version"],
            players=data["players"],
            seed=data["seed"],
            finished=data["finished"],
            winners=tup(data["winners"]),
            budget=Budget(**data["budget"]),
            start=tup(data["start"]),
            steps=tuple(StepAnalysis(**{**s, "chances": tup(s["chances"])}) for s in data["steps"]),
            seats=tuple(SeatAnalysis(**s) for s in data["seats"]),
            turning_points=tuple(
                TurningPoint(**{**t, "delta": tup(t["delta"])}) for t in data["turning_points"]
            ),
            turns=tuple(TurnPoint(**{**t, "chances": tup(t["chances"])}) for t in data["turns"]),
            thresholds=dict(data["thresholds"]),
            estimator=dict(data["estimator"]),
            schema=data["schema"],
        )


def fraction_text(x: Fraction) -> str:
    """``"p/q"`` (``"p"`` for a whole number)."""
    return str(x)


def _lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_lists(v) for v in value]
    return value
