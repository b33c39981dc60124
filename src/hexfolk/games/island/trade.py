"""Trade (IR-48..IR-55): maritime trades with the bank and harbors, and player offers.

Offers never block (rules version 2): every other seat answers in any order (accept, reject or
counter) while the proposer plays on; the proposer completes one acceptance or counter, or
withdraws; an offer rejected by everyone cannot be repeated this turn (IR-51). Listings use the
bounded canonical catalogue of :mod:`.actions` (1 held card for 1 card not held).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hexfolk.core import Action
from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import MARITIME_LOT, OFFERS_BY_HELD, ONE, Bundle
from hexfolk.games.island.hands import gain, lose, reveal
from hexfolk.games.island.phases import ANSWER, DISCARD, MAIN, SPECIAL_BUILD_SIGNUP
from hexfolk.games.island.position import (
    ACCEPT,
    REJECT,
    Answer,
    IslandPosition,
    OpenOffer,
    Reply,
    addressees_answers,
    first_unanswered,
    holds,
    offer_by_id,
    to_main,
    unanswered,
)
from hexfolk.games.island.rules import BANK_RATIO, NRES
from hexfolk.games.island.stats import (
    F_COUNTERS,
    F_GAIN,
    F_MARITIME,
    F_OFFERS,
    F_TRADES,
    G_BANK,
    G_HARBOR,
    G_TRADE,
    L_BANK,
    L_HARBOR,
    L_TRADE,
    PER_SEAT,
    SEATS_AT,
)

OFFER_BIT: dict[tuple[Bundle, Bundle], int] = {
    (o.give, o.get): 1 << i
    for i, o in enumerate(dict.fromkeys(o for row in OFFERS_BY_HELD for o in row))
}
"""One bit per canonical offer, by its (give, get): a set of them as one int."""
HELD_OFFER_BITS: tuple[int, ...] = tuple(
    sum(OFFER_BIT[(o.give, o.get)] for o in row) for row in OFFERS_BY_HELD
)
"""By the set of resource types held: the bits of the canonical offers listed for it."""


@lru_cache(maxsize=2048)  # keys: 32 held sets x the subsets of their <= 6 offers (1,442 in all)
def offers_left(mask: int, skip: int) -> tuple[A.Offer, ...]:
    """The canonical offers of a hand holding the types ``mask`` (:data:`OFFERS_BY_HELD`)
    but those in ``skip`` (bits of :data:`OFFER_BIT`, among :data:`HELD_OFFER_BITS`)."""
    return tuple(o for o in OFFERS_BY_HELD[mask] if not OFFER_BIT[(o.give, o.get)] & skip)


def answers(s: IslandPosition, p: int) -> list[Action]:
    """Answers of ``p`` to every open offer it has not answered, by offer number."""
    hand = s.hands[p]
    out: list[Action] = []
    for offer in s.offers:
        if offer.answers[p] is not None:
            continue
        oid = offer.id
        if holds(hand, offer.get):
            out.append(A.accept_of(oid))
        out.append(A.reject_of(oid))
        # canonical counters: give 1 card of a held type instead, for the same cards
        wanted = offer.give
        if any(wanted):
            for t in range(NRES):
                if hand[t] and not wanted[t]:
                    give = ONE[t]
                    if give != offer.get:
                        out.append(A.Counter(give, wanted, oid))
    return out


def can_complete(s: IslandPosition, o: OpenOffer, seat: int) -> bool:
    """IR-50: whether the proposer can take ``seat``'s acceptance or counter-offer now (both
    hands still hold the cards)."""
    ans = o.answers[seat]
    p = s.active
    if ans == ACCEPT:
        return holds(s.hands[p], o.give) and holds(s.hands[seat], o.get)
    if isinstance(ans, tuple):
        give, get = ans  # from seat's side
        return holds(s.hands[p], get) and holds(s.hands[seat], give)
    return False


def valid_pair(s: IslandPosition, give: Bundle, get: Bundle) -> bool:
    """IR-49: a trade gives and gets something, never the same resource on both sides."""
    if not any(give) and not any(get):
        return False
    return not any(g and t for g, t in zip(give, get))


def counter_ok(s: IslandPosition, p: int, a: A.Counter) -> bool:
    """IR-50: a counter-offer by ``p`` to an open offer it has not answered."""
    offer = offer_by_id(s, a.offer)
    return (
        offer is not None
        and p != s.active
        and offer.answers[p] is None
        and valid_pair(s, a.give, a.get)
        and (a.give, a.get) != (offer.get, offer.give)
        and holds(s.hands[p], a.give)
    )


def maritime_ok(s: IslandPosition, p: int, give: Bundle, get: Bundle) -> bool:
    """IR-52..IR-54: whole lots at ``p``'s ratios, one card per lot, as the bank holds."""
    ratio = s.ratio[p]
    hand = s.hands[p]
    lots = 0
    for r in range(NRES):
        g = give[r]
        if g:
            if get[r] or g % ratio[r] or hand[r] < g:
                return False
            lots += g // ratio[r]
    return lots > 0 and sum(get) == lots and all(b >= x for b, x in zip(s.bank, get))


def maritime_trade(s: IslandPosition, seat: int, a: A.MaritimeTrade) -> None:
    """IR-52..IR-54: a maritime trade with the bank (a harbor's ratio where ``p`` has one)."""
    p = seat
    lot = MARITIME_LOT.get((a.give, a.get))
    if lot is not None:  # a listed single lot: its ratio is the player's ratio for r
        k, r, took = lot
        if k < BANK_RATIO:
            sink, src = L_HARBOR, G_HARBOR
        else:
            sink, src = L_BANK, G_BANK
        lose(s, p, r, k, sink)
        st = s.stats
        base = SEATS_AT + p * PER_SEAT
        st[base + F_MARITIME + k - 2] += 1
        s.hands[p][took] += 1
        s.bank[took] -= 1
        st[base + F_GAIN + src * NRES + took] += 1
        s.log.append((None, s.texts.trade[p][lot]))
        return
    harbor = any(a.give[r] and s.ratio[p][r] < BANK_RATIO for r in range(NRES))
    sink, src = (L_HARBOR, G_HARBOR) if harbor else (L_BANK, G_BANK)
    for r in range(NRES):
        if a.give[r]:
            lose(s, p, r, a.give[r], sink)
            s.stats[SEATS_AT + p * PER_SEAT + F_MARITIME + s.ratio[p][r] - 2] += (
                a.give[r] // s.ratio[p][r]
            )
        if a.get[r]:
            gain(s, p, r, a.get[r], src)
    s.log.append((None, ("trade", p, a.give, a.get)))


def make_offer(s: IslandPosition, seat: int, a: A.Offer) -> None:
    """IR-49/IR-50: an offer to every other seat. It never blocks: the other seats answer
    in any order (seats with ``decline-all on`` reject at once) while the proposer plays
    on; the sequential walk asks the seats in order after the proposer first."""
    p = s.active
    declined = s.decline_all
    answers: list[Answer] = [None] * s.n
    if declined:
        answers = [REJECT if q != p and declined >> q & 1 else None for q in range(s.n)]
    o = OpenOffer(s.next_offer, a.give, a.get, answers)
    s.next_offer += 1
    s.offers.append(o)
    s.stats[SEATS_AT + p * PER_SEAT + F_OFFERS] += 1
    s.log.append((None, ("offers", p, o.id, a.give, a.get)))
    if declined:  # the seats with decline-all on answered at once (else none has yet)
        after_answer(s, o)
    else:
        to_main(s)


def answer(s: IslandPosition, p: int, o: OpenOffer, value: Reply | tuple[Bundle, Bundle]) -> None:
    """Seat ``p``'s answer to the open offer ``o``, kept by seat (so answers commute). It
    shows in the offer at once; the log line of an offer's answers is written when the last
    addressee answers or the offer closes (:meth:`_log_answers`)."""
    assert o.answers[p] is None
    o.answers[p] = value
    if value == ACCEPT:
        reveal(s, p, o.get)
    elif isinstance(value, tuple):  # a counter-offer
        reveal(s, p, value[0])
        s.stats[SEATS_AT + p * PER_SEAT + F_COUNTERS] += 1
    after_answer(s, o)


def after_answer(s: IslandPosition, o: OpenOffer) -> None:
    """IR-50/IR-51: once every addressee answered, the answers are logged, and an offer
    rejected by all closes."""
    answered = addressees_answers(s, o)
    if None not in answered:
        log_answers(s, o)
        if answered.count(REJECT) == len(answered):
            close_rejected(s, o)
    to_main(s)


def log_answers(s: IslandPosition, o: OpenOffer) -> None:
    """One public line with every addressee's answer to ``o``, in seat order after the
    proposer (so it does not depend on the order the answers arrived in)."""
    texts = s.texts
    parts: list[tuple[Any, ...]] = []
    for q in s.after[s.active]:
        x = o.answers[q]
        if x is None:
            parts.append(texts.silent[q])
        elif x == ACCEPT:
            parts.append(texts.accepts[q])
        elif x == REJECT:
            parts.append(texts.rejects[q])
        elif isinstance(x, tuple):  # a counter-offer
            parts.append((q, "counters", x[0], x[1]))
    s.log.append((None, ("answers", o.id, tuple(parts))))


def close_rejected(s: IslandPosition, o: OpenOffer) -> None:
    """IR-51: rejected by every addressee (unanswered counts as rejected): it closes and
    cannot be re-sent unchanged this turn."""
    s.offers.remove(o)
    s.rejected.append((o.give, o.get))
    s.log.append((None, ("rejected_all", o.id, s.active)))


def offer_answered(s: IslandPosition, p: int, oid: int) -> OpenOffer:
    """The open offer ``p``'s answer names (0: the one offer ``p`` has not answered)."""
    o = offer_by_id(s, oid) if oid else first_unanswered(s, p)
    assert o is not None
    return o


def accept(s: IslandPosition, seat: int, a: A.Accept) -> None:
    """IR-50: the seat accepts an open offer."""
    answer(s, seat, offer_answered(s, seat, a.offer), ACCEPT)


def reject(s: IslandPosition, seat: int, a: A.Reject) -> None:
    """IR-50: the seat rejects an open offer."""
    answer(s, seat, offer_answered(s, seat, a.offer), REJECT)


def counter(s: IslandPosition, seat: int, a: A.Counter) -> None:
    """IR-50: the seat answers an open offer with a counter-offer."""
    answer(s, seat, offer_answered(s, seat, a.offer), (a.give, a.get))


def set_decline_all(s: IslandPosition, seat: int, a: A.DeclineAll) -> None:
    """A seat's standing answer: on rejects every open offer it has not answered and
    every later one as it is made; off asks it again from the next offer."""
    p = seat
    if a.on:
        s.decline_all |= 1 << p
        if p != s.active:
            for o in list(s.offers):
                if o.answers[p] is None:
                    answer(s, p, o, REJECT)
    else:
        s.decline_all &= ~(1 << p)
    if s.phase in (MAIN, ANSWER):
        to_main(s)
    elif s.phase == DISCARD:
        assert s.discards is not None
        nxt = s.discards.next_seat()
        s.seat = s.active if nxt is None else nxt
    elif s.phase == SPECIAL_BUILD_SIGNUP and s.sbp_queue:
        s.seat = s.sbp_queue[0]


def complete_trade(s: IslandPosition, seat: int, a: A.Complete) -> None:
    """IR-50: the proposer takes one acceptance or counter-offer without waiting for the
    other answers (missing answers count as rejections); both hands were re-checked."""
    p = s.active
    o = offer_by_id(s, a.offer)
    assert o is not None
    if unanswered(s, o):
        log_answers(s, o)
    q = a.seat
    ans = o.answers[q]
    if ans == ACCEPT:
        give, get = o.give, o.get
    else:
        assert isinstance(ans, tuple)  # legality: an acceptance or a counter-offer
        get, give = ans  # the counter, from q's side
    for r in range(NRES):
        if give[r]:
            lose(s, p, r, give[r], L_TRADE, to_bank=False)
            s.hands[q][r] += give[r]
            s.stats[SEATS_AT + q * PER_SEAT + F_GAIN + G_TRADE * NRES + r] += give[r]
        if get[r]:
            lose(s, q, r, get[r], L_TRADE, to_bank=False)
            s.hands[p][r] += get[r]
            s.stats[SEATS_AT + p * PER_SEAT + F_GAIN + G_TRADE * NRES + r] += get[r]
    s.offers.remove(o)
    s.stats[SEATS_AT + p * PER_SEAT + F_TRADES] += 1
    s.stats[SEATS_AT + q * PER_SEAT + F_TRADES] += 1
    s.log.append((None, ("trade_with", p, give, get, q, o.id)))
    to_main(s)  # the main phase goes on (with the answers still coming in, if any)


def withdraw_offer(s: IslandPosition, seat: int, a: A.Withdraw) -> None:
    """IR-50/IR-51: the proposer withdraws an offer (unaccepted: it cannot be repeated)."""
    o = offer_by_id(s, a.offer)
    assert o is not None
    if unanswered(s, o):
        log_answers(s, o)
    s.offers.remove(o)
    s.log.append((None, ("withdraws", s.active, o.id)))
    answered = addressees_answers(s, o)
    if answered.count(None) + answered.count(REJECT) == len(answered):
        s.rejected.append((o.give, o.get))  # IR-51: nobody accepted or countered
    if s.offers or s.phase == ANSWER:
        to_main(s)
