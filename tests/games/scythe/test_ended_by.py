"""Why a Scythe game ended, as data (issue 27, the rest of it: "Ended by" was an English string of
the engine on every page): the summary carries the end's form and params, the page's four
languages have a template for each form, the terminal's English renderer writes it from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexfolk.games.scythe.ended_by import TEMPLATES, ended_by, ended_by_text
from hexfolk.games.scythe.log_forms import GAME_OVER_FORMS
from hexfolk.games.scythe.render import render, render_summary

from .helpers import give, play, put_char, put_mech
from .test_combat import battle

I18N = Path(__file__).resolve().parents[3] / "src" / "hexfolk" / "web" / "i18n" / "scythe"


@pytest.mark.parametrize("reason", sorted(GAME_OVER_FORMS))
def test_each_sixth_star_is_a_form_of_its_own(reason: str) -> None:
    # SR-11: each way a sixth star is placed; the form is the game-over log line's
    got = ended_by(reason)
    assert got == {"form": GAME_OVER_FORMS[reason], "params": {}, "text": reason}


def test_any_other_reason_travels_as_a_param_and_no_end_is_none() -> None:
    assert ended_by("stopped by the host") == {
        "form": "game_over_because",
        "params": {"reason": "stopped by the host"},
        "text": "stopped by the host",
    }
    assert ended_by("") is None


def test_every_language_has_every_form_with_the_same_params() -> None:
    for lang in ("nl", "en", "es", "ko"):
        texts = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        for form, english in TEMPLATES.items():
            key = f"sc.ended_by.{form}"
            assert key in texts, (lang, key)
            assert ("{reason}" in texts[key]) == ("{reason}" in english), (lang, key)
            if lang == "en":
                assert texts[key] == english
            elif form != "game_over_because":
                assert texts[key] != english, (lang, key)  # translated, not copied


def test_a_game_won_in_combat_says_so_in_its_summary_and_in_the_terminal() -> None:
    s = battle()
    put_mech(s, 0, "speed", "r1c6")
    put_char(s, 1, "r2c5")
    give(s, 0, stars={"combat": 1, "objective": 1, "power": 1, "popularity": 1, "upgrades": 1})
    play(s, "section 3", "move character r3c3", "to r4c3")
    play(s, "move mech r1c6", "to r2c5")
    play(s, "fight r4c3", "commit 1", "commit 0")
    summary = s.summary()
    assert summary["ended_by"] == {
        "form": "game_over_combat",
        "params": {},
        "text": "sixth star in combat",
    }
    json.dumps(summary)  # JSON-plain, as the server stores it
    # every seat's observation says it too, and the terminal's view writes it from the form
    obs = s.observation(1)
    assert obs["result"]["ended_by"] == summary["ended_by"]
    assert "Game over (sixth star in combat)" in render(obs)
    assert "The game ended" in render_summary(summary)
    assert ": sixth star in combat." in render_summary(summary)


def test_the_terminal_renders_the_form_not_the_stored_string() -> None:
    # a summary's form wins over its English string; a summary stored before issue 27 (no
    # ended_by) still shows its string; a game still going shows none
    doc = {"end_reason": "stale words", "ended_by": {"form": "game_over_objective", "params": {}}}
    assert ended_by_text(doc) == "sixth star from an objective"
    assert ended_by_text({"end_reason": "sixth star"}) == "sixth star"
    assert ended_by_text({"end_reason": ""}) == ""
    assert "has not ended" in render_summary({"end_reason": "", "ended_by": None})
