"""``IslandGame``: the island game's rules and options (registered as ``island``)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from hexfolk.core import Action, Game, OptionSpec
from hexfolk.games.island import actions as A
from hexfolk.games.island.board import (
    Layout,
    Topology,
    beginner_layouts,
    random_layout,
    topology,
)
from hexfolk.games.island.rules import components, deck_counts
from hexfolk.games.island.state import IslandState

JSON = dict[str, Any]


class IslandGame(Game):
    """The island game (Catan-style) for 2–8 players, per ``island_rules.md``.

    The board follows the player count (IR-9): 19 hexes for 2–4, 30 for 5–6, 44 for 7–8, with
    the bank and development deck of sheet 1.3. Options:

    * ``vp_target`` (10; 8..20): the sheet's lobby allows 8–15 for the base game (IR-2); the
      engine accepts up to 20 so expansion lobbies can reuse it.
    * ``robber`` (true): false = IR-47, no robber moves or steals (7s still make discards).
    * ``friendly_robber`` (false): IR-46.
    * ``longest_road``, ``largest_army`` (true): IR-73.
    * ``discard_limit`` (7; 3..20): a 7 makes players holding more cards discard half.
    * ``hide_bank`` (false): bank counts left out of every observation.
    * ``board`` (standard): ``standard`` lays the board out per IR-11/13/15 (terrain, tokens
      and harbor kinds shuffled; IR-13 enforced); ``random`` is the same generator, named for
      maps whose standard mode is fixed; ``beginner`` is the fixed layout of ``data/boards.json``
      (the official spiral token order on the 19-hex board).
    """

    id: ClassVar[str] = "island"
    name: ClassVar[str] = "Island"
    rules_version: ClassVar[str] = "2"
    """2: trade offers never block (answers in any order, unanswered = rejected)."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 4
    default_turn_cap: ClassVar[int | None] = 1000
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("vp_target", "int", 10, "victory points to win (IR-2)", 8, 20),
        OptionSpec("robber", "bool", True, "play with the robber (IR-47 when off)"),
        OptionSpec("friendly_robber", "bool", False, "friendly robber (IR-46)"),
        OptionSpec("longest_road", "bool", True, "award Longest Road (IR-73)"),
        OptionSpec("largest_army", "bool", True, "award Largest Army (IR-73)"),
        OptionSpec("discard_limit", "int", 7, "a 7 makes hands above this discard half", 3, 20),
        OptionSpec("hide_bank", "bool", False, "hide the bank's card counts"),
        OptionSpec(
            "board",
            "choice",
            "standard",
            "board layout: standard, beginner or random",
            choices=("standard", "beginner", "random"),
        ),
    )

    def __init__(self, players: int | None = None, options: dict[str, Any] | None = None):
        super().__init__(players, options)
        comp = components(self.num_players)
        self.board_id: str = comp["board"]
        self.topology: Topology = topology(self.board_id)
        self.bank_size: int = comp["bank"]
        self.deck: tuple[int, ...] = deck_counts(self.num_players)
        self.fixed_layouts: tuple[Layout, ...] = (
            beginner_layouts(self.board_id) if self.options["board"] == "beginner" else ()
        )

    def new_initial_state(self) -> IslandState:
        """The state before the board is laid out (a chance node)."""
        return IslandState(self)

    def parse_action(self, text: str) -> Action:
        """Parse island notation (``docs/island.md``); raise MalformedActionError."""
        return A.parse(text)

    def random_layout(self, rng: random.Random) -> Layout:
        """A random layout for this game's board (IR-11, IR-13, IR-15)."""
        return random_layout(self.topology, rng)

    def render_observation(self, observation: JSON) -> str:
        """Readable text of an observation (terminal play, golden files)."""
        from hexfolk.games.island.views import render

        return render(self, observation)

    def describe_action(self, observation: JSON, action: Action) -> str:
        """What a spot touches, where a road runs, whom a robber move hits (for people)."""
        from hexfolk.games.island.ascii_map import describe

        return describe(observation, action)
