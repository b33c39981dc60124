"""Issue 28, point 5 (operations): ``GET /metrics`` of a real server, read before and after a
person plays actions against a bot: every series moves by what was played."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from hexfolk.server.client import HexfolkClient
from hexfolk.server.metrics import Metrics
from tests.server.helpers import ThreadServer, run

SERIES = (
    "hexfolk_tables_owned",
    "hexfolk_connections",
    "hexfolk_actions_total",
    "hexfolk_action_latency_seconds_count",
    "hexfolk_action_latency_seconds_sum",
    "hexfolk_bot_decisions_total",
    "hexfolk_bot_failures_total",
    "hexfolk_lease_renewals_total",
    "hexfolk_takeovers_total",
)


def scrape(server: ThreadServer) -> dict[str, float]:
    """Every sample of ``/metrics`` without labels, by name (the text format parsed)."""
    response = httpx.get(server.url + "/metrics", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            if not sample.labels:
                samples[sample.name] = sample.value
    return samples


def test_metrics_move_with_the_actions_played(server: ThreadServer) -> None:
    before = scrape(server)
    assert set(SERIES) <= set(before), set(SERIES) - set(before)

    async def scenario() -> tuple[int, dict[str, float]]:
        rng = random.Random(5)
        async with HexfolkClient(server.url) as person:
            await person.create_player("Counted")
            t = await person.create_table(
                game="island",
                players=2,
                options={"vp_target": 8},
                seed=3,
                bot_delay=0,
                seats=[{"kind": "host"}, {"kind": "bot", "level": "random"}],
            )
            await person.start(t["id"])
            accepted = 0
            async with person.connect(t["id"]) as conn:
                while accepted < 12:
                    view = await conn.wait_for(lambda v: bool(v["legal"]), timeout=30)
                    await conn.act(rng.choice(view["legal"])["action"], view["version"])
                    answer: dict[str, Any] | None = None
                    while answer is None:
                        msg = await asyncio.wait_for(conn.inbox.get(), 10)
                        if msg["type"] in ("accepted", "error"):
                            answer = msg
                    if answer["type"] == "error":  # the bot moved first: not counted
                        assert answer["code"] in ("stale", "not_your_turn"), answer
                        continue
                    assert answer["version"] > view["version"]
                    accepted += 1
                    await conn.wait_for(lambda v, n=answer["version"]: v["version"] >= n)
                during = scrape(server)
            return accepted, during

    accepted, during = run(scenario())
    assert during["hexfolk_actions_total"] - before["hexfolk_actions_total"] == accepted
    timed = during["hexfolk_action_latency_seconds_count"]
    assert timed - before["hexfolk_action_latency_seconds_count"] == accepted
    spent = during["hexfolk_action_latency_seconds_sum"]
    assert 0 < spent - before["hexfolk_action_latency_seconds_sum"] < accepted * 5
    assert during["hexfolk_connections"] == before["hexfolk_connections"] + 1
    assert during["hexfolk_tables_owned"] >= 1
    assert during["hexfolk_bot_decisions_total"] > before["hexfolk_bot_decisions_total"]
    assert during["hexfolk_bot_failures_total"] == before["hexfolk_bot_failures_total"]
    after = scrape(server)
    assert after["hexfolk_connections"] == before["hexfolk_connections"]  # closed: back down
    pool = server.manager.pool
    assert after["hexfolk_bot_decisions_total"] == pool.decisions


def test_each_app_has_its_own_registry() -> None:
    """Two apps in one process (as in these tests) never share a series."""
    one, two = Metrics(), Metrics()
    one.takeovers.inc()
    one.lease_renewals.inc(3)
    assert b"hexfolk_takeovers_total 1.0" in one.text()
    assert b"hexfolk_takeovers_total 0.0" in two.text()
    assert b"hexfolk_lease_renewals_total 3.0" in one.text()
