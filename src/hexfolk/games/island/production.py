"""Production (IR-35..IR-37, IR-44): the roll of the dice and the cards the hexes pay.

A roll that is not a 7 pays every settlement (1 card) and city (2 cards) next to a hex with
that number, except the hex under the robber (IR-44); when the bank cannot pay everyone a
resource, IR-37 decides who gets it. A 7 is the robber's (:func:`~.robber.seven`).

What a roll pays depends only on the buildings and the robber, so it is memoized per dice sum
in ``income`` (shared by clones, replaced on every building change: :func:`touch_income`).
"""

from __future__ import annotations

from typing import Any

from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import bundle_text
from hexfolk.games.island.log import Note
from hexfolk.games.island.phases import DICE, MAIN
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.robber import seven
from hexfolk.games.island.rules import DICE_PIPS, DICE_SUMS, DICE_TOTAL, NRES, ROBBER_SUM
from hexfolk.games.island.stats import (
    F_BLOCKED,
    F_GAIN,
    F_ROLLS,
    F_SHORTAGE,
    G_PROD,
    PER_SEAT,
    SEATS_AT,
)

DICE_OUTCOMES: tuple[tuple[A.DiceOutcome, float], ...] = tuple(
    (A.DICE[total], DICE_PIPS[total] / DICE_TOTAL) for total in DICE_SUMS
)
"""The dice sums with their probabilities (the chance outcomes of the roll)."""
DICE_BY_PIP: tuple[A.DiceOutcome, ...] = tuple(
    A.DICE[total] for total in DICE_SUMS for _ in range(DICE_PIPS[total])
)
"""The dice outcome of each of the ``DICE_TOTAL`` equally likely pips, in sum order."""


class ProductionText:
    """A production log line, formatted only when someone reads it (keeps rolls cheap)."""

    __slots__ = ("paid",)

    def __init__(self, paid: tuple[tuple[int, int, int], ...]):
        self.paid = paid
        """(seat, resource, cards), sorted by seat then resource."""

    def __str__(self) -> str:
        parts = []
        seats = sorted({o for o, _, _ in self.paid})
        for q in seats:
            cards = [0] * NRES
            for o, r, k in self.paid:
                if o == q:
                    cards[r] += k
            parts.append(f"seat {q} gets {bundle_text(tuple(cards))}")
        return "; ".join(parts)

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.paid)


def roll(s: IslandPosition, a: A.Roll) -> None:
    """IR-24: the active player rolls (the dice are the next, chance, step)."""
    s.phase = DICE


def dice(s: IslandPosition, a: A.DiceOutcome) -> None:
    """IR-35: the dice show ``a.total``; a 7 goes to the robber (IR-41), any other sum
    produces (IR-36, IR-37) and the main phase begins."""
    total = a.total
    p = s.active
    s.rolled = True
    st = s.stats
    st[total] += 1  # the dice histogram is at the start of the list
    st[SEATS_AT + p * PER_SEAT + F_ROLLS + total] += 1
    s.log.append((None, s.texts.roll[p][total]))
    if total != ROBBER_SUM:
        produce(s, total)
        s.phase = MAIN
        s.seat = p
        return
    seven(s)


def produce(s: IslandPosition, total: int) -> None:
    """IR-35..IR-37: pay every building next to a hex with token ``total``."""
    robber = s.robber
    tables = s.layout_tables
    assert tables is not None
    # the robber only matters for this roll when it stands on a hex with token total
    key = total + 16 * (robber + 1) if robber >= 0 and tables.tokens[robber] == total else total
    income = s.income
    entry = income.get(key)
    if entry is None:
        entry = income[key] = compute_income(s, total)
    blocked, due, need, owners, text, notes = entry
    st = s.stats
    if blocked:
        for i, k in blocked:  # IR-44: the robber's hex produces nothing
            st[i] += k
        s.log.extend(notes)
    if not due:
        return
    bank = s.bank
    hands = s.hands
    for r, k in need:
        if bank[r] < k:
            break
    else:  # IR-37 (a) for every resource
        for o, r, k, i in due:
            hands[o][r] += k
            bank[r] -= k
            st[i] += k
        s.log.append((None, text))
        return
    short = [False] * NRES  # decided before anyone is paid
    for r, k in need:
        short[r] = k > bank[r]
    base = SEATS_AT + F_SHORTAGE
    paid: list[tuple[int, int, int]] = []
    unpaid: list[tuple[int, int, int]] = []
    for o, r, k, i in due:
        if short[r]:
            if owners[r] > 1:  # IR-37 (c): nobody gets this resource
                st[base + o * PER_SEAT] += k
                unpaid.append((o, r, k))
                continue
            st[base + o * PER_SEAT] += k - bank[r]  # IR-37 (b): the sole owed player gets the rest
            unpaid.append((o, r, k - bank[r]))
            k = bank[r]
            if not k:
                continue
        hands[o][r] += k
        bank[r] -= k
        st[i] += k
        paid.append((o, r, k))
    if paid:
        s.log.append((None, ProductionText(tuple(paid))))
    for o, r, k in unpaid:
        s.log.append((None, Note(f"the bank is short of {_one(r, k)} for seat {o}")))


def compute_income(s: IslandPosition, total: int) -> tuple[Any, ...]:
    """What a roll of ``total`` pays with the robber where it stands: blocked income as
    (statistics index, cards), cards due as (seat, resource, cards, statistics index) sorted
    by seat and resource, total due and number of owed seats per resource, the log text
    of a full payout and the log entries (:class:`~.log.Note`) of the income the robber
    blocks (IR-44); the totals due are (resource, cards) pairs. Cached in
    ``s.income`` (see :func:`touch_income`)."""
    assert s.layout_tables is not None
    no, lv = s.node_owner, s.node_level
    robber = s.robber
    owed: dict[int, int] = {}
    blocked: dict[int, int] = {}
    for h, r, nodes in s.layout_tables.production.get(total, ()):
        for v in nodes:
            o = no[v]
            if o >= 0:
                if h == robber:
                    blocked[o] = blocked.get(o, 0) + lv[v]
                else:
                    owed[o * NRES + r] = owed.get(o * NRES + r, 0) + lv[v]
    blocked_res = s.layout_tables.layout.terrain[robber] if robber >= 0 else NRES
    notes = tuple(
        (None, Note(f"the robber on hex {robber} blocks {_one(blocked_res, k)} for seat {o}"))
        for o, k in sorted(blocked.items())
    )
    need = [0] * NRES
    owners = [0] * NRES
    due = []
    for key in sorted(owed):
        o, r = divmod(key, NRES)
        need[r] += owed[key]
        owners[r] += 1
        due.append((o, r, owed[key], SEATS_AT + o * PER_SEAT + F_GAIN + G_PROD * NRES + r))
    return (
        tuple((SEATS_AT + o * PER_SEAT + F_BLOCKED, k) for o, k in sorted(blocked.items())),
        tuple(due),
        tuple((r, k) for r, k in enumerate(need) if k),
        tuple(owners),
        ProductionText(tuple((o, r, k) for o, r, k, _ in due)),
        notes,
    )


def _one(r: int, k: int) -> str:
    """``k`` cards of resource ``r`` as a bundle (``"2o"``)."""
    cards = [0] * NRES
    cards[r] = k
    return bundle_text(tuple(cards))


def touch_income(s: IslandPosition, v: int) -> None:
    """A building on ``v`` was placed or upgraded: drop the cached income of the dice sums
    around it. The cache dict is replaced, never changed here, so clones that share it keep
    entries that are still right for them."""
    assert s.layout_tables is not None
    sums = s.layout_tables.node_sums[v]
    # always a new dict, even from an empty one: an empty memo is shared with clones too,
    # and entries this state adds after the change must not reach them (issue 11)
    s.income = {k: e for k, e in s.income.items() if k & 15 not in sums}
