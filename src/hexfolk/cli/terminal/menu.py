"""The numbered menu of legal actions, fitted to the rows and columns left on the screen, and
what a typed line picks from it.

Number ``k`` always means the ``k``-th legal action (the engine's order), whether or not it
is shown: a menu too long for the screen shows the first entries with their own numbers and
says how many more there are (``list`` prints them all). An entry shows the action in the
game view's words (:meth:`.game_view.GameView.action_words`: places by the board's labels,
``settle 12``, ``road 12-13``, ``robber F``, ``move mech G4``), unique per action; typing those
words picks the entry (:func:`pick`), whole, never by taking the words apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from hexfolk.cli.terminal.screen import clip

Entry = tuple[int, str, str]
"""(number, the action in words as the menu shows it, hint in words)."""


def typed_form(text: str) -> str:
    """A line as compared with the menu's words: spaces collapsed, case folded."""
    return " ".join(text.split()).casefold()


def pick(menu_words: Sequence[str], text: str) -> int | None:
    """The index of the entry whose words (``menu_words``, in the menu's order) are ``text``
    (as :func:`typed_form` compares them), or None when none reads so (the caller then tries
    the engine's own notation)."""
    typed = typed_form(text)
    for i, words in enumerate(menu_words):
        if typed_form(words) == typed:
            return i
    return None


def entry_text(entry: Entry, width: int) -> str:
    number, text, hint = entry
    return f"{number:>{width}}. {text}" + (f" — {hint}" if hint else "")


def menu_lines(entries: Sequence[Entry], columns: int, rows: int) -> list[str]:
    """At most ``rows`` lines of at most ``columns`` characters: one entry a line when they
    fit, else entries in columns (read down), else the first ones and a line saying how many
    more there are."""
    if not entries:
        return []
    rows = max(rows, 2)
    width = len(str(entries[-1][0]))
    full = [entry_text(e, width) for e in entries]
    if len(full) <= rows:
        return ["  " + clip(t, columns - 2) for t in full]
    bare = [entry_text((n, t, ""), width) for n, t, _ in entries]
    cell = max(len(t) for t in bare) + 3
    ncols = max(1, (columns - 2) // cell)
    if ncols * rows >= len(bare):
        return _columns(bare, cell, ncols, columns)
    shown = ncols * (rows - 1)
    more = len(entries) - shown
    lines = _columns(bare[:shown], cell, ncols, columns)
    lines.append(
        clip(
            f"  … {more} more (1-{shown} shown): `list` shows all {len(entries)}, or type an "
            "action as the list writes it",
            columns,
        )
    )
    return lines


def _columns(texts: Sequence[str], cell: int, ncols: int, columns: int) -> list[str]:
    nrows = -(-len(texts) // ncols)
    lines = []
    for r in range(nrows):
        row = [texts[c * nrows + r] for c in range(ncols) if c * nrows + r < len(texts)]
        lines.append(clip("  " + "".join(t.ljust(cell) for t in row).rstrip(), columns))
    return lines
