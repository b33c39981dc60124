"""Production (IR-35..IR-37, IR-44): the roll of the dice and the cards the hexes pay.

A roll that is not a 7 pays every settlement (1 card) and city (2 cards) next to a hex with
that number, except the hex under the robber (IR-44); when the bank cannot pay everyone a
resource, IR-37 decides who gets it. A 7 is the robber's (:func:`~.robber.seven`).

What a roll pays depends only on the buildings and the robber, so it is memoized per dice sum
in ``income`` (an :class:`Income` per key; shared by clones, replaced on every building change:
:func:`touch_income`).

The public read API of production, for bots and tools, over the board's plain lists
(``layout_tables``, ``node_owner``, ``node_level``), so a bot's picture of the board built from
its observation serves as well as a position:

* :func:`hex_income` (IR-35): the cards one hex pays each seat;
* :func:`roll_income` (IR-35, IR-44): what one roll owes everyone before the bank's shortage
  (IR-37). :func:`compute_income`, and so every production step, pays from it;
* :func:`seat_production`: :func:`roll_income` for one seat, per dice sum;
* :func:`node_yields`: the producing hexes around each intersection, from the same per-dice-sum
  table ``layout_tables.production`` the payout reads; :func:`hex_pips`: how many of the 36
  dice outcomes make a hex produce.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from hexfolk.core import LogLine
from hexfolk.games.island import actions as A
from hexfolk.games.island.board import LayoutTables
from hexfolk.games.island.log import LogEntry
from hexfolk.games.island.log_forms import LOG, cards_json
from hexfolk.games.island.phases import DICE, MAIN
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.robber import seven
from hexfolk.games.island.rules import (
    DICE_PIPS,
    DICE_SUMS,
    DICE_TOTAL,
    NRES,
    ROBBER_SUM,
)
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
    """A production log line (form ``production``), made only when someone reads it (keeps
    rolls cheap): :meth:`line` gives the :class:`~hexfolk.core.LogLine`, ``str`` its text."""

    __slots__ = ("made", "paid")

    def __init__(self, paid: tuple[tuple[int, int, int], ...]):
        self.paid = paid
        """(seat, resource, cards), sorted by seat then resource."""
        self.made: LogLine | None = None
        """The line, once made (a function of ``paid`` only)."""

    def line(self) -> LogLine:
        """The ``production`` line: ``paid`` lists ``{seat, cards}`` per seat paid."""
        made = self.made
        if made is None:
            parts = []
            for q in sorted({o for o, _, _ in self.paid}):
                cards = [0] * NRES
                for o, r, k in self.paid:
                    if o == q:
                        cards[r] += k
                parts.append({"seat": q, "cards": cards_json(cards)})
            made = self.made = LOG.line("production", paid=parts)
        return made

    def __str__(self) -> str:
        return str(self.line())

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.paid)

    def __getstate__(self) -> tuple[tuple[tuple[int, int, int], ...]]:
        return (self.paid,)

    def __setstate__(self, state: tuple[tuple[tuple[int, int, int], ...]]) -> None:
        self.paid = state[0]
        self.made = None


class NodeYield(NamedTuple):
    """A producing hex next to an intersection: a building there collects ``resource`` from
    ``hex`` whenever the dice show ``token`` (IR-35)."""

    hex: int
    resource: int
    token: int


@lru_cache(maxsize=256)
def node_yields(layout_tables: LayoutTables) -> tuple[tuple[NodeYield, ...], ...]:
    """IR-35: per intersection, the producing hexes around it (deserts produce nothing, IR-10),
    read from the per-dice-sum table ``layout_tables.production`` that :func:`produce` pays
    from. Cached per layout."""
    out: list[list[NodeYield]] = [[] for _ in range(layout_tables.topology.num_nodes)]
    for token, entries in layout_tables.production.items():
        for h, r, nodes in entries:
            for v in nodes:
                out[v].append(NodeYield(h, r, token))
    return tuple(tuple(x) for x in out)


def hex_pips(layout_tables: LayoutTables, h: int) -> int:
    """IR-35: how many of the ``DICE_TOTAL`` (36) equally likely dice outcomes show hex ``h``'s
    token (0 for the desert): the weight of the probabilities :data:`DICE_OUTCOMES` lists."""
    return DICE_PIPS.get(layout_tables.tokens[h], 0)


def hex_income(
    layout_tables: LayoutTables, node_owner: Sequence[int], node_level: Sequence[int], h: int
) -> dict[int, int]:
    """IR-35: the cards hex ``h`` pays when its token is rolled, per seat: 1 for each adjacent
    settlement, 2 for each adjacent city (``node_level``), whoever rolled. The robber is not
    looked at here (see :func:`roll_income`)."""
    out: dict[int, int] = {}
    for v in layout_tables.topology.hex_nodes[h]:
        o = node_owner[v]
        if o >= 0:
            out[o] = out.get(o, 0) + node_level[v]
    return out


class RollIncome(NamedTuple):
    """What one roll of the dice pays, before the bank's shortage rule (IR-37)."""

    owed: tuple[tuple[int, int, int], ...]
    """(seat, resource, cards) owed by the hexes with the rolled token (IR-35), sorted by seat
    then resource."""
    blocked: tuple[tuple[int, int], ...]
    """(seat, cards) the robber's hex would have paid (IR-44), sorted by seat."""


def roll_income(
    layout_tables: LayoutTables,
    node_owner: Sequence[int],
    node_level: Sequence[int],
    total: int,
    robber: int = -1,
) -> RollIncome:
    """IR-35, IR-44: what a roll of ``total`` owes every seat with the robber on hex
    ``robber`` (-1: on no hex): :func:`hex_income` of each hex with that token, except the
    robber's, whose income is blocked. A 7 (or a sum no token shows) owes nothing. The bank's
    shortage (IR-37) is applied by :func:`produce` afterwards."""
    owed: dict[int, int] = {}  # seat * NRES + resource -> cards
    blocked: dict[int, int] = {}
    for h, r, _nodes in layout_tables.production.get(total, ()):
        income = hex_income(layout_tables, node_owner, node_level, h)
        if h == robber:
            for o, k in income.items():
                blocked[o] = blocked.get(o, 0) + k
        else:
            for o, k in income.items():
                key = o * NRES + r
                owed[key] = owed.get(key, 0) + k
    return RollIncome(
        tuple((key // NRES, key % NRES, owed[key]) for key in sorted(owed)),
        tuple(sorted(blocked.items())),
    )


def seat_production(
    layout_tables: LayoutTables,
    node_owner: Sequence[int],
    node_level: Sequence[int],
    seat: int,
    robber: int = -1,
) -> dict[int, tuple[int, ...]]:
    """IR-35, IR-44: the cards per resource ``seat`` is owed on each dice sum that some token
    shows, with the robber on hex ``robber`` (-1: on no hex): :func:`roll_income`'s owed cards
    (what the production step pays when the bank holds enough, IR-37 (a)). Sums that pay the
    seat nothing are listed with zeros. Cached per board (the buildings and the robber)."""
    table = _production_table(layout_tables, tuple(node_owner), tuple(node_level), robber)
    by_seat, nothing = table
    return dict(by_seat.get(seat, nothing))


@lru_cache(maxsize=256)
def _production_table(
    layout_tables: LayoutTables,
    node_owner: tuple[int, ...],
    node_level: tuple[int, ...],
    robber: int,
) -> tuple[dict[int, dict[int, tuple[int, ...]]], dict[int, tuple[int, ...]]]:
    """:func:`seat_production` of every seat with buildings, and the table of a seat without."""
    totals = sorted(layout_tables.production)
    nothing = dict.fromkeys(totals, (0,) * NRES)
    cards: dict[int, dict[int, list[int]]] = {}
    for total in totals:
        for o, r, k in roll_income(layout_tables, node_owner, node_level, total, robber).owed:
            if o not in cards:
                cards[o] = {t: [0] * NRES for t in totals}
            cards[o][total][r] += k
    by_seat = {o: {t: tuple(x) for t, x in per.items()} for o, per in cards.items()}
    return by_seat, nothing


class Income(NamedTuple):
    """What a roll of one dice sum pays with the robber where it stands: an entry of the
    memo ``income`` (:func:`compute_income`, read by :func:`produce`)."""

    blocked: tuple[tuple[int, int], ...]
    """Income the robber blocks (IR-44), as (statistics index, cards)."""
    due: tuple[tuple[int, int, int, int], ...]
    """Cards owed (IR-35), as (seat, resource, cards, statistics index), sorted by seat and
    resource."""
    need: tuple[tuple[int, int], ...]
    """Total owed per resource, as (resource, cards), for the resources owed at all (IR-37)."""
    owners: tuple[int, ...]
    """Number of owed seats per resource (IR-37 (b)/(c))."""
    text: ProductionText
    """The log line of a full payout."""
    notes: tuple[LogEntry, ...]
    """The log entries of the income the robber blocks (IR-44): notes (written lines of the
    form ``blocked``, each a :class:`~.log.Note` once made)."""


def roll(s: IslandPosition, seat: int, a: A.Roll) -> None:
    """IR-24: the active player rolls (the dice are the next, chance, step)."""
    s.phase = DICE


def dice(s: IslandPosition, seat: int, a: A.DiceOutcome) -> None:
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
        s.log.append((None, ("short", _one(r, k), o)))


def compute_income(s: IslandPosition, total: int) -> Income:
    """What a roll of ``total`` pays with the robber where it stands (:func:`roll_income`), with
    the statistics indexes and log entries :func:`produce` needs (an :class:`Income`). Cached
    in ``s.income`` (see :func:`touch_income`)."""
    tables = s.layout_tables
    assert tables is not None
    robber = s.robber
    owed, blocked = roll_income(tables, s.node_owner, s.node_level, total, robber)
    blocked_res = tables.layout.terrain[robber] if robber >= 0 else NRES
    notes: tuple[LogEntry, ...] = tuple(
        (None, ("blocked", robber, _one(blocked_res, k), o)) for o, k in blocked
    )
    need = [0] * NRES
    owners = [0] * NRES
    due = []
    for o, r, k in owed:
        need[r] += k
        owners[r] += 1
        due.append((o, r, k, SEATS_AT + o * PER_SEAT + F_GAIN + G_PROD * NRES + r))
    return Income(
        tuple((SEATS_AT + o * PER_SEAT + F_BLOCKED, k) for o, k in blocked),
        tuple(due),
        tuple((r, k) for r, k in enumerate(need) if k),
        tuple(owners),
        ProductionText(tuple((o, r, k) for o, r, k, _ in due)),
        notes,
    )


def _one(r: int, k: int) -> A.Bundle:
    """``k`` cards of resource ``r`` as a written bundle (counts by resource)."""
    return tuple(k if i == r else 0 for i in range(NRES))


def touch_income(s: IslandPosition, v: int) -> None:
    """A building on ``v`` was placed or upgraded: drop the cached income of the dice sums
    around it. The cache dict is replaced, never changed here, so clones that share it keep
    entries that are still right for them."""
    assert s.layout_tables is not None
    sums = s.layout_tables.node_sums[v]
    # always a new dict, even from an empty one: an empty memo is shared with clones too,
    # and entries this state adds after the change must not reach them (issue 11)
    s.income = {k: e for k, e in s.income.items() if k & 15 not in sums}
