"""``hexfolk perft``: count the leaves of the game tree from a position (a rules-engine check).

Chance nodes are branches (every outcome counts). The position is the game's start with its
leading chance nodes resolved by the seed, the position after a record's actions, or a
position document (``--position FILE``, :meth:`hexfolk.core.Game.load_position`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hexfolk.cli.common import (
    GameOptions,
    JsonFlag,
    OptionalGameArgument,
    PositionFile,
    fail,
    load_position,
    make_game,
    out_console,
    players_option,
    position_game,
    print_json,
    read_position_file,
    record_option,
    seed_option,
    user_errors,
)
from hexfolk.core import MatchRecord, State

EPILOG = """\
Examples:

  hexfolk perft island --depth 3 --players 3 --seed 1

  hexfolk perft scythe --depth 2 --divide

  hexfolk perft --record game.json --depth 2

  hexfolk perft scythe --position combat.json --depth 2
"""


def perft_command(
    depth: Annotated[
        int,
        typer.Option(
            "--depth",
            "-d",
            metavar="D",
            min=1,
            help="Count leaves at depths 1..D.",
            show_default=False,
        ),
    ],
    game: OptionalGameArgument = None,
    players: Annotated[
        int | None, players_option("N", "Player count (default: the game's default).")
    ] = None,
    option: GameOptions = None,
    seed: Annotated[
        int,
        seed_option(
            "Seed resolving the leading chance nodes (not used with --record or --position)."
        ),
    ] = 0,
    record: Annotated[
        Path | None,
        record_option(
            "Count from the position after this record's actions (its game, players, "
            "options and seed are used)."
        ),
    ] = None,
    position: PositionFile = None,
    show_divide: Annotated[
        bool, typer.Option("--divide", help="Also print per-action counts at depth D.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Perft: count the leaves of the game tree at depths 1..D from a position.

    Chance nodes are branches (each outcome counts). Prints the count per depth, the time and
    the nodes per second; with --divide, the count below each action at depth D.
    """
    with user_errors():
        try:
            from hexfolk.core.testing import ConformanceError, divide, perft, start_position
        except ImportError as exc:
            fail(f"the perft kit (hexfolk.core.testing) is not available: {exc}")
        if position is not None:
            if record is not None:
                fail("give --record or --position, not both")
            doc = read_position_file(position)
            state: State = load_position(
                position_game(game, players, option or [], doc, position), doc, position
            )
            where = f"position {position}"
        else:
            state, where = _position(game, players, option or [], seed, record, start_position)
        counts: dict[str, int] = {}
        divided: dict[str, int] | None = None
        start = time.perf_counter()
        try:
            for d in range(1, depth + 1):
                counts[str(d)] = perft(state.clone(), d)
            if show_divide:
                divided = divide(state.clone(), depth)
        except ConformanceError as exc:
            fail(f"perft cannot count this position: {exc}")
        seconds = time.perf_counter() - start
    nodes = sum(counts.values()) + (sum(divided.values()) if divided else 0)
    data: dict[str, Any] = {
        "game": state.game.id,
        "players": state.game.num_players,
        "options": dict(state.game.options),
        "position": where,
        "counts": counts,
        "seconds": seconds,
        "nodes_per_second": nodes / seconds if seconds > 0 else 0.0,
    }
    if divided is not None:
        data["divide"] = divided
    if as_json:
        print_json(data)
        return
    console = out_console()
    console.print(
        f"[bold]{escape(data['game'])}[/bold], {data['players']} players, {escape(where)}"
    )
    table = Table(header_style="bold")
    table.add_column("depth", justify="right")
    table.add_column("leaves", justify="right")
    for d_text, leaves in counts.items():
        table.add_row(d_text, str(leaves))
    console.print(table)
    if divided is not None:
        div = Table(title=f"divide at depth {depth}", header_style="bold")
        div.add_column("action")
        div.add_column("leaves", justify="right")
        for action, n in divided.items():
            div.add_row(escape(action), str(n))
        div.add_row("[bold]total[/bold]", str(sum(divided.values())))
        console.print(div)
    console.print(f"{seconds:.3f} s, {data['nodes_per_second']:.0f} nodes/s")


def _position(
    game_id: str | None,
    players: int | None,
    option_texts: list[str],
    seed: int,
    record_path: Path | None,
    start_position: Any,
) -> tuple[State, str]:
    if record_path is None:
        if game_id is None:
            fail("name a game (e.g. `hexfolk perft island --depth 2`) or give --record FILE")
        game = make_game(game_id, players, option_texts)
        state: State = start_position(game, seed)
        return state, f"start position, seed {seed}"
    if players is not None or option_texts:
        fail("--players and --option come from the record when --record is given")
    rec = MatchRecord.load(record_path)
    if game_id is not None and game_id != rec.game:
        fail(f"the record is a game of {rec.game!r}, not {game_id!r}")
    final: State | None = None
    for state, _ in rec.states():
        final = state
    assert final is not None
    return final, f"after the {len(rec.actions)} actions of {record_path}"
