"""Issue 27, point 4 ("Bots flood people with offers"), through the real path: a table with a
person and three medium bots, the bots deciding in the server's bot pool from pickled states.
The room tells each bot which seats people hold (``bot_turns.people_at``, the observation's
``people``), and every bot then makes at most one offer per turn; at a bots-only table the
same medium bots make two in a turn, as their level allows (IR-77).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx

from hexfolk.core import MatchRecord, replay
from hexfolk.server.client import HexfolkClient
from tests.bots.island.test_offers_to_people import offers_per_turn_in
from tests.server.helpers import ThreadServer, play_scripted, run
from tests.server.people_tables import watch_a_bots_game


def _person(view: dict[str, Any]) -> str:
    """A person who builds nothing and rejects every offer (one by one, as a newcomer does)."""
    legal = [e["action"] for e in view["legal"]]
    for want in ("reject", "roll", "end"):
        for action in legal:
            if action.split()[0] == want:
                return str(action)
    return str(legal[0])


def _turns(server: ThreadServer, table_id: str) -> list[Counter[int]]:
    text = httpx.get(f"{server.url}/api/tables/{table_id}/record").text
    final = replay(MatchRecord.loads(text))
    return offers_per_turn_in(final.observation(None)["log"])


def test_issue27_bots_offer_a_person_at_most_one_trade_per_turn(server: ThreadServer) -> None:
    async def scenario() -> str:
        async with HexfolkClient(server.url) as me:
            await me.create_player("Newcomer")
            t = await me.create_table(
                game="island",
                players=4,
                options={"vp_target": 8},
                clock=None,
                bot_delay=0,
                seed=27,
                seats=[{"kind": "host"}, *[{"kind": "bot", "level": "medium"}] * 3],
            )
            await me.start(t["id"])
            async with me.connect(t["id"]) as conn:
                await conn.next_view()
                view = await play_scripted(conn, _person, timeout=150)
            assert view["status"] == "finished"
            return str(t["id"])

    turns = _turns(server, run(scenario(), timeout=170))
    offers = sum(sum(t.values()) for t in turns)
    assert offers > 0  # the bots still trade
    assert max(t[seat] for t in turns for seat in (1, 2, 3)) == 1
    assert all(t[0] == 0 for t in turns)  # the person offered nothing


def test_issue27_bots_only_tables_keep_their_offers(server: ThreadServer) -> None:
    tid, view = run(watch_a_bots_game(server.url, "medium", 3, timeout=120), timeout=150)
    assert view["status"] == "finished"
    turns = _turns(server, tid)
    assert max(t[seat] for t in turns for seat in (0, 1)) == 2
