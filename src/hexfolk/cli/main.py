"""The ``hexfolk`` Typer application and the console-script entry point :func:`main`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # Typer vendors its own Click (0.2x); older releases use the click package
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover
    from click import exceptions as click_errors  # type: ignore[no-redef]

from hexfolk import __version__
from hexfolk.cli import (
    analyze_cmd,
    connect_cmd,
    games_cmd,
    maps_cmd,
    perft_cmd,
    play_cmd,
    replay_cmd,
    serve_cmd,
    simulate_cmd,
)
from hexfolk.cli.common import EXIT_BAD_INPUT, one_line

EPILOG = """\
Examples:

  hexfolk games

  hexfolk play island

  hexfolk simulate island --games 1000 --workers 2 --json

  hexfolk replay runs/game-000000.json

  hexfolk analyze runs/game-000000.json

  hexfolk perft scythe --depth 3 --divide

  hexfolk perft --position position.json --depth 2

  hexfolk serve --port 8000

  hexfolk connect http://127.0.0.1:8000 --table ID --name Robo --bot medium

Bad input (unknown game or bot, bad option, wrong player count, corrupt record, refused
position file) prints one line starting with "error:" on stderr and exits with code 2.
"""


class HexfolkGroup(TyperGroup):
    """The root command: every usage error (a missing argument, an unknown command or option,
    a bad value) is one ``error:`` line on stderr with exit code 2, as ``docs/cli.md`` says,
    instead of Click's usage box."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        def run(standalone: bool) -> Any:
            return super(HexfolkGroup, self).main(
                args, prog_name, complete_var, standalone, windows_expand_args, **extra
            )

        if not standalone_mode:
            return run(False)
        try:
            rv = run(False)
        except click_errors.NoArgsIsHelpError as exc:  # bare `hexfolk`: the help
            exc.show()
            sys.exit(exc.exit_code)
        except click_errors.UsageError as exc:
            print(usage_error_line(exc), file=sys.stderr)
            sys.exit(EXIT_BAD_INPUT)
        except click_errors.ClickException as exc:
            print(f"error: {one_line(exc.format_message())}", file=sys.stderr)
            sys.exit(exc.exit_code)
        except typer.Abort:
            print("error: aborted", file=sys.stderr)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def usage_error_line(exc: click_errors.UsageError) -> str:
    """``error: hexfolk play: missing argument 'GAME' (see hexfolk play --help)``."""
    message = one_line(exc.format_message())
    message = message[:1].lower() + message[1:]
    if exc.ctx is None:
        return f"error: {message}"
    path = exc.ctx.command_path
    return f"error: {path}: {message.rstrip('.')} (see {path} --help)"


app = typer.Typer(
    name="hexfolk",
    cls=HexfolkGroup,
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
app.command("analyze", epilog=analyze_cmd.EPILOG)(analyze_cmd.analyze_command)
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
