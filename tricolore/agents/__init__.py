"""Agents: anything that picks an action from a seat's view and its legal actions.

Per-game heuristic strategies live with their game (``tricolore.games.<name>.bots``) and are
found through the game's ``strategies``; :func:`make_agent` resolves a strategy name for a game.
The search agent (:mod:`tricolore.agents.search`, strategy ``ismcts``) plays every game. Every
driver asks an agent for its move through :func:`decide`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol, cast

from tricolore.agents import search
from tricolore.core.actions import ActionSpace
from tricolore.core.errors import OptionsError
from tricolore.core.model import Game, Seat, State

SEARCH = "ismcts"
"""The search strategy every game offers; ``ismcts:200`` (iterations) or ``ismcts:0.5s`` (seconds
per decision) gives it a budget."""


class Agent(Protocol):
    """Picks one action for a seat. Agents see the seat's view, never the state."""

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The action to take, one of ``legal``."""
        ...


class Searcher(Protocol):
    """An agent that searches (``searches = True``): :func:`decide` asks it through ``search``."""

    searches: bool

    def search(self, seat: Seat, legal: ActionSpace, sample: Callable[[random.Random], State],
               rng: random.Random) -> dict[str, Any]:
        """The action to take, one of ``legal``; ``sample(rng)`` draws a state consistent with
        all ``seat`` knows."""
        ...


class RandomAgent:
    """Uniform over the kinds of legal action, then over each parameter (amounts kept small)."""

    name = "random"
    needs_view = False  # drivers may skip building the view for this agent
    draws_legal = True  # its actions are drawn by the engine: drivers may apply them trusted

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


def decide(agent: Agent, state: State, seat: Seat, rng: random.Random) -> dict[str, Any]:
    """The action ``agent`` takes for ``seat`` in ``state``, one of :func:`offered_actions`.

    An agent sees the seat's view (built only if its ``needs_view`` is not false), never the
    state. An agent whose ``searches`` attribute is true is asked through its ``search(seat, legal,
    sample, rng)`` method instead of ``act``, with ``sample(rng)`` returning a fresh full state
    consistent with all the seat knows (the state's ``determinize``): it samples the hidden parts,
    it never reads them.
    """
    legal = offered_actions(state, seat, agent)
    if getattr(agent, "searches", False):
        return cast(Searcher, agent).search(seat, legal, lambda r: state.determinize(seat, r), rng)
    return agent.act(state.view(seat) if getattr(agent, "needs_view", True) else {}, legal, rng)


def strategy_names(game: Game) -> list[str]:
    """Every strategy a seat of ``game`` may be given: ``random``, the game's named ones, and the
    search (``ismcts``, at its default budget)."""
    return ["random", *game.strategies, SEARCH]


def make_agent(game: Game, strategy: str) -> Agent:
    """A fresh agent playing ``strategy`` for ``game``; ``ismcts:<budget>`` sets the search's
    budget (see :class:`tricolore.agents.search.Budget`)."""
    if strategy == "random":
        return RandomAgent()
    name, colon, budget = strategy.partition(":")
    if name == SEARCH and strategy not in game.strategies:
        return search.make(budget if colon else None)
    try:
        return game.strategies[strategy]()
    except KeyError:
        raise OptionsError(f"{game.info.title} has no strategy {strategy!r}; strategies are: "
                           f"{', '.join(strategy_names(game))}") from None
