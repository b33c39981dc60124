"""Shared pieces of the commands: errors as one line + exit code 2, consoles, game set-up."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from hexfolk.core import (
    Game,
    HexfolkError,
    PositionError,
    State,
    game_class,
    parse_option_texts,
)
from hexfolk.core.game import JSON

EXIT_BAD_INPUT = 2
"""Exit code for anything the user got wrong (unknown game, bad option, corrupt record...)."""


# --- the options several commands share, declared once ------------------------------------
# Each command takes these as ``name: GameArgument`` etc.; a flag whose meaning differs per
# command (``--seed``, ``--players``) is made by a function given that command's help text, so
# the flag's name, short form and metavar are written here only.

GameArgument = Annotated[
    str,
    typer.Argument(metavar="GAME", help="Game id (see `hexfolk games`).", show_default=False),
]
"""The ``GAME`` argument (required)."""

OptionalGameArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="GAME",
        help="Game id (see `hexfolk games`); may be left out with --record or --position.",
        show_default=False,
    ),
]
"""The ``GAME`` argument where a record or position file may name the game instead."""

GameOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="Game option as key=value (repeatable); see `hexfolk games`.",
        show_default=False,
    ),
]
"""``--option KEY=VALUE`` (repeatable), parsed by :func:`make_game`."""

PositionFile = Annotated[
    Path | None,
    typer.Option(
        "--position",
        metavar="FILE",
        help="Start from the position in FILE (a JSON position document, as the game's "
        "State.position() writes it; see docs/concepts.md) instead of the game's start.",
        show_default=False,
    ),
]
"""``--position FILE``, read by :func:`load_position_file`."""

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
"""``--json``: one JSON object on stdout (:func:`print_json`)."""


def seed_option(help: str, *, show_default: bool = True) -> Any:
    """``--seed S`` / ``-s S`` with this command's meaning of the seed."""
    return typer.Option("--seed", "-s", metavar="S", help=help, show_default=show_default)


def players_option(metavar: str, help: str) -> Any:
    """``--players`` / ``-p``: a count (``N``) or the seats' codes (``SEATS``, ``BOTS``)."""
    return typer.Option("--players", "-p", metavar=metavar, help=help, show_default=False)


def record_option(help: str) -> Any:
    """``--record FILE``: a match record this command reads or writes."""
    return typer.Option("--record", metavar="FILE", help=help, show_default=False)


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


def read_position_file(path: Path) -> JSON:
    """The position document in ``path`` (a JSON object); CliError naming the file if it
    cannot be read or is not a JSON object."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read position {path}: {exc.strerror or exc}")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"position {path} is not valid JSON: {exc}")
    if not isinstance(doc, dict):
        fail(f"position {path} is not a position document (a JSON object)")
    return doc


def load_position(game: Game, doc: JSON, path: Path) -> State:
    """``game.load_position(doc)``; the engine's refusal (its sentence naming the problem), or
    a game that cannot load positions, as one CliError."""
    try:
        return game.load_position(doc)
    except PositionError as exc:
        fail(f"position {path} is refused: {exc}")
    except NotImplementedError as exc:
        fail(f"--position: {exc}")


def position_game(
    game_id: str | None, players: int | None, option_texts: Sequence[str], doc: JSON, path: Path
) -> Game:
    """The game a position file is loaded into: GAME, --players and --option, each taken from
    the document's own ``game``, ``players`` and ``options`` fields when the command line
    leaves it out (a position may name them; ``docs/concepts.md``). A GAME that differs from
    the document's is an error."""
    named = doc.get("game")
    if game_id is None:
        if not isinstance(named, str):
            fail(f"name the game: position {path} does not say which game it is")
        game_id = named
    elif isinstance(named, str) and named != game_id:
        fail(f"position {path} is a position of {named!r}, not {game_id!r}")
    if players is None and isinstance(doc.get("players"), int):
        players = doc["players"]
    cls = resolve_game_class(game_id)
    options = parse_option_texts(cls.option_specs, option_texts)
    if not option_texts and isinstance(doc.get("options"), dict):
        options = dict(doc["options"])
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
