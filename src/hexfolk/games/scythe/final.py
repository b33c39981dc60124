"""Which Scythe steps are final by the rules: a table never takes them back (undo).

A seat may take back its own steps of its own turn (``docs/server.md``, "Undo"); these are
the Scythe steps that stay, whoever asks (:meth:`ScytheState.why_final`):

* every step of a combat (choosing it, Artillery, the commitments, the retreat; SR-43): the
  other side answers it, and the defender's steps are outside its own turn;
* a step that begins a combat (the move's last step or ``done`` when a character or mech
  shares a territory with an opponent's; SR-31) and a step into a territory with an
  opponent's character, mech or workers (the combat is then certain, or their workers were
  sent home at once; SR-31);
* an encounter's option chosen (the card is shown to all; SR-47), a Factory card kept
  (SR-48), an objective revealed (SR-51), a combat card discarded to pay (Coercion SR-41,
  a Factory card's cost SR-49): each shows a card;
* any other step that changes what another player holds (its power, popularity, coins,
  combat cards, stars, units or cards), such as the bottom-row action that pays a
  neighbour's recruit bonus (SR-9).

Everything else of the active player may be taken back within the turn: the section, the
top and bottom actions and their payments, plain moves, trades, production, upgrades,
deploys, builds, enlists. Card draws, Scout and encounter cards are chance steps and the
Factory offer looked at is hidden information: the table's own barriers.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import EncounterOption, PayCard, Reveal, Step, TakeFactory
from hexfolk.games.scythe.phases import ARTILLERY, COMBAT_CHOOSE, COMMIT, RETREAT, STEP
from hexfolk.games.scythe.position import WORKER, Position

COMBAT = "a combat, once begun, is fought to its end: its steps are final (SR-43)"
COMBAT_BEGUN = "this step begins a combat (SR-31, SR-43)"
ENTERED = (
    "the unit moved into a territory with another player's units: a combat follows or "
    "their workers went home (SR-31)"
)
ENCOUNTER = "an encounter card's option, once chosen, is final: the card is shown to all (SR-47)"
FACTORY = "a Factory card, once kept, is kept (SR-48)"
OBJECTIVE = "a revealed objective stays revealed (SR-51)"
CARD_SHOWN = "a combat card discarded to pay is shown to all (SR-41, SR-49)"
OTHERS_CHANGED = "this step changed what another player holds (a recruit bonus, SR-9)"

COMBAT_PHASES = frozenset((COMBAT_CHOOSE, ARTILLERY, COMMIT, RETREAT))
"""The decisions of a combat (SR-43)."""

_BY_KIND: dict[type[Action], str] = {
    EncounterOption: ENCOUNTER,
    TakeFactory: FACTORY,
    Reveal: OBJECTIVE,
    PayCard: CARD_SHOWN,
}
"""The kinds of step that are always final."""


def why_final(s: Position, seat: int, action: Action) -> str | None:
    """Why ``seat``'s ``action`` (a legal step of ``s``, asked before it) is final, or None.
    Costs one clone and one step at most (tens of microseconds)."""
    if s.phase in COMBAT_PHASES:
        return COMBAT
    reason = _BY_KIND.get(type(action))
    if reason is not None:
        return reason
    if s.phase == STEP and isinstance(action, Step) and _enters_opponents(s, seat, action.loc):
        return ENTERED
    after = s.clone()
    assert isinstance(after, Position)
    after.apply_for(seat, action)
    if after.phase in COMBAT_PHASES and not after.is_terminal():
        return COMBAT_BEGUN
    if any(_holdings(s, q) != _holdings(after, q) for q in range(s.n) if q != seat):
        return OTHERS_CHANGED
    return None


def _enters_opponents(s: Position, p: int, loc: int) -> bool:
    """Does ``p``'s selected character or mech step onto an opponent's units (SR-31)?"""
    if s.move.kind == WORKER or loc >= D.NTERR:
        return False
    if s.enemy_with_combat_units(p, loc) >= 0:
        return True
    n = s.n
    return any(s.workers_on[loc * n + q] for q in range(n) if q != p)


def _holdings(s: Position, q: int) -> tuple[Any, ...]:
    """What player ``q`` holds: tracks, coins, combat cards, stars, units, cards."""
    n = s.n

    def part(values: list[int]) -> tuple[int, ...]:
        k = len(values) // n
        return tuple(values[q * k : (q + 1) * k])

    return (
        s.power[q],
        s.popularity[q],
        s.coins[q],
        part(s.hand),
        part(s.stars),
        s.character_loc[q],
        part(s.mech_loc),
        part(s.worker_loc),
        part(s.structure_loc),
        tuple(s.objectives[q]),
        s.factory_card[q],
    )


def can_reveal(s: Position, seat: int, action: Action) -> bool:
    """Could ``seat``'s ``action`` show ``seat`` anything hidden? Only a step after which the
    seat may look at the Factory offer (SR-48: its character ends a move on the Factory and it
    holds no Factory card): a step to the Factory, or any step while its character stands
    there. Everything else it learns comes with chance (combat cards drawn, Scout, encounter
    cards: SR-41, SR-47) or with a final step (a combat's commitments revealed, SR-43), which
    a table never undoes (``tests/games/test_can_reveal.py`` checks this on random games)."""
    if s.factory_card[seat] >= 0 or not s.factory_offer or s.factory_offer_seen[seat]:
        return False
    if s.character_loc[seat] == D.FACTORY_LOC:
        return True
    return isinstance(action, Step) and action.loc == D.FACTORY_LOC
