"""Reasons as data on the wire (issue 26, Deliver 3): an engine's refusal carries
``reason: {code, params, rule}`` beside its English ``message``; the view's refused standing
buttons carry ``why`` beside ``reason`` (``docs/protocol.md``, "Reasons as data"). Against a
real uvicorn server; IR-19 (no intersection 999), IR-22 (setup has no rolls)."""

from __future__ import annotations

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run


def test_an_illegal_action_is_refused_with_its_reason_as_data(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest = HexfolkClient(server.url), HexfolkClient(server.url)
        await host.create_player("Host")
        await guest.create_player("Guest")
        t = await host.create_table(game="island", players=2, clock=None)
        await guest.join(t["id"])
        await host.start(t["id"])
        async with host.connect(t["id"]) as h, guest.connect(t["id"]) as g:
            view = await h.next_view()
            conn = h if view["acting"] == [0] else g
            if conn is g:
                view = await g.next_view()
            # setup: the seat's standing buttons are refused with IR-22, as text and as data
            refused = {e["action"]: e for e in view["refused"]}
            roll = refused["roll"]
            assert roll["why"] == {"code": "setup_settle_only", "params": {}, "rule": "IR-22"}
            assert roll["reason"].endswith("(IR-22)")
            await conn.act("settle 999", view["version"], ref="r1")
            err = await conn.expect("error", timeout=5)
            assert err["code"] == "illegal" and err["ref"] == "r1"
            assert err["reason"] == {"code": "no_node", "params": {"node": 999}, "rule": None}
            assert err["message"].startswith("there is no intersection 999 on this board")
            await conn.act("flibber", view["version"], ref="r2")
            err = await conn.expect("error", timeout=5)
            assert err["code"] == "malformed" and "reason" not in err
        await host.aclose()
        await guest.aclose()

    run(scenario())
