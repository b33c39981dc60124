"""The browser fetches a table page's modules in few rounds (issue 26, benchmarks/web_speed.py).

A module's imports are found only once it has come, so a chain of imports costs one round trip
per level. ``index.html`` names every module of the shell (``main.js`` and all it imports) with
``<link rel="modulepreload">``, and each game's plug-in file (``web/games/<id>.js``) imports
every module of its page that the shell does not, so that each set comes in one round. Static
text checks: no browser needed.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

WEB = Path(__file__).resolve().parents[1] / "src" / "hexfolk" / "web"
IMPORT = re.compile(r'^import\s+(?:[^"\';]*?\s+from\s+)?["\'](\.{1,2}/[^"\']+)["\'];?', re.M)
NOT_PLUGINS = ("registry.js", "part.js")


def imports(module: str) -> set[str]:
    """The modules ``module`` (a path under web/) imports statically, as paths under web/."""
    text = (WEB / module).read_text(encoding="utf-8")
    base = PurePosixPath(module).parent
    out = set()
    for spec in IMPORT.findall(text):
        parts: list[str] = list(base.parts)
        for p in PurePosixPath(spec).parts:
            if p == "..":
                parts.pop()
            elif p != ".":
                parts.append(p)
        out.add("/".join(parts))
    return out


def closure(module: str) -> set[str]:
    seen: set[str] = set()
    todo = [module]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(imports(m))
    return seen


def plugins() -> list[str]:
    return sorted(
        f"games/{p.name}" for p in (WEB / "games").glob("*.js") if p.name not in NOT_PLUGINS
    )


def test_index_preloads_every_module_of_the_shell() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/app/([^"]+)">', html))
    assert preloaded == closure("main.js") - {"main.js"}


def test_the_shell_loads_no_game_page() -> None:
    shell = closure("main.js")
    assert not [m for m in shell if m.startswith("scythe/")], shell
    for plugin in plugins():
        assert plugin not in shell


def test_a_plugin_imports_every_module_of_its_page_itself() -> None:
    shell = closure("main.js")
    assert plugins() == ["games/island.js", "games/scythe.js"]
    for plugin in plugins():
        missing = closure(plugin) - shell - imports(plugin) - {plugin}
        assert not missing, f"{plugin} reaches {sorted(missing)} only through other modules"


def test_the_island_page_loads_none_of_scythe() -> None:
    assert not [m for m in closure("games/island.js") if m.startswith("scythe/")]
