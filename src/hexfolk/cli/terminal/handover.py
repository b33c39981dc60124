"""The hot-seat hand-over: between two people at one terminal the screen is cleared (or
pushed up) and the next person confirms before their hand is shown."""

from __future__ import annotations

from rich.console import Console


def handover_text(seat: int) -> str:
    return (
        f"Hand over to seat {seat}: press Enter when seat {seat} is at the keyboard (quit leaves)."
    )


def clear_screen(console: Console, rows: int) -> None:
    """Clear a real terminal; elsewhere print a rule (a script has no screen to hide)."""
    if console.is_terminal:
        console.clear()
    else:
        console.print("-" * 20)
