"""The ``hexfolk`` Typer application and the console-script entry point :func:`main`."""

from __future__ import annotations

from typing import Annotated

import typer

from hexfolk import __version__
from hexfolk.cli import (
    connect_cmd,
    games_cmd,
    maps_cmd,
    perft_cmd,
    play_cmd,
    replay_cmd,
    serve_cmd,
    simulate_cmd,
)

EPILOG = """\
Examples:

  hexfolk games

  hexfolk play island

  hexfolk simulate island --games 1000 --workers 2 --json

  hexfolk replay runs/game-000000.json

  hexfolk perft scythe --depth 3 --divide

  hexfolk serve --port 8000

  hexfolk connect http://127.0.0.1:8000 --table ID --name Robo --bot medium

Bad input (unknown game or bot, bad option, wrong player count, corrupt record) prints one line
starting with "error:" on stderr and exits with code 2.
"""

app = typer.Typer(
    name="hexfolk",
    help="Hexfolk: an open board-game table (Scythe and the island game) with rules engines "
    "and bots. Play in the terminal, run bot tournaments, replay and verify match records.",
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hexfolk {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            help="Print the version and exit.",
            callback=_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Hexfolk: an open board-game table (Scythe and the island game) with rules engines and
    bots. Play in the terminal, run bot tournaments, replay and verify match records."""


app.command("games", epilog="Examples:\n\n  hexfolk games\n\n  hexfolk games --json\n")(
    games_cmd.games_command
)
app.command("simulate", epilog=simulate_cmd.EPILOG)(simulate_cmd.simulate_command)
app.command("replay", epilog=replay_cmd.EPILOG)(replay_cmd.replay_command)
app.command("perft", epilog=perft_cmd.EPILOG)(perft_cmd.perft_command)
app.command("play", epilog=play_cmd.EPILOG)(play_cmd.play_command)
app.command("serve", epilog=serve_cmd.EPILOG)(serve_cmd.serve_command)
app.command("connect", epilog=connect_cmd.EPILOG)(connect_cmd.connect_command)
app.add_typer(maps_cmd.app, name="maps")


def main() -> None:
    """Console-script entry point (``hexfolk``)."""
    app()


if __name__ == "__main__":
    main()
