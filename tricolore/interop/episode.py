"""What every environment shares about an episode: its step cap, the rewards at its end, and the
default table size."""

from __future__ import annotations

from tricolore.core.model import State
from tricolore.core.registry import get_game

MAX_STEPS = 5000
"""Steps after which a game still running is truncated (an environment's default)."""


def win_shares(state: State) -> list[float]:
    """The reward of each seat at the end: ``1/k`` for each of the ``k`` winners, else 0."""
    winners = state.result().winners
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)]


def default_players(game: str) -> int:
    """A table of 4, or the nearest size the game allows."""
    info = get_game(game).info
    return min(max(4, info.min_players), info.max_players)
