"""Tricolore: negotiation games of the French Revolution, for players, researchers and agents.

>>> import tricolore
>>> state = tricolore.make("culottes", 4, seed=7)
>>> sorted(state.pending())
[0, 1, 2, 3]

The engine (core, and every game's rules and bots) is installed compiled with mypyc where a C
compiler exists, beside its ``.py`` sources; :func:`build` says which build this process runs.
With the environment variable ``TRICOLORE_BUILD=pure`` set before the first import, every
``tricolore`` module is loaded from its source even where a compiled one exists. A compiled module
older than its source (a source edited after the install) would run stale code: then the whole
package runs from its sources, and says so once on standard error, until it is installed again.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

BUILD_VARIABLE = "TRICOLORE_BUILD"
"""The environment variable that chooses the pure build (``pure``)."""


class _SourcesOnly(importlib.abc.MetaPathFinder):
    """Finds ``tricolore.*`` modules among their ``.py`` sources only, never an extension."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(__name__ + ".") or path is None:
            return None
        loaders = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, loaders).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def stale_compiled_module(package: str | None = None) -> str | None:
    """The source of the first compiled module older than its ``.py`` (edited since the
    install), relative to the package's parent, or None when every compiled module is current.
    ``package`` is the package's folder (this one when not given)."""
    package = package or os.path.dirname(os.path.abspath(__file__))
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    # The compiled code of every module lives in one shared library beside the package's
    # __init__; each module's own extension is a small shim that a rebuild leaves untouched.
    shared = [entry.stat().st_mtime for entry in os.scandir(package)
              if entry.name.startswith("_engine__mypyc") and entry.name.endswith(suffixes)]
    for folder, _, names in sorted(os.walk(package)):  # every compiled module, wherever it lies
        for name in sorted(names):
            if not name.endswith(suffixes):
                continue
            source = os.path.join(folder, name.split(".", 1)[0] + ".py")
            built = shared[0] if shared else os.stat(os.path.join(folder, name)).st_mtime
            if os.path.exists(source) and os.stat(source).st_mtime > built:
                return os.path.relpath(source, os.path.dirname(package))
    return None


def _choose_build() -> None:
    """Put the sources-only finder first when the pure build is asked for or the compiled one is
    stale; refuse a build name not known."""
    chosen = os.environ.get(BUILD_VARIABLE, "").strip().lower()
    if chosen not in ("", "pure", "compiled"):
        raise ImportError(f"{BUILD_VARIABLE} must be 'pure' or 'compiled', not "
                          f"{os.environ[BUILD_VARIABLE]!r}")
    if any(isinstance(finder, _SourcesOnly) for finder in sys.meta_path):
        return
    if chosen == "":
        stale = stale_compiled_module()
        if stale is not None:
            print(f"tricolore: {stale} changed after the compiled engine was built; running the "
                  "pure-Python sources until the package is installed again", file=sys.stderr)
            chosen = "pure"
    if chosen == "pure":
        sys.meta_path.insert(0, _SourcesOnly())


_choose_build()

from tricolore.core import IllegalAction, get_game, list_games, make  # noqa: E402 (after the switch)

__version__ = "0.1.0"


def build() -> str:
    """``"compiled"`` when the engine's modules were loaded from mypyc extensions, ``"pure"``
    when from their Python sources (no compiled build installed, or ``TRICOLORE_BUILD=pure``)."""
    model = sys.modules["tricolore.core.model"]
    loader = getattr(model.__spec__, "loader", None)
    return "compiled" if isinstance(loader, importlib.machinery.ExtensionFileLoader) else "pure"


__all__ = ["BUILD_VARIABLE", "IllegalAction", "build", "get_game", "list_games", "make",
           "stale_compiled_module"]
