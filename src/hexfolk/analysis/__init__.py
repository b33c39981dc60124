"""After the game: win chances, luck and skill (issue 29; ``docs/analysis.md``).

:func:`analyze_record` walks a finished game's record with the win-chance estimator
(:class:`WinChanceModel`) and returns a :class:`GameAnalysis`: the chances after every step,
the chance each decision lost against the best choice found, luck and skill per seat, the
turning points. It sits above the bots (it reads their evaluations) and below the server and
the command line (``hexfolk analyze``).
"""

from __future__ import annotations

from hexfolk.analysis.analyze import analyze_record
from hexfolk.analysis.estimator import WinChanceModel
from hexfolk.analysis.result import Budget, GameAnalysis, SeatAnalysis, StepAnalysis

__all__ = [
    "Budget",
    "GameAnalysis",
    "SeatAnalysis",
    "StepAnalysis",
    "WinChanceModel",
    "analyze_record",
]
