"""Combat judgement (SR-42..SR-46): strength estimates and a mixed commit strategy.

Everything here reads only what the deciding seat may know: its own hand, power and units,
the opponent's power, card count and unit count on the territory (public), the face-up
discard pile and the cards it saw with Scout. The opponent's unknown cards are treated as
draws from the cards the seat cannot account for.

The commit is a *mixed* strategy: a target total is drawn at random around what the opponent
can probably reach, then the cheapest commitment meeting it is played. It never always plays
the maximum, and a hopeless fight is answered with a cheap card (a loser who revealed
something draws a card back, SR-43 C7) or nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from hexfolk.bots.scythe.weights import DEFAULT, Weights
from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import Commit
from hexfolk.games.scythe.state import ScytheState

NV = len(D.CARD_VALUES)


@dataclass(frozen=True, slots=True)
class Strength:
    """What a seat can put into a combat: ``most`` at best, ``likely`` if it goes all in."""

    most: int
    likely: float


def unseen_pool(s: ScytheState, viewer: int) -> list[int]:
    """Counts per card value that ``viewer`` cannot place: the full deck minus its own hand,
    the face-up discard and the cards it knows others hold."""
    n = s.n
    pool = list(D.DECK_COUNTS)
    for i in range(NV):
        pool[i] -= s.hand[viewer * NV + i] + s.combat_discard[i]
        for q in range(n):
            if q != viewer:
                pool[i] -= s.known_cards[(viewer * n + q) * NV + i]
        pool[i] = max(0, pool[i])
    return pool


def own_strength(s: ScytheState, p: int, slots: int) -> Strength:
    """``p``'s best total with ``slots`` cards allowed (its hand is its own knowledge)."""
    dial = min(D.DIAL_MAX, s.power[p])
    cards = sorted(
        (D.CARD_VALUES[i] for i in range(NV) for _ in range(s.hand[p * NV + i])), reverse=True
    )
    best = dial + sum(cards[:slots])
    return Strength(best, float(best))


def opponent_strength(s: ScytheState, viewer: int, q: int, slots: int) -> Strength:
    """What ``viewer`` can tell of ``q``'s total with ``slots`` cards allowed."""
    n = s.n
    dial = min(D.DIAL_MAX, s.power[q])
    count = sum(s.hand[q * NV : q * NV + NV])  # the count is public (SR-59)
    k = min(slots, count)
    known = sorted(
        (
            D.CARD_VALUES[i]
            for i in range(NV)
            for _ in range(s.known_cards[(viewer * n + q) * NV + i])
        ),
        reverse=True,
    )
    pool = unseen_pool(s, viewer)
    size = sum(pool)
    mean = sum(D.CARD_VALUES[i] * pool[i] for i in range(NV)) / size if size else 0.0
    unknown = max(0, k - len(known))
    top_pool = sorted((D.CARD_VALUES[i] for i in range(NV) for _ in range(pool[i])), reverse=True)[
        :unknown
    ]
    most = dial + sum(known[:k]) + sum(top_pool)
    # the likely best hand of k cards from count draws: a little above the mean
    boost = 0.5 if count > k else 0.0
    likely = dial + sum(known[:k]) + unknown * (mean + boost)
    return Strength(most, likely)


def combat_slots(s: ScytheState, p: int, loc: int, extra: int = 0) -> int:
    """Cards ``p`` may add on ``loc`` (SR-43 C2), with ``extra`` more character/mechs."""
    return s.commit_limit(p, loc) + extra


def _cost(a: Commit, w: Weights) -> float:
    return a.dial * w.power + len(a.cards) * w.card + 0.05 * sum(a.cards)


def _total(a: Commit) -> int:
    return a.dial + sum(a.cards)


def cheapest_reaching(options: Sequence[Commit], target: float, w: Weights) -> Commit:
    """The cheapest commitment with a total of at least ``target`` (else the strongest)."""
    good = [a for a in options if _total(a) >= target]
    if not good:
        return max(options, key=lambda a: (_total(a), -_cost(a, w)))
    return min(good, key=lambda a: (_cost(a, w), _total(a)))


def choose_commit(
    s: ScytheState,
    p: int,
    legal: Sequence[Action],
    rng: random.Random,
    w: Weights = DEFAULT,
    noise: float = 1.0,
) -> Action:
    """A mixed commitment for ``p`` in the pending combat (prompt ``commit``).

    ``noise`` scales the spread of the target (0: a pure strategy around the estimate).
    """
    options = [a for a in legal if isinstance(a, Commit)]
    if not options:
        return legal[0]
    combat = s.combat
    assert combat is not None
    loc, att, dfd = combat.territory, combat.attacker, combat.defender
    q = dfd if p == att else att
    need_more = 0 if p == att else 1  # SR-43 C3: ties go to the attacker
    mine = max(_total(a) for a in options)
    opp = opponent_strength(s, p, q, s.commit_limit(q, loc))
    sure = opp.most + need_more
    if mine >= sure:
        # a sure win is on hand: usually pay for it, sometimes shave (the opponent rarely maxes)
        if rng.random() < 0.25 * noise:
            target = max(opp.likely + need_more - 1, 0.0)
        else:
            target = float(sure)
        return cheapest_reaching(options, target, w)
    if mine < opp.likely - 2:
        # hopeless: save power; a cheap card or a 1 on the dial buys a card back (C7)
        r = rng.random()
        cheap = [a for a in options if 0 < _total(a) <= 2]
        if cheap and r < 0.7:
            return min(cheap, key=lambda a: (_cost(a, w), _total(a)))
        if r < 0.85:
            return min(options, key=lambda a: (_total(a), _cost(a, w)))
        return cheapest_reaching(options, mine, w)
    # contested: draw a target between a bit under the opponent's likely total and our best
    lo = max(0.0, opp.likely + need_more - 2.0 * noise)
    hi = float(mine)
    if hi <= lo:
        target = hi
    else:
        mode = min(hi, opp.likely + need_more + 1)
        target = rng.triangular(lo, hi, mode)
    return cheapest_reaching(options, target, w)


def win_chance(s: ScytheState, p: int, q: int, loc: int, my_slots: int, attacking: bool) -> float:
    """A rough probability that ``p`` beats ``q`` on ``loc`` with ``my_slots`` cards."""
    me = own_strength(s, p, my_slots)
    opp = opponent_strength(s, p, q, s.commit_limit(q, loc))
    margin = me.most - opp.likely + (0.5 if attacking else -0.5)
    if me.most >= opp.most + (0 if attacking else 1):
        return 0.97
    return max(0.02, min(0.95, 0.5 + margin / 6.0))
