"""The Scythe state: board, players, and the prompt chain of a turn (SR-5..SR-59).

A turn is a chain of small decisions held in ``phase`` (see ``docs/scythe.md``). Chance
outcomes (setup deals, combat card draws, Scout) wait in ``chance``; continuations that must
run after a chance outcome are named in ``cont``. All tables are flat lists of ints so that
:meth:`ScytheState.clone` is a handful of list copies.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING, Any

from hexfolk.core import (
    CHANCE,
    TERMINAL,
    Action,
    Commitments,
    IllegalActionError,
    Prompt,
    State,
    check_seat,
    visible_log,
)
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    DECLINE_KEY,
    Bolster,
    Build,
    Carry,
    CarryPattern,
    ChooseSection,
    Commit,
    DealFaction,
    DealFactory,
    DealMat,
    DealObjective,
    DealTile,
    Deploy,
    Done,
    DrawCard,
    DrawEncounter,
    EncounterOption,
    EndTurn,
    Enlist,
    FactoryTop,
    Fight,
    GainResource,
    MoveCoins,
    Pay,
    PayCard,
    Produce,
    Retreat,
    Reveal,
    ScoutCard,
    SelectUnit,
    Skip,
    Step,
    Stop,
    TakeBottom,
    TakeFactory,
    TradePopularity,
    TradeResource,
    Upgrade,
    UseArtillery,
)

if TYPE_CHECKING:
    from hexfolk.games.scythe.game import ScytheGame

# phases ---------------------------------------------------------------------------------------
SETUP, SECTION, TOP, MOVE_UNIT, CARRY, STEP, TRADE2, PRODUCE = range(8)
COMBAT_CHOOSE, ARTILLERY, COMMIT, RETREAT, BOTTOM, PAY, BENEFIT, END, OVER = range(8, 17)
ENC_OPTION, GRANT, FACTORY_PICK, FPAY = range(17, 21)
PHASE_NAMES = (
    "setup",
    "choose-section",
    "top-action",
    "choose-unit",
    "carry",
    "step",
    "trade-second-token",
    "produce",
    "choose-combat",
    "artillery",
    "commit",
    "retreat",
    "bottom-action",
    "pay",
    "benefit",
    "end-turn",
    "over",
    "encounter",
    "gain",
    "factory-offer",
    "pay-card",
)
CHARACTER, MECH, WORKER = 0, 1, 2
NV = len(D.CARD_VALUES)
NB = len(D.BOTTOM_ACTIONS)
NS = len(D.STRUCTURES)
NSTAR = len(D.STAR_SOURCES)
ALL_TOP = (1 << len(D.TOP_BOXES)) - 1
SKIP, DONE, END_TURN, TAKE_BOTTOM, STOP = Skip(), Done(), EndTurn(), TakeBottom(), Stop()
FACTORY_TOP = FactoryTop()
# reveal windows of a turn (SR-7): before the top action, between the rows, after the bottom
WINDOW_OF_PHASE = {TOP: 1, BOTTOM: 2, END: 4}
ZERO4 = (0, 0, 0, 0)


def _sub_multisets(counts: list[int], k: int) -> list[tuple[int, ...]]:
    """All multisets of card values of size <= k drawn from ``counts`` (sorted tuples)."""
    out: list[tuple[int, ...]] = [()]

    def rec(i: int, cur: list[int], left: int) -> None:
        if i == NV:
            return
        for take in range(1, min(counts[i], left) + 1):
            nxt = cur + [D.CARD_VALUES[i]] * take
            out.append(tuple(nxt))
            rec(i + 1, nxt, left - take)
        rec(i + 1, cur, left)

    rec(0, [], k)
    out.sort(key=lambda t: (len(t), t))
    return out


@lru_cache(maxsize=4096)
def count_deals(factions: tuple[int, ...], mats: tuple[int, ...], allow_banned: bool) -> int:
    """Complete faction/mat deals extending the partial one (-1 = undealt) with no banned pair
    (SR-58) unless allowed."""
    n = len(factions)
    free_f = [f for f in range(len(D.FACTIONS)) if f not in factions]
    free_m = [m for m in range(len(D.MATS)) if m not in mats]
    empty_f = [s for s in range(n) if factions[s] < 0]
    empty_m = [s for s in range(n) if mats[s] < 0]
    count = 0
    for pf in permutations(free_f, len(empty_f)):
        fs = list(factions)
        for s, f in zip(empty_f, pf):
            fs[s] = f
        for pm in permutations(free_m, len(empty_m)):
            ms = list(mats)
            for s, m in zip(empty_m, pm):
                ms[s] = m
            if allow_banned or all((fs[s], ms[s]) not in D.BANNED_PAIRS for s in range(n)):
                count += 1
    return count


class ScytheState(State):
    """A Scythe position. See the module docstring and ``docs/scythe.md``."""

    game: ScytheGame

    def __init__(self, game: ScytheGame):
        self.game = game
        n = self.n = game.num_players
        self.faction = [-1] * n
        self.mat = [-1] * n
        self.power = [0] * n
        self.pop = [0] * n
        self.coins = [0] * n
        self.hand = [0] * (NV * n)
        self.known = [0] * (n * n * NV)  # known[viewer][holder][value]
        self.objectives: list[list[int]] = [[] for _ in range(n)]
        self.obj_discarded: list[list[int]] = [[] for _ in range(n)]
        self.obj_revealed: list[int] = []
        self.stars = [0] * (NSTAR * n)
        self.star_total = [0] * n
        self.top_up = [0] * n
        self.cubes = [0] * (NB * n)
        self.recruits = [0] * n
        self.spaces = [0] * n
        self.char_loc = [-1] * n
        self.mech_loc = [-1] * (D.MECHS * n)
        self.worker_loc = [-1] * (D.WORKERS_TOTAL * n)
        self.abil = [0] * n
        self.struct_loc = [-1] * (NS * n)
        self.struct_at = [-1] * D.NLOC
        self.wk = [0] * (D.NLOC * n)
        self.cm = [0] * (D.NLOC * n)
        self.res = [0] * (D.NLOC * D.NRES)
        self.token = [bool(x) for x in D.HAS_ENCOUNTER]
        self.deck = list(D.DECK_COUNTS)
        self.discard = [0] * NV
        self.tile = -1
        self.offer: list[int] = []
        self.offer_seen = [False] * n
        # encounter deck (SR-47): cards never drawn are in an unknown order above the cards
        # put back at the bottom, whose order everybody saw (``enc_bottom``, top first)
        self.enc_bottom: list[int] = []
        self.enc_card = -1
        self.factory_card = [-1] * n
        self.last_section = [-1] * n
        self.order: list[int] = []
        self.active = -1
        self.turns = 0
        self.phase = SETUP
        self.chance: list[tuple[Any, ...]] = []
        self.cont: str | None = None
        self.log: list[tuple[frozenset[int] | None, str]] = []
        self.result: list[float] = []
        self.final: list[dict[str, Any]] = []
        self.end_reason = ""
        self._reset_turn()
        self._legal: list[Action] | None = None
        self._ctrl: list[int] | None = None
        opts = game.options
        fixed_f = game.fixed_factions
        fixed_m = game.fixed_mats
        for seat in range(n):
            if fixed_f is not None:
                self.faction[seat] = fixed_f[seat]
            else:
                self.chance.append(("faction", seat))
        for seat in range(n):
            if fixed_m is not None:
                self.mat[seat] = fixed_m[seat]
            else:
                self.chance.append(("mat", seat))
        self.chance.append(("init",))
        self.allow_banned = bool(opts["allow_banned_pairs"])
        self._run()

    # ------------------------------------------------------------------------------------------
    # turn scratch
    def _reset_turn(self) -> None:
        self.section = -1
        self.moved = 0
        self.units_moved = 0
        self.max_units = 0
        self.sel: tuple[int, int] = (-1, -1)  # (kind, index)
        self.steps_left = 0
        self.steps_taken = 0
        self.cargo_w: list[int] = []
        self.cargo_r = [0, 0, 0, 0]
        self.move_start = -1
        self.move_log: list[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]] = []
        self.combats: list[int] = []
        self.cb: list[int] = []  # [loc, attacker, defender, stage]
        self.commits: Commitments | None = None
        self.retreat_seat = -1
        self.coercion_used = False
        self.windows_used = 0  # reveal windows (WINDOW_OF_PHASE bits) used this turn
        self.enc_loc = -1
        self.enc_chosen: list[int] = []
        self.grants: list[tuple[Any, ...]] = []
        self.grant_then = ""
        self.grant_loc = -1  # encounter territory (gains go there), -1 for a Factory card
        self.fmove = False  # the Move of a Factory card's bottom row is under way
        self.prod_limit = 0  # Factory card Produce: territories (0: the mat's Produce)
        self.fpay_left = 0
        self.forced_retreat = False
        self.char_token = -1
        self.trade_left = 0
        # SR-49: the parts of the Factory card's fixed gains declined (``top decline ..``),
        # kept while its combat-card cost is paid
        self.fdecline: tuple[tuple[str, int], ...] = ()
        self.produced: list[int] = []
        self.pay_res = -1
        self.pay_left = 0
        self.bottom_taken = False
        self.bottom_coins = True
        self.recruits_before = 0
        self._combat_ended = False

    def refresh(self) -> None:
        """Drop cached tables after fields were edited directly (tests, position editors)."""
        self._legal = None
        self._ctrl = None

    # ------------------------------------------------------------------------------------------
    # kernel contract
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.chance:
            return CHANCE
        return self._seat()

    def _seat(self) -> int:
        ph = self.phase
        if ph == COMMIT:
            assert self.commits is not None
            nxt = self.commits.next_seat()
            return self.active if nxt is None else nxt
        if ph == ARTILLERY:
            return self.cb[4]
        if ph == RETREAT:
            return self.retreat_seat
        return self.active

    def turn_count(self) -> int:
        return self.turns

    def timeout_action(self, seat: int, rng: random.Random) -> Action | None:
        """The turn clock's default for ``seat`` (see :mod:`.timeouts`, ``docs/scythe.md``)."""
        from hexfolk.games.scythe.timeouts import timeout_action

        return timeout_action(self, seat, rng)

    def prompt(self) -> Prompt | None:
        if self.phase == OVER or self.chance:
            return None
        seat = self._seat()
        ph = self.phase
        data: dict[str, Any] = {}
        text = PHASE_NAMES[ph]
        if ph == SECTION:
            text = "choose a section for the action token"
        elif ph == TOP:
            top = self._top_name()
            data["action"] = top
            text = f"take the top action ({top}) or skip it"
        elif ph in (MOVE_UNIT, CARRY, STEP):
            data["units_moved"] = self.units_moved
            data["max_units"] = self.max_units
            text = {
                MOVE_UNIT: "choose a unit to move, or done",
                CARRY: "choose what the unit carries",
                STEP: "choose where the unit steps",
            }[ph]
        elif ph == PAY:
            data["resource"] = D.RESOURCES[self.pay_res]
            data["left"] = self.pay_left
            text = f"pay {self.pay_left} {D.RESOURCES[self.pay_res]}: choose a territory"
        elif ph == BOTTOM:
            data["action"] = self._bottom_name()
            text = f"take the bottom action ({self._bottom_name()}) or skip it"
        elif ph == BENEFIT:
            data["action"] = self._bottom_name()
            text = f"choose the {self._bottom_name()} benefit"
        elif ph == COMMIT:
            data["territory"] = D.LOC_NAMES[self.cb[0]]
            text = "commit power and combat cards in secret"
        elif ph in (ARTILLERY, COMBAT_CHOOSE, RETREAT) and self.cb:
            data["territory"] = D.LOC_NAMES[self.cb[0]]
        elif ph == ENC_OPTION:
            data["card"] = self.enc_card
            data["territory"] = D.LOC_NAMES[self.enc_loc]
            data["chosen"] = [k + 1 for k in self.enc_chosen]
            text = f"choose an option of encounter card {self.enc_card}"
        elif ph == GRANT:
            g = self.grants[0]
            if g[0] == "res":
                data["resources"] = g[1]
                text = f"place {g[1]} gained resource token(s), or done"
            else:
                data["actions"] = list(g[1])
                text = f"take the granted {' or '.join(g[1])}, or skip"
        elif ph == FACTORY_PICK:
            data["offer"] = len(self.offer)
            text = "keep one Factory card of the offer"
        elif ph == FPAY:
            data["left"] = self.fpay_left
            text = "discard a combat card to pay the Factory card"
        return Prompt(PHASE_NAMES[ph], seat, text, data)

    # ------------------------------------------------------------------------------------------
    # chance
    def _chance_ok(self, item: tuple[Any, ...]) -> bool:
        kind = item[0]
        if kind == "draw":
            if sum(self.deck) == 0:
                if sum(self.discard) == 0:
                    return False
                # SR-46: reshuffle the discard into the deck.
                self.deck = self.discard
                self.discard = [0] * NV
                self._log(None, "the combat discard pile is reshuffled into the deck")
            return True
        if kind == "scout":
            v = item[2]
            return sum(self.hand[v * NV : v * NV + NV]) > 0
        return True

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.chance or self.phase == OVER:
            return []
        item = self.chance[0]
        kind = item[0]
        if kind == "faction":
            seat = item[1]
            fw = [
                (f, self._deal_weight(seat, faction=f))
                for f in range(len(D.FACTIONS))
                if f not in self.faction
            ]
            ftot = sum(w for _, w in fw)
            return [(DealFaction(f), w / ftot) for f, w in fw if w]
        if kind == "mat":
            seat = item[1]
            weights = []
            for m in range(len(D.MATS)):
                if m in self.mat:
                    continue
                w = self._deal_weight(seat, mat=m)
                if w:
                    weights.append((m, w))
            tot = sum(w for _, w in weights)
            return [(DealMat(m), w / tot) for m, w in weights]
        if kind == "tile":
            return [(DealTile(t), 1.0 / len(D.TILE_IDS)) for t in range(len(D.TILE_IDS))]
        if kind == "offer":
            free = [c for c in D.FACTORY_NUMBERS if c not in self.offer]
            return [(DealFactory(c), 1.0 / len(free)) for c in free]
        if kind == "objective":
            used = set(self.obj_revealed)
            for hs in self.objectives:
                used.update(hs)
            for hs in self.obj_discarded:
                used.update(hs)
            free = [o["number"] for o in D.OBJECTIVES if o["number"] not in used]
            return [(DealObjective(o), 1.0 / len(free)) for o in free]
        if kind == "draw":
            tot = sum(self.deck)
            return [
                (DrawCard(D.CARD_VALUES[i]), self.deck[i] / tot) for i in range(NV) if self.deck[i]
            ]
        if kind == "encounter":
            free = self._enc_unknown()
            return [(DrawEncounter(c), 1.0 / len(free)) for c in free]
        if kind == "scout":
            v = item[2]
            h = self.hand[v * NV : v * NV + NV]
            tot = sum(h)
            return [(ScoutCard(D.CARD_VALUES[i]), h[i] / tot) for i in range(NV) if h[i]]
        return []

    def _deal_weight(self, seat: int, faction: int = -1, mat: int = -1) -> int:
        """Valid complete deals if ``seat`` gets this faction/mat (OQ-19: uniform)."""
        fs = list(self.faction)
        ms = list(self.mat)
        if faction >= 0:
            fs[seat] = faction
        if mat >= 0:
            ms[seat] = mat
        return count_deals(tuple(fs), tuple(ms), self.allow_banned)

    def _apply_chance(self, action: Action) -> None:
        item = self.chance.pop(0)
        kind = item[0]
        if isinstance(action, DealFaction):
            self.faction[item[1]] = action.faction
        elif isinstance(action, DealMat):
            self.mat[item[1]] = action.mat
        elif isinstance(action, DealTile):
            self.tile = action.tile
            self._log(None, f"structure bonus tile: {D.TILE_IDS[action.tile]}")
        elif isinstance(action, DealFactory):
            self.offer.append(action.number)
        elif isinstance(action, DealObjective):
            self.objectives[item[1]].append(action.number)
            self._log(frozenset((item[1],)), f"P{item[1]} draws objective {action.number}")
        elif isinstance(action, DrawCard):
            p = item[1]
            i = D.CARD_INDEX[action.value]
            self.deck[i] -= 1
            self.hand[p * NV + i] += 1
            self._log(frozenset((p,)), f"P{p} draws a combat card ({action.value})")
            self._log_public_only(f"P{p} draws a combat card", p)
        elif isinstance(action, DrawEncounter):
            self.enc_card = action.number
            self._log(None, f"P{item[1]} draws encounter card {action.number}")
        elif isinstance(action, ScoutCard):
            taker, victim = item[1], item[2]
            i = D.CARD_INDEX[action.value]
            self.hand[victim * NV + i] -= 1
            self.hand[taker * NV + i] += 1
            kv = (victim * self.n + taker) * NV + i
            self.known[kv] += 1
            kt = (taker * self.n + victim) * NV + i
            if self.known[kt] > 0:
                self.known[kt] -= 1
            vis = frozenset((taker, victim))
            self._log(vis, f"P{taker} scouts a {action.value} from P{victim}")
            self._log_public_only(f"P{taker} scouts a combat card from P{victim}", taker, victim)
        else:  # pragma: no cover - guarded by is_possible_chance
            raise IllegalActionError(f"unexpected chance outcome {action} for {kind}")

    def _log_public_only(self, text: str, *seats: int) -> None:
        """Log ``text`` for everyone except ``seats`` (who got a detailed entry); the
        spectator is seat -1 in visibility sets."""
        self._log(frozenset(s for s in range(-1, self.n) if s not in seats), text)

    # ------------------------------------------------------------------------------------------
    # the driver
    def _run(self) -> None:
        """Process automatic steps until a decision or a chance outcome is needed."""
        while self.phase != OVER:
            while self.chance:
                item = self.chance[0]
                if item[0] == "init":
                    self.chance.pop(0)
                    self._init_players()
                    continue
                if not self._chance_ok(item):
                    self.chance.pop(0)
                    continue
                break
            if self.chance:
                return
            if self.cont is None:
                if self.phase == PAY:
                    # a single territory to pay from is paid at once; a Coercion card choice
                    # is always asked (whether it exists depends on the secret hand)
                    opts = self._pay_options()
                    if len(opts) == 1 and isinstance(opts[0], Pay):
                        self._do_pay(opts[0])
                        continue
                return
            name = self.cont
            self.cont = None
            getattr(self, name)()

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            if self.phase == OVER or self.chance:
                self._legal = []
            else:
                self._legal = self._gen_legal()
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        if self.phase == CARRY and not self.chance and isinstance(action, Carry):
            return self._carry_ok(action)
        partial = self._partial_full(action)
        if partial is not None:
            full, limit = partial
            return limit >= 1 and super().is_legal(full)
        return super().is_legal(action)

    def _partial_full(self, action: Action) -> tuple[Action, int] | None:
        """For an exact partial-benefit form (SR-12), the listed full action it shortens and
        whether the amount fits (limit >= 1 when it does); None for other actions."""
        if self.chance or self.phase == OVER:
            return None
        p = self.active
        if isinstance(action, TakeBottom) and not action.coins:
            return TAKE_BOTTOM, 1
        if isinstance(action, MoveCoins) and action.amount:
            full_v = self._top_value(p, "move-coins")
            return MoveCoins(), 1 if action.amount <= full_v else 0
        if isinstance(action, Bolster) and action.amount:
            box = "bolster-power" if action.kind == "power" else "bolster-cards"
            full_v = self._top_value(p, box)
            return Bolster(action.kind), 1 if action.amount <= full_v else 0
        if isinstance(action, Produce) and action.amount:
            full_v = self._produce_count(p, action.loc)
            return Produce(action.loc), 1 if action.amount <= full_v else 0
        if isinstance(action, TradePopularity) and action.amount:
            full_v = self._top_value(p, "trade-popularity")
            return TradePopularity(), 1 if action.amount <= full_v else 0
        if isinstance(action, EncounterOption) and action.decline:
            benefit: list[Any] = []
            if self.phase == ENC_OPTION and self.enc_card >= 0:
                options = D.ENCOUNTER_BY_NUMBER[self.enc_card]["options"]
                if 1 <= action.slot <= len(options):
                    benefit = options[action.slot - 1]["benefit"]
            ok = self._decline_fits(benefit, action.decline)
            return EncounterOption(action.slot), 1 if ok else 0
        if isinstance(action, FactoryTop) and action.decline:
            benefit = []
            if self.factory_card[p] >= 0:
                benefit = D.FACTORY_BY_NUMBER[self.factory_card[p]]["benefit"]
            return FACTORY_TOP, 1 if self._decline_fits(benefit, action.decline) else 0
        return None

    @staticmethod
    def fixed_gains(benefit: list[Any]) -> dict[str, int]:
        """SR-47/SR-49: the fixed gains of a card benefit that may be declined in part, by
        notation name (``cards`` for combat cards), summed over the benefit's items."""
        out: dict[str, int] = {}
        for item in benefit:
            if isinstance(item, dict):
                for name, key in DECLINE_KEY.items():
                    if key in item:
                        out[name] = out.get(name, 0) + item[key]
        return out

    def _decline_fits(self, benefit: list[Any], decline: tuple[tuple[str, int], ...]) -> bool:
        """Every declined part is a fixed gain of ``benefit``, by at most its amount."""
        gains = self.fixed_gains(benefit)
        return all(name in gains and amount <= gains[name] for name, amount in decline)

    def parse_action(self, text: str) -> Action:
        pattern = self.game.parse_action(text)
        if isinstance(pattern, CarryPattern):
            if self.current_player() < 0 or self.phase != CARRY:
                raise self.refusal(self.current_player(), text)
            carries = [a for a in self.legal_actions() if isinstance(a, Carry)]
            best = max(carries, key=lambda a: a.workers + sum(a.resources))
            return best
        if isinstance(pattern, Carry) and self.current_player() >= 0 and self.phase == CARRY:
            if self._carry_ok(pattern):
                return pattern
            raise self.refusal(self.current_player(), text, pattern)
        if self._partial_full(pattern) is not None:
            if self.is_legal(pattern):
                return pattern
            raise self.refusal(self.current_player(), text, pattern)
        return super().parse_action(text)

    def apply_unchecked(self, action: Action) -> None:
        self._legal = None
        if self.chance:
            self._apply_chance(action)
        else:
            self._apply_decision(action)
        self._run()
        self._legal = None

    # ------------------------------------------------------------------------------------------
    # setup (SR-57)
    def _init_players(self) -> None:
        n = self.n
        for p in range(n):
            f, m = self.faction[p], self.mat[p]
            fac, mat = D.FACTIONS[f], D.MATS[m]
            self.power[p] = fac["power"]
            self.pop[p] = mat["popularity"]
            self.coins[p] = mat["coins"]
            self.abil[p] = D.FACTION_ABILITY_BIT[f]
            self._set_char(p, D.HOME_OF[f])
            for i, loc in enumerate(D.START_WORKERS[f]):
                self._set_worker(p, i, loc)
        self.order = sorted(range(n), key=lambda p: D.FACTIONS[self.faction[p]]["seat_order"])
        first = min(range(n), key=lambda p: D.MATS[self.mat[p]]["number"])
        self.active = first
        desc = ", ".join(
            f"P{p} {D.FACTION_IDS[self.faction[p]]}/{D.MAT_IDS[self.mat[p]]}" for p in self.order
        )
        self._log(None, f"seating clockwise: {desc}; P{first} starts")
        self.chance.append(("tile",))
        for _ in range(n + 1):
            self.chance.append(("offer",))
        for p in range(n):
            for _ in range(D.MATS[self.mat[p]]["objectives"]):
                self.chance.append(("objective", p))
        for p in range(n):
            for _ in range(D.FACTIONS[self.faction[p]]["combat_cards"]):
                self.chance.append(("draw", p))
        self.phase = SECTION

    # ------------------------------------------------------------------------------------------
    # unit bookkeeping
    def _set_char(self, p: int, loc: int) -> None:
        self._ctrl = None
        old = self.char_loc[p]
        n = self.n
        if old >= 0:
            self.cm[old * n + p] -= 1
        self.char_loc[p] = loc
        if loc >= 0:
            self.cm[loc * n + p] += 1

    def _set_mech(self, p: int, i: int, loc: int) -> None:
        self._ctrl = None
        k = p * D.MECHS + i
        old = self.mech_loc[k]
        n = self.n
        if old >= 0:
            self.cm[old * n + p] -= 1
        self.mech_loc[k] = loc
        if loc >= 0:
            self.cm[loc * n + p] += 1

    def _set_worker(self, p: int, i: int, loc: int) -> None:
        self._ctrl = None
        k = p * D.WORKERS_TOTAL + i
        old = self.worker_loc[k]
        n = self.n
        if old >= 0:
            self.wk[old * n + p] -= 1
        self.worker_loc[k] = loc
        if loc >= 0:
            self.wk[loc * n + p] += 1

    def _set_unit(self, p: int, kind: int, i: int, loc: int) -> None:
        if kind == CHARACTER:
            self._set_char(p, loc)
        elif kind == MECH:
            self._set_mech(p, i, loc)
        else:
            self._set_worker(p, i, loc)

    def _unit_loc(self, p: int, kind: int, i: int) -> int:
        if kind == CHARACTER:
            return self.char_loc[p]
        if kind == MECH:
            return self.mech_loc[p * D.MECHS + i]
        return self.worker_loc[p * D.WORKERS_TOTAL + i]

    def workers_out(self, p: int) -> int:
        """Workers off the mat (on territories or the home base)."""
        base = p * D.WORKERS_TOTAL
        return sum(1 for x in self.worker_loc[base : base + D.WORKERS_TOTAL] if x >= 0)

    def mechs_out(self, p: int) -> int:
        base = p * D.MECHS
        return sum(1 for x in self.mech_loc[base : base + D.MECHS] if x >= 0)

    def structures_built(self, p: int) -> int:
        base = p * NS
        return sum(1 for x in self.struct_loc[base : base + NS] if x >= 0)

    def _opp_units(self, p: int, loc: int) -> bool:
        n = self.n
        b = loc * n
        return any(q != p and (self.wk[b + q] or self.cm[b + q]) for q in range(n))

    def _opp_cm(self, p: int, loc: int) -> int:
        """The opponent with a character/mech on ``loc``, or -1."""
        n = self.n
        b = loc * n
        for q in range(n):
            if q != p and self.cm[b + q]:
                return q
        return -1

    def controller(self, loc: int) -> int:
        """SR-13: who controls ``loc`` (-1 nobody). Mid-Move the defender keeps control."""
        c = self._ctrl
        if c is None:
            c = self._ctrl = self._compute_control()
        return c[loc]

    def _compute_control(self) -> list[int]:
        owner = [-1] * D.NLOC
        active = self.active
        for q in range(self.n):
            for locs in (
                self.worker_loc[q * D.WORKERS_TOTAL : (q + 1) * D.WORKERS_TOTAL],
                self.mech_loc[q * D.MECHS : (q + 1) * D.MECHS],
                (self.char_loc[q],),
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
        for k, loc in enumerate(self.struct_loc):
            if loc >= 0 and owner[loc] < 0:
                owner[loc] = k // NS
        return owner

    def controlled(self, p: int) -> list[int]:
        return [t for t in range(D.NTERR) if self.controller(t) == p]

    def _avail(self, p: int, r: int) -> int:
        """Resource tokens of type ``r`` on territories ``p`` controls (SR-14)."""
        res = self.res
        return sum(
            res[t * D.NRES + r]
            for t in range(D.NTERR)
            if res[t * D.NRES + r] and self.controller(t) == p
        )

    def _worker_territories(self, p: int) -> list[int]:
        """Territories ``p`` controls holding one of ``p``'s workers."""
        n = self.n
        return [t for t in range(D.NTERR) if self.wk[t * n + p] and self.controller(t) == p]

    # ------------------------------------------------------------------------------------------
    # stars (SR-50, SR-11, OQ-10)
    def _star_cap(self, p: int, src: int) -> int:
        name = D.STAR_SOURCES[src]
        dom = bool(self.abil[p] & D.A_DOMINATE)
        if name == "combat":
            return 99 if dom else D.RULES["combat_star_max"]
        if name == "objective":
            return D.RULES["saxony_objective_star_max"] if dom else D.RULES["objective_star_max"]
        return 1

    def _add_star(self, p: int, source: str) -> bool:
        """Place a star if the source allows it; True if that was the player's sixth."""
        src = D.STAR_INDEX[source]
        k = p * NSTAR + src
        if self.star_total[p] >= D.STARS_TO_END or self.stars[k] >= self._star_cap(p, src):
            return False
        self.stars[k] += 1
        self.star_total[p] += 1
        self._log(None, f"P{p} places a star ({source}); {self.star_total[p]} stars")
        return self.star_total[p] >= D.STARS_TO_END

    def _check_stars(self, p: int, tracks_only: bool = False) -> bool:
        """Place every star whose condition holds now; True if the game must end."""
        ended = False
        conds: list[tuple[str, bool]] = []
        if not tracks_only:
            conds += [
                ("upgrades", self.top_up[p] == ALL_TOP),
                ("mechs", self.mechs_out(p) == D.MECHS),
                ("structures", self.structures_built(p) == NS),
                ("recruits", self.recruits[p] == (1 << NB) - 1),
                ("workers", self.workers_out(p) == D.WORKERS_TOTAL),
            ]
        conds += [("popularity", self.pop[p] >= D.POP_MAX), ("power", self.power[p] >= D.POWER_MAX)]
        for name, ok in conds:
            if ok and self.stars[p * NSTAR + D.STAR_INDEX[name]] == 0 and self._add_star(p, name):
                ended = True
        return ended

    # ------------------------------------------------------------------------------------------
    # gains and losses (SR-15)
    def _gain(self, p: int, what: str, amount: int) -> None:
        if what == "power":
            self.power[p] = min(D.POWER_MAX, self.power[p] + amount)
        elif what == "popularity":
            self.pop[p] = min(D.POP_MAX, self.pop[p] + amount)
        elif what == "coins":
            self.coins[p] += amount
        elif what == "combat_cards":
            for _ in range(amount):
                self.chance.append(("draw", p))
        else:  # pragma: no cover - data error
            raise ValueError(f"unknown gain {what!r}")
        if what != "combat_cards":
            self._log(None, f"P{p} gains {amount} {what}")

    def _lose(self, p: int, what: str, amount: int) -> None:
        if what == "power":
            self.power[p] = max(0, self.power[p] - amount)
        elif what == "popularity":
            self.pop[p] = max(0, self.pop[p] - amount)
        elif what == "coins":
            self.coins[p] = max(0, self.coins[p] - amount)
        self._log(None, f"P{p} loses {amount} {what}")

    def _can_pay_track(self, p: int, cost: dict[str, int]) -> bool:
        have = {"power": self.power[p], "popularity": self.pop[p], "coins": self.coins[p]}
        return all(have[k] >= v for k, v in cost.items())

    def _log(self, vis: frozenset[int] | None, text: str) -> None:
        self.log.append((vis, text))

    # ------------------------------------------------------------------------------------------
    # mat helpers
    def _top_name(self) -> str:
        if self.section == D.FACTORY_SECTION:
            return "factory"
        return D.SECTIONS[self.mat[self.active]][self.section][0]

    def _bottom_index(self) -> int:
        return D.SECTIONS[self.mat[self.active]][self.section][1]

    def _bottom_name(self) -> str:
        if self.section == D.FACTORY_SECTION:
            return "move"
        return D.BOTTOM_ACTIONS[self._bottom_index()]

    def _top_value(self, p: int, box: str) -> int:
        i = D.TOP_BOX_INDEX[box]
        b = D.TOP_BOXES[i]
        return b["upgraded"] if self.top_up[p] >> i & 1 else b["base"]

    def _section_of_bottom(self, p: int, b: int) -> tuple[str, int, int, int, int, int]:
        for s in D.SECTIONS[self.mat[p]]:
            if s[1] == b:
                return s
        raise ValueError(b)  # pragma: no cover

    def bottom_cost(self, p: int, b: int) -> int:
        """SR-20: printed cost minus cubes, never below the minimum."""
        s = self._section_of_bottom(p, b)
        return max(s[4], s[3] - self.cubes[p * NB + b])

    def _slots(self, p: int, b: int) -> int:
        s = self._section_of_bottom(p, b)
        return s[3] - s[4]

    def produce_cost(self, p: int) -> dict[str, int]:
        """SR-19: every red box exposed on the produce track."""
        w = self.workers_out(p)
        cost: dict[str, int] = {}
        for minimum, c in D.PRODUCE_TRACK:
            if w >= minimum:
                cost = c
        return cost

    def _has_struct(self, p: int, s: int) -> bool:
        return self.struct_loc[p * NS + s] >= 0

    # ------------------------------------------------------------------------------------------
    # legal actions
    def _gen_legal(self) -> list[Action]:
        ph = self.phase
        p = self._seat()
        if ph == SECTION:
            out: list[Action] = []
            last = self.last_section[p]
            relentless = bool(self.abil[p] & D.A_RELENTLESS)
            for s in range(D.MAT_SECTIONS):
                if s != last or relentless:
                    out.append(ChooseSection(s))
            # SR-6: the held Factory card is a fifth section, never twice in a row
            if self.factory_card[p] >= 0 and last != D.FACTORY_SECTION:
                out.append(ChooseSection(D.FACTORY_SECTION))
            return out
        if ph == TOP:
            return self._top_options(p)
        if ph == MOVE_UNIT:
            return [DONE, *self._unit_options(p)]
        if ph == CARRY:
            return self._carry_options(p)
        if ph == STEP:
            dests = self._dests_for_sel()
            acts: list[Action] = [Step(d) for d in dests]
            if self.steps_taken > 0 and not self._cargo_on_lake():
                acts.insert(0, STOP)
            return acts
        if ph == TRADE2:
            return [DONE, *self._trade_options(p)]
        if ph == PRODUCE:
            return [DONE, *(Produce(t) for t in self._produce_options(p))]
        if ph == COMBAT_CHOOSE:
            return [Fight(t) for t in self.combats]
        if ph == ARTILLERY:
            return [UseArtillery(False), UseArtillery(True)]
        if ph == COMMIT:
            return self._commit_options(p)
        if ph == RETREAT:
            out = []
            loc = self.cb[0]
            both = self.wk[loc * self.n + p] and self.cm[loc * self.n + p] > (
                self.char_loc[p] == loc
            )
            for x in self._retreat_options(p):
                out.append(Retreat(x))
                if both and D.IS_LAKE[x]:
                    out.append(Retreat(x, False))
            return out
        if ph == ENC_OPTION:
            out = [EncounterOption(k + 1) for k in self._enc_affordable(p)]
            if self.enc_chosen or not out:
                out.insert(0, DONE)
            return out
        if ph == GRANT:
            return self._grant_legal(p)
        if ph == FACTORY_PICK:
            return [TakeFactory(c) for c in sorted(self.offer)]
        if ph == FPAY:
            return [PayCard(D.CARD_VALUES[i]) for i in range(NV) if self.hand[p * NV + i]]
        if ph == BOTTOM and self.section == D.FACTORY_SECTION:
            return [SKIP, *self._unit_options(p), *self._reveal_options(p)]
        if ph == BOTTOM:
            out = [SKIP]
            if self._bottom_affordable(p):
                out.append(TAKE_BOTTOM)
            out += self._reveal_options(p)
            return out
        if ph == PAY:
            return self._pay_options()
        if ph == BENEFIT:
            return [SKIP, *self._benefit_options(p)]
        if ph == END:
            return [END_TURN, *self._reveal_options(p)]
        return []  # pragma: no cover

    def _reveal_options(self, p: int) -> list[Action]:
        """SR-51: one reveal per window (before the top action, between the rows, after the
        bottom row) of a held objective whose condition holds now (OQ-3)."""
        if self.windows_used & WINDOW_OF_PHASE.get(self.phase, 0) or self.stars[
            p * NSTAR + D.STAR_INDEX["objective"]
        ] >= self._star_cap(p, D.STAR_INDEX["objective"]):
            return []
        return [Reveal(o) for o in sorted(self.objectives[p]) if self.objective_holds(p, o)]

    def _top_options(self, p: int) -> list[Action]:
        top = self._top_name()
        out: list[Action] = [SKIP]
        if self.section == D.FACTORY_SECTION:
            if self._can_pay_card_cost(p, D.FACTORY_BY_NUMBER[self.factory_card[p]]["cost"]):
                out.append(FACTORY_TOP)
            return out + self._reveal_options(p)
        cost = D.TOP_COSTS[top]
        if top == "produce":
            cost = self.produce_cost(p)
        if self._can_pay_track(p, cost):
            if top == "move":
                out.append(MoveCoins())
                out += self._unit_options(p)
            elif top == "bolster":
                out += [Bolster("power"), Bolster("cards")]
            elif top == "trade":
                out.append(TradePopularity())
                out += self._trade_options(p)
            elif top == "produce":
                out += [Produce(t) for t in self._produce_options(p)]
        out += self._reveal_options(p)
        return out

    def _trade_options(self, p: int) -> list[Action]:
        terrs = self._worker_territories(p)
        return [TradeResource(r, t) for r in range(D.NRES) for t in terrs]

    def _produce_options(self, p: int) -> list[int]:
        n = self.n
        mill = self.struct_loc[p * NS + D.MILL] if not self.prod_limit else -2
        limit = self.prod_limit or self._top_value(p, "produce-territories")
        used = sum(1 for t in self.produced if t != mill)
        out = []
        for t in range(D.NTERR):
            if t in self.produced or D.PRODUCT[t] == -1:
                continue
            if self.controller(t) != p:
                continue
            if t == mill or (self.wk[t * n + p] and used < limit):
                out.append(t)
        return out

    # --- movement -----------------------------------------------------------------------------
    def _unit_options(self, p: int) -> list[Action]:
        out: list[Action] = []
        mv = self.moved
        if not mv & 1:
            loc = self.char_loc[p]
            if self._dests(p, CHARACTER, loc, False):
                out.append(SelectUnit(CHARACTER, loc))
        seen: set[int] = set()
        for i in range(D.MECHS):
            loc = self.mech_loc[p * D.MECHS + i]
            if loc >= 0 and not mv >> (1 + i) & 1 and loc not in seen:
                seen.add(loc)
                if self._dests(p, MECH, loc, False):
                    out.append(SelectUnit(MECH, loc))
        seen = set()
        for i in range(D.WORKERS_TOTAL):
            loc = self.worker_loc[p * D.WORKERS_TOTAL + i]
            if loc >= 0 and not mv >> (1 + D.MECHS + i) & 1 and loc not in seen:
                seen.add(loc)
                if self._dests(p, WORKER, loc, False):
                    out.append(SelectUnit(WORKER, loc))
        out.sort(key=lambda a: (a.kind, a.loc))  # type: ignore[attr-defined]
        return out

    def _bit(self, kind: int, i: int) -> int:
        if kind == CHARACTER:
            return 1
        if kind == MECH:
            return 1 << (1 + i)
        return 1 << (1 + D.MECHS + i)

    def _pick_unit(self, p: int, kind: int, loc: int) -> int:
        if kind == CHARACTER:
            return 0
        if kind == MECH:
            for i in range(D.MECHS):
                if self.mech_loc[p * D.MECHS + i] == loc and not self.moved >> (1 + i) & 1:
                    return i
        else:
            for i in range(D.WORKERS_TOTAL):
                if (
                    self.worker_loc[p * D.WORKERS_TOTAL + i] == loc
                    and not self.moved >> (1 + D.MECHS + i) & 1
                ):
                    return i
        raise IllegalActionError("no such unit can move")  # pragma: no cover

    def _carry_avail(self, p: int) -> tuple[int, tuple[int, int, int, int]]:
        kind, i = self.sel
        loc = self._unit_loc(p, kind, i)
        if D.IS_HOME[loc]:
            return 0, ZERO4
        b = loc * D.NRES
        c = self.cargo_r  # mid-move, what the unit already holds may be kept
        r = (
            self.res[b] + c[0],
            self.res[b + 1] + c[1],
            self.res[b + 2] + c[2],
            self.res[b + 3] + c[3],
        )
        w = self.wk[loc * self.n + p] if kind == MECH else 0
        return w, r

    def _cargo_on_lake(self) -> bool:
        """SR-35: the selected unit is on a lake with cargo, which cannot be left there."""
        kind, i = self.sel
        loc = self._unit_loc(self.active, kind, i)
        return D.IS_LAKE[loc] and (bool(self.cargo_w) or any(self.cargo_r))

    def _carry_options(self, p: int) -> list[Action]:
        w, r = self._carry_avail(p)
        out: list[Action] = []
        if self.steps_taken and self._on_lake():
            # SR-35: nothing is left on a lake; a mech may pick up workers there
            keep = (self.cargo_r[0], self.cargo_r[1], self.cargo_r[2], self.cargo_r[3])
            out.append(Carry(len(self.cargo_w), keep))
            if w > len(self.cargo_w):
                out.append(Carry(w, keep))
            return out
        if self.steps_taken:
            # SR-30/SR-34: mid-move, keep the cargo (first), drop it, or load more
            out.append(
                Carry(
                    len(self.cargo_w),
                    (self.cargo_r[0], self.cargo_r[1], self.cargo_r[2], self.cargo_r[3]),
                )
            )
        for a in (Carry(0, ZERO4), Carry(w, r)):
            if a not in out:
                out.append(a)
        if w and any(r):
            for a in (Carry(w, ZERO4), Carry(0, r)):
                if a not in out:
                    out.append(a)
        return out

    def _on_lake(self) -> bool:
        kind, i = self.sel
        return D.IS_LAKE[self._unit_loc(self.active, kind, i)]

    def _carry_ok(self, a: Carry) -> bool:
        w, r = self._carry_avail(self._seat())
        if self.steps_taken and self._on_lake():
            return len(self.cargo_w) <= a.workers <= w and list(a.resources) == self.cargo_r
        return 0 <= a.workers <= w and all(0 <= x <= y for x, y in zip(a.resources, r))

    def _dests_for_sel(self) -> list[int]:
        p = self.active
        kind, i = self.sel
        loc = self._unit_loc(p, kind, i)
        carrying = bool(self.cargo_w) or any(self.cargo_r)
        return self._dests(p, kind, loc, carrying, self.steps_left - 1)

    def _dests(self, p: int, kind: int, loc: int, carrying: bool, more: int = 0) -> list[int]:
        """Where one step can take this unit (SR-25..SR-39); ``more`` = steps left after it.
        A unit with cargo enters a lake only if it can go on to land with it (SR-35)."""
        ab = self.abil[p]
        f = self.faction[p]
        cmu = kind != WORKER
        if not cmu and (self._opp_cm(p, loc) >= 0 or D.IS_LAKE[loc]):
            # SR-31: a worker may not leave a territory with enemy character/mechs;
            # SR-35: a worker leaves a lake only carried by a mech
            return []
        lake_ok = cmu and bool(ab & (D.A_SEAWORTHY | D.A_SUBMERGE))
        out: set[int] = set()
        for d, river in D.GEO[loc]:
            if d >= D.NTERR:
                continue  # SR-29: no step onto a home base
            if D.IS_LAKE[d]:
                if not lake_ok:
                    continue
            elif river:
                if cmu:
                    if not (ab & D.A_RIVERWALK and D.TERRAIN[d] in D.RIVERWALK_TERRAINS[f]):
                        continue
                elif not ab & D.A_SWIM:
                    continue
            out.add(d)
        if loc < D.NTERR:
            mine = self.struct_loc[p * NS + D.MINE]
            if D.IS_TUNNEL[loc] or loc == mine:
                out.update(D.TUNNELS)
                if mine >= 0:
                    out.add(mine)
            if cmu:
                # SR-37 Township: controlled villages and the Factory (OQ-11: at the step)
                if ab & D.A_TOWNSHIP and (
                    loc == D.FACTORY_LOC
                    or (D.TERRAIN[loc] == D.VILLAGE and self.controller(loc) == p)
                ):
                    out.add(D.FACTORY_LOC)
                    out.update(v for v in D.VILLAGES if self.controller(v) == p)
                # SR-38 Underpass: controlled mountains, tunnels and the own Mine
                if ab & D.A_UNDERPASS and (
                    D.IS_TUNNEL[loc]
                    or loc == mine
                    or (D.TERRAIN[loc] == D.MOUNTAIN and self.controller(loc) == p)
                ):
                    out.update(D.TUNNELS)
                    if mine >= 0:
                        out.add(mine)
                    out.update(m for m in D.MOUNTAINS if self.controller(m) == p)
                if ab & D.A_SUBMERGE and D.IS_LAKE[loc]:
                    out.update(D.LAKES)
        if cmu and ab & D.A_WAYFARE:
            # SR-39: own home base or any inactive home base, one step (OQ-12)
            out.add(D.HOME_OF[f])
            for hb in range(D.NTERR, D.NLOC):
                fac = D.HOME_BASE_FACTION[hb]
                if fac not in D.FACTION_INDEX or D.FACTION_INDEX[fac] not in self.faction:
                    out.add(hb)
        out.discard(loc)
        if not cmu:
            out = {d for d in out if not D.IS_LAKE[d] and not self._opp_units(p, d)}
        elif carrying:
            out = {
                d
                for d in out
                if not D.IS_LAKE[d]
                or (
                    more >= 1
                    and not self._opp_units(p, d)
                    and self._dests(p, kind, d, True, more - 1)
                )
            }
        return sorted(out)

    def _start_unit(self, p: int, kind: int, loc: int) -> None:
        i = self._pick_unit(p, kind, loc)
        self.sel = (kind, i)
        self.moved |= self._bit(kind, i)
        self.move_start = loc
        self.cargo_w = []
        self.cargo_r = [0, 0, 0, 0]
        self.steps_taken = 0
        base = 1
        if self.fmove:  # SR-49: the Factory card's Move, one unit up to 2 (Speed 3)
            base = D.FACTORY_BY_NUMBER[self.factory_card[p]]["move_steps"]
        if kind == WORKER:
            self.steps_left = base
        else:
            extra = D.RULES["speed_extra_steps"] if self.abil[p] & D.A_SPEED else 0
            self.steps_left = base + extra
        w, r = self._carry_avail(p)
        if w or any(r):
            self.phase = CARRY
        else:
            self.phase = STEP

    def _do_carry(self, p: int, a: Carry) -> None:
        kind, i = self.sel
        loc = self._unit_loc(p, kind, i)
        # mid-move: put down what is carried, then pick up the new cargo
        for r in range(D.NRES):
            self.res[loc * D.NRES + r] += self.cargo_r[r]
        self.cargo_r = [0, 0, 0, 0]
        self.cargo_w = []
        if a.workers:
            # carried workers that have not moved yet go first (they may still move later)
            base = p * D.WORKERS_TOTAL
            here = [j for j in range(D.WORKERS_TOTAL) if self.worker_loc[base + j] == loc]
            here.sort(key=lambda j: (self.moved >> (1 + D.MECHS + j) & 1, j))
            self.cargo_w = here[: a.workers]
        for r in range(D.NRES):
            if a.resources[r]:
                self.res[loc * D.NRES + r] -= a.resources[r]
                self.cargo_r[r] += a.resources[r]
        self.phase = STEP

    def _do_step(self, p: int, dest: int) -> None:
        kind, i = self.sel
        n = self.n
        self._set_unit(p, kind, i, dest)
        for j in self.cargo_w:
            self._set_worker(p, j, dest)
        self.steps_taken += 1
        self.steps_left -= 1
        stop = False
        if kind != WORKER and dest < D.NTERR:
            opp = self._opp_cm(p, dest)
            if opp >= 0:
                stop = True  # SR-31: combat after all movement
            else:
                displaced = 0
                for q in range(n):
                    if q != p and self.wk[dest * n + q]:
                        displaced += self._retreat_workers(q, dest)
                if displaced:
                    # SR-31: workers retreat, the mover loses popularity (OQ-6: even Camaraderie)
                    stop = True
                    self.forced_retreat = True
                    if self.game.options["oq6_camaraderie_combat_only"] or not (
                        self.abil[p] & D.A_CAMARADERIE
                    ):
                        self._lose(
                            p, "popularity", displaced * D.RULES["displacement_popularity_loss"]
                        )
            if kind == CHARACTER and self.token[dest]:
                stop = True  # SR-32
                self.char_token = dest
        self._log(None, f"P{p} {('character', 'mech', 'worker')[kind]} to {D.LOC_NAMES[dest]}")
        if stop or self.steps_left <= 0 or not self._dests_for_sel():
            self._finish_unit(p)
            return
        w, r = self._carry_avail(p)
        if w or any(r):
            self.phase = CARRY  # SR-34: load and unload mid-move

    def _retreat_workers(self, q: int, loc: int) -> int:
        home = D.HOME_OF[self.faction[q]]
        count = 0
        base = q * D.WORKERS_TOTAL
        for j in range(D.WORKERS_TOTAL):
            if self.worker_loc[base + j] == loc:
                self._set_worker(q, j, home)
                count += 1
        if count:
            self._log(None, f"P{q}'s {count} worker(s) on {D.LOC_NAMES[loc]} retreat home")
        return count

    def _finish_unit(self, p: int) -> None:
        kind, i = self.sel
        loc = self._unit_loc(p, kind, i)
        for r in range(D.NRES):
            self.res[loc * D.NRES + r] += self.cargo_r[r]
        self.move_log.append(
            (kind, i, self.move_start, loc, tuple(self.cargo_r), tuple(self.cargo_w))
        )
        self.cargo_w = []
        self.cargo_r = [0, 0, 0, 0]
        self.sel = (-1, -1)
        self.units_moved += 1
        if self.units_moved >= self.max_units:
            self._end_movement()
        else:
            self.phase = MOVE_UNIT

    def _end_movement(self) -> None:
        p = self.active
        n = self.n
        self.combats = [t for t in range(D.NTERR) if self.cm[t * n + p] and self._opp_cm(p, t) >= 0]
        self._next_combat()

    # --- combat (SR-42..SR-46) -----------------------------------------------------------------
    def _next_combat(self) -> None:
        if len(self.combats) > 1:
            self.phase = COMBAT_CHOOSE
        elif self.combats:
            self._start_combat(self.combats[0])
        else:
            self._after_move()

    def _start_combat(self, loc: int) -> None:
        p = self.active
        dfd = self._opp_cm(p, loc)
        self.cb = [loc, p, dfd, 0, -1]
        self._log(None, f"combat on {D.LOC_NAMES[loc]}: P{p} attacks P{dfd}")
        self._combat_step()

    def _combat_step(self) -> None:
        loc, att, dfd, stage, _ = self.cb
        while stage < 6:
            me = att if stage < 3 else dfd
            opp = dfd if stage < 3 else att
            sub = stage % 3
            stage += 1
            self.cb[3] = stage
            ab = self.abil[me]
            if (
                sub == 0
                and ab & D.A_ARTILLERY
                and self.power[me] >= D.RULES["artillery"]["cost_power"]
            ):
                self.cb[4] = me
                self.phase = ARTILLERY
                return
            if sub == 1 and ab & D.A_SCOUT and sum(self.hand[opp * NV : opp * NV + NV]):
                self.chance.append(("scout", me, opp))
                self.cont = "_combat_step"
                return
            mine = self.struct_loc[me * NS + D.MINE]
            on_tunnel = D.IS_TUNNEL[loc] or (
                not self.game.options["oq5_disarm_tunnels_only"] and loc == mine
            )
            if sub == 2 and ab & D.A_DISARM and on_tunnel:
                self._log(None, f"P{me} uses Disarm")
                self._lose(opp, "power", D.RULES["disarm"]["opponent_loses"])
        self.commits = Commitments((att, dfd))
        self.phase = COMMIT

    def commit_limit(self, p: int, loc: int) -> int:
        """SR-43 C2: cards allowed = own characters/mechs there (+1 People's Army)."""
        k = self.cm[loc * self.n + p]
        if self.abil[p] & D.A_PEOPLES_ARMY and self.wk[loc * self.n + p]:
            k += 1
        return k

    def _commit_options(self, p: int) -> list[Action]:
        loc = self.cb[0]
        dial_max = min(D.DIAL_MAX, self.power[p])
        multis = _sub_multisets(self.hand[p * NV : p * NV + NV], self.commit_limit(p, loc))
        return [Commit(d, c) for c in multis for d in range(dial_max + 1)]

    def _commit(self, p: int, a: Commit) -> None:
        """SR-43 C2 / SR-59: ``p``'s secret commitment. Attacker and defender commit in any
        order; when the second arrives, the two commitments' log lines are put in commitment
        order (attacker first), so the state does not depend on who was first."""
        commits = self.commits
        assert commits is not None
        commits.commit(p, [a.dial, list(a.cards)])
        self._log(None, f"P{p} commits")
        self._log(frozenset((p,)), f"P{p} commits dial {a.dial}, cards {list(a.cards)}")
        if commits.complete():
            first = commits.seats[0]
            tail = self.log[-4:]
            if tail[0][1] != f"P{first} commits":  # the defender was first: swap the pairs
                self.log[-4:] = tail[2:] + tail[:2]
            self._resolve_combat()

    # --- several seats at once: the two secret commitments (SR-43 C2, SR-59)
    def _committing(self) -> list[int]:
        if self.phase != COMMIT or self.chance or self.commits is None:
            return []
        commits = self.commits
        return sorted(q for q in commits.seats if commits.value_for(q) is None)

    def acting_seats(self) -> list[int]:
        waiting = self._committing()
        return waiting if waiting else super().acting_seats()

    def simultaneous_seats(self) -> list[int]:
        return self._committing()

    def legal_actions_for(self, seat: int) -> list[Action]:
        if seat in self._committing():
            return self.legal_actions() if seat == self._seat() else self._commit_options(seat)
        return super().legal_actions_for(seat)

    def prompt_for(self, seat: int) -> Prompt | None:
        if seat in self._committing():
            pr = self.prompt()
            assert pr is not None
            return Prompt(pr.kind, seat, pr.text, pr.data)
        return super().prompt_for(seat)

    def parse_action_for(self, seat: int, text: str) -> Action:
        waiting = self._committing()
        if seat not in waiting or seat == self._seat():
            return super().parse_action_for(seat, text)
        action = self.game.parse_action(text)
        if isinstance(action, Commit) and action in self._commit_options(seat):
            return action
        raise self.refusal(seat, text.strip(), action)

    def apply_for(self, seat: int, action: Action) -> None:
        waiting = self._committing()
        if seat not in waiting or seat == self._seat():
            super().apply_for(seat, action)
            return
        if not isinstance(action, Commit) or action not in self._commit_options(seat):
            raise self.refusal(seat, str(action), action)
        self._legal = None
        self._commit(seat, action)
        self._run()
        self._legal = None

    def why_illegal(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, in the game's words (see :mod:`.reasons`)."""
        from hexfolk.games.scythe.reasons import why_illegal

        return why_illegal(self, seat, action)

    def _resolve_combat(self) -> None:
        assert self.commits is not None
        loc, att, dfd = self.cb[0], self.cb[1], self.cb[2]
        vals = self.commits.reveal()
        totals = {}
        n = self.n
        for s in (att, dfd):
            dial, cards = vals[s]
            totals[s] = dial + sum(cards)
            self._log(None, f"P{s} reveals dial {dial} and cards {list(cards)}: {totals[s]}")
            # C4: pay the dial, discard the cards face up
            self.power[s] = max(0, self.power[s] - dial)
            for v in cards:
                i = D.CARD_INDEX[v]
                self.hand[s * NV + i] -= 1
                self.discard[i] += 1
                self._forget_card(s, i)
        winner = att if totals[att] >= totals[dfd] else dfd  # C3: ties to the attacker
        loser = dfd if winner == att else att
        self._log(None, f"P{winner} wins the combat on {D.LOC_NAMES[loc]}")
        ended = self._add_star(winner, "combat")  # C5 (SR-45)
        if winner == att:
            dw = self.wk[loc * n + dfd]
            if dw:
                self.forced_retreat = True
                if not self.abil[att] & D.A_CAMARADERIE:  # C6 / SR-44
                    self._lose(att, "popularity", dw)
        if totals[loser] >= D.RULES["loser_draw_min_total"]:
            self.chance.append(("draw", loser))  # C7 consolation
        self.commits = None
        self.cb[3] = 7
        self._combat_ended = ended
        # C7: retreat (Seaworthy may choose an adjacent lake, OQ-8)
        if self._retreat_options(loser)[1:]:
            self.retreat_seat = loser
            self.phase = RETREAT
            return
        self._retreat_loser(loser, D.HOME_OF[self.faction[loser]])

    def _retreat_options(self, q: int) -> list[int]:
        home = D.HOME_OF[self.faction[q]]
        out = [home]
        if (
            self.abil[q] & D.A_SEAWORTHY
            and self.cb
            and self.game.options["oq8_seaworthy_lake_retreat"]
        ):
            loc = self.cb[0]
            lakes = [d for d, _ in D.GEO[loc] if d < D.NTERR and D.IS_LAKE[d]]
            out += sorted(d for d in lakes if not self._opp_units(q, d))
        return out

    def _retreat_loser(self, q: int, dest: int, workers: bool = True) -> None:
        loc = self.cb[0]
        if self.char_loc[q] == loc:
            self._set_char(q, dest)
        mech = False
        for i in range(D.MECHS):
            if self.mech_loc[q * D.MECHS + i] == loc:
                self._set_mech(q, i, dest)
                mech = True
        if mech and workers and D.IS_LAKE[dest]:
            # OQ-8: a mech retreating onto a lake takes the workers along
            base = q * D.WORKERS_TOTAL
            for j in range(D.WORKERS_TOTAL):
                if self.worker_loc[base + j] == loc:
                    self._set_worker(q, j, dest)
        self._retreat_workers(q, loc)
        self._log(None, f"P{q}'s units on {D.LOC_NAMES[loc]} retreat to {D.LOC_NAMES[dest]}")
        self.combats.remove(loc)
        self.retreat_seat = -1
        if self._combat_ended:
            self._end_game("sixth star in combat")
            return
        self.cb = []
        self.cont = "_next_combat"

    def _forget_card(self, holder: int, i: int) -> None:
        """A card of ``holder`` became public (played/discarded): drop it from knowledge."""
        n = self.n
        for v in range(n):
            k = (v * n + holder) * NV + i
            if self.known[k] > 0:
                self.known[k] -= 1

    def _after_move(self) -> None:
        p = self.active
        # SR-47 (step 2c): encounter if the character stopped on a token and is still there.
        t = self.char_token
        if t >= 0 and self.char_loc[p] == t and self.token[t]:
            if self._check_stars(p):
                self._end_game("sixth star")
                return
            self.token[t] = False
            self._encounter(p, t)
            return
        self._after_encounter()

    def _after_encounter(self) -> None:
        p = self.active
        if self._check_stars(p):  # OQ-10: after the encounter
            self._end_game("sixth star")
            return
        # SR-48 (step 2d): the Factory card, viewed only by this player.
        if self.char_loc[p] == D.FACTORY_LOC and self.factory_card[p] < 0 and self.offer:
            self.offer_seen[p] = True
            self._log(None, f"P{p}'s character is on the Factory: P{p} looks at the offer")
            self.phase = FACTORY_PICK
            return
        self._after_factory(False)

    def _after_factory(self, check: bool = True) -> None:
        if check and self._check_stars(self.active):
            self._end_game("sixth star")
            return
        if self.fmove:
            self.fmove = False
            self._finish_turn()
        else:
            self._to_bottom()

    # --- encounters (SR-47) ----------------------------------------------------------------
    def _enc_unknown(self) -> list[int]:
        """Encounter cards in the unknown part of the deck (never drawn yet)."""
        seen = set(self.enc_bottom)
        return [c for c in D.ENCOUNTER_NUMBERS if c not in seen and c != self.enc_card]

    def _encounter(self, p: int, loc: int) -> None:
        """Discard the token and draw the top card: a chance outcome from the never-drawn
        cards, or (all drawn once) the known card on top of the put-back ones."""
        self._log(None, f"P{p} has an encounter on {D.LOC_NAMES[loc]} (token removed)")
        self.enc_loc = loc
        self.enc_chosen = []
        if self._enc_unknown():
            self.chance.append(("encounter", p))
        else:
            self.enc_card = self.enc_bottom.pop(0)
            self._log(None, f"P{p} draws encounter card {self.enc_card}")
        self.phase = ENC_OPTION

    def _enc_affordable(self, p: int) -> list[int]:
        card = D.ENCOUNTER_BY_NUMBER[self.enc_card]
        if len(self.enc_chosen) >= (D.MEANDER_OPTIONS if self.abil[p] & D.A_MEANDER else 1):
            return []
        return [
            k
            for k, o in enumerate(card["options"])
            if k not in self.enc_chosen and self._can_pay_card_cost(p, o["cost"])
        ]

    def _can_pay_card_cost(self, p: int, cost: dict[str, int]) -> bool:
        have = {
            "power": self.power[p],
            "popularity": self.pop[p],
            "coins": self.coins[p],
            "combat_cards": sum(self.hand[p * NV : p * NV + NV]),
        }
        return all(have[k] >= v for k, v in cost.items())

    def _pay_track_cost(self, p: int, cost: dict[str, int]) -> None:
        for k, v in cost.items():
            if k != "combat_cards" and v:
                self._lose(p, k, v)

    def _choose_encounter_option(
        self, p: int, slot: int, decline: tuple[tuple[str, int], ...] = ()
    ) -> None:
        option = D.ENCOUNTER_BY_NUMBER[self.enc_card]["options"][slot]
        self.enc_chosen.append(slot)
        self._log(None, f"P{p} chooses option {slot + 1} of encounter card {self.enc_card}")
        self._pay_track_cost(p, option["cost"])
        self._start_grants(option["benefit"], self.enc_loc, "_enc_option_done", decline)

    def _enc_option_done(self) -> None:
        if self._enc_affordable(self.active):
            self.phase = ENC_OPTION  # SR-41 Meander: a second, different option
            return
        self._enc_finish()

    def _enc_finish(self) -> None:
        self.enc_bottom.append(self.enc_card)  # face down to the deck bottom
        self._log(None, f"encounter card {self.enc_card} goes to the bottom of the deck")
        self.enc_card = -1
        self.enc_loc = -1
        self._after_encounter()

    # --- granted benefits of cards (encounters, Factory tops) ---------------------------------
    def _start_grants(
        self,
        benefit: list[Any],
        loc: int,
        then: str,
        decline: tuple[tuple[str, int], ...] = (),
    ) -> None:
        """Queue a card's benefit items; ``loc`` is the encounter territory where gains are
        placed (-1: a Factory card, whose gains follow the normal placement rules).
        ``decline`` leaves parts of the fixed gains untaken (SR-47, SR-49; amount 0 = all)."""
        p = self.active
        self.grant_loc = loc
        self.grant_then = then
        left = {DECLINE_KEY[name]: amount or 1 << 30 for name, amount in decline}
        q: list[tuple[Any, ...]] = []
        for item in benefit:
            if isinstance(item, str):
                q.append(("act", (item,)))
                continue
            for k, v in item.items():
                if left.get(k, 0) and isinstance(v, int):
                    cut = min(v, left[k])
                    left[k] -= cut
                    v -= cut
                    self._log(None, f"P{p} declines {cut} {k}")
                    if v == 0:
                        continue
                if k == "choose":
                    q.append(("act", tuple(v)))
                elif k == "resources_any":
                    q.append(("res", v))
                elif k == "produce":
                    q.append(("produce", v))
                elif k == "worker":
                    q.append(("worker", v))
                elif k in D.RES_INDEX:
                    q.append(("put", D.RES_INDEX[k], v))
                else:
                    self._gain(p, k, v)
        self.grants = q
        self.cont = "_grants_next"

    def _grants_next(self) -> None:
        p = self.active
        while self.grants:
            g = self.grants[0]
            kind = g[0]
            if kind == "put":
                self.res[self.grant_loc * D.NRES + g[1]] += g[2]
                self._log(
                    None, f"P{p} gains {g[2]} {D.RESOURCES[g[1]]} on {D.LOC_NAMES[self.grant_loc]}"
                )
            elif kind == "worker":
                base = p * D.WORKERS_TOTAL
                made = 0
                for j in range(D.WORKERS_TOTAL):  # the leftmost mat workers (SR-47)
                    if made < g[1] and self.worker_loc[base + j] < 0:
                        self._set_worker(p, j, self.grant_loc)
                        made += 1
                self._log(None, f"P{p} gains {made} worker(s) on {D.LOC_NAMES[self.grant_loc]}")
            elif kind == "produce":
                self.grants.pop(0)
                self.prod_limit = g[1]
                self.produced = []
                if self._produce_options(p):
                    self.phase = PRODUCE
                    return
                self.prod_limit = 0
                continue
            elif self._grant_legal(p)[1:]:
                self.phase = GRANT
                return
            self.grants.pop(0)
        then = self.grant_then
        self.grant_then = ""
        getattr(self, then)()

    def _grant_legal(self, p: int) -> list[Action]:
        g = self.grants[0]
        loc = self.grant_loc
        if g[0] == "res":
            terrs = [loc] if loc >= 0 else self._worker_territories(p)
            return [DONE, *(GainResource(r, t) for r in range(D.NRES) for t in terrs)]
        out: list[Action] = [SKIP]
        for name in g[1]:
            out += self._bottom_benefits(p, D.BOTTOM_INDEX[name], loc)
        return out

    def _apply_grant(self, p: int, a: Action) -> None:
        g = self.grants[0]
        if isinstance(a, GainResource):
            self.res[a.loc * D.NRES + a.resource] += 1
            self._log(None, f"P{p} gains 1 {D.RESOURCES[a.resource]} on {D.LOC_NAMES[a.loc]}")
            if g[1] > 1:
                self.grants[0] = ("res", g[1] - 1)
            else:
                self.grants.pop(0)
        else:
            if not isinstance(a, (Skip, Done)):
                self._apply_benefit(p, a)
            self.grants.pop(0)
        self.cont = "_grants_next"

    def _produce_done(self) -> None:
        if self.prod_limit:
            self.prod_limit = 0
            self._grants_next()
        else:
            self._after_top()

    # --- Factory cards (SR-48, SR-49) -----------------------------------------------------------
    def _take_factory(self, p: int, number: int) -> None:
        self.offer.remove(number)
        self.factory_card[p] = number
        self._log(None, f"P{p} keeps Factory card {number}")
        self._after_factory()

    def _factory_top(self, p: int, decline: tuple[tuple[str, int], ...] = ()) -> None:
        card = D.FACTORY_BY_NUMBER[self.factory_card[p]]
        self._log(None, f"P{p} takes the top action of Factory card {card['number']}")
        self._pay_track_cost(p, card["cost"])
        self.fpay_left = card["cost"].get("combat_cards", 0)
        if self.fpay_left:
            self.fdecline = decline
            self.phase = FPAY
            return
        self._start_grants(card["benefit"], -1, "_after_top", decline)

    def _factory_pay_card(self, p: int, a: PayCard) -> None:
        i = D.CARD_INDEX[a.value]
        self.hand[p * NV + i] -= 1
        self.discard[i] += 1
        self._forget_card(p, i)
        self._log(None, f"P{p} discards a {a.value} combat card (Factory card cost)")
        self.fpay_left -= 1
        if self.fpay_left == 0:
            card = D.FACTORY_BY_NUMBER[self.factory_card[p]]
            decline, self.fdecline = self.fdecline, ()
            self._start_grants(card["benefit"], -1, "_after_top", decline)

    # --- bottom row ----------------------------------------------------------------------------
    def _to_bottom(self) -> None:
        self.phase = BOTTOM

    def _bottom_affordable(self, p: int) -> bool:
        b = self._bottom_index()
        r = self._section_of_bottom(p, b)[2]
        need = self.bottom_cost(p, b)
        have = self._avail(p, r)
        if (
            self.abil[p] & D.A_COERCION
            and not self.coercion_used
            and sum(self.hand[p * NV : p * NV + NV])
        ):
            have += 1
        return have >= need

    def _pay_options(self) -> list[Action]:
        p = self.active
        r = self.pay_res
        out: list[Action] = []
        for t in range(D.NTERR):
            if self.res[t * D.NRES + r] and self.controller(t) == p:
                out.append(Pay(r, t))
        if self.abil[p] & D.A_COERCION and not self.coercion_used:
            for i in range(NV):
                if self.hand[p * NV + i]:
                    out.append(PayCard(D.CARD_VALUES[i]))
        return out

    def _do_pay(self, a: Action) -> None:
        p = self.active
        if isinstance(a, Pay):
            self.res[a.loc * D.NRES + a.resource] -= 1
            self._log(None, f"P{p} pays 1 {D.RESOURCES[a.resource]} from {D.LOC_NAMES[a.loc]}")
        elif isinstance(a, PayCard):
            i = D.CARD_INDEX[a.value]
            self.hand[p * NV + i] -= 1
            self.discard[i] += 1
            self._forget_card(p, i)
            self.coercion_used = True  # SR-41 / OQ-7
            self._log(None, f"P{p} discards a {a.value} combat card (Coercion)")
        self.pay_left -= 1
        if self.pay_left == 0:
            self.phase = BENEFIT

    def _benefit_options(self, p: int) -> list[Action]:
        return self._bottom_benefits(p, self._bottom_index(), -1)

    def _bottom_benefits(self, p: int, b: int, loc: int) -> list[Action]:
        """The choices of bottom action ``b``'s benefit. ``loc`` >= 0: granted by an
        encounter on ``loc``, where a mech or structure must go, no worker needed (SR-47)."""
        name = D.BOTTOM_ACTIONS[b]
        out: list[Action] = []
        if name == "upgrade":
            for box in range(len(D.TOP_BOXES)):
                if self.top_up[p] >> box & 1:
                    continue
                for bb in range(NB):
                    if self.cubes[p * NB + bb] < self._slots(p, bb):
                        out.append(Upgrade(box, bb))
        elif name == "deploy":
            if loc >= 0:
                terrs = [] if D.IS_LAKE[loc] else [loc]
            else:
                terrs = [t for t in self._worker_territories(p) if not D.IS_LAKE[t]]
            mechs = D.FACTIONS[self.faction[p]]["mech_abilities"]
            for i in range(D.MECHS):
                if self.mech_loc[p * D.MECHS + i] < 0:
                    out += [Deploy(i, mechs[i], t) for t in terrs]
        elif name == "build":
            cand = [loc] if loc >= 0 else self._worker_territories(p)
            terrs = [t for t in cand if not D.IS_LAKE[t] and self.struct_at[t] < 0]
            for s in range(NS):
                if self.struct_loc[p * NS + s] < 0:
                    out += [Build(s, t) for t in terrs]
        elif name == "enlist":
            for r in range(NB):
                if self.recruits[p] >> r & 1:
                    continue
                for sp in range(len(D.ENLIST_SPACES)):
                    if not self.spaces[p] >> sp & 1:
                        out.append(Enlist(r, sp))
        return out

    def _apply_benefit(self, p: int, a: Action) -> None:
        if isinstance(a, Upgrade):
            self.top_up[p] |= 1 << a.box
            self.cubes[p * NB + a.bottom] += 1
            self._log(
                None, f"P{p} upgrades {D.TOP_BOXES[a.box]['id']} and {D.BOTTOM_ACTIONS[a.bottom]}"
            )
        elif isinstance(a, Deploy):
            self._set_mech(p, a.mech, a.loc)
            self.abil[p] |= D.MECH_ABILITY_BITS[self.faction[p]][a.mech]
            self._log(None, f"P{p} deploys the {a.ability} mech on {D.LOC_NAMES[a.loc]}")
        elif isinstance(a, Build):
            self.struct_loc[p * NS + a.structure] = a.loc
            self.struct_at[a.loc] = p * NS + a.structure
            self._ctrl = None
            self._log(None, f"P{p} builds a {D.STRUCTURES[a.structure]} on {D.LOC_NAMES[a.loc]}")
        elif isinstance(a, Enlist):
            self.recruits[p] |= 1 << a.recruit
            self.spaces[p] |= 1 << a.space
            self._log(
                None,
                f"P{p} enlists the {D.BOTTOM_ACTIONS[a.recruit]} recruit "
                f"({D.ENLIST_SPACE_IDS[a.space]})",
            )
            for what, amount in D.ENLIST_SPACES[a.space]["gain"].items():
                self._gain(p, what, amount)

    def _finish_bottom(self) -> None:
        """Section coins, recruit ongoing bonuses (SR-9), then stars (SR-10, SR-11)."""
        p = self.active
        b = self._bottom_index()
        coins = self._section_of_bottom(p, b)[5]
        if coins and self.bottom_coins:
            self._gain(p, "coins", coins)
        seats = [p]
        pos = self.order.index(p)
        left = self.order[(pos + 1) % self.n]
        right = self.order[(pos - 1) % self.n]
        for q in (left, right):
            if q not in seats:
                seats.append(q)
        for q in seats:
            recruits = self.recruits[q]
            if q == p and not self.game.options["oq18_enlist_pays_same_action"]:
                recruits = self.recruits_before
            if recruits >> b & 1:
                for what, amount in D.RECRUIT_BONUS[b].items():
                    self._gain(q, what, amount)
        if self._check_stars(p):
            self._end_game("sixth star")
            return
        for k in range(1, self.n):
            q = self.order[(pos + k) % self.n]
            if self._check_stars(q, tracks_only=True):
                self._end_game("sixth star from a recruit bonus")
                return
        self._finish_turn()

    # --- end of turn ---------------------------------------------------------------------------
    def _finish_turn(self) -> None:
        """The reveal window after the bottom action (SR-7, SR-51). It is offered whenever a
        reveal is possible by public facts (an objective held, the objective-star cap not
        reached, none revealed this turn), so its presence never tells others anything."""
        p = self.active
        cap = self._star_cap(p, D.STAR_INDEX["objective"])
        if (
            self.objectives[p]
            and not self.windows_used & WINDOW_OF_PHASE[END]
            and self.stars[p * NSTAR + D.STAR_INDEX["objective"]] < cap
        ):
            self.phase = END
            return
        self._end_turn()

    def _end_turn(self) -> None:
        p = self.active
        self.last_section[p] = self.section
        self.turns += 1
        pos = self.order.index(p)
        self.active = self.order[(pos + 1) % self.n]
        self._reset_turn()
        self.phase = SECTION

    # ------------------------------------------------------------------------------------------
    # applying decisions
    def _apply_decision(self, a: Action) -> None:
        ph = self.phase
        p = self._seat()
        if isinstance(a, Reveal):
            self._reveal(p, a.number)
            return
        if ph == SECTION:
            assert isinstance(a, ChooseSection)
            self.section = a.section
            if a.section == D.FACTORY_SECTION:
                self._log(None, f"P{p} chooses Factory card {self.factory_card[p]}")
            else:
                self._log(
                    None,
                    f"P{p} chooses section {a.section + 1} "
                    f"({self._top_name()}/{self._bottom_name()})",
                )
            self.phase = TOP
        elif ph == TOP:
            self._apply_top(p, a)
        elif ph == MOVE_UNIT:
            if isinstance(a, Done):
                self._end_movement()
            else:
                assert isinstance(a, SelectUnit)
                self._start_unit(p, a.kind, a.loc)
        elif ph == CARRY:
            assert isinstance(a, Carry)
            self._do_carry(p, a)
        elif ph == STEP:
            if isinstance(a, Stop):
                self._finish_unit(p)
            else:
                assert isinstance(a, Step)
                self._do_step(p, a.loc)
        elif ph == TRADE2:
            if isinstance(a, TradeResource):
                self._trade_token(p, a)
            self._after_top()
        elif ph == PRODUCE:
            if isinstance(a, Produce):
                self._produce_on(p, a.loc, a.amount)
                if self._produce_options(p):
                    return
            self._produce_done()
        elif ph == COMBAT_CHOOSE:
            assert isinstance(a, Fight)
            self._start_combat(a.loc)
        elif ph == ARTILLERY:
            assert isinstance(a, UseArtillery)
            if a.use:
                me = self.cb[4]
                opp = self.cb[2] if me == self.cb[1] else self.cb[1]
                self._log(None, f"P{me} fires Artillery")
                self._lose(me, "power", D.RULES["artillery"]["cost_power"])
                self._lose(opp, "power", D.RULES["artillery"]["opponent_loses"])
            self.cont = "_combat_step"
        elif ph == COMMIT:
            assert isinstance(a, Commit)
            self._commit(p, a)
        elif ph == RETREAT:
            assert isinstance(a, Retreat)
            self._retreat_loser(p, a.loc, a.workers)
        elif ph == ENC_OPTION:
            if isinstance(a, EncounterOption):
                self._choose_encounter_option(p, a.slot - 1, a.decline)
            else:
                self._enc_finish()
        elif ph == GRANT:
            self._apply_grant(p, a)
        elif ph == FACTORY_PICK:
            assert isinstance(a, TakeFactory)
            self._take_factory(p, a.number)
        elif ph == FPAY:
            assert isinstance(a, PayCard)
            self._factory_pay_card(p, a)
        elif ph == BOTTOM and self.section == D.FACTORY_SECTION:
            if isinstance(a, Skip):
                self._finish_turn()
            else:
                assert isinstance(a, SelectUnit)
                self._log(None, f"P{p} takes the Factory card's Move")
                self.fmove = True
                self.max_units = 1
                self._start_unit(p, a.kind, a.loc)
        elif ph == BOTTOM:
            if isinstance(a, Skip):
                self._finish_turn()
            else:
                assert isinstance(a, TakeBottom)
                b = self._bottom_index()
                self.bottom_taken = True
                self.bottom_coins = a.coins
                self.recruits_before = self.recruits[p]
                self.pay_res = self._section_of_bottom(p, b)[2]
                self.pay_left = self.bottom_cost(p, b)
                self._log(None, f"P{p} takes {D.BOTTOM_ACTIONS[b]}")
                self.phase = PAY
        elif ph == PAY:
            self._do_pay(a)
        elif ph == BENEFIT:
            if not isinstance(a, Skip):
                self._apply_benefit(p, a)
            self._finish_bottom()
        elif ph == END:
            self._end_turn()

    def _apply_top(self, p: int, a: Action) -> None:
        top = self._top_name()
        if isinstance(a, Skip):
            self._to_bottom()
            return
        if isinstance(a, FactoryTop):
            self._factory_top(p, a.decline)
            return
        if top == "move":
            if isinstance(a, MoveCoins):
                self._gain(p, "coins", a.amount or self._top_value(p, "move-coins"))
                self._after_top()
                return
            assert isinstance(a, SelectUnit)
            self.max_units = self._top_value(p, "move-units")
            self._start_unit(p, a.kind, a.loc)
            return
        if top == "bolster":
            assert isinstance(a, Bolster)
            self._lose(p, "coins", D.TOP_COSTS["bolster"]["coins"])
            if a.kind == "power":
                self._gain(p, "power", a.amount or self._top_value(p, "bolster-power"))
            else:
                self._gain(p, "combat_cards", a.amount or self._top_value(p, "bolster-cards"))
            if self._has_struct(p, D.MONUMENT):
                for what, amount in D.STRUCTURE_BONUS["monument"].items():
                    self._gain(p, what, amount)
            self._after_top()
            return
        if top == "trade":
            self._lose(p, "coins", D.TOP_COSTS["trade"]["coins"])
            if self._has_struct(p, D.ARMORY):
                for what, amount in D.STRUCTURE_BONUS["armory"].items():
                    self._gain(p, what, amount)
            if isinstance(a, TradePopularity):
                self._gain(p, "popularity", a.amount or self._top_value(p, "trade-popularity"))
                self._after_top()
                return
            assert isinstance(a, TradeResource)
            self._trade_token(p, a)
            self.phase = TRADE2
            return
        if top == "produce":
            assert isinstance(a, Produce)
            for what, amount in self.produce_cost(p).items():
                self._lose(p, what, amount)
            self.produced = []
            self._produce_on(p, a.loc, a.amount)
            if self._produce_options(p):
                self.phase = PRODUCE
            else:
                self._after_top()

    def _after_top(self) -> None:
        if self._check_stars(self.active):
            self._end_game("sixth star")
            return
        self._to_bottom()

    def _trade_token(self, p: int, a: TradeResource) -> None:
        self.res[a.loc * D.NRES + a.resource] += 1
        self._log(None, f"P{p} trades for 1 {D.RESOURCES[a.resource]} on {D.LOC_NAMES[a.loc]}")

    def _produce_count(self, p: int, loc: int) -> int:
        count = self.wk[loc * self.n + p]
        if self.struct_loc[p * NS + D.MILL] == loc and not self.prod_limit:
            count += 1  # SR-19: the Mill produces as one more worker
        return count

    def _produce_on(self, p: int, loc: int, amount: int = 0) -> None:
        self.produced.append(loc)
        count = self._produce_count(p, loc)
        if amount:
            count = min(count, amount)  # SR-12: part of the benefit
        prod = D.PRODUCT[loc]
        if prod == D.PRODUCE_WORKER:
            base = p * D.WORKERS_TOTAL
            made = 0
            for j in range(D.WORKERS_TOTAL):
                if made == count:
                    break
                if self.worker_loc[base + j] < 0:
                    self._set_worker(p, j, loc)
                    made += 1
            self._log(None, f"P{p} produces {made} worker(s) on {D.LOC_NAMES[loc]}")
        elif prod >= 0:
            self.res[loc * D.NRES + prod] += count
            self._log(None, f"P{p} produces {count} {D.RESOURCES[prod]} on {D.LOC_NAMES[loc]}")

    # ------------------------------------------------------------------------------------------
    # objectives (SR-51, OQ-3)
    def objective_holds(self, p: int, number: int) -> bool:
        """True if objective ``number``'s condition holds for ``p`` now (data predicate)."""
        test = D.OBJECTIVE_BY_NUMBER[number]["test"]
        pred = test["pred"]
        n = self.n
        self.controller(0)
        ctrl = self._ctrl
        assert ctrl is not None

        def mine() -> list[int]:
            return [t for t in range(D.NTERR) if ctrl[t] == p]

        def res_on(t: int) -> list[int]:
            return self.res[t * D.NRES : t * D.NRES + D.NRES]

        if pred == "control_terrain":
            ti = D.TERRAIN_INDEX[test["terrain"]]
            return sum(1 for t in mine() if D.TERRAIN[t] == ti) >= test["min"]
        if pred == "control_tunnels":
            return sum(1 for t in mine() if D.IS_TUNNEL[t]) >= test["min"]
        if pred == "factory_and_top_power":
            return ctrl[D.FACTORY_LOC] == p and self.power[p] >= max(self.power)
        if pred == "worker_retreated_and_power":
            return self.forced_retreat and p == self.active and self.power[p] >= test["min_power"]
        if pred == "factory_card_mechs_workers":
            return (
                self.factory_card[p] >= 0
                and self.mechs_out(p) >= test["min_mechs"]
                and self.workers_out(p) <= test["max_workers"]
            )
        if pred == "coins_workers_popularity":
            return (
                self.coins[p] <= test["max_coins"]
                and self.workers_out(p) >= test["min_workers"]
                and self.pop[p] >= test["min_popularity"]
            )
        if pred == "stockpile":
            return any(sum(res_on(t)) >= test["min"] and all(res_on(t)) for t in mine())
        if pred == "min_coins":
            return self.coins[p] >= test["min"]
        if pred == "pieces_on_one_territory":
            for t in mine():
                k = self.wk[t * n + p] + self.cm[t * n + p]
                s = self.struct_at[t]
                if s >= 0 and s // NS == p:
                    k += 1
                if k >= test["min"]:
                    return True
            return False
        if pred == "hedge":
            return (
                self.top_up[p] != 0
                and self.mechs_out(p) >= 1
                and self.structures_built(p) >= 1
                and self.recruits[p] != 0
                and all(sum(self.res[t * D.NRES + r] for t in mine()) for r in range(D.NRES))
            )
        if pred == "workers_equal_recruits":
            return self.workers_out(p) == bin(self.recruits[p]).count("1")
        if pred == "wolf":
            for t in mine():
                if (
                    self.char_loc[p] == t
                    and self.cm[t * n + p] - 1 == test["mechs"]
                    and self.wk[t * n + p] == test["workers"]
                    and sum(res_on(t)) >= test["min_resources"]
                ):
                    return True
            return False
        if pred == "no_factory_card_near_factory":
            near = sum(1 for t in D.GEO_TERR[D.FACTORY_LOC] if ctrl[t] == p)
            return self.factory_card[p] < 0 and near >= test["min"]
        if pred == "pacifist":
            return (
                self.power[p] <= test["max_power"]
                and self.pop[p] >= test["min_popularity"]
                and self.workers_out(p) >= test["min_workers"]
            )
        if pred == "shore":
            return any(
                sum(1 for t in D.GEO_TERR[lake] if ctrl[t] == p) >= test["min"] for lake in D.LAKES
            )
        if pred == "foothold":
            return (
                self.structures_built(p) >= test["min_structures"]
                and self.pop[p] >= test["min_popularity"]
                and self.mechs_out(p) <= test["max_mechs"]
            )
        if pred == "monopoly":
            return any(
                sum(self.res[t * D.NRES + r] for t in mine()) >= test["min"] for r in range(D.NRES)
            )
        if pred == "factory_card_no_upgrades":
            return (
                self.factory_card[p] >= 0 and bin(self.top_up[p]).count("1") <= test["max_upgrades"]
            )
        if pred == "tactical":
            return (
                sum(self.hand[p * NV : p * NV + NV]) >= test["min_cards"]
                and self.stars[p * NSTAR + D.STAR_INDEX["combat"]] >= test["min_combat_stars"]
            )
        raise ValueError(f"unknown objective predicate {pred!r}")  # pragma: no cover

    def _reveal(self, p: int, number: int) -> None:
        self.objectives[p].remove(number)
        self.obj_revealed.append(number)
        self.windows_used |= WINDOW_OF_PHASE.get(self.phase, 0)
        self._log(
            None, f"P{p} reveals objective {number} ({D.OBJECTIVE_BY_NUMBER[number]['name']})"
        )
        if not self.abil[p] & D.A_DOMINATE:
            # SR-51: the other card goes to the deck bottom unseen.
            for o in self.objectives[p]:
                self.obj_discarded[p].append(o)
                self._log(frozenset((p,)), f"P{p} discards objective {o}")
            if self.objectives[p]:
                self._log_public_only(f"P{p} discards an objective face down", p)
            self.objectives[p] = []
        if self._add_star(p, "objective"):
            self._end_game("sixth star from an objective")
            return
        if self.phase == END and not self._reveal_options(p):
            self._end_turn()

    # ------------------------------------------------------------------------------------------
    # end of game (SR-11, SR-53..SR-56)
    def _end_game(self, reason: str) -> None:
        p = self.active
        # OQ-9: units left in unresolved combats return with their cargo.
        for loc in self.combats:
            for kind, i, start, end, cargo_r, cargo_w in reversed(self.move_log):
                if end != loc or self._unit_loc(p, kind, i) != loc:
                    continue
                self._set_unit(p, kind, i, start)
                for j in cargo_w:
                    if self.worker_loc[p * D.WORKERS_TOTAL + j] == loc:
                        self._set_worker(p, j, start)
                for r in range(D.NRES):
                    take = min(cargo_r[r], self.res[loc * D.NRES + r])
                    self.res[loc * D.NRES + r] -= take
                    self.res[start * D.NRES + r] += take
        self.combats = []
        self.chance = []
        self.cont = None
        self.commits = None
        self.end_reason = reason
        self.final = [self.score_breakdown(q) for q in range(self.n)]
        keys = [self._rank_key(q) for q in range(self.n)]
        best = max(keys)
        winners = [q for q in range(self.n) if keys[q] == best]
        self.result = [1.0 / len(winners) if q in winners else 0.0 for q in range(self.n)]
        self._log(None, f"game over ({reason}); winners: {winners}")
        self.phase = OVER

    def tile_count(self, p: int) -> int:
        """What the structure bonus tile counts for ``p`` (OQ-1, OQ-2)."""
        tile = D.TILE_IDS[self.tile] if self.tile >= 0 else ""
        mine = [x for x in self.struct_loc[p * NS : p * NS + NS] if x >= 0]
        near: set[int] = set()
        for t in mine:
            near.update(d for d in D.GEO_TERR[t] if d != t)
        if tile == "adjacent_tunnels":
            return sum(1 for t in near if D.IS_TUNNEL[t])
        if tile == "adjacent_lakes":
            return sum(1 for t in near if D.IS_LAKE[t])
        if tile == "adjacent_encounters":
            return sum(1 for t in near if D.HAS_ENCOUNTER[t])
        if tile == "on_tunnels":
            return sum(1 for t in mine if D.IS_TUNNEL[t])
        if tile == "on_farms_or_tundra":
            ok = {D.TERRAIN_INDEX["farm"], D.TERRAIN_INDEX["tundra"]}
            return sum(1 for t in mine if D.TERRAIN[t] in ok)
        if tile == "in_a_row":
            have = set(mine)
            best = 1 if mine else 0
            for t in mine:
                q, r = D.AXIAL[t]
                for dq, dr in ((1, 0), (0, 1), (-1, 1)):
                    k = 1
                    while D.AXIAL_INDEX.get((q + dq * k, r + dr * k), -1) in have:
                        k += 1
                    best = max(best, k)
            return best
        return 0

    def score_breakdown(self, p: int) -> dict[str, Any]:
        """SR-53..SR-55: the fortune of ``p`` now, itemised."""
        b = D.band(self.pop[p])
        terr = 0
        resources = 0
        for t in range(D.NTERR):
            if self.controller(t) == p:
                terr += D.RULES["factory_territory_value"] if t == D.FACTORY_LOC else 1
                resources += sum(self.res[t * D.NRES : t * D.NRES + D.NRES])
        tile_coins = (
            D.ladder_coins(D.TILE_IDS[self.tile], self.tile_count(p)) if self.tile >= 0 else 0
        )
        stars = self.star_total[p]
        total = (
            self.coins[p]
            + stars * b["star"]
            + terr * b["territory"]
            + (resources // 2) * b["resources2"]
            + tile_coins
        )
        return {
            "coins": self.coins[p],
            "stars": stars,
            "star_coins": stars * b["star"],
            "territories": terr,
            "territory_coins": terr * b["territory"],
            "resources": resources,
            "resource_coins": (resources // 2) * b["resources2"],
            "tile_coins": tile_coins,
            "popularity": self.pop[p],
            "power": self.power[p],
            "units_and_structures": self.workers_out(p)
            + self.mechs_out(p)
            + self.structures_built(p),
            "fortune": total,
        }

    def _rank_key(self, p: int) -> tuple[int, ...]:
        s = self.final[p]
        return (s["fortune"], *(s[k] for k in D.RULES["tie_breakers"]))

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self.n
        return list(self.result)

    def scores(self) -> list[float]:
        if self.phase == OVER:
            return [float(s["fortune"]) for s in self.final]
        return [
            float(self.score_breakdown(p)["fortune"]) if self.tile >= 0 else 0.0
            for p in range(self.n)
        ]

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        out["end_reason"] = self.end_reason
        out["breakdown"] = (
            [self.final[p] if self.final else self.score_breakdown(p) for p in range(self.n)]
            if self.tile >= 0
            else []
        )
        out["factions"] = [D.FACTION_IDS[f] if f >= 0 else None for f in self.faction]
        out["mats"] = [D.MAT_IDS[m] if m >= 0 else None for m in self.mat]
        return out

    # ------------------------------------------------------------------------------------------
    # copies and views
    def clone(self) -> ScytheState:
        new = object.__new__(ScytheState)
        d = new.__dict__
        for k, v in self.__dict__.items():
            if type(v) is list:
                d[k] = v[:]
            else:
                d[k] = v
        new.objectives = [x[:] for x in self.objectives]
        new.obj_discarded = [x[:] for x in self.obj_discarded]
        new.commits = self.commits.copy() if self.commits is not None else None
        new._legal = None
        new._ctrl = None
        return new

    def full_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in sorted(self.__dict__.items()):
            if k in ("game", "_legal", "_ctrl", "log"):
                continue
            if k == "fdecline" and not v:
                continue  # empty: left out, so fingerprints match states before partial gains
            if k == "commits":
                v = None if v is None else {str(s): v.value_for(s) for s in v.seats}
            out[k] = v
        out["log"] = [[sorted(v) if v is not None else None, t] for v, t in self.log]
        return out

    def observation(self, seat: int | None) -> dict[str, Any]:
        check_seat(self, seat)
        n = self.n
        board: dict[str, Any] = {}
        for loc in range(D.NLOC):
            entry: dict[str, Any] = {}
            units = {}
            for q in range(n):
                w, c = self.wk[loc * n + q], self.cm[loc * n + q]
                if w or c:
                    ch = 1 if self.char_loc[q] == loc else 0
                    units[str(q)] = {"character": ch, "mechs": c - ch, "workers": w}
            if units:
                entry["units"] = units
            r = self.res[loc * D.NRES : loc * D.NRES + D.NRES]
            if any(r):
                entry["resources"] = {D.RESOURCES[i]: r[i] for i in range(D.NRES) if r[i]}
            s = self.struct_at[loc]
            if s >= 0:
                entry["structure"] = {"seat": s // NS, "kind": D.STRUCTURES[s % NS]}
            if self.token[loc]:
                entry["encounter_token"] = True
            if entry:
                entry["controller"] = self.controller(loc)
                board[D.LOC_NAMES[loc]] = entry
        players = []
        for q in range(n):
            pl: dict[str, Any] = {
                "seat": q,
                "faction": D.FACTION_IDS[self.faction[q]] if self.faction[q] >= 0 else None,
                "mat": D.MAT_IDS[self.mat[q]] if self.mat[q] >= 0 else None,
            }
            if self.faction[q] >= 0 and self.mat[q] >= 0 and self.order:
                pl.update(
                    {
                        "power": self.power[q],
                        "popularity": self.pop[q],
                        "coins": self.coins[q],
                        "stars": {
                            D.STAR_SOURCES[i]: self.stars[q * NSTAR + i]
                            for i in range(NSTAR)
                            if self.stars[q * NSTAR + i]
                        },
                        "star_total": self.star_total[q],
                        "combat_cards": sum(self.hand[q * NV : q * NV + NV]),
                        "objectives": len(self.objectives[q]),
                        "upgrades": [
                            D.TOP_BOXES[i]["id"]
                            for i in range(len(D.TOP_BOXES))
                            if self.top_up[q] >> i & 1
                        ],
                        "cubes": {D.BOTTOM_ACTIONS[b]: self.cubes[q * NB + b] for b in range(NB)},
                        "bottom_costs": {
                            D.BOTTOM_ACTIONS[b]: self.bottom_cost(q, b) for b in range(NB)
                        },
                        "recruits": [
                            D.BOTTOM_ACTIONS[b] for b in range(NB) if self.recruits[q] >> b & 1
                        ],
                        "enlist_spaces_used": [
                            D.ENLIST_SPACE_IDS[s]
                            for s in range(len(D.ENLIST_SPACES))
                            if self.spaces[q] >> s & 1
                        ],
                        "mechs": [
                            D.FACTIONS[self.faction[q]]["mech_abilities"][i]
                            for i in range(D.MECHS)
                            if self.mech_loc[q * D.MECHS + i] >= 0
                        ],
                        "structures": {
                            D.STRUCTURES[s]: D.LOC_NAMES[self.struct_loc[q * NS + s]]
                            for s in range(NS)
                            if self.struct_loc[q * NS + s] >= 0
                        },
                        "workers_out": self.workers_out(q),
                        "last_section": self.last_section[q] + 1
                        if self.last_section[q] >= 0
                        else None,
                        "factory_card": self.factory_card[q] if self.factory_card[q] >= 0 else None,
                    }
                )
            if seat == q:
                pl["hand"] = [
                    D.CARD_VALUES[i] for i in range(NV) for _ in range(self.hand[q * NV + i])
                ]
                pl["objective_cards"] = sorted(self.objectives[q])
                pl["discarded_objectives"] = sorted(self.obj_discarded[q])
            players.append(pl)
        obs: dict[str, Any] = {
            "game": "scythe",
            "seat": seat,
            "players": n,
            "turn": self.turns,
            "active": self.active,
            "order": list(self.order),
            "phase": PHASE_NAMES[self.phase],
            "current": self.current_player(),
            "prompt": None,
            "tile": D.TILE_IDS[self.tile] if self.tile >= 0 else None,
            "combat_deck": sum(self.deck),
            "combat_discard": {
                str(D.CARD_VALUES[i]): self.discard[i] for i in range(NV) if self.discard[i]
            },
            "factory_offer": len(self.offer),
            "revealed_objectives": list(self.obj_revealed),
            "encounter_deck": {
                "unknown": len(self._enc_unknown()),
                "bottom": list(self.enc_bottom),
            },
            "board": board,
            "player_state": players,
        }
        pr = self.prompt()
        if pr is not None:
            obs["prompt"] = pr.to_json()
        if self.phase in (
            TOP,
            MOVE_UNIT,
            CARRY,
            STEP,
            TRADE2,
            PRODUCE,
            COMBAT_CHOOSE,
            ARTILLERY,
            COMMIT,
            RETREAT,
            BOTTOM,
            PAY,
            BENEFIT,
            END,
            ENC_OPTION,
            GRANT,
            FACTORY_PICK,
            FPAY,
        ):
            obs["section"] = self.section + 1 if self.section >= 0 else None
            obs["units_moved"] = self.units_moved
            if self.sel[0] >= 0:
                obs["selected"] = {
                    "kind": ("character", "mech", "worker")[self.sel[0]],
                    "at": D.LOC_NAMES[self._unit_loc(self.active, *self.sel)],
                    "carrying": {
                        "workers": len(self.cargo_w),
                        **{
                            D.RESOURCES[r]: self.cargo_r[r]
                            for r in range(D.NRES)
                            if self.cargo_r[r]
                        },
                    },
                }
            if self.combats:
                obs["combats"] = [D.LOC_NAMES[t] for t in self.combats]
        if self.cb and self.phase != OVER:
            cview: dict[str, Any] = {
                "territory": D.LOC_NAMES[self.cb[0]],
                "attacker": self.cb[1],
                "defender": self.cb[2],
            }
            if self.commits is not None:
                cview["commitments"] = self.commits.view(seat)
            obs["combat"] = cview
        if self.enc_card >= 0:
            obs["encounter"] = {
                "card": self.enc_card,
                "territory": D.LOC_NAMES[self.enc_loc],
                "options": D.ENCOUNTER_BY_NUMBER[self.enc_card]["options"],
                "chosen": [k + 1 for k in self.enc_chosen],
            }
        if self.grants and self.phase == GRANT:
            obs["pending_gains"] = [list(g) for g in self.grants]
        if seat is not None and self.offer_seen[seat]:
            obs["factory_offer_cards"] = sorted(self.offer)
        if seat is not None:
            known = {}
            for h in range(n):
                k = self.known[(seat * n + h) * NV : (seat * n + h) * NV + NV]
                if h != seat and any(k):
                    known[str(h)] = [D.CARD_VALUES[i] for i in range(NV) for _ in range(k[i])]
            if known:
                obs["known_cards"] = known
        if self.phase == OVER:
            obs["result"] = {
                "returns": self.returns(),
                "breakdown": self.final,
                "reason": self.end_reason,
            }
        obs["log"] = visible_log(self.log, seat if seat is not None else -1)
        return obs

    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> ScytheState:
        """Redraw what ``seat`` cannot know: others' cards and objectives, unseen offers."""
        check_seat(self, seat)
        s = self.clone()
        n = self.n
        if not s.order:
            return s  # before the deal completes nothing secret exists yet
        others = [q for q in range(n) if q != seat]
        # combat cards: pool = deck + others' hands minus what seat knows about them
        pool = list(s.deck)
        sizes = {}
        for q in others:
            sizes[q] = sum(s.hand[q * NV : q * NV + NV])
            for i in range(NV):
                kn = s.known[(seat * n + q) * NV + i] if seat is not None else 0
                pool[i] += s.hand[q * NV + i] - kn
        cards = [i for i in range(NV) for _ in range(pool[i])]
        rng.shuffle(cards)
        for q in others:
            for i in range(NV):
                kn = s.known[(seat * n + q) * NV + i] if seat is not None else 0
                s.hand[q * NV + i] = kn
            need = sizes[q] - sum(s.hand[q * NV : q * NV + NV])
            for _ in range(need):
                s.hand[q * NV + cards.pop()] += 1
        s.deck = [0] * NV
        for i in cards:
            s.deck[i] += 1
        # a pending commitment by someone else is redrawn from the new hand
        if s.commits is not None and not s.commits.revealed:
            old = s.commits
            new = Commitments(old.seats)
            for q in old.seats:
                val = old.value_for(q)
                if val is None:
                    continue
                if q != seat:
                    opts = s._commit_options(q)
                    pick = opts[rng.randrange(len(opts))]
                    assert isinstance(pick, Commit)
                    val = [pick.dial, list(pick.cards)]
                new.commit(q, val)
            s.commits = new
        # objectives
        known_obj = set(s.obj_revealed)
        if seat is not None:
            known_obj |= set(s.objectives[seat]) | set(s.obj_discarded[seat])
        opool = [o["number"] for o in D.OBJECTIVES if o["number"] not in known_obj]
        rng.shuffle(opool)
        for q in others:
            s.objectives[q] = sorted(opool.pop() for _ in s.objectives[q])
            s.obj_discarded[q] = [opool.pop() for _ in s.obj_discarded[q]]
        # factory offer, unless seat has seen it
        if seat is None or not s.offer_seen[seat]:
            held = {c for c in s.factory_card if c >= 0}
            fpool = [c for c in D.FACTORY_NUMBERS if c not in held]
            rng.shuffle(fpool)
            s.offer = [fpool.pop() for _ in s.offer]
        s._legal = None
        return s


__all__ = ["ScytheState", "count_deals"]
