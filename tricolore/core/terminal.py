"""The terminal kit: the :class:`Renderer` every game's terminal renderer fills in, the generic
renderer for a game without one, and the pieces every game draws the same way.

A game's renderer lives with the game, in ``terminal.py`` beside its rules
(``tricolore/games/culottes/terminal.py``), as ``RENDERER``: three functions,
``table(view)`` and ``result(view)`` giving rich renderables and ``event(event, view)`` giving one
line. The registry finds it (:func:`tricolore.core.registry.terminal_renderer`). This kit depends
only on the core and rich, so a game's renderer needs nothing from the command line.

Players are written by name: a caller that shows a view to people gives it the players' names
(:func:`named`), and a renderer writes each seat with :func:`who` (several with :func:`whom`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table

from tricolore.core.errors import listed

SEAT_NAMES = "seat_names"
"""The key under which :func:`named` gives a view the players' names, in seat order."""
PLAYER_NAMES = ("Marat", "Danton", "Olympe", "Roland", "Desmoulins", "Théroigne", "Hébert", "Manon",
                "Saint-Just", "Condorcet", "Babeuf", "Lacombe")
"""The players' names at a terminal table that was given none, one a seat (twelve: the most
any game seats)."""


def named(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """``view`` with the players' ``names`` (in seat order), for a renderer to write each seat as
    its player's name."""
    return {**view, SEAT_NAMES: list(names)}


def who(view: Mapping[str, Any], seat: object) -> str:
    """The player in ``seat``: its name where the view was given names (:func:`named`), else
    "seat N"."""
    names = view.get(SEAT_NAMES)
    if type(seat) is int and names is not None and 0 <= seat < len(names):
        return str(names[seat])
    return f"seat {seat}"


def whom(view: Mapping[str, Any], seats: Sequence[object]) -> str:
    """Several players, as "Marat, Danton and Olympe" ("nobody" for none)."""
    return listed([who(view, s) for s in seats], "and") or "nobody"


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
    table.add_column("player")
    table.add_column("score", justify="right")
    for seat, score in enumerate(result.get("scores", [])):
        table.add_row(who(view, seat), str(score))
    return [table]


def secret_panel(lines: list[str]) -> Panel:
    """The seat's own secrets, in the panel every game marks the same way."""
    return Panel("\n".join(lines), title="SECRET: only you see this", border_style="red")


GENERIC = Renderer(generic_table, generic_event, generic_result)
"""The renderer of a game without a ``terminal.py``."""
