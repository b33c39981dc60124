"""Hands of resource cards (IR-74): gaining, losing, paying, and what each observer knows.

Besides the hands themselves the position tracks, for every observer (each seat and the
spectator), how many cards of each player's hand that observer cannot know by type
(``deficit[observer * n + player]``, a tuple per resource or None) after steals between
others; ``uncertain[p]`` marks the resources where some observer has a deficit for ``p``. A
public loss (:func:`lose`) or a reveal (:func:`reveal`) narrows what is unknown.
"""

from __future__ import annotations

from hexfolk.games.island.actions import Bundle
from hexfolk.games.island.position import IslandPosition, with_item
from hexfolk.games.island.rules import NRES
from hexfolk.games.island.stats import F_GAIN, F_LOSS, PER_SEAT, SEATS_AT


def gain(s: IslandPosition, p: int, r: int, k: int, source: int) -> None:
    """``p`` takes ``k`` cards of ``r`` from the bank (counted under ``source``, IR-80)."""
    s.hands[p][r] += k
    s.bank[r] -= k
    s.stats[SEATS_AT + p * PER_SEAT + F_GAIN + source * NRES + r] += k


def lose(s: IslandPosition, p: int, r: int, k: int, sink: int, to_bank: bool = True) -> None:
    """``p`` publicly loses ``k`` cards of ``r`` (to the bank unless ``to_bank`` is False)."""
    hand = s.hands[p]
    old = hand[r]
    hand[r] = old - k
    if to_bank:
        s.bank[r] += k
    s.stats[SEATS_AT + p * PER_SEAT + F_LOSS + sink * NRES + r] += k
    if s.uncertain[p] >> r & 1:
        deficit = s.deficit
        left = False
        for i in range(p, len(deficit), s.n):  # observer o's entry is o * n + p
            d = deficit[i]
            if d is not None and d[r]:
                if old - d[r] < k:
                    d = deficit[i] = with_item(d, r, hand[r])
                if d[r]:
                    left = True
        if not left:
            s.uncertain[p] &= ~(1 << r)


def pay(s: IslandPosition, p: int, cost: Bundle, sink: int) -> None:
    """``p`` pays ``cost`` to the bank (counted under ``sink``, IR-80)."""
    for r in range(NRES):
        if cost[r]:
            lose(s, p, r, cost[r], sink)


def reveal(s: IslandPosition, p: int, cards: Bundle) -> None:
    """Everyone learns that ``p`` holds at least ``cards`` (an accepted offer or counter)."""
    if not s.uncertain[p]:
        return
    hand = s.hands[p]
    deficit = s.deficit
    for i in range(p, len(deficit), s.n):  # observer o's entry is o * n + p
        d = deficit[i]
        if d is not None:
            for r in range(NRES):
                if cards[r] and hand[r] - d[r] < cards[r]:
                    d = with_item(d, r, hand[r] - cards[r])
            deficit[i] = d
