"""A decision screen within the terminal's rows (each game's view: :mod:`.game_view`).

A screen is, top to bottom: a title line, the game's compact view of what this decision
needs, the latest log lines, the decision in words, the numbered menu. Printed at once just
before the input line, it is never taller than the terminal (``rows - 1``) nor wider than it,
so the decision is visible without scrolling. A bigger terminal shows more: the whole menu,
more log lines (one more per 3 rows beyond 24) and, from 40 rows, the board first when it
fits the rows left (in the widest drawing that fits the columns).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hexfolk.cli.terminal.menu import Entry, menu_lines
from hexfolk.cli.terminal.screen import Size, clip, fit

JSON = Mapping[str, Any]

LOG_LINES = 4
"""Recent log lines on a decision screen of 24 rows; one more for every 3 rows beyond
(`log` shows more)."""


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
