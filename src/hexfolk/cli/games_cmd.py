"""``hexfolk games``: the registered games, their player counts and options."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from hexfolk.cli.common import JsonFlag, out_console, print_json, resolve_game_class
from hexfolk.core import game_ids


def describe_games() -> list[dict[str, Any]]:
    """One entry per registered game; a game that fails to import is ``available: false``."""
    out: list[dict[str, Any]] = []
    for gid in game_ids():
        try:
            cls = resolve_game_class(gid)
        except Exception as exc:  # listed as unavailable, never a crash
            out.append({"id": gid, "available": False, "error": " ".join(str(exc).split())})
            continue
        details = getattr(cls, "choice_details", None)
        out.append(
            {
                "id": gid,
                "available": True,
                "name": cls.name,
                "rules_version": cls.rules_version,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "default_players": cls.default_players,
                "default_turn_cap": cls.default_turn_cap,
                "options": [
                    {
                        "name": spec.name,
                        "kind": spec.kind,
                        "default": spec.default,
                        "range": spec.describe_range(),
                        "help": spec.help,
                        **_choices(spec.choices, details(spec.name) if details else {}),
                    }
                    for spec in cls.option_specs
                ],
            }
        )
    return out


def _choices(values: tuple[str, ...], details: dict[str, str]) -> dict[str, Any]:
    """``{"choices": [{"value", "help"}...]}`` when the game explains its values (the island
    maps), else nothing."""
    if not details:
        return {}
    return {"choices": [{"value": v, "help": details.get(v, "")} for v in values]}


def games_command(
    as_json: JsonFlag = False,
) -> None:
    """List the registered games with their player counts and options (defaults and ranges)."""
    games = describe_games()
    if as_json:
        print_json({"games": games})
        return
    console = out_console()
    for info in games:
        if not info["available"]:
            console.print(
                f"[bold]{escape(info['id'])}[/bold]  "
                f"[red]unavailable[/red]: {escape(info['error'])}"
            )
            console.print()
            continue
        cap = info["default_turn_cap"]
        console.print(
            f"[bold]{escape(info['id'])}[/bold]  {escape(info['name'])}  "
            f"(players {info['min_players']}-{info['max_players']}, "
            f"default {info['default_players']}; rules {info['rules_version']}; "
            f"turn cap {cap if cap is not None else 'none'})"
        )
        if info["options"]:
            table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
            for col in ("option", "kind", "default", "allowed", "meaning"):
                table.add_column(col)
            for opt in info["options"]:
                cells = (
                    opt["name"],
                    opt["kind"],
                    repr_value(opt["default"]),
                    opt["range"],
                    opt["help"],
                )
                table.add_row(*(escape(c) for c in cells))
            console.print(table)
            for opt in info["options"]:
                if opt.get("choices"):
                    console.print(f"  {escape(opt['name'])}:")
                    values = Table(show_edge=False, pad_edge=False, box=None, show_header=False)
                    values.add_column(no_wrap=True)
                    values.add_column()
                    for choice in opt["choices"]:
                        values.add_row("    " + escape(choice["value"]), escape(choice["help"]))
                    console.print(values)
        else:
            console.print("  (no options)")
        console.print()


def repr_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
