"""The phases of an island turn: what the pending decision (or chance step) is.

A turn is a chain of small decisions (``docs/island.md``). :class:`Phase` names each one; the
phase table of :mod:`.state` maps every phase to its legal actions, its moves and its prompt.
The phase's :attr:`Phase.kind` is the prompt kind bots and clients read (``prompt().kind``).
"""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """The pending step. An ``IntEnum`` so the phase table is a tuple indexed by phase."""

    LAYOUT = 0
    """Chance: the board is laid out (IR-11..IR-16)."""
    SETUP_SETTLEMENT = 1
    """A setup settlement, in snake order (IR-18..IR-21)."""
    SETUP_ROAD = 2
    """The road next to the settlement just placed (IR-18)."""
    PRE_ROLL = 3
    """Roll the dice, or play a development card first (IR-24)."""
    DICE = 4
    """Chance: the dice (IR-35)."""
    DISCARD = 5
    """After a 7: every seat over the limit discards half at once (IR-41)."""
    ROBBER = 6
    """Move the robber and pick whom to rob (IR-42, IR-43, IR-46)."""
    STEAL = 7
    """Chance: the card the robber takes (IR-43)."""
    MAIN = 8
    """Trade, build, buy, play a card, end the turn (IR-25..IR-28)."""
    DRAW = 9
    """Chance: the development card bought (IR-60)."""
    ROAD_BUILDING = 10
    """The free roads of a Road Building card (IR-63)."""
    ANSWER = 11
    """Other seats answer open trade offers while the proposer plays on (IR-49, IR-50)."""
    SPECIAL_BUILD_SIGNUP = 12
    """With 5+ players: the other seats sign up for the special build phase (IR-29, IR-30)."""
    SPECIAL_BUILD = 13
    """A special build slot: build or buy, then end (IR-31..IR-34)."""
    OVER = 14
    """The game is over (IR-4)."""

    @property
    def kind(self) -> str:
        """The prompt kind and observation name (``setup-settlement``, ``sbp-build``...)."""
        return PHASE_NAMES[self]


PHASE_NAMES: tuple[str, ...] = (
    "layout",
    "setup-settlement",
    "setup-road",
    "pre-roll",
    "dice",
    "discard",
    "robber",
    "steal",
    "main",
    "draw",
    "road-building",
    "answer",
    "sbp-signup",
    "sbp-build",
    "over",
)
"""The name of each phase, by phase (observations, prompts, ``full_state``: never rename)."""

PHASE_BY_NAME: dict[str, Phase] = {name: Phase(i) for i, name in enumerate(PHASE_NAMES)}

CHANCE_PHASES = frozenset((Phase.LAYOUT, Phase.DICE, Phase.STEAL, Phase.DRAW))
"""Phases where chance moves (the table draws the outcome)."""
NO_WIN_PHASES = frozenset(
    (
        Phase.LAYOUT,
        Phase.SETUP_SETTLEMENT,
        Phase.SETUP_ROAD,
        Phase.SPECIAL_BUILD_SIGNUP,
        Phase.SPECIAL_BUILD,
        Phase.OVER,
    )
)
"""Phases in which nobody wins (setup, the special build phase: IR-4, IR-33)."""
SIMULTANEOUS_PHASES = frozenset((Phase.DISCARD, Phase.ANSWER, Phase.SPECIAL_BUILD_SIGNUP))
"""Phases where several seats decide at once (IR-30, IR-41, IR-50)."""

(
    LAYOUT,
    SETUP_SETTLEMENT,
    SETUP_ROAD,
    PRE_ROLL,
    DICE,
    DISCARD,
    ROBBER,
    STEAL,
    MAIN,
    DRAW,
    ROAD_BUILDING,
    ANSWER,
    SPECIAL_BUILD_SIGNUP,
    SPECIAL_BUILD,
    OVER,
) = Phase
"""The phases as module constants (the rule modules compare against these: a module global
reads faster than an enum attribute on the hot paths)."""
