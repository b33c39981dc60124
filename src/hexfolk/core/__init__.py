"""The game-agnostic kernel: the contract every game implements (stdlib only).

See ``docs/concepts.md`` for the contract in prose.
"""

from hexfolk.core.actions import Action, ActionPattern
from hexfolk.core.bot import Bot, Observation
from hexfolk.core.commitments import Commitments
from hexfolk.core.errors import (
    ActionError,
    AmbiguousActionError,
    HexfolkError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGameError,
)
from hexfolk.core.game import (
    CHANCE,
    CLOCK_KINDS,
    TERMINAL,
    ClockStep,
    Game,
    Prompt,
    State,
    check_seat,
    visible_log,
)
from hexfolk.core.log_lines import LogBook, LogLine
from hexfolk.core.match import Match, MatchResult
from hexfolk.core.options import FrozenOptions, OptionSpec, parse_option_texts, resolve_options
from hexfolk.core.reasons import Places, Reason, ReasonBook
from hexfolk.core.record import MatchRecord, replay
from hexfolk.core.registry import game_class, game_ids, load_game, register
from hexfolk.core.rng import derive_seed, make_rng

__all__ = [
    "CHANCE",
    "CLOCK_KINDS",
    "TERMINAL",
    "Action",
    "ActionError",
    "ActionPattern",
    "AmbiguousActionError",
    "Bot",
    "ClockStep",
    "Commitments",
    "FrozenOptions",
    "Game",
    "HexfolkError",
    "IllegalActionError",
    "LogBook",
    "LogLine",
    "MalformedActionError",
    "Match",
    "MatchRecord",
    "MatchResult",
    "Observation",
    "OptionError",
    "OptionSpec",
    "Places",
    "PositionError",
    "Prompt",
    "Reason",
    "ReasonBook",
    "RecordError",
    "State",
    "UnknownGameError",
    "check_seat",
    "derive_seed",
    "game_class",
    "game_ids",
    "load_game",
    "make_rng",
    "parse_option_texts",
    "register",
    "replay",
    "resolve_options",
    "visible_log",
]
