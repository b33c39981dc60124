"""Issue 17: the island's texts for people show no raw data.

Over seeded random games at 2..8 players on the standard boards and a few maps, every text
the engine makes for a person — the rendered observation (its log lines in words, offers,
discards, hands, bank, prompt), the prompt text, the hint of every listed action
(``describe_action``), the end-of-game summary — holds no Python or JSON syntax (``[0]``,
``{'…': …}``, ``None``, ``True``, tuples) and no bare resource letters (``1g``, ``2:1 o``).
The log's own lines keep their notation forms (fingerprint, bots, the browser's translator)
but hold no Python syntax either. The check is first shown to fire on planted raw lines, so
it cannot pass vacuously.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from hexfolk.core import load_game
from hexfolk.games.island.board import topology
from hexfolk.games.island.labels import labels
from hexfolk.games.island.log_forms import LOG
from hexfolk.games.island.words import log_words, tiles_of

from .helpers import fresh, give, roll, settle

PYTHON_SYNTAX = re.compile(
    r"\{['\"]|['\"]: |\[\d+(?:, \d+)*\]|\[\]|\{\}|\b(?:None|True|False)\b|\(\d+, \d+\)"
)
"""Dicts, lists, tuples, None/True/False as Python or JSON write them."""
BARE_LETTERS = re.compile(r"(?<![\w#])\d+[lbwgo]\b|\b2:1 [lbwgo]\b|\b(?:stole|steal) [lbwgo]\b")
"""Resource letters of the notation where a reader needs the resource's name."""


def raw_parts(text: str, words: bool = True) -> list[str]:
    """The raw data in ``text`` (empty when it reads as sentences)."""
    found = [m[0] for m in PYTHON_SYNTAX.finditer(text)]
    if words:
        found += [m[0] for m in BARE_LETTERS.finditer(text)]
    return found


def _render_text(rendered: str) -> list[str]:
    """The rendered observation without its map drawing (a diagram of ids: ``[12]``, ``O8``,
    between the title line and the ``harbors:`` line)."""
    lines = rendered.split("\n")
    after = next((i for i, line in enumerate(lines) if line.startswith("harbors:")), 0)
    return [lines[0], *lines[after:]]


def test_the_check_fires_on_raw_lines() -> None:
    planted = [
        "offer #9: 1g for 1w answers {'1': 'reject'}",
        "discards: {'seats': [0], 'need': {'0': 4}, 'committed': []}",
        "winner: None",
        "declines: True",
        "steal: (2, 3)",
        "players: [0]",
        "seat 1 trades 4l for 1o",
        "harbors: 2:1 g at 2-5",
        "(seat 0 stole o from seat 1)",
    ]
    for line in planted:
        assert raw_parts(line), line
    for line in (
        "offer #9: seat 0 offers 1 grain for 1 wool; seat 1 rejects",
        "seat 0 must discard 4 cards",
        "the robber on hex 5 (fields 11) blocks 1 grain for seat 2 (IR-44)",
        "harbors: 3:1 at 0-4, 2:1 grain at 2-5",
    ):
        assert not raw_parts(line), line


GAMES = [
    *[(n, {}) for n in range(2, 9)],
    (4, {"board": "beginner"}),
    (3, {"map": "keystone"}),
    (3, {"map": "twin-meres"}),
    (4, {"map": "driftland"}),
]


def _texts_of_a_game(players: int, options: dict[str, Any], seed: int) -> list[tuple[str, str]]:
    game = load_game("island", players, options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    steps = 0
    while not state.is_terminal() and steps < 1500:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            steps += 1
            continue
        seat = state.current_player()
        obs = state.observation(seat)
        if obs["prompt"]:
            out.append(("prompt", obs["prompt"]["text"]))
        legal = state.legal_actions()
        for action in rng.sample(legal, min(4, len(legal))):
            out.append(("hint", game.describe_action(obs, action)))
        if steps % 25 == 0:
            for line in _render_text(game.render_observation(obs)):
                out.append(("render", line))
        state.apply(rng.choice(legal))
        steps += 1
    final = state.observation(None)
    tiles = tiles_of(final["board"]["layout"])
    for line in final["log"]:
        out.append(("log line", line))
        out.append(("log words", log_words(line, tiles)))
    for line in _render_text(game.render_observation(final)):
        out.append(("render", line))
    summary = state.summary()
    out.extend(("summary", line) for line in game.render_summary(summary).split("\n"))
    # what `hexfolk play` and `replay` pass: the summary without the scores and turns they print
    extra = {k: v for k, v in summary.items() if k not in ("scores", "winners", "turns")}
    out.extend(("summary", line) for line in game.render_summary(extra).split("\n"))
    return out


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_no_text_for_people_shows_raw_data(players: int, options: dict[str, Any]) -> None:
    texts = _texts_of_a_game(players, options, seed=17 + players)
    kinds = {kind for kind, _ in texts}
    assert {"prompt", "hint", "render", "log words", "summary"} <= kinds
    bad = [
        (kind, text, raw_parts(text, words=kind != "log line"))
        for kind, text in texts
        if raw_parts(text, words=kind != "log line")
    ]
    assert not bad, bad[:5]


def test_the_robber_and_the_notes_name_the_hex_by_terrain_and_number() -> None:
    """The robber's moves and the income it blocks (IR-44) name the hex as "hex F (fields
    11)" (its label, terrain and number), read from the line's params, never its sentence; a
    roll's blocked income is logged at all (the log's note, not fingerprinted)."""
    tiles = "O8.O9.D.O3.W5.G11"
    places = labels(topology("hex19"))
    line = LOG.line("robs", places, seat=1, hex=5, victim=2)
    assert line == "seat 1 moves the robber to F and robs seat 2"
    assert log_words(line, tiles, places) == (
        "seat 1 moves the robber to hex F (fields 11) and robs seat 2"
    )
    blocked = LOG.line("blocked", places, hex=0, cards={"ore": 2}, seat=3)
    assert blocked == "the robber on hex A blocks 2o for seat 3"
    assert log_words(blocked, tiles, places) == (
        "the robber on hex A (mountains 8) blocks 2 ore for seat 3 (IR-44)"
    )
    short = LOG.line("short", cards={"ore": 2}, seat=1)
    assert log_words(short, tiles) == "the bank cannot pay seat 1 2 ore (IR-37)"
    answers = LOG.line(
        "answers",
        offer=1,
        answers=[
            {"seat": 1, "answer": "rejects"},
            {"seat": 2, "answer": "counters", "give": {"ore": 1}, "get": {"lumber": 1}},
        ],
    )
    assert answers == "answers to offer #1: seat 1 rejects, seat 2 counters 1o for 1l"
    assert log_words(answers) == (
        "answers to offer #1: seat 1 rejects; seat 2 counters: 1 ore for 1 lumber"
    )
    road = LOG.line("road", places, seat=0, edge=0)
    a, b = topology("hex19").edge_nodes[0]
    ends = sorted((int(places.label("node", a)), int(places.label("node", b))))
    assert road == f"seat 0 builds a road on {ends[0]}-{ends[1]}"
    assert log_words(road, tiles, places) == f"seat 0 builds a road on edge {ends[0]}-{ends[1]}"
    assert log_words("a plain old line", tiles) == "a plain old line"


def test_ir37_what_the_bank_cannot_pay_is_logged_and_left_out_of_the_fingerprint() -> None:
    """Bank 3 ore, seats 0 and 1 owed 2 each (IR-37 (c), fixture of IR-38): nobody is paid and
    the log says so, seat by seat; the note is not part of the fingerprint, so records made
    before it existed replay to the same fingerprints, and a position document keeps it."""
    state = fresh(4)
    settle(state, 0, 0, city=True)  # hex 0, ore 5
    settle(state, 1, 40, city=True)  # hex 13, ore 5
    give(state, 2, "16o")  # the bank keeps 3 ore
    before = state.full_state()["log"]
    roll(state, 5)
    log = state.observation(2)["log"]
    assert log[-2:] == ["the bank is short of 2o for seat 0", "the bank is short of 2o for seat 1"]
    assert state.full_state()["log"] == [*before, [None, "seat 0 rolls 5"]]
    doc = state.position()
    assert doc["log"][-1] == [None, log[-1].to_json()]
    assert doc["log"][-1][1]["form"] == "short"  # a note by its form
    again = state.game.load_position(doc)
    assert again.fingerprint() == state.fingerprint()
    assert again.observation(2)["log"] == log


def test_ir44_the_blocked_income_of_random_games_adds_up_to_the_statistics() -> None:
    """Every card the robber kept from a seat (``blocked_by_robber``, IR-44) is in a log note,
    and every note names the robber's hex by terrain and number in words."""
    seen = 0
    for seed in range(3):
        game = load_game("island", 4)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal() and state.turn_count() < 300:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        final = state.observation(None)
        tiles = tiles_of(final["board"]["layout"])
        blocked: dict[int, int] = {}
        places = labels(state.topology)
        for line in final["log"]:
            if line.form == "blocked":
                x = line.params
                blocked[x["seat"]] = blocked.get(x["seat"], 0) + sum(x["cards"].values())
                assert re.fullmatch(
                    r"the robber on hex [A-Z]+ \([a-z]+ \d+\) blocks \d+ [a-z]+ for seat \d+ "
                    r"\(IR-44\)",
                    log_words(line, tiles, places),
                )
        for pl in state.summary()["players"]:
            assert blocked.get(pl["seat"], 0) == pl["blocked_by_robber"], (seed, pl["seat"])
        seen += sum(blocked.values())
    assert seen > 0  # the robber did block income in these games
