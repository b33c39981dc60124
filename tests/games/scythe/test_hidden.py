"""SR-59: hidden information (combat cards, objectives, commitments, decks)."""

from __future__ import annotations

from hexfolk.core import State, load_game
from hexfolk.core import testing as kit
from hexfolk.games.scythe.state import ScytheState


def plant_sentinel(state: State, seat: int, sentinel: str) -> State | None:
    """Plant the sentinel as the name of one of ``seat``'s objective cards."""
    assert isinstance(state, ScytheState)
    if not state.objectives[seat]:
        return None
    state.objectives[seat] = [sentinel]  # type: ignore[list-item]
    return state


def test_sr59_hidden_information_2p() -> None:
    kit.check_hidden_information(
        load_game("scythe", 2), seeds=[1], plant_sentinel=plant_sentinel, every=23
    )


def test_sr59_hidden_information_4p() -> None:
    kit.check_hidden_information(
        load_game("scythe", 4), seeds=[2], plant_sentinel=plant_sentinel, every=41
    )


def test_sr59_the_checked_games_use_encounters_and_factory_cards() -> None:
    """The 2-player hidden-information game above draws encounter cards and visits the
    Factory, so the kit's sampled-state checks cover the encounter deck and the offer."""
    result = kit.play_random(load_game("scythe", 2), 1)
    text = "\n".join(str(x) for x in result.record.actions)
    assert "encounter " in text and "factory " in text
