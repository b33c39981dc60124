"""A tiny hidden-information game for testing the kernel, the kit and the CLI.

*Sealed bids*: a deck of cards 1..9 (one of each). Each seat is dealt ``hand`` cards (chance,
one draw at a time, seen only by the owner). Then ``hand`` rounds: every seat commits one card in
secret (a hidden commitment), all are revealed together, the single highest card scores a point
(a tie scores nothing). Most points wins; ties share.

Notation: ``deal 7`` (chance: the next card dealt is 7), ``bid 7`` (commit card 7).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hexfolk.core import (
    CHANCE,
    TERMINAL,
    Action,
    Commitments,
    Game,
    MalformedActionError,
    OptionSpec,
    PositionError,
    Prompt,
    State,
    check_seat,
    register,
    visible_log,
)


@dataclass(frozen=True, slots=True)
class Deal(Action):
    card: int

    def __str__(self) -> str:
        return f"deal {self.card}"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    card: int

    def __str__(self) -> str:
        return f"bid {self.card}"


class BidsGame(Game):
    id = "bids"
    name = "Sealed bids"
    rules_version = "1"
    min_players = 2
    max_players = 4
    default_players = 2
    option_specs = (OptionSpec("hand", "int", 2, "cards per hand (and rounds)", 1, 2),)

    def new_initial_state(self) -> BidsState:
        return BidsState(self)

    def parse_action_syntax(self, text: str) -> Action:
        word, _, num = text.strip().partition(" ")
        if word not in ("deal", "bid") or not num.strip().isdigit():
            raise MalformedActionError(f"{text!r}: expected 'deal N' or 'bid N'")
        card = int(num)
        if not 1 <= card <= 9:
            raise MalformedActionError(f"{text!r}: cards are 1..9")
        return Deal(card) if word == "deal" else Bid(card)

    def load_position(self, doc: str | Mapping[str, Any]) -> BidsState:
        """A sealed-bids position: ``deck``, ``hands``, ``points``, ``round`` and ``bids``
        (seat -> committed card or null), plus ``game``, ``players`` and ``options``."""
        data = json.loads(doc) if isinstance(doc, str) else dict(doc)
        n = self.num_players
        for key in ("game", "players", "options"):
            if key not in data:
                raise PositionError(f"the position does not say its {key} ({key!r} is missing)")
        if data["game"] != self.id:
            raise PositionError(f"this is a position of {data['game']!r}, not of {self.id!r}")
        if data["players"] != n:
            raise PositionError(f"the position has {data['players']} players; this game {n}")
        if data["options"] != dict(self.options):
            raise PositionError(f"the position's options {data['options']} are not this game's")
        state = BidsState(self)
        try:
            state.deck = [int(c) for c in data["deck"]]
            state.hands = [[int(c) for c in hand] for hand in data["hands"]]
            state.points = [int(p) for p in data["points"]]
            state.round = int(data["round"])
            bids = {int(seat): card for seat, card in dict(data["bids"]).items()}
        except KeyError as exc:
            raise PositionError(f"the position has no {exc.args[0]!r} field") from None
        except (TypeError, ValueError) as exc:
            raise PositionError(f"a field of the position is not a number: {exc}") from None
        if len(state.hands) != n or len(state.points) != n or set(bids) != set(range(n)):
            raise PositionError(f"hands, points and bids must name each of the {n} seats")
        committed = [int(c) for c in bids.values() if c is not None]
        cards = state.deck + [c for hand in state.hands for c in hand] + committed
        if any(not 1 <= c <= 9 for c in cards) or len(set(cards)) != len(cards):
            raise PositionError("every card is one of 1..9 and exists once")
        if not 0 <= state.round <= self.options["hand"]:
            raise PositionError(f"round {state.round} is not one of 0..{self.options['hand']}")
        if len(cards) + state.round * n != 9:
            raise PositionError(
                f"{len(cards)} cards in play after {state.round} rounds of {n} bids: "
                f"the deck has 9 cards"
            )
        for seat, card in sorted(bids.items()):
            if card is not None:
                state.bids.commit(seat, int(card))
        return state

    def render_observation(self, observation: dict[str, Any]) -> str:
        return (
            f"hand {observation['hand']} points {observation['points']} "
            f"round {observation['round']}"
        )


class BidsState(State):
    def __init__(self, game: BidsGame):
        self.game = game
        n = game.num_players
        self.deck = list(range(1, 10))
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.points = [0] * n
        self.round = 0
        self.bids = Commitments(range(n))
        self.log: list[tuple[Any, str]] = []

    @property
    def hand_size(self) -> int:
        return int(self.game.options["hand"])

    def _dealing_to(self) -> int | None:
        dealt = 9 - len(self.deck)
        n = self.game.num_players
        return dealt % n if dealt < n * self.hand_size else None

    def current_player(self) -> int:
        if self.round >= self.hand_size:
            return TERMINAL
        if self._dealing_to() is not None:
            return CHANCE
        nxt = self.bids.next_seat()
        assert nxt is not None
        return nxt

    def prompt(self) -> Prompt | None:
        p = self.current_player()
        return Prompt("bid", p, "commit a card") if p >= 0 else None

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        return [Bid(c) for c in sorted(self.hands[p])]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player() != CHANCE:
            return []
        return [(Deal(c), 1 / len(self.deck)) for c in self.deck]

    def apply_unchecked(self, action: Action) -> None:
        if isinstance(action, Deal):
            seat = self._dealing_to()
            assert seat is not None
            self.deck.remove(action.card)
            self.hands[seat].append(action.card)
            self.log.append((frozenset([seat]), f"seat {seat} is dealt {action.card}"))
            self.log.append((None, f"seat {seat} is dealt a card"))
            return
        assert isinstance(action, Bid)
        seat = self.current_player()
        self.hands[seat].remove(action.card)
        self.bids.commit(seat, action.card)
        self.log.append((None, f"seat {seat} bids"))
        if self.bids.complete():
            values = self.bids.reveal()
            top = max(values.values())
            best = [s for s, v in values.items() if v == top]
            if len(best) == 1:
                self.points[best[0]] += 1
            self.log.append((None, f"bids revealed {sorted(values.items())}"))
            self.bids = Commitments(range(self.game.num_players))
            self.round += 1

    def clone(self) -> BidsState:
        new = BidsState.__new__(BidsState)
        new.game = self.game
        new.deck = list(self.deck)
        new.hands = [list(h) for h in self.hands]
        new.points = list(self.points)
        new.round = self.round
        new.bids = self.bids.copy()
        new.log = list(self.log)
        return new

    def observation(self, seat: int | None, *, log: bool = True) -> dict[str, Any]:
        check_seat(self, seat)
        return {
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "points": list(self.points),
            "round": self.round,
            "deck_size": len(self.deck),
            "bids": self.bids.view(seat),
            "log": visible_log(self.log, seat) if log else [],
        }

    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> BidsState:
        new = self.clone()
        known = set(new.hands[seat]) if seat is not None else set()
        if seat is not None and (own := new.bids.value_for(seat)) is not None:
            known.add(own)
        pool = list(new.deck)
        for s in range(self.game.num_players):
            if s != seat:
                pool.extend(new.hands[s])
                if (v := new.bids.value_for(s)) is not None:
                    pool.append(v)
        rng.shuffle(pool)
        for s in range(self.game.num_players):
            if s != seat:
                new.hands[s] = [pool.pop() for _ in new.hands[s]]
        new.bids = self.bids.redrawn(seat, lambda s, v: pool.pop())
        new.deck = sorted(pool)
        # private log lines of other seats name their cards: rebuild them from the new deal
        new.log = [
            (vis, text)
            if vis is None or seat in vis
            else (vis, f"seat {next(iter(vis))} is dealt a hidden card")
            for vis, text in self.log
        ]
        return new

    def position(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "players": self.game.num_players,
            "options": dict(self.game.options),
            **json.loads(json.dumps(self.full_state())),
        }

    def full_state(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "hands": self.hands,
            "points": self.points,
            "round": self.round,
            "bids": {str(s): self.bids.value_for(s) for s in self.bids.seats},
        }

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        top = max(self.points)
        best = [s for s, p in enumerate(self.points) if p == top]
        return [1.0 / len(best) if s in best else 0.0 for s in range(self.game.num_players)]

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def turn_count(self) -> int:
        return self.round


def register_toy() -> type[BidsGame]:
    register(BidsGame)
    return BidsGame
