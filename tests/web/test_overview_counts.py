"""Issue 27, point 9: "The overview misleads and clips: 'cities 8' counts points, not cities;
'Resources lost' is cut at the right; on a phone the VP total is off-screen."

On a finished bots-only island game (four easy bots, ``finished_games.py``) the overview's VP
table shows, per seat, the pieces the final view holds (IR-1: a settlement 1 VP, a city 2, a VP
card 1, each award 2), each beside the points it makes, and the total; at 1440 px every
table fits its card; at 390x844 and 360x640 nothing is wider than the screen and every seat's
VP total is on it. Scythe's end panel (SR-53: coins, stars, territories, resources; SR-50 the
stars) fits a phone the same way, its stars and popularity those of the final view.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.helpers import ThreadServer
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import DESKTOP, new_page, settle

PHONES = ({"width": 390, "height": 844}, {"width": 360, "height": 640})
IR1 = {"settlements": 1, "cities": 2, "vp_cards": 1, "longest_road": 2, "largest_army": 2}
"""Points per piece, card or award (IR-1)."""


@pytest.fixture(scope="module")
def web_server(finished_server: ThreadServer) -> ThreadServer:
    """The session's server of finished games (conftest): these tests only read them."""
    return finished_server


@pytest.fixture(scope="module")
def island(
    finished_server: ThreadServer, finished_tables: dict[str, tuple[str, int]]
) -> tuple[str, dict[str, Any]]:
    tid, steps = finished_tables["island"]
    return tid, _final_view(finished_server, tid, steps)


@pytest.fixture(scope="module")
def scythe(
    finished_server: ThreadServer, finished_tables: dict[str, tuple[str, int]]
) -> tuple[str, dict[str, Any]]:
    tid, steps = finished_tables["scythe"]
    return tid, _final_view(finished_server, tid, steps)


def _final_view(server: ThreadServer, tid: str, steps: int) -> dict[str, Any]:
    """The replay's last step as a spectator gets it (``reveal=false``, as ``finished_steps``
    holds it): one request, not the whole replay."""
    r = httpx.get(
        f"{server.url}/api/tables/{tid}/replay",
        params={"start": steps, "limit": 1, "reveal": "false"},
        timeout=60,
    )
    r.raise_for_status()
    page = r.json()
    assert page["steps_total"] == steps and len(page["steps"]) == 1, page["steps_total"]
    return dict(page["steps"][0]["observation"])


def final_counts(final: dict[str, Any], seat: int) -> dict[str, int]:
    """What seat ``seat``'s points are counted from in the final (public, revealed) view."""
    return {
        "settlements": sum(1 for _, s in final["settlements"] if s == seat),
        "cities": sum(1 for _, s in final["cities"] if s == seat),
        "vp_cards": final["players"][seat]["dev_hand"]["vp"],
        "longest_road": int(final["longest_road"] == seat),
        "largest_army": int(final["largest_army"] == seat),
    }


def no_overflow(page: Any) -> None:
    over = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert over <= 0, over


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_island_overview_counts_pieces_and_fits(
    browser: Any, web_server: ThreadServer, island: tuple[str, dict[str, Any]], locale: str
) -> None:
    tid, final = island
    page = new_page(browser, locale=locale, size=DESKTOP)
    page.goto(f"{web_server.url}/#/t/{tid}/overview")
    page.wait_for_selector("#vp-table tbody tr")
    rows = page.locator("#vp-table tbody tr")
    n = len(final["players"])
    assert rows.count() == n
    totals = []
    for seat in range(n):
        want = final_counts(final, seat)
        row = rows.nth(seat)
        vp = 0
        for part, count in want.items():
            cell = row.locator(f".vp-part[data-part='{part}']")
            assert int(cell.get_attribute("data-count") or -1) == count, (seat, part)
            assert int(cell.get_attribute("data-vp") or -1) == count * IR1[part], (seat, part)
            shown = cell.locator(".vp-count").inner_text()
            if part in ("longest_road", "largest_army"):
                assert shown == ("✓" if count else "—")
            else:
                assert shown == str(count)  # the count, not the points ("cities 8")
            vp += count * IR1[part]
        total = int(row.locator(".vp-total").inner_text())
        assert total == vp == final["players"][seat]["vp"]
        totals.append(total)
    assert max(totals) >= 10  # the winner reached the target (IR-2)
    # at 1440 px every table fits its card: nothing is cut at the right ("Resources lost")
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.overview .scroll')]"
        ".filter((b) => b.scrollWidth > b.clientWidth + 1)"
        ".map((b) => b.closest('.card').querySelector('h2').textContent)"
    )
    assert cut == [], cut
    no_overflow(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page, SHOTS / f"overview-island-{locale}-1440x900.png", full_page=True)
    for size in PHONES:
        page.set_viewport_size(size)
        settle(page)
        no_overflow(page)
        page.locator("#vp-table").scroll_into_view_if_needed()
        for seat in range(n):
            box = rows.nth(seat).locator(".vp-total").bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (size, seat, box)
        w, h = size["width"], size["height"]
        keep_screenshot(page, SHOTS / f"overview-island-{locale}-{w}x{h}.png", full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_scythe_end_matches_the_final_view_and_fits(
    browser: Any, web_server: ThreadServer, scythe: tuple[str, dict[str, Any]], locale: str
) -> None:
    tid, final = scythe
    page = new_page(browser, locale=locale, size=DESKTOP)
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#scores tr.fortune")
    assert page.locator("#scores tbody tr").count() >= 9
    for seat, p in enumerate(final["player_state"]):
        cells = [
            r.locator(f"td[data-seat='{seat}']").inner_text()
            for r in page.locator("#scores tbody tr").all()
        ]
        assert cells[0].startswith(f"{p['popularity']} ")  # popularity (SR-53's band)
        assert cells[1] == f"${p['coins']}"  # coins
        assert cells[2].startswith(f"{p['star_total']} → ")  # stars placed (SR-50)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in PHONES:
        page.set_viewport_size(size)
        settle(page)
        no_overflow(page)
        page.locator("#scores tr.fortune").scroll_into_view_if_needed()
        for cell in page.locator("#scores tr.fortune td").all():
            box = cell.bounding_box()
            assert box is not None and box["x"] + box["width"] <= size["width"], (size, box)
        w, h = size["width"], size["height"]
        keep_screenshot(page, SHOTS / f"end-scythe-{locale}-{w}x{h}.png", full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
