"""Issue 26: the terminal names places one way everywhere, by the board's labels (``docs/log.md``,
"Place labels"; Scythe: ``docs/scythe.md``, "Territory labels").

The island's map shows hex letters and intersection numbers (no ids, no edge numbers); the menu
shows every action in the same words (``settle 12``, ``road 12-13``, ``robber F``, Scythe's
``move worker D5``), unique per action; typing those words picks the action (matched whole
against the entries, never parsed), and the engine's id notation still works when no entry reads
so. The words are written from the action's structured form; with ids for labels they are the
action's text, which pins them to the engine's notation for every action of random games.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from hexfolk.bots.registry import make_bot
from hexfolk.cli.play_cmd import PlaySession
from hexfolk.cli.terminal import island_view, scythe_view
from hexfolk.cli.terminal.menu import pick, typed_form
from hexfolk.cli.terminal.screen import Size
from hexfolk.core import Game, Observation, State, load_game, make_rng
from hexfolk.games.island.actions import BuildRoad, BuildSettlement, MoveRobber
from hexfolk.games.island.ascii_map import draw_board
from hexfolk.games.island.labels import labels
from hexfolk.games.island.maps import board_topology
from hexfolk.games.scythe.territory_labels import LABELS

WIDE = Size(140, 60)


def _ids(kind: str, value: Any) -> str:
    return str(value)


def _states(game: Game, seed: int, limit: int) -> Iterator[State]:
    """The states of a random game where a seat decides (at most ``limit``)."""
    state = game.new_initial_state()
    chance, bots = make_rng(seed, "chance"), make_rng(seed, "bots")
    bot = make_bot("random", game.id)
    for _ in range(limit):
        if state.is_terminal():
            return
        p = state.current_player()
        if p < 0:
            state.apply(state.sample_chance(chance))
            continue
        yield state
        state.apply(bot.choose(Observation(state, p), state.legal_actions(), bots))


def _session(game: Game, script: list[str], size: Size = WIDE) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=1000, color_system=None, highlight=False)
    lines = iter(script)
    codes = ["human"] + ["random"] * (game.num_players - 1)
    session = PlaySession(
        game,
        codes,
        3,
        console=console,
        read_line=lambda prompt: next(lines, None),
        size=lambda: size,
    )
    return session, out


GAMES = [
    ("island", 3, {}),
    ("island", 4, {}),
    ("island", 3, {"map": "driftland"}),
    ("island", 3, {"map": "keystone"}),
    ("scythe", 2, {}),
    ("scythe", 3, {}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_menu_words_are_the_action_text_by_label_and_unique(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """With ids for labels the words of every listed action are its text (the words follow the
    engine's notation); with labels they are unique per decision, case folded, and every action
    that names a place names it by label."""
    game = load_game(game_id, players, options)
    view = island_view.VIEW(game) if game_id == "island" else scythe_view.VIEW(game)
    place_words = island_view.place_words if game_id == "island" else scythe_view.place_words
    placed = 0
    for seed in (1, 2):
        for state in _states(game, seed, 600):
            seat = state.current_player()
            obs = state.observation(seat)
            legal = state.legal_actions()
            words = [view.action_words(obs, a) for a in legal]
            assert len({typed_form(w) for w in words}) == len(words), words
            for action, shown in zip(legal, words):
                by_id = place_words(action.to_json(), _ids)
                assert by_id is None or by_id == str(action), (by_id, str(action))
                placed += by_id is not None
                if by_id is not None and game_id == "scythe":
                    assert not re.search(r"\br\d+c\d+\b|\bhome_", shown), shown
    assert placed > 50


def test_the_island_map_shows_labels_not_ids() -> None:
    game = load_game("island", 4)
    state = list(_states(game, 3, 80))[-1]
    obs = state.observation(0)
    places = labels(board_topology(obs["board"]))
    text = draw_board(obs, labelled=True)
    assert "[A]" in text and "[S]" in text and "[0]" not in text
    numbers = {int(n) for n in re.findall(r"(?<![\w:-])(\d+)(?![\w:-])", text.split("harbors:")[0])}
    # the intersections' labels, less the spots built on, and the tokens (2..12) on the hexes
    free = {int(places.nodes[v]) for v in range(len(places.nodes))} - {
        int(places.nodes[v]) for v, _ in [*obs["settlements"], *obs["cities"]]
    }
    assert free <= numbers and max(numbers) == len(places.nodes)
    assert not re.search(r"[/\\|]\d", text)  # an edge is a bare stroke (a road: /r2)
    assert re.search(r"[/\\|]r\d", text)  # roads are built by now
    harbors = text.split("harbors: ")[1]
    for slot in board_topology(obs["board"]).harbor_slots:
        assert f"at {places.edges[slot]}" in harbors
    # the engine's rendering (replay --show, golden playthroughs) stays by id, as actions are
    assert "[0]" in draw_board(obs)


def test_the_terminal_board_and_menu_name_places_by_label() -> None:
    game = load_game("island", 4)
    session, out = _session(game, ["board", "list", "quit"])
    session.run()
    text = out.getvalue()
    assert "[A]" in text and "[0]" not in text and "harbors (spots):" in text
    assert "settle 54" in text and not re.search(r"\bsettle 0\b", text)


def _setup(game: Game) -> State:
    state = game.new_initial_state()
    state.apply(state.sample_chance(make_rng(3, "chance")))  # the layout
    return state


def test_typing_the_menu_words_picks_the_labelled_action() -> None:
    """``settle 12`` is the spot labelled 12 (not id 12); ``road a-b`` the road between the
    spots labelled a and b; the prompt for the setup road names the settlement by label."""
    game = load_game("island", 4, {"map": "driftland"})
    state = _setup(game)
    places = labels(board_topology(state.observation(0)["board"]))
    node = places.nodes.index("12")
    assert node != 12  # by id, "settle 12" would be another spot
    topology = board_topology(state.observation(0)["board"])
    edge = next(
        e
        for e, (a, b) in enumerate(topology.edge_nodes)
        if node in (a, b) and BuildRoad(e) in _legal_after(state, BuildSettlement(node))
    )
    session, out = _session(game, ["settle 12", f"ROAD  {places.edges[edge]}", "quit"])
    session.state = state
    session.run()
    assert session.actions[:2] == [f"settle {node}", f"road {edge}"], session.actions
    assert "place a road next to settlement 12" in out.getvalue()


def _legal_after(state: State, action: Any) -> list[Any]:
    after = state.clone()
    after.apply(action)
    return after.legal_actions()


def test_the_engine_id_notation_still_works_when_no_entry_reads_so() -> None:
    game = load_game("island", 4)
    state = _setup(game)
    session, _ = _session(game, ["settle 0", "quit"])  # no spot is labelled 0: id 0
    session.state = state
    session.run()
    assert session.actions[0] == "settle 0"


def test_robber_words_pick_the_hex_and_the_victim() -> None:
    """At a robber decision each entry reads ``robber <letter>`` or ``robber <letter> steal
    <seat>`` and its hint ``hex <letter>, <terrain and number>: ...``; the typed words pick
    exactly that action."""
    game = load_game("island", 4)
    view = island_view.VIEW(game)
    seen = 0
    for state in _states(game, 5, 4000):
        legal = state.legal_actions()
        if not any(isinstance(a, MoveRobber) for a in legal):
            continue
        obs = state.observation(state.current_player())
        places = labels(board_topology(obs["board"]))
        words = [view.action_words(obs, a) for a in legal]
        for i, action in enumerate(legal):
            assert isinstance(action, MoveRobber)
            want = f"robber {places.hexes[action.hex]}" + (
                f" steal {action.victim}" if action.victim >= 0 else ""
            )
            assert words[i] == want
            assert pick(words, want.lower()) == i
            # the hint names the hex by its letter too (B, D, G, L, O, W are no terrains here)
            hint = view.hint(obs, action, game.describe_action(obs, action))
            assert hint.startswith(f"hex {places.hexes[action.hex]}, "), hint
        seen += 1
    assert seen


def test_scythe_menu_and_units_name_territories_by_label() -> None:
    game = load_game("scythe", 2)
    view = scythe_view.VIEW(game)
    for state in _states(game, 1, 400):
        legal = state.legal_actions()
        moves = [a for a in legal if (a.to_json() or {}).get("kind") == "move"]
        if moves:
            break
    else:
        pytest.fail("no move decision")
    obs = state.observation(state.current_player())
    move = moves[0]
    words = view.action_words(obs, move)
    fields = move.to_json()
    assert words == f"move {fields['unit']} {LABELS.label('territory', fields['from'])}"
    assert pick([view.action_words(obs, a) for a in legal], words) == legal.index(move)
    compact = "\n".join(view.compact(obs, state.current_player(), WIDE))
    assert not re.search(r"\br\d+c\d+\b|\bhome_", compact), compact
