"""Terminal display: the board map, the mats, the action hints, and that a seat's render shows
nothing its observation hides (SR-4 board, SR-20 costs, SR-47 encounters, SR-59 secrets).

Expected contents are read from the observation JSON and the raw data files, and the map is
read back cell by cell from the rendered text.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from hexfolk.core import load_game
from hexfolk.core import testing as kit
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import ChooseSection, EncounterOption, Pay, Step
from hexfolk.games.scythe.display import CELL, HALF, ROW, draw_map
from hexfolk.games.scythe.state import ScytheState
from hexfolk.games.scythe.territory_labels import LABELS

from .helpers import (
    clear_board,
    give,
    hand,
    play,
    position,
    put_char,
    put_mech,
    put_res,
    put_structure,
    put_workers,
    set_hand,
    set_seat,
)
from .test_cards import encounter_position
from .test_hidden import plant_sentinel

DATA = Path(D.__file__).parent / "data"
MATS = json.loads((DATA / "mats.json").read_text(encoding="utf-8"))["mats"]
BOARD = json.loads((DATA / "board.json").read_text(encoding="utf-8"))
GAME = load_game("scythe", 2, {"factions": "nordic,crimea", "mats": "industrial,engineering"})
RES_LETTER = {"oil": "o", "metal": "m", "food": "f", "wood": "w"}


def random_states(players: int, seed: int, every: int) -> list[ScytheState]:
    """Decision states along a seeded random game, every ``every`` steps."""
    game = load_game("scythe", players)
    result = kit.play_random(game, seed)
    state = game.new_initial_state()
    out = []
    for i, action in enumerate(result.actions):
        if i % every == 0 and state.current_player() >= 0:
            assert isinstance(state, ScytheState)
            out.append(state.clone())
        state.apply(action)
    return out


ID_OF_LABEL = {label: loc for loc, label in LABELS.by_id.items()}
"""The board id of each territory label the map writes (``G4``, ``Factory``, ``Nordic base``)."""


def read_cells(lines: list[str]) -> dict[str, tuple[int, int, list[str]]]:
    """Every map cell by the board id of its label, the cell's first word or two (``G4``,
    ``Nordic base``): (line, column, the cell's three lines)."""
    cells: dict[str, tuple[int, int, list[str]]] = {}
    for i, line in enumerate(lines):
        col = 0
        words = line.split(" ")
        for w, word in enumerate(words):
            label = word.lstrip("~")
            start = col + (len(word) - len(label))
            col += len(word) + 1
            if w + 1 < len(words) and f"{label} {words[w + 1]}" in ID_OF_LABEL:
                label = f"{label} {words[w + 1]}"
            if label in ID_OF_LABEL:
                name = ID_OF_LABEL[label]
                assert name not in cells, f"{name} drawn twice"
                block = [
                    (lines[i + k] if i + k < len(lines) else "").ljust(start + CELL)[
                        start : start + CELL
                    ]
                    for k in range(3)
                ]
                cells[name] = (i, start, block)
    return cells


def expected_units(units: dict[str, Any]) -> str:
    out = []
    for seat in sorted(units, key=int):
        u = units[seat]
        text = ""
        for key, letter in (("character", "C"), ("mechs", "M"), ("workers", "W")):
            n = u[key]
            text += "" if n == 0 else letter if n == 1 else f"{n}{letter}"
        out.append(f"{seat}:{text}")
    return " ".join(out)


def check_map(obs: dict[str, Any]) -> None:
    lines = draw_map(obs)
    cells = read_cells(lines)
    in_play = {pl["faction"] for pl in obs["player_state"]}
    for t in BOARD["territories"]:
        assert t["id"] in cells, f"territory {t['id']} missing from the map"
    for h in BOARD["home_bases"]:
        assert (h["id"] in cells) == (h["faction"] in in_play or h["id"] in obs["board"])
    for name, (_, _, block) in cells.items():
        entry = obs["board"].get(name, {})
        first = block[0].split()
        assert ("?" in first) == bool(entry.get("encounter_token")), name
        want_units = expected_units(entry.get("units", {}))
        assert block[1].strip() == want_units or (
            block[1].endswith("+")
            and any(line.startswith(f"  * {LABELS.by_id[name]}:") for line in lines)
        ), (name, block, want_units)
        third = block[2].strip()
        if "structure" in entry and not third.endswith("+"):
            s = entry["structure"]
            assert third.split()[0] == s["kind"][:4] + str(s["seat"]), (name, third)
        for res, n in entry.get("resources", {}).items():
            assert f"{n}{RES_LETTER[res]}" in third.replace(" ", "") or third.endswith("+"), (
                name,
                third,
            )


def test_sr4_map_cells_sit_on_the_hex_grid_with_rivers() -> None:
    """E neighbours share a line 2*HALF columns apart; SE/SW neighbours are one row down,
    HALF columns right/left; every river edge of the data is marked with ~."""
    s = position("nordic,crimea", "industrial,engineering")
    lines = draw_map(s.observation(0))
    cells = read_cells(lines)
    rivers = 0
    for t in BOARD["territories"]:
        line, col, _ = cells[t["id"]]
        for nb in t["neighbors"]:
            if nb["id"] not in cells:
                continue
            line2, col2, _ = cells[nb["id"]]
            delta = {
                "E": (0, 2 * HALF),
                "W": (0, -2 * HALF),
                "SE": (ROW, HALF),
                "SW": (ROW, -HALF),
                "NE": (-ROW, HALF),
                "NW": (-ROW, -HALF),
            }[nb["dir"]]
            assert (line2 - line, col2 - col) == delta, (t["id"], nb)
            if nb["river"] and nb["dir"] == "E":
                rivers += 1
                assert all(lines[line + k][col + CELL] == "~" for k in range(ROW - 1))
            if nb["river"] and nb["dir"] in ("SE", "SW"):
                rivers += 1
                start = col + (HALF if nb["dir"] == "SE" else 0)
                assert lines[line + ROW - 1][start : start + CELL - HALF] == "~" * (CELL - HALF)
    assert rivers > 0


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 4)])
def test_sr4_map_shows_every_territory_and_unit_of_the_observation(players: int, seed: int) -> None:
    for state in random_states(players, seed, 37):
        for seat in (None, *range(players)):
            check_map(state.observation(seat))


def test_sr4_crowded_territory_overflows_into_a_note() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_workers(s, 0, "r3c1", 8)
    put_char(s, 0, "r3c1")
    for ability in ("riverwalk", "seaworthy", "artillery", "speed"):
        put_mech(s, 0, ability, "r3c1")
    put_char(s, 1, "r3c1")
    for res in RES_LETTER:
        put_res(s, "r3c1", res, 12)
    put_structure(s, 0, "mill", "r3c1")
    obs = s.observation(0)
    check_map(obs)
    notes = [line for line in draw_map(obs) if line.startswith("  * B3:")]  # r3c1's label
    assert notes == ["  * B3: mill of seat 0, 12 oil, 12 metal, 12 food, 12 wood"]


@pytest.mark.parametrize("mat", [m["id"] for m in MATS])
def test_sr20_section_hints_name_the_mats_actions_and_costs(mat: str) -> None:
    factions = "crimea,nordic" if mat != "patriotic" else "nordic,crimea"
    other = "industrial" if mat != "industrial" else "engineering"
    s = position(factions, f"{mat},{other}")
    obs = s.observation(0)
    raw = next(m for m in MATS if m["id"] == mat)
    for i, sec in enumerate(raw["sections"]):
        hint = GAME.describe_action(obs, ChooseSection(i))
        assert hint.startswith(sec["top"]), hint
        coins = f"+{sec['coins']} coin" + ("" if sec["coins"] == 1 else "s")
        assert f"{sec['bottom']} ({sec['cost']} {sec['resource']}, {coins})" in hint, hint
    view = GAME.render_observation(obs)
    for i, sec in enumerate(raw["sections"]):
        assert f"  {i + 1} {sec['top']}:" in view
        assert f"| {sec['bottom']} {sec['cost']} {sec['resource']} +${sec['coins']}" in view


def test_sr20_hints_and_mat_follow_upgrades_and_the_last_section() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    give(s, 0, upgrades={"move-units": "deploy"})  # SR-21: its cube covers a metal of Deploy
    set_seat(s, 0, last_section=4)
    obs = s.observation(0)
    assert "deploy (2 metal, +2 coins)" in GAME.describe_action(obs, ChooseSection(1))
    view = GAME.render_observation(obs)
    mat_lines = [line for line in view.splitlines() if line.startswith("  4 trade")]
    assert len(mat_lines) == 1 and "last turn (unavailable)" in mat_lines[0]
    assert "deploy 2 metal +$2" in view


def test_sr59_render_never_shows_another_seats_secrets() -> None:
    """The kit's sentinel planted in seat 0's objectives shows in seat 0's render only;
    seat 1's render and hints are unchanged when seat 0's hand changes."""
    sentinel = "SENTINEL-7f3a9c"
    checked = 0
    for state in random_states(2, 3, 29):
        planted = plant_sentinel(state.clone(), 0, sentinel)
        if planted is None:
            continue
        checked += 1
        assert sentinel in GAME.render_observation(planted.observation(0))
        for seat in (1, None):
            obs = planted.observation(seat)
            assert sentinel not in GAME.render_observation(obs)
            if planted.current_player() == seat:
                for a in planted.legal_actions():
                    assert sentinel not in GAME.describe_action(obs, a)
        # another hand of the same size for seat 0: seat 1 sees exactly the same text
        other = state.clone()
        held = hand(other, 0)
        pool = held + [
            v for v, n in zip(D.CARD_VALUES, other.combat_deck, strict=True) for _ in range(n)
        ]
        random.Random(checked).shuffle(pool)
        set_hand(other, 0, pool[: len(held)])
        assert other.observation(1) == state.observation(1)
        assert GAME.render_observation(other.observation(1)) == GAME.render_observation(
            state.observation(1)
        )
    assert checked >= 5


def test_sr59_own_hand_and_objectives_with_their_text() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    obs = s.observation(0)
    view = GAME.render_observation(obs)
    hand = obs["player_state"][0]["hand"]
    assert f"Your combat cards: {' '.join(str(v) for v in hand)}" in view
    for number in obs["player_state"][0]["objective_cards"]:
        o = D.OBJECTIVE_BY_NUMBER[number]
        assert f"{number} {o['name']}: {o['condition']}" in view.replace("\n    ", " ")
    tile = next(t for t in D.TILES if t["id"] == obs["tile"])
    assert tile["counts"] in view.replace("\n    ", " ")
    other = s.observation(1)
    mine = " ".join(str(v) for v in other["player_state"][1]["hand"]) or "none"
    shown = [x for x in GAME.render_observation(other).splitlines() if "combat cards:" in x]
    assert shown == [f"Your combat cards: {mine}"]


def test_render_lines_fit_a_130_column_terminal() -> None:
    for state in random_states(4, 5, 53):
        for seat in (None, 0, 3):
            for line in GAME.render_observation(state.observation(seat)).splitlines():
                assert len(line) <= 125, line


def test_sr26_step_hints_name_terrain_occupants_and_combat() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r2c5")
    put_mech(s, 1, "riverwalk", "r2c6")
    put_workers(s, 1, "r2c6", 2)
    put_workers(s, 1, "r3c5", 1)
    move = next(i for i, sec in enumerate(D.SECTIONS[s.mat[0]]) if sec[0] == "move")
    play(s, f"section {move + 1}", "move character r2c5")
    obs = s.observation(0)
    legal = [a for a in s.legal_actions() if isinstance(a, Step)]
    hints = {D.LOC_NAMES[a.loc]: GAME.describe_action(obs, a) for a in legal}
    assert hints["r2c6"].startswith("farm, encounter ?, P1 M2W") and "COMBAT" in hints["r2c6"]
    assert "their workers retreat, -1 popularity" in hints["r3c5"]


def test_sr47_encounter_hints_and_view_show_the_card_options() -> None:
    s = encounter_position()
    play(s, "encounter 3")
    obs = s.observation(0)
    view = GAME.render_observation(obs)
    assert "Encounter card 3 on G2:" in view  # r2c6 by its board label
    assert "option 2: pay $2 -> 1 worker, 3 food" in view
    hint = GAME.describe_action(obs, EncounterOption(2))
    assert hint.startswith("pay $2 -> 1 worker, 3 food")
    decline = hint.split("(part: ")[1].rstrip(")")
    assert s.is_legal(s.parse_action(decline))  # the suggested partial form is legal


def test_sr14_pay_hint_names_the_source() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_workers(s, 0, "r1c4", 1)
    put_workers(s, 0, "r1c5", 1)
    put_res(s, "r1c4", "metal", 2)
    put_res(s, "r1c5", "metal", 2)
    give(s, 0, coins=5)
    deploy = next(i for i, sec in enumerate(D.SECTIONS[s.mat[0]]) if sec[1] == 1)
    play(s, f"section {deploy + 1}", "skip", "bottom")
    obs = s.observation(0)
    pays = [a for a in s.legal_actions() if isinstance(a, Pay)]
    assert pays
    for a in pays:
        hint = GAME.describe_action(obs, a)
        assert hint.startswith(f"1 of the 2 metal on {LABELS.by_index[a.loc]}")
        assert "still to pay" in hint
