"""Issue 27, points 3, 4 and 5, in the browser against the real server with a real bot:

* point 3: every end of one's own offer is told near the trade panel and in a toast, in the
  page's language, from the log's structured entries: taken by a seat (``trade_with``),
  rejected by everyone (``rejected_all``), withdrawn (``withdraws``), expired at the end of the
  turn (``withdrawn``);
* point 4: the first offer that reaches a person points at the "decline every offer to me"
  switch and says what it does, until dismissed; once per browser;
* point 5: an offer's Accept/Reject buttons are the same elements after another seat (a bot)
  answers, so a click whose press came before the bot's answer and whose release came after
  lands (IR-49/IR-50: answers arrive in any order while the offer is open).

The second person of each table is played from Python; the bot is the server's own."""

from __future__ import annotations

from typing import Any

from tests.server.helpers import ThreadServer
from tests.web.helpers import new_page, shoot, wait_rendered
from tests.web.offer_table import (
    act_as,
    main_turn_of,
    person,
    play_until_seat,
    two_people_and_a_bot,
    whole_log,
)
from tests.web.own_seat import enter

RES_NAMES = {"l": "lumber", "b": "brick", "w": "wool", "g": "grain", "o": "ore"}


def _answer_of(kind: str, seat_view_offer: int | None = None) -> Any:
    """A pick for act_as: the listed answer of ``kind`` to the open offer, or None."""

    def pick(v: dict[str, Any] | None) -> str | None:
        if not v:
            return None
        for e in v["legal"]:
            if e["kind"] == kind and (seat_view_offer is None or e.get("offer") == seat_view_offer):
                return str(e["action"])
        return None

    return pick


def test_buttons_of_an_offer_survive_a_bots_answer_and_the_switch_is_pointed_out(
    browser: Any, web_server: ThreadServer
) -> None:
    """Points 4 and 5: Cy (Python) offers to Ann (the page) and to a bot that answers after
    its delay. Ann's Reject is pressed before the bot answers and released after: the button
    is the same element, and the click lands. The first offer to Ann shows the decline-all
    hint; "Got it" hides it, and the browser remembers."""
    page = new_page(browser)
    ann = enter(page, web_server.url + "/", "Ann")
    cy = person(web_server, "Cy")
    tid = two_people_and_a_bot(web_server, cy, ann, level="easy", bot_delay=2.0, seed=2705)
    play_until_seat(web_server, tid, (cy, ann), 0, main_turn_of(0, 1), seed=5)

    page.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(page, "v.observation.active === 0")
    assert page.locator("#decline-hint").count() == 0  # no offer to Ann yet: no hint

    offer = act_as(web_server, cy, tid, _answer_of("offer"))
    v = wait_rendered(page, "v.legal.some((e) => e.kind === 'reject')")
    oid = next(e["offer"] for e in v["legal"] if e["kind"] == "reject")
    reject = next(e["action"] for e in v["legal"] if e["kind"] == "reject")
    button = page.locator(f'.offer button[data-act="{reject}"]')
    button.wait_for()
    # point 4: the switch is pointed out at the first offer that reaches this person
    assert page.locator("#decline-box.hint #decline-all").is_visible()
    hint = page.locator("#decline-hint").inner_text()
    assert "Decline every offer" not in hint and "declined at once" in hint, hint
    shoot(page, "offer-to-a-person", sizes=("desktop",))  # quick: the bot answers in 2 s

    # point 5: mark the button (a property: an attribute would make it unequal to its
    # redrawn self), press it, let the bot answer, release it
    bot_answered = (
        f"(v.observation.offers.find((o) => o.id === {oid}) || {{answers: {{}}}})"
        ".answers['2'] !== undefined"
    )
    assert not page.evaluate(
        f"() => {{ const v = window.__hexfolkView; return {bot_answered}; }}"
    ), "the bot answered before the press: no overlap to test (raise its delay)"
    page.evaluate(
        f"""() => {{ window.__marked = document.querySelector('.offer button[data-act="{reject}"]');
        window.__marked.__mark = 'before-the-bot'; }}"""
    )
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    wait_rendered(page, bot_answered, timeout=20_000)
    same = page.evaluate(
        f"""() => {{ const now = document.querySelector('.offer button[data-act="{reject}"]');
        return [window.__marked.isConnected, now === window.__marked, now && now.__mark]; }}"""
    )
    assert same == [True, True, "before-the-bot"], (
        f"the bot's answer rebuilt Ann's Reject (issue 27, point 5): {same}"
    )
    page.mouse.up()  # the click that overlapped the bot's answer
    wait_rendered(page, "!v.legal.some((e) => e.kind === 'reject')", timeout=15_000)
    log = whole_log(web_server, cy, tid)
    answers = [
        line["params"]["answers"]
        for line in log
        if isinstance(line, dict)
        and line.get("form") == "answers"
        and line["params"]["offer"] == oid
    ]
    assert answers and {"seat": 1, "answer": "rejects"} in answers[-1], (offer, answers)

    # point 4: "Got it" hides the hint; the browser remembers it was seen
    if page.locator("#decline-hint-ok").count():
        page.click("#decline-hint-ok")
    assert page.locator("#decline-hint").count() == 0
    assert page.evaluate("() => localStorage.getItem('hexfolk.declineHint')") == "1"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _compose(page: Any, give: dict[str, int], get: dict[str, int]) -> None:
    """Set the trade composer by its buttons (in Dutch) and send the offer."""
    page.click("#composer button:has-text('Wissen')")
    for side, bundle in (("Jij geeft", give), ("Jij krijgt", get)):
        for r, n in bundle.items():
            for _ in range(n):
                page.click(f'#composer button[aria-label="{side} {_res_nl(r)} +"]')
    page.click("#send-offer")


def _res_nl(r: str) -> str:
    return {"l": "hout", "b": "baksteen", "w": "wol", "g": "graan", "o": "erts"}[r]


def _held(page: Any) -> list[str]:
    """The resources Ann holds now, as her drawn view says."""
    hand = page.evaluate("() => window.__hexfolkView.observation.players[0].hand")
    return [r for r, name in RES_NAMES.items() if hand.get(name, 0) > 0]


def _news(page: Any, words: str) -> str:
    """Wait for the offer news card holding ``words``; its text (the toast says the same)."""
    page.wait_for_function(
        "(w) => { const n = document.querySelector('#offer-news');"
        " return !!n && n.innerText.includes(w); }",
        arg=words,
        timeout=20_000,
    )
    text = str(page.locator("#offer-news").inner_text())
    toast = str(page.locator("#toast").inner_text())
    assert words in toast or "tijd" in toast, (words, toast)
    return text


def test_every_end_of_ones_own_offer_is_told_in_the_pages_language(
    browser: Any, web_server: ThreadServer
) -> None:
    """Point 3, on a Dutch page: Ann (the page) offers four times in one turn; Cy (Python)
    accepts the first (Ann completes it: taken), rejects the second with the bot (rejected by
    everyone), leaves the third open (Ann withdraws it) and the fourth (Ann ends her turn:
    expired). An easy bot cannot pay seven of a kind, and never counters."""
    page = new_page(browser, locale="nl-NL")
    ann = enter(page, web_server.url + "/", "Ann")
    cy = person(web_server, "Cy")
    tid = two_people_and_a_bot(web_server, ann, cy, level="easy", bot_delay=0, seed=2703)
    v = play_until_seat(web_server, tid, (ann, cy), 0, main_turn_of(0, 2), seed=3)
    hand = v["observation"]["players"][0]["hand"]
    x = next(r for r, name in RES_NAMES.items() if hand.get(name, 0) > 0)

    page.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(page, "v.legal.some((e) => e.kind === 'offer')")
    assert page.locator("#offer-news").count() == 0  # the history is not news

    # 1. taken: a gift Cy accepts; Ann completes it with Cy
    _compose(page, {x: 1}, {})
    act_as(web_server, cy, tid, _answer_of("accept"))
    page.locator('.offer ul.answers li[data-seat="1"] button').click()
    text = _news(page, "Cy nam je aanbod aan")
    assert f"je gaf 1 {_res_nl(x)}" in text, text
    shoot(page, "offer-news-taken", sizes=("desktop", "phone"), show="#trade")

    # 2. rejected by everyone: the bot cannot pay 7, Cy rejects
    give = _held(page)[0]
    y = next(r for r in "obwgl" if r != give)
    _compose(page, {give: 1}, {y: 7})
    act_as(web_server, cy, tid, _answer_of("reject"))
    text = _news(page, "Iedereen wees je aanbod af")
    assert f"7 {_res_nl(y)}" in text, text

    # 3. withdrawn: Cy does not answer
    _compose(page, {give: 1}, {y: 6})
    page.locator(".offer button:has-text('Intrekken')").click()
    text = _news(page, "Je trok je aanbod in")
    assert f"6 {_res_nl(y)}" in text, text

    # 4. expired at the end of the turn: Cy does not answer, Ann ends her turn
    _compose(page, {give: 1}, {y: 5})
    page.wait_for_selector(".offer button:has-text('Intrekken')")
    page.click("#btn-end")
    text = _news(page, "verliep aan het einde van je beurt")
    assert f"5 {_res_nl(y)}" in text, text
    shoot(page, "offer-news-expired", sizes=("desktop", "phone"), show="#trade")

    # every one of them came from a structured log line of Ann's offers
    forms = [
        line["form"]
        for line in whole_log(web_server, ann, tid)
        if isinstance(line, dict)
        and line.get("params", {}).get("seat") == 0
        and line.get("form") in ("trade_with", "rejected_all", "withdraws", "withdrawn")
    ]
    assert forms[-4:] == ["trade_with", "rejected_all", "withdraws", "withdrawn"], forms
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
