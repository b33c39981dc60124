"""Issue 27, "Checks that a person would make, automated": every page of both games, at the
desktop size (1440x900) and two phone sizes (390x844, 360x640), is no wider than the screen
(``scrollWidth <= innerWidth``), has every button on top at its centre once scrolled to (as at
a decision, test_person_checks_play.py) and no serious or critical violation in an axe-core scan
(axe from the npm registry, loaded into the page by the test). The pages: the home page with
each game's create form, a table's lobby, a table in play, the end of a game (the island's end
card and overview, Scythe's final scoring) and the replay. Real server, Debian's Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.bot_table import table_with_a_bot
from tests.web.helpers import in_thread, new_page, settle
from tests.web.own_seat import enter
from tests.web.person_checks import SIZES, axe_missing, axe_violations, covered, overflow

GAMES = ("island", "scythe")
UNFOLD = "() => { for (const d of document.querySelectorAll('details')) d.open = true; }"
"""What a person can unfold is looked at unfolded (the host's settings, a mat, for ones)."""
SCYTHE_OPTIONS = {
    "factions": ["polania", "saxony", "nordic"],
    "mats": ["mechanical", "agricultural", "industrial"],
}


def _options(game: str, players: int = 2) -> dict[str, Any]:
    if game == "island":
        return {"vp_target": 8}
    return {k: ",".join(v[:players]) for k, v in SCYTHE_OPTIONS.items()}


@pytest.fixture(scope="module")
def web_server(finished_server: ThreadServer) -> ThreadServer:
    """The session's server of finished games (conftest, as test_replay_controls): its
    finished games are played once per test process, not once more for this module; this
    module's own tables are made there too."""
    return finished_server


@pytest.fixture(scope="module")
def finished(finished_tables: dict[str, tuple[str, int]]) -> dict[str, str]:
    """One finished bots-only game of each game (finished_games.GAMES: the island's four easy
    bots, Scythe's two, seeded, shared with the replay's and the analysis' tests): its id."""
    return {game: finished_tables[game][0] for game in GAMES}


def _lobby_table(url: str, token: str, game: str) -> str:
    """A table of ``game`` in its lobby: the person hosts it, a seat is open, a bot sits."""

    async def make() -> str:
        async with HexfolkClient(url, token=token) as host:
            t = await host.create_table(
                game=game,
                players=3,
                options=_options(game, 3),
                seats=[{"kind": "host"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}],
                clock=None,
            )
            return str(t["id"])

    return str(in_thread(make))


def _pages(
    page: Any, server: ThreadServer, game: str, finished_id: str
) -> list[tuple[str, str, str]]:
    """Each page of ``game`` a person sees: (its name, its address, what shows it is drawn)."""
    url = server.url
    token = str(page.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player')).token"))
    lobby = _lobby_table(url, token, game)
    playing = table_with_a_bot(server, token, game, seed=11)
    pages = [
        ("table lobby", f"{url}/#/t/{lobby}", "#seats li.seat"),
        ("table in play", f"{url}/#/t/{playing}", "#board"),
    ]
    if game == "island":
        pages += [
            ("end of the game", f"{url}/#/t/{finished_id}", "#to-overview"),
            ("overview", f"{url}/#/t/{finished_id}/overview", "#dice-chart"),
        ]
    else:
        pages += [("final scoring", f"{url}/#/t/{finished_id}", "#scores tr.fortune")]
    pages += [("replay", f"{url}/#/t/{finished_id}/replay", "#replay-slider")]
    return pages


def _each_size(page: Any, first: int, name: str, scan: Any) -> list[str]:
    """The page as it is now at each size of ``SIZES`` (resized: the layout is CSS media
    queries alone, as test_person_checks_play relies on too), starting at the ``first``-th,
    so each size also meets pages loaded at it: what is found wrong at each."""
    found: list[str] = []
    sizes = list(SIZES)
    for size in sizes[first:] + sizes[:first]:
        page.set_viewport_size(SIZES[size])
        settle(page)
        where = f"{name} at {size}"
        found += overflow(page, where) + covered(page, where)[1] + scan(page, where)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_page_is_wider_than_the_screen_nor_fails_axe(
    browser: Any, web_server: ThreadServer, finished: dict[str, str], game: str
) -> None:
    """Each page at the three sizes: loaded once at one of them in turn and resized to the
    others (a page per size each, as before, loaded three times over, took a minute of CI)."""
    no_axe = axe_missing()
    scan = (lambda page, where: []) if no_axe else axe_violations
    page = new_page(browser, size=SIZES[next(iter(SIZES))])
    url = web_server.url
    enter(page, url + "/", "Ann")
    found: list[str] = []
    if game == "scythe":
        page.select_option("#set-game", "scythe")
        page.wait_for_selector("#set-factions, [id^=spec-]")
    page.wait_for_timeout(200)
    page.evaluate(UNFOLD)
    found += _each_size(page, 0, f"home page with the {game} create form", scan)
    for i, (name, address, drawn) in enumerate(_pages(page, web_server, game, finished[game])):
        first = (i + 1) % len(SIZES)
        page.set_viewport_size(SIZES[list(SIZES)[first]])  # loaded at this size
        page.goto(address)
        page.wait_for_selector(drawn, state="attached", timeout=20_000)
        if name == "table in play":  # the person's decision drawn
            page.wait_for_function(
                "() => { const v = window.__hexfolkView; return !!v &&"
                " window.__hexfolkVersion === v.version && v.legal.length > 0; }"
            )
        page.wait_for_timeout(300)
        page.evaluate(UNFOLD)
        found += _each_size(page, first, name, scan)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    assert not found, f"{game}:\n" + "\n".join(found)
    if no_axe:  # the rest was checked; the scan could not be
        pytest.skip(f"no axe-core scan: {no_axe}")
