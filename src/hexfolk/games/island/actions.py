"""Island game actions: one frozen value per kind, with canonical text (``docs/island.md``).

Resources are written with the letters ``l b w g o`` (lumber, brick, wool, grain, ore); a
bundle of cards is a list of ``<count><letter>`` words in that order (``2l 1o``), or ``-`` for
none. Hexes, intersections (nodes) and edges are integer ids of the board model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from hexfolk.core import Action, MalformedActionError
from hexfolk.core.action_forms import WHOLE, action_kind, counts, named, optional, written
from hexfolk.games.island.board import Layout, LayoutError, parse_layout
from hexfolk.games.island.rules import (
    BANK_RATIO,
    DEV_NAMES,
    GENERIC_RATIO,
    LETTER_INDEX,
    LETTERS,
    NRES,
    RESOURCE_HARBOR_RATIO,
    RESOURCES,
)

Bundle = tuple[int, ...]
"""Cards per resource (5 counts)."""

EMPTY: Bundle = (0,) * NRES


@lru_cache(maxsize=4096)
def bundle_text(b: Bundle) -> str:
    """Canonical text of a bundle: ``2l 1o``; ``-`` when empty."""
    words = [f"{c}{LETTERS[r]}" for r, c in enumerate(b) if c]
    return " ".join(words) if words else "-"


_WORD = re.compile(r"^(\d*)([lbwgo])$")


def parse_bundle(words: list[str], what: str) -> Bundle:
    """Parse bundle words (``2l 1o``, ``l l o`` or ``-``)."""
    if words == ["-"]:
        return EMPTY
    if not words:
        raise MalformedActionError(f"{what}: no cards given (write '-' for none)")
    counts = [0] * NRES
    for w in words:
        m = _WORD.match(w)
        if not m:
            raise MalformedActionError(f"{what}: {w!r} is not <count><l|b|w|g|o>")
        n = int(m.group(1)) if m.group(1) else 1
        if n <= 0 or n > 99:
            raise MalformedActionError(f"{what}: bad count in {w!r}")
        counts[LETTER_INDEX[m.group(2)]] += n
    return tuple(counts)


# ------------------------------------------------------------------ the JSON form of actions
# Each action class below names its kind (``@action_kind``); its fields are written in JSON as
# the text writes them (docs/island.md, "Actions as data"): ids as numbers, resources and
# development cards by name, a bundle as ``{resource name: count}`` with the counts above 0.

CARDS = counts(RESOURCES)
"""A bundle: ``{"lumber": 4}``; ``{}`` for no cards."""
RESOURCE = named(RESOURCES)
"""A resource by name: ``"ore"``."""
DEV_CARD = named(DEV_NAMES)
"""A development card by name: ``"knight"``."""
NO_HEX = optional(WHOLE, -1)
"""A hex, ``null`` for none (the robber stays, IR-46)."""
NO_SEAT = optional(WHOLE, -1)
"""A seat, ``null`` for none."""
ANY_OFFER = optional(WHOLE, 0)
"""An offer number, ``null`` for the one the seat has not answered yet (the shorthand)."""


def _load_layout(value: object) -> Layout:
    if type(value) is not str:
        raise ValueError
    return parse_layout(value)


LAYOUT = written("a board layout in its text form", _load_layout, Layout.text)
"""A board layout, written as in the text (``layout ...``)."""


@action_kind("layout", layout=LAYOUT)
@dataclass(frozen=True, slots=True)
class LayoutOutcome(Action):
    """Chance: the board layout (first step of every game)."""

    layout: Layout

    def __str__(self) -> str:
        return "layout " + self.layout.text()


@action_kind("dice")
@dataclass(frozen=True, slots=True)
class DiceOutcome(Action):
    """Chance: the sum of the two dice (``roll 8``), with pip probabilities."""

    total: int

    def __str__(self) -> str:
        return f"roll {self.total}"


@action_kind("roll")
@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The active player rolls (``roll``)."""

    def __str__(self) -> str:
        return "roll"


@action_kind("settle")
@dataclass(frozen=True, slots=True)
class BuildSettlement(Action):
    """Place a settlement on a node (setup or main phase): ``settle 12``."""

    node: int

    def __str__(self) -> str:
        return f"settle {self.node}"


@action_kind("road")
@dataclass(frozen=True, slots=True)
class BuildRoad(Action):
    """Place a road on an edge (setup, main phase, SBP or Road Building): ``road 30``."""

    edge: int

    def __str__(self) -> str:
        return f"road {self.edge}"


@action_kind("city")
@dataclass(frozen=True, slots=True)
class BuildCity(Action):
    """Upgrade an own settlement: ``city 12``."""

    node: int

    def __str__(self) -> str:
        return f"city {self.node}"


@action_kind("buy")
@dataclass(frozen=True, slots=True)
class BuyDevelopment(Action):
    """Buy a development card (``buy``); the card is a chance outcome."""

    def __str__(self) -> str:
        return "buy"


@action_kind("draw", card=DEV_CARD)
@dataclass(frozen=True, slots=True)
class DrawDevelopment(Action):
    """Chance: the card drawn (``draw knight``), weighted by the deck; seen by the buyer only."""

    card: int

    def __str__(self) -> str:
        return f"draw {DEV_NAMES[self.card]}"


@action_kind("play_knight")
@dataclass(frozen=True, slots=True)
class PlayKnight(Action):
    """``play knight``."""

    def __str__(self) -> str:
        return "play knight"


@action_kind("play_roads")
@dataclass(frozen=True, slots=True)
class PlayRoadBuilding(Action):
    """``play roads``: then up to two free roads."""

    def __str__(self) -> str:
        return "play roads"


@action_kind("play_plenty", take=CARDS)
@dataclass(frozen=True, slots=True)
class PlayPlenty(Action):
    """``play plenty 1l 1o`` / ``play plenty 2o``: take these cards from the bank."""

    take: Bundle

    def __str__(self) -> str:
        return "play plenty " + bundle_text(self.take)


@action_kind("play_monopoly", resource=RESOURCE)
@dataclass(frozen=True, slots=True)
class PlayMonopoly(Action):
    """``play monopoly o``: every other player hands over all their ore."""

    resource: int

    def __str__(self) -> str:
        return f"play monopoly {LETTERS[self.resource]}"


@action_kind("robber", hex=NO_HEX, victim=NO_SEAT)
@dataclass(frozen=True, slots=True)
class MoveRobber(Action):
    """``robber 5`` / ``robber 5 steal 2`` / ``robber stay`` (IR-46 fallback)."""

    hex: int
    victim: int = -1

    def __str__(self) -> str:
        if self.hex < 0:
            return "robber stay"
        if self.victim < 0:
            return f"robber {self.hex}"
        return f"robber {self.hex} steal {self.victim}"


@action_kind("steal", resource=RESOURCE)
@dataclass(frozen=True, slots=True)
class StealOutcome(Action):
    """Chance: the card the robber takes (``steal o``), weighted by the victim's hand."""

    resource: int

    def __str__(self) -> str:
        return f"steal {LETTERS[self.resource]}"


@action_kind("discard", resource=RESOURCE)
@dataclass(frozen=True, slots=True)
class Discard(Action):
    """One card of a 7-discard (``discard o``); hidden until everyone has committed."""

    resource: int

    def __str__(self) -> str:
        return f"discard {LETTERS[self.resource]}"


@action_kind("trade", give=CARDS, get=CARDS)
@dataclass(frozen=True, slots=True)
class MaritimeTrade(Action):
    """Bank or harbor trade: ``trade 4l for 1o`` (several lots: ``trade 8l for 1g 1o``)."""

    give: Bundle
    get: Bundle

    def __str__(self) -> str:
        return f"trade {bundle_text(self.give)} for {bundle_text(self.get)}"


@action_kind("offer", give=CARDS, get=CARDS)
@dataclass(frozen=True, slots=True)
class Offer(Action):
    """Player trade offer by the active player: ``offer 1l for 1o`` (gift: ``offer 1l for -``)."""

    give: Bundle
    get: Bundle

    def __str__(self) -> str:
        return f"offer {bundle_text(self.give)} for {bundle_text(self.get)}"


@action_kind("accept", offer=ANY_OFFER)
@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Answer to an offer: ``accept 1`` (offer 1). ``accept`` alone (offer 0) is a shorthand
    for the one offer the seat has not answered yet (IR-50)."""

    offer: int = 0

    def __str__(self) -> str:
        return f"accept {self.offer}" if self.offer else "accept"


@action_kind("reject", offer=ANY_OFFER)
@dataclass(frozen=True, slots=True)
class Reject(Action):
    """Answer to an offer: ``reject 1``; ``reject`` alone is a shorthand as for :class:`Accept`."""

    offer: int = 0

    def __str__(self) -> str:
        return f"reject {self.offer}" if self.offer else "reject"


@action_kind("counter", give=CARDS, get=CARDS, offer=ANY_OFFER)
@dataclass(frozen=True, slots=True)
class Counter(Action):
    """Answer with a counter-offer, from the answerer's side: ``counter 1: 1b for 1l`` (to
    offer 1); ``counter 1b for 1l`` is a shorthand as for :class:`Accept`."""

    give: Bundle
    get: Bundle
    offer: int = 0

    def __str__(self) -> str:
        head = f"counter {self.offer}: " if self.offer else "counter "
        return f"{head}{bundle_text(self.give)} for {bundle_text(self.get)}"


@action_kind("decline_all")
@dataclass(frozen=True, slots=True)
class DeclineAll(Action):
    """A seat's standing answer to player-trade offers: ``decline-all on`` rejects every open
    offer it has not answered and every later one at once; ``decline-all off`` is asked again.
    Typed, never listed (like the non-canonical trades)."""

    on: bool

    def __str__(self) -> str:
        return "decline-all on" if self.on else "decline-all off"


@action_kind("complete", seat=NO_SEAT)
@dataclass(frozen=True, slots=True)
class Complete(Action):
    """The proposer trades with one acceptor (or takes their counter): ``complete 1 with 2``."""

    offer: int
    seat: int = -1

    def __str__(self) -> str:
        if self.seat < 0:
            return f"complete {self.offer}"
        return f"complete {self.offer} with {self.seat}"


@action_kind("withdraw")
@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """The proposer withdraws an open offer: ``withdraw 1``."""

    offer: int

    def __str__(self) -> str:
        return f"withdraw {self.offer}"


@action_kind("end")
@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn (or one's special-build slot): ``end``."""

    def __str__(self) -> str:
        return "end"


@action_kind("sbp")
@dataclass(frozen=True, slots=True)
class SpecialBuildSignUp(Action):
    """Special build phase sign-up: ``sbp join`` / ``sbp pass``."""

    join: bool

    def __str__(self) -> str:
        return "sbp join" if self.join else "sbp pass"


ROLL = Roll()
BUY = BuyDevelopment()
PLAY_KNIGHT = PlayKnight()
PLAY_ROADS = PlayRoadBuilding()
ACCEPT = Accept()
REJECT = Reject()
DECLINE_ALL_ON = DeclineAll(True)
DECLINE_ALL_OFF = DeclineAll(False)
END = EndTurn()
SBP_JOIN = SpecialBuildSignUp(True)
SBP_PASS = SpecialBuildSignUp(False)
DICE = {s: DiceOutcome(s) for s in range(2, 13)}
DRAWS = tuple(DrawDevelopment(c) for c in range(len(DEV_NAMES)))
STEALS = tuple(StealOutcome(r) for r in range(NRES))
DISCARDS = tuple(Discard(r) for r in range(NRES))
MONOPOLIES = tuple(PlayMonopoly(r) for r in range(NRES))

_INT = re.compile(r"^(0|[1-9]\d{0,3})$")


def _int(word: str, what: str) -> int:
    if not _INT.match(word):
        raise MalformedActionError(f"{what} must be a whole number, not {word!r}")
    return int(word)


def _letter(word: str, what: str) -> int:
    if word not in LETTER_INDEX:
        raise MalformedActionError(f"{what} must be one of {' '.join(LETTERS)}, not {word!r}")
    return LETTER_INDEX[word]


def _pair(words: list[str], kind: str) -> tuple[Bundle, Bundle]:
    if words.count("for") != 1:
        raise MalformedActionError(f"{kind} is written '{kind} <cards> for <cards>'")
    i = words.index("for")
    return parse_bundle(words[:i], f"{kind} (give)"), parse_bundle(words[i + 1 :], f"{kind} (get)")


def parse(text: str) -> Action:
    """Parse canonical island notation; raise MalformedActionError naming the problem."""
    words = text.strip().lower().split()
    if not words:
        raise MalformedActionError("empty action text")
    head, rest = words[0], words[1:]
    if head == "layout":
        raw = text.strip().split(None, 1)
        try:
            return LayoutOutcome(parse_layout(raw[1] if len(raw) > 1 else ""))
        except LayoutError as exc:
            raise MalformedActionError(f"bad layout: {exc}") from None
    if head == "roll":
        if not rest:
            return ROLL
        if len(rest) == 1:
            total = _int(rest[0], "a dice sum")
            if total in DICE:
                return DICE[total]
        raise MalformedActionError("write 'roll' (to roll) or 'roll <2..12>' (the outcome)")
    if head in ("settle", "road", "city"):
        if len(rest) != 1:
            raise MalformedActionError(f"write '{head} <id>'")
        x = _int(rest[0], f"the {head} position")
        return (
            BuildSettlement(x)
            if head == "settle"
            else BuildRoad(x)
            if head == "road"
            else (BuildCity(x))
        )
    if head == "buy" and not rest:
        return BUY
    if head == "end" and not rest:
        return END
    if head in ("accept", "reject") and len(rest) <= 1:
        oid = _int(rest[0], "the offer number") if rest else 0
        return Accept(oid) if head == "accept" else Reject(oid)
    if head == "decline-all" and len(rest) == 1 and rest[0] in ("on", "off"):
        return DECLINE_ALL_ON if rest[0] == "on" else DECLINE_ALL_OFF
    if head == "draw" and len(rest) == 1 and rest[0] in DEV_NAMES:
        return DRAWS[DEV_NAMES.index(rest[0])]
    if head == "steal" and len(rest) == 1:
        return STEALS[_letter(rest[0], "the stolen card")]
    if head == "discard" and len(rest) == 1:
        return DISCARDS[_letter(rest[0], "the discarded card")]
    if head == "play" and rest:
        card = rest[0]
        if card == "knight" and len(rest) == 1:
            return PLAY_KNIGHT
        if card == "roads" and len(rest) == 1:
            return PLAY_ROADS
        if card == "monopoly" and len(rest) == 2:
            return MONOPOLIES[_letter(rest[1], "the monopoly resource")]
        if card == "plenty" and len(rest) >= 2:
            return PlayPlenty(parse_bundle(rest[1:], "play plenty"))
        raise MalformedActionError(
            "write 'play knight', 'play roads', 'play plenty <cards>' or 'play monopoly <r>'"
        )
    if head == "robber":
        if rest == ["stay"]:
            return MoveRobber(-1)
        if len(rest) == 1:
            return MoveRobber(_int(rest[0], "the robber hex"))
        if len(rest) == 3 and rest[1] == "steal":
            return MoveRobber(_int(rest[0], "the robber hex"), _int(rest[2], "the victim seat"))
        raise MalformedActionError("write 'robber <hex>' or 'robber <hex> steal <seat>'")
    if head == "trade":
        return MaritimeTrade(*_pair(rest, "trade"))
    if head == "offer":
        return Offer(*_pair(rest, "offer"))
    if head == "counter":
        if rest and rest[0].endswith(":"):
            oid = _int(rest[0][:-1], "the offer number")
            if oid:
                return Counter(*_pair(rest[1:], "counter"), oid)
        return Counter(*_pair(rest, "counter"))
    if head == "complete":
        if len(rest) == 1:
            return Complete(_int(rest[0], "the offer number"))
        if len(rest) == 3 and rest[1] == "with":
            return Complete(_int(rest[0], "the offer number"), _int(rest[2], "the seat"))
        raise MalformedActionError("write 'complete <offer> with <seat>'")
    if head == "withdraw" and len(rest) == 1:
        return Withdraw(_int(rest[0], "the offer number"))
    if head == "sbp" and rest == ["join"]:
        return SBP_JOIN
    if head == "sbp" and rest == ["pass"]:
        return SBP_PASS
    raise MalformedActionError(f"{text.strip()!r} is not an island action (see docs/island.md)")


# ---------------------------------------------------------------- the canonical action objects
# The engine lists these very objects (built once, alive as long as the module), so listing a
# position's actions allocates nothing. Lookups go by value, never by object identity: an
# action copied, pickled or parsed from text must behave as the listed one.

MARITIME: dict[tuple[int, int, int], MaritimeTrade] = {}
"""Single-lot maritime trades by (ratio, resource given, resource taken)."""
for _ratio in (RESOURCE_HARBOR_RATIO, GENERIC_RATIO, BANK_RATIO):
    for _r in range(NRES):
        for _s in range(NRES):
            if _r != _s:
                _give = tuple(_ratio if i == _r else 0 for i in range(NRES))
                _get = tuple(1 if i == _s else 0 for i in range(NRES))
                MARITIME[(_ratio, _r, _s)] = MaritimeTrade(_give, _get)
MARITIME_LOT: dict[tuple[Bundle, Bundle], tuple[int, int, int]] = {
    (act.give, act.get): (k, r, s) for (k, r, s), act in MARITIME.items()
}
"""The bundles ``(give, get)`` of each single-lot maritime trade -> (ratio, resource given,
resource taken): the fast path of :func:`~.trade.maritime_trade`. Keyed by value (two tuples
of ints, hashed in C), so a trade parsed from text, unpickled in a bot worker or copied finds
its lot as the listed object does; multi-lot trades take the general path."""
MARITIME_ROW: dict[int, tuple[tuple[MaritimeTrade, ...], ...]] = {
    k: tuple(tuple(MARITIME[(k, r, s)] for s in range(NRES) if s != r) for r in range(NRES))
    for k in (RESOURCE_HARBOR_RATIO, GENERIC_RATIO, BANK_RATIO)
}
"""Canonical maritime trades by ratio and resource given, in the order of resource taken."""
ONE: tuple[Bundle, ...] = tuple(tuple(1 if i == r else 0 for i in range(NRES)) for r in range(NRES))
"""One card of each resource, as bundles."""
_OFFER11 = [[Offer(ONE[r], ONE[s]) for s in range(NRES)] for r in range(NRES)]
OFFERS_BY_HELD: tuple[tuple[Offer, ...], ...] = tuple(
    tuple(_OFFER11[r][s] for r in range(NRES) if m >> r & 1 for s in range(NRES) if not m >> s & 1)
    for m in range(1 << NRES)
)
"""Canonical offers by the set of resource types held: 1 held card for 1 card of a type not
held (the bounded catalogue of IR-49 offers the engine lists)."""
PLENTY_TAKES: tuple[PlayPlenty, ...] = tuple(
    PlayPlenty(tuple((i == r) + (i == s) for i in range(NRES)))
    for r in range(NRES)
    for s in range(r, NRES)
)
"""Year of Plenty: every pair of cards (IR-64)."""
PLENTY_ONE: tuple[PlayPlenty, ...] = tuple(PlayPlenty(ONE[r]) for r in range(NRES))
"""Year of Plenty with a single card (the bank holds fewer than two, IR-64)."""

# The actions naming an open offer, built once per offer number (and seat) and listed as they
# are, like the catalogue above: the listings hand out the same objects again (offer numbers
# start again with each game, so they serve every game; least-recently-used, 4,096 each).
accept_of = lru_cache(maxsize=4096)(Accept)
"""``Accept(offer)``, shared."""
reject_of = lru_cache(maxsize=4096)(Reject)
"""``Reject(offer)``, shared."""
complete_of = lru_cache(maxsize=4096)(Complete)
"""``Complete(offer, seat)``, shared."""
withdraw_of = lru_cache(maxsize=4096)(Withdraw)
"""``Withdraw(offer)``, shared."""


class BoardActions(NamedTuple):
    """The build and robber actions of a board, by id (they name ids only, so every board of
    the same size, standard or map, shares them)."""

    road: tuple[BuildRoad, ...]
    settlement: tuple[BuildSettlement, ...]
    city: tuple[BuildCity, ...]
    robber: tuple[MoveRobber, ...]
    """The plain robber move to each hex."""
    robber_steal: tuple[tuple[MoveRobber, ...], ...]
    """By hex and victim seat: the robber move that robs that seat."""


_BOARD_ACTIONS: dict[tuple[int, int, int], BoardActions] = {}


def board_actions(nodes: int, edges: int, hexes: int) -> BoardActions:
    """The :class:`BoardActions` of a board with these sizes (built once per size)."""
    key = (nodes, edges, hexes)
    cached = _BOARD_ACTIONS.get(key)
    if cached is None:
        cached = _BOARD_ACTIONS[key] = BoardActions(
            tuple(BuildRoad(e) for e in range(edges)),
            tuple(BuildSettlement(v) for v in range(nodes)),
            tuple(BuildCity(v) for v in range(nodes)),
            tuple(MoveRobber(h) for h in range(hexes)),
            tuple(tuple(MoveRobber(h, q) for q in range(8)) for h in range(hexes)),
        )
    return cached


class TradeTable(dict[tuple[int, ...], tuple[Action, ...]]):
    """Trade listings by hand, for one set of maritime ratios: a process-wide memo.

    It pickles, copies and deep-copies as its key (``ratio``, ``offers``) and comes back as
    the process's own table of that key, never as its entries: a state pickled for a bot
    worker carries no listings it does not need, and pickling a state never walks a dict that
    another thread of the process (the server's reveal checks) may be adding to."""

    __slots__ = ("key",)

    def __init__(self, key: tuple[tuple[int, ...], bool]):
        super().__init__()
        self.key = key

    def __reduce__(self) -> tuple[Any, tuple[tuple[int, ...], bool]]:
        return trade_table, self.key

    def __copy__(self) -> TradeTable:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> TradeTable:
        return self


_TRADE_TABLES: dict[tuple[tuple[int, ...], bool], TradeTable] = {}
TRADE_TABLE_LIMIT = 20000
"""Hands remembered per table (a bound on memory; the hands of real games are far fewer)."""


def trade_table(ratio: tuple[int, ...], offers: bool) -> TradeTable:
    """The process-wide memo of :func:`trade_listing` for one set of ratios, by hand."""
    table = _TRADE_TABLES.get((ratio, offers))
    if table is None:
        table = _TRADE_TABLES[(ratio, offers)] = TradeTable((ratio, offers))
    return table


def trade_listing(
    ratio: list[int] | tuple[int, ...], hand: list[int], offers: bool
) -> tuple[Action, ...]:
    """The trades the main phase lists for ``hand`` and ``ratio`` when every resource is in
    the bank and no offer is open or rejected (the cached common case): single-lot maritime
    trades (IR-52..IR-54), then (``offers``) the canonical 1-for-1 offers (IR-49)."""
    out: list[Action] = []
    mask = 0
    for r in range(NRES):
        if hand[r] >= ratio[r]:
            out.extend(MARITIME_ROW[ratio[r]][r])
        if hand[r]:
            mask |= 1 << r
    if offers:
        out.extend(OFFERS_BY_HELD[mask])
    return tuple(out)
