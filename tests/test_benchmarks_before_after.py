"""benchmarks/before_after.py's verdicts, table and options, on made-up numbers only (no git, no
timings): issue 26's bound is "none slower by more than 5%"."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "before_after.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("before_after", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["before_after"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


ba = load()
RATE = ba.Metric("rate", "games/s", "games/s", True)
TIME = ba.Metric("ms", "redraw", "ms", False)


def row(metric: Any, before: list[float], after: list[float]) -> Any:
    return ba.Row("x", metric, before, after)


@pytest.mark.parametrize(
    ("metric", "before", "after", "verdict"),
    [
        (RATE, [100.0], [94.0], "FAIL"),  # a rate 6% lower
        (RATE, [100.0], [96.0], "PASS"),  # 4% lower
        (RATE, [100.0], [95.0], "PASS"),  # exactly the bound
        (RATE, [100.0], [130.0], "PASS"),  # faster
        (TIME, [10.0], [10.6], "FAIL"),  # a time 6% longer
        (TIME, [10.0], [10.4], "PASS"),
        (TIME, [10.0], [10.5], "PASS"),
        (TIME, [10.0], [7.0], "PASS"),
    ],
)
def test_verdict_against_the_5_percent_bound(
    metric: object, before: list[float], after: list[float], verdict: str
) -> None:
    assert row(metric, before, after).verdict == verdict


def test_medians_of_each_side_are_compared() -> None:
    # one slow outlier run on the after side does not decide; the median does
    r = row(RATE, [100.0, 98.0, 102.0], [99.0, 50.0, 101.0])
    assert (r.before_median, r.after_median) == (100.0, 99.0)
    assert r.ratio == pytest.approx(0.99)
    assert r.slower == pytest.approx(0.01)
    assert r.verdict == "PASS"
    # a majority of slow runs does
    assert row(RATE, [100.0, 98.0, 102.0], [90.0, 50.0, 101.0]).verdict == "FAIL"


def test_slower_is_signed_by_direction() -> None:
    assert row(TIME, [10.0], [11.0]).slower == pytest.approx(0.10)
    assert row(TIME, [10.0], [9.0]).slower == pytest.approx(-0.10)
    assert row(RATE, [10.0], [9.0]).slower == pytest.approx(0.10)


def test_unjudged_missing_and_failed_figures() -> None:
    info = ba.Metric("p99", "p99", "ms", False, False)
    assert row(info, [10.0], [20.0]).verdict == "info"
    assert row(RATE, [100.0], []).verdict == "ERROR"
    assert ba.Row("x", RATE, [100.0], [100.0], error="timed out").verdict == "ERROR"
    assert not ba.passed([row(RATE, [100.0], [])])
    assert ba.passed([row(info, [10.0], [20.0]), row(RATE, [100.0], [99.0])])
    assert not ba.passed([row(RATE, [100.0], [99.0]), row(TIME, [1.0], [1.2])])


def test_markdown_table() -> None:
    r = ba.Row("x", RATE, [100.0, 100.0], [94.0, 94.0], paired=[0.9, 0.96, 0.95])
    table = ba.markdown_table([r, row(TIME, [2.0], [2.0])])
    lines = table.splitlines()
    assert lines[0].startswith("| figure |") and lines[1].startswith("|---")
    assert lines[2] == (
        "| games/s | games/s (higher is faster) | 2+2 | 100.0 | 94.00 | 0.940 | +6.0% | FAIL "
        "| 0.950 |"
    )
    assert lines[3] == (
        "| redraw | ms (lower is faster) | 1+1 | 2.000 | 2.000 | 1.000 | +0.0% | PASS | - |"
    )
    assert len(lines) == 4


def test_rows_from_runs_round_by_round() -> None:
    bench = next(b for b in ba.BENCHES if b.name == "scythe")
    before = [{"2p_games_per_cpu_s": 60.0, "5p_games_per_cpu_s": 30.0}] * 3
    after = [{"2p_games_per_cpu_s": 56.0, "5p_games_per_cpu_s": 29.0}] * 3
    rows = ba.rows_for(bench, before, after)
    assert [r.verdict for r in rows] == ["FAIL", "PASS"]  # 6.7% and 3.3% fewer games/s
    assert rows[0].paired == pytest.approx([56 / 60] * 3)
    doc = json.loads(json.dumps([r.to_json() for r in rows]))
    assert doc[0]["before_median"] == 60.0 and doc[0]["verdict"] == "FAIL"
    # a failed run (None) leaves its round out of the pairs and its side's median
    rows = ba.rows_for(bench, [before[0], None, {"2p_games_per_cpu_s": 40.0}], after)
    assert rows[0].before == [60.0, 40.0] and rows[0].after == [56.0] * 3
    assert rows[0].paired == pytest.approx([56 / 60, 56 / 40])
    assert rows[1].before == [30.0] and rows[1].paired == pytest.approx([29 / 30])
    assert [r.verdict for r in rows] == ["PASS", "ERROR"]  # 56 > median(60, 40); 5p missing
    assert rows[1].error == "no 5p_games_per_cpu_s in before round 3" and not rows[0].error
    # a run that failed makes every row of its benchmark an error
    rows = ba.rows_for(bench, [None, *before[1:]], after, error="before round 1: timed out")
    assert {r.verdict for r in rows} == {"ERROR"}


def test_rounds_alternate_abba() -> None:
    runs = [t for rnd in range(4) for t in ba.order(["before", "after"], rnd)]
    assert runs == ["before", "after", "after", "before"] * 2


def test_parsers_read_the_benchmarks_json_lines() -> None:
    out = 'text\n{"players": 2, "games_per_cpu_s": 61.5, "games_per_s": 60.0, "decisions": 9}\n'
    out += '{"players": 5, "games_per_cpu_s": 29.0, "games_per_s": 28.0, "decisions": 7}\n'
    assert ba.parse_scythe(out)["5p_games_per_cpu_s"] == 29.0
    server = {"lost": 0, "steps": 90, "errors": 0, "steps_per_s": 9.0, "cpu_ms_per_step": 1.5}
    server |= {"person_actions_per_s": 0.0, "p50_ms": None, "p99_ms": None}
    assert ba.parse_server(json.dumps(server)) == {
        "steps_per_s": 9.0,
        "cpu_ms_per_step": 1.5,
        "person_actions_per_s": 0.0,
        "errors": 0.0,
    }
    with pytest.raises(ba.BenchError, match="2 acknowledged actions"):
        ba.parse_server(json.dumps(server | {"lost": 2}))
    with pytest.raises(ba.BenchError, match="no step"):
        ba.parse_server(json.dumps(server | {"steps": 0}))
    with pytest.raises(ba.BenchError):
        ba.parse_rl("no figures\n")


def test_arguments() -> None:
    args = ba.parse_args([])
    assert (args.before, args.after) == ("05c1abc", "worktree")
    assert args.only == ["island", "scythe", "server", "web", "rl"]
    assert args.sizes == ba.FULL and args.json is None and args.bound == 0.05
    quick = ba.parse_args(["--quick", "--only", "rl,island", "--json", "out.json"])
    assert quick.sizes == ba.QUICK and quick.only == ["island", "rl"]
    assert quick.json == Path("out.json")
    assert ba.parse_args(["--quick", "--rounds", "5"]).sizes.rounds == 5
    for bad in (["--only", "island,chess"], ["--rounds", "0"], ["--bound", "1.5"]):
        with pytest.raises(SystemExit):
            ba.parse_args(bad)


def test_same_games_note() -> None:
    scythe = next(b for b in ba.BENCHES if b.name == "scythe")
    runs = [{"2p_decisions": 900.0, "5p_decisions": 2000.0}] * 2
    assert ba.differing(scythe, runs) == []
    assert ba.differing(scythe, [*runs, {"2p_decisions": 900.0, "5p_decisions": 2001.0}]) == [
        "5p_decisions"
    ]
