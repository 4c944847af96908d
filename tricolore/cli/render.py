"""The command line's terminal rendering: a game's own renderer, found through the registry, or
the generic one.

The pieces themselves (:class:`Renderer`, :func:`generic_event`, :func:`secret_panel` ...) live
in :mod:`tricolore.core.terminal`, which depends only on the core and rich, so that a game's
``terminal.py`` needs nothing from the command line; they are named here too for the command
line's own use.
"""

from __future__ import annotations

from tricolore.core.registry import terminal_renderer
from tricolore.core.terminal import (
    GENERIC,
    Renderer,
    generic_event,
    generic_result,
    generic_table,
    secret_panel,
)

__all__ = ["GENERIC", "Renderer", "generic_event", "generic_result", "generic_table", "renderer",
           "secret_panel"]


def renderer(game: str) -> Renderer:
    """The renderer in the game's own ``terminal.py``, or the generic one; an unknown game gets
    the registry's sentence (:class:`~tricolore.core.errors.OptionsError`)."""
    return terminal_renderer(game) or GENERIC
