"""The island log in the player's language (issue 13: "the log in words"): the engine writes
English sentences of fixed forms; the page rewrites each with the per-language templates of
the i18n files (presentation only), the English line in words being the fallback. Every line
of a real 5-player game (every seat's visible log, private lines included) is put into Dutch,
Spanish and Korean without falling back, and a table's log shows the translated sentences."""

from __future__ import annotations

import random
from typing import Any

from hexfolk.core import load_game
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.server.people_tables import start_and_watch_to_the_end
from tests.web.helpers import in_thread, new_page, shoot

TRANSLATE_JS = """async ([code, lines]) => {
  const i18n = await import('/app/i18n.js');
  const { logLine } = await import('/app/logwords.js');
  await i18n.setLanguage(code);
  const name = (i) => ['Anna', 'Bo', 'Chen', 'Dani', 'Eli'][i];
  return lines.map((l) => logLine(l, name, (x) => 'FALLBACK ' + x));
}"""


def _game_log(players: int = 5, seed: int = 3) -> list[str]:
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
    seen: dict[str, None] = {}
    for seat in [*range(players), None]:
        seen.update(dict.fromkeys(str(x) for x in st.observation(seat)["log"]))
    return list(seen)


def test_every_engine_sentence_of_a_game_is_translated(
    browser: Any, web_server: ThreadServer
) -> None:
    lines = _game_log()
    starts = {line.split(" ")[2] if line.startswith("seat") else line[:8] for line in lines}
    assert len(starts) >= 15, starts  # many forms, not a handful
    assert any("signs up for" in x or "passes the special" in x for x in lines)
    assert any(x.startswith("answers to offer") for x in lines)
    assert any(x.startswith("(seat") for x in lines)  # a private line: what was stolen
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
    # the fixed forms: a roll and a trade in each language, word for word from the templates
    sample = ["seat 1 rolls 8", "seat 0 trades 4l for 1o", "seat 2 gets 1w; seat 0 gets 2o"]
    nl = page.evaluate(TRANSLATE_JS, ["nl", sample])
    assert nl == [
        "Bo gooit 8",
        "Anna ruilt 4 hout tegen 1 erts",
        "Chen krijgt 1 wol; Anna krijgt 2 erts",
    ]
    es = page.evaluate(TRANSLATE_JS, ["es", sample])
    assert es[0] == "Bo tira 8"
    ko = page.evaluate(TRANSLATE_JS, ["ko", sample])
    assert ko[0] == "Bo: 주사위 8"
    # an unknown form falls back to the English line in words
    assert page.evaluate(TRANSLATE_JS, ["nl", ["seat 1 sings"]]) == ["FALLBACK seat 1 sings"]
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
    assert not any(x.startswith("seat ") or " rolls " in x for x in texts), texts[-10:]
    assert any(e.startswith("seat") for e in engine)  # the engine's line is kept as the title
    page.locator("#log").scroll_into_view_if_needed()
    shoot(page, "table-log-nl", ("desktop", "phone"), show="#log")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
