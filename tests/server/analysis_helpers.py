"""Helpers of the post-game analysis tests (``tests/server/test_analysis_*.py``)."""

from __future__ import annotations

import time
from typing import Any

import httpx

from hexfolk.server.client import HexfolkClient

STATUSES = {"queued", "running", "ready", "failed"}


async def bots_table(host: HexfolkClient, seed: int = 4) -> str:
    """A 2-seat island table of easy bots to 8 points (seeded: the same game every run)."""
    t = await host.create_table(
        game="island",
        players=2,
        options={"vp_target": 8},
        seats=[{"kind": "bot", "level": "easy"}] * 2,
        bot_delay=0,
        clock=None,
        seed=seed,
    )
    return str(t["id"])


def get_analysis(url: str, tid: str) -> httpx.Response:
    return httpx.get(f"{url}/api/tables/{tid}/analysis", timeout=30)


def wait_for(url: str, tid: str, statuses: set[str], timeout: float = 300) -> dict[str, Any]:
    end = time.time() + timeout
    seen = []
    while time.time() < end:
        r = get_analysis(url, tid)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        seen.append(body["status"])
        if body["status"] in statuses:
            return body
        time.sleep(0.05)
    raise AssertionError(f"the analysis of {tid} never became {statuses}: {seen[-5:]}")


def metric(url: str, name: str) -> float:
    """One series of ``GET /metrics`` (without labels)."""
    for line in httpx.get(f"{url}/metrics", timeout=30).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} is not in /metrics")
