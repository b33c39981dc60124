"""The island game state: the phase table and the kernel's interface over the position.

:class:`IslandState` is an :class:`~.position.IslandPosition` (the plain fields) with the
kernel's methods (``legal_actions``, ``apply``, ``prompt``, the simultaneous decisions, chance,
views). What each phase allows, does and asks is one row of :data:`PHASES`, the kernel's
:class:`~hexfolk.core.phases.PhaseTable` from :class:`~.phases.Phase` to (legal actions, apply,
prompt), each taking the acting seat explicitly: the seat to move, or any acting seat of a
simultaneous phase (discards, answers to offers, the special-build sign-up), so another seat's
step never rewrites ``phase`` or ``seat``. A phase's apply hands each kind of action to its
rule function (:data:`MOVES`, ``move(position, seat, action)``) in the rule modules, one module
per chapter of the rules:

* ``setup`` (IR-11..IR-21) → ``pre-roll`` (roll or play a card, IR-24) → ``dice`` (chance):
  ``production`` (IR-35..IR-37), or on a 7 the ``robber`` (IR-41..IR-47: ``discard`` by every
  seat over the limit at once, ``robber``, ``steal`` by chance);
* ``main``: ``building`` (IR-56..IR-59), ``development`` cards (IR-60..IR-65, ``draw`` by
  chance), ``trade`` (maritime and offers answered by every other seat, IR-48..IR-55);
* ``turn``: the end, the win check (IR-4) and with 5+ players the special build phase
  (``sbp-signup``, ``sbp-build``, IR-29..IR-34); ``score`` is the one VP formula (IR-3).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from hexfolk.core import (
    CHANCE,
    TERMINAL,
    Action,
    AmbiguousActionError,
    ClockStep,
    MalformedActionError,
    Prompt,
    check_seat,
)
from hexfolk.core.phases import PhaseRules, PhaseTable, by_action_type
from hexfolk.games.island import actions as A
from hexfolk.games.island import buttons, final, positions, reasons, timeouts, views
from hexfolk.games.island.actions import (
    MARITIME_ROW,
    OFFERS_BY_HELD,
    TRADE_TABLE_LIMIT,
    bundle_text,
    trade_listing,
)
from hexfolk.games.island.building import (
    build_city,
    build_road,
    build_settlement,
    builds,
    open_spots,
    road_actions,
)
from hexfolk.games.island.development import (
    buy,
    card_plays,
    draw,
    forfeit_free_roads,
    place_free_road,
    play_knight,
    play_monopoly,
    play_plenty,
    play_road_building,
)
from hexfolk.games.island.geometry import drawing_geometry
from hexfolk.games.island.maps import MapLayoutOutcome
from hexfolk.games.island.phases import (
    ANSWER,
    CHANCE_PHASES,
    DICE,
    DISCARD,
    DRAW,
    LAYOUT,
    MAIN,
    OVER,
    PHASE_NAMES,
    PRE_ROLL,
    ROAD_BUILDING,
    ROBBER,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    SIMULTANEOUS_PHASES,
    SPECIAL_BUILD,
    SPECIAL_BUILD_SIGNUP,
    STEAL,
    Phase,
)
from hexfolk.games.island.position import (
    REJECT,
    IslandPosition,
    awaiting,
    first_unanswered,
    holds,
)
from hexfolk.games.island.production import DICE_BY_PIP, DICE_OUTCOMES, dice, roll
from hexfolk.games.island.robber import discard, discard_actions, move_robber, robber_moves, steal
from hexfolk.games.island.rules import DICE_PIPS, DICE_TOTAL, MAX_OPEN_OFFERS
from hexfolk.games.island.score import total_vp, visible_vp
from hexfolk.games.island.setup import lay_out, place_setup_road, place_setup_settlement
from hexfolk.games.island.trade import (
    HELD_OFFER_BITS,
    OFFER_BIT,
    accept,
    answers,
    can_complete,
    complete_trade,
    counter,
    counter_ok,
    make_offer,
    maritime_ok,
    maritime_trade,
    offers_left,
    reject,
    set_decline_all,
    valid_pair,
    withdraw_offer,
)
from hexfolk.games.island.turn import end_special_build, end_turn, sign_up
from hexfolk.games.island.words import bundle_words

JSON = dict[str, Any]


class IslandState(IslandPosition):
    """A position of the island game with the kernel's interface (mutable; :meth:`clone` is
    a cheap flat copy)."""

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in CHANCE_PHASES:
            return CHANCE
        return self.seat

    def is_terminal(self) -> bool:
        return self.phase == OVER  # the kernel's test of current_player(), one call fewer

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES  # (as is_terminal: the drivers ask at every step)

    def prompt(self) -> Prompt | None:
        phase = self.phase
        if phase == OVER or phase in CHANCE_PHASES:
            return None
        return self._prompt(self.seat)

    def _prompt(self, seat: int) -> Prompt:
        phase = self.phase
        prompt = _PROMPT[phase]
        assert prompt is not None
        text, data = prompt(self, seat)
        if phase == ANSWER and seat == self.active:
            phase = MAIN  # the proposer's prompt is the main phase's (its kind too)
        key = (phase, seat, text, tuple(data.items())) if data else (phase, seat, text)
        made = _PROMPTS.get(key)
        if made is None:
            if len(_PROMPTS) >= _PROMPTS_LIMIT:
                _PROMPTS.clear()
            made = _PROMPTS[key] = Prompt(PHASE_NAMES[phase], seat, text, data)
        return made

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.phase
        if phase == DICE:
            return list(DICE_OUTCOMES)
        if phase == STEAL:
            hand = self.hands[self.victim]
            total = sum(hand)
            return [(A.STEALS[r], c / total) for r, c in enumerate(hand) if c]
        if phase == DRAW:
            total = sum(self.deck)
            return [(A.DRAWS[c], k / total) for c, k in enumerate(self.deck) if k]
        if phase == LAYOUT:
            fixed = self.game.fixed_outcomes
            if fixed:
                return [(x, 1 / len(fixed)) for x in fixed]
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        phase = self.phase
        if phase == DICE:  # fast path: one draw indexes the 36 equally likely pips
            return DICE_BY_PIP[int(rng.random() * DICE_TOTAL)]
        if phase in (STEAL, DRAW):  # as State.sample_chance over chance_outcomes
            outcomes: tuple[Action, ...]
            if phase == STEAL:
                counts, outcomes = self.hands[self.victim], A.STEALS
            else:
                counts, outcomes = self.deck, A.DRAWS
            total = sum(counts)
            x = rng.random()
            acc = 0.0
            last = -1
            for i, c in enumerate(counts):
                if c:
                    acc += c / total
                    if x < acc:
                        return outcomes[i]
                    last = i
            if last >= 0:
                return outcomes[last]
        if phase == LAYOUT and not self.game.fixed_outcomes:
            return self.game.draw_layout_outcome(rng)
        return super().sample_chance(rng)

    def is_possible_chance(self, action: Action) -> bool:
        phase = self.phase
        if phase == LAYOUT:
            return self.game.is_layout_outcome(action)
        if phase == DICE:
            return isinstance(action, A.DiceOutcome) and action.total in DICE_PIPS
        if phase == STEAL:
            return (
                isinstance(action, A.StealOutcome) and self.hands[self.victim][action.resource] > 0
            )
        if phase == DRAW:
            return isinstance(action, A.DrawDevelopment) and self.deck[action.card] > 0
        return False

    def legal_actions(self) -> list[Action]:
        return _LEGAL[self.phase](self, self.seat)

    def is_legal(self, action: Action) -> bool:
        return self._is_legal(self.seat, action)

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` (the seat to move or another acting seat) may take ``action``."""
        phase = self.phase
        if phase == OVER:
            return False
        if phase in CHANCE_PHASES:
            return self.is_possible_chance(action)
        cls = type(action)
        if cls is A.Offer:
            assert isinstance(action, A.Offer)
            return (
                _in_main(self, seat)
                and self.n > 1
                and len(self.offers) < MAX_OPEN_OFFERS
                and valid_pair(self, action.give, action.get)
                and holds(self.hands[seat], action.give)
                and (action.give, action.get) not in self.rejected
                and all((o.give, o.get) != (action.give, action.get) for o in self.offers)
            )
        if cls is A.Counter or cls is A.Accept or cls is A.Reject:
            if phase != ANSWER or seat == self.active:
                return False
            if not action.offer:  # type: ignore[attr-defined]
                # offer 0: the first open offer the seat has not answered (the text form
                # without a number is refused as ambiguous by parse_action when there are more)
                first = first_unanswered(self, seat)
                if first is None:
                    return False
                action = dataclasses.replace(action, offer=first.id)  # type: ignore[type-var]
            if cls is A.Counter:
                assert isinstance(action, A.Counter)
                return counter_ok(self, seat, action)
            return action in answers(self, seat)
        if cls is A.DeclineAll:
            assert isinstance(action, A.DeclineAll)
            return bool(self.decline_all >> seat & 1) != action.on
        if cls is A.MaritimeTrade:
            assert isinstance(action, A.MaritimeTrade)
            return _in_main(self, seat) and maritime_ok(self, seat, action.give, action.get)
        if cls is A.EndTurn and phase == ROAD_BUILDING:
            return True  # IR-28: the turn clock forfeits the unplaced roads (typed, not listed)
        if cls is A.SpecialBuildSignUp and phase == SPECIAL_BUILD_SIGNUP:
            return seat in self.sbp_queue  # IR-30: join is listed only with something to build
        return action in _LEGAL[phase](self, seat)

    def parse_action(self, text: str) -> Action:
        """Parse text into a legal action; ``robber <hex>`` and ``complete <offer>`` are
        shorthands resolved against the legal actions (ambiguous when several fit)."""
        return self._parse_action(self.seat, text)

    def _parse_action(self, seat: int, text: str) -> Action:
        """:meth:`parse_action` for ``seat`` (the seat to move or another acting seat)."""
        text = text.strip()
        if not text:
            raise MalformedActionError("empty action text")
        action = self.game.parse_action_syntax(text)
        deciding = self.current_player() >= 0
        if deciding:
            action = self._resolve_answer(seat, action, text)
        if self._is_legal(seat, action):
            return action
        if deciding and (
            (isinstance(action, A.MoveRobber) and action.victim < 0 and action.hex >= 0)
            or (isinstance(action, A.Complete) and action.seat < 0)
        ):
            legal = _LEGAL[self.phase](self, seat)
            found: list[Action]
            if isinstance(action, A.MoveRobber):
                found = [a for a in legal if isinstance(a, A.MoveRobber) and a.hex == action.hex]
            else:
                found = [a for a in legal if isinstance(a, A.Complete) and a.offer == action.offer]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise AmbiguousActionError(
                    f"{text!r} could mean any of: {', '.join(str(a) for a in found)}"
                )
        raise self.refusal(seat if deciding else self.current_player(), text, action)

    def _resolve_answer(self, p: int, action: Action, text: str) -> Action:
        """``accept``, ``reject`` and ``counter <give> for <get>`` without an offer number
        name the one open offer ``p`` has not answered (ambiguous when there are several)."""
        cls = type(action)
        if cls not in (A.Accept, A.Reject, A.Counter) or action.offer:  # type: ignore[attr-defined]
            return action
        if self.phase != ANSWER or p == self.active:
            return action
        pending = [o.id for o in self.offers if o.answers[p] is None]
        if len(pending) > 1:
            raise AmbiguousActionError(
                f"{text!r} could answer any of the offers {', '.join(map(str, pending))}: "
                "write the offer number"
            )
        if not pending:
            return action
        if cls is A.Counter:
            assert isinstance(action, A.Counter)
            return A.Counter(action.give, action.get, pending[0])
        return A.Accept(pending[0]) if cls is A.Accept else A.Reject(pending[0])

    def acting_seats(self) -> list[int]:
        """IR-41: every seat that still owes cards after a 7; IR-50: while offers are open the
        active player and every seat that has not answered one; IR-30: every seat that has not
        answered the special-build sign-up (in seat order)."""
        phase = self.phase
        if phase == DISCARD:
            commits = self.discards
            assert commits is not None
            return sorted(q for q in commits.seats if commits.value_for(q) is None)
        if phase == ANSWER:
            return sorted([self.active, *awaiting(self)])
        if phase == SPECIAL_BUILD_SIGNUP:
            return sorted(self.sbp_queue)  # IR-30: every other seat signs up at once
        # the kernel's default, [current_player()] at a decision, inlined (as legal_actions_for)
        return [] if phase == OVER or phase in CHANCE_PHASES else [self.seat]

    def simultaneous_seats(self) -> list[int]:
        """The discarding seats, the seats that have not answered an open offer (the
        proposer races them: completing or withdrawing closes an offer for everyone), or the
        seats that have not answered the special-build sign-up (IR-30)."""
        phase = self.phase
        if phase == DISCARD:
            return self.acting_seats()
        if phase == ANSWER:
            return sorted(awaiting(self))
        if phase == SPECIAL_BUILD_SIGNUP:
            return sorted(self.sbp_queue)
        return []

    def legal_actions_for(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == DISCARD:
            commits = self.discards
            assert commits is not None
            if seat in commits.seats and commits.value_for(seat) is None:
                return discard_actions(self, seat)
            return []
        if phase == ANSWER:  # (a seat that answered every offer has none)
            return _answer_actions(self, seat)
        if phase == SPECIAL_BUILD_SIGNUP:
            return _signup_actions(self, seat) if seat in self.sbp_queue else []
        # the kernel's default, legal_actions() for current_player(), inlined: at chance steps
        # and at the end the table lists nothing, so only the seat to move needs comparing
        return _LEGAL[phase](self, seat) if seat == self.seat else []

    def prompt_for(self, seat: int) -> Prompt | None:
        if self.phase in SIMULTANEOUS_PHASES and seat in self.acting_seats():
            return self._prompt(seat)
        return super().prompt_for(seat)

    def legal_for(self, seat: int, action: Action) -> bool:
        if seat not in self.acting_seats():
            return False
        return self._is_legal(seat, action)

    def parse_action_for(self, seat: int, text: str) -> Action:
        if seat not in self.acting_seats():
            raise self.refusal(seat, text.strip(), self._named_action(text))
        return self._parse_action(seat, text)

    def apply_for(self, seat: int, action: Action) -> None:
        if not self.legal_for(seat, action):
            raise self.refusal(seat, str(action), action)
        _MOVES[self.phase][type(action)](self, seat, action)

    def why_illegal(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, in the game's words (see :mod:`.reasons`)."""
        return reasons.why_illegal(self, seat, action)

    def why_final(self, seat: int, action: Action) -> str | None:
        """Why the step is final at a table (no undo), in the game's words (see :mod:`.final`)."""
        return final.why_final(self, seat, action)

    def can_reveal(self, seat: int, action: Action) -> bool:
        """Never: see :func:`.final.can_reveal`."""
        return final.can_reveal(self, seat, action)

    def why_illegal_reason(self, seat: int, action: Action) -> reasons.Why:
        """:meth:`why_illegal` as data (code, params, rule; see :mod:`.reasons`)."""
        return reasons.why_illegal_reason(self, seat, action)

    def standing_actions(self, seat: int) -> list[Action]:
        """Roll, buy, play knight, play roads, end: the page's buttons (see :mod:`.buttons`)."""
        return buttons.standing_actions(seat)

    def board_geometry(self) -> JSON | None:
        """The board as laid out (Driftland's coastline too; ``None`` before its layout)."""
        if not self.topology.num_hexes:
            return None
        return drawing_geometry(self.topology)

    def apply_unchecked(self, action: Action) -> None:
        _MOVES[self.phase][type(action)](self, self.seat, action)

    def returns(self) -> list[float]:
        out = [0.0] * self.n
        if self.winner >= 0:
            out[self.winner] = 1.0
        return out

    def scores(self) -> list[float]:
        return [float(total_vp(self, p)) for p in range(self.n)]

    def turn_count(self) -> int:
        return self.turn

    def timeout_action(self, seat: int, rng: random.Random) -> Action | None:
        """IR-28's default for ``seat``'s pending decision (see :mod:`.timeouts`)."""
        return timeouts.timeout_action(self, seat, rng)

    def clock_step(self, seat: int) -> ClockStep:
        """IR-26/IR-27: the clock window of ``seat``'s decision (see :mod:`.timeouts`)."""
        return timeouts.clock_step(self, seat)

    def observation(self, seat: int | None, *, log: bool = True) -> JSON:
        check_seat(self, seat)
        return views.observation(self, seat, log=log)

    def position(self) -> dict[str, Any]:
        """This state as a position document (``docs/island.md``, "Positions"): every field
        in the game's words, hidden ones included; ``IslandGame.load_position`` reads it."""
        return positions.write_position(self)

    def full_state(self) -> JSON:
        return views.full_state(self)

    def summary(self) -> JSON:
        return views.summary(self)

    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> IslandState:
        check_seat(self, seat)
        return views.sample_consistent_state(self, seat, rng)

    def visible_vp(self, p: int) -> int:
        """VP everyone can see: buildings and awards (IR-3; :func:`~.score.visible_vp`)."""
        return visible_vp(self, p)

    def total_vp(self, p: int) -> int:
        """All VP including hidden VP cards (IR-1, IR-3; :func:`~.score.total_vp`)."""
        return total_vp(self, p)


# ------------------------------------------------------------------------------ the table
def _in_main(s: IslandState, seat: int) -> bool:
    """Whether ``seat`` plays the main phase (the proposer while answers come in, too)."""
    phase = s.phase
    return phase == MAIN or (phase == ANSWER and seat == s.active)


def _no_actions(s: IslandState, seat: int) -> list[Action]:
    return []


def main_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-25..IR-28: the active player's (``seat``'s) builds, purchase, card plays, trades
    and offers."""
    p = seat
    hand = s.hands[p]
    out: list[Action] = [A.END]
    builds(s, p, out)
    if not s.dev_played:
        dev = s.dev_cards[p]
        if dev != s.dev_bought[p]:  # some card was not bought this turn
            card_plays(s, p, dev, out)
    offers = s.offers
    if not offers and not s.rejected and 0 not in s.bank:
        key = tuple(hand)
        cache = s.trade_cache[p]
        trades = cache.get(key)
        if trades is None:
            trades = trade_listing(s.ratio[p], hand, s.n > 1)
            if len(cache) < TRADE_TABLE_LIMIT:
                cache[key] = trades
        out.extend(trades)
        return out
    # maritime: one lot at a time in the listing (several lots parse as legal too); the
    # same walk over the hand notes the types held (``mask``, for the offers below)
    ratio = s.ratio[p]
    bank = s.bank
    bank_full = 0 not in bank
    mask = 0
    for r, held in enumerate(hand):
        if held:
            mask |= 1 << r
            if held >= ratio[r]:
                row = MARITIME_ROW[ratio[r]][r]
                if bank_full:
                    out.extend(row)
                else:
                    out.extend([act for act in row if bank[act.get.index(1)]])
    # player offers: a small canonical set (1 held card for 1 card of a type not held)
    if len(offers) < MAX_OPEN_OFFERS and s.n > 1:
        if s.rejected or offers:
            skip = 0  # IR-51: the canonical offers open or rejected this turn, as bits
            for pair in s.rejected:
                skip |= OFFER_BIT.get(pair, 0)
            for o in offers:
                skip |= OFFER_BIT.get((o.give, o.get), 0)
            out.extend(offers_left(mask, skip & HELD_OFFER_BITS[mask]))
        else:
            out.extend(OFFERS_BY_HELD[mask])
    for o in offers:
        for q, ans in enumerate(o.answers):
            if ans is None or ans == REJECT:
                continue
            if can_complete(s, o, q):
                out.append(A.complete_of(o.id, q))
        out.append(A.withdraw_of(o.id))
    return out


def _pre_roll_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-24: roll, or first play a card not bought this turn (IR-61, IR-62)."""
    out: list[Action] = [A.ROLL]
    if not s.dev_played:
        p = seat
        dev = s.dev_cards[p]
        if dev != s.dev_bought[p]:  # some card was not bought this turn
            card_plays(s, p, dev, out)
    return out


def _setup_settlement_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-19: any free intersection (the distance rule, IR-57, keeps ``free``)."""
    settles = s.acts.settlement
    return [settles[v] for v in open_spots(s.topology, s.node_owner, free=s.free)]


def _setup_road_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-20: an empty edge at the settlement just placed."""
    roads = s.acts.road
    eo = s.edge_owner
    return [roads[e] for e in s.topology.node_edges[s.setup_node] if eo[e] < 0]


def _special_build_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-32: build or buy (no trades, no cards), then end."""
    out: list[Action] = [A.END]
    builds(s, seat, out)
    return out


def _free_road_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-63: where the seat may place a free road."""
    return list(road_actions(s, seat))


def _answer_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-50: the proposer plays its main phase on; the other seats answer the open offers
    they have not answered."""
    if seat == s.active:
        return main_actions(s, seat)
    return answers(s, seat)


def _signup_actions(s: IslandState, seat: int) -> list[Action]:
    """IR-30: join the special build phase or pass. Join is listed only when the seat could
    build or buy something in its slot now (IR-32 allows nothing else there, and no card
    comes in between); it stays legal typed (IR-30: any other seat may sign up), but a seat
    with nothing to build is never offered a slot it can only end (issue 27)."""
    can: list[Action] = []
    builds(s, seat, can)
    return [A.SBP_JOIN, A.SBP_PASS] if can else [A.SBP_PASS]


def _prompt_setup_settlement(s: IslandState, seat: int) -> tuple[str, JSON]:
    return f"seat {seat}: place a setup settlement", {}


def _prompt_setup_road(s: IslandState, seat: int) -> tuple[str, JSON]:
    node = s.setup_node
    return f"seat {seat}: place a road next to settlement {node}", {"settlement": node}


def _prompt_pre_roll(s: IslandState, seat: int) -> tuple[str, JSON]:
    return f"seat {seat}: roll the dice (or play a development card first)", {}


def _prompt_discard(s: IslandState, seat: int) -> tuple[str, JSON]:
    need = s.discard_need[seat]
    left = need - sum(s.discard_partial[seat])
    more = f"{left} more card" if left == 1 else f"{left} more cards"
    return f"seat {seat}: discard {more} ({need} in all, IR-41)", {"need": need, "left": left}


def _prompt_robber(s: IslandState, seat: int) -> tuple[str, JSON]:
    return f"seat {seat}: move the robber", {}


def _prompt_main(s: IslandState, seat: int) -> tuple[str, JSON]:
    text = f"seat {seat}: trade, build, play a card, or end the turn"
    if s.phase == ANSWER:
        text += " (answers to your offers are coming in)"
    return text, {}


def _prompt_road_building(s: IslandState, seat: int) -> tuple[str, JSON]:
    left = s.free_roads
    return f"seat {seat}: place a free road ({left} left)", {"left": left}


def _prompt_answer(s: IslandState, seat: int) -> tuple[str, JSON]:
    if seat == s.active:  # the proposer plays on
        return _prompt_main(s, seat)
    offer = first_unanswered(s, seat)
    assert offer is not None
    text = (
        f"seat {seat}: seat {s.active} offers {bundle_words(bundle_text(offer.give))} for your "
        f"{bundle_words(bundle_text(offer.get))}: accept, reject or counter (offer #{offer.id}; "
        "'decline-all on' declines every offer)"
    )
    return text, {"offer": offer.id}


def _prompt_signup(s: IslandState, seat: int) -> tuple[str, JSON]:
    return f"seat {seat}: sign up for the special build phase?", {}


def _prompt_special_build(s: IslandState, seat: int) -> tuple[str, JSON]:
    return f"seat {seat}: special build phase: build or buy, then end", {}


Move = Callable[[Any, int, Any], None]
"""A rule function applying one seat's action of one kind: ``move(position, seat, action)``."""

MOVES: dict[type, Move] = {
    A.LayoutOutcome: lay_out,
    MapLayoutOutcome: lay_out,
    A.BuildSettlement: build_settlement,
    A.BuildRoad: build_road,
    A.BuildCity: build_city,
    A.Roll: roll,
    A.DiceOutcome: dice,
    A.Discard: discard,
    A.MoveRobber: move_robber,
    A.StealOutcome: steal,
    A.BuyDevelopment: buy,
    A.DrawDevelopment: draw,
    A.PlayKnight: play_knight,
    A.PlayRoadBuilding: play_road_building,
    A.PlayPlenty: play_plenty,
    A.PlayMonopoly: play_monopoly,
    A.MaritimeTrade: maritime_trade,
    A.Offer: make_offer,
    A.Accept: accept,
    A.Reject: reject,
    A.Counter: counter,
    A.Complete: complete_trade,
    A.Withdraw: withdraw_offer,
    A.DeclineAll: set_decline_all,
    A.EndTurn: end_turn,
    A.SpecialBuildSignUp: sign_up,
}
"""The rule function of each kind of action, where no phase has its own."""


def _row(
    legal: Callable[[IslandState, int], list[Action]],
    prompt: Callable[[IslandState, int], tuple[str, JSON]] | None,
    **own: Move,
) -> PhaseRules[IslandState]:
    """A row of the table: its actions apply by kind, through :data:`MOVES` and ``own``."""
    moves = dict(MOVES)
    for name, move in own.items():
        moves[getattr(A, name)] = move
    return PhaseRules(legal, by_action_type(moves), prompt)


PHASES: PhaseTable[IslandState] = PhaseTable(
    Phase,
    {
        LAYOUT: _row(_no_actions, None),
        SETUP_SETTLEMENT: _row(
            _setup_settlement_actions,
            _prompt_setup_settlement,
            BuildSettlement=place_setup_settlement,
        ),
        SETUP_ROAD: _row(_setup_road_actions, _prompt_setup_road, BuildRoad=place_setup_road),
        PRE_ROLL: _row(_pre_roll_actions, _prompt_pre_roll),
        DICE: _row(_no_actions, None),
        DISCARD: _row(discard_actions, _prompt_discard),
        ROBBER: _row(robber_moves, _prompt_robber),
        STEAL: _row(_no_actions, None),
        MAIN: _row(main_actions, _prompt_main),
        DRAW: _row(_no_actions, None),
        ROAD_BUILDING: _row(
            _free_road_actions,
            _prompt_road_building,
            BuildRoad=place_free_road,
            EndTurn=forfeit_free_roads,
        ),
        ANSWER: _row(_answer_actions, _prompt_answer),
        SPECIAL_BUILD_SIGNUP: _row(_signup_actions, _prompt_signup),
        SPECIAL_BUILD: _row(
            _special_build_actions, _prompt_special_build, EndTurn=end_special_build
        ),
        OVER: _row(_no_actions, None),
    },
)
"""The phase table: by :class:`~.phases.Phase`, its legal actions, apply and prompt, each
taking the seat that acts (the seat to move, or any acting seat of a simultaneous phase)."""
_LEGAL = PHASES.legal
_MOVES = PHASES.moves
_PROMPT = PHASES.prompt
"""The table's columns, by phase (one subscript fewer on the hottest paths); a step is
``_MOVES[phase][type(action)](s, seat, action)``: the rule function, called directly."""

_PROMPTS: dict[tuple[Any, ...], Prompt] = {}
"""Each prompt made, by phase, seat, sentence and data (whose values are numbers), shared by
every state: a :class:`~hexfolk.core.Prompt` is a frozen dataclass, which costs more to build
than its sentence, and the same prompts come back all game long (the RL environments observe
at every step, issue 18). Prompts are immutable, so sharing one changes nothing."""
_PROMPTS_LIMIT = 4096
"""Prompts remembered (a bound on memory: the memo starts again when full)."""
