"""The conformance kit: the checks every game in Hexfolk must pass.

A game's test module uses it in a few lines::

    from hexfolk.core import load_game
    from hexfolk.core import testing as kit

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_random_playouts(players):
        kit.check_random_playouts(load_game("island", players), seeds=range(5))

:func:`check_clone_isolation` plays random continuations on clones and sampled worlds (as search
bots do) and checks the original still plays exactly like a state rebuilt from its history
(issue 11). :func:`check_copies` copies states by pickle into a spawned process, deepcopy,
clone and position round trip and checks each copy plays on exactly like the original (issue
25): every memo survives pickle, copy, clone and position round trips; never key by identity.

Every check raises :class:`ConformanceError` (an AssertionError) with a readable message.
"""

from hexfolk.core.testing.checks import (
    ConformanceError,
    check_action_notation,
    check_determinism,
    check_hidden_information,
    check_random_playouts,
    check_record_roundtrip,
    play_random,
)
from hexfolk.core.testing.clones import check_clone_isolation
from hexfolk.core.testing.copies import CopyReport, check_copies, copy_pool
from hexfolk.core.testing.golden import (
    REGEN_VARIABLE,
    check_golden,
    golden_playthrough,
    regenerating,
)
from hexfolk.core.testing.perft import (
    PerftSpec,
    check_perft,
    check_perft_file,
    divide,
    perft,
    start_position,
    write_perft_file,
)
from hexfolk.core.testing.positions import check_positions
from hexfolk.core.testing.process_memos import check_no_process_memo_pickled
from hexfolk.core.testing.simultaneous import check_simultaneous

__all__ = [
    "REGEN_VARIABLE",
    "ConformanceError",
    "CopyReport",
    "PerftSpec",
    "check_action_notation",
    "check_clone_isolation",
    "check_copies",
    "check_determinism",
    "check_golden",
    "check_hidden_information",
    "check_no_process_memo_pickled",
    "check_perft",
    "check_perft_file",
    "check_positions",
    "check_random_playouts",
    "check_record_roundtrip",
    "check_simultaneous",
    "copy_pool",
    "divide",
    "golden_playthrough",
    "perft",
    "play_random",
    "regenerating",
    "start_position",
    "write_perft_file",
]
