"""Trading by the bots' own needs: section 15 of the rules (IR-76, IR-77).

Every bot has a build target (:func:`~hexfolk.bots.island.heuristics.choose_target`) and a
shortfall S (cards it lacks for it). For a trade, ``g`` = S before - S after and ``c`` = cards
received - cards given; a card is surplus when giving it away does not raise S.

Everything here reads the seat's own view only (:class:`Pos` and the observation's offers and
log).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from hexfolk.bots.island.heuristics import Target, shortfall
from hexfolk.bots.island.view import CONFIG, Pos, bundle_of
from hexfolk.core import Action
from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import Bundle
from hexfolk.games.island.rules import MAX_OPEN_OFFERS, NRES, RESOURCES

LEVELS: dict[str, dict[str, Any]] = CONFIG["levels"]

OFFERS_TO_PEOPLE: int = int(CONFIG["offers_per_turn_to_people"])
"""At a table where a person may answer, a bot makes at most this many offers per turn, at
every level (issue 27: one medium bot made 42 offers in a 24-round game, and a person
answered "reject" 67 times)."""


@dataclass(frozen=True, slots=True)
class LevelRules:
    """The trading column of IR-77 for one level (numbers from ``data/levels.json``)."""

    name: str
    offers_per_turn: int
    offer_shapes: tuple[tuple[int, int], ...]
    """(cards given, cards asked) of its own offers, in the order tried."""
    counter_min_c: int
    """Lowest c it takes when completing its own offers' counters."""
    offerer_margin: int | None
    """Accepts only from offerers with visible VP <= target - margin (None: anyone)."""
    avoid_sole_leader: bool
    trades_per_round: int | None
    counters: bool
    ask_extra: bool
    check_maritime: bool
    offer_to_leader: bool

    @classmethod
    def of(cls, level: str) -> LevelRules:
        d = LEVELS[level]
        margin = d["offerer_max_vp_below_target"]
        per_round = d["trades_per_opponent_per_round"]
        return cls(
            name=level,
            offers_per_turn=int(d["offers_per_turn"]),
            offer_shapes=tuple((int(a), int(b)) for a, b in d["offer_shapes"]),
            counter_min_c=int(d["counter_min_c"]),
            offerer_margin=None if margin is None else int(margin),
            avoid_sole_leader=bool(d["avoid_sole_leader"]),
            trades_per_round=None if per_round is None else int(per_round),
            counters=bool(d["counters"]),
            ask_extra=bool(d["ask_extra"]),
            check_maritime=bool(d["check_maritime"]),
            offer_to_leader=bool(d["offer_to_leader"]),
        )


def effect(hand: Sequence[int], target: Target, receive: Bundle, give: Bundle) -> tuple[int, int]:
    """``(g, c)`` of receiving ``receive`` for ``give`` (IR-76 model)."""
    after = [h + r - x for h, r, x in zip(hand, receive, give)]
    return target.shortfall(list(hand)) - shortfall(after, target.cost), sum(receive) - sum(give)


def can_pay(hand: Sequence[int], give: Bundle) -> bool:
    return all(h >= x for h, x in zip(hand, give))


def surplus(hand: Sequence[int], target: Target) -> list[int]:
    """Surplus cards per resource: how many can go without raising S."""
    return [max(0, h - c) for h, c in zip(hand, target.cost)]


def missing(hand: Sequence[int], target: Target) -> list[int]:
    return [max(0, c - h) for h, c in zip(hand, target.cost)]


# --- the log (its entries' forms and params, docs/log.md; never their sentences) ----------------
def _counts(cards: dict[str, int]) -> Bundle:
    return tuple(int(cards.get(r, 0)) for r in RESOURCES)


def _form(line: Any) -> str | None:
    return getattr(line, "form", None)


def offers_this_turn(log: Sequence[str], seat: int) -> list[tuple[Bundle, Bundle]]:
    """The offers ``seat`` has made in the current turn (the public log's ``offers`` lines
    since the last ``ends``)."""
    out: list[tuple[Bundle, Bundle]] = []
    for line in reversed(log):
        form = _form(line)
        if form == "ends":
            break
        if form == "offers" and line.params["seat"] == seat:  # type: ignore[attr-defined]
            x = line.params  # type: ignore[attr-defined]
            out.append((_counts(x["give"]), _counts(x["get"])))
    out.reverse()
    return out


def trades_in_round(log: Sequence[str], a: int, b: int, n: int) -> int:
    """Player trades between seats ``a`` and ``b`` in the last ``n`` turns (this one included):
    the log's ``trade_with`` lines."""
    turns = 0
    count = 0
    for line in reversed(log):
        form = _form(line)
        if form == "ends":
            turns += 1
            if turns >= n:
                break
            continue
        if form == "trade_with":
            x = line.params  # type: ignore[attr-defined]
            if {x["seat"], x["partner"]} == {a, b}:
                count += 1
    return count


# --- answering offers (IR-76, IR-77) ------------------------------------------------------------
def maritime_as_good(pos: Pos, target: Target, s_after: int, cards: int) -> bool:
    """True if a maritime trade available now reaches S <= ``s_after`` giving <= ``cards``."""
    hand = pos.hand
    bank = pos.bank
    for r in range(NRES):
        k = pos.ratio[r]
        if k > cards or hand[r] < k:
            continue
        for s in range(NRES):
            if s == r or (bank is not None and bank[s] <= 0):
                continue
            after = list(hand)
            after[r] -= k
            after[s] += 1
            if shortfall(after, target.cost) <= s_after:
                return True
    return False


def offerer_ok(rules: LevelRules, pos: Pos, offerer: int) -> bool:
    """The level's condition on who it trades with (IR-77)."""
    margin = rules.offerer_margin
    if margin is not None and pos.visible_vp[offerer] > pos.vp_target - margin:
        return False
    return not (rules.avoid_sole_leader and pos.leader() == offerer)


def accepts(
    rules: LevelRules,
    pos: Pos,
    target: Target,
    receive: Bundle,
    give: Bundle,
    offerer: int,
    trades_with_offerer: int = 0,
) -> bool:
    """Would this level accept receiving ``receive`` for ``give`` from ``offerer``? (IR-77)"""
    if not can_pay(pos.hand, give):
        return False
    g, c = effect(pos.hand, target, receive, give)
    if g < 0:
        return False
    if rules.name == "easy":
        return g >= 1 or (g == 0 and c >= 0)
    if g < 1 or c < 0 or not offerer_ok(rules, pos, offerer):
        return False
    if rules.trades_per_round is not None and trades_with_offerer >= rules.trades_per_round:
        return False
    if rules.check_maritime:
        s_after = target.shortfall(pos.hand) - g
        if maritime_as_good(pos, target, s_after, sum(give)):
            return False
    return True


def counter_offer(
    rules: LevelRules,
    pos: Pos,
    target: Target,
    receive: Bundle,
    give: Bundle,
    offerer: int,
    trades_with_offerer: int = 0,
) -> A.Counter | None:
    """The level's counter-offer (IR-77): when g >= 1 but c < 0, give fewer cards so c = 0
    (hard may also ask one extra missing card); None when it would not counter."""
    if not rules.counters or not any(receive):
        return None
    if not offerer_ok(rules, pos, offerer):
        return None
    if rules.trades_per_round is not None and trades_with_offerer >= rules.trades_per_round:
        return None
    g, c = effect(pos.hand, target, receive, give)
    if g < 1 or c >= 0:
        return None
    keep = sum(receive)
    # give up the cards whose loss hurts least: surplus first, then the most plentiful
    cards = [r for r in range(NRES) for _ in range(give[r])]
    spare = surplus(pos.hand, target)
    cards.sort(key=lambda r: (-min(spare[r], give[r]), -pos.hand[r], r))
    reduced = [0] * NRES
    for r in cards:
        if sum(reduced) >= keep:
            break
        if reduced[r] < pos.hand[r]:
            reduced[r] += 1
    my_give: Bundle = tuple(reduced)
    if sum(my_give) < keep:
        return None
    get = list(receive)
    if rules.ask_extra:
        after = [h + r - x for h, r, x in zip(pos.hand, receive, my_give)]
        lack = missing(after, target)
        extra = max(
            (r for r in range(NRES) if lack[r] and not my_give[r]),
            key=lambda r: (lack[r], -r),
            default=-1,
        )
        if extra >= 0 and pos.cards[offerer] >= sum(get) + 1:
            get[extra] += 1
    my_get: Bundle = tuple(get)
    g2, _ = effect(pos.hand, target, my_get, my_give)
    if g2 < 1 or any(a and b for a, b in zip(my_give, my_get)):
        return None
    return A.Counter(my_give, my_get)


def answer(
    rules: LevelRules, pos: Pos, target: Target, offer: dict[str, Any], log: Sequence[str]
) -> Action:
    """Accept, reject or counter the offer (IR-76: every offer is answered); the answer names
    the offer, since several may be open at once."""
    receive, give = bundle_of(offer["give"]), bundle_of(offer["get"])
    offerer = pos.active
    oid = int(offer["id"])
    trades = trades_in_round(log, offerer, pos.seat, pos.n) if rules.trades_per_round else 0
    if accepts(rules, pos, target, receive, give, offerer, trades):
        return A.Accept(oid)
    counter = counter_offer(rules, pos, target, receive, give, offerer, trades)
    if counter is not None:
        return A.Counter(counter.give, counter.get, oid)
    return A.Reject(oid)


# --- the active player's side ------------------------------------------------------------------
def completion(
    rules: LevelRules,
    pos: Pos,
    target: Target,
    offers: Sequence[dict[str, Any]],
    legal: Sequence[Action],
) -> Action | None:
    """Take the best acceptance or counter to its open offers, else withdraw a dead offer."""
    legal_set = set(legal)
    leader = pos.leader()
    best: tuple[int, int, int] | None = None
    choice: Action | None = None
    for off in offers:
        oid = int(off["id"])
        for s_text, ans in sorted(off["answers"].items(), key=lambda kv: int(kv[0])):
            s = int(s_text)
            if not rules.offer_to_leader and s == leader:
                continue
            if ans == "accept":
                give, receive = bundle_of(off["give"]), bundle_of(off["get"])
                min_c = -10
            elif isinstance(ans, dict) and "counter" in ans:
                receive = bundle_of(ans["counter"]["give"])
                give = bundle_of(ans["counter"]["get"])
                min_c = rules.counter_min_c
            else:
                continue
            action = A.Complete(oid, s)
            if action not in legal_set or not can_pay(pos.hand, give):
                continue
            g, c = effect(pos.hand, target, receive, give)
            if g < 1 or c < min_c:
                continue
            key = (g, c, -s)
            if best is None or key > best:
                best, choice = key, action
    if choice is not None:
        return choice
    for off in offers:
        # a dead offer: every addressee has answered and nothing is worth taking (an offer
        # still waiting for answers stays open: offers never block, answers may still come)
        if len(off["answers"]) < pos.n - 1:
            continue
        withdraw = A.Withdraw(int(off["id"]))
        if withdraw in legal_set:
            return withdraw
    return None


def offers_per_turn(rules: LevelRules, seat: int, people: Collection[int] = ()) -> int:
    """How many offers of its own the bot at ``seat`` makes per turn: its level's number, at
    most :data:`OFFERS_TO_PEOPLE` when another seat is a person's (``people``, the table's
    context: an offer goes to every other seat, so any person could be asked to answer it)."""
    if any(p != seat for p in people):
        return min(rules.offers_per_turn, OFFERS_TO_PEOPLE)
    return rules.offers_per_turn


def own_offer(
    rules: LevelRules,
    pos: Pos,
    target: Target,
    open_offers: Sequence[dict[str, Any]],
    log: Sequence[str],
    people: Collection[int] = (),
) -> A.Offer | None:
    """A new offer of its own (IR-77), or None. Checked against the engine's offer rules from
    the observation alone: cards held, no resource on both sides, fewer than 3 open offers, not
    an offer already made this turn (so never a rejected one re-sent); and no more offers this
    turn than :func:`offers_per_turn` allows at this table (``people``: the seats people play)."""
    if len(open_offers) >= MAX_OPEN_OFFERS or pos.n < 2:
        return None
    if target.shortfall(pos.hand) <= 0:
        return None
    made = offers_this_turn(log, pos.seat)
    if len(made) >= offers_per_turn(rules, pos.seat, people):
        return None
    if not rules.offer_to_leader:
        leader = pos.leader()
        if leader >= 0 and leader != pos.seat and pos.n == 2:
            return None
    spare = surplus(pos.hand, target)
    lack = missing(pos.hand, target)
    gives = sorted((r for r in range(NRES) if spare[r]), key=lambda r: (-spare[r], r))
    wants = sorted((r for r in range(NRES) if lack[r]), key=lambda r: (-lack[r], r))
    if not gives or not wants:
        return None
    sent = set(made) | {(bundle_of(o["give"]), bundle_of(o["get"])) for o in open_offers}
    for n_give, n_get in rule_shapes(rules):
        for r in gives:
            if spare[r] < n_give and n_give > 1:
                # two different surplus resources
                others = [x for x in gives if x != r]
                if not others or n_give != 2:
                    continue
                give_l = [0] * NRES
                give_l[r] += 1
                give_l[others[0]] += 1
            else:
                give_l = [0] * NRES
                give_l[r] = n_give
            for s in wants:
                get_l = [0] * NRES
                get_l[s] = 1
                if n_get == 2:
                    second = [x for x in wants if x != s and not give_l[x]]
                    if second and lack[s] < 2:
                        get_l[second[0]] = 1
                    else:
                        get_l[s] = 2  # the second card serves the next build
                give_b: Bundle = tuple(give_l)
                get_b: Bundle = tuple(get_l)
                if (give_b, get_b) in sent or not can_pay(pos.hand, give_b):
                    continue
                if any(a and b for a, b in zip(give_b, get_b)):
                    continue
                g, _ = effect(pos.hand, target, get_b, give_b)
                if g >= 1:
                    return A.Offer(give_b, get_b)
    return None


def rule_shapes(rules: LevelRules) -> tuple[tuple[int, int], ...]:
    return rules.offer_shapes


def maritime(pos: Pos, target: Target, legal: Sequence[Action]) -> A.MaritimeTrade | None:
    """The best listed maritime trade with g >= 1 (IR-76), fewest cards given, or None.
    The listing has single lots at the seat's own ratio, i.e. its best ratio."""
    best: tuple[int, int, int] | None = None
    choice: A.MaritimeTrade | None = None
    for a in legal:
        if isinstance(a, A.MaritimeTrade):
            g, c = effect(pos.hand, target, a.get, a.give)
            if g < 1:
                continue
            spare = surplus(pos.hand, target)
            give_r = max(range(NRES), key=lambda r: a.give[r])
            key = (g, c, spare[give_r])
            if best is None or key > best:
                best, choice = key, a
    return choice


def discard(
    pos: Pos, target: Target, legal: Sequence[Action], selected: Sequence[int]
) -> A.Discard:
    """The next card to discard: surplus first (IR-76), then the one that raises S least."""
    hand = [h - s for h, s in zip(pos.hand, selected)]
    base = target.shortfall(hand)
    best: tuple[int, int, int] | None = None
    choice: A.Discard | None = None
    for a in legal:
        if not isinstance(a, A.Discard):
            continue
        r = a.resource
        after = list(hand)
        after[r] -= 1
        rise = shortfall(after, target.cost) - base
        key = (-rise, hand[r] - target.cost[r], -r)
        if best is None or key > best:
            best, choice = key, a
    assert choice is not None, "a discard prompt always lists a card"
    return choice
