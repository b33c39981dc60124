"""The kit's arrival-order check (``check_simultaneous``) on doubles of the sealed-bids toy game.

:class:`SimultaneousBids` lets every seat that has not bid yet bid now (``acting_seats``), in any
order; the honest version passes the check, and its records with out-of-order arrivals replay.
The broken doubles are caught: one whose result depends on who bid first, one that shows a bid
before the reveal, one that keeps the arrival order in its state.
"""

from __future__ import annotations

from typing import Any

import pytest

from hexfolk.core import Action, IllegalActionError, MatchRecord, Prompt, replay
from hexfolk.core import testing as kit
from hexfolk.core.record import record_entry, split_entry
from tests.core.toygame import Bid, BidsGame, BidsState


class SimultaneousBidsState(BidsState):
    """Every seat without a bid may bid; ``current_player()`` is the first of them."""

    def _waiting(self) -> list[int]:
        if self.current_player() < 0:
            return []
        return [s for s in self.bids.seats if self.bids.value_for(s) is None]

    def acting_seats(self) -> list[int]:
        return self._waiting() or super().acting_seats()

    def legal_actions_for(self, seat: int) -> list[Action]:
        if seat not in self._waiting():
            return []
        return [Bid(c) for c in sorted(self.hands[seat])]

    def prompt_for(self, seat: int) -> Prompt | None:
        return Prompt("bid", seat, "commit a card") if seat in self._waiting() else None

    def parse_action_for(self, seat: int, text: str) -> Action:
        action = self.game.parse_action_syntax(text)
        if action not in self.legal_actions_for(seat):
            raise IllegalActionError(f"{text!r} is not legal for seat {seat}")
        return action

    def apply_for(self, seat: int, action: Action) -> None:
        if action not in self.legal_actions_for(seat):
            raise IllegalActionError(f"{action} is not legal for seat {seat}")
        self._bid(seat, action)

    def apply_unchecked(self, action: Action) -> None:
        if isinstance(action, Bid):
            self._bid(self.current_player(), action)
        else:
            super().apply_unchecked(action)

    def _bid(self, seat: int, action: Action) -> None:
        assert isinstance(action, Bid)
        self.hands[seat].remove(action.card)
        self.bids.commit(seat, action.card)
        if self.bids.complete():
            self._reveal()

    def _reveal(self) -> None:
        values = self.bids.reveal()
        top = max(values.values())
        best = [s for s, v in values.items() if v == top]
        if len(best) == 1:
            self.points[best[0]] += 1
        self.log.append((None, f"bids revealed {sorted(values.items())}"))
        self.bids = type(self.bids)(range(self.game.num_players))
        self.round += 1

    def clone(self) -> SimultaneousBidsState:
        new = type(self).__new__(type(self))
        new.__dict__.update(BidsState.clone(self).__dict__)
        return new


class SimultaneousBids(BidsGame):
    id = "simultaneous-bids"
    state_class: type[SimultaneousBidsState] = SimultaneousBidsState

    def new_initial_state(self) -> SimultaneousBidsState:
        return self.state_class(self)


# --- broken doubles ------------------------------------------------------------------------
class FirstComeState(SimultaneousBidsState):
    """The quickest bidder of a round scores a bonus point: the result depends on arrival."""

    def _reveal(self) -> None:
        first = next(iter(self.bids._values))  # the commitment that arrived first
        self.points[first] += 1
        super()._reveal()


class ArrivalLogState(SimultaneousBidsState):
    """Logs each bid as it arrives: the state keeps the arrival order."""

    def _bid(self, seat: int, action: Action) -> None:
        self.log.append((None, f"seat {seat} bids"))
        super()._bid(seat, action)

    def full_state(self) -> dict[str, Any]:
        return {**super().full_state(), "log": [text for _, text in self.log]}


class PeekingState(SimultaneousBidsState):
    """Shows every committed bid to everybody before the reveal."""

    def observation(self, seat: int | None, *, log: bool = True) -> dict[str, Any]:
        view = super().observation(seat, log=log)
        view["peek"] = {str(s): self.bids.value_for(s) for s in self.bids.seats}
        return view


def _game(state_class: type[SimultaneousBidsState], players: int = 3) -> SimultaneousBids:
    game = SimultaneousBids(players)
    game.state_class = state_class
    return game


def test_honest_simultaneous_bids_pass_the_kit() -> None:
    game = _game(SimultaneousBidsState)
    checked = kit.check_simultaneous(game, range(4), secret_prompts=("bid",))
    assert checked >= 8  # two rounds per game, every one simultaneous
    kit.check_random_playouts(game, range(3), deep_every=1)


def test_kit_catches_a_result_that_depends_on_arrival_order() -> None:
    with pytest.raises(kit.ConformanceError, match="different states"):
        kit.check_simultaneous(_game(FirstComeState, 4), range(6))


def test_kit_catches_a_state_that_keeps_the_arrival_order() -> None:
    with pytest.raises(kit.ConformanceError, match="different states"):
        kit.check_simultaneous(_game(ArrivalLogState), range(2))


def test_kit_catches_a_bid_shown_before_the_reveal() -> None:
    with pytest.raises(kit.ConformanceError, match="secret bid choice shows"):
        kit.check_simultaneous(_game(PeekingState), range(3), secret_prompts=("bid",))


def test_kit_refuses_to_pass_a_game_without_simultaneous_decisions() -> None:
    with pytest.raises(kit.ConformanceError, match="no simultaneous decision"):
        kit.check_simultaneous(BidsGame(2), range(2))


def test_records_keep_out_of_order_arrivals_and_replay() -> None:
    game = _game(SimultaneousBidsState)
    state = game.new_initial_state()
    steps: list[tuple[int | None, str]] = []
    while state.is_chance():  # the deal
        outcome = state.chance_outcomes()[0][0]
        steps.append((None, str(outcome)))
        state.apply(outcome)
    assert state.acting_seats() == [0, 1, 2] and state.current_player() == 0
    for seat in (2, 0, 1):  # seat 2 first: not the seat the sequential walk names
        card = state.legal_actions_for(seat)[0]
        steps.append((seat, str(card)))
        assert record_entry(state, seat, card) == (
            str(card) if seat == state.current_player() else f"@{seat} {card}"
        )
        state.apply_for(seat, card)
    record = MatchRecord.from_steps(game, 0, steps)
    marked = [e for e in record.actions if e.startswith("@")]
    assert marked == [f"@2 {steps[-3][1]}"]  # seat 0 and then 1 were current when they bid
    again = MatchRecord.loads(record.dumps())
    assert replay(again, game=game).fingerprint() == state.fingerprint()
    assert split_entry("@12 bid 3") == (12, "bid 3") and split_entry("bid 3") == (None, "bid 3")


@pytest.mark.parametrize("entry", ["@x bid 3", "@ bid 3", "@1", "@1 "])
def test_malformed_seat_marks_are_refused(entry: str) -> None:
    game = _game(SimultaneousBidsState)
    record = MatchRecord.from_steps(game, 0, [])
    record.actions = [entry]
    with pytest.raises(Exception, match="step 0"):
        replay(record, game=game)


def test_a_seat_that_is_not_acting_cannot_be_recorded() -> None:
    game = _game(SimultaneousBidsState)
    with pytest.raises(Exception, match="step 0"):
        MatchRecord.from_steps(game, 0, [(1, "bid 3")])  # a chance node: nobody bids
