"""Reasons as data (issue 26, Deliver 3): every refusal the engines give in random games is a
code whose template exists in each of the page's four languages, and every template names
only params its reasons carry.

Random games of both games at every player count; at every few decisions the engine is asked
why many actions are refused (actions legal at other points of the game, chance outcomes, the
island's mutated places and trades), for the seat to move and another seat, as the property
tests of ``tests/games/*/test_reasons.py`` do. Each reason (and each nested one) is checked
against ``web/i18n/reasons/<lang>.json``: a template per code, its ``{param}`` names among the
reason's params (or ``rule``), its ``{name:kind}`` renderers among those of ``web/reasons.js``,
and the words those renderers look up (decisions, pieces, cards, prompts) present. The English
templates are the engines' own (one text, two places): they must be equal.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from tests.games.refusal_walk import refusal_questions

from hexfolk.core import Action, Reason, game_class, load_game
from hexfolk.core.reasons import GENERIC, PLACEHOLDER
from hexfolk.games.island import actions as IA
from hexfolk.games.island.reason_texts import REASONS as ISLAND
from hexfolk.games.scythe.reason_texts import REASONS as SCYTHE

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
LANGS = ("nl", "en", "es", "ko")
PREFIX = {"island": "why.", "scythe": "sc.why."}
BOOKS = {"island": ISLAND, "scythe": SCYTHE}


def _texts(lang: str) -> dict[str, str]:
    texts: dict[str, str] = {}
    games = (f"i18n/island/{lang}.json", f"i18n/scythe/{lang}.json")
    for path in (f"i18n/{lang}.json", *games, f"i18n/reasons/{lang}.json"):
        texts.update(json.loads((WEB / path).read_text(encoding="utf-8")))
    return texts


TEXTS = {lang: _texts(lang) for lang in LANGS}
REASON_FILES = {
    lang: json.loads((WEB / f"i18n/reasons/{lang}.json").read_text(encoding="utf-8"))
    for lang in LANGS
}
JS = (WEB / "reasons.js").read_text(encoding="utf-8")
JS_KINDS = set(
    re.findall(r"^  (\w+)[:,]", JS[JS.index("export const KINDS") :].split("\n};")[0], re.M)
)

WORD_KEYS = {
    "decision": "sc.why.d.{}",
    "gain": "sc.why.w.{}",
    "piece": "why.w.piece.{}",
    "trade": "why.w.trade.{}",
    "draw": "why.w.draw.{}",
    "card": "dev.{}",
    "prompt": "prompt.{}",
}
"""The renderers that look a param up as a text of the page (``web/reasons.js``)."""


def _key(game: str, code: str) -> str:
    return ("why." if code.startswith("generic_") else PREFIX[game]) + code


def _problems(game: str, reason: dict[str, Any]) -> list[str]:
    """What the four languages lack to render ``reason`` (and its nested reasons)."""
    code, params = reason["code"], reason["params"]
    found: list[str] = []
    for value in params.values():
        if isinstance(value, dict) and "code" in value:
            found += _problems(game, value)
    key = _key(game, code)
    for lang in LANGS:
        template = REASON_FILES[lang].get(key)
        if template is None:
            found.append(f"{lang}: no template {key}")
            continue
        for m in PLACEHOLDER.finditer(template):
            name, kind = m.group(1), m.group(2)
            if name != "rule" and name not in params:
                found.append(f"{lang}: {key} names {{{name}}}, not a param of {code}: {params}")
                continue
            if kind is not None and kind not in JS_KINDS:
                found.append(f"{lang}: {key} uses {{{name}:{kind}}}, no renderer in reasons.js")
            if kind in WORD_KEYS and name in params:
                word = WORD_KEYS[kind].format(params[name])
                if word not in TEXTS[lang]:
                    found.append(f"{lang}: {key} needs the text {word}")
    return found


def test_every_code_of_both_books_has_a_template_in_every_language() -> None:
    """The static half: each code's template exists in each language, and the English one is
    the engine's own sentence form (whether a template's params exist is checked on the
    reasons the games give, below: a translation may use a param the English does not)."""
    for game, book in BOOKS.items():
        for code, english in book.templates.items():
            key = _key(game, code)
            assert REASON_FILES["en"].get(key) == english, key
            for lang in LANGS:
                template = REASON_FILES[lang].get(key)
                assert template, f"{lang}: no template {key}"
    for code, english in GENERIC.templates.items():
        assert REASON_FILES["en"].get(f"why.{code}") == english
        for lang in LANGS:
            assert REASON_FILES[lang].get(f"why.{code}"), f"{lang}: no template why.{code}"
    assert {"seats", "cards", "track", "decision", "res", "q"} <= JS_KINDS


def _island_mutations(state: Any, rng: random.Random) -> list[Action]:
    """Places and trades the island rules refuse in many ways (IR-19..IR-57)."""
    topology = state.topology
    give = tuple(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(5))
    get = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in range(5))
    return [
        IA.BuildRoad(rng.randrange(topology.num_edges)),
        IA.BuildSettlement(rng.randrange(topology.num_nodes)),
        IA.BuildCity(rng.randrange(topology.num_nodes)),
        IA.MoveRobber(rng.randrange(topology.num_hexes), rng.randrange(-1, state.n)),
        IA.MaritimeTrade(give, get),
        IA.Offer(give, get),
        IA.Complete(1, rng.randrange(state.n)),
        IA.BUY,
        IA.END,
        IA.ROLL,
        IA.PLAY_KNIGHT,
        IA.PLAY_ROADS,
    ]


CASES = [
    (game, n)
    for game in ("island", "scythe")
    for n in range(game_class(game).min_players, game_class(game).max_players + 1)
]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_every_reason_met_in_random_games_renders_in_every_language(
    game: str, players: int
) -> None:
    """IR-19..IR-64 and SR-6..SR-51 refusals, as data, in nl, en, es and ko."""
    rng = random.Random(2600 + players)
    state = load_game(game, players).new_initial_state()
    codes: set[str] = set()
    problems: list[str] = []

    def candidates(pool: list[Action]) -> list[Action]:
        out = rng.sample(pool, min(10, len(pool)))
        if game == "island":
            out += _island_mutations(state, rng)
        return out

    for seat, candidate in refusal_questions(
        state, rng, players, limit=1500, every=3, candidates=candidates
    ):
        reason = state.why_illegal_reason(seat, candidate)
        if reason is None:
            continue
        assert isinstance(reason, Reason)
        assert reason.text == state.why_illegal(seat, candidate)
        data = json.loads(json.dumps(reason.to_json()))  # JSON-plain
        assert data == reason.to_json()
        codes.add(reason.code)
        problems += _problems(game, data)
    assert not sorted(set(problems)), sorted(set(problems))[:20]
    assert len(codes) >= 10, codes  # the games reached many sentence forms


def test_a_refusal_carries_its_reason_as_data() -> None:
    """IR-57: 'settle 0' before any road of one's own, the kernel's error carries the data."""
    from hexfolk.core import IllegalActionError

    state = load_game("island", 3).new_initial_state()
    rng = random.Random(7)
    while state.is_chance() or state.prompt().kind != "main":  # type: ignore[union-attr]
        state.apply_unchecked(
            state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_actions())
        )
    seat = state.current_player()
    codes = {
        v: getattr(state.why_illegal_reason(seat, IA.BuildSettlement(v)), "code", None)
        for v in range(state.topology.num_nodes)  # type: ignore[attr-defined]
    }
    free = min(v for v, code in codes.items() if code == "settle_no_road")
    with pytest.raises(IllegalActionError) as info:
        state.parse_action_for(seat, f"settle {free}")
    assert info.value.data is not None
    assert info.value.data["code"] == "settle_no_road"
    assert info.value.data["params"] == {"node": free}
    assert info.value.data["rule"] == "IR-57"
    assert str(info.value).startswith(info.value.reason)
