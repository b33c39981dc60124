"""``ScytheGame``: options, validation and the initial state (SR-57, SR-58)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from hexfolk.core import Action, Game, LogBook, OptionError, OptionSpec
from hexfolk.core.action_forms import ActionForms
from hexfolk.games.scythe import actions, worlds
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import parse_action
from hexfolk.games.scythe.display import describe
from hexfolk.games.scythe.geometry import board_geometry
from hexfolk.games.scythe.log_forms import LOG
from hexfolk.games.scythe.render import render, render_summary
from hexfolk.games.scythe.setup import count_deals
from hexfolk.games.scythe.state import ScytheState

RANDOM = "random"
"""The word for "dealt at random": the whole option, or one seat's item of the list."""


Problem = tuple[str, dict[str, Any]]
"""A problem of the options: its sentence and the same as data (``{code, params, rule}``)."""


def _problem(sentence: str, code: str, rule: str | None = None, **params: Any) -> Problem:
    return sentence, {"code": code, "params": params, "rule": rule}


def _parse_list(
    text: str, names: tuple[str, ...], what: str, players: int, problems: list[Problem]
) -> list[int] | None:
    """The option's items in seat order, ``-1`` for a seat dealt at random; None when every
    seat is (``random``, or a list of ``random`` only: the deal of SR-57 as before). Each
    problem found is appended to ``problems`` (the items it could not read count as random,
    so that the other checks still run)."""
    if text.strip().lower() == RANDOM:
        return None
    items = [x.strip().lower() for x in text.split(",")]
    if len(items) != players:
        problems.append(
            _problem(
                f"option {what!r} needs {players} comma-separated names, not {text!r}"
                f" (each one of {', '.join(names)} or {RANDOM})",
                "option_count",
                option=what,
                n=players,
            )
        )
        return None
    out = []
    for seat, x in enumerate(items):
        if x == RANDOM:
            out.append(-1)
        elif x in names:
            out.append(names.index(x))
        else:
            problems.append(
                _problem(
                    f"option {what!r}: {x!r} is not one of {', '.join(names)} or {RANDOM}",
                    "option_item",
                    option=what,
                    item=x,
                    seat=seat,
                )
            )
            out.append(-1)
    chosen = [i for i in out if i >= 0]
    if len(set(chosen)) != len(chosen):
        problems.append(
            _problem(
                f"option {what!r} names the same one twice: {text!r}", "option_twice", option=what
            )
        )
    return None if all(i < 0 for i in out) else out


def _banned(factions: list[int] | None, mats: list[int] | None, n: int) -> list[Problem]:
    """SR-58: a problem naming every seat given a banned pair, or one when what is fixed leaves
    the deal nothing but banned pairs."""
    fs = tuple(factions or [-1] * n)
    ms = tuple(mats or [-1] * n)
    banned = [
        (seat, D.FACTION_IDS[f], D.MAT_IDS[m])
        for seat, (f, m) in enumerate(zip(fs, ms))
        if (f, m) in D.BANNED_PAIRS
    ]
    pairs = [f"{f} with the {m} mat" for _, f, m in banned]
    data = [{"seat": seat, "faction": f, "mat": m} for seat, f, m in banned]
    if len(pairs) == 1:
        sentence = f"{pairs[0]} is a banned pair (SR-58); set allow_banned_pairs=true to allow it"
        return [_problem(sentence, "banned_pairs", "SR-58", pairs=data)]
    if pairs:
        sentence = (
            f"{' and '.join(pairs)} are banned pairs (SR-58); "
            "set allow_banned_pairs=true to allow them"
        )
        return [_problem(sentence, "banned_pairs", "SR-58", pairs=data)]
    if _distinct(fs) and _distinct(ms) and count_deals(fs, ms, False) == 0:
        sentence = "these factions and mats leave only banned pairs (SR-58)"
        return [_problem(sentence, "banned_only", "SR-58")]
    return []


def _distinct(items: tuple[int, ...]) -> bool:
    fixed = [x for x in items if x >= 0]
    return len(set(fixed)) == len(fixed)


class ScytheGame(Game):
    """Scythe (base game), 2-5 players. See ``docs/scythe.md`` for the notation.

    Options: ``factions`` and ``mats`` (``random`` or a comma list in seat order, whose
    items may be ``random`` too), ``allow_banned_pairs`` (SR-58's first-game allowance).
    """

    id: ClassVar[str] = "scythe"
    name: ClassVar[str] = "Scythe"
    rules_version: ClassVar[str] = "0.2"
    """0.2: a mech leaving a lake must take the workers brought there (SR-35), so records of
    0.1 holding the stranding ``carry none`` no longer replay; everything else is unchanged."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    default_players: ClassVar[int] = 2
    action_forms: ClassVar[ActionForms | None] = ActionForms.of_modules(actions.__name__)
    log_book: ClassVar[LogBook | None] = LOG
    default_turn_cap: ClassVar[int | None] = 500
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "factions",
            "str",
            "random",
            "factions in seat order (e.g. nordic,crimea; a seat may be random) or random",
        ),
        OptionSpec(
            "mats", "str", "random", "player mats in seat order (a seat may be random) or random"
        ),
        OptionSpec(
            "allow_banned_pairs",
            "bool",
            False,
            "allow Rusviet+Industrial and Crimea+Patriotic (SR-58)",
        ),
        OptionSpec(
            "oq5_disarm_tunnels_only",
            "bool",
            True,
            "OQ-5: Disarm works on printed tunnels only (false: also on the owner's Mine)",
        ),
        OptionSpec(
            "oq6_camaraderie_combat_only",
            "bool",
            True,
            "OQ-6: Camaraderie cancels only the loss after a won combat "
            "(false: also the loss for displacing workers)",
        ),
        OptionSpec(
            "oq8_seaworthy_lake_retreat",
            "bool",
            True,
            "OQ-8: a Seaworthy loser may retreat onto an adjacent lake (false: always home)",
        ),
        OptionSpec(
            "oq18_enlist_pays_same_action",
            "bool",
            True,
            "OQ-18: a recruit enlisted from the Enlist section pays on that same action",
        ),
    )

    def __init__(self, players: int | None = None, options: dict[str, Any] | None = None):
        self.fixed_factions: list[int] | None = None
        self.fixed_mats: list[int] | None = None
        super().__init__(players, options)

    def check_options(self) -> None:
        """Read ``factions`` and ``mats``: each ``random`` or a list in seat order whose items
        may be ``random`` too (a seat left to the deal: ``nordic,random`` fixes seat 0's
        faction, seat 1's is dealt at the start, issue 27). Every problem is said, in one
        message of sentences joined by ``"; "`` (a bad name and a banned pair are both
        named), with the problems as data (``OptionError.reasons``: ``option_count``,
        ``option_item``, ``option_twice``, ``banned_pairs``, ``banned_only``) for the create
        form to say them in the page's language."""
        n = self.num_players
        problems: list[Problem] = []
        self.fixed_factions = _parse_list(
            self.options["factions"], D.FACTION_IDS, "factions", n, problems
        )
        self.fixed_mats = _parse_list(self.options["mats"], D.MAT_IDS, "mats", n, problems)
        if not self.options["allow_banned_pairs"]:
            problems += _banned(self.fixed_factions, self.fixed_mats, n)
        if problems:
            raise OptionError("; ".join(p for p, _ in problems), [r for _, r in problems])

    def new_initial_state(self) -> ScytheState:
        return ScytheState(self)

    def load_position(self, doc: str | Mapping[str, Any]) -> ScytheState:
        """The state a position document describes (``state.position()`` writes one; the
        fields are listed in ``docs/scythe.md``, "Positions"). The document is checked against
        the game's invariants (piece counts, track limits, deck composition, stars, a prompt
        with an action); a bad one is refused with :class:`~hexfolk.core.PositionError`,
        whose sentence names the problem."""
        return ScytheState.from_position(self, doc)

    def world_from_observation(
        self, observation: dict[str, Any], seat: int, rng: random.Random
    ) -> ScytheState:
        """A state whose ``observation(seat)`` is ``observation``, every hidden part drawn
        from ``rng`` (``worlds.py``; ``docs/scythe.md``, "Worlds from an observation")."""
        world = worlds.world_from_observation(self, observation, seat, rng)
        assert isinstance(world, ScytheState)
        return world

    def parse_action_syntax(self, text: str) -> Action:
        return parse_action(text)

    def render_observation(self, observation: dict[str, Any]) -> str:
        """The board map, the players' mats, own cards, the prompt and the recent log."""
        return render(observation)

    def render_summary(self, summary: dict[str, Any]) -> str:
        """The end of the game in sentences: who won, and every fortune item by item."""
        return render_summary(summary)

    def describe_action(self, observation: dict[str, Any], action: Action) -> str:
        """A short hint for ``action`` (what a section holds, where a step leads, what a
        payment takes), from the chooser's observation only."""
        return describe(observation, action)

    def board_geometry(self) -> dict[str, Any]:
        """The board's drawing geometry and printed components (``games/scythe/geometry.py``)."""
        return board_geometry()
