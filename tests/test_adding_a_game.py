"""Every game the package registers plugs into every client (issue 26, deliver 5;
``docs/adding-a-game.md``): a game in :mod:`hexfolk.core.registry` without its table-page
plug-in, its terminal view, its bots or its RL encoding would otherwise pass the suite and be
unplayable in a browser, a terminal, against bots or for training. For each game ``<id>``:

* the page plug-in ``web/games/<id>.js`` registers itself (``registerGame``) under its id with
  ``mount``, ``update``, ``logForms`` and ``settingsForm`` (``web/games/registry.js``);
* the terminal view ``cli/terminal/<id>_view.py`` has a ``VIEW`` class that ``view_for``
  (``cli/terminal/game_view.py``) picks, drawing its own ``compact`` and ``board``;
* the bots ``hexfolk.bots.<id>`` build every level (``make_level_bot`` for easy, medium,
  hard);
* the RL encoding: ``hexfolk.rl.make_codec`` gives the game a codec, and its environment
  steps once.

The failure names every missing piece. The toy games the tests register are left out.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from hexfolk.bots.registry import LEVELS, make_bot
from hexfolk.cli.terminal.game_view import GameView, view_for
from hexfolk.core import load_game
from tests.test_registry_coverage import shipped_games

SRC = Path(__file__).resolve().parents[1] / "src" / "hexfolk"
PLUGIN_KEYS = ("mount", "update", "logForms", "settingsForm")


def missing_page_and_view(game_id: str, src: Path) -> list[str]:
    """What the browser's plug-in and the terminal's view of ``game_id`` lack, in words."""
    missing: list[str] = []
    plugin = src / "web" / "games" / f"{game_id}.js"
    if not plugin.is_file():
        missing.append(f"{plugin} (the table page's plug-in) does not exist")
    else:
        text = plugin.read_text(encoding="utf-8")
        if "registerGame(" not in text or not re.search(rf'\bid:\s*"{game_id}"', text):
            missing.append(f'{plugin} does not registerGame({{ id: "{game_id}", ... }})')
        for key in PLUGIN_KEYS:
            if not re.search(rf"\b{key}\s*[:(]", text):
                missing.append(f"{plugin} registers no {key}")
    view = src / "cli" / "terminal" / f"{game_id}_view.py"
    if not view.is_file():
        missing.append(f"{view} (the terminal view) does not exist")
    else:
        chosen = type(view_for(load_game(game_id)))
        if chosen is GameView:
            missing.append(f"{view} has no VIEW class of its own")
        for fn in ("compact", "board"):
            if getattr(chosen, fn) is getattr(GameView, fn):
                missing.append(f"{view}'s VIEW draws no {fn} of its own")
    return missing


def missing_bots_and_rl(game_id: str) -> list[str]:
    """What the bots and the RL encoding of ``game_id`` lack, in words."""
    missing: list[str] = []
    try:
        importlib.import_module(f"hexfolk.bots.{game_id}")
    except ImportError:
        missing.append(f"hexfolk.bots.{game_id} (the game's bots) does not exist")
    else:
        # each level is built here; how well it plays is the bots' own tests (tests/bots)
        for level in LEVELS:
            try:
                make_bot(level, game_id)
            except Exception as exc:  # the failure names the level and why
                missing.append(f"the {level} bot of {game_id}: {exc}")
    try:
        from hexfolk.rl import env, make_codec
    except ImportError as exc:  # the rl extra is part of the dev install
        return [*missing, f"hexfolk.rl does not import: {exc}"]
    try:
        make_codec(load_game(game_id))
        e = env(game_id, seed=5)
        e.reset(seed=5)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(mask.argmax()))
    except Exception as exc:  # no codec, or an environment that cannot take a step
        missing.append(f"the RL environment of {game_id}: {exc}")
    return missing


@pytest.mark.parametrize("game_id", shipped_games())
def test_every_registered_game_plugs_into_every_client(game_id: str) -> None:
    missing = missing_page_and_view(game_id, SRC) + missing_bots_and_rl(game_id)
    assert not missing, "\n".join(missing)


def test_a_game_without_its_files_is_told_what_it_lacks(tmp_path: Path) -> None:
    """The check can fail: a game with none of the files is told each one."""
    (tmp_path / "web" / "games").mkdir(parents=True)
    (tmp_path / "web" / "games" / "toy.js").write_text(
        'registerGame({ id: "toy", mount: (s) => s, update: (p) => p });\n', encoding="utf-8"
    )
    missing = missing_page_and_view("toy", tmp_path)
    assert any("registers no logForms" in m for m in missing)
    assert any("registers no settingsForm" in m for m in missing)
    assert any("the terminal view" in m for m in missing)
    assert not any("registers no mount" in m for m in missing)
    assert missing_bots_and_rl("no_such_game")[0].startswith("hexfolk.bots.no_such_game")
