"""The positions contract (issue 14): ``Game.load_position`` and ``State.position``.

A game that has not implemented positions says so in a sentence (NotImplementedError), never
returns something half-built; a refused document is a :class:`PositionError`, which callers
(``hexfolk perft --position``, ``hexfolk play --position``) may catch as a ValueError.
"""

from __future__ import annotations

import pytest

from hexfolk.core import HexfolkError, PositionError
from tests.core.toygame import BidsGame


def test_position_error_is_an_input_error() -> None:
    assert issubclass(PositionError, HexfolkError)
    assert issubclass(PositionError, ValueError)


def test_default_contract_refuses_with_a_sentence_naming_the_game() -> None:
    class NoPositions(BidsGame):
        id = "no-positions"

    game = NoPositions()
    with pytest.raises(NotImplementedError, match="no-positions does not load positions"):
        game.load_position({})
    with pytest.raises(NotImplementedError, match="no-positions does not write positions"):
        game.new_initial_state().position()
