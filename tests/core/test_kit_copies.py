"""The copies check (issue 25, deliver 2): a state copied by pickle into a spawned process, by
deepcopy, by clone and by position round trip plays on exactly like the original.

The doubles are in ``tests/core/idgame.py``: Harvest with positions (honest) and Harvest whose
log memo is keyed by ``id()``, as the island's maritime lines were before 66b750f (the hard
bot's KeyError on every maritime trade in the server's worker processes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from hexfolk.core import testing as kit
from tests.core.idgame import (
    IdMemoHarvestGame,
    IdMemoHarvestState,
    PositionedHarvestGame,
    PositionedHarvestState,
    QuietIdMemoHarvestGame,
)


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    with kit.copy_pool() as spawned:
        yield spawned


@pytest.mark.parametrize("players", [2, 3])
def test_harvest_with_value_keyed_memos_passes(players: int, pool: ProcessPoolExecutor) -> None:
    report = kit.check_copies(
        PositionedHarvestGame(players), range(3), points=3, cover=("farm", "roll"), pool=pool
    )
    assert report.points >= 3 * 3
    assert {"farm", "roll", "pass"} <= report.carried & report.replayed


def test_an_id_keyed_memo_fails_in_the_spawned_process(pool: ProcessPoolExecutor) -> None:
    expected = (
        r"^harvest \(2 players\) seed 0: the copy pickled into a spawned process at step \d+ "
        r"fails at step \d+ \('farm \d+'\), which the original plays: KeyError\(\d+\)"
    )
    with pytest.raises(kit.ConformanceError, match=expected) as caught:
        kit.check_copies(IdMemoHarvestGame(2), [0], cover=("farm",), pool=pool)
    assert "self.lines[id(action)]" in str(caught.value)  # the traceback shows the culprit


def test_a_quiet_fallback_shows_as_the_lines_that_differ(pool: ProcessPoolExecutor) -> None:
    # the spawned process digests its steps; the difference is then asked for in detail
    expected = (
        r"the copy pickled into a spawned process at step \d+ differs at step \d+: the "
        r"(whole log of seat 0|log lines seat 0 gained) \(copy != original at .*: "
        r"'seat \d farms' != 'seat \d farms field \d+'\)"
    )
    with pytest.raises(kit.ConformanceError, match=expected):
        kit.check_copies(QuietIdMemoHarvestGame(2), [0], cover=("farm",), pool=pool)


def test_the_id_keyed_memo_passes_every_check_made_in_one_process() -> None:
    # Why the spawned process: clones, deep copies, positions and playouts all keep the
    # objects whose ids are the keys, so every in-process check passes.
    game = IdMemoHarvestGame(3)
    kit.check_random_playouts(game, range(4), deep_every=1)
    kit.check_clone_isolation(game, range(4))
    kit.check_positions(game, range(3), every=3)


class UnpicklableHarvestState(PositionedHarvestState):
    def __init__(self, game: Any):
        super().__init__(game)
        self.key = lambda farm: farm.field  # a lambda does not pickle


class UnpicklableHarvestGame(PositionedHarvestGame):
    pass


UnpicklableHarvestGame.state_class = UnpicklableHarvestState


def test_a_state_that_does_not_pickle_is_named(pool: ProcessPoolExecutor) -> None:
    with pytest.raises(
        kit.ConformanceError, match=r"seed 0: the state at step \d+ does not pickle"
    ):
        kit.check_copies(UnpicklableHarvestGame(2), [0], pool=pool)


class ForgetfulPositionGame(PositionedHarvestGame):
    """Positions that forget the turn count (the copy by position plays another game)."""

    def load_position(self, doc: Any) -> Any:
        state = super().load_position(doc)
        state.turn = 0
        return state


def test_a_position_that_loses_a_field_is_named(pool: ProcessPoolExecutor) -> None:
    expected = re.escape("the copy by load_position(position()) taken at step ")
    with pytest.raises(kit.ConformanceError, match=expected + r"\d+ differs at step \d+"):
        kit.check_copies(ForgetfulPositionGame(2), [1], points=3, pool=pool)


def test_a_kind_the_game_never_plays_is_an_error(pool: ProcessPoolExecutor) -> None:
    with pytest.raises(kit.ConformanceError, match="never plays a 'trade' step"):
        kit.check_copies(PositionedHarvestGame(2), [0], cover=("trade",), pool=pool)


def test_the_doubles_are_what_they_say() -> None:
    state = IdMemoHarvestGame(2).new_initial_state()
    assert isinstance(state, IdMemoHarvestState)
    assert all(isinstance(key, int) for key in state.lines)
