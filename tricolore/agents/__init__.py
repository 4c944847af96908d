"""Agents: anything that picks an action from a seat's view and its legal actions.

Per-game heuristic strategies live with their game (``tricolore.games.<name>.bots``) and are
found through the game's ``strategies``; :func:`make_agent` resolves a strategy name for a game.
The search agent (:mod:`tricolore.agents.search`, strategy ``ismcts``) plays every game, and so
does the language-model player (:mod:`tricolore.agents.llm`, strategy ``llm``) where an endpoint
is configured. Every driver asks an agent for its move through :func:`decide`.

An agent that talks (``talks = True``) is also told the recent log and the chat it may read
before it decides (its ``listen`` method, called by :func:`decide`), and may leave messages in
its ``said`` list alongside its action; the driver collects them with :func:`take_said` and
delivers them: the server posts them to the table's chat as the agent's seat, ``play`` prints
them, and ``play_game`` keeps them and passes them on to the other talkers at the table.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from tricolore.agents import params, search
from tricolore.core.actions import ActionSpace
from tricolore.core.errors import OptionsError
from tricolore.core.model import Game, Seat, State

SEARCH = "ismcts"
"""The search strategy every game offers; ``ismcts:200`` (iterations) or ``ismcts:0.5s`` (seconds
per decision) gives it a budget."""
LLM = "llm"
"""The language-model player; ``llm:<model>`` names the model (see :mod:`tricolore.agents.llm`)."""
POLICY = "policy"
"""A trained policy; ``policy:PATH`` plays the one saved at PATH (see :mod:`tricolore.agents.policy`)."""
RECENT_EVENTS = 40
"""How many of the latest events a talking agent is told before each decision, unless its
``memory`` attribute says otherwise."""


@dataclass(frozen=True, slots=True)
class Message:
    """A chat message at a table: from ``sender`` to everyone (``to`` is ``None``) or to the
    seats ``to`` only."""

    sender: Seat
    text: str
    to: tuple[Seat, ...] | None = None

    def readable_by(self, seat: Seat) -> bool:
        """Whether ``seat`` may read this message: it is public, or from or to ``seat``."""
        return self.to is None or seat == self.sender or seat in self.to


@dataclass(frozen=True, slots=True)
class Said:
    """What a talking agent says alongside its action: ``text`` to everyone (``to`` is ``None``)
    or privately to the seats ``to``."""

    text: str
    to: tuple[Seat, ...] | None = None


@dataclass(frozen=True, slots=True)
class Heard:
    """What a talking agent is told before it decides, beside its view.

    ``events`` are the latest events of the log its seat may see (at most :data:`RECENT_EVENTS`,
    or the agent's ``memory``),
    ``chat`` the messages it may read, ``names`` every seat's name, and ``asked`` the kinds of
    action its prompt asks for (the other kinds it is offered are free actions: taking one leaves
    the prompt open).
    """

    seat: Seat
    names: tuple[str, ...]
    events: tuple[dict[str, Any], ...]
    chat: tuple[Message, ...]
    asked: tuple[str, ...]


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


def decide(agent: Agent, state: State, seat: Seat, rng: random.Random, *,
           chat: Sequence[Message] = (), names: Sequence[str] | None = None) -> dict[str, Any]:
    """The action ``agent`` takes for ``seat`` in ``state``, one of :func:`offered_actions`.

    An agent whose ``talks`` attribute is true is first told, through its ``listen(heard)``
    method, a :class:`Heard`: the latest events its seat may see, the messages of ``chat`` it may
    read, the seats' ``names`` (``seat 0``, ``seat 1``, ... by default) and the kinds its prompt
    asks for. It is told the latest :data:`RECENT_EVENTS` events, or as many as its ``memory``
    attribute says. What it says alongside its action is collected with :func:`take_said`.

    An agent sees the seat's view (built only if its ``needs_view`` is not false), never the
    state. An agent whose ``searches`` attribute is true is asked through its ``search(seat, legal,
    sample, rng)`` method instead of ``act``, with ``sample(rng)`` returning a fresh full state
    consistent with all the seat knows (the state's ``determinize``): it samples the hidden parts,
    it never reads them.
    """
    legal = offered_actions(state, seat, agent)
    if getattr(agent, "talks", False):
        everyone = tuple(names) if names is not None else tuple(f"seat {s}" for s in range(state.players))
        memory = getattr(agent, "memory", RECENT_EVENTS)
        recent = state.events_for(seat, max(0, len(state.log) - 4 * memory))[-memory:] if memory else []
        agent.listen(Heard(seat, everyone, tuple(recent),  # type: ignore[attr-defined]
                           tuple(m for m in chat if m.readable_by(seat)),
                           state.legal_actions(seat).kinds))
    if getattr(agent, "searches", False):
        return cast(Searcher, agent).search(seat, legal, lambda r: state.determinize(seat, r), rng)
    return agent.act(state.view(seat) if getattr(agent, "needs_view", True) else {}, legal, rng)


def take_said(agent: object) -> list[Said]:
    """What ``agent`` has said since it was last asked (emptying its ``said`` list); nothing for
    an agent that does not talk."""
    said = getattr(agent, "said", None)
    if not said:
        return []
    taken = list(said)
    said.clear()
    return taken


def strategy_names(game: Game) -> list[str]:
    """Every strategy a seat of ``game`` may be given: ``random``, the game's named ones, the
    search (``ismcts``, at its default budget), and the language-model player (``llm``) when an
    endpoint and a model are configured in the environment (``TRICOLORE_LLM_URL`` and
    ``TRICOLORE_LLM_MODEL``)."""
    names = ["random", *game.strategies, SEARCH]
    if os.environ.get("TRICOLORE_LLM_URL", "").strip() and os.environ.get("TRICOLORE_LLM_MODEL", "").strip():
        names.append(LLM)
    return names


def make_agent(game: Game, strategy: str) -> Agent:
    """A fresh agent playing ``strategy`` for ``game``; ``ismcts:<budget>`` sets the search's
    budget (see :class:`tricolore.agents.search.Budget`), ``llm:<model>`` the language model (see
    :func:`tricolore.agents.llm.make`), ``policy:PATH`` a trained policy (see
    :func:`tricolore.agents.policy.make`), and ``name:key=value,...`` a named strategy's parameters
    (see :mod:`tricolore.agents.params`; ``tricolore games`` lists each strategy's)."""
    if strategy == "random":
        return RandomAgent()
    name, values = params.parse(strategy)
    if name == SEARCH or (name.partition(":")[0] == SEARCH and name not in game.strategies):
        return search.make(strategy.partition(":")[2] if ":" in strategy else None)
    if strategy.partition("@")[0].partition(":")[0] == LLM and strategy not in game.strategies:
        from tricolore.agents import llm  # imported on demand: it brings the HTTP client

        return llm.make(game, strategy)
    if strategy.partition(":")[0] == POLICY and strategy not in game.strategies:
        from tricolore.agents import policy  # imported on demand: it brings the flat action codec

        return policy.make(game, strategy)
    factory = RandomAgent if name == "random" else game.strategies.get(name)
    if factory is None:
        raise OptionsError(f"{game.info.title} has no strategy {name!r}; strategies are: "
                           f"{', '.join(strategy_names(game))}")
    return cast(Agent, factory(**params.convert(name, factory, values)))


def strategy_class(game: Game, strategy: str) -> object:
    """What builds ``strategy`` (its class, for a named one), which declares its parameters."""
    name, _ = params.parse(strategy)
    if name == "random":
        return RandomAgent
    if name.partition(":")[0] == SEARCH and name not in game.strategies:
        return search.ISMCTSAgent
    return game.strategies.get(name, RandomAgent)


def strategy_schema(game: Game) -> list[dict[str, Any]]:
    """Every strategy of :func:`strategy_names` with the parameters it declares, as JSON:
    ``{"name": ..., "parameters": [{"key", "kind", "default", "low", "high", "choices", "doc"},
    ...]}`` (see :func:`tricolore.agents.params.schema`)."""
    return [{"name": name, "parameters": params.schema(strategy_class(game, name))}
            for name in strategy_names(game)]


def canonical_strategy(game: Game, strategy: str) -> str:
    """``strategy`` written the one way (keys sorted, defaults left out); checked as
    :func:`make_agent` checks it."""
    if strategy.partition(":")[0] == POLICY and strategy not in game.strategies:
        from tricolore.agents import policy

        return policy.canonical(strategy)
    name, values = params.parse(strategy)
    if not values:
        return strategy
    factory = strategy_class(game, strategy)
    return params.canonical(name, params.convert(name, factory, values), factory)


def strategy_parameters(game: Game, strategy: str) -> dict[str, params.Value]:
    """Every parameter of ``strategy`` with its value, defaults included (what a results file
    records for each strategy it names)."""
    if strategy.partition(":")[0] == POLICY and strategy not in game.strategies:
        from tricolore.agents import policy

        return policy.settings(strategy)
    name, values = params.parse(strategy)
    factory = strategy_class(game, strategy)
    return params.full(factory, params.convert(name, factory, values))
