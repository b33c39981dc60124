"""Phase tables: what each phase of a game allows, does and asks, with the seat explicit.

A game's turn is a chain of small decisions, each one a *phase* (an ``IntEnum``). For every
phase the game declares one :class:`PhaseRules` row of three functions, each taking the
position and the seat that acts:

* ``legal(position, seat)``: the seat's legal actions in this phase;
* ``apply(position, seat, action)``: what the seat's action does (the caller checked it);
* ``prompt(position, seat)``: the text and data of the seat's :class:`~hexfolk.core.Prompt`
  (``None``: nobody decides, as at chance steps and at the end).

The seat is always an argument, never read from the position, so a simultaneous decision
(several seats discarding at once, answering an offer, committing in secret) asks and applies
each seat's step with the same functions as the seat to move, and the position is never
rewritten to "become" another seat (the model is OpenSpiel's per-phase ``Legal``/``Apply``
pairs with the player explicit).

:class:`PhaseTable` collects the rows, checks that every phase has one and keeps each column
as a tuple indexed by phase (one subscript on the hot paths: ``table.legal[phase](s, seat)``).
:func:`by_action_type` builds an ``apply`` that hands each kind of action to its own rule
function, for phases where several kinds of action are legal; the table's :attr:`~PhaseTable.moves`
column names the rule function of each phase and action class, so a game's step is two
subscripts and one call, ``table.moves[phase][type(action)](s, seat, action)``, with no
dispatching function in between (the island's engine applies every step so).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Generic, TypeVar

from hexfolk.core.actions import Action

P = TypeVar("P")
"""The game's position type."""

Legal = Callable[[P, int], list[Action]]
"""``legal(position, seat)``: the seat's legal actions in the phase."""
Apply = Callable[[P, int, Action], None]
"""``apply(position, seat, action)``: the seat's action, applied (already checked)."""
PromptOf = Callable[[P, int], tuple[str, dict[str, Any]]]
"""``prompt(position, seat)``: the text and data of what the seat is asked."""


@dataclass(frozen=True, slots=True)
class PhaseRules(Generic[P]):
    """One row of a phase table: the phase's legal actions, apply and prompt, per seat."""

    legal: Legal[P]
    apply: Apply[P]
    prompt: PromptOf[P] | None = None
    """None: nobody decides in this phase (chance steps, the end)."""


class ByActionType(dict[type, Apply[P]]):
    """An ``apply`` that hands each action to the rule function of its class: a dict from
    action class to rule function, callable as an ``apply``. Its row's entry in
    :attr:`PhaseTable.moves` is the dict itself, so the hot paths subscript it and call the
    rule function directly."""

    __slots__ = ()

    def __call__(self, position: P, seat: int, action: Action) -> None:
        self[type(action)](position, seat, action)


def by_action_type(moves: Mapping[type, Apply[P]]) -> ByActionType[P]:
    """An ``apply`` that hands each action to the rule function of its class (``moves``)."""
    return ByActionType(moves)


class _EveryClass(dict[type, Apply[P]]):
    """The :attr:`PhaseTable.moves` of a row with one ``apply`` for every action: each action
    class maps to it (entered at the class's first lookup, a plain subscript after that)."""

    __slots__ = ("apply",)

    def __init__(self, apply: Apply[P]):
        super().__init__()
        self.apply = apply

    def __missing__(self, cls: type) -> Apply[P]:
        self[cls] = self.apply
        return self.apply


class PhaseTable(Mapping[IntEnum, PhaseRules[P]], Generic[P]):
    """Every phase of a game's ``phases`` enum -> its :class:`PhaseRules` (all required).

    A mapping by phase; its columns :attr:`legal`, :attr:`apply`, :attr:`moves` and
    :attr:`prompt` are tuples indexed by the phase's value (which must be 0, 1, 2, ... in
    declaration order)."""

    __slots__ = ("_phases", "apply", "legal", "moves", "prompt", "rows")

    def __init__(self, phases: type[IntEnum], rows: Mapping[Any, PhaseRules[P]]):
        members = list(phases)
        if [int(m) for m in members] != list(range(len(members))):
            raise ValueError(f"{phases.__name__} values must be 0..{len(members) - 1} in order")
        missing = [m.name for m in members if m not in rows]
        extra = [k for k in rows if k not in members]
        if missing or extra:
            raise ValueError(
                f"phase table of {phases.__name__}: missing {missing or 'none'}, "
                f"unknown {extra or 'none'}"
            )
        self._phases = members
        self.rows: tuple[PhaseRules[P], ...] = tuple(rows[m] for m in members)
        self.legal: tuple[Legal[P], ...] = tuple(r.legal for r in self.rows)
        self.apply: tuple[Apply[P], ...] = tuple(r.apply for r in self.rows)
        self.moves: tuple[Mapping[type, Apply[P]], ...] = tuple(
            r.apply if isinstance(r.apply, ByActionType) else _EveryClass(r.apply)
            for r in self.rows
        )
        """By phase: the rule function of each action class (``moves[phase][type(action)]``
        is what ``apply[phase]`` calls for that action: the same step, one call fewer)."""
        self.prompt: tuple[PromptOf[P] | None, ...] = tuple(r.prompt for r in self.rows)

    def __getitem__(self, phase: IntEnum) -> PhaseRules[P]:
        return self.rows[phase]

    def __iter__(self) -> Iterator[IntEnum]:
        return iter(self._phases)

    def __len__(self) -> int:
        return len(self._phases)
