"""A game's terminal view behind one interface, found by the game's id (a plug-in by file).

:class:`GameView` draws any game with the engine's own rendering; a game with a terminal view
of its own has the module ``hexfolk.cli.terminal.<game id>_view`` with a ``VIEW`` class that
overrides what it draws better (the island's :mod:`.island_view`, Scythe's
:mod:`.scythe_view`). :func:`view_for` picks it: adding a game's terminal view adds a file and
edits none (``docs/adding-a-game.md``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from hexfolk.cli.terminal.screen import Size, fit
from hexfolk.core import Action, Game, Prompt

JSON = Mapping[str, Any]


class GameView:
    """One game's terminal drawing: compact view, board, mats, hand, players, offers, menu
    hints and log sentences. This base shows the engine's own rendering."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def engine_lines(self, obs: JSON, size: Size) -> list[str]:
        """The engine's rendering of ``obs``, fitted to the columns."""
        return fit(self.game.render_observation(dict(obs)).split("\n"), size.columns)

    def compact(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        """What a decision screen shows of the game."""
        return self.engine_lines(obs, size)

    def board(self, obs: JSON, size: Size) -> list[str]:
        """The whole board (the ``board`` command)."""
        return self.engine_lines(obs, size)

    def mats(self, obs: JSON, size: Size) -> list[str]:
        """The players' mats (the ``mats`` command)."""
        return [f"{self.game.name} has no player mats"]

    def hand_lines(self, obs: JSON, viewer: int | None) -> list[str]:
        """The viewer's own holdings (empty: nothing to show)."""
        return []

    def hand(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        """The ``hand`` command."""
        lines = self.hand_lines(obs, viewer)
        return fit(lines or ["no hand to show (you are watching)"], size.columns)

    def players(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        """One line per player (the ``players`` command)."""
        return self.engine_lines(obs, size)

    def offers(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        """The open trade offers (the ``offers`` command)."""
        return [f"{self.game.name} has no trade offers"]

    def action_words(self, obs: JSON, action: Action) -> str:
        """``action`` as the menu shows it, and as a person may type it back (matched against
        the listed entries whole, :func:`.menu.pick`): its text, or, for a game whose texts name
        places by id, the same words with the places by the board's labels, written from the
        action's structured form (``Action.to_json()``). This base: the text."""
        return str(action)

    def hint(self, obs: JSON, action: Action, engine_hint: str) -> str:
        """A menu entry's hint in words, from the action's structured form (never its text)."""
        return engine_hint

    def notes(self, lines: Sequence[str], obs: JSON) -> dict[int, list[str]]:
        """Sentences the terminal adds after line ``i`` of freshly logged ``lines``, computed
        from ``obs`` as it is right after them (none by default)."""
        return {}

    def is_note(self, line: Any) -> bool:
        """Whether a log line is one the terminal's own notes say instead."""
        return False

    def sentence(self, line: Any, obs: JSON, viewer: int | None) -> str:
        """A log line as the sentence a person reads."""
        return str(line)

    def sentences(
        self,
        lines: Sequence[Any],
        obs: JSON,
        viewer: int | None,
        notes: Mapping[int, list[str]] | None = None,
    ) -> list[str]:
        """Log lines as the sentences a person reads, each followed by its ``notes``."""
        out: list[str] = []
        for i, line in enumerate(lines):
            if not self.is_note(line):
                out.append(self.sentence(line, obs, viewer))
            out += (notes or {}).get(i, [])
        return out

    def decision_words(self, prompt: Prompt, obs: JSON) -> str:
        """The pending decision in words: its sentence (:meth:`prompt_words`); a view whose
        game's prompt names a place by id writes it from the prompt's ``data``."""
        return self.prompt_words(prompt.text or prompt.kind)

    def prompt_words(self, text: str) -> str:
        """The engine's prompt text without its ``seat N:`` prefix."""
        text = re.sub(r"^seat \d+: ", "", text)
        if re.fullmatch(r"[a-z]+(?:-[a-z]+)*", text):  # a bare prompt kind: "end-turn"
            text = text.replace("-", " ")
        return text


def view_for(game: Game) -> GameView:
    """``game``'s terminal view: ``VIEW`` of ``hexfolk.cli.terminal.<id>_view`` when that module
    exists, else the engine's rendering (:class:`GameView`)."""
    try:
        module = importlib.import_module(f"hexfolk.cli.terminal.{game.id}_view")
    except ModuleNotFoundError as exc:
        if exc.name != f"hexfolk.cli.terminal.{game.id}_view":
            raise
        return GameView(game)
    view: type[GameView] = module.VIEW
    return view(game)
