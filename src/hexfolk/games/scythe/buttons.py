"""Scythe's standing buttons: the four sections of a player mat (``section 1`` .. ``section 4``,
SR-6), which a table page can show a seat at all times, legal now or not, so the table server
sends the reason of each one not legal (:meth:`~hexfolk.core.State.standing_actions`,
``docs/protocol.md``, the view's ``refused``): "you used section 2 last turn; the token must
move to another (SR-6)", or whose decision it is.

``section factory`` is not standing: it exists only while the seat holds a Factory card, and
a page shows it then (its reasons stay in :mod:`.reasons`). The reasons for the four sections
speak of the seat's last section, its faction's ability and whose decision it is — all public.
"""

from __future__ import annotations

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import ChooseSection

STANDING: tuple[Action, ...] = tuple(ChooseSection(s) for s in range(D.MAT_SECTIONS))
"""``section 1`` .. ``section 4`` (0-based sections 0..3 of the mat)."""


def standing_actions(seat: int) -> list[Action]:
    """Scythe's standing actions for ``seat`` (the same for every seat)."""
    del seat
    return list(STANDING)
