"""Every registered game at every player count survives the copies check (issue 25, deliver
2): states copied by pickle into a spawned process, by deepcopy, by clone and by position round
trip play on exactly like the original (``hexfolk.core.testing.copies``).

The copy points cover the steps whose memos once broke or could break a copy: the island's
trades of every kind (maritime ``trade``, ``offer``, ``counter``, ``accept``, ``reject``,
``withdraw``, ``complete``), development cards (``buy``, ``play``), the robber's ``steal`` and
the discards of a 7; Scythe's combats (``commit``: the hidden commitments), encounters
(``encounter``, ``option``), trades, productions and the bottom-row actions. Each listed kind
happens at least twice in the game of its seed, so a copy is taken after one (its memos are
carried) and plays another. One spawned pool serves the whole module.

A game registered later runs with the defaults (seed 0, whole games, no kinds to cover) until
it gets its own line in :data:`SETTINGS`.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from hexfolk.core import game_class, load_game
from hexfolk.core import testing as kit
from tests.test_registry_coverage import shipped_games

TRADES = ("trade", "offer", "counter", "accept", "reject", "withdraw", "complete")
ISLAND = (*TRADES, "buy", "play", "steal", "discard")
SCYTHE_TURN = ("trade", "produce", "bolster", "move", "upgrade", "deploy", "build", "enlist")
SCYTHE = (*SCYTHE_TURN, "commit", "encounter", "option")

SETTINGS: dict[tuple[str, int], tuple[int, int | None, tuple[str, ...]]] = {
    # (game, players): (seed, turn cap, kinds of steps the copy points cover)
    ("island", 2): (0, 20, TRADES),
    ("island", 3): (0, 20, tuple(k for k in ISLAND if k != "discard")),
    ("island", 4): (1, 20, ISLAND),
    ("island", 5): (0, 20, tuple(k for k in ISLAND if k not in ("play", "discard"))),
    ("island", 6): (2, 20, tuple(k for k in ISLAND if k != "discard")),
    ("island", 7): (2, 20, tuple(k for k in ISLAND if k != "discard")),
    ("island", 8): (0, 20, ISLAND),
    ("scythe", 2): (2, None, SCYTHE),
    ("scythe", 3): (5, 130, SCYTHE),
    ("scythe", 4): (3, 80, (*(k for k in SCYTHE_TURN if k != "deploy"), "encounter")),
    ("scythe", 5): (
        1,
        80,
        ("trade", "produce", "bolster", "move", "enlist", "encounter", "option"),
    ),
}


def every_game_and_player_count() -> list[tuple[str, int]]:
    cases = []
    for game_id in shipped_games():
        cls = game_class(game_id)
        cases += [(game_id, n) for n in range(cls.min_players, cls.max_players + 1)]
    return cases


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    with kit.copy_pool() as spawned:
        yield spawned


@pytest.mark.parametrize(("game_id", "players"), every_game_and_player_count())
def test_copies_play_on_like_the_original(
    game_id: str, players: int, pool: ProcessPoolExecutor
) -> None:
    seed, cap, cover = SETTINGS.get((game_id, players), (0, None, ()))
    report = kit.check_copies(
        load_game(game_id, players), [seed], turn_cap=cap, points=1, cover=cover, pool=pool
    )
    assert report.points >= 1
    assert set(cover) <= report.carried & report.replayed


def test_the_settings_cover_every_kind_and_name_only_registered_games() -> None:
    cases = set(every_game_and_player_count())
    assert set(SETTINGS) <= cases
    for game_id, wanted in (("island", ISLAND), ("scythe", SCYTHE)):
        covered = {k for (g, _), (_, _, cover) in SETTINGS.items() if g == game_id for k in cover}
        assert covered == set(wanted), game_id


@pytest.mark.parametrize("options", [{"map": "driftland"}, {"map": "crescent"}])
def test_island_maps_copies_play_on_like_the_original(
    options: dict[str, str], pool: ProcessPoolExecutor
) -> None:
    # maps build their geometry from the drawn island (its key is the island's shape), and
    # Driftland draws a new coastline every game: the copies carry those geometries
    game = load_game("island", 3, options)
    kinds = ("trade", "offer", "counter", "complete")
    report = kit.check_copies(game, [1], turn_cap=12, points=1, cover=kinds, pool=pool)
    assert set(kinds) <= report.carried & report.replayed
