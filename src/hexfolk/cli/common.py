"""Shared pieces of the commands: errors as one line + exit code 2, consoles, game set-up."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import typer
from rich.console import Console

from hexfolk.core import Game, HexfolkError, game_class, parse_option_texts

EXIT_BAD_INPUT = 2
"""Exit code for anything the user got wrong (unknown game, bad option, corrupt record...)."""


class CliError(Exception):
    """A user error: printed as one line on stderr, exit code 2."""


def fail(message: str) -> NoReturn:
    raise CliError(message)


def out_console() -> Console:
    """Console on the current stdout (looked up now, so test runners can capture it)."""
    return Console(file=sys.stdout, highlight=False)


def err_console() -> Console:
    """Console on the current stderr (progress bars, messages)."""
    return Console(file=sys.stderr, highlight=False)


def one_line(text: str) -> str:
    """Whitespace (newlines of wrapped messages) collapsed: an error is one line."""
    return " ".join(text.split())


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn CliError and HexfolkError into ``error: ...`` on stderr and exit code 2."""
    try:
        yield
    except (CliError, HexfolkError) as exc:
        message = one_line(str(exc)) or type(exc).__name__
        print(f"error: {message}", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT) from None


def resolve_game_class(game_id: str) -> type[Game]:
    """The registered class of ``game_id``; a game whose module fails to import is an error
    naming the reason (whatever the exception was), never a traceback."""
    try:
        return game_class(game_id)
    except HexfolkError:
        raise
    except Exception as exc:  # a half-written game module: SyntaxError, NameError, ...
        raise CliError(f"game {game_id!r} is not available: {type(exc).__name__}: {exc}") from None


def make_game(game_id: str, players: int | None, option_texts: Sequence[str]) -> Game:
    """Build a validated game from command-line pieces (``--option key=value``)."""
    cls = resolve_game_class(game_id)
    options = parse_option_texts(cls.option_specs, option_texts)
    return cls(players, options)


def split_players(text: str | None) -> list[str] | None:
    """``"human,random"`` -> ``["human", "random"]``; None stays None."""
    if text is None:
        return None
    codes = [part.strip() for part in text.split(",")]
    if not codes or any(not code for code in codes):
        fail(f"--players is a comma-separated list of bot codes, not {text!r}")
    return codes


def is_human(code: str) -> bool:
    return code.partition(":")[0].strip() == "human"


def check_bot_codes(codes: Sequence[str], *, human: bool) -> None:
    """Refuse an unknown bot before anything else (the player count is their number, so a
    typo would otherwise read as a wrong player count). ``human``: a person may sit (play)."""
    from hexfolk.bots.registry import bot_names

    known = bot_names()
    for code in codes:
        name = code.partition(":")[0].strip()
        if name in known or (human and name == "human"):
            continue
        if name == "human":
            fail("the human player cannot sit in a simulation; use `hexfolk play` for that")
        listed = ", ".join(known) + (", and human (a person at this terminal)" if human else "")
        fail(f"unknown bot {name!r}; the bots are: {listed}")


def print_json(data: Any) -> None:
    """Exactly one JSON object on stdout, one line."""
    sys.stdout.write(json.dumps(data, sort_keys=False) + "\n")
    sys.stdout.flush()
