"""The island's standing buttons: the actions the browser's table page always shows a seat
(``BUTTONS`` of ``web/table.js``: Roll, Buy a card, Play a knight, Play road building, End the
turn), legal now or not, so the table server can send the reason of each disabled one
(:meth:`~hexfolk.core.State.standing_actions`, ``docs/protocol.md``, the view's ``refused``).

Year of Plenty and Monopoly are not standing: the page shows their buttons only while some
form of them is legal (their forms name cards, so no one form stands for the button). Every
reason of :mod:`.reasons` for these five speaks of the seat's own hand and cards, the bank,
the deck's size, the board or whose decision it is — all in the seat's own observation.
"""

from __future__ import annotations

from hexfolk.core import Action
from hexfolk.games.island import actions as A

STANDING: tuple[Action, ...] = (
    A.Roll(),
    A.BuyDevelopment(),
    A.PlayKnight(),
    A.PlayRoadBuilding(),
    A.EndTurn(),
)
"""The standing actions in the page's order (``roll``, ``buy``, ``play knight``,
``play roads``, ``end``)."""


def standing_actions(seat: int) -> list[Action]:
    """The island's standing actions for ``seat`` (the same for every seat)."""
    del seat
    return list(STANDING)
