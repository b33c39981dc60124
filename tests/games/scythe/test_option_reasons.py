"""Scythe's option problems as data (issue 27, point 11): every problem of ``factions`` and
``mats`` comes as a ``{code, params, rule}`` beside its sentence, so the create form says each
one in the page's language; a misspelt name does not hide a banned pair (SR-58)."""

from __future__ import annotations

import pickle

import pytest

from hexfolk.core import OptionError
from hexfolk.games.scythe.game import ScytheGame


def _reasons(options: dict[str, str]) -> OptionError:
    with pytest.raises(OptionError) as err:
        ScytheGame(2, options)
    return err.value


def test_a_bad_name_and_a_banned_pair_are_both_given_as_data() -> None:
    err = _reasons({"factions": "rusviet,randon", "mats": "industrial,random"})
    codes = [r["code"] for r in err.reasons]
    assert codes == ["option_item", "banned_pairs"], err.reasons
    assert err.reasons[0]["params"] == {"option": "factions", "item": "randon", "seat": 1}
    banned = err.reasons[1]
    assert banned["rule"] == "SR-58"
    assert banned["params"]["pairs"] == [{"seat": 0, "faction": "rusviet", "mat": "industrial"}]
    assert len(str(err).split("; ")) == 3  # the sentences as before (the pair's holds a "; ")


def test_the_same_faction_twice_and_the_count_are_given_as_data() -> None:
    twice = _reasons({"factions": "nordic,nordic", "mats": "random"})
    assert [r["code"] for r in twice.reasons] == ["option_twice"]
    count = _reasons({"factions": "nordic", "mats": "random"})
    assert count.reasons == [
        {"code": "option_count", "params": {"option": "factions", "n": 2}, "rule": None}
    ]


def test_the_reasons_cross_processes() -> None:
    err = _reasons({"factions": "crimea,random", "mats": "patriotic,random"})
    again = pickle.loads(pickle.dumps(err))
    assert again.reasons == err.reasons and str(again) == str(err)


def test_a_chosen_faction_beside_a_random_one_is_accepted() -> None:
    game = ScytheGame(2, {"factions": "polania,random", "mats": "random"})
    assert game.fixed_factions == [4, -1]
