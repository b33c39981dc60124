"""The generic ISMCTS bot, on the toy sealed-bids game."""

from __future__ import annotations

import random

import pytest

from hexfolk.bots import ismcts
from hexfolk.bots.ismcts import ISMCTSBot
from hexfolk.core import Observation, make_rng
from tests.core.toygame import Bid, BidsGame, BidsState


def _position(hands: list[list[int]], points: list[int]) -> BidsState:
    """The toy game's first round with these hands dealt (a position document, not poked
    fields); the deck holds the other cards."""
    return BidsGame(2, {"hand": 2}).load_position(
        {
            "game": "bids",
            "players": 2,
            "options": {"hand": 2},
            "deck": [c for c in range(1, 10) if all(c not in h for h in hands)],
            "hands": hands,
            "points": points,
            "round": 0,
            "bids": {"0": None, "1": None},
        }
    )


def test_ismcts_plays_the_only_winning_card() -> None:
    # Last round, seat 0 holds 9 and ... only one card each; with 2 cards: 9 beats anything.
    state = _position([[9, 2], [8, 7]], [0, 0])
    bot = ISMCTSBot(iterations=300)
    action = bot.choose(Observation(state, 0), state.legal_actions(), make_rng(1, "t"))
    # Bidding 9 wins this round for sure; bidding 2 loses it for sure. Both lead to one point
    # each at most, but 9 first keeps the lead: seat 0 can never lose more than a tie.
    assert action == Bid(9)


def test_ismcts_does_not_depend_on_hidden_cards() -> None:
    # The bot sees only its observation: scrambling the opponent's hidden hand changes nothing.
    a = _position([[9, 2], [8, 7]], [0, 0])
    b = _position([[9, 2], [3, 4]], [0, 0])
    assert a.observation(0) == b.observation(0)
    choices = []
    for state in (a, b):
        bot = ISMCTSBot(iterations=100)
        choices.append(bot.choose(Observation(state, 0), state.legal_actions(), make_rng(5, "x")))
    assert choices[0] == choices[1]


class _Clock:
    """A clock that advances one millisecond each time it is read (the search reads it once
    per iteration), so the time budget is checked exactly, on a loaded machine too."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        self.now += 0.001
        return self.now


@pytest.mark.parametrize(
    ("iterations", "ms", "expected"),
    [(None, 20, 20), (None, 5, 5), (None, 0, 1), (3, 20, 3), (50, 8, 8)],
)
def test_budget_in_milliseconds_is_respected(
    monkeypatch: pytest.MonkeyPatch, iterations: int | None, ms: float, expected: int
) -> None:
    # ms stops the search at the deadline (after at least one iteration); with both budgets
    # the first one reached stops it
    monkeypatch.setattr(ismcts, "time", _Clock())
    state = _position([[9, 2], [8, 7]], [0, 0])
    bot = ISMCTSBot(iterations=iterations, ms=ms)
    bot.choose(Observation(state, 0), state.legal_actions(), random.Random(0))
    assert bot.last_iterations == expected
