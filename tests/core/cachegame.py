"""A tiny island-like game whose memos are shared with clones, for the clone-isolation check.

*Harvest*: twelve fields in a ring, each with a die number (:data:`FIELD_NUMBERS`). Setup: every
seat places two farms on free fields in snake order (0, 1, .., n-1, n-1, .., 0). Then turns: the
active seat's die roll (chance, ``roll 4``) pays every farm on a field of that number one grain
to its owner; the active seat may then build farms for :data:`FARM_COST` grain on free fields
next to one of its farms (``farm 7``) and ends its turn (``pass``). A seat with :data:`WIN_FARMS`
farms wins at once; after :data:`TURN_LIMIT` turns the most farms win (ties share).

Like the island engine, the state memoises what depends on the board - the grain a roll pays
(``income``, by roll) and a seat's farm spots after setup (``spots``, by seat) - shares both
memos with its clones and replaces (never edits) a memo when a farm is placed: income without
the entry of the new farm's number, spots empty.
:class:`HarvestState` replaces them on every placement, as the island engine does since the
fix of issue 11. :class:`MemoSharingHarvestState` is the island engine before that fix: it
replaces a memo only when it is not empty (``if self.income: ...``), so clones made during
setup, when the memos are still empty, keep the original's very dicts and write entries for
their imagined farms into them; the original later pays grain from those entries.
:class:`ShallowCloneHarvestState` forgets to copy the grain list in ``clone()``.

The games are not registered: tests construct them directly (``HarvestGame(2)``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from hexfolk.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    MalformedActionError,
    State,
    check_seat,
)

FIELD_NUMBERS = (1, 4, 2, 6, 3, 5, 4, 1, 6, 2, 5, 3)
"""The die number of each field; the fields form a ring (field 11 is next to field 0)."""
FARM_COST = 2
WIN_FARMS = 4
TURN_LIMIT = 24


@dataclass(frozen=True, slots=True)
class Roll(Action):
    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True, slots=True)
class Farm(Action):
    field: int

    def __str__(self) -> str:
        return f"farm {self.field}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


SETUP, ROLL, MAIN, OVER = range(4)


class HarvestGame(Game):
    """Harvest with honest memos (replaced on every placement)."""

    id = "harvest"
    name = "Harvest"
    rules_version = "1"
    min_players = 2
    max_players = 3
    default_players = 2
    state_class: ClassVar[type[HarvestState]]

    def new_initial_state(self) -> HarvestState:
        return self.state_class(self)

    def parse_action_syntax(self, text: str) -> Action:
        word, _, num = text.strip().partition(" ")
        if word == "pass" and not num:
            return Pass()
        if word not in ("roll", "farm") or not num.strip().isdigit():
            raise MalformedActionError(f"{text!r}: expected 'roll N', 'farm N' or 'pass'")
        value = int(num)
        if word == "roll":
            if not 1 <= value <= 6:
                raise MalformedActionError(f"{text!r}: a die shows 1..6")
            return Roll(value)
        if not 0 <= value < len(FIELD_NUMBERS):
            raise MalformedActionError(f"{text!r}: fields are 0..{len(FIELD_NUMBERS) - 1}")
        return Farm(value)


class HarvestState(State):
    def __init__(self, game: HarvestGame):
        self.game = game
        n = game.num_players
        self.owner = [-1] * len(FIELD_NUMBERS)
        self.grain = [0] * n
        self.phase = SETUP
        self.setup_index = 0
        self.active = 0
        self.turn = 0
        self.log: list[str] = []
        self.income: dict[int, tuple[tuple[int, int], ...]] = {}
        """Grain per seat a roll pays, by roll. Shared by clones; replaced when a farm is
        placed (see :meth:`_farm_placed`)."""
        self.spots: dict[int, tuple[Action, ...]] = {}
        """A seat's farm actions after setup, by seat. Shared by clones like :attr:`income`."""

    # --- memos ---------------------------------------------------------------------------------
    def _farm_placed(self, field: int) -> None:
        """A farm was placed on ``field``: drop the income of its number and all spots. Both
        memos are new dicts every time, even from empty ones (the fixed island engine, issue
        11), so what this state adds later never reaches its clones, nor theirs this state."""
        number = FIELD_NUMBERS[field]
        self.income = {k: e for k, e in self.income.items() if k != number}
        self.spots = {}

    def _income(self, value: int) -> tuple[tuple[int, int], ...]:
        hit = self.income.get(value)
        if hit is None:
            owed = [0] * self.game.num_players
            for f, number in enumerate(FIELD_NUMBERS):
                if number == value and self.owner[f] >= 0:
                    owed[self.owner[f]] += 1
            hit = self.income[value] = tuple((s, k) for s, k in enumerate(owed) if k)
        return hit

    def _spots(self, seat: int) -> tuple[Action, ...]:
        hit = self.spots.get(seat)
        if hit is None:
            ring = len(FIELD_NUMBERS)
            mine = [f for f, o in enumerate(self.owner) if o == seat]
            near = {(f + d) % ring for f in mine for d in (-1, 1)}
            hit = self.spots[seat] = tuple(Farm(f) for f in sorted(near) if self.owner[f] < 0)
        return hit

    # --- whose move ----------------------------------------------------------------------------
    def _setup_seat(self) -> int:
        n = self.game.num_players
        i = self.setup_index
        return i if i < n else 2 * n - 1 - i

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == ROLL:
            return CHANCE
        return self._setup_seat() if self.phase == SETUP else self.active

    def legal_actions(self) -> list[Action]:
        if self.phase == SETUP:  # any free field, not memoised (as the island's setup)
            return [Farm(f) for f, o in enumerate(self.owner) if o < 0]
        if self.phase != MAIN:
            return []
        affordable = self.grain[self.active] >= FARM_COST
        return [*(self._spots(self.active) if affordable else ()), Pass()]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(Roll(v), 1 / 6) for v in range(1, 7)] if self.phase == ROLL else []

    def apply_unchecked(self, action: Action) -> None:
        n = self.game.num_players
        if isinstance(action, Roll):
            for seat, k in self._income(action.value):
                self.grain[seat] += k
            self.log.append(f"seat {self.active} rolls {action.value}")
            self.phase = MAIN
        elif isinstance(action, Farm):
            seat = self.current_player()
            self.owner[action.field] = seat
            self._farm_placed(action.field)
            self.log.append(f"seat {seat} farms field {action.field}")
            if self.phase == SETUP:
                self.setup_index += 1
                if self.setup_index == 2 * n:
                    self.phase = ROLL
            else:
                self.grain[seat] -= FARM_COST
                if self.owner.count(seat) >= WIN_FARMS:
                    self.phase = OVER
        else:
            assert isinstance(action, Pass)
            self.log.append(f"seat {self.active} passes")
            self.turn += 1
            self.active = (self.active + 1) % n
            self.phase = OVER if self.turn >= TURN_LIMIT else ROLL

    def clone(self) -> HarvestState:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)  # income and spots are shared (replaced, not edited)
        new.owner = list(self.owner)
        new.grain = list(self.grain)
        new.log = list(self.log)
        return new

    # --- views ---------------------------------------------------------------------------------
    def observation(self, seat: int | None, *, log: bool = True) -> dict[str, Any]:
        check_seat(self, seat)
        return {
            "owner": list(self.owner),
            "grain": list(self.grain),
            "phase": self.phase,
            "active": self.active,
            "turn": self.turn,
            "log": list(self.log) if log else [],
        }

    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> HarvestState:
        return self.clone()  # nothing is hidden

    def full_state(self) -> dict[str, Any]:
        return self.observation(None) | {"setup_index": self.setup_index}

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        farms = [self.owner.count(s) for s in range(self.game.num_players)]
        best = [s for s, k in enumerate(farms) if k == max(farms)]
        return [1.0 / len(best) if s in best else 0.0 for s in range(self.game.num_players)]

    def turn_count(self) -> int:
        return self.turn


class MemoSharingHarvestState(HarvestState):
    """The island engine before the fix of issue 11: a memo is replaced only when not empty."""

    def _farm_placed(self, field: int) -> None:
        # as IslandState._touch_income before 37558ef: an empty memo stays shared with clones
        income = self.income
        if income:
            number = FIELD_NUMBERS[field]
            self.income = {k: e for k, e in income.items() if k != number}
        if self.spots:
            self.spots = {}


class ShallowCloneHarvestState(HarvestState):
    """A clone that shares the grain list with the original (a forgotten copy)."""

    def clone(self) -> HarvestState:
        new = super().clone()
        new.grain = self.grain
        return new


class MemoSharingHarvestGame(HarvestGame):
    """Harvest whose memos leak from clones into the original, as in issue 11."""


class ShallowCloneHarvestGame(HarvestGame):
    """Harvest whose clones share the grain list."""


HarvestGame.state_class = HarvestState
MemoSharingHarvestGame.state_class = MemoSharingHarvestState
ShallowCloneHarvestGame.state_class = ShallowCloneHarvestState
