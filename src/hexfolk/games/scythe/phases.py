"""The phases of a Scythe turn (SR-5..SR-7) and the continuations that chain them.

A turn is a stack of small decisions: :class:`Phase` names the decision pending now (its
``kind`` is the prompt kind every client, bot and log sees); :class:`Continuation` names the
rule step that must run once a chance outcome (a card draw, Scout) or a card's granted
benefits are done. ``state.py`` maps each phase to its (legal actions, apply, prompt) and each
continuation to its function.

The module-level aliases (``TOP``, ``COMMIT``, ...) are the same members, bound to globals
because hot paths compare phases millions of times and a global lookup is several times
cheaper than ``Phase.TOP``.
"""

from __future__ import annotations

from enum import Enum, IntEnum


class Phase(IntEnum):
    """The decision pending now. Values are fixed: fingerprints and records store them."""

    SETUP = 0
    """The deal (factions, mats, tile, Factory cards, objectives, combat cards; SR-57)."""
    SECTION = 1
    """Step 1 of a turn: put the action token on a section (SR-6)."""
    TOP = 2
    """Step 2: the section's top-row action, or skip it (SR-7)."""
    MOVE_UNIT = 3
    """Move: choose the next unit, or done (SR-16, SR-25)."""
    CARRY = 4
    """Move: what the unit carries (SR-30, SR-34, SR-35)."""
    STEP = 5
    """Move: where the unit steps, or stop (SR-25..SR-39)."""
    TRADE_SECOND = 6
    """Trade: the second resource token, or done (SR-18)."""
    PRODUCE = 7
    """Produce: the next territory, or done (SR-19)."""
    COMBAT_CHOOSE = 8
    """Several combats: which is fought next (SR-43)."""
    ARTILLERY = 9
    """Combat C1: use Artillery or not (SR-41)."""
    COMMIT = 10
    """Combat C2: both players commit power and cards in secret (SR-43, SR-59)."""
    RETREAT = 11
    """Combat C7: where the loser retreats (home, or a lake for Seaworthy, OQ-8)."""
    BOTTOM = 12
    """Step 3: the section's bottom-row action, or skip it (SR-7, SR-20)."""
    PAY = 13
    """Bottom row: the territory each resource is paid from (SR-14, SR-20)."""
    BENEFIT = 14
    """Bottom row: which upgrade, mech, structure or recruit (SR-21..SR-24)."""
    END = 15
    """The reveal window after the bottom row, or end the turn (SR-7, SR-51)."""
    OVER = 16
    """The game is over (SR-11, SR-53..SR-56)."""
    ENCOUNTER = 17
    """An encounter card: choose an option (SR-47)."""
    GAIN = 18
    """A card's granted benefit: place gained tokens or take a granted action (SR-47, SR-49)."""
    FACTORY_OFFER = 19
    """Keep one Factory card of the offer (SR-48)."""
    PAY_CARD = 20
    """Discard a combat card to pay a Factory card's top action (SR-49)."""

    @property
    def kind(self) -> str:
        """The prompt kind of this phase (``"choose-section"``, ``"commit"``, ...)."""
        return PHASE_NAMES[self]


PHASE_NAMES: tuple[str, ...] = (
    "setup",
    "choose-section",
    "top-action",
    "choose-unit",
    "carry",
    "step",
    "trade-second-token",
    "produce",
    "choose-combat",
    "artillery",
    "commit",
    "retreat",
    "bottom-action",
    "pay",
    "benefit",
    "end-turn",
    "over",
    "encounter",
    "gain",
    "factory-offer",
    "pay-card",
)
"""Prompt kinds by phase: the names clients, bots, RL and logs read (``prompt().kind``)."""

PHASE_OF_KIND: dict[str, Phase] = {name: Phase(i) for i, name in enumerate(PHASE_NAMES)}
"""The phase of a prompt kind."""

SETUP = Phase.SETUP
SECTION = Phase.SECTION
TOP = Phase.TOP
MOVE_UNIT = Phase.MOVE_UNIT
CARRY = Phase.CARRY
STEP = Phase.STEP
TRADE_SECOND = Phase.TRADE_SECOND
PRODUCE = Phase.PRODUCE
COMBAT_CHOOSE = Phase.COMBAT_CHOOSE
ARTILLERY = Phase.ARTILLERY
COMMIT = Phase.COMMIT
RETREAT = Phase.RETREAT
BOTTOM = Phase.BOTTOM
PAY = Phase.PAY
BENEFIT = Phase.BENEFIT
END = Phase.END
OVER = Phase.OVER
ENCOUNTER = Phase.ENCOUNTER
GAIN = Phase.GAIN
FACTORY_OFFER = Phase.FACTORY_OFFER
PAY_CARD = Phase.PAY_CARD

WINDOW_OF_PHASE = {TOP: 1, BOTTOM: 2, END: 4}
"""The reveal windows of a turn (SR-7, SR-51): before the top action, between the rows, after
the bottom row; bits of ``Position.reveal_windows_used``."""


class Continuation(Enum):
    """A rule step that runs after a chance outcome or a card's granted benefits."""

    COMBAT_STEP = "_combat_step"
    """Combat C1: the next pre-commitment ability (after Artillery or Scout)."""
    NEXT_COMBAT = "_next_combat"
    """After a combat: the next combat of the Move, else the encounter (SR-43, SR-47)."""
    NEXT_GAIN = "_grants_next"
    """The next item of a card's granted benefit (SR-47, SR-49)."""
    ENCOUNTER_OPTION_DONE = "_enc_option_done"
    """After an encounter option's gains: Meander's second option, or the encounter ends."""
    AFTER_TOP = "_after_top"
    """After the top-row action: stars, then the bottom row (SR-7, SR-10)."""


# The values above are the names the 0.1 engine stored in its fingerprint (``cont`` and
# ``grant_then``); ``views.full_state`` writes them so fingerprints and golden files stay
# the same.

COMBAT_STEP = Continuation.COMBAT_STEP
NEXT_COMBAT = Continuation.NEXT_COMBAT
NEXT_GAIN = Continuation.NEXT_GAIN
ENCOUNTER_OPTION_DONE = Continuation.ENCOUNTER_OPTION_DONE
AFTER_TOP = Continuation.AFTER_TOP
