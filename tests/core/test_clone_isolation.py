"""The clone-isolation check (issue 11) catches states that share mutable things with clones.

The doubles are in ``tests/core/cachegame.py`` (Harvest, an island in miniature whose memos are
shared with clones) and below (sealed bids whose sampled worlds share a list with the real
state). None is registered: the tests construct the games directly.
"""

from __future__ import annotations

import random
import re

import pytest

from hexfolk.core import Action
from hexfolk.core import testing as kit
from tests.core.cachegame import (
    HarvestGame,
    MemoSharingHarvestGame,
    ShallowCloneHarvestGame,
)
from tests.core.toygame import BidsGame, BidsState


# --- honest games pass -------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
def test_harvest_with_memos_replaced_on_every_change_passes(players: int) -> None:
    kit.check_clone_isolation(HarvestGame(players), range(8))
    kit.check_random_playouts(HarvestGame(players), range(4), deep_every=1)


def test_sealed_bids_with_hidden_commitments_pass() -> None:
    kit.check_clone_isolation(BidsGame(3), range(6))
    kit.check_clone_isolation(BidsGame(2, {"hand": 1}), range(3))


# --- issue 11: memos shared with clones while empty ---------------------------------------------
def test_issue_11_memo_shared_by_clones_made_in_setup_is_caught() -> None:
    players = 2
    with pytest.raises(kit.ConformanceError) as caught:
        kit.check_clone_isolation(MemoSharingHarvestGame(players), range(4))
    message = str(caught.value)
    assert re.search(r"^harvest \(2 players\) seed \d+ step \d+: ", message), message
    assert "after clones played on" in message
    # the culprit is a clone made during setup, while the memos were still empty
    point = re.search(r"clone point: step (\d+) \(a clone taken there", message)
    assert point is not None, message
    assert int(point.group(1)) < 2 * players, message


def test_issue_11_poisoned_income_shows_as_other_legal_actions() -> None:
    # seed 5: a roll paid the original grain from an entry a clone wrote, so it may build
    expected = (
        r"seed 5 step 11: legal actions differ after clones played on: "
        r"original has \[farm 3, farm 11, pass\], rebuilt has \[pass\]"
    )
    with pytest.raises(kit.ConformanceError, match=expected):
        kit.check_clone_isolation(MemoSharingHarvestGame(3), [5])


def test_issue_11_poisoned_income_shows_in_the_fingerprint() -> None:
    expected = r"fingerprint differs after clones played on: .* at /grain\["
    with pytest.raises(kit.ConformanceError, match=expected):
        kit.check_clone_isolation(MemoSharingHarvestGame(3), [0])


def test_issue_11_the_older_checks_miss_it() -> None:
    # Why the check exists: random bots never clone, so every other check passes.
    game = MemoSharingHarvestGame(2)
    kit.check_random_playouts(game, range(4), deep_every=1)
    kit.check_determinism(game, 1)
    kit.check_record_roundtrip(game, 1)


# --- other things shared with copies --------------------------------------------------------
def test_a_clone_sharing_a_list_is_caught_at_its_clone_point() -> None:
    expected = r"seed 0 step 0: fingerprint differs .*; clone point: step 0 \(a clone taken"
    with pytest.raises(kit.ConformanceError, match=expected):
        kit.check_clone_isolation(ShallowCloneHarvestGame(2), [0])


class WorldSharingBidsState(BidsState):
    """Sealed bids whose sampled worlds share the points list with the real state."""

    def clone(self) -> WorldSharingBidsState:
        new = WorldSharingBidsState.__new__(WorldSharingBidsState)
        new.__dict__.update(super().clone().__dict__)
        return new

    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> BidsState:
        world = super().sample_consistent_state(seat, rng)
        world.points = self.points  # the leak: not copied
        return world


class WorldSharingBidsGame(BidsGame):
    def new_initial_state(self) -> WorldSharingBidsState:
        return WorldSharingBidsState(self)


def test_a_sampled_world_sharing_a_list_is_caught() -> None:
    with pytest.raises(kit.ConformanceError, match=r"world sampled for seat \d+ taken there"):
        kit.check_clone_isolation(WorldSharingBidsGame(2), range(3), worlds=1)


def test_without_sampled_worlds_the_world_leak_is_missed() -> None:
    # The plain clone of WorldSharingBidsState is honest: only its worlds leak.
    kit.check_clone_isolation(WorldSharingBidsGame(2), range(3), worlds=0)


# --- a game that differs from itself without any clone ------------------------------------------
class RestlessBidsState(BidsState):
    """Legal actions in an order that changes from call to call (process-wide state)."""

    calls = 0

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        RestlessBidsState.calls += 1
        shift = RestlessBidsState.calls % max(1, len(legal))
        return legal[shift:] + legal[:shift]

    def clone(self) -> RestlessBidsState:
        new = RestlessBidsState.__new__(RestlessBidsState)
        new.__dict__.update(super().clone().__dict__)
        return new


class RestlessBidsGame(BidsGame):
    def new_initial_state(self) -> RestlessBidsState:
        return RestlessBidsState(self)


def test_a_nondeterministic_game_is_not_blamed_on_clones() -> None:
    with pytest.raises(kit.ConformanceError, match="without any clone too: the game is not det"):
        kit.check_clone_isolation(RestlessBidsGame(2), [0])
