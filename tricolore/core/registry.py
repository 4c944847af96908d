"""The game registry: every game, built in or third-party, is an entry point.

A package declares its games in ``pyproject.toml``::

    [project.entry-points."tricolore.games"]
    culottes = "tricolore.games.culottes:GAME"

and :func:`get_game` finds them by name.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from functools import cache
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricolore.core.chance import Script
from tricolore.core.errors import OptionsError
from tricolore.core.model import Game, GameInfo, Options, State

if TYPE_CHECKING:
    from tricolore.core.terminal import Renderer

ENTRY_POINT_GROUP = "tricolore.games"


_BROKEN: dict[str, str] = {}
_MODULES: dict[str, str] = {}


@cache
def _games() -> dict[str, Game]:
    found: dict[str, Game] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            game = ep.load()
        except Exception as exc:  # a broken third-party game must not hide the others
            _BROKEN[ep.name] = f"{type(exc).__name__}: {exc}"
            continue
        found[game.info.name] = game
        _MODULES[game.info.name] = ep.module
    return dict(sorted(found.items()))


def games() -> Mapping[str, Game]:
    """Every registered game by name."""
    return _games()


def list_games() -> list[GameInfo]:
    """The metadata of every registered game, by name."""
    return [g.info for g in _games().values()]


def get_game(name: str) -> Game:
    """The game registered as ``name``; a clear error names the known games otherwise."""
    try:
        return _games()[name]
    except KeyError:
        if name in _BROKEN:
            raise OptionsError(f"the game {name!r} is installed but failed to load "
                               f"({_BROKEN[name]})") from None
        known = ", ".join(_games()) or "none (is the package installed?)"
        raise OptionsError(f"there is no game called {name!r}; games are: {known}") from None


def board_file(name: str) -> Path | None:
    """The browser board of the game registered as ``name``: ``board.js`` beside the module its
    entry point names (``tricolore/games/culottes/board.js``), or None if it has none.

    >>> board_file("culottes").name
    'board.js'
    """
    get_game(name)  # an unknown game gets the registry's sentence
    module = sys.modules.get(_MODULES.get(name, ""))
    origin = getattr(module, "__file__", None)
    if origin is None:
        return None
    path = Path(origin).with_name("board.js")
    return path if path.is_file() else None


def terminal_renderer(name: str) -> Renderer | None:
    """The terminal renderer of the game registered as ``name``: ``RENDERER`` in the ``terminal``
    module beside the module its entry point names (``tricolore.games.culottes.terminal``), or
    None if it has none. A ``terminal.py`` that fails to load, or has no ``RENDERER``, gets an
    :class:`OptionsError` with a sentence.

    >>> terminal_renderer("culottes").event({"kind": "end_agreed"}, {})
    'all players agree to end: everyone plays one last turn'
    """
    get_game(name)  # an unknown game gets the registry's sentence
    package = _MODULES.get(name, "")
    module = sys.modules.get(package)
    if module is None or not hasattr(module, "__path__"):  # a plain module has no terminal.py
        return None
    if find_spec(f"{package}.terminal") is None:
        return None
    try:
        renderer: Renderer = importlib.import_module(f"{package}.terminal").RENDERER
    except Exception as exc:  # a broken third-party renderer gets a sentence, not a traceback
        raise OptionsError(f"the terminal renderer of the game {name!r} failed to load "
                           f"({type(exc).__name__}: {exc})") from None
    return renderer


def make(name: str, players: int, seed: int = 0, options: Options | Mapping[str, Any] | None = None,
         chance: Script | None = None, **option_values: Any) -> State:
    """A new game of ``name``: ``make("culottes", 5, seed=7, starting_cakes=10)``; ``chance``
    scripts outcomes of chance (see :mod:`tricolore.core.chance`)."""
    if option_values:
        if options is not None:
            raise OptionsError("give options either as a mapping or as keywords, not both")
        options = option_values
    return get_game(name).new(players, seed, options, chance=chance)
