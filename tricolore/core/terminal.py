"""The terminal kit: the :class:`Renderer` every game's terminal renderer fills in, the generic
renderer for a game without one, and the pieces every game draws the same way.

A game's renderer lives with the game, in ``terminal.py`` beside its rules
(``tricolore/games/culottes/terminal.py``), as ``RENDERER``: three functions,
``table(view)`` and ``result(view)`` giving rich renderables and ``event(event, view)`` giving one
line. The registry finds it (:func:`tricolore.core.registry.terminal_renderer`). This kit depends
only on the core and rich, so a game's renderer needs nothing from the command line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table


@dataclass(frozen=True, slots=True)
class Renderer:
    """How one game looks in the terminal."""

    table: Callable[[Mapping[str, Any]], list[RenderableType]]
    """The table as a seat (or a spectator) sees it, its secrets in a :func:`secret_panel`."""
    event: Callable[[Mapping[str, Any], Mapping[str, Any]], str]
    """One event as one line of the log, read against the view it happened in."""
    result: Callable[[Mapping[str, Any]], list[RenderableType]]
    """The end of the game: the scores and how they were made, from the final view."""


def generic_table(view: Mapping[str, Any]) -> list[RenderableType]:
    """The whole view as JSON, for a game without a renderer of its own."""
    return [Panel(json.dumps(view, indent=1, ensure_ascii=False), title="view")]


def generic_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """An event's kind and fields; a game's renderer falls back on it for kinds it does not word."""
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "to"))
    return f"{event['kind']}: {fields}"


def generic_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """The score of each seat."""
    result = view.get("result") or {}
    table = Table(title="Scores")
    table.add_column("seat")
    table.add_column("score", justify="right")
    for seat, score in enumerate(result.get("scores", [])):
        table.add_row(str(seat), str(score))
    return [table]


def secret_panel(lines: list[str]) -> Panel:
    """The seat's own secrets, in the panel every game marks the same way."""
    return Panel("\n".join(lines), title="SECRET: only you see this", border_style="red")


GENERIC = Renderer(generic_table, generic_event, generic_result)
"""The renderer of a game without a ``terminal.py``."""
