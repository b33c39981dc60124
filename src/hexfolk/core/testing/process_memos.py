"""No process-wide memo travels inside a pickled state (the kit's check of shared memos).

A game may keep memos for the whole process (a module-level dict of trade listings, of
prompts) and let its states point at them. Such a memo must pickle as a reference to the
process's own (by key, ``__reduce__``), never by its entries:

* the server pickles a live state for a bot worker on its event loop while a worker thread of
  the same process (the reveal checks) plays on a copy and adds entries to the same memo;
  pickling walks the dict and fails with "dictionary changed size during iteration";
* entries the worker does not need make every bot decision's pickle larger.

:func:`check_no_process_memo_pickled` pickles a state and fails if the pickle walks any
mutable container held by a module of the game's package (or held one level inside one).
"""

from __future__ import annotations

import io
import pickle
import sys
from typing import Any

from hexfolk.core.game import State
from hexfolk.core.testing.checks import ConformanceError

MUTABLE = (dict, list, set, bytearray)


def process_memos(package: str) -> dict[int, str]:
    """The mutable containers the modules of ``package`` hold (at module level, and the
    mutable values of a module-level dict), by id, with the name to report. Identity is the
    question here (is this very object the process's memo?), asked within one check while
    every one of them is alive: no cache, nothing kept past the call."""
    found: dict[int, str] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for attr, value in list(vars(module).items()):
            if not isinstance(value, MUTABLE) or attr.startswith("__"):
                continue
            found[id(value)] = f"{name}.{attr}"
            if isinstance(value, dict):
                for key, inner in list(value.items()):
                    if isinstance(inner, MUTABLE):
                        found[id(inner)] = f"{name}.{attr}[{key!r}]"
    return found


class _Walker(pickle.Pickler):
    """A pickler that notes every object it writes (``persistent_id`` sees each one)."""

    def __init__(self, watched: dict[int, str]):
        super().__init__(io.BytesIO(), protocol=pickle.HIGHEST_PROTOCOL)
        self.watched = watched
        self.met: list[str] = []

    def persistent_id(self, obj: Any) -> None:
        name = self.watched.get(id(obj))
        if name is not None and name not in self.met and _by_content(obj):
            self.met.append(name)
        return None


def _by_content(obj: Any) -> bool:
    """Does pickle write ``obj``'s entries (a plain container, or a reduction with a state or
    items), rather than a reference to rebuild it from?"""
    if type(obj) in MUTABLE:
        return True
    reduced = obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    return isinstance(reduced, tuple) and any(part is not None for part in reduced[2:])


def check_no_process_memo_pickled(state: State, package: str | None = None) -> None:
    """Raise :class:`ConformanceError` if pickling ``state`` writes the entries of a mutable
    container that a module of ``package`` holds (default: the package of the state's class,
    e.g. ``hexfolk.games.island``)."""
    if package is None:
        package = state.__class__.__module__.rsplit(".", 1)[0]
    walker = _Walker(process_memos(package))
    walker.dump(state)
    if walker.met:
        raise ConformanceError(
            "pickling the state writes process-wide memos by their entries (pickle them by "
            "key, as a reference to the process's own): " + ", ".join(walker.met)
        )
