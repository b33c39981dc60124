"""`hexfolk maps` and `hexfolk maps show NAME` (issue 16, IR-83)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import one_json_object


def test_maps_lists_all_22_with_names_tiles_and_players(cli) -> None:
    res = cli("maps")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for en, nl in (("Lagoon", "Lagune"), ("Giants' Land", "Reuzenland"), ("Delta", "Delta")):
        assert en in out and nl in out
    lines = {line.split()[1]: line for line in out.splitlines()[1:23]}
    assert len(lines) == 22
    assert "37" in lines["ring-isle"].split() and "28/2/7" in lines["ring-isle"]
    assert "61" in lines["giants-land"].split() and "6-8" in lines["giants-land"]
    assert "random coast" in lines["driftland"]


def test_maps_json(cli) -> None:
    data = one_json_object(cli("maps", "--json").stdout)
    maps = data["maps"]
    assert isinstance(maps, list) and len(maps) == 22
    lagoon = maps[0]
    assert (lagoon["id"], lagoon["en"], lagoon["nl"]) == ("lagoon", "Lagoon", "Lagune")
    assert (lagoon["tiles"], lagoon["producing"], lagoon["desert"], lagoon["lake"]) == (
        16,
        14,
        1,
        1,
    )
    assert (lagoon["min_players"], lagoon["max_players"]) == (2, 3)
    assert all(m["intersections"] >= 8 * m["max_players"] for m in maps)


@pytest.mark.parametrize("name", ["ring-isle", "Ringeiland", "ring isle"])
def test_maps_show_draws_a_map_by_id_or_name(cli, name: str) -> None:
    res = cli("maps", "show", name)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.startswith("Ring Isle / Ringeiland (#17, ring-isle): 37 tiles")
    assert out.count("~~~") + out.count("~2:1") + out.count("~3:1") == 7  # the inner lake
    assert "(lake)" in out and "harbors:" in out


def test_maps_show_seed_changes_driftland(cli) -> None:
    a = cli("maps", "show", "driftland", "--seed", "1").stdout
    b = cli("maps", "show", "driftland", "--seed", "2").stdout
    again = cli("maps", "show", "zwerfland", "--seed", "1").stdout
    assert a != b and a == again


def test_maps_show_unknown_map_is_exit_2(cli) -> None:
    res = cli("maps", "show", "atlantis")
    assert res.exit_code == 2
    assert res.stderr.startswith("error: unknown map 'atlantis'")
    assert "Traceback" not in res.output


def test_maps_help(cli) -> None:
    res = cli("maps", "--help")
    assert res.exit_code == 0 and "Examples" in res.stdout and "show" in res.stdout
