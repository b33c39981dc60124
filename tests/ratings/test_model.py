"""The rating maths (issue 30, point 3; docs/ratings.md): OpenSkill's Plackett–Luce update,
bots fixed, ties, leavers last, eight players, the families and the displayed rating."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from hexfolk.bots.registry import LEVELS
from hexfolk.core import game_class
from hexfolk.ratings import (
    BOT_SKILLS,
    DEFAULT,
    FAMILIES,
    Entrant,
    Skill,
    UnratedGame,
    bot_skill,
    displayed,
    families_of,
    family_of,
    placings,
    rate,
)


def test_a_winner_gains_and_a_loser_loses_as_openskill_computes() -> None:
    a, b = rate([Entrant(DEFAULT, 0), Entrant(DEFAULT, 1)])
    assert a.mu > DEFAULT.mu > b.mu
    assert displayed(a) > displayed(DEFAULT) > displayed(b)
    model = PlackettLuce()
    [[ra], [rb]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    assert (a.mu, a.sigma, b.mu, b.sigma) == (ra.mu, ra.sigma, rb.mu, rb.sigma)


def test_bots_never_change_but_count_as_opponents() -> None:
    hard = bot_skill("hard")
    person_vs_hard, bot_after = rate([Entrant(DEFAULT, 0), Entrant(hard, 1, fixed=True)])
    assert bot_after == hard
    person_vs_random, _ = rate([Entrant(DEFAULT, 0), Entrant(bot_skill("random"), 1, fixed=True)])
    # beating the hard bot says more than beating the random one
    assert person_vs_hard.mu > person_vs_random.mu > DEFAULT.mu
    lost, still = rate([Entrant(DEFAULT, 1), Entrant(hard, 0, fixed=True)])
    assert lost.mu < DEFAULT.mu and still == hard


def test_every_bot_level_has_a_published_rating_ordered_by_strength() -> None:
    assert set(BOT_SKILLS) == {*LEVELS, "random"}
    mus = [BOT_SKILLS[level].mu for level in ("random", "easy", "medium", "hard")]
    assert mus == sorted(mus)
    with pytest.raises(ValueError, match="no published rating"):
        bot_skill("grandmaster")


def test_a_tie_gives_equal_players_equal_skills() -> None:
    a, b, c = rate([Entrant(DEFAULT, 0), Entrant(DEFAULT, 0), Entrant(DEFAULT, 2)])
    assert a == b
    assert a.mu > c.mu
    draw = rate([Entrant(DEFAULT, 0), Entrant(DEFAULT, 0)])
    assert draw[0].mu == pytest.approx(DEFAULT.mu) and draw[0].sigma < DEFAULT.sigma


def test_eight_players_in_order_of_their_places() -> None:
    after = rate([Entrant(DEFAULT, place) for place in range(8)])
    mus = [s.mu for s in after]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > DEFAULT.mu > mus[7]
    with pytest.raises(ValueError, match=r"2\.\.8 seats"):
        rate([Entrant(DEFAULT, place) for place in range(9)])


def test_places_from_a_result_winners_first_then_scores_ties_shared() -> None:
    # the island game: one winner, the others by VP
    assert placings({"winners": [2], "scores": [5, 7, 10, 7], "returns": [0, 0, 1, 0]}) == [
        3,
        1,
        0,
        1,
    ]
    # a shared win (Scythe splits the returns)
    shared = {"winners": [0, 1], "scores": [40, 40, 20], "returns": [0.5, 0.5, 0]}
    assert placings(shared) == [0, 0, 2]


def test_a_leaver_finishes_last_whatever_the_seat_scored() -> None:
    result = {"winners": [2], "scores": [5, 7, 10, 7], "returns": [0, 0, 1, 0]}
    assert placings(result, leavers={2}) == [2, 0, 3, 0]
    assert placings(result, leavers={0, 2}) == [2, 0, 2, 0]


def test_families_cover_every_player_count_of_each_game() -> None:
    for game, families in FAMILIES.items():
        cls = game_class(game)
        counts = range(cls.min_players, cls.max_players + 1)
        assert [n for low, high, _ in families for n in range(low, high + 1)] == list(counts)
    assert family_of("island", 2) == "2p"
    assert family_of("island", 4) == "3-4p"
    assert family_of("island", 8) == "5-8p"
    assert family_of("scythe", 5) == "3-5p"
    assert families_of("scythe") == ["2p", "3-5p"]
    with pytest.raises(UnratedGame):
        family_of("chess", 2)


def test_the_displayed_rating_is_1000_plus_40_ordinals() -> None:
    assert displayed(DEFAULT) == 1000
    assert displayed(Skill(30.0, 2.0)) == 1000 + 40 * 24
    assert displayed(Skill(0.0, 9.0)) == 0
