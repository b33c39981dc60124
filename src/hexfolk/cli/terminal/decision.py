"""A decision screen within the terminal's rows, and each game's view behind one interface.

A screen is, top to bottom: a title line, the game's compact view of what this decision
needs, the latest log lines, the decision in words, the numbered menu. Printed at once just
before the input line, it is never taller than the terminal (``rows - 1``) nor wider than it,
so the decision is visible without scrolling. A bigger terminal shows more: the whole menu,
more log lines (one more per 3 rows beyond 24) and, from 40 rows, the board first when it
fits the rows left (in the widest drawing that fits the columns).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hexfolk.cli.terminal import island_view, scythe_view
from hexfolk.cli.terminal.menu import Entry, menu_lines
from hexfolk.cli.terminal.offers import offers_lines
from hexfolk.cli.terminal.screen import Size, clip, fit
from hexfolk.cli.terminal.words import with_bundles_in_words
from hexfolk.core import Action, Game

JSON = Mapping[str, Any]

LOG_LINES = 4
"""Recent log lines on a decision screen of 24 rows; one more for every 3 rows beyond
(`log` shows more)."""


@dataclass
class GameView:
    """One game's terminal drawing: compact view, board, mats, menu hints, log sentences.

    Games other than the island and Scythe show the engine's own rendering."""

    game: Game

    def compact(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        if self.game.id == "island":
            return island_view.compact(self.game, obs, viewer, size)
        if self.game.id == "scythe":
            return scythe_view.compact(self.game, obs, viewer, size)
        return fit(self.game.render_observation(dict(obs)).split("\n"), size.columns)

    def board(self, obs: JSON, size: Size) -> list[str]:
        if self.game.id == "island":
            lines = island_view.board(self.game, obs, size)
            harbors = island_view.harbor_line(self.game, obs)
            return lines + (fit([harbors], size.columns) if harbors else [])
        if self.game.id == "scythe":
            return scythe_view.board(self.game, obs, size)
        return fit(self.game.render_observation(dict(obs)).split("\n"), size.columns)

    def mats(self, obs: JSON, size: Size) -> list[str]:
        if self.game.id == "scythe":
            return scythe_view.mats(self.game, obs, size)
        return [f"{self.game.name} has no player mats"]

    def hand(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        if self.game.id == "island":
            lines = island_view.hand_lines(obs, viewer)
        elif self.game.id == "scythe":
            lines = scythe_view.own_lines(obs, viewer)
        else:
            lines = []
        return fit(lines or ["no hand to show (you are watching)"], size.columns)

    def players(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        if self.game.id == "island":
            lines = [island_view.player_line(p, obs, viewer) for p in obs.get("players", [])]
        elif self.game.id == "scythe":
            lines = [scythe_view.player_line(p, obs, viewer) for p in obs.get("player_state", [])]
        else:
            lines = self.game.render_observation(dict(obs)).split("\n")
        return fit(lines, size.columns)

    def offers(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        if self.game.id != "island":
            return [f"{self.game.name} has no trade offers"]
        return fit(offers_lines(obs, viewer) or ["no open offers"], size.columns)

    def hint(self, obs: JSON, action: Action, engine_hint: str) -> str:
        """A menu entry's hint in words, from the action's structured form (never its text)."""
        if self.game.id == "island":
            return island_view.hint(obs, action.to_json(), engine_hint)
        if self.game.id == "scythe":
            return scythe_view.hint(obs, engine_hint)
        return engine_hint

    def notes(self, lines: Sequence[str], obs: JSON) -> dict[int, list[str]]:
        """Sentences the terminal adds after line ``i`` of freshly logged ``lines`` (the
        island: whose income the robber blocks, what the bank could not pay). Computed from
        ``obs`` as it is right after those lines, so only for lines just logged."""
        if self.game.id == "island":
            return island_view.production_notes(self.game, list(lines), obs)
        return {}

    def sentences(
        self,
        lines: Sequence[str],
        obs: JSON,
        viewer: int | None,
        notes: Mapping[int, list[str]] | None = None,
    ) -> list[str]:
        """Log lines as the sentences a person reads, each followed by its ``notes``."""
        out: list[str] = []
        for i, line in enumerate(lines):
            if self.game.id == "island" and island_view.is_engine_note(line):
                out += (notes or {}).get(i, [])  # said by the terminal's own notes
                continue
            if self.game.id == "island":
                out.append(island_view.log_sentence(line, obs, viewer))
            elif self.game.id == "scythe":
                out.append(scythe_view.log_sentence(line, obs, viewer))
            else:
                out.append(line)
            out += (notes or {}).get(i, [])
        return out

    def prompt_words(self, text: str) -> str:
        """The engine's prompt text without its ``seat N:`` prefix, bundles in words."""
        text = re.sub(r"^seat \d+: ", "", text)
        if re.fullmatch(r"[a-z]+(?:-[a-z]+)*", text):  # a bare prompt kind: "end-turn"
            text = text.replace("-", " ")
        if self.game.id == "island":
            text = with_bundles_in_words(text)
            text = re.sub(
                r"^(seat \d+ offers .+?) for (.+?): accept", r"\1 for your \2: accept", text
            )
            if text.startswith(("place a setup settlement", "move the robber")):
                text += " (`board` shows the map, `list` what each choice touches)"
        return text


def decision_screen(
    title: str,
    compact: Sequence[str],
    log: Sequence[str],
    decision: str,
    entries: Sequence[Entry],
    size: Size,
    board: Sequence[str] = (),
) -> list[str]:
    """The lines of one decision screen: at most ``size.rows - 1`` lines (the input line is
    the last row), none wider than ``size.columns``. The decision and as much of the menu as
    fits come first in the budget, then the compact view, then the board (when given and it
    fits whole), then the log."""
    width = size.columns
    budget = size.rows - 1
    head = [clip(title, width)]
    ask = fit([decision], width)[:2]
    budget -= len(head) + len(ask)
    want_menu = len(menu_lines(entries, width, 10**6))
    keep = min(len(compact), 6) + min(len(log), 1)
    menu_rows = max(2, min(want_menu, budget - keep))
    menu = menu_lines(entries, width, menu_rows)
    budget -= len(menu)
    body = list(compact[: max(budget, 0)])
    budget -= len(body)
    extra = list(board) if board and len(board) <= budget else []
    budget -= len(extra)
    most = LOG_LINES + max(size.rows - 24, 0) // 3
    recent = (
        [clip("  · " + line, width) for line in log[-most:]][-max(budget, 0) :]
        if budget > 0
        else []
    )
    return head + extra + body + recent + ask + menu
