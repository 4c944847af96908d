"""Information-set Monte Carlo tree search (IS-MCTS) for every registered game.

The agent is single-observer IS-MCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 2012). It never reads the true state: it is given a *sampler*, a function
that returns a full state consistent with everything its seat knows (the game's ``determinize``),
and searches one tree over the games those samples lead to. Each iteration:

1. **determinizes**: draws a state from the sampler;
2. **selects**: walks down the tree from the root, at each node taking the action the seat to act
   likes best by UCB1 among the node's actions that are legal *in this determinization* (the
   availability count of each action stands in for its parent's visits). Every seat, not only the
   searching one, chooses in the tree and maximizes its own reward, as in the paper; when several
   seats are asked at once (sealed moves), the searching seat chooses first at the root and the
   others follow in seat order, each by the same tree;
3. **expands** one action the node has not tried yet, at random among those legal now;
4. **rolls out**: plays random legal actions (the game's own sampling) for at most
   ``rollout_depth`` actions, or to the end;
5. **backs up** each seat's reward through the nodes it chose: ``1/k`` to each of the ``k`` seats
   sharing the win, 0 to the others. A rollout cut short by its depth is scored by the game's
   current standing, its ``result()`` of the unfinished state; a game whose ``result()`` refuses
   an unfinished state is played on to its end instead.

Actions are compared by their JSON text. A seat with at most ``max_children`` legal actions
considers them all; a larger space (a Revolution! bid, a cake vote) is met by progressive
widening: a node visited ``n`` times considers ``ceil(sqrt(n + 1))`` actions sampled from the space,
at most ``max_children``, legal in the current determinization.

The search chooses among its prompt's actions only: it never trades (free actions), and in its
simulated games nobody does. The budget is a number of iterations or of seconds per decision; a
decision with one legal action is taken without search.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricolore.core.actions import Action, ActionFamily, ActionSpace, Amount, Choice, Subset, Text
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.model import Seat, State

Sampler = Callable[[random.Random], State]
"""Returns a full state consistent with what the searching seat knows, drawn with the generator."""

DEFAULT_ITERATIONS = 100
MAX_ITERATIONS = 100_000
MAX_SECONDS = 60.0

_BUDGET = re.compile(r"(?P<iterations>[0-9]+)|(?P<seconds>[0-9]*\.?[0-9]+)s")


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may cost: ``iterations`` of search, or ``seconds`` of wall-clock time."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.seconds is None):
            raise OptionsError("an IS-MCTS budget is a number of iterations or of seconds, one of them")
        if self.iterations is not None and not (type(self.iterations) is int
                                                and 1 <= self.iterations <= MAX_ITERATIONS):
            raise OptionsError(f"an IS-MCTS budget must be from 1 to {MAX_ITERATIONS} iterations; "
                               f"got {self.iterations!r}")
        if self.seconds is not None and not (type(self.seconds) in (int, float)
                                             and 0 < self.seconds <= MAX_SECONDS):
            raise OptionsError(f"an IS-MCTS budget must be more than 0 and at most {MAX_SECONDS:g} "
                               f"seconds; got {self.seconds!r}")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """A budget written as ``200`` (iterations) or ``0.5s`` (seconds).

        >>> Budget.parse("200"), Budget.parse("0.5s")
        (Budget(iterations=200, seconds=None), Budget(iterations=None, seconds=0.5))
        """
        match = _BUDGET.fullmatch(text.strip())
        if match is None:
            raise OptionsError(f"an IS-MCTS budget is a number of iterations (ismcts:200) or of "
                               f"seconds (ismcts:0.5s); got {text!r}")
        if match["iterations"] is not None:
            digits = match["iterations"]
            if len(digits) > len(str(MAX_ITERATIONS)):  # do not read a huge number to refuse it
                raise OptionsError(f"an IS-MCTS budget must be from 1 to {MAX_ITERATIONS} iterations; "
                                   f"got {text!r}")
            return cls(iterations=int(digits))
        return cls(iterations=None, seconds=float(match["seconds"]))


class _Node:
    """One tree node: the move ``action`` of ``seat`` from its parent, with that seat's statistics."""

    __slots__ = ("action", "avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: Seat, action: Action | None) -> None:
        self.seat = seat
        self.action = action
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.children: dict[tuple[Seat, str], _Node] = {}


@dataclass(slots=True)
class SearchStats:
    """What the last search did: iterations run, seconds spent, and the root's visit counts."""

    iterations: int = 0
    seconds: float = 0.0
    visits: Mapping[str, int] | None = None


class ISMCTSAgent:
    """Single-observer IS-MCTS over the game's ``determinize`` (see the module's docstring).

    Asked through :func:`tricolore.agents.decide`, which hands it a sampler bound to the true state
    and its seat, never the state itself.
    """

    name = "ismcts"
    searches = True
    needs_view = False

    def __init__(self, budget: Budget | None = None, *, exploration: float = 0.7,
                 rollout_depth: int = 40, max_children: int = 16, reward: str = "win") -> None:
        if reward not in _REWARDS:
            raise OptionsError(f"the IS-MCTS reward must be one of {', '.join(_REWARDS)}; got {reward!r}")
        if type(rollout_depth) is not int or rollout_depth < 0:
            raise OptionsError(f"the IS-MCTS rollout depth must be a whole number, 0 or more; "
                               f"got {rollout_depth!r}")
        if type(max_children) is not int or max_children < 1:
            raise OptionsError(f"the IS-MCTS number of moves per node must be at least 1; "
                               f"got {max_children!r}")
        if not (isinstance(exploration, int | float) and 0 <= exploration < math.inf):
            raise OptionsError(f"the IS-MCTS exploration must be a number, 0 or more; got {exploration!r}")
        self.budget = budget or Budget()
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.max_children = max_children
        self.reward = reward
        self.last = SearchStats()
        self._root_moves: list[tuple[str, dict[str, Any]]] | None = None

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """Refused: a search needs states to sample, which only :func:`tricolore.agents.decide` gives."""
        raise TypeError("IS-MCTS searches sampled states: ask it through tricolore.agents.decide")

    def search(self, seat: Seat, legal: ActionSpace, sample: Sampler,
               rng: random.Random) -> dict[str, Any]:
        """The action, one of ``legal``, that the search finds best for ``seat`` within the budget."""
        start = time.perf_counter()
        self.last = SearchStats()
        only = _listing(legal, 1, rng)
        if only:
            return only[0][1]
        self._root_moves = _listing(legal, self.max_children, rng)
        root = _Node(seat, None)
        deadline = None if self.budget.seconds is None else start + self.budget.seconds
        iterations = 0
        while True:
            self._iterate(root, seat, legal, sample(rng), rng)
            iterations += 1
            if deadline is None:
                if iterations >= (self.budget.iterations or 0):
                    break
            elif time.perf_counter() >= deadline:
                break
        best = max(root.children.values(),
                   key=lambda n: (n.visits, n.reward / n.visits if n.visits else 0.0))
        self.last = SearchStats(iterations, time.perf_counter() - start,
                                {key: child.visits for (_, key), child in root.children.items()})
        assert best.action is not None
        return dict(best.action)

    # -- one iteration --------------------------------------------------------------------------
    def _iterate(self, root: _Node, me: Seat, legal: ActionSpace, state: State,
                 rng: random.Random) -> None:
        state.record_events = False
        path = [root]
        node = root
        seat = me
        space = legal  # the root offers what the seat was offered
        expanded = False
        while True:
            child, action = self._select(node, seat, space, rng)
            try:
                state.apply(seat, action)
            except IllegalAction:  # a determinization disagreeing with the offer; skip it
                if node is root:
                    return
                break
            path.append(child)
            if child.visits == 0:
                expanded = True
            if expanded or state.is_over():
                break
            node = child
            seat = min(state.pending())
            space = state.legal_actions(seat)
        rewards = self._rollout(state, rng)
        for n in path[1:]:
            n.visits += 1
            n.reward += rewards[n.seat]
        root.visits += 1

    def _select(self, node: _Node, seat: Seat, space: ActionSpace,
                rng: random.Random) -> tuple[_Node, Action]:
        """The child to follow: an untried available action if there is one, else the best by UCB."""
        available = self._candidates(node, seat, space, rng)
        untried = []
        for key, action in available:
            child = node.children.get((seat, key))
            if child is None or child.visits == 0:
                untried.append((key, action))
            if child is not None:
                child.avail += 1
        if untried:
            key, action = untried[rng.randrange(len(untried))]
            child = node.children.get((seat, key))
            if child is None:
                child = node.children[seat, key] = _Node(seat, action)
                child.avail = 1
            return child, action
        best: tuple[_Node, Action] | None = None
        best_value = -math.inf
        for key, action in available:
            child = node.children[seat, key]
            value = (child.reward / child.visits
                     + self.exploration * math.sqrt(math.log(child.avail) / child.visits))
            if value > best_value:
                best, best_value = (child, action), value
        assert best is not None
        return best

    def _candidates(self, node: _Node, seat: Seat, space: ActionSpace,
                    rng: random.Random) -> Sequence[tuple[str, Action]]:
        """The actions considered at ``node`` in this determinization, each with its key."""
        listed = (self._root_moves if node.action is None
                  else _listing(space, self.max_children, rng))
        if listed is not None:
            return listed
        # Progressive widening over a space too large to list.
        known: list[tuple[str, Action]] = [
            (key, child.action) for (s, key), child in node.children.items()
            if s == seat and child.action is not None and space.contains(child.action)]
        wanted = min(self.max_children, math.ceil(math.sqrt(node.visits + 1)))
        if len(known) < wanted:
            taken = {key for key, _ in known}
            for _ in range(8):
                action = space.sample(rng)
                key = _key(space, action)
                if key not in taken:
                    known.append((key, action))
                    break
        return known

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        """Random play from ``state`` to the end or the depth cap; each seat's reward."""
        depth = 0
        while not state.is_over() and depth < self.rollout_depth:
            seat = min(state.pending())
            state.apply_trusted(seat, state.legal_actions(seat).sample(rng))
            depth += 1
        try:
            result = state.result()
        except Exception:  # a game that cannot score an unfinished state: finish it
            while not state.is_over():
                seat = min(state.pending())
                state.apply_trusted(seat, state.legal_actions(seat).sample(rng))
            result = state.result()
        return _REWARDS[self.reward](result.scores, result.winners)


def _win(scores: Sequence[float], winners: frozenset[Seat]) -> list[float]:
    share = 1.0 / len(winners) if winners else 0.0
    return [share if s in winners else 0.0 for s in range(len(scores))]


def _score(scores: Sequence[float], winners: frozenset[Seat]) -> list[float]:
    low, high = min(scores), max(scores)
    if high == low:
        return [0.5] * len(scores)
    return [(v - low) / (high - low) for v in scores]


_REWARDS = {"win": _win, "score": _score}
"""Each seat's reward from a (possibly unfinished) game's scores and winners, from 0 to 1."""


def _listing(space: ActionSpace, limit: int,
             rng: random.Random) -> list[tuple[str, dict[str, Any]]] | None:
    """Every move of ``space`` with its key if there are at most ``limit``, else ``None``; also
    ``None`` at a domain that is not one of the core's listable ones (a game's own domain, whose
    listing may cost far more than sampling). Free text counts as one move, with a sampled text."""
    out: list[tuple[str, dict[str, Any]]] = []
    for family in space.families:
        names = [n for n in family.params if n not in family.optional]
        if not _walk(family, names, {"type": family.kind}, [], out, limit, rng):
            return None
    return out


def _walk(family: ActionFamily, names: list[str], partial: dict[str, Any], texts: list[str],
          out: list[tuple[str, dict[str, Any]]], limit: int, rng: random.Random) -> bool:
    """Append the moves extending ``partial`` to ``out``; ``False`` once past ``limit`` or at a
    domain that cannot be listed cheaply."""
    i = len(partial) - 1
    if i == len(names):
        out.append((_text_free_key(partial, texts), dict(partial)))
        return len(out) <= limit
    name = names[i]
    domain = family.domain(name, partial)
    if isinstance(domain, Choice):
        values: Sequence[object] = domain.options
    elif isinstance(domain, Amount):
        if domain.high - domain.low >= limit:
            return False
        values = range(domain.low, domain.high + 1)
    elif isinstance(domain, Subset):
        top = min(domain.max_size, len(domain.options))
        if sum(math.comb(len(domain.options), k) for k in range(domain.min_size, top + 1)) > limit:
            return False
        values = domain.values()
    elif isinstance(domain, Text):
        values = [domain.sample(rng)]
        texts = [*texts, name]
    else:
        return False
    for value in values:
        partial[name] = value
        if not _walk(family, names, partial, texts, out, limit, rng):
            return False
    del partial[name]
    return True


def _key(space: ActionSpace, action: Action) -> str:
    """The move ``action`` makes, as text: free text left out, since no rule reads it."""
    family = space.family(action["type"])
    texts = [] if family is None else [
        name for name in family.params
        if name in action and isinstance(family.domain(name, action), Text)]
    return _text_free_key(action, texts)


def _text_free_key(action: Action, texts: list[str]) -> str:
    if texts:
        action = {k: v for k, v in action.items() if k not in texts}
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def make(budget: str | None) -> ISMCTSAgent:
    """The IS-MCTS agent of a strategy name's budget (``None``: the default budget)."""
    return ISMCTSAgent(Budget() if budget is None else Budget.parse(budget))
