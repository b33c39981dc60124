"""Issue 27, point 11, through the lobby: the Scythe create form's "my faction chosen, the
bot's random" (``factions: "nordic,random"``) creates the table, and the start deals the bot's
seat a faction from the table's seed (SR-57, SR-58); a form with a bad name and a banned pair
is refused with both sentences (``bad_option``)."""

from __future__ import annotations

import pytest

from hexfolk.server.client import HexfolkClient, ServerError
from tests.server.helpers import ThreadServer, run

SEATS = [{"kind": "host"}, {"kind": "bot", "level": "random"}]


def test_issue27_my_faction_chosen_the_bots_random(server: ThreadServer) -> None:
    async def scenario() -> list[str]:
        async with HexfolkClient(server.url) as me:
            await me.create_player("Anna")
            t = await me.create_table(
                game="scythe",
                players=2,
                options={"factions": "crimea,random", "mats": "mechanical,random"},
                clock=None,
                bot_delay=0,
                seed=11,
                seats=SEATS,
            )
            assert t["options"]["factions"] == "crimea,random"
            await me.start(t["id"])
            async with me.connect(t["id"]) as conn:
                view = await conn.wait_for(
                    lambda v: all(p.get("faction") for p in v["observation"]["player_state"])
                )
            players = view["observation"]["player_state"]
            return [f"{p['faction']}/{p['mat']}" for p in players]

    pairs = run(scenario())
    assert pairs[0] == "crimea/mechanical"
    faction, mat = pairs[1].split("/")
    assert faction != "crimea" and mat != "mechanical"
    assert (faction, mat) not in {("rusviet", "industrial"), ("crimea", "patriotic")}


def test_issue27_both_sentences_when_both_apply(server: ThreadServer) -> None:
    async def scenario() -> ServerError:
        async with HexfolkClient(server.url) as me:
            await me.create_player("Bea")
            with pytest.raises(ServerError) as err:
                await me.create_table(
                    game="scythe",
                    players=2,
                    options={"factions": "rusviet,randon", "mats": "industrial,random"},
                    seats=SEATS,
                )
            return err.value

    err = run(scenario())
    assert err.code == "bad_option" and err.status == 422
    assert "'randon' is not one of nordic, rusviet, crimea, saxony, polania or random" in (
        err.message
    )
    assert "rusviet with the industrial mat is a banned pair (SR-58)" in err.message
