"""Golden playthroughs: a seeded random game written as text, regenerated and diffed.

Set ``HEXFOLK_REGEN_GOLDEN=1`` to write the files (a new one, or all of them after a deliberate
rules change), then review the diff like any other change. Without it a missing golden file is
a failure, never a silent pass: a test whose reference is lost must not turn green.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from hexfolk.core.game import CHANCE, Game
from hexfolk.core.testing.checks import ConformanceError, play_random

REGEN_VARIABLE = "HEXFOLK_REGEN_GOLDEN"
"""The environment variable that makes the golden and perft checks write their files."""


def regenerating() -> bool:
    """True when ``HEXFOLK_REGEN_GOLDEN=1``: checks write their reference files instead of
    comparing (golden playthroughs, perft files, any test's golden text)."""
    return os.environ.get(REGEN_VARIABLE) == "1"


def golden_playthrough(
    game: Game, seed: int, *, max_steps: int = 200, views: str = "every-step"
) -> str:
    """The text of the first ``max_steps`` steps of a seeded random game.

    ``views="every-step"`` writes the mover's rendered observation before every decision;
    ``views="seat-change"`` only when another seat comes to move (for games whose views are
    large and whose turns are long chains of decisions, such as Scythe).
    """
    if views not in ("every-step", "seat-change"):
        raise ValueError(f"views must be 'every-step' or 'seat-change', not {views!r}")
    last_viewer: int | None = None
    result = play_random(game, seed)
    state = game.new_initial_state()
    lines = [
        f"game {game.id} rules {game.rules_version} players {game.num_players} seed {seed}",
        f"options {sorted(game.options.items())}",
        "",
    ]
    for step, action in enumerate(result.actions[:max_steps]):
        text = str(action)
        player = state.current_player()
        if player == CHANCE:
            lines.append(f"[{step}] chance: {text}")
        else:
            prompt = state.prompt()
            lines.append(f"[{step}] seat {player}" + (f" ({prompt.kind})" if prompt else ""))
            if views == "every-step" or player != last_viewer:
                view = game.render_observation(state.observation(player))
                lines.extend("    " + line for line in view.splitlines())
                last_viewer = player
            legal = [str(a) for a in state.legal_actions()]
            lines.append(f"    legal ({len(legal)}): " + " | ".join(legal[:40]))
            if len(legal) > 40:
                lines.append(f"    ... {len(legal) - 40} more")
            lines.append(f"    -> {text}")
        state.apply(action)
    lines.append("")
    lines.append(f"after {min(max_steps, len(result.record.actions))} steps: {state.fingerprint()}")
    return "\n".join(lines) + "\n"


def check_golden(
    game: Game, seed: int, path: str | Path, *, max_steps: int = 200, views: str = "every-step"
) -> None:
    """Compare with the golden file; with ``HEXFOLK_REGEN_GOLDEN=1`` (:func:`regenerating`)
    write it instead. A missing file raises :class:`ConformanceError` naming it."""
    text = golden_playthrough(game, seed, max_steps=max_steps, views=views)
    target = Path(path)
    if regenerating():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return
    if not target.exists():
        raise ConformanceError(
            f"golden file {target} is missing; HEXFOLK_REGEN_GOLDEN=1 writes it (then review it)"
        )
    expected = target.read_text(encoding="utf-8")
    if expected != text:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), text.splitlines(True), str(target), "now", n=2
                )
            )[:80]
        )
        raise ConformanceError(
            f"golden playthrough {target} changed (HEXFOLK_REGEN_GOLDEN=1 rewrites it):\n{diff}"
        )
