"""The flags several commands share are declared once (``hexfolk.cli.common``): the same
name has the same short form and metavar in every command that takes it (issue 14)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import typer.main

from hexfolk.cli.main import app

SHARED = ("--players", "--seed", "--option", "--record", "--position", "--json")
"""``--players`` is a count in perft and seat codes elsewhere: its metavar differs."""


def _commands() -> dict[str, Any]:
    """Every command and sub-command of ``hexfolk`` by its path (Typer's vendored Click)."""
    out: dict[str, Any] = {}
    for name, command in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        out[name] = command
        for sub, inner in getattr(command, "commands", {}).items():
            out[f"{name} {sub}"] = inner
    return out


def test_each_shared_flag_is_spelled_the_same_everywhere() -> None:
    seen: dict[str, dict[tuple[Any, ...], list[str]]] = defaultdict(lambda: defaultdict(list))
    for name, command in _commands().items():
        for param in command.params:
            if param.param_type_name != "option":
                continue
            flag = next((f for f in param.opts if f in SHARED), None)
            if flag is not None:
                metavar = None if flag == "--players" else param.metavar
                seen[flag][(tuple(sorted(param.opts)), metavar)].append(name)
    for flag in SHARED:  # each is taken by several commands (else it needs no sharing) ...
        assert sum(len(names) for names in seen[flag].values()) >= 2, (flag, dict(seen[flag]))
    for flag, shapes in seen.items():  # ... and spelled one way in all of them
        assert len(shapes) == 1, f"{flag} is declared differently: {dict(shapes)}"


def test_the_game_argument_is_the_same_everywhere() -> None:
    games = {
        name: (param.metavar, param.help)
        for name, command in _commands().items()
        for param in command.params
        if param.param_type_name == "argument" and param.name == "game"
    }
    assert set(games) == {"simulate", "perft", "play"}
    assert {metavar for metavar, _ in games.values()} == {"GAME"}
    assert all(text.startswith("Game id (see `hexfolk games`)") for _, text in games.values())
