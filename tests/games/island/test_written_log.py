"""The island log as written (issue 26, its speed bound): each line is the flat tuple
``(form, value, ...)`` of :data:`~hexfolk.games.island.log_forms.FIELDS`, with no dict and no
list in it, so a written line costs the garbage collector nothing once written (the dicts of
params kept every line of a game tracked and cost the RL environments 5 to 13% of their speed,
``benchmarks/README.md``); read, it is the same ``{form, params}`` line (IR-74) as before."""

from __future__ import annotations

import copy
import gc
import pickle
import random
from typing import Any

import pytest

from hexfolk.core import CHANCE, TERMINAL, LogLine, load_game
from hexfolk.games.island.labels import Labels, labels
from hexfolk.games.island.log import make_line
from hexfolk.games.island.log_forms import FIELDS, LOG, params_of, written
from hexfolk.games.island.state import IslandState


def _random_game(players: int, seed: int, steps: int = 4000) -> IslandState:
    """A random game with player offers (the answers, counters and withdrawals lines)."""
    game = load_game("island", players, {"vp_target": 10})
    state = game.new_initial_state()
    assert isinstance(state, IslandState)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.current_player()
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            state.apply_unchecked(state.sample_chance(rng))
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))
    return state


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only immutable values (no dict, no list, no object)."""
    if value is None or isinstance(value, int | str):
        return True
    return type(value) is tuple and all(_plain(v) for v in value)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_written_lines_are_flat_tuples_of_values_read_as_before(players: int) -> None:
    """Every written line of a random game is ``(form, value, ...)`` in FIELDS order with only
    immutable values; its params read back (params_of) to what ``written`` takes, and its
    made line is the book's line of those params (form, params, English text: IR-74)."""
    state = _random_game(players, seed=players)
    forms = set()
    for _vis, line in state.log_as_written():
        if line.__class__ is not tuple:
            continue  # a production line (ProductionText)
        form = line[0]
        forms.add(form)
        assert len(line) == 1 + len(FIELDS[form]), line
        assert _plain(line), line
        params = params_of(line)
        assert list(params) == list(FIELDS[form])
        assert written(form, params) == line
        made = make_line(line, _labels(state))
        want = LOG.line(form, _labels(state), **params)
        assert (made.form, made.params, str(made)) == (want.form, want.params, str(want))
    assert {"offers", "answers", "rolls", "ends"} <= forms, forms


def _labels(state: IslandState) -> Labels:
    return labels(state.topology)


def test_written_public_lines_leave_the_collector() -> None:
    """Collections untrack every public written entry (a tuple of immutable values; one
    level of nesting per collection at worst): the log no longer grows the objects each
    collection walks (issue 26's speed bound)."""
    state = _random_game(4, seed=11, steps=1500)
    for _ in range(6):
        gc.collect()
    entries = [e for e in state.log if e[0] is None and e[1].__class__ is tuple]
    assert entries
    assert not [e for e in entries if gc.is_tracked(e)]


def test_every_form_names_its_template_params() -> None:
    """FIELDS lists a form for every template, and every param its template writes."""
    assert set(FIELDS) == set(LOG.templates)
    for form, names in FIELDS.items():
        assert LOG.placeholders(form) <= set(names), form


def test_the_log_survives_pickle_and_copy_read_the_same() -> None:
    """A pickled or copied state reads the same log lines (text, form, params)."""
    state = _random_game(3, seed=5, steps=1200)

    def read(s: IslandState) -> list[tuple[Any, str, str, dict[str, Any]]]:
        out = []
        for vis, line in s.log_entries():
            assert isinstance(line, LogLine)
            out.append((vis, str(line), line.form, line.params))
        return out

    want = read(state)
    assert read(pickle.loads(pickle.dumps(state))) == want
    assert read(copy.deepcopy(state)) == want
    assert read(state.clone()) == want


def test_written_rejects_unknown_params() -> None:
    """``written`` (log_line's general path) names a param its form does not take."""
    with pytest.raises(TypeError, match="no params"):
        written("ends", {"seat": 1, "extra": 2})
    assert written("trade", {"seat": 0, "give": {"ore": 4}, "get": {"wool": 1}}) == (
        "trade",
        0,
        (0, 0, 0, 0, 4),
        (0, 0, 1, 0, 0),
    )
