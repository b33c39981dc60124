"""Every game the package registers has conformance, perft and golden tests (issue 14).

The registry (:mod:`hexfolk.core.registry`) is the list of games people can play; a game added
there without its tests would otherwise pass the suite by having nothing to fail. For each
game ``<id>`` this checks, in ``tests/games/<id>/``:

* ``test_conformance.py``, which runs the conformance kit (``check_random_playouts``) on it,
  and the JSON form of its actions (``check_action_json``, issue 26);
* ``perft/`` with at least one ``*.perft`` file of that game, and a test that checks perft
  files (``check_perft_file`` or ``check_perft``);
* ``golden/`` with at least one golden playthrough, and a test that calls ``check_golden``;

and that it writes and loads positions (``kit.check_positions`` along two random games).

The failure names every missing piece. Test doubles registered by the tests themselves (the toy
game ``bids``) are not games of the package and are left out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexfolk.core import game_class, game_ids, load_game
from hexfolk.core import testing as kit

TESTS = Path(__file__).parent


def shipped_games() -> list[str]:
    """The ids of the games the package registers (not the tests' doubles)."""
    return [g for g in game_ids() if game_class(g).__module__.startswith("hexfolk.")]


def missing_coverage(game_id: str, root: Path) -> list[str]:
    """What ``root/games/<game_id>/`` lacks of the tests every game must have, in words."""
    here = root / "games" / game_id
    if not here.is_dir():
        return [f"{here} (the game's test folder) does not exist"]
    sources = {p.name: p.read_text(encoding="utf-8") for p in sorted(here.glob("test_*.py"))}
    missing: list[str] = []
    conformance = sources.get("test_conformance.py")
    if conformance is None:
        missing.append(f"{here / 'test_conformance.py'} does not exist")
    elif "check_random_playouts" not in conformance or f'"{game_id}"' not in conformance:
        missing.append(
            f"{here / 'test_conformance.py'} does not run check_random_playouts on {game_id!r}"
        )
    if conformance is not None and "check_action_json" not in conformance:
        missing.append(
            f"{here / 'test_conformance.py'} does not check its actions' JSON (check_action_json)"
        )
    perft_files = sorted((here / "perft").glob("*.perft"))
    if not perft_files:
        missing.append(f"{here / 'perft'} has no *.perft file")
    for path in perft_files:
        try:
            named = json.loads(path.read_text(encoding="utf-8")).get("game")
        except (ValueError, AttributeError):
            named = None
        if named != game_id:
            missing.append(f"{path} is not a perft file of {game_id!r} (its game: {named!r})")
    if not any("check_perft" in text for text in sources.values()):
        missing.append(f"no test in {here} calls check_perft_file or check_perft")
    golden_files = sorted(p for p in (here / "golden").glob("*") if p.is_file())
    if not golden_files:
        missing.append(f"{here / 'golden'} has no golden playthrough")
    if not any("check_golden" in text for text in sources.values()):
        missing.append(f"no test in {here} calls check_golden")
    return missing


def test_the_package_registers_games() -> None:
    assert {"island", "scythe"} <= set(shipped_games())  # the check below is not over nothing


@pytest.mark.parametrize("game_id", shipped_games())
def test_every_registered_game_has_conformance_perft_and_golden_tests(game_id: str) -> None:
    missing = missing_coverage(game_id, TESTS)
    assert not missing, f"{game_id} lacks:\n  " + "\n  ".join(missing)


@pytest.mark.parametrize("game_id", shipped_games())
def test_every_registered_game_writes_and_loads_positions(game_id: str) -> None:
    game = load_game(game_id)
    checked = kit.check_positions(game, range(2), every=17, max_steps=300)
    assert checked >= 4


def test_the_coverage_check_names_what_is_missing(tmp_path: Path) -> None:
    assert missing_coverage("chess", tmp_path) == [
        f"{tmp_path / 'games' / 'chess'} (the game's test folder) does not exist"
    ]
    here = tmp_path / "games" / "chess"
    (here / "perft").mkdir(parents=True)
    (here / "test_conformance.py").write_text("def test_nothing(): pass\n", encoding="utf-8")
    (here / "perft" / "start.perft").write_text('{"game": "checkers"}', encoding="utf-8")
    assert missing_coverage("chess", tmp_path) == [
        f"{here / 'test_conformance.py'} does not run check_random_playouts on 'chess'",
        f"{here / 'test_conformance.py'} does not check its actions' JSON (check_action_json)",
        f"{here / 'perft' / 'start.perft'} is not a perft file of 'chess' (its game: 'checkers')",
        f"no test in {here} calls check_perft_file or check_perft",
        f"{here / 'golden'} has no golden playthrough",
        f"no test in {here} calls check_golden",
    ]
    (here / "test_conformance.py").write_text(
        'kit.check_random_playouts(load_game("chess", 2), seeds=[1])\n'
        'check_action_json(load_game("chess", 2), seeds=[1])\n',
        encoding="utf-8",
    )
    (here / "perft" / "start.perft").write_text('{"game": "chess"}', encoding="utf-8")
    (here / "golden").mkdir()
    (here / "golden" / "seed1.txt").write_text("game chess\n", encoding="utf-8")
    (here / "test_perft_golden.py").write_text(
        "kit.check_perft_file(p)\nkit.check_golden(g, 1, q)\n", encoding="utf-8"
    )
    assert missing_coverage("chess", tmp_path) == []
