"""The terminal's size, and the rule that no printed line is wider than the terminal."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

MIN_COLUMNS = 40
"""Narrower terminals are drawn as if they were this wide (lines are still cut to fit)."""

MIN_ROWS = 12
"""Shorter terminals are drawn as if they were this tall."""


@dataclass(frozen=True)
class Size:
    """A terminal of ``columns`` × ``rows`` characters."""

    columns: int = 80
    rows: int = 24

    @property
    def wide(self) -> bool:
        """Room to try the board above the decision: at least 80 × 40 (it is shown when it
        fits the rows left, in the widest drawing that fits the columns)."""
        return self.columns >= 80 and self.rows >= 40


def terminal_size() -> Size:
    """The current terminal's size: ``COLUMNS``/``LINES`` when set, else the terminal's own,
    else 80 × 24 (:func:`shutil.get_terminal_size`)."""
    cols, rows = shutil.get_terminal_size((80, 24))
    return Size(max(cols, MIN_COLUMNS), max(rows, MIN_ROWS))


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` as lines of at most ``width`` characters; continuation lines get ``indent``
    plus two spaces. Words longer than a line are cut."""
    if len(text) <= width:
        return [text]
    lead = len(text) - len(text.lstrip(" "))
    first = text[:lead]
    return textwrap.wrap(
        text[lead:],
        width=width,
        initial_indent=first,
        subsequent_indent=(indent or first) + "  ",
        break_long_words=True,
        break_on_hyphens=False,
    ) or [text[:width]]


def fit(lines: Iterable[str], width: int) -> list[str]:
    """Every line wrapped to ``width`` (tables keep their rows; a row too wide wraps)."""
    out: list[str] = []
    for line in lines:
        for part in line.split("\n"):
            out.extend(wrap(part.rstrip(), width))
    return out


def clip(line: str, width: int) -> str:
    """One line cut to ``width`` characters (an ellipsis marks the cut)."""
    return line if len(line) <= width else line[: max(width - 1, 0)] + "…"
