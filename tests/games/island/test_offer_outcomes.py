"""Issue 27, point 3: "Your own offer vanishes in silence when everyone rejects it". Every way
an offer ends writes one public log line that names the offer, as data a client renders in its
own language (``docs/log.md``): taken (``trade_with``: ``offer``, the proposer ``seat``, the
``partner``), rejected by every addressee (``rejected_all``: ``offer`` and the proposer
``seat``, IR-51), withdrawn (``withdraws``), or still open when the turn ends (``withdrawn``:
``offers``, IR-28). The sentences (and so the fingerprints and golden files) are unchanged.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hexfolk.core import LogLine, load_game
from hexfolk.core.testing.random_step import random_step
from hexfolk.games.island.state import IslandState

from .helpers import do, fresh, give

WEB = Path(__file__).resolve().parents[3] / "src" / "hexfolk" / "web"
CLOSING = ("trade_with", "rejected_all", "withdraws", "withdrawn")


def _offering() -> IslandState:
    """Seat 0 of three has offered #1: 1 lumber for 1 ore; seats 1 and 2 hold ore."""
    state = fresh(3)
    give(state, 0, "2l")
    give(state, 1, "1o")
    give(state, 2, "1o")
    do(state, "offer 1l for 1o")
    return state


def _act(state: IslandState, seat: int, text: str) -> None:
    state.apply_for(seat, state.parse_action_for(seat, text))


def _last(state: IslandState, form: str) -> LogLine:
    lines = [x for x in state.observation(0)["log"] if x.form == form]
    assert lines, f"no {form} line"
    return lines[-1]


def test_ir50_accepted_names_the_offer_and_who_took_it() -> None:
    state = _offering()
    _act(state, 2, "accept 1")
    _act(state, 0, "complete 1 with 2")
    line = _last(state, "trade_with")
    assert line.params["offer"] == 1 and line.params["seat"] == 0 and line.params["partner"] == 2
    assert str(line) == "seat 0 trades 1l for 1o with seat 2"  # the sentence as before


def test_ir51_rejected_by_every_seat_names_the_offer_and_its_proposer() -> None:
    state = _offering()
    _act(state, 1, "reject 1")
    _act(state, 2, "reject 1")
    line = _last(state, "rejected_all")
    assert line.params == {"offer": 1, "seat": 0}
    assert str(line) == "offer #1 is rejected by every seat"
    assert state.offers == []


def test_ir50_withdrawn_by_its_proposer() -> None:
    state = _offering()
    _act(state, 1, "reject 1")
    _act(state, 0, "withdraw 1")
    line = _last(state, "withdraws")
    assert line.params == {"seat": 0, "offer": 1}


def test_ir28_still_open_when_the_turn_ends() -> None:
    state = _offering()
    _act(state, 0, "offer 1l for 1b")
    _act(state, 1, "accept 1")
    _act(state, 0, "end")
    line = _last(state, "withdrawn")
    assert line.params == {"seat": 0, "offers": [1, 2]}
    assert str(line) == "seat 0's open offers are withdrawn"


@pytest.mark.parametrize("lang", ["en", "nl", "es", "ko"])
def test_every_closing_line_has_a_template_in_each_language(lang: str) -> None:
    path = WEB / "i18n" / "log" / "island" / f"{lang}.json"
    templates = json.loads(path.read_text(encoding="utf-8"))
    for form in CLOSING:
        assert templates.get(form), (lang, form)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_offer_of_a_random_game_ends_in_one_line_that_names_it(players: int) -> None:
    game = load_game("island", players)
    offers = 0
    closed: set[str] = set()
    for seed in range(3):
        rng = random.Random(f"offers-{players}-{seed}")
        state = game.new_initial_state()
        for _ in range(3000):
            if state.is_terminal():
                break
            random_step(state, rng)
        made: dict[int, int] = {}
        ended: dict[int, str] = {}
        for line in state.observation(None)["log"]:
            x = line.params
            if line.form == "offers":
                made[x["offer"]] = x["seat"]
            elif line.form in ("trade_with", "rejected_all", "withdraws"):
                assert x["offer"] not in ended
                assert made[x["offer"]] == x["seat"]
                ended[x["offer"]] = line.form
            elif line.form == "withdrawn":
                for oid in x["offers"]:
                    assert oid not in ended and made[oid] == x["seat"]
                    ended[oid] = line.form
        open_now = {o.id for o in state.offers}
        assert set(ended) | open_now == set(made) and not set(ended) & open_now
        offers += len(made)
        closed.update(ended.values())
    assert offers > 0 and {"rejected_all", "withdrawn"} <= closed
