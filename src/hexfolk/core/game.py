"""The kernel contract: :class:`Game` (immutable rules + options) and :class:`State`.

Every game in Hexfolk implements these two classes; the conformance kit
(:mod:`hexfolk.core.testing`) checks that it does so faithfully. See ``docs/concepts.md``.

Seats are integers ``0 .. num_players - 1``. :meth:`State.current_player` returns a seat, or
:data:`CHANCE` when the next step is drawn by the runner's RNG, or :data:`TERMINAL`.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hexfolk.core.action_forms import ActionForms
from hexfolk.core.actions import Action, ActionPattern
from hexfolk.core.errors import (
    AmbiguousActionError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
)
from hexfolk.core.log_lines import LogBook
from hexfolk.core.options import FrozenOptions, OptionSpec, resolve_options
from hexfolk.core.reasons import GENERIC, Reason

CHANCE = -1
"""``current_player()`` value: the next step is a chance outcome drawn by the runner."""

TERMINAL = -2
"""``current_player()`` value: the game is over."""

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ClockStep:
    """Which clock window a seat's pending decision runs on (:meth:`State.clock_step`).

    ``kind`` is one of :data:`CLOCK_KINDS`: ``"turn"``, the window of the seat whose turn it
    is, one for the whole turn, paused while others decide; ``"step"``, a fresh window of the
    whole clock for this step alone (an island setup placement, IR-27); ``"parallel"``, a
    decision owed beside the turn (a discard, an answer to an offer): a fresh window of the
    clock capped by the table (IR-27); ``"commitment"``, a secret combat commitment: a window
    of the table's commitment clock. ``key`` names the step: a seat stays on one window while
    its key stays the same, and a time-out applies defaults only while it does (a ``"turn"``
    window: while the turn lasts).

    ``share`` and ``floor`` shape a fresh ``"step"`` or ``"parallel"`` window: ``share`` of the
    turn clock, at least ``floor`` seconds, never longer than the turn clock (nor than the
    table's cap of a parallel window): ``share=0, floor=5`` is a 5 s window whatever the
    clock (the island's special build sign-up, IR-30), ``share=0.5, floor=15`` half the clock
    but at least 15 s (a special build slot, IR-31). ``bot_delay`` False: a bot answers at
    once, without the table's bot delay (IR-30)."""

    kind: str
    key: tuple[Any, ...]
    share: float = 1.0
    floor: float = 0.0
    bot_delay: bool = True


CLOCK_KINDS = ("turn", "step", "parallel", "commitment")


@dataclass(frozen=True, slots=True)
class Prompt:
    """The decision pending on top of a state's prompt stack.

    ``kind`` names the decision in the game's own words (``"choose-section"``,
    ``"discard"``, ``"answer-offer"``); ``seat`` is who must answer; ``text`` is a sentence for
    people; ``data`` holds public details (e.g. how many cards to discard).
    """

    kind: str
    seat: int
    text: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "seat": self.seat, "text": self.text, "data": dict(self.data)}


class Game(ABC):
    """Immutable rules and options. ``Game(players, options)`` validates and creates states.

    Subclasses set the class attributes and implement :meth:`new_initial_state` and
    :meth:`parse_action_syntax` (and, for positions, :meth:`load_position`). Options not given
    take their defaults; unknown or out-of-range values raise
    :class:`~hexfolk.core.errors.OptionError` naming the problem.
    """

    id: ClassVar[str]
    """Registry id (``"island"``, ``"scythe"``)."""
    name: ClassVar[str]
    """Human name."""
    rules_version: ClassVar[str]
    """Bumped whenever a rules change can change a replay; stored in every record."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    default_turn_cap: ClassVar[int | None] = None
    """Turn cap a simulation harness applies by default (``None``: no cap)."""
    action_forms: ClassVar[ActionForms | None] = None
    """The JSON forms of the game's actions by kind (``ActionForms.of_modules(...)``); the
    conformance kit's ``check_action_json`` requires them."""
    log_book: ClassVar[LogBook | None] = None
    """The English templates of the game's log forms: every line its log holds is a
    :class:`~hexfolk.core.log_lines.LogLine` of one of them (``docs/log.md``)."""

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        n = self.default_players if players is None else players
        if isinstance(n, bool) or not isinstance(n, int):
            raise OptionError(f"the player count must be a whole number, not {n!r}")
        if not self.min_players <= n <= self.max_players:
            raise OptionError(
                f"{self.id} is played by {self.min_players} to {self.max_players} players, not {n}"
            )
        self.num_players: int = n
        self.options: Mapping[str, Any] = FrozenOptions(
            resolve_options(self.option_specs, options or {})
        )
        """The resolved options (every option, defaults filled in): read-only
        (:class:`~hexfolk.core.options.FrozenOptions`; writing raises TypeError)."""
        self.check_options()

    def check_options(self) -> None:  # noqa: B027 - an optional hook, empty by default
        """Hook for checks across several options or the player count (raise OptionError)."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first step (usually a chance node: board, deal, seats)."""

    @abstractmethod
    def parse_action_syntax(self, text: str) -> Action | ActionPattern:
        """Read ``text`` as this game's notation, by syntax alone (no state is consulted).

        Canonical text (``str(action)``) gives that :class:`Action`; a shorthand (``end``,
        ``robber 17``, ``carry all``) may give a *pattern* instead, which only
        :meth:`State.parse_action` can resolve against the legal actions of a state. Text that
        is not notation of this game raises :class:`MalformedActionError`. To turn text into
        the legal action it names, use :meth:`State.parse_action`; for a canonical text
        outside any state, :meth:`parse_canonical`.
        """

    def parse_canonical(self, text: str) -> Action:
        """The action a canonical text (``str(action)``) names, without a state.

        Raises :class:`MalformedActionError` when the text is not this game's notation or is a
        shorthand that names a pattern rather than one action."""
        parsed = self.parse_action_syntax(text)
        if not isinstance(parsed, Action):
            raise MalformedActionError(f"{text!r} is a shorthand, not the text of one action")
        return parsed

    def action_from_json(self, doc: Any) -> Action:
        """The action a JSON form (``action.to_json()``) writes, without a state.

        Raises :class:`MalformedActionError` naming the problem when ``doc`` is not the form of
        an action of this game (not an object, an unknown ``kind``, a field missing, unknown or
        of the wrong type). Legality is not checked: apply it through the state as usual."""
        forms = self.action_forms
        if forms is None:
            raise NotImplementedError(
                f"{self.id} has no JSON form of its actions: its Game has no action_forms"
            )
        return forms.from_json(doc)

    def load_position(self, doc: str | Mapping[str, Any]) -> State:
        """Build the state a position document describes (the inverse of :meth:`State.position`).

        A position is a public document, as FEN is for chess: plain JSON (``doc`` is the JSON
        text or the parsed mapping) naming every field of a state in the game's own words (the
        units on the board, the resources, the tracks, the cards, the seat to move and the
        pending prompt), hidden parts included, so that tests, ``hexfolk perft --position`` and
        ``hexfolk play --position`` can start from any situation without touching an engine's
        private fields. ``load_position(state.position())`` gives a state with the same
        :meth:`State.fingerprint` as ``state``, for this game and these options.

        A document should also name ``"game"`` (the id), ``"players"`` and ``"options"`` (as
        :meth:`config` gives them) at its top level, so that a file is self-describing:
        ``hexfolk perft --position FILE`` and ``hexfolk play --position FILE`` build the game
        from them when the command line does not; ``load_position`` refuses a document whose
        ``game``, ``players`` or ``options`` differ from this game's.

        The document is checked against the game's invariants (piece counts, track limits,
        deck composition, a prompt that exists for the seat it names) before anything is
        built; a document that breaks one is refused with
        :class:`~hexfolk.core.errors.PositionError`, whose message is one sentence naming the
        problem. A document without one of its fields is refused too, unless the game lets
        the field's absence stand for a default (then the state built is still a whole
        position). :func:`hexfolk.core.testing.check_positions` checks all of this. Games override
        this; the default refuses every document.
        """
        raise NotImplementedError(
            f"{self.id} does not load positions yet: its Game has no load_position()"
        )

    def world_from_observation(self, observation: JSON, seat: int, rng: random.Random) -> State:
        """A full state ``seat`` cannot tell from the one that gave ``observation``.

        ``observation`` is ``state.observation(seat)`` as a remote client receives it (with the
        whole visible log). The state returned has ``observation(seat)`` equal to it in every
        field it carries, and everything hidden from ``seat`` (the other hands, by their counts
        and what the observation says of them, the deck order, unseen cards, objectives and
        offers) drawn from ``rng`` consistently with what the seat knows. Games build it
        through their position document and :meth:`load_position`, so the engine's invariants
        are checked. It is what a search bot playing over the wire samples instead of
        :meth:`State.sample_consistent_state`, which needs the true state. Games override this;
        the default raises NotImplementedError.
        """
        raise NotImplementedError(
            f"{self.id} cannot rebuild a world from an observation: its Game has no "
            "world_from_observation()"
        )

    def render_observation(self, observation: JSON) -> str:
        """Readable text of an observation (terminal play, golden files). Override for games."""
        return json.dumps(observation, indent=1, sort_keys=True)

    def render_summary(self, summary: JSON) -> str:
        """Readable text of :meth:`State.summary` (end-of-game statistics). Games may override;
        the default lays the JSON out as an indented outline."""
        return "\n".join(outline(summary))

    def describe_action(self, observation: JSON, action: Action) -> str:
        """A short hint for people choosing ``action`` (e.g. the hexes a spot touches),
        computed from the chooser's observation only. Empty by default."""
        return ""

    def config(self) -> JSON:
        """``{"players": n, "options": {...}}``: everything needed to rebuild this game."""
        return {"players": self.num_players, "options": dict(self.options)}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.num_players}, options={dict(self.options)!r})"

    def board_geometry(self) -> JSON | None:
        """Where the board's places are drawn, for clients that show it (the browser): plain
        JSON in the game's own ids, the same for every game with these options. ``None`` (the
        default) for games whose observation carries everything a drawing needs."""
        return None


class State(ABC):
    """A position of a game. Mutable: :meth:`apply` changes it in place; :meth:`clone` copies.

    The contract (checked by :mod:`hexfolk.core.testing`):

    * ``legal_actions()`` is empty unless ``current_player()`` is a seat; its order is
      deterministic (a function of the state only).
    * at a chance node, ``chance_outcomes()`` lists ``(outcome, probability)`` pairs summing to 1,
      or the game overrides :meth:`sample_chance` / :meth:`is_possible_chance` when the space is
      too large to list (e.g. a whole board layout).
    * ``observation(seat)`` is the only way information leaves a state. It is plain JSON. With
      ``seat=None`` it is the spectator's view.
    * ``sample_consistent_state(seat, rng)`` returns a full state that ``seat`` cannot tell apart
      from this one: same observation for ``seat``, hidden parts redrawn from ``rng``.
    * ``full_state()`` is every field, hidden ones included, as JSON; ``fingerprint()`` hashes it.
    """

    game: Game

    # --- whose move -----------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """A seat, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def prompt(self) -> Prompt | None:
        """The pending decision on top of the prompt stack (None at chance/terminal)."""
        return None

    # --- moves ------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Legal actions of the seat to move, deterministic order; empty at chance/terminal."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(outcome, probability)`` at a chance node. Games with chance override this."""
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw a chance outcome with ``rng`` (only at a chance node)."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("this state is not a chance node")
        x = rng.random()
        acc = 0.0
        for outcome, p in outcomes:
            acc += p
            if x < acc:
                return outcome
        return outcomes[-1][0]

    def is_possible_chance(self, action: Action) -> bool:
        """True if ``action`` is a possible outcome of this chance node."""
        return any(action == a for a, _ in self.chance_outcomes())

    # --- several seats at once ---------------------------------------------------------------
    def acting_seats(self) -> list[int]:
        """Every seat that may act now, in seat order.

        Usually ``[current_player()]`` (empty at chance and terminal nodes). At a simultaneous
        decision (discards after a 7, answers to a trade offer, the two secret combat
        commitments) it names every seat that owes or may give an answer, each with its
        :meth:`legal_actions_for` and :meth:`prompt_for`; their steps may arrive in any order
        (:meth:`parse_action_for`, :meth:`apply_for`) and give the same result (the seats of
        :meth:`simultaneous_seats`; a seat that races them, like a trade's proposer, is ordered
        by arrival). ``current_player()`` is always one of them, so sequential drivers
        (``Match``, perft, bots, ``hexfolk play``) keep working: they walk the seats in the
        order ``current_player()`` names them. A record writes a step of another acting seat
        as ``"@<seat> <text>"`` (:func:`hexfolk.core.record.record_entry`).
        """
        player = self.current_player()
        return [player] if player >= 0 else []

    def simultaneous_seats(self) -> list[int]:
        """The acting seats whose pending decisions are simultaneous, in seat order.

        The steps of these seats commute: one seat's steps (all of them, until it has no
        decision left in the group) may be interleaved with the others' in any order, and every
        order ends in the same state (same fingerprint, same legal actions afterwards). Other
        acting seats, such as the island proposer who may complete a trade while answers are
        still coming in, *race* them: their steps are ordered by arrival, which the record
        keeps. Default: every acting seat when there are several, else none.
        """
        seats = self.acting_seats()
        return seats if len(seats) > 1 else []

    def legal_actions_for(self, seat: int) -> list[Action]:
        """Legal actions of ``seat``: empty unless that seat is one of :meth:`acting_seats`.

        For ``current_player()`` this is :meth:`legal_actions` (same actions, same order)."""
        return self.legal_actions() if self.current_player() == seat else []

    def prompt_for(self, seat: int) -> Prompt | None:
        """The decision pending for ``seat`` (None unless it is one of :meth:`acting_seats`).

        For ``current_player()`` this is :meth:`prompt`."""
        return self.prompt() if self.current_player() == seat else None

    def apply_for(self, seat: int, action: Action) -> None:
        """Apply ``action`` on behalf of ``seat`` (one of :meth:`acting_seats`), checked.

        Raises :class:`IllegalActionError` (changing nothing) when ``seat`` may not act now or
        ``action`` is not among its legal actions. Games with simultaneous decisions override it.
        """
        if self.current_player() != seat:
            raise self.refusal(seat, str(action), action)
        self.apply(action)

    def parse_action_for(self, seat: int, text: str) -> Action:
        """:meth:`parse_action` for ``seat``: the legal action of that seat the text names.

        The same three errors; a seat that is not acting gets :class:`IllegalActionError`."""
        if seat not in self.acting_seats() or self.current_player() != seat:
            raise self.refusal(seat, text.strip(), self._named_action(text))
        return self.parse_action(text)

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` may be applied now (chance outcomes included)."""
        player = self.current_player()
        if player == TERMINAL:
            return False
        if player == CHANCE:
            return self.is_possible_chance(action)
        return action in self.legal_actions()

    def apply(self, action: Action) -> None:
        """Check legality, then apply. An illegal action raises and changes nothing."""
        if not self.is_legal(action):
            raise self.refusal(self.current_player(), str(action), action)
        self.apply_unchecked(action)

    @abstractmethod
    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (the runner's fast path)."""

    def parse_action(self, text: str) -> Action:
        """Turn text into the legal action it names.

        Raises :class:`MalformedActionError` if the text is not notation of this game,
        :class:`IllegalActionError` if it names nothing legal now, and
        :class:`AmbiguousActionError` if a shorthand fits several legal actions.
        """
        text = text.strip()
        if not text:
            raise MalformedActionError("empty action text")
        pattern = self.game.parse_action_syntax(text)
        player = self.current_player()
        named = pattern if isinstance(pattern, Action) else None
        if player == CHANCE:
            if named is not None and self.is_possible_chance(named):
                return named
            raise self.refusal(player, text, named)
        if player == TERMINAL:
            raise self.refusal(player, text, named)
        legal = self.legal_actions()
        if isinstance(pattern, Action) and pattern in legal:
            return pattern
        found = [a for a in legal if pattern.matches(a)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            listed = ", ".join(str(a) for a in found[:12])
            more = f" and {len(found) - 12} more" if len(found) > 12 else ""
            raise AmbiguousActionError(f"{text!r} could mean any of: {listed}{more}")
        raise self.refusal(player, text, named)

    # --- refusals: why an action is not legal ------------------------------------------------
    def why_illegal(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now: one sentence in the game's words with the
        rule's number (what it costs and what the seat holds, what is missing, what forbids
        it, whose decision it is), or ``None`` when the action is legal for that seat.

        ``seat`` is :data:`CHANCE` for a chance outcome. :meth:`apply`, :meth:`parse_action`,
        :meth:`parse_action_for` and :meth:`apply_for` put it in the
        :class:`IllegalActionError` they raise (its ``reason``). Engines override it (with
        :meth:`why_illegal_reason`: the sentence is that reason's ``text``); this default gives
        the generic sentence (the pending decision and some legal actions).
        """
        reason = self.generic_reason(seat, action)
        return None if reason is None else reason.text

    def why_illegal_reason(self, seat: int, action: Action) -> Reason | None:
        """:meth:`why_illegal` as data: a :class:`~hexfolk.core.reasons.Reason` (``code``,
        ``params``, ``rule``; its ``text`` is the sentence), or ``None`` when legal.

        Engines with a :class:`~hexfolk.core.reasons.ReasonBook` override both methods. This
        default serves the others: the generic reason, or an engine's own sentence (from an
        overridden :meth:`why_illegal`) under the code ``generic_sentence``."""
        if type(self).why_illegal is State.why_illegal:
            return self.generic_reason(seat, action)
        sentence = self.why_illegal(seat, action)
        if sentence is None:
            return None
        generic = self.generic_reason(seat, action)
        if generic is not None and generic.text == sentence:
            return generic
        return GENERIC("generic_sentence", text=sentence)

    def generic_reason(self, seat: int, action: Action) -> Reason | None:
        """The kernel's reason (the pending decision and some legal actions), ``None`` when
        legal: what :meth:`why_illegal_reason` gives for an engine without reasons of its own."""
        player = self.current_player()
        if player == CHANCE and seat == CHANCE:
            return None if self.is_possible_chance(action) else self._illegal_reason(str(action))
        acting = player >= 0 and seat in self.acting_seats()
        if acting and (
            self.is_legal(action) if seat == player else action in self.legal_actions_for(seat)
        ):
            return None
        return self._illegal_reason(str(action), seat)

    def standing_actions(self, seat: int) -> list[Action]:
        """The well-formed actions a client shows ``seat`` permanently as buttons (the island's
        Roll, Buy a card, End the turn, …), whether legal now or not, so that a table server
        can send the :meth:`why_illegal` reason of each one that is not (the tooltip of a
        disabled button). Only actions whose reason speaks of what ``seat`` may see. Empty by
        default (a game without standing buttons)."""
        return []

    def board_geometry(self) -> JSON | None:
        """Where this state's board places are drawn: :meth:`Game.board_geometry` unless the
        board itself comes with the game's chance (a coastline drawn from the seed), then the
        board as laid out — public once laid out, ``None`` before."""
        return self.game.board_geometry()

    def refusal(self, seat: int, text: str, action: Action | None = None) -> IllegalActionError:
        """The :class:`IllegalActionError` refusing ``text`` (the action ``action``, when it
        names one) for ``seat``: the reason of :meth:`why_illegal` first, then the text; the
        reason as data (:meth:`why_illegal_reason`) in its ``data``."""
        generic = self._illegal_reason(text, seat)
        reason = self.why_illegal_reason(seat, action) if action is not None else None
        if reason is None or reason.text in (
            generic.text,
            self._illegal_message(str(action), seat),
        ):
            return IllegalActionError(generic.text, reason=generic.text, data=generic.to_json())
        return IllegalActionError(
            f"{reason.text} \u2014 {text!r} is not legal now",
            reason=reason.text,
            data=reason.to_json(),
        )

    def _named_action(self, text: str) -> Action | None:
        """The action ``text`` names in this game's notation (None if malformed or a pattern)."""
        try:
            named = self.game.parse_action_syntax(text.strip()) if text.strip() else None
        except MalformedActionError:
            return None
        return named if isinstance(named, Action) else None

    def _illegal_message(self, text: str, seat: int | None = None) -> str:
        """The generic sentence of a refusal (used when the engine gives no reason)."""
        return self._illegal_reason(text, seat).text

    def _illegal_reason(self, text: str, seat: int | None = None) -> Reason:
        """The generic refusal of ``text`` (the kernel's :data:`~hexfolk.core.reasons.GENERIC`
        codes)."""
        who = self.current_player()
        if who == TERMINAL:
            return GENERIC("generic_game_over", text=text)
        if who == CHANCE:
            return GENERIC("generic_not_chance_outcome", text=text)
        if seat is not None and seat >= 0 and seat != who and seat not in self.acting_seats():
            return GENERIC("generic_no_decision", seat=seat)
        prompt = self.prompt() if seat is None or seat == who else self.prompt_for(seat)
        who = who if seat is None or seat < 0 else seat
        sample = [str(a) for a in self.legal_actions_for(who)[:8]]
        if prompt:
            pending = prompt.text or prompt.kind
            return GENERIC(
                "generic_not_legal_pending",
                text=text,
                seat=who,
                pending=pending,
                prompt=prompt.kind,
                sample=sample,
            )
        return GENERIC("generic_not_legal_now", text=text, seat=who, sample=sample)

    # --- the turn clock ---------------------------------------------------------------------
    def timeout_action(self, seat: int, rng: random.Random) -> Action | None:
        """The default a table applies for ``seat`` when its clock runs out (IR-28 for the
        island game; ``docs/scythe.md`` for Scythe): a legal, harmless action of that seat, or
        ``None`` when the seat owes nothing now.

        The table applies it, then asks again, for as long as the seat still owes a decision of
        the expired turn or step (an expiry before the roll rolls, resolves and ends the turn).
        Random choices (ties, a random discard) come from ``rng``, which the table seeds; the
        applied actions are recorded like any other, so a replay needs no ``rng``. The default
        here: the first legal action of the seat (games override it with their rules).
        """
        legal = self.legal_actions_for(seat)
        return legal[0] if legal else None

    def clock_step(self, seat: int) -> ClockStep:
        """The clock window of ``seat``'s pending decision (``seat`` one of
        :meth:`acting_seats`): see :class:`ClockStep`. The default: the seat to move is on
        the turn's window, any other acting seat on a parallel one (games override it with
        their rules: IR-27 for the island game, ``docs/scythe.md`` for Scythe)."""
        turn = self.turn_count()
        if seat == self.current_player():
            return ClockStep("turn", ("turn", turn))
        return ClockStep("parallel", ("turn", turn))

    # --- undo at a table --------------------------------------------------------------------
    def reveals_to(self, seat: int, action: Action, rng: random.Random, worlds: int = 8) -> bool:
        """Would ``seat`` taking ``action`` here show ``seat`` something hidden it cannot know
        now (the Factory offer looked at, the other side's combat commitment revealed, the
        cards a Monopoly takes)? A table refuses to undo such a step.

        The default decides it in sampled worlds: ``worlds`` states that ``seat`` cannot tell
        apart from this one (:meth:`sample_consistent_state`); if ``seat``'s observation after
        the step differs in any of them from the real one, the step showed ``seat`` something
        it did not know. A step that cannot be applied in a sampled world counts as revealing.
        Chance steps are not asked about (a table never undoes them). Games may override this
        with an exact answer.
        """
        after = self.clone()
        after.apply_for(seat, action)
        seen = after.observation(seat)
        for _ in range(worlds):
            world = self.sample_consistent_state(seat, rng)
            try:
                world.apply_for(seat, action)
            except (IllegalActionError, MalformedActionError, AmbiguousActionError):
                return True
            if world.observation(seat) != seen:
                return True
        return False

    def can_reveal(self, seat: int, action: Action) -> bool:
        """Could ``seat`` taking ``action`` here show ``seat`` anything hidden at all? A cheap
        first question, asked before the step for every person step a table may undo:
        ``False`` spares the sampled worlds of :meth:`reveals_to` (a setup placement, a road
        built), and the table never checks the step. The default, ``True``, always asks
        :meth:`reveals_to`; a game overrides it with what its rules know (docs/adding-a-game.md)."""
        return True

    def why_final(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` taking ``action`` here is final by the game's rules, so that a table
        never takes it back (undo), or ``None`` when it may be taken back within the seat's own
        turn: a step that changes another seat's holdings (a trade completed, a Monopoly), a
        step the rules make public and final (a development card played, the robber moved, a
        combat begun or fought), or a decision outside the seat's own turn (a discard, an
        answer). The answer is one sentence in the game's words with the rule's number; the
        table shows it when it refuses an undo.

        Asked on the state *before* the step, for every person's step, on the table's event
        loop: it must be cheap (well under a millisecond). Chance steps, hidden information
        (:meth:`reveals_to`), other seats' later steps and a new turn are the table's own
        barriers and need no answer here. The default: nothing is final by the rules.
        """
        return None

    # --- copies and views -------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An independent copy (applying to one never changes the other)."""

    @abstractmethod
    def observation(self, seat: int | None, *, log: bool = True) -> JSON:
        """What ``seat`` may know, as plain JSON; ``None`` is a spectator.

        ``log=False``: the same view with an empty ``log`` list (if it has one), for readers of
        the position only (the RL encoders, every step): the seat's log lines are neither
        copied nor rendered. It never shows more than ``log=True`` (the conformance kit checks
        both)."""

    @abstractmethod
    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> State:
        """A full state indistinguishable from this one for ``seat``; hidden parts from rng."""

    @abstractmethod
    def full_state(self) -> JSON:
        """Every field, hidden ones included (for hashes and debugging; never sent to seats)."""

    def position(self) -> JSON:
        """This state as a position document: plain JSON, the input of :meth:`Game.load_position`.

        A position is a public format, as FEN is for chess: every field of the state named in
        the game's words (units, resources, tracks, cards, the seat to move and the pending
        prompt), hidden parts included (it is a full state, never sent to a seat: use
        :meth:`observation` for that). Unlike :meth:`full_state` it is meant to be read and
        written by people and tests, and its field names are documented in the game's docs.
        Round trip: ``game.load_position(state.position()).fingerprint() ==
        state.fingerprint()``. Games override this; the default raises NotImplementedError.
        """
        raise NotImplementedError(
            f"{self.game.id} does not write positions yet: its State has no position()"
        )

    def fingerprint(self) -> str:
        """A short hash of :meth:`full_state` (same state -> same fingerprint, everywhere)."""
        blob = json.dumps(self.full_state(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    # --- results ----------------------------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1 for a (sole) win, shared wins split, 0 otherwise; zeros before the end."""

    def winners(self) -> list[int]:
        """Seats that won (several on a shared win); empty if not terminal."""
        if not self.is_terminal():
            return []
        r = self.returns()
        best = max(r) if r else 0.0
        return [s for s, v in enumerate(r) if v == best and v > 0]

    def scores(self) -> list[float]:
        """The game's own score per seat (VP, coins); defaults to :meth:`returns`."""
        return self.returns()

    @abstractmethod
    def turn_count(self) -> int:
        """Player-turns taken so far, in the game's own sense of a turn (a Scythe turn, an
        island turn; a round of bids): the turn cap of :class:`~hexfolk.core.Match`, records'
        ``result.turns`` and statistics count it. No default: a game that did not say what a
        turn is would silently never reach its cap."""

    def summary(self) -> JSON:
        """End-of-game statistics, public (revealed at the end). Games override."""
        return {"scores": self.scores(), "winners": self.winners(), "turns": self.turn_count()}


def check_seat(state: State, seat: int | None) -> None:
    """Raise ValueError for a seat that is not at this table (``None`` is the spectator)."""
    if seat is not None and not 0 <= seat < state.game.num_players:
        raise ValueError(f"seat {seat} is not at this table (0..{state.game.num_players - 1})")


def visible_log(entries: Sequence[tuple[Any, str]], seat: int | None) -> list[str]:
    """Filter log entries ``(visibility, text)``: visibility ``None`` means everyone, otherwise
    a frozenset of seats that see the entry."""
    return [text for vis, text in entries if vis is None or (seat is not None and seat in vis)]


def outline(value: Any, indent: str = "") -> list[str]:
    """JSON as an indented outline: small flat mappings on one line, nested ones indented."""
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if _flat(item):
                lines.append(f"{indent}{key}: {_inline(item)}")
            else:
                lines.append(f"{indent}{key}:")
                lines.extend(outline(item, indent + "  "))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if _flat(item):
                lines.append(f"{indent}- {_inline(item)}")
            else:
                lines.append(f"{indent}[{i}]")
                lines.extend(outline(item, indent + "  "))
    else:
        lines.append(f"{indent}{value}")
    return lines


def _flat(value: Any) -> bool:
    if isinstance(value, dict):
        return len(value) <= 12 and not any(isinstance(v, dict | list) for v in value.values())
    if isinstance(value, list):
        return len(value) <= 12 and not any(isinstance(v, dict | list) for v in value)
    return True


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_num(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return " ".join(_num(v) for v in value) or "-"
    return _num(value)


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
