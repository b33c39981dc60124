"""Both games declare their phases in the kernel's one phase table (issue 26 item 6), every
phase with its (legal, apply, prompt) row."""

from __future__ import annotations

from hexfolk.core.phases import PhaseTable
from hexfolk.games.island.phases import Phase as IslandPhase
from hexfolk.games.island.state import PHASES as ISLAND_PHASES
from hexfolk.games.scythe.phases import Phase as ScythePhase
from hexfolk.games.scythe.state import PHASES as SCYTHE_PHASES


def test_both_games_use_the_kernel_table_for_every_phase() -> None:
    assert isinstance(ISLAND_PHASES, PhaseTable) and set(ISLAND_PHASES) == set(IslandPhase)
    assert isinstance(SCYTHE_PHASES, PhaseTable) and set(SCYTHE_PHASES) == set(ScythePhase)
