"""Agents: anything that picks an action from a seat's view and its legal actions.

Per-game heuristic strategies live with their game (``tricolore.games.<name>.bots``) and are
found through the game's ``strategies``; :func:`make_agent` resolves a strategy name for a game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from tricolore.core.actions import ActionSpace
from tricolore.core.errors import OptionsError
from tricolore.core.model import Game, Seat, State


class Agent(Protocol):
    """Picks one action for a seat. Agents see the seat's view, never the state."""

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The action to take, one of ``legal``."""
        ...


class RandomAgent:
    """Uniform over the kinds of legal action, then over each parameter (amounts kept small)."""

    name = "random"
    needs_view = False  # drivers may skip building the view for this agent

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """A random legal action."""
        return legal.sample(rng)


def offered_actions(state: State, seat: Seat, agent: object) -> ActionSpace:
    """What ``agent`` in ``seat`` may choose from now: its prompt's legal actions, and for an
    agent with a true ``trades`` attribute its free actions (gifts, transfers) as well. The prompt
    stays open until the agent takes one of its actions."""
    legal = state.legal_actions(seat)
    if getattr(agent, "trades", False):
        return ActionSpace(legal.families + state.free_actions(seat).families)
    return legal


def strategy_names(game: Game) -> list[str]:
    """Every strategy a seat of ``game`` may be given: ``random`` and the game's named ones."""
    return ["random", *game.strategies]


def make_agent(game: Game, strategy: str) -> Agent:
    """A fresh agent playing ``strategy`` for ``game``."""
    if strategy == "random":
        return RandomAgent()
    try:
        return game.strategies[strategy]()
    except KeyError:
        raise OptionsError(f"{game.info.title} has no strategy {strategy!r}; strategies are: "
                           f"{', '.join(strategy_names(game))}") from None
