"""The game registry: every game, built in or third-party, is an entry point.

A package declares its games in ``pyproject.toml``::

    [project.entry-points."tricolore.games"]
    culottes = "tricolore.games.culottes:GAME"

and :func:`get_game` finds them by name. A game's companions -- its browser board, terminal
renderer, action layout, commands, batch path and study -- are modules beside the one its entry
point names, found by :func:`companions`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from functools import cache, cached_property
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricolore.core.chance import Script
from tricolore.core.errors import OptionsError
from tricolore.core.model import Game, GameInfo, Options, State

if TYPE_CHECKING:
    from tricolore.core.batch import BatchPath
    from tricolore.core.layout import MakeLayout
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


def refresh() -> None:
    """Forget the games found so far: the next lookup reads the entry points again (after a
    package is installed, or put on ``sys.path``, in a running process)."""
    _games.cache_clear()
    _BROKEN.clear()
    _MODULES.clear()


COMPANION_MODULES: Mapping[str, tuple[str, str]] = {
    "terminal_renderer": ("terminal", "RENDERER"),
    "layout": ("layout", "LAYOUT"),
    "commands": ("cli", "COMMANDS"),
    "batch": ("batch", "BATCH"),
    "study": ("study", "STUDY"),
}
"""Each companion: the module beside the game's entry point and the name it declares there."""

_WHAT = {"terminal_renderer": "terminal renderer", "layout": "action layout", "commands": "commands",
         "batch": "batch path", "study": "study"}


class Companions:
    """What the layers above the rules find beside a game's entry point, each read when first
    asked for (a game's study is not imported to serve its board). A companion the game does not
    have is ``None``; one that fails to load gets an :class:`OptionsError` with a sentence.

    ==================  ==============================  =================================
    companion           where                           used by
    ==================  ==============================  =================================
    board_file          ``board.js``                    the server (the browser's board)
    terminal_renderer   ``terminal.py``: ``RENDERER``   the command line, replays, models
    layout              ``layout.py``: ``LAYOUT``       the environments' flat actions
    commands            ``cli.py``: ``COMMANDS``        ``tricolore <game> ...`` commands
    batch               ``batch.py``: ``BATCH``         ``tricolore simulate --batch``
    study               ``study.py``: ``STUDY``         ``tricolore study``
    ==================  ==============================  =================================

    >>> companions("culottes").board_file.name
    'board.js'
    """

    def __init__(self, game: str, package: str) -> None:
        self.game = game
        """The game's registered name."""
        self.package = package
        """The module its entry point names."""

    def _declared(self, kind: str) -> Any:
        module_name, attribute = COMPANION_MODULES[kind]
        module = sys.modules.get(self.package)
        if module is None or not hasattr(module, "__path__"):  # a plain module has no companions
            return None
        if find_spec(f"{self.package}.{module_name}") is None:
            return None
        try:
            return getattr(importlib.import_module(f"{self.package}.{module_name}"), attribute)
        except Exception as exc:  # a broken third-party companion gets a sentence, not a traceback
            raise OptionsError(f"the {_WHAT[kind]} of the game {self.game!r} failed to load "
                               f"({type(exc).__name__}: {exc})") from None

    @cached_property
    def board_file(self) -> Path | None:
        """``board.js`` beside the game's module, or None."""
        module = sys.modules.get(self.package)
        origin = getattr(module, "__file__", None)
        if origin is None:
            return None
        path = Path(origin).with_name("board.js")
        return path if path.is_file() else None

    @cached_property
    def terminal_renderer(self) -> Renderer | None:
        """How the terminal shows the game (:mod:`tricolore.core.terminal`), or None."""
        found: Renderer | None = self._declared("terminal_renderer")
        return found

    @cached_property
    def layout(self) -> MakeLayout | None:
        """The game's flat action layout (:mod:`tricolore.core.layout`), or None."""
        found: MakeLayout | None = self._declared("layout")
        return found

    @cached_property
    def commands(self) -> Any:
        """The game's own commands, a ``typer.Typer`` the command line mounts as
        ``tricolore <name> ...``, or None."""
        return self._declared("commands")

    @cached_property
    def batch(self) -> BatchPath | None:
        """The game's batched path (:mod:`tricolore.core.batch`), or None."""
        found: BatchPath | None = self._declared("batch")
        return found

    @cached_property
    def study(self) -> Any:
        """The game's study, as :mod:`tricolore.sim.studies` reads it, or None."""
        return self._declared("study")


def companions(name: str) -> Companions:
    """The companions of the game registered as ``name`` (an unknown game gets the registry's
    sentence)."""
    get_game(name)
    return Companions(name, _MODULES.get(name, ""))


def board_file(name: str) -> Path | None:
    """The browser board of the game registered as ``name``: ``board.js`` beside the module its
    entry point names (``tricolore/games/culottes/board.js``), or None if it has none.

    >>> board_file("culottes").name
    'board.js'
    """
    return companions(name).board_file


def terminal_renderer(name: str) -> Renderer | None:
    """The terminal renderer of the game registered as ``name``: ``RENDERER`` in the ``terminal``
    module beside the module its entry point names (``tricolore.games.culottes.terminal``), or
    None if it has none. A ``terminal.py`` that fails to load, or has no ``RENDERER``, gets an
    :class:`OptionsError` with a sentence.

    >>> terminal_renderer("culottes").event({"kind": "end_agreed"}, {})
    'all players agree to end: everyone plays one last turn'
    """
    return companions(name).terminal_renderer


def make(name: str, players: int, seed: int = 0, options: Options | Mapping[str, Any] | None = None,
         chance: Script | None = None, **option_values: Any) -> State:
    """A new game of ``name``: ``make("culottes", 5, seed=7, starting_cakes=10)``; ``chance``
    scripts outcomes of chance (see :mod:`tricolore.core.chance`)."""
    if option_values:
        if options is not None:
            raise OptionsError("give options either as a mapping or as keywords, not both")
        options = option_values
    return get_game(name).new(players, seed, options, chance=chance)
