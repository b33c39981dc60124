"""Karma, profiles and "my games" in Chromium (issue 30, points 4 and 5; docs/profiles.md), from
real games played to the end on the test server: Bea finishes four island games and leaves one
to a stand-in bot (karma 80%), Ann finishes one and leaves one (no karma yet: 2 games).
Desktop and phone, in the four languages; screenshots for review."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, play_scripted, quick_choice
from tests.server.test_profiles import plays_written
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import in_thread, new_page, reveal_tab, settle

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 640}
TABLE: dict[str, Any] = {
    "game": "island",
    "players": 2,
    "options": {"vp_target": 8},
    "seats": [{"kind": "host"}, {"kind": "bot", "level": "easy"}],
    "clock": None,
    "bot_delay": 0,
    "disconnect": {"policy": "bot", "grace": 0.05},
}


async def _game(url: str, token: str, seed: int, stay: bool) -> str:
    """A game of the player of ``token`` against an easy bot, played to the end by them
    (``stay``) or, never connected, by a stand-in bot after the grace period: the table id."""
    async with HexfolkClient(url) as c:
        c.token = token
        t = await c.create_table(**TABLE, seed=seed)
        await c.start(t["id"])
        if stay:
            async with c.connect(t["id"]) as conn:
                await play_scripted(conn, quick_choice(random.Random(seed)), timeout=400)
        else:
            async with c.connect(t["id"], spectate=True) as watcher:
                await watcher.wait_for(lambda v: v["status"] == "finished", timeout=400)
        return str(t["id"])


@pytest.fixture(scope="module")
def people(web_server: ThreadServer) -> dict[str, Any]:
    """Bea (4 games finished, 1 left: 80%) and Ann (1 finished, 1 left: no karma yet), then
    Bea's open table asking for a karma of 70% and her game in progress."""

    async def go() -> dict[str, Any]:
        url = web_server.url
        async with HexfolkClient(url) as bea, HexfolkClient(url) as ann:
            b = await bea.create_player("Bea")
            a = await ann.create_player("Ann")
            assert bea.token and ann.token
            runs = [_game(url, bea.token, seed, seed != 15) for seed in (11, 12, 13, 14, 15)]
            runs += [_game(url, ann.token, 21, True), _game(url, ann.token, 22, False)]
            ids = await asyncio.gather(*runs)
            await plays_written(bea, b["id"], 5)  # the game-end hooks, in their own tasks
            await plays_written(ann, a["id"], 2)
            open_table = await bea.create_table(game="island", players=2, min_karma=70)
            playing = await bea.create_table(
                **{**TABLE, "disconnect": {"policy": "wait", "grace": 60}}, seed=31
            )
            await bea.start(playing["id"])
            return {
                "bea": {**b, "token": bea.token},
                "ann": {**a, "token": ann.token},
                "bea_games": ids[:5],
                "bea_left": ids[4],
                "ann_games": ids[5:],
                "open": open_table["id"],
                "playing": playing["id"],
            }

    return in_thread(go, timeout=900)  # type: ignore[no-any-return]


def _as(
    page: Any, server: ThreadServer, player: dict[str, Any], route: str, lang: str = "en"
) -> None:
    """Open the page ``route`` (``#/...``) as ``player`` (their identity in this browser) in
    language ``lang``: both stored before the page's first script runs."""
    ident = json.dumps({"id": player["id"], "name": player["name"], "token": player["token"]})
    page.add_init_script(
        f"localStorage.setItem('hexfolk.player', {json.dumps(ident)});"
        f"localStorage.setItem('hexfolk.lang', {json.dumps(lang)});"
    )
    page.goto(server.url + "/" + route)


def shoot(page: Any, name: str, show: str | None = None) -> None:
    """Screenshots for review at 1280x800 and 360x640 (``show``: scrolled into view first)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, box in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(box)
        settle(page)
        if show:
            reveal_tab(page, show)
            page.locator(show).first.scroll_into_view_if_needed()
        keep_screenshot(page, SHOTS / f"{name}-{size}.png")
    page.set_viewport_size(DESKTOP)
    settle(page)


def _texts(lang: str) -> dict[str, str]:
    from tests.web.conftest import ROOT

    web = ROOT / "src" / "hexfolk" / "web" / "i18n"
    out: dict[str, str] = {}
    for path in (web / f"{lang}.json", web / "players" / f"{lang}.json"):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


@pytest.mark.parametrize("lang", ["en", "nl", "es", "ko"])
def test_the_profile_shows_karma_games_and_recent_games(
    browser: Any, web_server: ThreadServer, people: dict[str, Any], lang: str
) -> None:
    """Point 5: Bea's profile: karma 80% (4 of 5 finished), 5 island games, the recent games
    with their replay and overview links, the game she left marked, and "no rated games yet"
    while the server has no ratings (a 404 reads as none)."""
    texts = _texts(lang)
    page = new_page(browser, size=DESKTOP)
    _as(page, web_server, people["ann"], f"#/player/{people['bea']['id']}", lang)
    page.wait_for_selector("#profile-name")
    assert page.inner_text("#profile-name") == "Bea"
    assert page.inner_text(".karma-big") == "80%"
    assert texts["karma.tip"].format(stayed=4, games=5) in page.inner_text("#karma")
    row = page.locator("table.per-game tr[data-game=island] td")
    assert row.all_inner_texts()[1:] == ["5", str(_wins(web_server, people["bea_games"]))]
    items = page.locator("#recent li.game-item")
    assert items.count() == 5
    shown = [items.nth(i).get_attribute("data-table") for i in range(5)]
    assert sorted(shown) == sorted(people["bea_games"])
    left = page.locator(f"#recent li[data-table='{people['bea_left']}'] .result.left")
    assert left.inner_text() == texts["profile.left"]
    assert page.locator("#recent .result.left").count() == 1
    first = items.nth(0)
    tid = shown[0]
    assert first.locator("a.replay-link").get_attribute("href") == f"#/t/{tid}/replay"
    assert first.locator("a.overview-link").get_attribute("href") == f"#/t/{tid}/overview"
    assert page.inner_text("#ratings .no-ratings") == texts["profile.no_ratings"]
    assert page.locator("#my-games-link").count() == 0  # not Ann's own profile
    shoot(page, f"profile-{lang}")
    page.set_viewport_size(PHONE)
    settle(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    if lang == "en":
        # the replay link leads to the game's replay
        page.set_viewport_size(DESKTOP)
        first.locator("a.replay-link").click()
        page.wait_for_function("() => document.body.dataset.page === 'replay'")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _wins(server: ThreadServer, tables: list[str]) -> int:
    import httpx

    wins = 0
    for tid in tables:
        result = httpx.get(f"{server.url}/api/tables/{tid}", timeout=30).json()["result"]
        wins += 0 in result["winners"]
    return wins


def test_karma_beside_names_in_the_lobby_and_at_the_table(
    browser: Any, web_server: ThreadServer, people: dict[str, Any]
) -> None:
    """Point 4: Ann's lobby lists Bea's open table with Bea's name, her karma (80%, a tooltip
    saying what it counts) and the table's least karma; the name leads to her profile. At
    Bea's game in progress the players' panel shows the same (the name opens a new tab)."""
    texts = _texts("en")
    page = new_page(browser, size=DESKTOP)
    _as(page, web_server, people["ann"], "#/")
    row = page.locator("#open-tables li.table-row", has=page.locator("a.plink", has_text="Bea"))
    badge = row.locator(f".karma[data-player='{people['bea']['id']}']")
    badge.wait_for()
    assert badge.inner_text() == "80%"
    assert badge.get_attribute("title") == texts["karma.tip"].format(stayed=4, games=5)
    assert texts["karma.min_line"].format(n=70) in row.inner_text()
    shoot(page, "lobby-karma")
    row.locator("a.plink").click()
    page.wait_for_selector("#profile-name")
    assert page.inner_text("#profile-name") == "Bea"
    # at the table: the players' panel
    page.goto(f"{web_server.url}/#/t/{people['playing']}")
    name = page.locator("#players li.player[data-seat='0'] a.plink")
    name.wait_for()
    assert name.inner_text() == "Bea"
    assert name.get_attribute("target") == "_blank"
    assert name.get_attribute("href") == f"#/player/{people['bea']['id']}"
    tag = page.locator("#players li.player[data-seat='0'] .karma")
    page.wait_for_function(
        "() => document.querySelector(\"#players li.player[data-seat='0'] .karma\").textContent"
    )
    assert tag.inner_text() == "80%"
    shoot(page, "table-karma", show="#players")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_player_without_karma_is_told_why_they_cannot_sit(
    browser: Any, web_server: ThreadServer, people: dict[str, Any]
) -> None:
    """Point 4: Ann (2 started games: no karma yet) opens Bea's table asking for 70%: the
    refusal in Dutch, and the seat stays open."""
    texts = _texts("nl")
    page = new_page(browser, locale="nl-NL", size=PHONE)
    _as(page, web_server, people["ann"], f"#/t/{people['open']}", "nl")
    page.wait_for_selector("#min-karma-line")
    assert texts["karma.min_line"].format(n=70) in page.inner_text("#min-karma-line")
    page.click("#join")
    toast = page.locator("#toast")
    want = texts["karma.err.unknown"].format(required=70, n=5, games=2)
    page.wait_for_function("(w) => document.getElementById('toast').textContent === w", arg=want)
    assert toast.inner_text() == want
    assert page.locator("#seats li.seat[data-seat='1'] .join-seat, #join").count() == 1
    shoot(page, "table-lobby-karma-nl")
    page.context.close()


def test_the_create_form_and_the_host_choose_a_least_karma(
    browser: Any, web_server: ThreadServer, people: dict[str, Any]
) -> None:
    """Point 4: the create form's least karma reaches the table; the host changes it in the
    table's lobby."""
    page = new_page(browser, size=DESKTOP)
    _as(page, web_server, people["bea"], "#/")
    page.select_option("#set-min-karma", "90")
    shoot(page, "create-min-karma", show="#set-min-karma")
    page.click("#create-table")
    page.wait_for_function("() => /^#\\/t\\/[^/]+$/.test(location.hash)")
    tid = page.evaluate("() => location.hash.split('/')[2]")
    page.wait_for_selector("#table-min-karma")
    assert page.eval_on_selector("#table-min-karma", "(s) => s.value") == "90"
    page.select_option("#table-min-karma", "")
    page.wait_for_function(
        "(id) => fetch(`/api/tables/${id}`).then((r) => r.json())"
        ".then((t) => t.min_karma === null)",
        arg=tid,
    )
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_my_games_filters(browser: Any, web_server: ThreadServer, people: dict[str, Any]) -> None:
    """Point 5: "my games" lists Ann's two games, filters by player count, game and result
    (the hash keeps the filters), and says why a bad filter in the address is refused."""
    texts = _texts("es")
    page = new_page(browser, locale="es-ES", size=PHONE)
    _as(page, web_server, people["ann"], "#/", "es")
    page.click("#my-games-top")
    page.wait_for_selector("#my-games")
    assert page.locator("#my-games li.game-item").count() == 2
    assert page.inner_text("#games-count") == texts["mygames.count"].format(n=2)
    shoot(page, "my-games-es")
    page.set_viewport_size(PHONE)
    settle(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.select_option("#f-players", "3")
    page.wait_for_selector("#no-games")
    assert "players=3" in page.url
    assert page.inner_text("#no-games") == texts["mygames.none"]
    page.select_option("#f-players", "2")
    page.wait_for_selector("#my-games")
    wins = _wins(web_server, people["ann_games"])
    page.select_option("#f-result", "won")
    page.wait_for_function("() => location.hash.includes('result=won')")
    page.wait_for_selector("#games-count")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#my-games li.game-item').length === n"
        " || (n === 0 && document.getElementById('no-games'))",
        arg=wins,
    )
    page.goto(web_server.url + "/#/me/games?players=9")
    page.wait_for_selector("#games-problem")
    assert "2..8" in page.inner_text("#games-problem")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_rating_chart_from_a_ratings_entry(browser: Any, web_server: ThreadServer) -> None:
    """Point 5: the chart of a ratings entry (the shape of GET /api/players/{id}/ratings):
    one point per rated game, oldest left, the highest rating at the top; none for an empty
    history."""
    page = new_page(browser, size=DESKTOP)
    page.goto(web_server.url + "/")
    entry = {
        "game": "island",
        "family": "4",
        "rating": 27.1,
        "mu": 28.0,
        "sigma": 3.1,
        "games": 3,
        "history": [
            {"table_id": "a", "at": 1.0, "rating": 20.0},
            {"table_id": "b", "at": 2.0, "rating": 30.0},
            {"table_id": "c", "at": 3.0, "rating": 25.0},
        ],
    }
    got = page.evaluate(
        """async (e) => {
          const m = await import('/app/rating_chart.js');
          const model = m.chartModel(e, {width: 100, height: 50, pad: 0, gutter: 0});
          const svg = m.ratingChart(e, 'island');
          const empty = m.chartModel({...e, history: []});
          return {model, dots: svg.querySelectorAll('circle').length,
                  line: svg.querySelector('polyline').getAttribute('points'),
                  drawn: m.chartModel(e).path, empty};
        }""",
        entry,
    )
    assert got["model"]["points"] == [[0, 50], [50, 0], [100, 25]]
    assert (got["model"]["min"], got["model"]["max"], got["model"]["last"]) == (20, 30, 25)
    assert got["dots"] == 3 and got["line"] == got["drawn"] == "34,112 173,8 312,60"
    assert got["empty"]["points"] == [] and got["empty"]["last"] == 27.1
    # the profile's ratings card drawn from two entries (one of a single game), for review
    two = [
        entry,
        {**entry, "game": "scythe", "family": "2", "games": 1, "history": [entry["history"][0]]},
    ]
    page.evaluate(
        """async (list) => {
          const [p, i18n] = await Promise.all([import('/app/profile.js'), import('/app/i18n.js')]);
          await Promise.all([i18n.loadGameTexts('island'), i18n.loadGameTexts('scythe')]);
          document.getElementById('app').replaceChildren(p.ratingsSection(list));
        }""",
        two,
    )
    assert page.locator("#ratings svg.rating-chart").count() == 2
    assert page.locator("#ratings .rating[data-game=scythe] circle").count() == 1
    shoot(page, "ratings-card")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone360"])
def test_the_players_pages_pass_the_person_checks(
    browser: Any, web_server: ThreadServer, people: dict[str, Any], size: str
) -> None:
    """Issue 27's checks on the new pages (tests/web/person_checks.py): no wider than the
    screen, every clickable thing on top once scrolled to, no serious or critical axe-core
    violation: the profile (with its ratings card), my games, the lobby with karma."""
    from tests.web.person_checks import SIZES, axe_missing, axe_violations, covered, overflow

    no_axe = axe_missing()
    scan = (lambda page, where: []) if no_axe else axe_violations
    page = new_page(browser, size=SIZES[size])
    _as(page, web_server, people["ann"], "#/")
    found: list[str] = []
    for name, route, drawn in [
        ("lobby", "#/", "#open-tables .karma:not([hidden])"),
        ("profile", f"#/player/{people['bea']['id']}", "#recent li.game-item"),
        ("my games", "#/me/games", "#my-games li.game-item"),
    ]:
        page.goto(f"{web_server.url}/{route}")
        page.wait_for_selector(drawn)
        found += overflow(page, name) + covered(page, name)[1] + scan(page, name)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    assert not found, f"at {size}:\n" + "\n".join(found)
    if no_axe:
        pytest.skip(f"no axe-core scan: {no_axe}")


def test_the_overview_link_of_a_game_without_an_overview_page_shows_its_end(
    browser: Any, finished_server: ThreadServer, finished_tables: dict[str, tuple[str, int]]
) -> None:
    """A game list's "Overview" link is ``#/t/<id>/overview`` for every game: Scythe has no
    overview page, so the link shows its table's end (the final scoring and the analysis),
    laid out as the table page."""
    tid, _ = finished_tables["scythe"]
    page = new_page(browser, size=PHONE)
    page.goto(f"{finished_server.url}/#/t/{tid}/overview")
    page.wait_for_selector("#scores tr.fortune")
    assert page.evaluate("() => document.body.dataset.page") == "table"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
