"""Tricolore: negotiation games of the French Revolution, for players, researchers and agents.

>>> import tricolore
>>> state = tricolore.make("culottes", 4, seed=7)
>>> sorted(state.pending())
[0, 1, 2, 3]

The engine (core, and every game's rules and bots) may be installed compiled with mypyc, beside
its ``.py`` sources; :func:`build` says which build this process runs. With the environment
variable ``TRICOLORE_BUILD=pure`` set before the first import, every ``tricolore`` module is
loaded from its source even where a compiled one exists.
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


if os.environ.get(BUILD_VARIABLE, "").strip().lower() == "pure" and not any(
        isinstance(finder, _SourcesOnly) for finder in sys.meta_path):
    sys.meta_path.insert(0, _SourcesOnly())
elif os.environ.get(BUILD_VARIABLE, "").strip() not in ("", "pure", "compiled"):
    raise ImportError(f"{BUILD_VARIABLE} must be 'pure' or 'compiled', not "
                      f"{os.environ[BUILD_VARIABLE]!r}")

from tricolore.core import IllegalAction, get_game, list_games, make  # noqa: E402 (after the switch)

__version__ = "0.1.0"


def build() -> str:
    """``"compiled"`` when the engine's modules were loaded from mypyc extensions, ``"pure"``
    when from their Python sources (no compiled build installed, or ``TRICOLORE_BUILD=pure``)."""
    model = sys.modules["tricolore.core.model"]
    loader = getattr(model.__spec__, "loader", None)
    return "compiled" if isinstance(loader, importlib.machinery.ExtensionFileLoader) else "pure"


__all__ = ["BUILD_VARIABLE", "IllegalAction", "build", "get_game", "list_games", "make"]
