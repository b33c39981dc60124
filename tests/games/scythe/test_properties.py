"""Property tests over seeded random games: resources, coins, units, cards and stars change
only as the rules allow."""

from __future__ import annotations

import pytest

from hexfolk.core import CHANCE, TERMINAL, load_game
from hexfolk.core.rng import make_rng
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.phases import SECTION
from hexfolk.games.scythe.state import ScytheState

NV = len(D.CARD_VALUES)
NSTAR = len(D.STAR_SOURCES)


def check_invariants(s: ScytheState) -> None:
    n = s.n
    # SR-46 / SR-59: every combat card is in the deck, the discard pile or a hand
    for i in range(NV):
        held = sum(s.hand[p * NV + i] for p in range(n))
        assert s.combat_deck[i] + s.combat_discard[i] + held == D.DECK_COUNTS[i]
        assert s.combat_deck[i] >= 0 and s.combat_discard[i] >= 0
    assert all(x >= 0 for x in s.resources)
    for p in range(n):
        assert 0 <= s.power[p] <= D.POWER_MAX  # SR-15
        assert 0 <= s.popularity[p] <= D.POP_MAX
        assert s.coins[p] >= 0
        assert s.star_total[p] == sum(s.stars[p * NSTAR : (p + 1) * NSTAR]) <= D.STARS_TO_END
        assert s.stars[p * NSTAR + D.STAR_INDEX["combat"]] <= (
            99 if s.faction[p] == D.FACTION_INDEX["saxony"] else 2
        )
        # unit tables agree with the unit positions
        for loc in range(D.NLOC):
            w = sum(
                1 for x in s.worker_loc[p * D.WORKERS_TOTAL : (p + 1) * D.WORKERS_TOTAL] if x == loc
            )
            c = sum(1 for x in s.mech_loc[p * D.MECHS : (p + 1) * D.MECHS] if x == loc)
            c += 1 if s.character_loc[p] == loc else 0
            assert s.workers_on[loc * n + p] == w and s.combat_units_on[loc * n + p] == c
            if D.IS_LAKE[loc]:
                assert w == 0  # SR-28/SR-35: no worker is left on a lake
            if D.IS_HOME[loc] and loc != D.HOME_OF[s.faction[p]] and w + c:
                # SR-29: no Move enters a home base except Wayfare (carrying allowed, OQ-12)
                assert s.abilities[p] & D.A_WAYFARE
                assert D.HOME_BASE_FACTION[loc] not in [D.FACTION_IDS[f] for f in s.faction]
        for k in range(len(D.STRUCTURES)):
            loc = s.structure_loc[p * len(D.STRUCTURES) + k]
            if loc >= 0:
                assert s.structure_at[loc] == p * len(D.STRUCTURES) + k and not D.IS_LAKE[loc]
    if s.phase == SECTION:
        # between turns no territory holds units of two players (SR-31, SR-42)
        for t in range(D.NTERR):
            owners = [
                q for q in range(n) if s.workers_on[t * n + q] or s.combat_units_on[t * n + q]
            ]
            assert len(owners) <= 1


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (4, 3), (5, 4)])
def test_random_games_keep_the_invariants(players: int, seed: int) -> None:
    game = load_game("scythe", players)
    s = game.new_initial_state()
    assert isinstance(s, ScytheState)
    rng = make_rng(seed, "props")
    steps = 0
    while s.current_player() != TERMINAL and s.turn_count() < 250:
        stars = list(s.star_total)
        coins = list(s.coins)
        active = s.active
        ready = bool(s.order)
        if s.current_player() == CHANCE:
            a = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            a = legal[rng.randrange(len(legal))]
        s.apply(a)
        steps += 1
        if ready:
            check_invariants(s)
            # SR-50: stars are never lost
            assert all(x >= y for x, y in zip(s.star_total, stars))
            # coins of players not taking the turn only rise by a Deploy recruit bonus
            for q in range(players):
                if q != active:
                    assert coins[q] <= s.coins[q] <= coins[q] + 1
    if s.is_terminal():
        assert s.scores() == [float(b["fortune"]) for b in s.summary()["breakdown"]]
        assert abs(sum(s.returns()) - 1.0) < 1e-9
