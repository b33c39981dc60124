"""Issue 17: no raw Python or JSON data in any text the Scythe engine writes for people.

Seeded random games of 2 to 5 players; every log line each seat and the spectator saw, the
rendered observations, the end-of-game summary, the prompt texts, the action hints and the
refusal reasons are checked against :data:`RAW`, a pattern of raw data (brackets and braces,
``None``/``True``/``False``, quoted strings, JSON keys, tuples, bare lists of floats). The
pattern is first proved on planted raw lines, so the check cannot pass by matching nothing.

Each log line is data (issue 26): a form and its params, whose English sentence (territories
by their board labels) is what observations carry; the fingerprinted full state keeps the line
as rules 0.2 wrote it (``P0 commits dial 3, cards [4]``, board ids), so records keep
replaying. The last tests pin both halves.
"""

from __future__ import annotations

import ast
import pickle
import re
from collections import Counter
from pathlib import Path

import pytest

from hexfolk.core import Action, load_game
from hexfolk.core.rng import make_rng
from hexfolk.games.scythe import log_forms
from hexfolk.games.scythe.log_forms import LOG, SHARED_LINES_MAX, ScytheLogLine
from hexfolk.games.scythe.state import ScytheState
from hexfolk.games.scythe.territory_labels import LABELS

from .test_simultaneous import _at_commit

RAW = re.compile(
    r"""
      [\[\]{}]                              # a list or a dict: [0], {'seats': ...}
    | \b(?:None|True|False)\b               # Python's constants
    | (?<![A-Za-z])'[^'\s]*'                # a quoted word ('reject', ''), not P0's
    | "[^"\s]*"\s*:                         # a JSON key ("give":)
    | \(\s*-?\d+(?:\.\d+)?\s*,\s*-?\d       # a tuple: (0, 1)
    | \b\d+\.\d+,\s*\d+\.\d+                # a bare list of floats: 0.0, 1.0
    """,
    re.VERBOSE,
)
"""Raw data showing through a sentence (issue 17)."""

PLANTED_RAW = [
    "game over (sixth star); winners: [0]",
    "P1 commits dial 3, cards []",
    "Combat on r3c2: P0 attacks P1; commitments {'seats': [0, 1], 'committed': []}",
    "Game over (sixth star); returns 0.0, 1.0",
    "answers {'1': {'counter': {'give': '1o', 'get': '1g'}}, '2': 'reject'}",
    'discards: {"seats": 1}',
    "the winner is None",
    "finished: True",
    "finished False",
    "units at (3, 4)",
    "the answer 'reject'",
]
CLEAN = [
    "P0's character is on the Factory: P0 looks at the offer",
    "game over (sixth star): P1 wins",
    "P1 reveals dial 3 and combat cards 4 and 2: strength 9",
    "the dial goes from 0 to min(7, your power 3) = 3 (SR-43)",
    "move: move 3 units or $1 | build (2 wood, +1 coin); all built",
    "P2's units on C5 retreat to Saxony base",
]


def raw_in(text: str) -> list[str]:
    """The lines of ``text`` that show raw data."""
    return [line for line in text.splitlines() if RAW.search(line)]


@pytest.mark.parametrize("line", PLANTED_RAW)
def test_the_pattern_fires_on_raw_data(line: str) -> None:
    assert raw_in(line) == [line]


@pytest.mark.parametrize("line", CLEAN)
def test_the_pattern_passes_sentences(line: str) -> None:
    assert raw_in(line) == []


def _line(form: str, **params: object) -> ScytheLogLine:
    line = LOG.line(form, LABELS, line_class=ScytheLogLine, **params)
    assert isinstance(line, ScytheLogLine)
    return line


def test_the_log_forms_read_as_sentences_and_keep_their_rules_0_2_text() -> None:
    """Each form whose rules-0.2 text showed raw data: its sentence and its fingerprint text;
    a territory reads as its board label there and as its id in the fingerprint."""
    cases = [
        (
            _line("commits_cards", seat=0, dial=3, cards=[4, 2]),
            "P0 commits dial 3 and combat cards 4 and 2",
            "P0 commits dial 3, cards [4, 2]",
        ),
        (
            _line("commits_cards", seat=1, dial=0, cards=[]),
            "P1 commits dial 0 and no combat card",
            "P1 commits dial 0, cards []",
        ),
        (
            _line("reveals", seat=1, dial=3, cards=[4], total=7),
            "P1 reveals dial 3 and combat card 4: strength 7",
            "P1 reveals dial 3 and cards [4]: 7",
        ),
        (
            _line("game_over", winners=[1]),
            "game over (sixth star): P1 wins",
            "game over (sixth star); winners: [1]",
        ),
        (
            _line("game_over_combat", winners=[0, 2]),
            "game over (sixth star in combat): P0 and P2 share the win",  # OQ-16
            "game over (sixth star in combat); winners: [0, 2]",
        ),
        (
            _line("retreat", seat=3, territory="r3c2", to="home_rusviet"),
            "P3's units on C3 retreat to Rusviet base",
            "P3's units on r3c2 retreat to home_rusviet",
        ),
        (_line("gains", seat=0, amount=2, what="coins"), "P0 gains 2 coins", "P0 gains 2 coins"),
    ]
    for line, words, rules in cases:
        assert str(line) == words
        assert line.rules_text == rules
        assert raw_in(line) == []


class Seen:
    """Every text checked, by kind, and the raw ones found."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()
        self.raw: dict[str, set[str]] = {}
        self.lines: set[str] = set()

    def check(self, kind: str, text: str) -> None:
        self.count[kind] += 1
        for line in raw_in(text):
            self.raw.setdefault(kind, set()).add(line.strip())


def _illegal_now(state: ScytheState, seat: int, earlier: list[Action]) -> list[Action]:
    """Well-formed actions that were legal at an earlier decision and are not legal now."""
    legal = set(state.legal_actions_for(seat)) if seat in state.acting_seats() else set()
    return [a for a in earlier if a not in legal][:4]


def play_and_check(players: int, seed: int, seen: Seen) -> ScytheState:
    game = load_game("scythe", players, {})
    state = game.new_initial_state()
    assert isinstance(state, ScytheState)
    rng = make_rng(seed)
    earlier: list[Action] = []
    step = 0
    kinds: Counter[str] = Counter()
    while not state.is_terminal() and step < 20000:
        step += 1
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.acting_seats()[0]
        prompt = state.prompt_for(seat)
        assert prompt is not None
        seen.check("prompt", prompt.text)
        legal = state.legal_actions_for(seat)
        kinds[prompt.kind] += 1
        if kinds[prompt.kind] <= 3 or step % 23 == 0:
            obs = state.observation(seat)
            for action in legal:
                seen.check("hint", game.describe_action(obs, action))
            for action in _illegal_now(state, seat, earlier):
                reason = state.why_illegal(seat, action)
                assert reason is not None
                seen.check("reason", reason)
        if step % 97 == 0:
            seen.check("render", game.render_observation(state.observation(seat)))
            seen.check("render", game.render_observation(state.observation(None)))
        earlier = legal
        state.apply_for(seat, rng.choice(legal))
    # the logs grow: at the end each seat's and the spectator's log holds every line it saw
    for viewer in [*range(players), None]:
        obs = state.observation(viewer)
        for line in obs["log"]:
            seen.check("log", line)
            seen.lines.add(line)
        seen.check("render", game.render_observation(obs))
    seen.check("summary", game.render_summary(state.summary()))
    return state


GAMES = [(players, seed) for players in (2, 3, 4, 5) for seed in (1, 2)]


def test_no_raw_data_in_any_text_of_random_games() -> None:
    """Issue 17 ("no raw dicts or lists anywhere"): logs, renders, summaries, prompts, hints
    and reasons of eight seeded random games (2-5 players) read as sentences."""
    seen = Seen()
    finished = 0
    for players, seed in GAMES:
        finished += play_and_check(players, seed, seen).is_terminal()
    assert seen.raw == {}, seen.raw
    # not vacuous: every kind of text was looked at, and the lines once raw were seen
    for kind in ("prompt", "hint", "reason", "render", "log", "summary"):
        assert seen.count[kind] >= len(GAMES), (kind, seen.count)
    assert finished >= len(GAMES) - 1
    assert any(re.search(r"commits dial \d+ and (no )?combat card", x) for x in seen.lines)
    assert any(re.search(r"reveals dial \d+ and .*: strength \d+$", x) for x in seen.lines)
    over = re.compile(r"^game over \(.*\): P\d+ (wins|.* share the win)$")
    assert any(over.search(x) for x in seen.lines)


def test_the_fingerprinted_log_keeps_its_form() -> None:
    """The full state (the fingerprint) keeps the log as rules 0.2 wrote it; only the
    observation's words change, so records of 0.2 replay with the same fingerprints."""
    state = play_and_check(2, 1, Seen())
    lines = [line for _, line in state.log]
    assert all(type(line) is ScytheLogLine for line in lines)
    stored = [line.rules_text for line in lines]
    assert any(re.search(r"cards \[[\d, ]*\]", t) for t in stored)
    assert any(re.search(r"\br\dc\d\b", t) for t in stored)  # territories by board id
    assert stored[-1].startswith("game over (") and "; winners: [" in stored[-1]
    full = state.full_state()
    assert [t for _, t in full["log"]] == stored
    spectator = state.observation(None)["log"]
    assert spectator[-1] == lines[-1] and spectator[-1] != stored[-1]
    assert not any(re.search(r"\br\dc\d\b|\bhome_", line) for line in spectator)
    assert raw_in(spectator[-1]) == []


def test_sr43_the_commitments_read_as_sentences_and_stay_secret() -> None:
    """SR-43 C2 / SR-59 in the render: who has committed, the committer's own dial and cards
    to the committer only; then the reveal and the winner in the log, all in words."""
    s = _at_commit()
    game = s.game
    s.apply_for(1, s.parse_action_for(1, "commit 1 cards 3"))  # the defender first
    mine = game.render_observation(s.observation(1))
    theirs = game.render_observation(s.observation(0))
    spectator = game.render_observation(s.observation(None))
    assert "P1 has committed; waiting for P0; you committed dial 1 and combat card 3" in mine
    for text in (theirs, spectator):
        assert "P1 has committed; waiting for P0" in text
        assert "you committed" not in text and "combat card 3" not in text
    assert "P1 commits dial 1 and combat card 3" in s.observation(1)["log"]
    for text in (mine, theirs, spectator):
        assert raw_in(text) == [], raw_in(text)
    s.apply_for(0, s.parse_action_for(0, "commit 2"))
    log = s.observation(None)["log"]
    assert "P0 reveals dial 2 and no combat card: strength 2" in log
    assert "P1 reveals dial 1 and combat card 3: strength 4" in log
    assert all(raw_in(line) == [] for line in log)


def test_the_compiled_forms_write_the_book_s_sentences() -> None:
    """``LOG.make`` (each form compiled to one format pattern, for speed) writes every line of
    random games exactly as the book's own renderer writes it from the template."""
    forms = set()
    for players, seed in ((2, 1), (4, 3)):
        state = play_and_check(players, seed, Seen())
        for _, line in state.log:
            assert isinstance(line, ScytheLogLine)
            assert str(line) == LOG.book.render(line.form, line.params, None, LABELS), line
            assert LOG.make(line.form, line.params) == line
            forms.add(line.form)
    assert {"moves", "commits_cards", "reveals", "star"} <= forms


def test_written_lines_are_shared_by_value() -> None:
    """``LOG.write`` (what ``write_log`` calls, with the params' values in the order the
    template first names them) gives the line written before for the same form and values,
    equal in text, form and params to a fresh one; other values are another line; a line with
    a list value (SR-43 combat cards) is made each time; a wrong number of values is refused;
    a shared line still pickles by value."""
    assert LOG.names["retreat"] == ("seat", "territory", "to")
    assert LOG.names["factory_look"] == ("seat",)
    first = LOG.write("retreat", (0, "r3c2", "r3c3"))
    again = LOG.write("retreat", (0, "r3c2", "r3c3"))
    assert again is first
    fresh = LOG.make("retreat", {"seat": 0, "territory": "r3c2", "to": "r3c3"})
    assert (str(again), again.form, again.params) == (str(fresh), fresh.form, fresh.params)
    swapped = LOG.write("retreat", (0, "r3c3", "r3c2"))
    assert swapped.params == {"seat": 0, "territory": "r3c3", "to": "r3c2"}
    assert str(swapped) != str(first)
    cards = (1, 2, [4], 6)
    assert LOG.write("reveals", cards) is not LOG.write("reveals", cards)
    assert LOG.write("reveals", cards).params == {"seat": 1, "dial": 2, "cards": [4], "total": 6}
    with pytest.raises(TypeError, match="retreat"):
        LOG.write("retreat", (0, "r3c2"))
    copy = pickle.loads(pickle.dumps(first))
    assert (copy, copy.form, copy.params, copy.rules_text) == (
        first,
        first.form,
        first.params,
        first.rules_text,
    )
    assert len(LOG.shared) <= SHARED_LINES_MAX


def test_every_write_log_call_passes_its_form_s_values() -> None:
    """Each ``write_log`` / ``write_log_for_others`` call of the engine names a form of the
    book and passes one value per param of it (``LOG.names``, the template's order), so no
    line is written with a value missing or in another param's place unnoticed."""
    root = Path(log_forms.__file__).parent
    calls = 0
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("write_log", "write_log_for_others")
            ):
                continue
            where = f"{path.name}:{node.lineno}"
            assert not node.keywords, f"{where}: params by value, in the template's order"
            form, *values = node.args[1:]
            if not isinstance(form, ast.Constant):  # the helpers and the game's end
                continue
            assert form.value in LOG.names, where
            if not any(isinstance(v, ast.Starred) for v in values):
                assert len(values) == len(LOG.names[form.value]), (where, LOG.names[form.value])
            calls += 1
    assert calls > 50
