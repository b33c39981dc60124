"""Reading a person's lines: line editing and history where the platform has readline, and
the timed window in which a bot's offer may be answered without stopping the game.

:class:`LineInput` is what :class:`hexfolk.cli.play_cmd.PlaySession` reads from. ``read``
waits for a line; ``poll`` waits at most some seconds. On a terminal ``poll`` returns
``NOTHING`` when no line was typed in time. When input is not a terminal (a script, a pipe,
tests) the next line is taken at once, as if typed ahead.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable
from typing import TextIO

from rich.console import Console

NOTHING = "\x00nothing"
"""What :meth:`LineInput.poll` returns when no line came in time."""

ReadLine = Callable[[str], str | None]


class LineInput:
    """Lines from ``stream`` (default: stdin). ``None`` means the input ended."""

    def __init__(self, console: Console, stream: TextIO | None = None):
        self.console = console
        self.stream = stream if stream is not None else sys.stdin
        self.interactive = _isatty(self.stream)
        self._readline = _load_readline() if self.interactive else None

    def read(self, prompt: str) -> str | None:
        """Show ``prompt`` and wait for a line (with editing and history on a terminal)."""
        if self.interactive and self.stream is sys.stdin:
            try:
                return input(prompt)
            except EOFError:
                self.console.print()
                return None
        self.console.print(prompt, end="", markup=False, highlight=False)
        line = self.stream.readline()
        if line == "":
            self.console.print()
            return None
        return line.rstrip("\r\n")

    def poll(self, prompt: str, seconds: float) -> str | None:
        """A line typed within ``seconds``, ``NOTHING`` if none came, ``None`` at the end of
        the input; with ``seconds <= 0`` only a line already typed, and no prompt is shown.
        Off a terminal the next line is read at once."""
        if not self.interactive:
            return self.read(prompt)
        quiet = seconds <= 0  # only a line already typed (no prompt shown)
        if not quiet:
            self.console.print(prompt, end="", markup=False, highlight=False)
            self.console.file.flush()
        ready, _, _ = select.select([self.stream], [], [], max(seconds, 0.0))
        if not ready:
            if not quiet:
                self.console.print("(no answer)", markup=False, highlight=False)
            return NOTHING
        line = self.stream.readline()
        if line == "":
            return None
        text = line.rstrip("\r\n")
        if self._readline is not None and text.strip():
            self._readline.add_history(text)
        return text


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty() and stream.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        return False


def _load_readline():  # type: ignore[no-untyped-def]
    """The readline module (line editing and history for ``input``), or None where the
    platform has none."""
    try:
        import readline
    except ImportError:
        return None
    return readline
