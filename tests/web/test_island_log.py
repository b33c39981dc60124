"""The island log in the player's language (issue 13: "the log in words"; issue 26: log
entries as data, docs/log.md): the engine logs each line as {form, params, text}; the page
renders the form's template of ``i18n/log/island/<lang>.json`` with the params (seats by name,
cards and resources in words, places by the board's labels), the English text being the
fallback of a form without a template. Every line of a real 5-player game (every seat's
visible log, private lines included) is put into Dutch, Spanish and Korean without falling
back, and a table's log shows the translated sentences."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import expect

from hexfolk.core import load_game
from hexfolk.games.island.log_forms import LOG
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.server.people_tables import start_and_watch_to_the_end
from tests.web.helpers import in_thread, new_page, shoot

TRANSLATE_JS = """async ([code, lines]) => {
  const i18n = await import('/app/i18n.js');
  await i18n.setLanguage(code);
  const { islandLogLine, loadIslandLog } = await import('/app/island_log.js');
  await loadIslandLog();
  const name = (i) => ['Anna', 'Bo', 'Chen', 'Dani', 'Eli'][i];
  const place = (kind, v) => `<${kind} ${v}>`;
  return lines.map((l) => {
    const said = islandLogLine(l, name, place);
    return said === l.text ? 'FALLBACK ' + said : said;
  });
}"""


def _game_log(players: int = 5, seed: int = 3) -> list[dict[str, Any]]:
    """Every distinct line any seat sees in a whole game played by random seats (a builder
    bias so that it ends): rolls, production, trades, answers, robber, cards, the special
    build phase (5 players, IR-31), the win."""
    game = load_game("island", players, {"vp_target": 8})
    st = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(20_000):
        if st.is_terminal():
            break
        if st.is_chance():
            st.apply(st.sample_chance(rng))
            continue
        seat = rng.choice(st.acting_seats())
        legal = st.legal_actions_for(seat)
        builds = [a for a in legal if str(a).startswith(("city", "settle", "buy", "play", "road"))]
        st.apply_for(seat, rng.choice(builds if builds and rng.random() < 0.8 else legal))
    assert st.is_terminal()
    seen: dict[str, dict[str, Any]] = {}
    for seat in [*range(players), None]:
        seen.update({str(x): x.to_json() for x in st.observation(seat)["log"]})
    return list(seen.values())


def test_every_engine_sentence_of_a_game_is_translated(
    browser: Any, web_server: ThreadServer
) -> None:
    lines = _game_log()
    forms = {x["form"] for x in lines}
    assert len(forms) >= 15, forms  # many forms, not a handful
    assert forms & {"sbp_join", "sbp_pass"} and "answers" in forms
    assert "stole" in forms  # a private line: what was stolen
    page = new_page(browser)
    page.goto(web_server.url + "/")
    page.wait_for_selector("h1")
    english: list[str] = page.evaluate(TRANSLATE_JS, ["en", lines])
    for code in ("nl", "es", "ko"):
        out: list[str] = page.evaluate(TRANSLATE_JS, [code, lines])
        fell = [line for line, said in zip(lines, out, strict=True) if said.startswith("FALLBACK")]
        assert not fell, (code, fell[:5])
        for line, said, en in zip(lines, out, english, strict=True):
            assert "seat " not in said, (code, line, said)  # seats are names
            assert said != en, (code, line, said)  # not the English sentence
            if line["form"] in ("settles", "road", "robber"):
                assert "<" in said, (code, line, said)  # a place by the page's label
    # the fixed forms: a roll and a trade in each language, word for word from the templates
    sample = [
        LOG.line("rolls", seat=1, total=8).to_json(),
        LOG.line("trade", seat=0, give={"lumber": 4}, get={"ore": 1}).to_json(),
        LOG.line(
            "production",
            paid=[{"seat": 2, "cards": {"wool": 1}}, {"seat": 0, "cards": {"ore": 2}}],
        ).to_json(),
        LOG.line("settles", seat=1, node=13).to_json(),
    ]
    nl = page.evaluate(TRANSLATE_JS, ["nl", sample])
    assert nl == [
        "Bo gooit 8",
        "Anna ruilt 4 hout tegen 1 erts",
        "Chen krijgt 1 wol; Anna krijgt 2 erts",
        "Bo zet een dorp op <node 13>",
    ]
    es = page.evaluate(TRANSLATE_JS, ["es", sample])
    assert es[0] == "Bo tira 8"
    ko = page.evaluate(TRANSLATE_JS, ["ko", sample])
    assert ko[0] == "Bo: 주사위 8"
    # an unknown form falls back to the English text
    unknown = {"form": "sings", "params": {"seat": 1}, "text": "seat 1 sings"}
    assert page.evaluate(TRANSLATE_JS, ["nl", [unknown]]) == ["FALLBACK seat 1 sings"]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_table_log_is_shown_in_dutch(browser: Any, web_server: ThreadServer) -> None:
    async def bots_game() -> str:
        async with HexfolkClient(web_server.url) as host:
            await host.create_player("Host")
            seats = [{"kind": "bot", "level": "easy"} for _ in range(3)]
            t = await host.create_table(
                game="island",
                players=3,
                seats=seats,
                clock=None,
                bot_delay=0,
                options={"vp_target": 8},
            )
            await start_and_watch_to_the_end(host, t["id"], timeout=100)
            return str(t["id"])

    tid = in_thread(bots_game, timeout=150)
    page = new_page(browser, locale="nl-NL")
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#log li")
    items = page.locator("#log li")
    texts = items.all_inner_texts()
    engine = [items.nth(i).get_attribute("title") or "" for i in range(items.count())]
    assert any(" gooit " in x for x in texts), texts[-10:]
    # places by the board's labels: an intersection by its number, an edge by its two (the
    # page draws the last 120 lines of the log: the setup's settlements may be older than
    # those, and a random game may build no settlement at its end, but it builds something)
    place_line = r" (?:zet|bouwt) een (?:dorp|stad|straat) op \d+(?:-\d+)?$"
    assert any(re.search(place_line, x) for x in texts), texts[-12:]
    assert not any(x.startswith("seat ") or " rolls " in x for x in texts), texts[-10:]
    assert any(e.startswith("seat") for e in engine)  # the engine's line is kept as the title
    page.locator("#log").scroll_into_view_if_needed()
    shoot(page, "table-log-nl", ("desktop", "phone"), show="#log")
    _hovered_intersections_show_their_labels(page, web_server.url, tid)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _hovered_intersections_show_their_labels(page: Any, url: str, tid: str) -> None:
    """The labels the log names intersections by are on the board (issue 26 point 2): the one
    under the pointer shows its label, one tag at a time, none once the pointer left."""
    labels = page.evaluate(
        "async (u) => (await (await fetch(u)).json()).geometry.labels.nodes",
        f"{url}/api/tables/{tid}/geometry",
    )
    # intersections with no building (a piece is drawn over its spot and takes the pointer)
    built = page.evaluate(
        "() => { const o = __hexfolkView.observation;"
        " return [...o.settlements, ...o.cities].map(([v]) => v); }"
    )
    free = [v for v in range(len(labels)) if v not in set(built)][:2]
    tags = page.locator("#board .node-labels .place-tag")
    assert tags.count() == 0
    page.set_viewport_size({"width": 1280, "height": 800})
    for v in free:
        page.locator(f'#board [data-node-label="{v}"]').hover()
        expect(tags).to_have_count(1)
        assert tags.text_content() == str(labels[v])
    page.mouse.move(1, 1)
    expect(tags).to_have_count(0)
