"""Which island steps are final by the rules: a table never takes them back (undo).

A seat may take back its own steps of its own turn (``docs/server.md``, "Undo"); these are
the island's steps that stay, whoever asks (:meth:`IslandState.why_final`):

* a development card played (Knight, Road Building, Year of Plenty, Monopoly): played cards
  are public (IR-65), the turn's one card is spent (IR-62); Monopoly also takes every other
  seat's cards of a kind (IR-64);
* the robber moved (IR-42, IR-45): it blocks another seat's hex at once (IR-44);
* a trade completed with another seat (IR-50): that seat's hand changed;
* the decisions a seat owes outside its own turn, final once given: a discard after a 7
  (IR-41), an answer to an offer (accept, reject, counter, ``decline-all``; IR-50), the
  special build sign-up (IR-30).

Everything else of the active player may be taken back within the turn: placements and
builds, maritime trades, offers (until another seat answers one: the table's own barrier),
withdrawals; a special build slot's builds are that seat's own turn (IR-31). The roll and a
purchase are followed by chance (dice, the card drawn), the table's own barrier.
"""

from __future__ import annotations

from hexfolk.core import Action
from hexfolk.games.island import actions as A
from hexfolk.games.island.phases import ANSWER, DISCARD, SPECIAL_BUILD_SIGNUP
from hexfolk.games.island.position import IslandPosition

CARD_PLAYED = "a development card played stays played (IR-62, IR-65)"
ROBBER_MOVED = "the robber, once moved, stays (IR-42, IR-44)"
TRADED = "the trade changed another seat's hand (IR-50)"
DISCARDED = "a discard after a 7 is final once given (IR-41)"
ANSWERED = "an answer to an offer is final once given (IR-50)"
SIGNED_UP = "the special build sign-up is final once given (IR-30)"

_BY_KIND: dict[type[Action], str] = {
    A.PlayKnight: CARD_PLAYED,
    A.PlayRoadBuilding: CARD_PLAYED,
    A.PlayPlenty: CARD_PLAYED,
    A.PlayMonopoly: CARD_PLAYED,
    A.MoveRobber: ROBBER_MOVED,
    A.Complete: TRADED,
    A.Discard: DISCARDED,
    A.SpecialBuildSignUp: SIGNED_UP,
}
"""The kinds of step that are always final."""


def why_final(s: IslandPosition, seat: int, action: Action) -> str | None:
    """Why ``seat``'s ``action`` (a legal step of ``s``, asked before it) is final, or None."""
    reason = _BY_KIND.get(type(action))
    if reason is not None:
        return reason
    phase = s.phase
    if phase == DISCARD:
        return DISCARDED
    if phase == SPECIAL_BUILD_SIGNUP:
        return SIGNED_UP
    if phase == ANSWER and seat != s.active:
        return ANSWERED
    return None


def can_reveal(s: IslandPosition, seat: int, action: Action) -> bool:
    """Could ``seat``'s ``action`` show ``seat`` anything hidden? Never on the island: what a
    seat learns comes with chance (the dice, the development card drawn, the card the robber
    takes: IR-36, IR-61, IR-45) or with a step that is final anyway (a Monopoly's take, IR-64),
    and a table never undoes either. So no undoable island step needs the sampled-worlds check
    (``tests/games/test_can_reveal.py`` confirms it on random games)."""
    return False
