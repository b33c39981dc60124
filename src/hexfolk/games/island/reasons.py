"""Why an island action is refused (IR-19..IR-64): a :class:`~hexfolk.core.Reason` in the game's
words.

:func:`why_illegal_reason` is :meth:`IslandPosition.why_illegal_reason`: ``None`` when the action
is legal for the seat (decided by the engine's own check, so a reason never disagrees with
legality), else what it costs and what the seat holds, what is missing, what forbids it, or whose
decision it is, with the rule's number: a code and its params, whose English sentence
(:func:`why_illegal`) comes from :mod:`.reason_texts`. Functions over the state's fields and the
rules data only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexfolk.core import CHANCE, TERMINAL, Action, Reason, State
from hexfolk.games.island import actions as A
from hexfolk.games.island import phases as S
from hexfolk.games.island.building import road_actions
from hexfolk.games.island.labels import labels
from hexfolk.games.island.position import (
    IslandPosition,
    Reply,
    offer_by_id,
)
from hexfolk.games.island.reason_texts import REASONS as R
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
Why = Reason | None

CARD_KEYS = {
    KNIGHT: "knight",
    VICTORY: "vp",
    ROADS: "roads",
    PLENTY: "plenty",
    MONOPOLY: "monopoly",
}
"""The key of each development card in reason params (the order of ``DEV_CARDS``)."""
assert len(CARD_KEYS) == len(DEV_CARDS)


def bundle(b: Bundle) -> dict[str, int]:
    """``{"grain": 2, "ore": 3}``: the cards of a bundle by resource name (none when empty)."""
    return {RESOURCES[r]: k for r, k in enumerate(b) if k}


def _short(hand: list[int], cost: Bundle) -> dict[str, int] | None:
    """What the hand holds of each resource of ``cost`` it lacks; None if it has all."""
    lacking = {RESOURCES[r]: hand[r] for r in range(NRES) if hand[r] < cost[r]}
    return lacking or None


def _legal(state: IslandPosition, seat: int, action: Action) -> bool:
    """The engine's own verdict (chance outcomes, then any acting seat)."""
    player = state.current_player()
    if player == TERMINAL:
        return False
    if player == CHANCE:
        return seat == CHANCE and state.is_possible_chance(action)
    return state.legal_for(seat, action)


def why_illegal_reason(state: IslandPosition, seat: int, action: Action) -> Why:
    """The reason ``seat`` may not take ``action`` now, or None when it is legal."""
    if _legal(state, seat, action):
        return None
    reason = specific_reason(state, seat, action)
    return reason if reason is not None else State.generic_reason(state, seat, action)


def why_illegal(state: IslandPosition, seat: int, action: Action) -> str | None:
    """:func:`why_illegal_reason`'s English sentence."""
    reason = why_illegal_reason(state, seat, action)
    return None if reason is None else reason.text


# ------------------------------------------------------------------------------- dispatch
_CHANCE_KINDS = (A.LayoutOutcome, A.DiceOutcome, A.StealOutcome, A.DrawDevelopment)


def specific_reason(state: IslandPosition, seat: int, action: Action) -> Why:
    """The engine's reason for an illegal action (None: no specific reason known)."""
    player = state.current_player()
    if player == TERMINAL:
        if state.winner >= 0:
            return R("game_won", "IR-4", winner=state.winner)
        return R("game_over")
    if player == CHANCE:
        return _chance_reason(state, action)
    if isinstance(action, _CHANCE_KINDS):
        waiting = _waiting(state)
        return R("chance_not_move", waiting.rule, action=str(action), waiting=waiting)
    if seat not in state.acting_seats():
        waiting = _waiting(state)
        return R("not_your_decision", waiting.rule, seat=seat, waiting=waiting)
    phase = state.phase
    if phase == S.ANSWER and seat == state.active:
        phase = S.MAIN
    return _PHASE_REASONS[phase](state, seat, action)


def _waiting(state: IslandPosition) -> Reason:
    """Whose decision it is, e.g. ``it is seat 2's turn to roll the dice (IR-23)``."""
    seats = state.acting_seats()
    phase = state.phase
    if phase == S.DISCARD:
        return R("wait_discard", "IR-41", seats=list(seats))
    if phase == S.ANSWER:
        others = [q for q in seats if q != state.active]
        return R("wait_answer", "IR-50", active=state.active, others=others)
    if phase == S.SPECIAL_BUILD_SIGNUP:
        return R("wait_sbp_signup", "IR-30", seats=list(seats))
    prompt = state.prompt()
    what = prompt.text.split(": ", 1)[-1] if prompt is not None else "move"
    rule = {
        S.SETUP_SETTLEMENT: "IR-18",
        S.SETUP_ROAD: "IR-18",
        S.ROBBER: "IR-42",
        S.SPECIAL_BUILD: "IR-31",
    }.get(phase, "IR-23")
    kind = prompt.kind if prompt is not None else None
    return R("wait_decision", rule, seat=state.seat, what=what, prompt=kind)


_DRAWS = {S.LAYOUT: "layout", S.DICE: "dice", S.STEAL: "steal", S.DRAW: "draw"}


def _chance_reason(state: IslandPosition, action: Action) -> Why:
    phase = state.phase
    pending = _DRAWS[phase]
    if not isinstance(action, _CHANCE_KINDS):
        return R("chance_no_seat", pending=pending)
    if phase == S.DICE and isinstance(action, A.DiceOutcome):
        return None
    if phase == S.STEAL and isinstance(action, A.StealOutcome):
        return R("steal_none", "IR-43", victim=state.victim, res=RESOURCES[action.resource])
    if phase == S.DRAW and isinstance(action, A.DrawDevelopment):
        return R("draw_none", "IR-61", card=CARD_KEYS[action.card])
    if phase == S.LAYOUT and isinstance(action, A.LayoutOutcome):
        return R("layout_impossible", "IR-11..IR-13")
    return R("chance_not_pending", action=str(action), pending=pending)


def _on(state: IslandPosition, code: str, rule: str | None = None, **params: Any) -> Reason:
    """The reason ``code`` naming the board's places (``node``, ``edge``, ``hex``) by their
    labels (:mod:`.labels`) in its sentence; its params keep the ids."""
    return R.on_board(labels(state.topology), code, rule, **params)


# ------------------------------------------------------------------------------- pieces
def _node_reason(state: IslandPosition, v: int) -> Why:
    """Why no settlement may stand on intersection ``v`` (IR-19), whoever builds."""
    if not 0 <= v < state.topology.num_nodes:
        return R("no_node", node=v)
    owner = state.node_owner[v]
    if owner >= 0:
        return _on(state, "node_taken", node=v, owner=owner)
    if not state.free[v]:
        near = [u for u in state.topology.node_adj[v] if state.node_owner[u] >= 0]
        if near:
            return _on(state, "node_distance_on", "IR-19", node=v, near=near[0])
        return _on(state, "node_distance", "IR-19", node=v)
    return None


def _edge_reason(state: IslandPosition, seat: int, e: int, *, setup: bool) -> Why:
    """Why ``seat`` may not put a road on edge ``e`` (IR-20, IR-56), costs aside."""
    topology = state.topology
    if not 0 <= e < topology.num_edges:
        return R("no_edge", edge=e)
    owner = state.edge_owner[e]
    if owner >= 0:
        if owner == seat:
            return _on(state, "edge_yours", edge=e)
        return _on(state, "edge_taken", edge=e, owner=owner)
    if setup:
        v = state.setup_node
        if v not in topology.edge_nodes[e]:
            return _on(state, "setup_road_touch", "IR-20", node=v)
        return None
    if not state.roads_left[seat]:
        return R("roads_all_placed", "IR-59", pieces=PIECES_ROAD)
    mine = set(state.buildings[seat])
    for f in state.roads[seat]:
        mine.update(topology.edge_nodes[f])
    ends = [v for v in topology.edge_nodes[e] if v in mine]
    if not ends:
        return _on(state, "road_unconnected", "IR-56", edge=e)
    blocked = [v for v in ends if state.node_owner[v] >= 0 and state.node_owner[v] != seat]
    if len(blocked) == len(ends):
        v = blocked[0]
        return _on(state, "road_blocked", "IR-56", owner=state.node_owner[v], node=v)
    return None


def _cost_reason(state: IslandPosition, seat: int, what: str, cost: Bundle, rule: str) -> Why:
    held = _short(state.hands[seat], cost)
    if held is None:
        return None
    return R("cost", rule, what=what, cost=bundle(cost), held=held)


def _road(state: IslandPosition, seat: int, e: int, *, free: bool) -> Why:
    reason = _edge_reason(state, seat, e, setup=False)
    if reason is None and not free:
        reason = _cost_reason(state, seat, "road", COST_ROAD, "IR-56")
    if reason is None and free and not road_actions(state, seat):
        reason = R("no_road_edge", "IR-64")
    return reason


def _settle(state: IslandPosition, seat: int, v: int) -> Why:
    reason = _node_reason(state, v)
    if reason is not None:
        return reason
    if not state.settlements_left[seat]:
        return R("settlements_all_placed", "IR-59", pieces=PIECES_SETTLEMENT)
    edge_nodes = state.topology.edge_nodes
    if not any(v in edge_nodes[e] for e in state.roads[seat]):
        return _on(state, "settle_no_road", "IR-57", node=v)
    return _cost_reason(state, seat, "settlement", COST_SETTLEMENT, "IR-57")


def _city(state: IslandPosition, seat: int, v: int) -> Why:
    if not 0 <= v < state.topology.num_nodes:
        return R("no_node", node=v)
    owner = state.node_owner[v]
    if owner != seat:
        if owner < 0:
            return _on(state, "city_on_nothing", "IR-58", node=v)
        return _on(state, "city_on_other", "IR-58", node=v, owner=owner)
    if state.node_level[v] >= 2:
        return _on(state, "city_already", "IR-58", node=v)
    if not state.cities_left[seat]:
        return R("cities_all_placed", "IR-59", pieces=PIECES_CITY)
    return _cost_reason(state, seat, "city", COST_CITY, "IR-58")


def _buy(state: IslandPosition, seat: int) -> Why:
    if not any(state.deck):
        return R("deck_empty", "IR-61")
    return _cost_reason(state, seat, "dev", COST_DEV, "IR-61")


# ------------------------------------------------------------------------------- cards
_PLAYS = {
    A.PlayKnight: KNIGHT,
    A.PlayRoadBuilding: ROADS,
    A.PlayPlenty: PLENTY,
    A.PlayMonopoly: MONOPOLY,
}


def _play(state: IslandPosition, seat: int, action: Action) -> Why:
    card = _PLAYS[type(action)]
    key = CARD_KEYS[card]
    if state.dev_played:
        return R("card_played", "IR-62")
    held, new = state.dev_cards[seat][card], state.dev_bought[seat][card]
    if not held:
        return R("card_none", card=key)
    if held <= new:
        return R("card_new", "IR-62", card=key)
    if card == ROADS:
        if not state.roads_left[seat]:
            return R("roads_all_placed", "IR-59", pieces=PIECES_ROAD)
        if not road_actions(state, seat):
            return R("no_free_road_edge", "IR-64")
    if isinstance(action, A.PlayPlenty):
        bank = state.bank
        total = sum(bank)
        want = min(PLENTY_CARDS, total)
        if not total:
            return R("plenty_bank_empty", "IR-39")
        if sum(action.take) != want:
            return R("plenty_count", "IR-64", want=want, took=sum(action.take))
        short = [r for r in range(NRES) if bank[r] < action.take[r]]
        if short:
            r = short[0]
            return R("bank_short", "IR-39", held=bank[r], res=RESOURCES[r])
    return None


# ------------------------------------------------------------------------------- trade
def _maritime(state: IslandPosition, seat: int, a: A.MaritimeTrade) -> Why:
    ratio, hand = state.ratio[seat], state.hands[seat]
    lots = 0
    if not any(a.give):
        return R("maritime_empty", "IR-52")
    for r in range(NRES):
        g = a.give[r]
        if not g:
            continue
        name = RESOURCES[r]
        if a.get[r]:
            return R("maritime_same", "IR-54", res=name)
        if g % ratio[r]:
            rule = "IR-52" if ratio[r] == 4 else "IR-53"
            return R("maritime_lot", rule, res=name, ratio=ratio[r], count=g)
        if hand[r] < g:
            return R("hand_short", held=hand[r], res=name, count=g)
        lots += g // ratio[r]
    if sum(a.get) != lots:
        return R("maritime_count", "IR-54", give=bundle(a.give), lots=lots, got=sum(a.get))
    for r in range(NRES):
        if state.bank[r] < a.get[r]:
            return R("bank_short", "IR-39", held=state.bank[r], res=RESOURCES[r])
    return None


def _pair_reason(give: Bundle, get: Bundle, what: str) -> Why:
    if not any(give) and not any(get):
        return R("trade_empty", "IR-49", what=what)
    both = [RESOURCES[r] for r in range(NRES) if give[r] and get[r]]
    if both:
        return R("trade_same", "IR-49", what=what, res=both[0])
    return None


def _offer(state: IslandPosition, seat: int, a: A.Offer) -> Why:
    if state.n < 2:
        return R("nobody")
    if len(state.offers) >= MAX_OPEN_OFFERS:
        return R("offers_max", "IR-51", max=MAX_OPEN_OFFERS)
    reason = _pair_reason(a.give, a.get, "offer")
    if reason is not None:
        return reason
    held = _short(state.hands[seat], a.give)
    if held is not None:
        return R("offer_unheld", "IR-49", give=bundle(a.give), held=held)
    if (a.give, a.get) in state.rejected:
        return R("offer_rejected", "IR-51")
    for o in state.offers:
        if (o.give, o.get) == (a.give, a.get):
            return R("offer_open", offer=o.id)
    return None


def _answer(state: IslandPosition, seat: int, action: Action) -> Why:
    oid = getattr(action, "offer", 0)
    pending = [o for o in state.offers if o.answers[seat] is None]
    if not oid:
        if not pending:
            return R("no_offer_left")
        oid = pending[0].id
    offer = offer_by_id(state, oid)
    if offer is None:
        return R("no_offer", offer=oid)
    if offer.answers[seat] is not None:
        return R("answered", offer=oid)
    if isinstance(action, A.Accept):
        held = _short(state.hands[seat], offer.get)
        if held is not None:
            return R("accept_short", "IR-50", offer=oid, get=bundle(offer.get), held=held)
    if isinstance(action, A.Counter):
        reason = _pair_reason(action.give, action.get, "counter")
        if reason is not None:
            return reason
        if (action.give, action.get) == (offer.get, offer.give):
            return R("counter_same", "IR-50", offer=oid)
        held = _short(state.hands[seat], action.give)
        if held is not None:
            return R("counter_unheld", "IR-49", give=bundle(action.give), held=held)
    return None


def _complete(state: IslandPosition, seat: int, a: A.Complete) -> Why:
    offer = offer_by_id(state, a.offer)
    if offer is None:
        return R("no_offer", offer=a.offer)
    s = a.seat
    if not 0 <= s < state.n or s == seat:
        return R("not_addressee", seat=s, offer=a.offer)
    ans = offer.answers[s]
    if ans is None:
        return R("not_answered", "IR-50", seat=s, offer=a.offer)
    if ans == Reply.REJECT:
        return R("offer_refused", "IR-50", seat=s, offer=a.offer)
    give, get = (offer.give, offer.get) if ans == Reply.ACCEPT else (ans[1], ans[0])
    mine = _short(state.hands[seat], give)
    if mine is not None:
        return R("trade_gives", "IR-50", give=bundle(give), held=mine)
    theirs = _short(state.hands[s], get)
    if theirs is not None:
        return R("partner_short", "IR-50", seat=s, get=bundle(get))
    return None


# ------------------------------------------------------------------------------- phases
def _no_trade_here(action: Action) -> bool:
    return isinstance(action, A.MaritimeTrade | A.Offer | A.Complete | A.Withdraw)


def _common(state: IslandPosition, seat: int, action: Action) -> Why:
    """Reasons that hold in every phase of an acting seat."""
    if isinstance(action, A.DeclineAll):
        on = bool(state.decline_all >> seat & 1)
        return R("decline_all_on" if on else "decline_all_off")
    if isinstance(action, A.Accept | A.Reject | A.Counter):
        if seat == state.active:
            return R("answer_own", "IR-50")
        if not state.offers:
            return R("no_open_offer")
        return _answer(state, seat, action)
    if isinstance(action, A.SpecialBuildSignUp):
        if state.n < SBP_MIN_PLAYERS:
            return R("sbp_players", "IR-29", min=SBP_MIN_PLAYERS)
        return R("sbp_after_turn", "IR-30")
    return None


def _setup_settle(state: IslandPosition, seat: int, action: Action) -> Why:
    if isinstance(action, A.BuildSettlement):
        return _node_reason(state, action.node)
    if isinstance(action, A.BuildRoad):
        return R("setup_road_first", "IR-18, IR-20")
    return _common(state, seat, action) or R("setup_settle_only", "IR-22")


def _setup_road(state: IslandPosition, seat: int, action: Action) -> Why:
    if isinstance(action, A.BuildRoad):
        return _edge_reason(state, seat, action.edge, setup=True)
    return _common(state, seat, action) or R.on_board(
        labels(state.topology), "setup_road_only", "IR-18, IR-20", node=state.setup_node
    )


def _pre_roll(state: IslandPosition, seat: int, action: Action) -> Why:
    if type(action) in _PLAYS:
        return _play(state, seat, action)
    if isinstance(action, A.EndTurn):
        return R("roll_before_end", "IR-23")
    if _no_trade_here(action) or isinstance(
        action, A.BuildRoad | A.BuildSettlement | A.BuildCity | A.BuyDevelopment
    ):
        return R("roll_first", "IR-24")
    if isinstance(action, A.MoveRobber):
        return R("robber_before_roll", "IR-40, IR-45")
    if isinstance(action, A.Discard):
        return R("discard_when", "IR-41", limit=_limit(state))
    return _common(state, seat, action)


def _main(state: IslandPosition, seat: int, action: Action) -> Why:
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
            return R("sbp_no_card", "IR-32")
        return _play(state, seat, action)
    if _no_trade_here(action) and sbp:
        return R("sbp_no_trade", "IR-32")
    if isinstance(action, A.MaritimeTrade):
        return _maritime(state, seat, action)
    if isinstance(action, A.Offer):
        return _offer(state, seat, action)
    if isinstance(action, A.Complete):
        return _complete(state, seat, action)
    if isinstance(action, A.Withdraw):
        if offer_by_id(state, action.offer) is None:
            return R("no_offer", offer=action.offer)
        return None
    if isinstance(action, A.Roll):
        return R("rolled", "IR-23")
    if isinstance(action, A.MoveRobber):
        return R("robber_when", "IR-40, IR-45")
    if isinstance(action, A.Discard):
        return R("discard_when", "IR-41", limit=_limit(state))
    return _common(state, seat, action)


def _limit(state: IslandPosition) -> int:
    """The hand size above which a 7 makes a seat discard (IR-41; the ``discard_limit`` option)."""
    return int(state.game.options["discard_limit"])


def _discard(state: IslandPosition, seat: int, action: Action) -> Why:
    need = state.discard_need[seat]
    left = need - sum(state.discard_partial[seat])
    if isinstance(action, A.Discard):
        r = action.resource
        held, chosen = state.hands[seat][r], state.discard_partial[seat][r]
        name = RESOURCES[r]
        if chosen:
            return R("discard_chosen", held=held, res=name, chosen=chosen)
        return R("discard_none", res=name)
    return _common(state, seat, action) or R(
        "discard_first", "IR-41", left=left, limit=_limit(state), need=need
    )


def _robber(state: IslandPosition, seat: int, action: Action) -> Why:
    if not isinstance(action, A.MoveRobber):
        return _common(state, seat, action) or R("robber_first", "IR-40, IR-42")
    h, victim = action.hex, action.victim
    targets = robber_targets(state, seat)
    if h < 0:
        return R("robber_stay_only", "IR-46")
    if targets == [-1]:
        return R("robber_must_stay", "IR-46")
    if not 0 <= h < state.topology.num_hexes:
        return R("no_hex", hex=h)
    if h == state.robber:
        return _on(state, "robber_same", "IR-42", hex=h)
    if h not in targets:
        return _on(state, "robber_friendly_hex", "IR-46", hex=h, vp=FRIENDLY_MAX_VP)
    owners = sorted(
        {state.node_owner[v] for v in state.topology.hex_nodes[h] if state.node_owner[v] >= 0}
    )
    protected = protected_seats(state, seat)
    robbable = [q for q in owners if q != seat and q not in protected and any(state.hands[q])]
    if victim < 0:
        if robbable:
            return _on(state, "must_rob", "IR-43", hex=h, seats=robbable)
        return None
    if victim == seat:
        return R("rob_self", "IR-43")
    if victim not in owners:
        return _on(state, "victim_absent", "IR-43", victim=victim, hex=h)
    if not any(state.hands[victim]):
        return R("victim_no_cards", "IR-43", victim=victim)
    if victim in protected:
        return R("victim_protected", "IR-46", victim=victim, vp=FRIENDLY_MAX_VP)
    return None


def _road_building(state: IslandPosition, seat: int, action: Action) -> Why:
    if isinstance(action, A.BuildRoad):
        return _road(state, seat, action.edge, free=True)
    return _common(state, seat, action) or R("free_roads_first", "IR-64", left=state.free_roads)


def _answer_phase(state: IslandPosition, seat: int, action: Action) -> Why:
    reason = _common(state, seat, action)
    if reason is not None:
        return reason
    return R("answer_offers", "IR-50", active=state.active)


def _sbp_signup(state: IslandPosition, seat: int, action: Action) -> Why:
    if isinstance(action, A.DeclineAll):
        return _common(state, seat, action)
    return R("sbp_signup_first", "IR-30")


_PHASE_REASONS: dict[int, Callable[[IslandPosition, int, Action], Why]] = {
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
