"""Why an island action is refused (IR-19..IR-64): one sentence in the game's words.

:func:`why_illegal` is :meth:`IslandPosition.why_illegal`: ``None`` when the action is legal for
the seat (decided by the engine's own check, so a reason never disagrees with legality), else
what it costs and what the seat holds, what is missing, what forbids it, or whose decision it
is, with the rule's number. Functions over the state's fields and the rules data only.
"""

from __future__ import annotations

from collections.abc import Callable

from hexfolk.core import CHANCE, TERMINAL, Action, State
from hexfolk.games.island import actions as A
from hexfolk.games.island import phases as S
from hexfolk.games.island.building import road_actions
from hexfolk.games.island.position import (
    IslandPosition,
    Reply,
    offer_by_id,
)
from hexfolk.games.island.robber import protected_seats, robber_targets
from hexfolk.games.island.rules import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    DEV_CARDS,
    FRIENDLY_MAX_VP,
    KNIGHT,
    MAX_OPEN_OFFERS,
    MONOPOLY,
    NRES,
    PIECES_CITY,
    PIECES_ROAD,
    PIECES_SETTLEMENT,
    PLENTY,
    PLENTY_CARDS,
    RESOURCES,
    ROADS,
    SBP_MIN_PLAYERS,
    VICTORY,
)

Bundle = tuple[int, ...]

CARD_NAMES = {
    KNIGHT: "Knight",
    VICTORY: "Victory Point",
    ROADS: "Road Building",
    PLENTY: "Year of Plenty",
    MONOPOLY: "Monopoly",
}
"""Names of the development cards in sentences (the order of ``DEV_CARDS``)."""
assert len(CARD_NAMES) == len(DEV_CARDS)


def cards(b: Bundle) -> str:
    """``2 grain and 3 ore``; ``no cards`` when empty."""
    words = [f"{k} {RESOURCES[r]}" for r, k in enumerate(b) if k]
    if not words:
        return "no cards"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _short(hand: list[int], cost: Bundle) -> str | None:
    """``you have 1 ore`` for the resources of ``cost`` the hand lacks; None if it has all."""
    lacking = [r for r in range(NRES) if hand[r] < cost[r]]
    if not lacking:
        return None
    held = [f"{hand[r]} {RESOURCES[r]}" for r in lacking]
    return "you have " + (held[0] if len(held) == 1 else ", ".join(held[:-1]) + " and " + held[-1])


def _legal(state: IslandPosition, seat: int, action: Action) -> bool:
    """The engine's own verdict (chance outcomes, then any acting seat)."""
    player = state.current_player()
    if player == TERMINAL:
        return False
    if player == CHANCE:
        return seat == CHANCE and state.is_possible_chance(action)
    return state.legal_for(seat, action)


def why_illegal(state: IslandPosition, seat: int, action: Action) -> str | None:
    """The reason ``seat`` may not take ``action`` now, or None when it is legal."""
    if _legal(state, seat, action):
        return None
    reason = specific_reason(state, seat, action)
    return reason if reason is not None else State.why_illegal(state, seat, action)


# ------------------------------------------------------------------------------- dispatch
_CHANCE_KINDS = (A.LayoutOutcome, A.DiceOutcome, A.StealOutcome, A.DrawDevelopment)


def specific_reason(state: IslandPosition, seat: int, action: Action) -> str | None:
    """The engine's reason for an illegal action (None: no specific reason known)."""
    player = state.current_player()
    if player == TERMINAL:
        won = f": seat {state.winner} won (IR-4)" if state.winner >= 0 else ""
        return f"the game is over{won}"
    if player == CHANCE:
        return _chance_reason(state, action)
    if isinstance(action, _CHANCE_KINDS):
        return f"{action} is a chance outcome the table draws, not a move; {_waiting(state)}"
    if seat not in state.acting_seats():
        return f"seat {seat} has no decision to make now; {_waiting(state)}"
    phase = state.phase
    if phase == S.ANSWER and seat == state.active:
        phase = S.MAIN
    return _PHASE_REASONS[phase](state, seat, action)


def _seats(seats: list[int]) -> str:
    """``seat 2`` / ``seats 1 and 3``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def _waiting(state: IslandPosition) -> str:
    """Whose decision it is, e.g. ``it is seat 2's turn to roll the dice (IR-23)``."""
    seats = state.acting_seats()
    phase = state.phase
    if phase == S.DISCARD:
        verb = "is" if len(seats) == 1 else "are"
        return f"{_seats(seats)} {verb} discarding after a 7 (IR-41)"
    if phase == S.ANSWER:
        others = [q for q in seats if q != state.active]
        verb = "is" if len(others) == 1 else "are"
        return (
            f"seat {state.active} is trading; {_seats(others)} {verb} answering its offers (IR-50)"
        )
    if phase == S.SPECIAL_BUILD_SIGNUP:
        return f"{_seats(seats)} may sign up for the special build phase (IR-30)"
    prompt = state.prompt()
    what = prompt.text.split(": ", 1)[-1] if prompt is not None else "move"
    rule = {
        S.SETUP_SETTLEMENT: "IR-18",
        S.SETUP_ROAD: "IR-18",
        S.ROBBER: "IR-42",
        S.SPECIAL_BUILD: "IR-31",
    }.get(phase, "IR-23")
    return f"it is seat {state.seat}'s decision: {what} ({rule})"


def _chance_reason(state: IslandPosition, action: Action) -> str | None:
    phase = state.phase
    pending = {
        S.LAYOUT: "the board layout",
        S.DICE: "the dice",
        S.STEAL: "the card the robber takes",
        S.DRAW: "the development card drawn",
    }[phase]
    if not isinstance(action, _CHANCE_KINDS):
        return f"no seat acts now: the table draws {pending} next"
    if phase == S.DICE and isinstance(action, A.DiceOutcome):
        return None
    if phase == S.STEAL and isinstance(action, A.StealOutcome):
        name = RESOURCES[action.resource]
        return f"seat {state.victim} holds no {name}, so the robber cannot take one (IR-43)"
    if phase == S.DRAW and isinstance(action, A.DrawDevelopment):
        return f"no {CARD_NAMES[action.card]} card is left in the deck (IR-61)"
    if phase == S.LAYOUT and isinstance(action, A.LayoutOutcome):
        return "that layout is not a possible board for this map (IR-11..IR-13)"
    return f"{action} is not the pending chance step: the table draws {pending} next"


# ------------------------------------------------------------------------------- pieces
def _node_reason(state: IslandPosition, v: int) -> str | None:
    """Why no settlement may stand on intersection ``v`` (IR-19), whoever builds."""
    if not 0 <= v < state.topology.num_nodes:
        return f"there is no intersection {v} on this board"
    owner = state.node_owner[v]
    if owner >= 0:
        return f"intersection {v} is taken by seat {owner}'s building"
    if not state.free[v]:
        near = [u for u in state.topology.node_adj[v] if state.node_owner[u] >= 0]
        where = f" on {near[0]}" if near else ""
        return f"intersection {v} is next to a building{where}: the distance rule (IR-19)"
    return None


def _edge_reason(state: IslandPosition, seat: int, e: int, *, setup: bool) -> str | None:
    """Why ``seat`` may not put a road on edge ``e`` (IR-20, IR-56), costs aside."""
    topology = state.topology
    if not 0 <= e < topology.num_edges:
        return f"there is no edge {e} on this board"
    owner = state.edge_owner[e]
    if owner >= 0:
        whose = "your" if owner == seat else f"seat {owner}'s"
        return f"edge {e} already holds {whose} road"
    if setup:
        v = state.setup_node
        if v not in topology.edge_nodes[e]:
            return f"the setup road must touch the settlement just placed on {v} (IR-20)"
        return None
    if not state.roads_left[seat]:
        return f"all {PIECES_ROAD} of your roads are on the board (IR-59)"
    mine = set(state.buildings[seat])
    for f in state.roads[seat]:
        mine.update(topology.edge_nodes[f])
    ends = [v for v in topology.edge_nodes[e] if v in mine]
    if not ends:
        return f"a road must connect to your own road or building; edge {e} touches none (IR-56)"
    blocked = [v for v in ends if state.node_owner[v] >= 0 and state.node_owner[v] != seat]
    if len(blocked) == len(ends):
        v = blocked[0]
        return f"a road cannot connect through seat {state.node_owner[v]}'s building on {v} (IR-56)"
    return None


def _cost_reason(
    state: IslandPosition, seat: int, what: str, cost: Bundle, rule: str
) -> str | None:
    held = _short(state.hands[seat], cost)
    if held is None:
        return None
    return f"{what} costs {cards(cost)}; {held} ({rule})"


def _road(state: IslandPosition, seat: int, e: int, *, free: bool) -> str | None:
    reason = _edge_reason(state, seat, e, setup=False)
    if reason is None and not free:
        reason = _cost_reason(state, seat, "a road", COST_ROAD, "IR-56")
    if reason is None and free and not road_actions(state, seat):
        reason = "there is no edge left where a road may go (IR-64)"
    return reason


def _settle(state: IslandPosition, seat: int, v: int) -> str | None:
    reason = _node_reason(state, v)
    if reason is not None:
        return reason
    if not state.settlements_left[seat]:
        return (
            f"all {PIECES_SETTLEMENT} of your settlements are on the board; upgrade one to a "
            "city first (IR-59)"
        )
    edge_nodes = state.topology.edge_nodes
    if not any(v in edge_nodes[e] for e in state.roads[seat]):
        return f"a settlement must touch one of your roads; {v} touches none (IR-57)"
    return _cost_reason(state, seat, "a settlement", COST_SETTLEMENT, "IR-57")


def _city(state: IslandPosition, seat: int, v: int) -> str | None:
    if not 0 <= v < state.topology.num_nodes:
        return f"there is no intersection {v} on this board"
    owner = state.node_owner[v]
    if owner != seat:
        held = "nothing" if owner < 0 else f"seat {owner}'s building"
        return f"you have no settlement on {v} ({held} stands there); a city replaces one (IR-58)"
    if state.node_level[v] >= 2:
        return f"{v} is already a city (IR-58)"
    if not state.cities_left[seat]:
        return f"all {PIECES_CITY} of your cities are on the board (IR-59)"
    return _cost_reason(state, seat, "a city", COST_CITY, "IR-58")


def _buy(state: IslandPosition, seat: int) -> str | None:
    if not any(state.deck):
        return "the development deck is empty (IR-61)"
    return _cost_reason(state, seat, "a development card", COST_DEV, "IR-61")


# ------------------------------------------------------------------------------- cards
_PLAYS = {
    A.PlayKnight: KNIGHT,
    A.PlayRoadBuilding: ROADS,
    A.PlayPlenty: PLENTY,
    A.PlayMonopoly: MONOPOLY,
}


def _play(state: IslandPosition, seat: int, action: Action) -> str | None:
    card = _PLAYS[type(action)]
    name = CARD_NAMES[card]
    if state.dev_played:
        return "you have already played a development card this turn (IR-62)"
    held, new = state.dev_cards[seat][card], state.dev_bought[seat][card]
    if not held:
        return f"you hold no {name} card"
    if held <= new:
        return f"a card bought this turn cannot be played (IR-62): your {name} is new"
    if card == ROADS:
        if not state.roads_left[seat]:
            return f"all {PIECES_ROAD} of your roads are on the board (IR-59)"
        if not road_actions(state, seat):
            return "there is no edge where a free road could go (IR-64)"
    if isinstance(action, A.PlayPlenty):
        bank = state.bank
        total = sum(bank)
        want = min(PLENTY_CARDS, total)
        if not total:
            return "the bank is empty: Year of Plenty takes nothing (IR-39)"
        if sum(action.take) != want:
            return (
                f"Year of Plenty takes {want} card{'s' if want != 1 else ''} from the bank, "
                f"not {sum(action.take)} (IR-64)"
            )
        short = [r for r in range(NRES) if bank[r] < action.take[r]]
        if short:
            r = short[0]
            return f"the bank holds only {bank[r]} {RESOURCES[r]} (IR-39)"
    return None


# ------------------------------------------------------------------------------- trade
def _maritime(state: IslandPosition, seat: int, a: A.MaritimeTrade) -> str | None:
    ratio, hand = state.ratio[seat], state.hands[seat]
    lots = 0
    if not any(a.give):
        return "a maritime trade gives at least one lot of cards (IR-52)"
    for r in range(NRES):
        g = a.give[r]
        if not g:
            continue
        name = RESOURCES[r]
        if a.get[r]:
            return f"the card received must be of another type than those given (IR-54): {name}"
        if g % ratio[r]:
            rule = "IR-52" if ratio[r] == 4 else "IR-53"
            return f"you trade {name} at {ratio[r]}:1, so {g} {name} is not a whole lot ({rule})"
        if hand[r] < g:
            return f"you have {hand[r]} {name}, not {g}"
        lots += g // ratio[r]
    if sum(a.get) != lots:
        return (
            f"{cards(a.give)} buys {lots} card{'s' if lots != 1 else ''}, not {sum(a.get)} (IR-54)"
        )
    for r in range(NRES):
        if state.bank[r] < a.get[r]:
            return f"the bank holds only {state.bank[r]} {RESOURCES[r]} (IR-39)"
    return None


def _pair_reason(give: Bundle, get: Bundle, what: str) -> str | None:
    if not any(give) and not any(get):
        return f"{what} with both sides empty is not a trade (IR-49)"
    both = [RESOURCES[r] for r in range(NRES) if give[r] and get[r]]
    if both:
        return f"{what} cannot give and ask for the same resource ({both[0]}) (IR-49)"
    return None


def _offer(state: IslandPosition, seat: int, a: A.Offer) -> str | None:
    if state.n < 2:
        return "there is nobody to trade with"
    if len(state.offers) >= MAX_OPEN_OFFERS:
        return f"no more than {MAX_OPEN_OFFERS} offers may be open at once (IR-51)"
    reason = _pair_reason(a.give, a.get, "an offer")
    if reason is not None:
        return reason
    held = _short(state.hands[seat], a.give)
    if held is not None:
        return f"an offer gives only cards you hold: it gives {cards(a.give)}; {held} (IR-49)"
    if (a.give, a.get) in state.rejected:
        return "every seat rejected this offer this turn; it cannot be re-sent unchanged (IR-51)"
    for o in state.offers:
        if (o.give, o.get) == (a.give, a.get):
            return f"this offer is already open (#{o.id})"
    return None


def _answer(state: IslandPosition, seat: int, action: Action) -> str | None:
    oid = getattr(action, "offer", 0)
    pending = [o for o in state.offers if o.answers[seat] is None]
    if not oid:
        if not pending:
            return "you have no offer left to answer"
        oid = pending[0].id
    offer = offer_by_id(state, oid)
    if offer is None:
        return f"there is no open offer #{oid}"
    if offer.answers[seat] is not None:
        return f"you have already answered offer #{oid}"
    if isinstance(action, A.Accept):
        held = _short(state.hands[seat], offer.get)
        if held is not None:
            return f"offer #{oid} asks for {cards(offer.get)}; {held} (IR-50)"
    if isinstance(action, A.Counter):
        reason = _pair_reason(action.give, action.get, "a counter-offer")
        if reason is not None:
            return reason
        if (action.give, action.get) == (offer.get, offer.give):
            return f"that counter-offer is offer #{oid} itself: accept it instead (IR-50)"
        held = _short(state.hands[seat], action.give)
        if held is not None:
            return (
                f"a counter-offer gives only cards you hold: {cards(action.give)}; {held} (IR-49)"
            )
    return None


def _complete(state: IslandPosition, seat: int, a: A.Complete) -> str | None:
    offer = offer_by_id(state, a.offer)
    if offer is None:
        return f"there is no open offer #{a.offer}"
    s = a.seat
    if not 0 <= s < state.n or s == seat:
        return f"seat {s} is not an addressee of offer #{a.offer}"
    ans = offer.answers[s]
    if ans is None:
        return f"seat {s} has not answered offer #{a.offer} yet (IR-50)"
    if ans == Reply.REJECT:
        return f"seat {s} rejected offer #{a.offer} (IR-50)"
    give, get = (offer.give, offer.get) if ans == Reply.ACCEPT else (ans[1], ans[0])
    mine = _short(state.hands[seat], give)
    if mine is not None:
        return f"the trade gives {cards(give)}; {mine} now (IR-50)"
    theirs = _short(state.hands[s], get)
    if theirs is not None:
        return f"seat {s} no longer holds {cards(get)} (IR-50)"
    return None


# ------------------------------------------------------------------------------- phases
def _no_trade_here(action: Action) -> bool:
    return isinstance(action, A.MaritimeTrade | A.Offer | A.Complete | A.Withdraw)


def _common(state: IslandPosition, seat: int, action: Action) -> str | None:
    """Reasons that hold in every phase of an acting seat."""
    if isinstance(action, A.DeclineAll):
        on = bool(state.decline_all >> seat & 1)
        return f"decline-all is already {'on' if on else 'off'}"
    if isinstance(action, A.Accept | A.Reject | A.Counter):
        if seat == state.active:
            return "only the other seats answer your offers (IR-50)"
        if not state.offers:
            return "there is no open offer to answer"
        return _answer(state, seat, action)
    if isinstance(action, A.SpecialBuildSignUp):
        if state.n < SBP_MIN_PLAYERS:
            return f"the special build phase needs {SBP_MIN_PLAYERS} or more players (IR-29)"
        return "the special build sign-up comes after a regular turn ends (IR-30)"
    return None


def _setup_settle(state: IslandPosition, seat: int, action: Action) -> str | None:
    if isinstance(action, A.BuildSettlement):
        return _node_reason(state, action.node)
    if isinstance(action, A.BuildRoad):
        return "place your setup settlement first; its road follows (IR-18, IR-20)"
    return _common(state, seat, action) or (
        "setup: place a settlement; setup has no trading, robber, cards or rolls (IR-22)"
    )


def _setup_road(state: IslandPosition, seat: int, action: Action) -> str | None:
    if isinstance(action, A.BuildRoad):
        return _edge_reason(state, seat, action.edge, setup=True)
    return _common(state, seat, action) or (
        f"setup: place the road next to your settlement on {state.setup_node} (IR-18, IR-20)"
    )


def _pre_roll(state: IslandPosition, seat: int, action: Action) -> str | None:
    if type(action) in _PLAYS:
        return _play(state, seat, action)
    if isinstance(action, A.EndTurn):
        return "roll the dice before ending the turn (IR-23)"
    if _no_trade_here(action) or isinstance(
        action, A.BuildRoad | A.BuildSettlement | A.BuildCity | A.BuyDevelopment
    ):
        return "no trading or building before the roll: roll first (IR-24)"
    if isinstance(action, A.MoveRobber):
        return "the robber moves after a 7 or a Knight, not before the roll (IR-40, IR-45)"
    if isinstance(action, A.Discard):
        return f"discards follow a roll of 7 with more than {_limit(state)} cards (IR-41)"
    return _common(state, seat, action)


def _main(state: IslandPosition, seat: int, action: Action) -> str | None:
    sbp = state.phase == S.SPECIAL_BUILD
    if isinstance(action, A.BuildRoad):
        return _road(state, seat, action.edge, free=False)
    if isinstance(action, A.BuildSettlement):
        return _settle(state, seat, action.node)
    if isinstance(action, A.BuildCity):
        return _city(state, seat, action.node)
    if isinstance(action, A.BuyDevelopment):
        return _buy(state, seat)
    if type(action) in _PLAYS:
        if sbp:
            return "no development card may be played in the special build phase (IR-32)"
        return _play(state, seat, action)
    if _no_trade_here(action) and sbp:
        return "no trading in the special build phase (IR-32)"
    if isinstance(action, A.MaritimeTrade):
        return _maritime(state, seat, action)
    if isinstance(action, A.Offer):
        return _offer(state, seat, action)
    if isinstance(action, A.Complete):
        return _complete(state, seat, action)
    if isinstance(action, A.Withdraw):
        if offer_by_id(state, action.offer) is None:
            return f"there is no open offer #{action.offer}"
        return None
    if isinstance(action, A.Roll):
        return "you have already rolled this turn (IR-23)"
    if isinstance(action, A.MoveRobber):
        return "the robber moves only after a 7 or a Knight (IR-40, IR-45)"
    if isinstance(action, A.Discard):
        return f"discards follow a roll of 7 with more than {_limit(state)} cards (IR-41)"
    return _common(state, seat, action)


def _limit(state: IslandPosition) -> int:
    """The hand size above which a 7 makes a seat discard (IR-41; the ``discard_limit`` option)."""
    return int(state.game.options["discard_limit"])


def _discard(state: IslandPosition, seat: int, action: Action) -> str | None:
    need = state.discard_need[seat]
    left = need - sum(state.discard_partial[seat])
    if isinstance(action, A.Discard):
        r = action.resource
        held, chosen = state.hands[seat][r], state.discard_partial[seat][r]
        name = RESOURCES[r]
        if chosen:
            return f"you have {held} {name} and have already chosen {chosen} of them to discard"
        return f"you have no {name} to discard"
    return _common(state, seat, action) or (
        f"discard {left} more card{'s' if left != 1 else ''} first: more than "
        f"{_limit(state)} cards after a 7 means discarding half ({need}) (IR-41)"
    )


def _robber(state: IslandPosition, seat: int, action: Action) -> str | None:
    if not isinstance(action, A.MoveRobber):
        return _common(state, seat, action) or "move the robber first (IR-40, IR-42)"
    h, victim = action.hex, action.victim
    targets = robber_targets(state, seat)
    if h < 0:
        return "the robber stays only when no hex may take it (IR-46)"
    if targets == [-1]:
        return "no hex may take the robber: it stays (robber stay, IR-46)"
    if not 0 <= h < state.topology.num_hexes:
        return f"there is no hex {h} on this board"
    if h == state.robber:
        return f"the robber must move to a different hex than {h} (IR-42)"
    if h not in targets:
        return (
            f"hex {h} touches a building of a player with at most {FRIENDLY_MAX_VP} visible VP "
            "(friendly robber, IR-46)"
        )
    owners = sorted(
        {state.node_owner[v] for v in state.topology.hex_nodes[h] if state.node_owner[v] >= 0}
    )
    protected = protected_seats(state, seat)
    robbable = [q for q in owners if q != seat and q not in protected and any(state.hands[q])]
    if victim < 0:
        if robbable:
            listed = " or ".join(f"seat {q}" for q in robbable)
            return f"on hex {h} you must rob {listed} (IR-43)"
        return None
    if victim == seat:
        return "you cannot rob yourself (IR-43)"
    if victim not in owners:
        return f"seat {victim} has no building on hex {h} (IR-43)"
    if not any(state.hands[victim]):
        return f"seat {victim} holds no cards to steal (IR-43)"
    if victim in protected:
        return (
            f"seat {victim} has at most {FRIENDLY_MAX_VP} visible VP: the friendly robber "
            "never robs them (IR-46)"
        )
    return None


def _road_building(state: IslandPosition, seat: int, action: Action) -> str | None:
    if isinstance(action, A.BuildRoad):
        return _road(state, seat, action.edge, free=True)
    left = state.free_roads
    return _common(state, seat, action) or (
        f"place your free road{'s' if left != 1 else ''} first ({left} left, IR-64), or end"
    )


def _answer_phase(state: IslandPosition, seat: int, action: Action) -> str | None:
    reason = _common(state, seat, action)
    if reason is not None:
        return reason
    return f"seat {state.active} is trading: answer its offers (accept, reject or counter) (IR-50)"


def _sbp_signup(state: IslandPosition, seat: int, action: Action) -> str | None:
    if isinstance(action, A.DeclineAll):
        return _common(state, seat, action)
    return "answer the special build sign-up first: sbp join or sbp pass (IR-30)"


_PHASE_REASONS: dict[int, Callable[[IslandPosition, int, Action], str | None]] = {
    S.SETUP_SETTLEMENT: _setup_settle,
    S.SETUP_ROAD: _setup_road,
    S.PRE_ROLL: _pre_roll,
    S.DISCARD: _discard,
    S.ROBBER: _robber,
    S.MAIN: _main,
    S.ROAD_BUILDING: _road_building,
    S.ANSWER: _answer_phase,
    S.SPECIAL_BUILD_SIGNUP: _sbp_signup,
    S.SPECIAL_BUILD: _main,
}
