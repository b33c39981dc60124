"""The Prometheus metrics of one server process (``GET /metrics``, the text format).

Each app has its own :class:`~prometheus_client.CollectorRegistry` (never the library's global
one: the tests run several apps in one process, and each process of a site is scraped on its
own). ``create_app`` makes one :class:`Metrics` and keeps it at ``app.state.metrics``.

The series (``docs/server.md``, "Running several processes"):

``hexfolk_tables_owned``
    gauge: the live tables this process holds (its rooms).
``hexfolk_connections``
    gauge: the table WebSockets open at this process.
``hexfolk_actions_total``
    counter: people's actions this process accepted (``rate()`` gives actions/s).
``hexfolk_action_latency_seconds``
    histogram: from an action's receipt (its frame read) to its views sent (committed, every
    connection's view queued).
``hexfolk_bot_decisions_total`` / ``hexfolk_bot_failures_total``
    counters: bot decisions asked of this process's bot pool and those that failed (read from
    :class:`~hexfolk.server.botpool.BotPool` at each scrape).
``hexfolk_analyses_ready_total`` / ``hexfolk_analysis_failures_total``
    counters: post-game analyses this process stored ready, and those that failed (each
    logged with its traceback; the table's analysis says ``failed`` with the error).
``hexfolk_analyses_queued``
    gauge: analyses waiting in this process's queue (one more may be running).
``hexfolk_lease_renewals_total`` / ``hexfolk_takeovers_total``
    counters: table leases this process renewed, and tables it took over from a process whose
    lease ran out (incremented by the table ownership code: ``metrics.lease_renewals.inc()``,
    ``metrics.takeovers.inc()``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text format's media type (what ``GET /metrics`` answers with)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (seconds) of the action latency histogram's buckets: 1 ms to 5 s."""


class _BotCounts(Collector):
    """The bot pool's two counters, read at each scrape (the pool counts them itself)."""

    def __init__(self) -> None:
        self.read: Callable[[], tuple[int, int]] = lambda: (0, 0)

    def collect(self) -> Iterator[Metric]:
        decisions, failures = self.read()
        yield CounterMetricFamily(
            "hexfolk_bot_decisions", "Bot decisions asked of this process's bots.", decisions
        )
        yield CounterMetricFamily(
            "hexfolk_bot_failures",
            "Bot decisions that failed (logged; the clock's default played instead).",
            failures,
        )


class _AnalysisCounts(Collector):
    """The analyses' counters and queue, read at each scrape (:mod:`.analyses` counts)."""

    def __init__(self) -> None:
        self.read: Callable[[], tuple[int, int, int]] = lambda: (0, 0, 0)

    def collect(self) -> Iterator[Metric]:
        ready, failures, queued = self.read()
        yield CounterMetricFamily(
            "hexfolk_analyses_ready", "Post-game analyses this process stored ready.", ready
        )
        yield CounterMetricFamily(
            "hexfolk_analysis_failures",
            "Post-game analyses that failed (logged; stored as failed with the error).",
            failures,
        )
        yield GaugeMetricFamily(
            "hexfolk_analyses_queued", "Post-game analyses waiting in this process.", queued
        )


class Metrics:
    """The metrics of one server process, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        reg = self.registry
        self.tables_owned = Gauge(
            "hexfolk_tables_owned", "Live tables held by this process.", registry=reg
        )
        self.connections = Gauge(
            "hexfolk_connections", "Table WebSockets open at this process.", registry=reg
        )
        self.actions = Counter(
            "hexfolk_actions", "People's actions accepted by this process.", registry=reg
        )
        self.action_latency = Histogram(
            "hexfolk_action_latency_seconds",
            "From an action's receipt to its views sent (committed, views queued).",
            buckets=LATENCY_BUCKETS,
            registry=reg,
        )
        self.lease_renewals = Counter(
            "hexfolk_lease_renewals", "Table leases renewed by this process.", registry=reg
        )
        self.takeovers = Counter(
            "hexfolk_takeovers",
            "Tables this process took over after their owner's lease ran out.",
            registry=reg,
        )
        self._bots = _BotCounts()
        reg.register(self._bots)
        self._analyses = _AnalysisCounts()
        reg.register(self._analyses)

    def watch(self, tables: Callable[[], int], bots: Callable[[], tuple[int, int]]) -> None:
        """Read the tables held (``tables()``) and the bot pool's ``(decisions, failures)``
        (``bots()``) at each scrape."""
        self.tables_owned.set_function(lambda: float(tables()))
        self._bots.read = bots

    def watch_analyses(self, read: Callable[[], tuple[int, int, int]]) -> None:
        """Read the analyses' ``(ready, failures, queued)`` at each scrape."""
        self._analyses.read = read

    def acted(self, seconds: float) -> None:
        """One accepted action whose views were sent ``seconds`` after its receipt."""
        self.actions.inc()
        self.action_latency.observe(seconds)

    def text(self) -> bytes:
        """Every series in the Prometheus text format."""
        return generate_latest(self.registry)
