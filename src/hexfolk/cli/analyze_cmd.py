"""``hexfolk analyze``: the analysis of a match record (win chances, luck and skill, mistakes,
turning points; ``docs/analysis.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from hexfolk.analysis import Budget, GameAnalysis, analyze_record
from hexfolk.cli.common import JsonFlag, err_console, fail, out_console, print_json, user_errors
from hexfolk.core import MatchRecord

EPILOG = """\
Examples:

  hexfolk analyze runs/island/game-000003.json

  hexfolk analyze game.json --budget actions=24

  hexfolk analyze game.json --budget actions=12,horizon=40,rollouts=4,depth=40 --json
"""

CURVE_POINTS = 12
"""Turns shown in the printed win-chance curve (spread evenly over the game)."""


def analyze_command(
    record_path: Annotated[
        Path,
        typer.Argument(
            metavar="RECORD",
            help="A match record (JSON) written by simulate, play or a table, of either game.",
            show_default=False,
        ),
    ],
    as_json: JsonFlag = False,
    budget_text: Annotated[
        str,
        typer.Option(
            "--budget",
            metavar="SPEC",
            help="The analysis budget as key=value pairs joined by commas: actions=N (most "
            "actions evaluated per decision, the played one included; default 12), "
            "horizon=N (most steps of the turn completed by the bot policy after each judged "
            "action; default 40; 0: judge the state right after the action), rollouts=N "
            "(playouts per estimate; default 0, the static estimator) and depth=N (steps per "
            "playout; default 40). 'default' gives the defaults. A bigger budget is slower "
            "(docs/analysis.md has the figures).",
        ),
    ] = "default",
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar on stderr.")
    ] = False,
) -> None:
    """Analyse a match record: each seat's win chance after every step, the win chance each
    decision lost against the best choice found (inaccuracies, mistakes, blunders), luck
    (chance steps) and skill (decisions) per seat, adding up to the final result minus the
    starting chance, and the turning points.

    The analysis reads the whole record after the game (hidden cards included) and is
    deterministic: the same record and budget give the same analysis.
    """
    with user_errors():
        try:
            budget = Budget.parse(budget_text)
        except ValueError as exc:
            fail(f"--budget: {exc}")
        record = MatchRecord.load(record_path)
        progress = Progress(
            TextColumn("[bold]analysing[/bold]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("steps"),
            TimeElapsedColumn(),
            console=err_console(),
            disable=quiet,
            transient=False,
        )
        with progress:
            task = progress.add_task("steps", total=len(record.actions))

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            try:
                analysis = analyze_record(record, budget, progress=advance)
            except ValueError as exc:
                fail(str(exc))
    if as_json:
        print_json(analysis.to_json())
        return
    print_analysis(analysis)


def print_analysis(a: GameAnalysis) -> None:
    """The human-readable report."""
    console = out_console()
    winners = ", ".join(f"seat {s}" for s in a.winners) or "none"
    ended = "finished" if a.finished else "not finished (the chances at the last step)"
    console.print(
        f"[bold]{escape(a.game)}[/bold], {a.players} players, seed {a.seed}: {len(a.steps)} "
        f"steps, {ended}; winners: {winners}; budget {a.budget.text()}"
    )
    seats = Table(
        title="luck + skill = final - start, per seat (skill = own + others' decisions; "
        "dec. = decisions with a choice, lost = mean chance lost per one; "
        "i/m/b = inaccuracies/mistakes/blunders)",
        box=box.SIMPLE,
        pad_edge=False,
        collapse_padding=True,
    )
    for col in (
        "seat",
        "start",
        "final",
        "luck",
        "skill",
        "own",
        "others",
        "dec.",
        "lost",
        "i/m/b",
    ):
        seats.add_column(
            col,
            justify="right",
            no_wrap=True,
            min_width=len(col) if col in ("seat", "dec.", "i/m/b") else 6,
        )
    for s in a.seats:
        seats.add_row(
            str(s.seat),
            f"{s.start:.3f}",
            f"{s.final:.3f}",
            f"{s.luck:+.3f}",
            f"{s.skill:+.3f}",
            f"{s.skill_own:+.3f}",
            f"{s.skill_others:+.3f}",
            str(s.decisions),
            f"{s.lost_mean:.4f}",
            f"{s.inaccuracies}/{s.mistakes}/{s.blunders}",
        )
    console.print(seats)
    curve = Table(title="win chance at the end of turns")
    curve.add_column("turn", justify="right")
    curve.add_column("step", justify="right")
    for seat in range(a.players):
        curve.add_column(f"seat {seat}", justify="right")
    points = a.turns
    if len(points) > CURVE_POINTS:
        last = len(points) - 1
        picks = sorted({round(i * last / (CURVE_POINTS - 1)) for i in range(CURVE_POINTS)})
        points = tuple(points[i] for i in picks)
    for p in points:
        curve.add_row(str(p.turn), str(p.step), *(f"{x:.3f}" for x in p.chances))
    console.print(curve)
    turning = Table(title="turning points (largest swings)")
    for col in ("step", "turn", "who", "action", "swing"):
        turning.add_column(col, justify="right" if col in ("step", "turn", "swing") else "left")
    for t in a.turning_points:
        who = "chance" if t.seat is None else f"seat {t.seat}"
        turning.add_row(str(t.step), str(t.turn), who, escape(t.action), f"{t.swing:.3f}")
    console.print(turning)
    bad = [st for st in a.steps if st.label in ("mistake", "blunder")]
    if bad:
        errors = Table(title="mistakes and blunders")
        for col in ("step", "seat", "played", "best found", "lost", "label"):
            errors.add_column(col)
        for st in bad:
            errors.add_row(
                str(st.step),
                str(st.seat),
                escape(st.action),
                escape(st.best or ""),
                f"{st.lost:.3f}",
                st.label or "",
            )
        console.print(errors)
    else:
        console.print("no mistakes or blunders")
