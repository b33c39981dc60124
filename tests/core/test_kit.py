"""The conformance kit catches broken games (deliberately broken doubles of the toy game)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from hexfolk.core import Action, MalformedActionError
from hexfolk.core import testing as kit
from tests.core.toygame import Bid, BidsGame, BidsState, Deal

GOOD = BidsGame(3)


# --- the honest toy game passes every check ------------------------------------------------
def test_toy_game_passes_the_whole_kit(tmp_path: Path) -> None:
    kit.check_random_playouts(GOOD, range(6), deep_every=1)
    kit.check_determinism(GOOD, 3)
    kit.check_record_roundtrip(GOOD, 3)
    kit.check_action_notation(GOOD, range(3))
    kit.check_hidden_information(GOOD, range(4), plant_sentinel=plant_in_hand, every=1)
    (tmp_path / "bids.golden").write_text(kit.golden_playthrough(GOOD, 5), encoding="utf-8")
    kit.check_golden(GOOD, 5, tmp_path / "bids.golden")  # compared, equal


def plant_in_hand(state: Any, seat: int, sentinel: str) -> Any:
    """Rename one of the seat's hidden hand cards to the sentinel text."""
    if not state.hands[seat]:
        return None
    state.hands[seat][0] = sentinel
    return state


# --- a game that leaks a secret ------------------------------------------------------------
class LeakyState(BidsState):
    def observation(self, seat: int | None, *, log: bool = True) -> dict[str, Any]:
        view = super().observation(seat, log=log)
        view["all_hands"] = [list(map(str, h)) for h in self.hands]  # the leak
        return view

    def clone(self) -> LeakyState:
        new = LeakyState.__new__(LeakyState)
        new.__dict__.update(super().clone().__dict__)
        return new


class LeakyGame(BidsGame):
    def new_initial_state(self) -> LeakyState:
        return LeakyState(self)


def test_kit_catches_a_leaked_secret() -> None:
    with pytest.raises(kit.ConformanceError, match="secret shows"):
        kit.check_hidden_information(LeakyGame(3), range(2), plant_sentinel=plant_in_hand, every=1)


def test_kit_catches_a_leak_through_sampled_worlds() -> None:
    # Even without a sentinel, the leaked field differs between the real and a sampled world.
    with pytest.raises(kit.ConformanceError, match="looks different"):
        kit.check_hidden_information(LeakyGame(3), range(2), every=1)


# --- a nondeterministic game ---------------------------------------------------------------
_counter = itertools.count()


class MoodyState(BidsState):
    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        # order depends on hidden process-global state: different on each call
        shift = next(_counter) % max(1, len(legal))
        return legal[shift:] + legal[:shift]

    def clone(self) -> MoodyState:
        new = MoodyState.__new__(MoodyState)
        new.__dict__.update(super().clone().__dict__)
        return new


class MoodyGame(BidsGame):
    def new_initial_state(self) -> MoodyState:
        return MoodyState(self)


def test_kit_catches_nondeterministic_legal_order() -> None:
    with pytest.raises(kit.ConformanceError, match="not deterministic"):
        kit.check_random_playouts(MoodyGame(3), range(3), deep_every=1)


class DiceyState(BidsState):
    def sample_chance(self, rng: random.Random) -> Action:
        # draws from a private unseeded stream instead of the runner's rng
        return self.chance_outcomes()[random.SystemRandom().randrange(len(self.deck))][0]

    def clone(self) -> DiceyState:
        new = DiceyState.__new__(DiceyState)
        new.__dict__.update(super().clone().__dict__)
        return new


class DiceyGame(BidsGame):
    def new_initial_state(self) -> DiceyState:
        return DiceyState(self)


def test_kit_catches_chance_that_ignores_the_seed() -> None:
    with pytest.raises(kit.ConformanceError, match="differ"):
        for seed in range(5):  # one seed could collide by luck; five cannot all collide
            kit.check_determinism(DiceyGame(3), seed)


# --- a game whose records do not round-trip ------------------------------------------------
class SloppyGame(BidsGame):
    def parse_action_syntax(self, text: str) -> Action:
        action = super().parse_action_syntax(text)
        # forgets the card: every bid parses as the lowest card
        return Bid(1) if isinstance(action, Bid) else action


def test_kit_catches_notation_that_does_not_round_trip() -> None:
    with pytest.raises(kit.ConformanceError, match="parses to"):
        kit.check_action_notation(SloppyGame(3), range(2))


def test_kit_catches_records_that_do_not_replay() -> None:
    with pytest.raises((kit.ConformanceError, Exception)):
        kit.check_record_roundtrip(SloppyGame(3), 1)


class SharedCloneState(BidsState):
    def clone(self) -> SharedCloneState:
        new = SharedCloneState.__new__(SharedCloneState)
        new.__dict__.update(self.__dict__)  # shares the lists: not independent
        return new


class SharedCloneGame(BidsGame):
    def new_initial_state(self) -> SharedCloneState:
        return SharedCloneState(self)


def test_kit_catches_a_clone_that_shares_state() -> None:
    with pytest.raises(kit.ConformanceError, match="changed the original"):
        kit.check_random_playouts(SharedCloneGame(3), range(2), deep_every=1)


class EndlessState(BidsState):
    def legal_actions(self) -> list[Action]:
        return (
            [Bid(c) for c in sorted(self.hands[self.current_player()])]
            if (self.current_player() >= 0)
            else []
        )

    def current_player(self) -> int:
        p = super().current_player()
        return 0 if p == -2 else p  # never terminal, seat 0 "to move" with no cards

    def clone(self) -> EndlessState:
        new = EndlessState.__new__(EndlessState)
        new.__dict__.update(super().clone().__dict__)
        return new


class EndlessGame(BidsGame):
    def new_initial_state(self) -> EndlessState:
        return EndlessState(self)


def test_kit_catches_a_seat_to_move_with_nothing_legal() -> None:
    with pytest.raises((kit.ConformanceError, IndexError)):
        kit.check_random_playouts(EndlessGame(2), range(1), deep_every=1)


# --- perft ---------------------------------------------------------------------------------
def test_perft_counts_chance_and_decisions_by_hand() -> None:
    # Two players, one card each: deal (9 outcomes) x deal (8) x bid (1) x bid (1).
    game = BidsGame(2, {"hand": 1})
    state = game.new_initial_state()
    assert kit.perft(state, 1) == 9
    assert kit.perft(state, 2) == 9 * 8
    assert kit.perft(state, 4) == 9 * 8
    assert sum(kit.divide(state, 2).values()) == 72


def test_perft_file_mismatch_prints_a_divide(tmp_path: Path) -> None:
    game = BidsGame(2)
    path = tmp_path / "bids.perft"
    spec = kit.write_perft_file(path, game, 0, [], 3)
    kit.check_perft_file(path)
    text = path.read_text().replace(f'"3": {spec.counts[3]}', f'"3": {spec.counts[3] + 1}')
    path.write_text(text)
    with pytest.raises(kit.ConformanceError, match="perft\\(3\\)"):
        kit.check_perft_file(path)


def test_a_missing_golden_file_fails_unless_regenerating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "new" / "g.golden"
    monkeypatch.delenv(kit.REGEN_VARIABLE, raising=False)
    with pytest.raises(kit.ConformanceError, match=r"g\.golden is missing; HEXFOLK_REGEN_GOLDEN=1"):
        kit.check_golden(GOOD, 1, path)
    assert not path.exists()
    monkeypatch.setenv(kit.REGEN_VARIABLE, "1")
    kit.check_golden(GOOD, 1, path)
    assert path.read_text(encoding="utf-8") == kit.golden_playthrough(GOOD, 1)
    path.write_text("stale\n", encoding="utf-8")
    kit.check_golden(GOOD, 1, path)  # regenerating rewrites a changed file too
    monkeypatch.delenv(kit.REGEN_VARIABLE)
    kit.check_golden(GOOD, 1, path)


def test_a_missing_perft_file_fails_unless_regenerating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = BidsGame(2)
    path = tmp_path / "perft" / "bids.perft"
    monkeypatch.delenv(kit.REGEN_VARIABLE, raising=False)
    with pytest.raises(kit.ConformanceError, match=r"bids\.perft is missing"):
        kit.check_perft(path, game, depths=3)
    with pytest.raises(kit.ConformanceError, match=r"bids\.perft is missing"):
        kit.check_perft_file(path)
    monkeypatch.setenv(kit.REGEN_VARIABLE, "1")
    kit.check_perft(path, game, depths=3)
    monkeypatch.delenv(kit.REGEN_VARIABLE)
    kit.check_perft(path, game, depths=3)
    assert kit.PerftSpec.load(path).counts == {1: 2, 2: 4, 3: 4}  # 2 bids, 2 answers, 1 each
    with pytest.raises(kit.ConformanceError, match="describes another position"):
        kit.check_perft(path, game, depths=3, seed=1)


def test_a_perft_file_may_start_from_a_position_document(tmp_path: Path) -> None:
    game = BidsGame(3)
    state = kit.start_position(game, 4)
    state.apply(state.legal_actions()[0])
    doc = state.position()
    path = tmp_path / "mid.perft"
    spec = kit.write_perft_file(path, game, 0, [], 2, position=doc)
    assert spec.counts == {1: 2, 2: 4}
    assert kit.PerftSpec.load(path).document == doc
    kit.check_perft(path, game, depths=2, position=doc)
    kit.check_perft_file(path)


def test_golden_diff_fails_on_change(tmp_path: Path) -> None:
    path = tmp_path / "g.golden"
    path.write_text(kit.golden_playthrough(GOOD, 1), encoding="utf-8")
    kit.check_golden(GOOD, 1, path)
    path.write_text(path.read_text().replace("bid", "bud", 1))
    with pytest.raises(kit.ConformanceError, match="changed"):
        kit.check_golden(GOOD, 1, path)


def test_parse_errors_are_malformed() -> None:
    with pytest.raises(MalformedActionError):
        GOOD.parse_action_syntax("bid ten")
    assert GOOD.parse_action_syntax("deal 3") == Deal(3)


def test_golden_views_on_seat_change_keep_every_action() -> None:
    full = kit.golden_playthrough(GOOD, 2)
    compact = kit.golden_playthrough(GOOD, 2, views="seat-change")
    assert len(compact) <= len(full)
    actions = [line for line in full.splitlines() if "->" in line or "chance:" in line]
    assert actions == [line for line in compact.splitlines() if "->" in line or "chance:" in line]
    with pytest.raises(ValueError, match="views"):
        kit.golden_playthrough(GOOD, 2, views="sometimes")
