"""``hexfolk replay``: rebuild a match from its record, verify it, print the summary."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel

from hexfolk.cli.common import JsonFlag, fail, out_console, print_json, user_errors
from hexfolk.core import Game, MatchRecord, State, replay

EPILOG = """\
Examples:

  hexfolk replay runs/island/game-000003.json

  hexfolk replay game.json --show 40

  hexfolk replay game.json --json
"""


def replay_command(
    record_path: Annotated[
        Path,
        typer.Argument(
            metavar="RECORD",
            help="A match record (JSON) written by simulate or play.",
            show_default=False,
        ),
    ],
    as_json: JsonFlag = False,
    show: Annotated[
        int | None,
        typer.Option(
            "--show",
            metavar="N",
            min=0,
            help="Also print the spectator's observation after step N (0 = the initial state).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Replay and verify a match record, then print the final summary.

    Every action must be legal where it was played; the state must match the record's
    periodic checkpoints and final fingerprint, and the stored result (finished, winners,
    scores, turns) must be what the replay gives. A corrupt or tampered record is an error
    naming the step or field (exit code 2).
    """
    with user_errors():
        record = MatchRecord.load(record_path)
        if show is not None and show > len(record.actions):
            fail(f"--show {show}: the record has only {len(record.actions)} steps")
        shown: State | None = None
        if show is not None:
            for step, (state, _) in enumerate(record.states()):
                if step == show:
                    shown = state.clone()
                    break
        final = replay(record, verify=True)
        data = replay_summary(record, final)
        observation: dict[str, Any] | None = None
        if shown is not None:
            observation = shown.observation(None)
            data["show"] = {"step": show, "observation": observation}
    if as_json:
        print_json(data)
        return
    console = out_console()
    if shown is not None and observation is not None:
        console.print(
            Panel(
                escape(shown.game.render_observation(observation)),
                title=f"after step {show} (spectator)",
                expand=False,
            )
        )
    print_summary(data, final.game)


def replay_summary(record: MatchRecord, final: State) -> dict[str, Any]:
    """What ``replay`` reports: the record's set-up and the replayed final state."""
    return {
        "game": record.game,
        "rules_version": record.rules_version,
        "players": record.players,
        "options": record.options,
        "seed": record.seed,
        "bots": record.bots,
        "steps": len(record.actions),
        "from_position": record.position is not None,
        "verified": True,
        "fingerprint_checked": record.final_fingerprint is not None,
        "checkpoints_checked": len(record.checkpoints),
        "result_checked": sorted(
            k for k in ("finished", "winners", "scores", "turns") if k in record.result
        ),
        "terminal": final.is_terminal(),
        "winners": final.winners(),
        "scores": final.scores(),
        "turns": final.turn_count(),
        "summary": final.summary(),
    }


def print_summary(data: dict[str, Any], game: Game) -> None:
    console = out_console()
    bots = ", ".join(data["bots"]) or "unknown"
    checked = "final fingerprint matches" if data["fingerprint_checked"] else "no fingerprint"
    if data["checkpoints_checked"]:
        checked += f", {data['checkpoints_checked']} checkpoints match"
    console.print(
        f"[bold]{escape(data['game'])}[/bold] (rules {escape(data['rules_version'])}), "
        f"{data['players']} players ({escape(bots)}), seed {data['seed']}"
    )
    start = " from the record's start position" if data.get("from_position") else ""
    console.print(f"replayed {data['steps']} steps{start}: ok ({checked})")
    ended = "game over" if data["terminal"] else "game not finished (capped or quit)"
    winners = ", ".join(f"seat {s}" for s in data["winners"]) or "none"
    console.print(f"{ended}; winners: {winners}; turns: {data['turns']}")
    scores = "  ".join(f"seat {s}: {v:g}" for s, v in enumerate(data["scores"]))
    console.print(f"scores: {scores}")
    summary = data["summary"]
    extra = {k: v for k, v in summary.items() if k not in ("scores", "winners", "turns")}
    if extra:
        console.print(escape(game.render_summary(extra)))
