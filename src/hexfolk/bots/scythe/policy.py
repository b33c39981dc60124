"""A cheap rule-based Scythe policy that decides prompt by prompt.

:class:`RulePolicy` scores every legal action of the pending prompt with a few lines of
Scythe judgement (no copies of the state, so it is fast enough for rollouts) and plays the
best, optionally with noise. It reads only public facts and the acting seat's own hand (and,
in a combat, :mod:`.combat`'s estimates), so inside a sampled world it plays as it would on the
real state. Prompts it does not know (content added later) fall back to a one-step greedy
search with :func:`.evaluation.potential`.

Rules in brief:

* section: the bottom action is worth a lot when affordable and useful (its coins too); the
  top action by what it brings (moves that gain territory, production, needed resources);
* move: units step onto territories nobody controls, the character towards encounter tokens
  and the Factory; a fight is picked only when :func:`.combat.win_chance` is good; the last
  unit on a territory carries its resources along;
* produce / trade: what the affordable bottom actions lack, then workers, then anything;
* bottom: taken whenever useful; benefits by fixed preferences (upgrades that lower the
  dearest bottom cost, Speed mechs first, a Mill where workers produce, enlist bonuses);
* objectives are revealed as soon as they hold (a star).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hexfolk.bots.scythe import combat
from hexfolk.bots.scythe.evaluation import available_resources, benefit_available, potential
from hexfolk.bots.scythe.weights import DEFAULT, Weights
from hexfolk.core import Action, State
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    Bolster,
    Build,
    Carry,
    ChooseSection,
    Deploy,
    EndTurn,
    Enlist,
    MoveCoins,
    Pay,
    PayCard,
    Produce,
    Reveal,
    SelectUnit,
    Step,
    Stop,
    TakeBottom,
    TradePopularity,
    TradeResource,
    Upgrade,
    UseArtillery,
)
from hexfolk.games.scythe.position import CHARACTER, NSTAR, WORKER
from hexfolk.games.scythe.state import ScytheState

_CONTEXT_KINDS = frozenset(
    (
        "top-action",
        "choose-unit",
        "trade-second-token",
        "produce",
        "bottom-action",
        "end-turn",
        "benefit",
        "pay",
    )
)
"""Prompt kinds scored action by action with the turn's context (:class:`_Ctx`)."""

NV = len(D.CARD_VALUES)
NB = len(D.BOTTOM_ACTIONS)
NS = len(D.STRUCTURES)
_UPGRADE, _DEPLOY, _BUILD, _ENLIST = (
    D.BOTTOM_INDEX[b] for b in ("upgrade", "deploy", "build", "enlist")
)
_FACTORY_VALUE: int = D.RULES["factory_territory_value"]

# bot preferences (judgement, not rules)
BOTTOM_VALUE = {_UPGRADE: 4.0, _DEPLOY: 4.5, _BUILD: 3.0, _ENLIST: 4.0}
BOX_PREFERENCE = {
    "produce-territories": 3.0,
    "move-units": 2.6,
    "bolster-power": 2.2,
    "trade-popularity": 2.0,
    "move-coins": 1.6,
    "bolster-cards": 1.2,
}
ABILITY_PREFERENCE = {"speed": 2.0, "riverwalk": 1.5}
STRUCTURE_PREFERENCE = {"mill": 1.0, "monument": 0.8, "armory": 0.6, "mine": 0.5}
RECRUIT_PREFERENCE = {"deploy": 1.0, "enlist": 0.8, "build": 0.7, "upgrade": 0.6}
REVEAL = 100.0


def resource_needs(s: ScytheState, p: int, avail: list[int] | None = None) -> list[int]:
    """Per resource: how many more ``p`` needs to afford its useful bottom actions."""
    if avail is None:
        avail = available_resources(s, p, s.control())
    need = [0] * D.NRES
    for sec in D.SECTIONS[s.mat[p]]:
        b, r = sec[1], sec[2]
        if benefit_available(s, p, b):
            need[r] = max(need[r], s.bottom_cost(p, b) - avail[r])
    return need


class RulePolicy:
    """The rule-based policy; ``noise`` adds Gaussian noise (coins) to every score and
    ``epsilon`` plays a uniformly random legal action that often (easy bot)."""

    def __init__(
        self,
        w: Weights = DEFAULT,
        noise: float = 0.0,
        epsilon: float = 0.0,
        commit_noise: float = 1.0,
    ):
        self.w = w
        self.noise = noise
        self.epsilon = epsilon
        self.commit_noise = commit_noise

    # -- the RolloutPolicy signature ----------------------------------------------------------
    def __call__(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        return self.choose(state, legal, rng)

    def choose(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick an action for the seat to move in ``state`` (a full, possibly sampled, world)."""
        if len(legal) == 1:
            return legal[0]
        assert isinstance(state, ScytheState)
        if self.epsilon and rng.random() < self.epsilon:
            return legal[int(rng.random() * len(legal))]
        if state.prompt_kind() == "commit":
            return combat.choose_commit(
                state, state.current_player(), legal, rng, self.w, self.commit_noise
            )
        scores = self.scores(state, legal, rng)
        if self.noise:
            scores = [x + rng.gauss(0.0, self.noise) for x in scores]
        best = max(range(len(legal)), key=lambda i: scores[i])
        return legal[best]

    # -- scoring ---------------------------------------------------------------------------------
    def scores(
        self, s: ScytheState, legal: Sequence[Action], rng: random.Random | None = None
    ) -> list[float]:
        """A rule score per legal action (higher is better), deterministic."""
        kind = s.prompt_kind()
        p = s.current_player()
        if kind == "choose-section":
            ctx = _Ctx(s, p, self.w)
            return [self._section(ctx, a) for a in legal]
        if kind in _CONTEXT_KINDS:
            ctx = _Ctx(s, p, self.w)
            return [ctx.score(a) for a in legal]
        if kind == "carry":
            return self._carry(s, p, legal)
        if kind == "step":
            ctx = _Ctx(s, p, self.w)
            return [ctx.step(a) for a in legal]
        if kind == "artillery":
            assert s.combat is not None
            me = s.combat.artillery_seat
            opp = s.combat.defender if me == s.combat.attacker else s.combat.attacker
            useful = s.power[me] >= 2 and s.power[opp] >= 1
            return [1.0 if isinstance(a, UseArtillery) and a.use == useful else 0.0 for a in legal]
        if kind in ("choose-combat", "retreat"):
            return [-float(i) for i in range(len(legal))]
        return self._greedy(s, p, legal, rng)

    def _greedy(
        self, s: ScytheState, p: int, legal: Sequence[Action], rng: random.Random | None
    ) -> list[float]:
        """Unknown prompt: one step of search with the potential (at most 16 tried)."""
        idx = list(range(len(legal)))
        if len(idx) > 16 and rng is not None:
            rng.shuffle(idx)
        tried = set(idx[:16])
        out = []
        for i, a in enumerate(legal):
            if i not in tried:
                out.append(-1e9)
                continue
            c = s.clone()
            c.apply_unchecked(a)
            if c.is_terminal():
                out.append(1e6 * c.returns()[p])
            else:
                out.append(potential(c, p, self.w))
        return out

    def _section(self, ctx: _Ctx, a: Action) -> float:
        s, p = ctx.s, ctx.p
        if not isinstance(a, ChooseSection) or a.section >= D.MAT_SECTIONS:
            return 0.0
        top, b, r, _cost, _min, coins = D.SECTIONS[s.mat[p]][a.section]
        sc = 0.0
        if benefit_available(s, p, b) and ctx.avail[r] >= s.bottom_cost(p, b):
            sc += BOTTOM_VALUE[b] + coins
        sc += ctx.top_value(top)
        return sc

    def _carry(self, s: ScytheState, p: int, legal: Sequence[Action]) -> list[float]:
        kind, i = (s.move.kind, s.move.index)
        loc = s.unit_location(p, kind, i)
        n = s.n
        alone = (
            loc < D.NTERR
            and s.workers_on[loc * n + p] + s.combat_units_on[loc * n + p] <= 1
            and not (s.structure_at[loc] >= 0 and s.structure_at[loc] // NS == p)
        )
        out = []
        for a in legal:
            if not isinstance(a, Carry):
                out.append(-1.0)
                continue
            res = sum(a.resources)
            if alone:
                out.append(res - 0.1 * a.workers)
            else:
                out.append(-res - a.workers + (0.5 if a.workers and s.move.steps_taken else 0.0))
        return out


class _Ctx:
    """Per-decision cached facts for scoring one prompt's actions."""

    def __init__(self, s: ScytheState, p: int, w: Weights):
        self.s = s
        self.p = p
        self.w = w
        ctrl = s.control()
        self.ctrl = ctrl
        self.band = D.band(s.popularity[p])
        self.avail = available_resources(s, p, ctrl)
        self.need = resource_needs(s, p, self.avail)
        self.workers_left = D.WORKERS_TOTAL - s.workers_out(p)

    # values of things, in coins ----------------------------------------------------------------
    def res_value(self, r: int, k: int = 1) -> float:
        need = self.need[r]
        return min(k, need) * 1.3 + max(0, k - need) * 0.45

    def territory_value(self, t: int) -> float:
        v = float(self.band["territory"])
        return v * _FACTORY_VALUE if t == D.FACTORY_LOC else v

    def produce_value(self, t: int) -> float:
        s = self.s
        prod = D.PRODUCT[t]
        count = s.produce_count(self.p, t)
        if prod == D.PRODUCE_WORKER:
            return min(count, self.workers_left) * self.w.worker
        if prod >= 0:
            return self.res_value(prod, count)
        return 0.0

    def top_value(self, top: str) -> float:
        s, p = self.s, self.p
        if top == "move":
            coins = float(s.top_value(p, "move-coins"))
            best = [self.unit_value(k, loc) for k, loc in self.movable()]
            best.sort(reverse=True)
            moves = sum(x for x in best[: s.top_value(p, "move-units")] if x > 0)
            return max(coins, moves)
        if top == "produce":
            if not s.can_pay_track(p, s.produce_cost(p)):
                return 0.0
            vals = sorted((self.produce_value(t) for t in s.produce_territories(p)), reverse=True)
            k = s.top_value(p, "produce-territories")
            return sum(vals[:k]) - 0.5 * sum(s.produce_cost(p).values())
        if s.coins[p] < 1:
            return 0.0
        if top == "bolster":
            return max(self.bolster_value("power"), self.bolster_value("cards")) - 1.0
        if top == "trade":
            trade = 0.0
            if self.has_worker_land():
                trade = max(self.res_value(r, 2) for r in range(D.NRES))
            return max(trade, self.popularity_value(s.top_value(p, "trade-popularity"))) - 1.0
        return 0.0

    def has_worker_land(self) -> bool:
        s, n, p = self.s, self.s.n, self.p
        return any(s.workers_on[t * n + p] and self.ctrl[t] == p for t in range(D.NTERR))

    def bolster_value(self, kind: str) -> float:
        s, p, w = self.s, self.p, self.w
        if kind == "power":
            k = s.top_value(p, "bolster-power")
            room = max(0, min(k, w.power_cap + 2 - s.power[p]))
            low = 1.5 if s.power[p] < 4 else 0.0
            return room * w.power * 1.6 + low
        k = s.top_value(p, "bolster-cards")
        cards = sum(s.hand[p * NV : p * NV + NV])
        return max(0, min(k, w.card_cap - cards)) * w.card * 1.4

    def popularity_value(self, k: int) -> float:
        pop = self.s.popularity[self.p]
        v = k * self.w.popularity
        for edge in (7, 13):
            if pop < edge <= pop + k:
                v += 3.0
            elif pop < edge <= pop + k + 2:
                v += 0.8
        return v if pop < D.POP_MAX else 0.0

    # movement -----------------------------------------------------------------------------------
    def movable(self) -> list[tuple[int, int]]:
        s, p = self.s, self.p
        out: list[tuple[int, int]] = []
        for a in s.movable_units(p):
            assert isinstance(a, SelectUnit)
            out.append((a.kind, a.loc))
        return out

    def leave_cost(self, kind: int, loc: int) -> float:
        """What leaving ``loc`` with one unit of ``kind`` loses (control, resources)."""
        s, p, n = self.s, self.p, self.s.n
        if loc >= D.NTERR:
            return 0.0
        if s.workers_on[loc * n + p] + s.combat_units_on[loc * n + p] > 1:
            return 0.0
        if s.structure_at[loc] >= 0 and s.structure_at[loc] // NS == p:
            return 0.0
        res = sum(s.resources[loc * D.NRES : loc * D.NRES + D.NRES])
        return self.territory_value(loc) + 0.2 * res

    def dest_value(self, kind: int, dest: int, extra_cm: int = 1) -> float:
        """What stepping a unit of ``kind`` onto ``dest`` gains."""
        s, p, n, w = self.s, self.p, self.s.n, self.w
        if dest >= D.NTERR:
            return -0.5
        owner = self.ctrl[dest]
        v = 0.0
        if kind != WORKER:
            q = s.enemy_with_combat_units(p, dest)
            if q >= 0:
                slots = s.combat_units_on[dest * n + p] + extra_cm
                wc = combat.win_chance(s, p, q, dest, slots, True)
                star = 0.0
                if s.stars[p * NSTAR + D.STAR_INDEX["combat"]] < s.star_cap(p, "combat"):
                    star = self.band["star"] + w.star_extra
                gain = star + self.territory_value(dest) + 1.0
                return wc * gain - (1 - wc) * 3.0 - 1.5
            workers = sum(s.workers_on[dest * n + q] for q in range(n) if q != p)
            if workers:
                return self.territory_value(dest) + 1.0 - workers * (w.popularity + 1.2)
            if kind == CHARACTER:
                if s.encounter_tokens[dest]:
                    v += 3.0
                if dest == D.FACTORY_LOC and s.factory_card[p] < 0 and s.factory_offer:
                    v += 3.0
        if owner == p:
            return v + (0.2 if kind == WORKER and D.PRODUCT[dest] == D.PRODUCE_WORKER else 0.0)
        if owner >= 0:
            return v - 1.0  # a structure of someone else: nothing to gain
        v += self.territory_value(dest)
        if D.IS_LAKE[dest]:
            v -= 0.5
        if kind == WORKER:
            prod = D.PRODUCT[dest]
            if prod == D.PRODUCE_WORKER and self.workers_left:
                v += 1.0
            elif prod >= 0:
                v += 0.4 + (0.6 if self.need[prod] else 0.0)
        return v

    def unit_value(self, kind: int, loc: int) -> float:
        s, p = self.s, self.p
        dests = s.destinations(p, kind, loc)
        if not dests:
            return -1.0
        best = max(self.dest_value(kind, d) for d in dests)
        return best - self.leave_cost(kind, loc)

    def step(self, a: Action) -> float:
        s, p = self.s, self.p
        kind, i = (s.move.kind, s.move.index)
        if isinstance(a, Stop):
            return 0.5
        if isinstance(a, Step):
            v = self.dest_value(kind, a.loc)
            if s.move.steps_taken:
                here = s.unit_location(p, kind, i)
                v -= self.dest_value(kind, here) if self.ctrl[here] != p else 0.0
            return v
        return 0.0

    # one action of a simple prompt ----------------------------------------------------------------
    def score(self, a: Action) -> float:
        s, p, w = self.s, self.p, self.w
        if isinstance(a, Reveal):
            return REVEAL
        if isinstance(a, (TakeBottom,)):
            return 5.0 if benefit_available(s, p, s.bottom_action()) else -1.0
        if isinstance(a, EndTurn):
            return 0.0
        if isinstance(a, MoveCoins):
            return float(s.top_value(p, "move-coins"))
        if isinstance(a, SelectUnit):
            return self.unit_value(a.kind, a.loc) - 0.3
        if isinstance(a, Bolster):
            return self.bolster_value(a.kind) - (1.0 if s.prompt_kind() == "top-action" else 0.0)
        if isinstance(a, TradePopularity):
            return self.popularity_value(s.top_value(p, "trade-popularity")) - 1.0
        if isinstance(a, TradeResource):
            k = 2 if s.prompt_kind() == "top-action" else 1
            safe = 0.05 * (s.workers_on[a.loc * s.n + p] + s.combat_units_on[a.loc * s.n + p])
            return (
                self.res_value(a.resource, k)
                - (1.0 if s.prompt_kind() == "top-action" else 0.0)
                + safe
            )
        if isinstance(a, Produce):
            return self.produce_value(a.loc) - (0.01 if s.prompt_kind() == "top-action" else 0.0)
        if isinstance(a, Pay):
            return s.resources[a.loc * D.NRES + a.resource] + 0.1 * s.workers_on[a.loc * s.n + p]
        if isinstance(a, PayCard):
            return -5.0
        if isinstance(a, Upgrade):
            box = D.TOP_BOXES[a.box]["id"]
            return BOX_PREFERENCE.get(box, 1.0) + 0.4 * s.bottom_cost(p, a.bottom)
        if isinstance(a, Deploy):
            return ABILITY_PREFERENCE.get(a.ability, 1.0) + self.frontier(a.loc)
        if isinstance(a, Build):
            return self.build_value(a)
        if isinstance(a, Enlist):
            gain = D.ENLIST_SPACES[a.space]["gain"]
            v = 0.0
            for what, k in gain.items():
                if what == "coins":
                    v += k
                elif what == "power":
                    v += k * w.power * 1.5
                elif what == "popularity":
                    v += self.popularity_value(k)
                else:
                    v += k * w.card
            return v + RECRUIT_PREFERENCE.get(D.BOTTOM_ACTIONS[a.recruit], 0.5)
        return 0.0  # skip, done

    def frontier(self, t: int) -> float:
        """Unclaimed land next to ``t`` (where a mech there can spread control)."""
        return 0.3 * sum(1 for d in D.GEO_TERR[t] if self.ctrl[d] < 0 and not D.IS_LAKE[d])

    def build_value(self, a: Build) -> float:
        s, p = self.s, self.p
        name = D.STRUCTURES[a.structure]
        v = STRUCTURE_PREFERENCE.get(name, 0.5)
        if name == "mill":
            v += 0.5 * self.produce_value(a.loc)
        if s.structure_tile >= 0:
            tile = D.TILE_IDS[s.structure_tile]
            k = p * NS + a.structure
            before = D.ladder_coins(tile, s.tile_count(p))
            old = s.structure_loc[k]
            s.structure_loc[k] = a.loc
            after = D.ladder_coins(tile, s.tile_count(p))
            s.structure_loc[k] = old
            v += after - before
        return v


__all__ = ["RulePolicy", "benefit_available", "resource_needs"]
