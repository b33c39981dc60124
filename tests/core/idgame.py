"""Harvest with positions, and a Harvest whose log memo is keyed by ``id()``, for the copies
check (issue 25, deliver 2).

:class:`PositionedHarvestGame` is Harvest (``tests/core/cachegame.py``) that lists the same
canonical action objects every time (built once, as the island engine does) and writes and
loads positions: an honest game. :class:`IdMemoHarvestGame` is the island engine before
66b750f in miniature: its state carries the sentence of each farm action in a dict keyed by
``id()`` of those canonical objects (``lines``, built in ``__init__`` like the island's
``Texts``), and writes its log from it. In one process that works: clones share the dict,
deep copies copy its keys, a loaded position builds its own, and every one of them is handed
the very objects whose ids are the keys. A state pickled into a spawned process carries keys
that name nothing there: its first farm raises KeyError.

The games are not registered: tests construct them directly (``IdMemoHarvestGame(2)``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hexfolk.core import Action, PositionError
from tests.core.cachegame import (
    FIELD_NUMBERS,
    Farm,
    HarvestGame,
    HarvestState,
    Pass,
    Roll,
)

FARMS = tuple(Farm(f) for f in range(len(FIELD_NUMBERS)))
"""The canonical farm actions (listed and parsed: always these objects)."""
PASS = Pass()
ROLLS = tuple(Roll(v) for v in range(1, 7))
_FIELDS = ("owner", "grain", "phase", "active", "turn", "setup_index", "log")


def _canonical(action: Action) -> Action:
    if isinstance(action, Farm):
        return FARMS[action.field]
    if isinstance(action, Roll):
        return ROLLS[action.value - 1]
    return PASS


class PositionedHarvestGame(HarvestGame):
    """Harvest with canonical action objects and positions."""

    def parse_action_syntax(self, text: str) -> Action:
        return _canonical(super().parse_action_syntax(text))

    def load_position(self, doc: str | Mapping[str, Any]) -> HarvestState:
        data = json.loads(doc) if isinstance(doc, str) else dict(doc)
        if data.get("game") != self.id or data.get("players") != self.num_players:
            raise PositionError(f"not a position of {self.id} with {self.num_players} players")
        missing = [name for name in (*_FIELDS, "options") if name not in data]
        if missing:
            raise PositionError(f"the position lacks {', '.join(missing)}")
        state = self.new_initial_state()
        for name in _FIELDS:
            value = data[name]
            setattr(state, name, list(value) if isinstance(value, list) else value)
        return state


class PositionedHarvestState(HarvestState):
    def legal_actions(self) -> list[Action]:
        return [_canonical(a) for a in super().legal_actions()]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(_canonical(a), p) for a, p in super().chance_outcomes()]

    def position(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"game": self.game.id, **self.game.config()}
        for name in _FIELDS:
            value = getattr(self, name)
            doc[name] = list(value) if isinstance(value, list) else value
        return doc


class IdMemoHarvestState(PositionedHarvestState):
    """Farm sentences memoised by ``id()`` of the canonical actions (never do this)."""

    def __init__(self, game: HarvestGame):
        super().__init__(game)
        self.lines = {id(farm): f"farms field {farm.field}" for farm in FARMS}

    def apply_unchecked(self, action: Action) -> None:
        seat = self.current_player()
        super().apply_unchecked(action)
        if isinstance(action, Farm):
            self.log[-1] = f"seat {seat} {self.lines[id(action)]}"


class IdMemoHarvestGame(PositionedHarvestGame):
    """Harvest whose log memo is keyed by identity, as the island's maritime lines were."""


PositionedHarvestGame.state_class = PositionedHarvestState
IdMemoHarvestGame.state_class = IdMemoHarvestState


class QuietIdMemoHarvestState(IdMemoHarvestState):
    """The same memo read with a fallback: a miss writes another sentence, silently."""

    def apply_unchecked(self, action: Action) -> None:
        seat = self.current_player()
        PositionedHarvestState.apply_unchecked(self, action)
        if isinstance(action, Farm):
            self.log[-1] = f"seat {seat} {self.lines.get(id(action), 'farms')}"


class QuietIdMemoHarvestGame(PositionedHarvestGame):
    """Harvest whose identity-keyed memo falls back quietly: the log differs, nothing fails."""


QuietIdMemoHarvestGame.state_class = QuietIdMemoHarvestState
