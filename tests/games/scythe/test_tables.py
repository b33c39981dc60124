"""The engine's two tables are complete: every phase has its rules, every continuation its step.

``state.PHASES`` maps each :class:`~hexfolk.games.scythe.phases.Phase` to (legal actions, apply,
prompt) and ``state.CONTINUATIONS`` each :class:`~hexfolk.games.scythe.phases.Continuation` to
the rule step it runs; a phase or continuation added without its entry fails here, not in the
middle of a game.
"""

from __future__ import annotations

import random

from hexfolk.core import load_game
from hexfolk.games.scythe.phases import PHASE_NAMES, PHASE_OF_KIND, Continuation, Phase
from hexfolk.games.scythe.state import CONTINUATIONS, PHASES


def test_every_phase_has_its_rules_and_a_prompt_kind() -> None:
    assert set(PHASES) == set(Phase)
    assert [p.kind for p in Phase] == list(PHASE_NAMES)
    assert {PHASE_OF_KIND[p.kind] for p in Phase} == set(Phase)


def test_every_continuation_has_its_step() -> None:
    assert set(CONTINUATIONS) == set(Continuation)


def test_the_prompt_kind_is_the_phase_of_the_table() -> None:
    """Along a random game, the prompt's kind is the table's phase and ``prompt_kind()``."""
    s = load_game("scythe", 3).new_initial_state()
    rng = random.Random(4)
    seen = set()
    while not s.is_terminal() and len(seen) < 12 and s.turn_count() < 200:
        if s.is_chance():
            s.apply(s.sample_chance(rng))
            continue
        prompt = s.prompt()
        assert prompt is not None and prompt.kind == s.prompt_kind() == PHASE_NAMES[s.phase]
        seen.add(prompt.kind)
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert len(seen) >= 10
