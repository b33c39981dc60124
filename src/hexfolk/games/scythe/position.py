"""Where every piece stands and what the turn has done so far: the plain Scythe position.

:class:`Position` holds the board, the players' mats and tracks, the decks and the turn's
scratch as flat lists of ints (indexed ``loc * players + seat``, ``seat * values + value``), so
that a copy is a handful of list copies. Its methods are the bookkeeping every rule module
shares: placing units (keeping the per-territory counts), control (SR-13), the tracks' limits
(SR-15), paying costs, the log. The rules themselves are functions over a position in the
rule modules (``mat``, ``movement``, ``combat``, ...); :class:`~.state.ScytheState` adds the
kernel contract. Field names are in the game's words and documented in ``docs/scythe.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hexfolk.core import Action, Commitments, Game, State
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.log_forms import LOG
from hexfolk.games.scythe.phases import (
    ARTILLERY,
    COMMIT,
    RETREAT,
    SECTION,
    SETUP,
    Continuation,
    Phase,
)

CHARACTER, MECH, WORKER = 0, 1, 2
"""Unit kinds (``SelectUnit.kind``, ``UnitMove.kind``)."""
UNIT_NAMES = ("character", "mech", "worker")
NV = len(D.CARD_VALUES)
"""Combat card values (2..5): the width of a hand row."""
NB = len(D.BOTTOM_ACTIONS)
"""Bottom-row actions (upgrade, deploy, build, enlist)."""
NS = len(D.STRUCTURES)
"""Structures per player."""
NSTAR = len(D.STAR_SOURCES)
"""Star sources (SR-10)."""
ALL_TOP = (1 << len(D.TOP_BOXES)) - 1
"""Every top box upgraded (the upgrades star)."""
ZERO4 = (0, 0, 0, 0)


@dataclass(slots=True)
class Combat:
    """The combat being fought (SR-43): where, who attacks, who defends, how far it got.

    ``stage`` counts the steps of C1 done (0-6: the attacker's then the defender's Artillery,
    Scout and Disarm), 7 once the commitments are revealed; ``artillery_seat`` is the seat
    deciding whether to fire Artillery (-1: none).
    """

    territory: int
    attacker: int
    defender: int
    stage: int = 0
    artillery_seat: int = -1

    def as_list(self) -> list[int]:
        """The fingerprint form (``cb`` in 0.1): ``[territory, attacker, defender, stage,
        artillery_seat]``."""
        return [self.territory, self.attacker, self.defender, self.stage, self.artillery_seat]

    def copy(self) -> Combat:
        return Combat(self.territory, self.attacker, self.defender, self.stage, self.artillery_seat)


@dataclass(slots=True)
class UnitMove:
    """The unit moving now (SR-25..SR-39) and what it carries.

    ``kind``/``index``: the unit (-1 when none is selected); ``start``: where its move began;
    ``steps_left``/``steps_taken``: of this unit's move; ``workers``: the worker indices it
    carries (mechs only, SR-30); ``resources``: tokens carried, by resource.
    """

    kind: int = -1
    index: int = -1
    start: int = -1
    steps_left: int = 0
    steps_taken: int = 0
    workers: list[int] = field(default_factory=list)
    resources: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def copy(self) -> UnitMove:
        return UnitMove(
            self.kind,
            self.index,
            self.start,
            self.steps_left,
            self.steps_taken,
            self.workers[:],
            self.resources[:],
        )


class Position(State):
    """A Scythe position: every field of the game, in the game's words.

    Per player (index = seat): ``faction``, ``mat`` (data indices), ``power``, ``popularity``,
    ``coins``, ``star_total``, ``upgrades`` (bits of upgraded top boxes), ``recruits`` (bits of
    bottom actions), ``enlist_spaces`` (bits of used enlist spaces), ``abilities`` (``D.A_*``
    bits), ``character_loc``, ``factory_card`` (-1 none), ``last_section``.
    Flat tables: ``hand[seat * NV + v]``, ``known_cards[(viewer * n + holder) * NV + v]``,
    ``stars[seat * NSTAR + source]``, ``cubes[seat * NB + bottom]``,
    ``mech_loc[seat * MECHS + i]``, ``worker_loc[seat * WORKERS_TOTAL + i]``,
    ``structure_loc[seat * NS + s]`` (-1 off the board), ``structure_at[loc]`` (``seat * NS +
    s`` or -1), ``workers_on[loc * n + seat]`` and ``combat_units_on[loc * n + seat]``
    (counts), ``resources[loc * NRES + r]``, ``encounter_tokens[loc]``.
    Decks: ``combat_deck``/``combat_discard`` (counts by value), ``factory_offer``,
    ``encounter_bottom`` (cards put back, top first), ``encounter_card`` (drawn, -1 none),
    ``objectives``/``objectives_discarded`` (per seat), ``objectives_revealed``,
    ``structure_tile``. The turn: ``order`` (seats clockwise), ``active``, ``turns``,
    ``phase``, ``chance`` (pending chance events), ``continuation``, and the scratch of
    :meth:`reset_turn`.
    """

    game: Game

    def __init__(self, game: Game):
        self.game = game
        n = self.n = game.num_players
        self.faction = [-1] * n
        self.mat = [-1] * n
        self.power = [0] * n
        self.popularity = [0] * n
        self.coins = [0] * n
        self.hand = [0] * (NV * n)
        self.known_cards = [0] * (n * n * NV)
        self.objectives: list[list[int]] = [[] for _ in range(n)]
        self.objectives_discarded: list[list[int]] = [[] for _ in range(n)]
        self.objectives_revealed: list[int] = []
        self.stars = [0] * (NSTAR * n)
        self.star_total = [0] * n
        self.upgrades = [0] * n
        self.cubes = [0] * (NB * n)
        self.recruits = [0] * n
        self.enlist_spaces = [0] * n
        self.character_loc = [-1] * n
        self.mech_loc = [-1] * (D.MECHS * n)
        self.worker_loc = [-1] * (D.WORKERS_TOTAL * n)
        self.abilities = [0] * n
        self.structure_loc = [-1] * (NS * n)
        self.structure_at = [-1] * D.NLOC
        self.workers_on = [0] * (D.NLOC * n)
        self.combat_units_on = [0] * (D.NLOC * n)
        self.resources = [0] * (D.NLOC * D.NRES)
        self.encounter_tokens = [bool(x) for x in D.HAS_ENCOUNTER]
        self.combat_deck = list(D.DECK_COUNTS)
        self.combat_discard = [0] * NV
        self.structure_tile = -1
        self.factory_offer: list[int] = []
        self.factory_offer_seen = [False] * n
        # encounter deck (SR-47): cards never drawn are in an unknown order above the cards
        # put back at the bottom, whose order everybody saw (``encounter_bottom``, top first)
        self.encounter_bottom: list[int] = []
        self.encounter_card = -1
        self.factory_card = [-1] * n
        self.last_section = [-1] * n
        self.order: list[int] = []
        self.active = -1
        self.turns = 0
        self.phase: Phase = SETUP
        self.chance: list[tuple[Any, ...]] = []
        self.continuation: Continuation | None = None
        self.log: list[tuple[frozenset[int] | None, str]] = []
        self.result: list[float] = []
        self.final: list[dict[str, Any]] = []
        self.end_reason = ""
        self.allow_banned_pairs = bool(game.options["allow_banned_pairs"])
        self.legal_cache: list[Action] | None = None
        self.control_cache: list[int] | None = None
        self.reset_turn()

    # ------------------------------------------------------------------------------------------
    # the turn's scratch
    def reset_turn(self) -> None:
        """Clear what a turn remembers while it runs (called at the start of each turn)."""
        self.section = -1
        self.moved_units = 0  # bits: character 1, mech i 1 << (1 + i), worker j after
        self.units_moved = 0
        self.max_units = 0
        self.move = UnitMove()
        # (kind, index, start, end, resources carried, workers carried) per unit moved
        self.moves_made: list[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]] = []
        self.combats: list[int] = []  # territories with a combat still to fight
        self.combat: Combat | None = None
        self.commitments: Commitments | None = None
        self.retreat_seat = -1
        self.coercion_used = False
        self.reveal_windows_used = 0  # WINDOW_OF_PHASE bits used this turn
        self.encounter_loc = -1
        self.encounter_chosen: list[int] = []
        self.pending_gains: list[tuple[Any, ...]] = []
        self.gains_then: Continuation | None = None
        self.gains_loc = -1  # encounter territory (gains go there), -1 for a Factory card
        self.factory_move = False  # the Move of a Factory card's bottom row is under way
        self.produce_limit = 0  # Factory card Produce: territories (0: the mat's Produce)
        self.factory_cards_owed = 0
        self.forced_retreat = False
        self.character_token = -1  # the encounter territory the character stopped on
        # SR-49: the parts of the Factory card's fixed gains declined (``top decline ..``),
        # kept while its combat-card cost is paid
        self.factory_declined: tuple[tuple[str, int], ...] = ()
        self.produced: list[int] = []
        self.pay_resource = -1
        self.pay_left = 0
        self.bottom_taken = False
        self.bottom_coins = True
        self.recruits_before = 0
        self.combat_ends_game = False

    def refresh(self) -> None:
        """Drop cached tables after fields were edited directly (tests, position editors)."""
        self.legal_cache = None
        self.control_cache = None

    def proceed(self, continuation: Continuation) -> None:
        """Run ``continuation`` now (the table of ``state.py``)."""
        raise NotImplementedError  # pragma: no cover - ScytheState fills it

    # ------------------------------------------------------------------------------------------
    # bookkeeping shared by the rule modules
    def deciding_seat(self) -> int:
        """The seat owing the pending decision (a combatant committing, the artillery user, the
        retreating loser, else the active player)."""
        ph = self.phase
        if ph == COMMIT:
            assert self.commitments is not None
            nxt = self.commitments.next_seat()
            return self.active if nxt is None else nxt
        if ph == ARTILLERY:
            assert self.combat is not None
            return self.combat.artillery_seat
        if ph == RETREAT:
            return self.retreat_seat
        return self.active

    def place_character(self, p: int, loc: int) -> None:
        """Put ``p``'s character on ``loc`` (-1: off the board), keeping the counts."""
        self.control_cache = None
        old = self.character_loc[p]
        n = self.n
        if old >= 0:
            self.combat_units_on[old * n + p] -= 1
        self.character_loc[p] = loc
        if loc >= 0:
            self.combat_units_on[loc * n + p] += 1

    def place_mech(self, p: int, i: int, loc: int) -> None:
        """Put ``p``'s mech ``i`` on ``loc`` (-1: on the mat)."""
        self.control_cache = None
        k = p * D.MECHS + i
        old = self.mech_loc[k]
        n = self.n
        if old >= 0:
            self.combat_units_on[old * n + p] -= 1
        self.mech_loc[k] = loc
        if loc >= 0:
            self.combat_units_on[loc * n + p] += 1

    def place_worker(self, p: int, i: int, loc: int) -> None:
        """Put ``p``'s worker ``i`` on ``loc`` (-1: on the mat)."""
        self.control_cache = None
        k = p * D.WORKERS_TOTAL + i
        old = self.worker_loc[k]
        n = self.n
        if old >= 0:
            self.workers_on[old * n + p] -= 1
        self.worker_loc[k] = loc
        if loc >= 0:
            self.workers_on[loc * n + p] += 1

    def place_unit(self, p: int, kind: int, i: int, loc: int) -> None:
        """Put a unit of ``kind`` on ``loc``."""
        if kind == CHARACTER:
            self.place_character(p, loc)
        elif kind == MECH:
            self.place_mech(p, i, loc)
        else:
            self.place_worker(p, i, loc)

    def unit_location(self, p: int, kind: int, i: int) -> int:
        """Where ``p``'s unit of ``kind`` and index ``i`` stands."""
        if kind == CHARACTER:
            return self.character_loc[p]
        if kind == MECH:
            return self.mech_loc[p * D.MECHS + i]
        return self.worker_loc[p * D.WORKERS_TOTAL + i]

    def workers_out(self, p: int) -> int:
        """Workers off the mat (on territories or the home base)."""
        base = p * D.WORKERS_TOTAL
        return sum(1 for x in self.worker_loc[base : base + D.WORKERS_TOTAL] if x >= 0)

    def mechs_out(self, p: int) -> int:
        """Mechs deployed."""
        base = p * D.MECHS
        return sum(1 for x in self.mech_loc[base : base + D.MECHS] if x >= 0)

    def structures_built(self, p: int) -> int:
        """Structures built."""
        base = p * NS
        return sum(1 for x in self.structure_loc[base : base + NS] if x >= 0)

    def has_structure(self, p: int, s: int) -> bool:
        """Whether ``p`` has built structure ``s``."""
        return self.structure_loc[p * NS + s] >= 0

    def has_enemy_units(self, p: int, loc: int) -> bool:
        """Whether an opponent of ``p`` has any unit on ``loc``."""
        n = self.n
        b = loc * n
        return any(
            q != p and (self.workers_on[b + q] or self.combat_units_on[b + q]) for q in range(n)
        )

    def enemy_with_combat_units(self, p: int, loc: int) -> int:
        """The opponent with a character/mech on ``loc``, or -1."""
        n = self.n
        b = loc * n
        for q in range(n):
            if q != p and self.combat_units_on[b + q]:
                return q
        return -1

    def control(self) -> list[int]:
        """SR-13: the controller of every location (-1 nobody), by location id. The list is
        the position's own table: read it, never change it."""
        c = self.control_cache
        if c is None:
            c = self.control_cache = self.compute_control()
        return c

    def controller(self, loc: int) -> int:
        """SR-13: who controls ``loc`` (-1 nobody). Mid-Move the defender keeps control."""
        c = self.control_cache
        if c is None:
            c = self.control_cache = self.compute_control()
        return c[loc]

    def compute_control(self) -> list[int]:
        """SR-13: the controller of every location: a unit there, else a structure; the defender
        keeps control mid-Move until combat; home bases are never controlled."""
        owner = [-1] * D.NLOC
        active = self.active
        for q in range(self.n):
            for locs in (
                self.worker_loc[q * D.WORKERS_TOTAL : (q + 1) * D.WORKERS_TOTAL],
                self.mech_loc[q * D.MECHS : (q + 1) * D.MECHS],
                (self.character_loc[q],),
            ):
                for loc in locs:
                    if loc < 0:
                        continue
                    o = owner[loc]
                    if o < 0:
                        owner[loc] = q
                    elif o != q and o == active:
                        owner[loc] = q  # the defender keeps control until combat
        for loc in range(D.NTERR, D.NLOC):
            owner[loc] = -1  # home bases are never controlled
        for k, loc in enumerate(self.structure_loc):
            if loc >= 0 and owner[loc] < 0:
                owner[loc] = k // NS
        return owner

    def controlled(self, p: int) -> list[int]:
        """SR-13: the territories ``p`` controls."""
        return [t for t in range(D.NTERR) if self.controller(t) == p]

    def available(self, p: int, r: int) -> int:
        """Resource tokens of type ``r`` on territories ``p`` controls (SR-14)."""
        res = self.resources
        return sum(
            res[t * D.NRES + r]
            for t in range(D.NTERR)
            if res[t * D.NRES + r] and self.controller(t) == p
        )

    def worker_territories(self, p: int) -> list[int]:
        """Territories ``p`` controls holding one of ``p``'s workers."""
        n = self.n
        return [t for t in range(D.NTERR) if self.workers_on[t * n + p] and self.controller(t) == p]

    def send_workers_home(self, q: int, loc: int) -> int:
        """SR-31, SR-43 C7: ``q``'s workers on ``loc`` retreat to its home base; how many."""
        home = D.HOME_OF[self.faction[q]]
        count = 0
        base = q * D.WORKERS_TOTAL
        for j in range(D.WORKERS_TOTAL):
            if self.worker_loc[base + j] == loc:
                self.place_worker(q, j, home)
                count += 1
        if count:
            self.write_log(None, "workers_home", q, count, D.LOC_NAMES[loc])
        return count

    def gain(self, p: int, what: str, amount: int) -> None:
        """SR-15: gain on a track (capped) or draw combat cards."""
        if what == "power":
            self.power[p] = min(D.POWER_MAX, self.power[p] + amount)
        elif what == "popularity":
            self.popularity[p] = min(D.POP_MAX, self.popularity[p] + amount)
        elif what == "coins":
            self.coins[p] += amount
        elif what == "combat_cards":
            for _ in range(amount):
                self.chance.append(("draw", p))
        else:  # pragma: no cover - data error
            raise ValueError(f"unknown gain {what!r}")
        if what != "combat_cards":
            self.write_log(None, "gains", p, amount, what)

    def lose(self, p: int, what: str, amount: int) -> None:
        """SR-15: lose on a track (never below 0)."""
        if what == "power":
            self.power[p] = max(0, self.power[p] - amount)
        elif what == "popularity":
            self.popularity[p] = max(0, self.popularity[p] - amount)
        elif what == "coins":
            self.coins[p] = max(0, self.coins[p] - amount)
        self.write_log(None, "loses", p, amount, what)

    def can_pay_track(self, p: int, cost: dict[str, int]) -> bool:
        """Whether ``p`` has the power, popularity and coins of ``cost``."""
        have = {"power": self.power[p], "popularity": self.popularity[p], "coins": self.coins[p]}
        return all(have[k] >= v for k, v in cost.items())

    def can_pay_card_cost(self, p: int, cost: dict[str, int]) -> bool:
        """Whether ``p`` can pay a card's cost, combat cards included."""
        have = {
            "power": self.power[p],
            "popularity": self.popularity[p],
            "coins": self.coins[p],
            "combat_cards": sum(self.hand[p * NV : p * NV + NV]),
        }
        return all(have[k] >= v for k, v in cost.items())

    def pay_track_cost(self, p: int, cost: dict[str, int]) -> None:
        """Pay a card's power, popularity and coins (combat cards are paid one by one)."""
        for k, v in cost.items():
            if k != "combat_cards" and v:
                self.lose(p, k, v)

    def forget_card(self, holder: int, i: int) -> None:
        """A card of ``holder`` became public (played/discarded): drop it from knowledge."""
        n = self.n
        for v in range(n):
            k = (v * n + holder) * NV + i
            if self.known_cards[k] > 0:
                self.known_cards[k] -= 1

    def write_log(self, vis: frozenset[int] | None, form: str, /, *values: Any) -> None:
        """Append a log line of ``form`` (:mod:`.log_forms`) seen by ``vis`` (``None``:
        everybody); ``values`` are its params in the order the form's template first names
        them (``LOG.names[form]``: ``write_log(None, "gains", 1, 2, "coins")`` is seat 1,
        amount 2, what ``coins``); the book shares the line of the same form and values
        (:meth:`~.log_forms.ScytheLogBook.write`)."""
        self.log.append((vis, LOG.write(form, values)))

    def write_log_for_others(self, seats: tuple[int, ...], form: str, /, *values: Any) -> None:
        """Log a line of ``form`` for everyone except ``seats`` (who got a detailed entry);
        the spectator is seat -1 in visibility sets."""
        self.write_log(frozenset(s for s in range(-1, self.n) if s not in seats), form, *values)

    def end_turn(self) -> None:
        """SR-5: the turn ends: the section is remembered (SR-6), the next seat clockwise plays."""
        p = self.active
        self.last_section[p] = self.section
        self.turns += 1
        pos = self.order.index(p)
        self.active = self.order[(pos + 1) % self.n]
        self.reset_turn()
        self.phase = SECTION
