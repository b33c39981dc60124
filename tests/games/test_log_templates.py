"""Log entries as data (issue 26, Deliver 2): every line the engines log in random games is a
:class:`~hexfolk.core.LogLine` of a form of the game's :class:`~hexfolk.core.LogBook`, its
template names only params the line carries, and the form has a template in each of the page's
four languages (``web/i18n/log/<game>/<lang>.json``) naming the same params. The English file
is the engine's own templates (one text, two places): they must be equal.

Random games of both games at every player count, every seat's and the spectator's log.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hexfolk.core import LogLine, game_class, load_game
from hexfolk.core.reasons import PLACEHOLDER
from hexfolk.core.testing.random_step import random_step

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
LANGS = ("nl", "en", "es", "ko")
GAMES = ("island", "scythe")
STEPS = 1500
"""Steps of each random game (enough to reach the end game of both games most of the time)."""


def _templates(game: str, lang: str) -> dict[str, str]:
    path = WEB / "i18n" / "log" / game / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _names(template: str) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(template)}


def _cases() -> list[tuple[str, int]]:
    out = []
    for game in GAMES:
        cls = game_class(game)
        out += [(game, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_english_page_templates_are_the_engines(game: str) -> None:
    book = game_class(game).log_book
    assert book is not None, f"{game} has no log book"
    assert _templates(game, "en") == book.templates


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_form_has_a_template_with_the_same_params(game: str, lang: str) -> None:
    book = game_class(game).log_book
    assert book is not None
    texts = _templates(game, lang)
    missing = sorted(set(book.templates) - set(texts))
    assert not missing, f"{lang}: no template for {missing}"
    for form, english in book.templates.items():
        assert _names(texts[form]) == _names(english), (lang, form, texts[form])


@pytest.mark.parametrize(("game", "players"), _cases())
def test_random_games_log_only_lines_of_known_forms(game: str, players: int) -> None:
    g = load_game(game, players)
    book = g.log_book
    assert book is not None
    seen: set[str] = set()
    for seed in range(2):
        rng = random.Random(f"log-{game}-{players}-{seed}")
        state = g.new_initial_state()
        for _ in range(STEPS):
            if state.is_terminal():
                break
            random_step(state, rng)
        for viewer in [None, *range(players)]:
            for line in state.observation(viewer)["log"]:
                assert isinstance(line, LogLine), f"not a LogLine: {line!r}"
                assert line.form in book.templates, line.form
                assert _names(book.templates[line.form]) <= set(line.params), (line.form, line)
                json.dumps(line.params)  # JSON-plain
                seen.add(line.form)
    assert seen, "no log line at all"
