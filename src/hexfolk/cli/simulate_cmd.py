"""``hexfolk simulate``: a seeded tournament between bots, with a progress bar and a table."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from hexfolk.bots.tournament import (
    GameCrashed,
    GameOutcome,
    TournamentResult,
    TournamentSpec,
    run_tournament,
)
from hexfolk.cli.common import (
    GameArgument,
    GameOptions,
    JsonFlag,
    check_bot_codes,
    err_console,
    fail,
    out_console,
    players_option,
    print_json,
    resolve_game_class,
    seed_option,
    split_players,
    user_errors,
)
from hexfolk.core import parse_option_texts

EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), once the partial results are printed."""

EPILOG = """\
Examples:

  hexfolk simulate island -p random,random,random,random -n 1000 -s 7

  hexfolk simulate scythe --players random,random --games 200 --workers 2 --json

  hexfolk simulate island --option vp_target=12 --games 50 --record-dir runs/island
"""


def simulate_command(
    game: GameArgument,
    players: Annotated[
        str | None,
        players_option(
            "BOTS",
            "Comma-separated bot codes, one per entry (e.g. random,random,random). Their "
            "number is the player count. Default: the game's default count of random bots.",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", min=0, help="Number of games to play.")
    ] = 100,
    seed: Annotated[int, seed_option("Master seed; game g uses a seed derived from it.")] = 0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-w",
            metavar="K",
            min=1,
            help="Worker processes (1 = in this process). Results do not depend on it.",
        ),
    ] = 1,
    as_json: JsonFlag = False,
    record_dir: Annotated[
        Path | None,
        typer.Option(
            "--record-dir",
            metavar="DIR",
            help="Write one JSON match record per game into this folder (game-000000.json, ...).",
            file_okay=False,
            show_default=False,
        ),
    ] = None,
    option: GameOptions = None,
    turn_cap: Annotated[
        int | None,
        typer.Option(
            "--turn-cap",
            metavar="T",
            min=0,
            help="Stop a game after this many turns (counted as capped). "
            "Default: the game's own cap; 0: no cap.",
            show_default=False,
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="auto|ADDRESS",
            help="Run the games as Ray tasks: 'auto' joins a running cluster or starts a local "
            "one; otherwise a cluster address. Needs the 'scale' extra. Results do not depend "
            "on it.",
            show_default=False,
        ),
    ] = None,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Replay every game's record (as written to --record-dir, if given) and report "
            "any that does not replay bit for bit; exit code 1 if one fails.",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play many seeded games between bots and report wins, scores and speed.

    Seats rotate between games (entry i sits at seat (i + g) mod n in game g), so each entry's
    wins count wherever it sat; a shared win counts as a fraction. The results are identical
    for the same seed whatever --workers is; the progress bar is on stderr (also with --json).
    Ctrl-C stops cleanly and reports the games finished so far (exit code 130).
    """
    with user_errors():
        cls = resolve_game_class(game)
        codes = split_players(players) or ["random"] * cls.default_players
        check_bot_codes(codes, human=False)
        options = parse_option_texts(cls.option_specs, option or [])
        spec = TournamentSpec.create(
            cls,
            codes,
            games=games,
            seed=seed,
            options=options,
            turn_cap=turn_cap,
            record_dir=record_dir,
            verify=verify,
        )
        try:
            result = _run_with_progress(spec, workers, quiet, ray)
        except OSError as exc:
            fail(f"cannot write records: {exc}")
        except GameCrashed as exc:  # a bug, not bad input: the traceback helps, exit code 1
            print(exc.details, file=sys.stderr, end="")
            print(f"error: {exc}", file=sys.stderr)
            raise typer.Exit(1) from None
    if as_json:
        print_json(result.to_json())
    else:
        print_table(result)
    if verify:
        report_replays(result)
    if result.interrupted:
        print(
            f"interrupted: {result.stats.games} of {spec.games} games finished; "
            "the results above cover those",
            file=sys.stderr,
        )
        raise typer.Exit(EXIT_INTERRUPTED)


def report_replays(result: TournamentResult) -> None:
    """``--verify``: one line on stderr; every record that failed, then exit code 1."""
    failures = result.stats.replay_failures
    games = result.stats.games
    if not failures:
        print(f"verified: all {games} records replay", file=sys.stderr)
        return
    for index, error in failures:
        print(f"error: game {index}: {error}", file=sys.stderr)
    print(f"verified: {len(failures)} of {games} records do not replay", file=sys.stderr)
    raise typer.Exit(1)


def _run_with_progress(
    spec: TournamentSpec, workers: int, quiet: bool, ray: str | None = None
) -> TournamentResult:
    progress = Progress(
        TextColumn("[bold]simulating[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=err_console(),
        disable=quiet,
        transient=False,
    )
    with progress:
        task = progress.add_task("games", total=spec.games)

        def advance(_: GameOutcome) -> None:
            progress.advance(task)

        return run_tournament(spec, workers=workers, progress=advance, ray_address=ray)


def print_table(result: TournamentResult) -> None:
    """The human-readable report: one row per entry, then totals."""
    data: dict[str, Any] = result.to_json()
    console = out_console()
    opts = ", ".join(f"{k}={v}" for k, v in data["options"].items()) or "defaults"
    console.print(
        f"[bold]{escape(data['game'])}[/bold]  {data['players']} players, "
        f"options: {escape(opts)}, seed {data['seed']}"
    )
    table = Table(header_style="bold")
    table.add_column("entry", justify="right")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI (Wilson)", justify="right")
    table.add_column("mean score", justify="right")
    for row in data["seats"]:
        lo, hi = row["ci95"]
        table.add_row(
            str(row["entry"]),
            escape(row["bot"]),
            f"{row['wins']:g}",
            f"{row['win_rate']:.3f}",
            f"{lo:.3f}-{hi:.3f}",
            f"{row['mean_score']:.2f}",
        )
    console.print(table)
    by_seat = "  ".join(f"seat {r['seat']}: {r['win_rate']:.3f}" for r in data["by_seat"])
    console.print(f"win rate by seat position: {by_seat}")
    console.print(
        f"games {data['games']} (finished {data['finished']}, capped {data['capped']}), "
        f"mean length {data['mean_turns']:.1f} turns, "
        f"{data['seconds']:.2f} s, {data['games_per_second']:.1f} games/s"
    )
