"""``hexfolk maps``: the island maps of IR-83 (names, tile counts, player counts) and
``hexfolk maps show NAME``: one map drawn in the terminal."""

from __future__ import annotations

import random
from typing import Annotated, Any

import typer

from hexfolk.cli.common import JsonFlag, fail, print_json, seed_option, user_errors
from hexfolk.games.island.map_drawing import draw_map
from hexfolk.games.island.maps import MapError, all_maps, draw_layout, load_map, map_facts

EPILOG = """\
Examples:

  hexfolk maps

  hexfolk maps --json

  hexfolk maps show reuzenland

  hexfolk maps show driftland --seed 7
"""

app = typer.Typer(
    name="maps",
    help="The island maps: names (English/Dutch), tile counts and player counts; "
    "`hexfolk maps show NAME` draws one.",
    epilog=EPILOG,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)

_COLUMNS = (
    ("#", "number"),
    ("id", "id"),
    ("English", "en"),
    ("Dutch", "nl"),
    ("tiles", "tiles"),
    ("producing/desert/lake", "split"),
    ("players", "players"),
    ("harbors", "harbors"),
    ("terrain", "terrain"),
    ("numbers", "numbers"),
)


def describe_maps() -> list[dict[str, Any]]:
    """Measured facts of every map (``map_facts``), in IR-83 order."""
    return [map_facts(m) for m in all_maps()]


def maps_table(facts: list[dict[str, Any]]) -> str:
    """The listing as aligned plain-text columns."""
    rows = [[h for h, _ in _COLUMNS]]
    for f in facts:
        cells = dict(f, split=f"{f['producing']}/{f['desert']}/{f['lake']}")
        if f["coastline"] == "random":
            cells["terrain"] = f"{f['terrain']}, random coast"
        rows.append([str(cells[key]) for _, key in _COLUMNS])
    widths = [max(len(r[i]) for r in rows) for i in range(len(_COLUMNS))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


@app.callback(invoke_without_command=True)
def maps_command(
    ctx: typer.Context,
    as_json: JsonFlag = False,
) -> None:
    """List the island maps with their English and Dutch names, tile counts (total and
    producing/desert/lake), supported player counts, harbors and terrain/number modes."""
    if ctx.invoked_subcommand is not None:
        return
    with user_errors():
        try:
            facts = describe_maps()
        except MapError as exc:  # a broken map file: one line, exit 2
            fail(str(exc))
    if as_json:
        print_json({"maps": facts})
        return
    typer.echo(maps_table(facts))
    typer.echo("")
    typer.echo("The standard board (19/30/44 hexes by player count) is the default map.")
    typer.echo("Draw one: hexfolk maps show NAME [--seed N]")


@app.command("show", epilog=EPILOG)
def show_command(
    name: Annotated[str, typer.Argument(help="Map id, English or Dutch name.")],
    seed: Annotated[int, seed_option("Seed of the drawn layout (terrain, numbers, coast).")] = 0,
) -> None:
    """Draw one island map in the terminal: a layout drawn from the seed (shuffled terrain,
    numbers and harbor kinds where the map shuffles them; Driftland's coastline too)."""
    with user_errors():
        try:
            m = load_map(name)
            layout = draw_layout(m, random.Random(seed))
            f = map_facts(m)
        except MapError as exc:
            fail(str(exc))
    typer.echo(
        f"{m.name_en} / {m.name_nl} (#{m.number}, {m.id}): {f['tiles']} tiles "
        f"({f['producing']} producing, {f['desert']} desert, {f['lake']} lake), "
        f"players {f['players']}"
    )
    typer.echo(m.idea)
    typer.echo(
        f"terrain {m.terrain_mode}, numbers {m.number_mode}, "
        f"coastline {f['coastline']}; layout drawn with seed {seed}"
    )
    typer.echo("")
    typer.echo(draw_map(layout))
