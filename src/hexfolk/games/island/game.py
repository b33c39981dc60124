"""``IslandGame``: the island game's rules and options (registered as ``island``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from hexfolk.core import (
    Action,
    FrozenOptions,
    LogBook,
    MalformedActionError,
    OptionError,
    OptionSpec,
)
from hexfolk.core.action_forms import ActionForms
from hexfolk.games.island import actions as A
from hexfolk.games.island import ascii_map, maps, positions, views, worlds
from hexfolk.games.island.board import (
    Layout,
    LayoutError,
    Topology,
    beginner_layouts,
    empty_topology,
    random_layout,
    topology,
    validate_layout,
)
from hexfolk.games.island.geometry import drawing_geometry
from hexfolk.games.island.log_forms import LOG
from hexfolk.games.island.position import IslandRules
from hexfolk.games.island.rules import components, deck_counts
from hexfolk.games.island.state import IslandState

JSON = dict[str, Any]

IMPLICIT_OPTIONS: dict[str, Any] = {"map": "standard"}
"""Options newer than the records and golden files of standard-board games: left out of
:attr:`IslandGame.options` at their default so those read exactly as before."""


class IslandOptions(FrozenOptions):
    """The options dict of an island game: an option of :data:`IMPLICIT_OPTIONS` at its default
    is not among the items (so equality, ``items()`` and JSON are as before it existed), but
    ``options[name]`` and ``options.get(name)`` still give its value."""

    def __missing__(self, key: str) -> Any:
        if key in IMPLICIT_OPTIONS:
            return IMPLICIT_OPTIONS[key]
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self:
            return dict.__getitem__(self, key)
        return IMPLICIT_OPTIONS.get(key, default)


class IslandGame(IslandRules):
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
    * ``map`` (standard): the standard board for the player count, or one of the 22 maps of
      IR-83 (``docs/maps.md``) that supports the player count; bank and deck still follow the
      player count (IR-81). On a map, ``board=standard`` draws the map as its file says
      (``maps.draw_layout``), ``board=random`` shuffles its terrain, numbers (IR-13) and
      harbor kinds over its shape (``maps.randomized``), ``board=beginner`` is refused. At
      ``standard`` the option is left out of the items of :attr:`options` (see
      :class:`IslandOptions`), so the options, records and golden files of standard-board
      games read exactly as before maps existed.
    """

    id: ClassVar[str] = "island"
    name: ClassVar[str] = "Island"
    rules_version: ClassVar[str] = "2"
    """2: trade offers never block (answers in any order, unanswered = rejected)."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 4
    default_turn_cap: ClassVar[int | None] = 1000
    action_forms: ClassVar[ActionForms | None] = ActionForms.of_modules(A.__name__)
    log_book: ClassVar[LogBook | None] = LOG
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
        OptionSpec(
            "map",
            "choice",
            "standard",
            "the standard board for the player count, or a map of IR-83 (hexfolk maps)",
            choices=("standard", *maps.map_ids()),
        ),
    )

    def __init__(self, players: int | None = None, options: dict[str, Any] | None = None):
        super().__init__(players, options)
        comp = components(self.num_players)
        self.bank_size: int = comp["bank"]
        self.deck: tuple[int, ...] = deck_counts(self.num_players)
        self.map: maps.IslandMap | None = None
        """The map of IR-83 this game is played on (None: the standard board); with
        ``board=random``, the map's :func:`~.maps.randomized` variant."""
        self.fixed_layouts: tuple[Layout, ...] = ()
        """The layouts of a fixed board (the chance outcomes of the layout, equally likely)."""
        self.fixed_outcomes: tuple[A.LayoutOutcome, ...] = ()
        """:attr:`fixed_layouts` as layout outcomes."""
        resolved = dict(self.options)
        if resolved["map"] == IMPLICIT_OPTIONS["map"]:
            del resolved["map"]
        self.options = IslandOptions(resolved)  # read-only, as every game's options
        map_id = self.options["map"]
        if map_id == IMPLICIT_OPTIONS["map"]:
            self.board_id: str = comp["board"]
            self._topology: Topology | None = topology(self.board_id)
            if self.options["board"] == "beginner":
                self.fixed_layouts = beginner_layouts(self.board_id)
                self.fixed_outcomes = tuple(A.LayoutOutcome(x) for x in self.fixed_layouts)
            return
        m = maps.load_map(map_id)
        self.board_id = m.id
        self.map = maps.randomized(m) if self.options["board"] == "random" else m
        if m.coastline is None:
            self._topology = maps.map_topology(m.id)
            drawn = maps.fixed_layouts(self.map)
            self.fixed_outcomes = tuple(maps.outcome_of(x) for x in drawn)
            self.fixed_layouts = tuple(o.layout for o in self.fixed_outcomes)
        else:
            self._topology = None

    @classmethod
    def choice_details(cls, option: str) -> dict[str, str]:
        """What each value of a choice option means, for listings (``hexfolk games``): the
        maps of ``map`` with their names, tile counts and player counts."""
        if option != "map":
            return {}
        out = {"standard": "the standard board: 19, 30 or 44 hexes by player count (IR-9)"}
        for m in maps.all_maps():
            total, producing, deserts, lakes = m.counts()
            lo, hi = m.min_players, m.max_players
            seats = f"{lo}-{hi}" if hi > lo else str(lo)
            out[m.id] = (
                f"{m.name_en} / {m.name_nl}: {total} tiles ({producing}/{deserts}/{lakes}), "
                f"{seats} players"
            )
        return out

    def check_options(self) -> None:
        """A map supports only its player counts; it brings its own layout (no beginner)."""
        map_id = self.options["map"]
        if map_id == "standard":
            return
        m = maps.load_map(map_id)
        if not m.supports(self.num_players):
            raise OptionError(
                f"map {m.id!r} ({m.name_en}) is for {m.min_players}-{m.max_players} players, "
                f"not {self.num_players}"
            )
        if self.options["board"] == "beginner":
            raise OptionError(
                f"board=beginner is the standard board's fixed layout; map {m.id!r} "
                f"({m.name_en}) has its own (use board=standard or board=random)"
            )

    @property
    def topology(self) -> Topology:
        """The board's geometry, the same for every game with these options. Driftland draws a
        new coastline with every game's layout: its geometry is the state's (``state.topology``
        after the layout, or :meth:`geometry_of` an observation), and this raises
        :class:`~.maps.MapError`."""
        if self._topology is None:
            assert self.map is not None
            raise maps.MapError(
                f"{self.map.label}: a new coastline every game, so the geometry is known only "
                "after the layout (state.topology)"
            )
        return self._topology

    @property
    def fixed_geometry(self) -> bool:
        """False for Driftland, whose geometry comes with each game's layout."""
        return self._topology is not None

    def start_topology(self) -> Topology:
        """The geometry of a state before the layout: :attr:`topology`, or for Driftland an
        empty one (the layout outcome brings the island)."""
        if self._topology is not None:
            return self._topology
        assert self.map is not None
        return empty_topology(self.map.id, self.map.name_en)

    def new_initial_state(self) -> IslandState:
        """The state before the board is laid out (a chance node)."""
        return IslandState(self)

    def load_position(self, doc: str | Mapping[str, Any]) -> IslandState:
        """The state a position document describes (``state.position()`` writes one; the
        fields are listed in ``docs/island.md``, "Positions"). The document is checked against
        the game's invariants (pieces per seat, the distance rule, bank and hands holding every
        card, the development deck's composition, awards, a prompt that exists); a bad one is
        refused with :class:`~hexfolk.core.PositionError`, whose sentence names the problem."""
        return positions.load_position(IslandState(self), doc)

    def world_from_observation(
        self, observation: dict[str, Any], seat: int, rng: random.Random
    ) -> IslandState:
        """A state whose ``observation(seat)`` is ``observation``, every hidden part drawn
        from ``rng`` (``worlds.py``; ``docs/island.md``, "Worlds from an observation")."""
        world = worlds.world_from_observation(self, observation, seat, rng)
        assert isinstance(world, IslandState)
        return world

    def parse_action_syntax(self, text: str) -> Action:
        """Parse island notation (``docs/island.md``); raise MalformedActionError. On a map the
        layout outcome is written with coordinates (``maps.layout_text``)."""
        if self.map is not None:
            words = text.strip().split(None, 1)
            if words and words[0].lower() == "layout":
                try:
                    return maps.parse_outcome(self.map, words[1] if len(words) > 1 else "")
                except maps.MapError as exc:
                    raise MalformedActionError(f"bad layout: {exc}") from None
        return A.parse(text)

    def random_layout(self, rng: random.Random) -> Layout:
        """A random layout for this game's board (IR-11, IR-13, IR-15); on a map, the engine
        layout of :meth:`draw_layout_outcome`."""
        if self.map is not None:
            return self.draw_layout_outcome(rng).layout
        return random_layout(self.topology, rng)

    def draw_layout_outcome(self, rng: random.Random) -> A.LayoutOutcome:
        """The layout chance outcome drawn from ``rng``: the standard board by IR-11/13/15, a
        map by ``maps.draw_layout`` (pools, bands, Driftland's coastline; validated)."""
        if self.map is not None:
            return maps.outcome_of(maps.draw_layout(self.map, rng))
        return A.LayoutOutcome(random_layout(self.topology, rng))

    def is_layout_outcome(self, action: Action) -> bool:
        """Whether ``action`` is a possible layout of this game's board."""
        if not isinstance(action, A.LayoutOutcome):
            return False
        if self.fixed_outcomes:
            return action in self.fixed_outcomes
        if self.map is None:
            if type(action) is not A.LayoutOutcome:
                return False
            try:
                validate_layout(self.topology, action.layout)
            except LayoutError:
                return False
            return True
        if not isinstance(action, maps.MapLayoutOutcome) or action.island.map_id != self.map.id:
            return False
        try:
            maps.validate_layout(self.map, action.island)
        except maps.MapError:
            return False
        return action.layout == maps.to_engine(action.island)[1]

    def render_observation(self, observation: JSON) -> str:
        """Readable text of an observation (terminal play, golden files)."""
        return views.render(self, observation)

    def render_summary(self, summary: JSON) -> str:
        """Readable text of the end-of-game statistics (IR-80), in sentences."""
        return views.render_summary(summary)

    def describe_action(self, observation: JSON, action: Action) -> str:
        """What a spot touches, where a road runs, whom a robber move hits (for people)."""
        return ascii_map.describe(observation, action)

    def board_geometry(self) -> JSON:
        """The board's drawing geometry (``docs/web.md``): pointy-top hexes on the doubled grid
        of ``board.Topology`` — ``hexes[h]`` the centre ``[x, y]`` of hex ``h`` (one hex is 2
        wide and 4 tall in these units), ``nodes[v]`` the point of intersection ``v``,
        ``edges[e]`` the two nodes of edge ``e``, ``harbors[k]`` the edge of harbor slot ``k``
        with its land hex (the layout text gives each slot's kind)."""
        return drawing_geometry(self.topology)
