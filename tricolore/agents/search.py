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

**Deals.** In a game whose deals the engine keeps (:data:`DEAL_RULES`: Culottes bribes and
alliances, Bread and Circuses deals under Regulated Bribery), an agent with ``deals`` on trades:
it is offered its free actions, and searches the deal actions among them like any other move.

- It answers first: at a decision with offers waiting for its answer, the root's moves are
  accepting and declining each of them, and the search picks whichever it values more. Every
  seat of its simulated games does the same: in the tree by search, in rollouts at random.
- It proposes: at a decision whose prompt offers a choice, the root also holds ``offers`` deal
  proposals (bribes, solicitations, alliances, withdrawals) sampled from its free actions; it
  takes one only if it is visited most and its mean reward beats the best prompt move's. A
  proposal is a free action: the prompt stays open, so the agent takes at most ``deal_actions``
  of them in a row before its prompt's action, and proposals are searched at the root only.
  Other seats answer deals in its simulated games but do not propose them.
- It honours (``honour``): a seat bound by an accepted deal chooses only moves that keep it
  (a bribed Culottes citizen votes the bribe's side at its first vote and never the other; a
  Bread and Circuses player plays, and discloses, what it was paid for), in the tree and in
  rollouts, for every seat; the engine enforces the rest.

Other free actions (gifts, agreeing to end) are never searched. The budget is a number of
iterations or of seconds per decision; a decision with one legal action is taken without search.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tricolore.agents.params import Parameter, convert, parse
from tricolore.core.actions import Action, ActionFamily, ActionSpace, Amount, Choice, Subset, Text
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.model import Seat, State
from tricolore.core.playout import play_at_random

Sampler = Callable[[random.Random], State]
"""Returns a full state consistent with what the searching seat knows, drawn with the generator."""

DEFAULT_ITERATIONS = 100
MAX_ITERATIONS = 100_000
MAX_SECONDS = 60.0

_REWARD_NAMES = ("win", "score")

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


@dataclass(frozen=True, slots=True)
class Honour:
    """What keeping a seat's accepted deals asks of it now: ``keeps(action)`` tells a move that
    keeps them all, and ``moves`` are moves that keep them (found directly, where sampling a large
    space would rarely hit one)."""

    keeps: Callable[[Action], bool]
    moves: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class DealRules:
    """What the search knows of a game's deals: the free actions that propose one
    (``proposals``), the two that answer an offer (``accept``, ``decline``, each with a ``deal``
    field naming it), and ``honouring(state, seat)``, what keeping its accepted deals asks of
    ``seat`` now (``None``: nothing). The offers waiting for a seat are read from the game's
    :class:`~tricolore.core.deals.DealBook`, ``state.deals``."""

    proposals: frozenset[str]
    accept: str
    decline: str
    honouring: Callable[[Any, Seat], Honour | None]


def _other_side(side: str) -> str:
    return "privileged" if side == "sans_culotte" else "sans_culotte"


def _culottes_honouring(state: Any, seat: Seat) -> Honour | None:
    """A citizen bound by an accepted bribe or an alliance in an open trial votes its side there
    at its first cake vote since (no other vote, no passing or emigrating before it), and never
    the other side."""
    if state.phase != "turn":
        return None
    citizen = state.current_citizen()
    if citizen is None or citizen.owner != seat:
        return None
    promises: list[tuple[int, str, int]] = [  # (trial, side, first Book row that counts)
        (d.condition["trial"], d.condition["side"], state.accepted_at[d.id])
        for d in state.deals.deals if d.status == "accepted" and d.condition["voter"] == citizen.id]
    promises += [(a["trial"], a["side"], m["since"]) for a in state.alliances if a["status"] == "open"
                 for m in a["members"] if m["citizen"] == citizen.id]
    if not promises:
        return None
    rows = state.book.rows
    owed = [(trial, side) for trial, side, since in promises
            if not any(r.voter == citizen.id and r.citizen == trial and r.side == side
                       and r.closing is None for r in rows[since:])]
    may_vote = state.step <= 4 and citizen.cakes > 0
    wrong = {(trial, _other_side(side)) for trial, side, _ in promises}

    def keeps(action: Action) -> bool:
        kind = action["type"]
        if kind == "cake_vote":
            vote = (action["citizen"], action["side"])
            return vote not in wrong and (not owed or vote in owed)
        if kind in ("pass", "emigrate"):
            return not (owed and may_vote)
        return True

    moves: list[Action] = []
    if owed and may_vote:
        cover = {(d.condition["trial"], d.condition["side"]): d.condition["cover"]
                 for d in state.deals.deals if d.status == "accepted" and d.condition["voter"] == citizen.id}
        for trial, side in owed:
            for cakes in sorted({1, min(cover.get((trial, side), 1), citizen.cakes)}):
                moves.append({"type": "cake_vote", "citizen": trial, "side": side, "cakes": cakes})
    return Honour(keeps, tuple(moves))


def _bread_honouring(state: Any, seat: Seat) -> Honour | None:
    """A player paid to play a tile (any tile but one) this round discloses and plays only such
    tiles; one paid for an honest disclosure discloses on the icon of the tile it places, and
    neither takes it back nor declares ready without one."""
    promised = [d.condition for d in state.deals.deals
                if d.status == "accepted" and d.payee == seat and d.condition["round"] == state.round]
    if not promised:
        return None
    honest = any("honest" in c for c in promised)

    def tile_ok(tile: object) -> bool:
        return all(c.get("play", tile) == tile and ("any_but" not in c or c["any_but"] != tile)
                   for c in promised)

    disclosed = state.disclosed[seat]
    honest_now = disclosed is not None and disclosed[0] == disclosed[1]

    def keeps(action: Action) -> bool:
        kind = action["type"]
        if kind == "play":
            return tile_ok(action["tile"])
        if kind == "disclose":
            return tile_ok(action["tile"]) and (not honest or action["tile"] == action["icon"])
        if kind == "take_back":
            return not (honest and honest_now)
        if kind == "ready":
            return (disclosed is None or tile_ok(disclosed[0])) and (not honest or honest_now)
        return True

    tiles = ("bread", "circus", "abstain")
    moves: list[Action] = [{"type": "play", "tile": t} for t in tiles if tile_ok(t)]
    if honest:
        moves += [{"type": "disclose", "tile": t, "icon": t} for t in tiles[:2] if tile_ok(t)]
    return Honour(keeps, tuple(moves))


DEAL_RULES: dict[str, DealRules] = {
    "culottes": DealRules(frozenset({"offer_bribe", "withdraw_bribe", "found_alliance", "join_alliance"}),
                          "accept_bribe", "decline_bribe", _culottes_honouring),
    "bread-and-circuses": DealRules(frozenset({"offer_deal", "solicit_deal", "withdraw_deal"}),
                                    "accept_deal", "decline_deal", _bread_honouring),
}
"""The games whose deals the engine keeps, by game name (see ``docs/deals.md``)."""


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
    and its seat, never the state itself. ``budget``, when given, stands for ``iterations`` and
    ``seconds``.
    """

    name = "ismcts"
    searches = True
    needs_view = False
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "iterations": Parameter(DEFAULT_ITERATIONS, 1, MAX_ITERATIONS, "search iterations per decision"),
        "seconds": Parameter(0.0, 0, MAX_SECONDS, "seconds of search per decision instead of a number "
                                                  "of iterations (0: count iterations)"),
        "exploration": Parameter(0.7, 0, 100, "UCB1 exploration constant"),
        "rollout_depth": Parameter(40, 0, 10_000, "random actions per rollout before the standing is "
                                                  "scored"),
        "max_children": Parameter(16, 1, 1024, "moves listed whole at a node, and the most progressive "
                                               "widening considers"),
        "reward": Parameter("win", doc="what a simulated game is worth: the share of the win, or the "
                                       "score between the lowest and the highest",
                            choices=_REWARD_NAMES),
        "deals": Parameter(False, doc="offer, answer and honour the deals the engine keeps (games "
                                      "with deals)"),
        "offers": Parameter(4, 0, 64, "deal proposals sampled and searched at each decision"),
        "deal_actions": Parameter(2, 0, 16, "deal proposals at most in a row before the prompt's action"),
        "honour": Parameter(True, doc="keep accepted deals: a bound seat chooses only moves that "
                                      "honour them"),
    }

    def __init__(self, budget: Budget | None = None, /, *, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float = 0.0, exploration: float = 0.7, rollout_depth: int = 40,
                 max_children: int = 16, reward: str = "win", deals: bool = False, offers: int = 4,
                 deal_actions: int = 2, honour: bool = True) -> None:
        if reward not in _REWARD_NAMES:
            raise OptionsError(f"the IS-MCTS reward must be one of {', '.join(_REWARD_NAMES)}; "
                               f"got {reward!r}")
        if type(rollout_depth) is not int or rollout_depth < 0:
            raise OptionsError(f"the IS-MCTS rollout depth must be a whole number, 0 or more; "
                               f"got {rollout_depth!r}")
        if type(max_children) is not int or max_children < 1:
            raise OptionsError(f"the IS-MCTS number of moves per node must be at least 1; "
                               f"got {max_children!r}")
        if not (isinstance(exploration, int | float) and 0 <= exploration < math.inf):
            raise OptionsError(f"the IS-MCTS exploration must be a number, 0 or more; got {exploration!r}")
        for key, value in (("offers", offers), ("deal_actions", deal_actions)):
            if type(value) is not int or value < 0:
                raise OptionsError(f"the IS-MCTS {key} must be a whole number, 0 or more; got {value!r}")
        if type(deals) is not bool or type(honour) is not bool:
            raise OptionsError("the IS-MCTS deals and honour settings are true or false")
        if budget is None:
            budget = (Budget(iterations=None, seconds=seconds) if seconds
                      else Budget(iterations=iterations))
        self.budget = budget
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.max_children = max_children
        self.reward = reward
        self.deals = deals
        self.offers = offers
        self.deal_actions = deal_actions
        self.honour = honour
        self.trades = deals  # offered its free actions, among them the deals (offered_actions)
        self.last = SearchStats()
        self._root_moves: list[tuple[str, dict[str, Any]]] | None = None
        self._root_deals: list[tuple[str, dict[str, Any]]] = []
        self._rules: DealRules | None = None
        self._in_a_row = 0  # deal proposals taken since this agent's last prompt action

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """Refused: a search needs states to sample, which only :func:`tricolore.agents.decide` gives."""
        raise TypeError("IS-MCTS searches sampled states: ask it through tricolore.agents.decide")

    def search(self, seat: Seat, legal: ActionSpace, sample: Sampler,
               rng: random.Random) -> dict[str, Any]:
        """The action, one of ``legal``, that the search finds best for ``seat`` within the budget."""
        start = time.perf_counter()
        self.last = SearchStats()
        self._rules = None
        self._root_deals = []
        space = legal
        if self.deals:
            # A sample for what is public (the game, the prompt, the offers), drawn with a generator
            # of its own so that a game without deals is searched exactly as without them.
            first = sample(random.Random(seat))
            space = ActionSpace(legal.families[:len(first.legal_actions(seat).families)])
            self._rules = DEAL_RULES.get(first.info.name)
            if self._rules is not None:
                answers = self._answers(first, seat)
                if answers:
                    return self._search(seat, space, sample, rng, start, answers, [])
                if self._in_a_row < self.deal_actions and _listing(space, 1, rng) is None:
                    self._root_deals = self._proposals(first, seat, legal, rng)
        only = _listing(space, 1, rng)
        if only and not self._root_deals:
            return self._taken(only[0][1], space)
        return self._search(seat, space, sample, rng, start, _listing(space, self.max_children, rng),
                            self._root_deals)

    def _search(self, seat: Seat, space: ActionSpace, sample: Sampler, rng: random.Random, start: float,
                moves: list[tuple[str, dict[str, Any]]] | None,
                deals: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        self._root_moves, self._root_deals = moves, deals
        root = _Node(seat, None)
        deadline = None if self.budget.seconds is None else start + self.budget.seconds
        iterations = 0
        while True:
            world = sample(rng)
            try:
                self._iterate(root, seat, space, world, rng)
            finally:  # the world is dropped now, not at the garbage collector's next full pass
                world.release()
            iterations += 1
            if deadline is None:
                if iterations >= (self.budget.iterations or 0):
                    break
            elif time.perf_counter() >= deadline:
                break
        best = max(root.children.values(), key=_preference)
        if deals and best.action is not None and space.family(best.action["type"]) is None:
            # A proposal binds, or locks goods in escrow: it must also beat the best prompt move
            # on its mean reward, not only on visits.
            prompted = [n for n in root.children.values()
                     if n.action is not None and space.family(n.action["type"]) is not None]
            if prompted:
                move = max(prompted, key=_preference)
                if _mean(best) <= _mean(move):
                    best = move
        self.last = SearchStats(iterations, time.perf_counter() - start,
                                {key: child.visits for (_, key), child in root.children.items()})
        assert best.action is not None
        return self._taken(dict(best.action), space)

    def _taken(self, action: dict[str, Any], prompt: ActionSpace) -> dict[str, Any]:
        """``action``, counted against ``deal_actions`` if it is a deal proposal."""
        if self._rules is not None:
            if action["type"] in self._rules.proposals and action["type"] not in prompt.kinds:
                self._in_a_row += 1
            elif action["type"] in prompt.kinds:
                self._in_a_row = 0
        return action

    def _answers(self, state: State, seat: Seat) -> list[tuple[str, dict[str, Any]]]:
        """Accepting and declining each offer waiting for ``seat``'s answer, with their keys."""
        rules = self._rules
        assert rules is not None
        out: list[tuple[str, dict[str, Any]]] = []
        for deal in state.deals.open_offers(seat):  # type: ignore[attr-defined]
            for kind in (rules.accept, rules.decline):
                action = {"type": kind, "deal": deal.id}
                out.append((_text_free_key(action, []), action))
        return out

    def _proposals(self, state: State, seat: Seat, legal: ActionSpace,
                   rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
        """Up to ``offers`` distinct deal proposals among ``seat``'s free actions, at random."""
        assert self._rules is not None
        families = tuple(f for f in state.free_actions(seat).families if f.kind in self._rules.proposals)
        if not families or not self.offers:
            return []
        space = ActionSpace(families)
        found: dict[str, dict[str, Any]] = {}
        for _ in range(4 * self.offers):
            action = space.sample(rng)
            if legal.contains(action):
                found.setdefault(_key(space, action), action)
            if len(found) >= self.offers:
                break
        return list(found.items())

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
            child, action = self._select(node, seat, space, state, rng)
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
            seat = state.acting()[0]
            space = state.legal_actions(seat)
        rewards = self._rollout(state, rng)
        for n in path[1:]:
            n.visits += 1
            n.reward += rewards[n.seat]
        root.visits += 1

    def _select(self, node: _Node, seat: Seat, space: ActionSpace, state: State,
                rng: random.Random) -> tuple[_Node, Action]:
        """The child to follow: an untried available action if there is one, else the best by UCB."""
        available = self._candidates(node, seat, space, state, rng)
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

    def _candidates(self, node: _Node, seat: Seat, space: ActionSpace, state: State,
                    rng: random.Random) -> Sequence[tuple[str, Action]]:
        """The actions considered at ``node`` in this determinization, each with its key."""
        rules = self._rules
        listed: Sequence[tuple[str, Action]] | None
        if node.action is None:
            listed = self._root_moves
        else:
            if rules is not None:
                answers = self._answers(state, seat)
                if answers:  # a seat answers the offers made to it before anything else
                    return answers
            listed = _listing(space, self.max_children, rng)
        if listed is None:
            listed = self._widened(node, seat, space, rng)
        if rules is None:
            return listed
        if self.honour:
            listed = _honoured(rules.honouring(state, seat), listed, space)
        return [*listed, *self._root_deals] if node.action is None else listed

    def _widened(self, node: _Node, seat: Seat, space: ActionSpace,
                 rng: random.Random) -> list[tuple[str, Action]]:
        """Progressive widening over a space too large to list."""
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
        self._play_on(state, rng, self.rollout_depth)
        try:
            result = state.result()
        except Exception:  # a game that cannot score an unfinished state: finish it
            self._play_on(state, rng)
            result = state.result()
        return _REWARDS[self.reward](result.scores, result.winners)

    def _play_on(self, state: State, rng: random.Random, limit: int = -1) -> None:
        """Random play from ``state`` until it is over or for ``limit`` actions (no limit: -1)."""
        if self._rules is None:  # the engine's own loop: the same draws, in compiled code
            play_at_random(state, [rng], limit)
            return
        depth = 0
        while not state.is_over() and depth != limit:
            self._play_at_random(state, rng)
            depth += 1

    def _play_at_random(self, state: State, rng: random.Random) -> None:
        """One random action of the seat to act; with deals, it first answers an offer waiting for
        it, at random, and keeps its accepted deals if ``honour``."""
        seat = state.acting()[0]
        rules = self._rules
        if rules is None:
            state.play_trusted(seat, state.legal_actions(seat).sample(rng))
            return
        waiting = state.deals.open_offers(seat)  # type: ignore[attr-defined]
        if waiting:
            kind = rules.accept if rng.random() < 0.5 else rules.decline
            try:
                state.apply(seat, {"type": kind, "deal": waiting[0].id})
                return
            except IllegalAction:
                pass
        space = state.legal_actions(seat)
        action = space.sample(rng)
        honour = rules.honouring(state, seat) if self.honour else None
        if honour is not None and not honour.keeps(action):
            for _ in range(8):
                action = space.sample(rng)
                if honour.keeps(action):
                    break
            else:
                kept = [m for m in honour.moves if space.contains(m)]
                if kept:
                    action = dict(kept[rng.randrange(len(kept))])
        state.play_trusted(seat, action)


def _mean(node: _Node) -> float:
    return node.reward / node.visits if node.visits else 0.0


def _preference(node: _Node) -> tuple[int, float]:
    """The root's order of preference: most visited, then the best mean reward."""
    return node.visits, _mean(node)


def _honoured(honour: Honour | None, listed: Sequence[tuple[str, Action]],
              space: ActionSpace) -> Sequence[tuple[str, Action]]:
    """The moves of ``listed`` that keep the seat's deals, with the honouring moves the rules
    name; all of ``listed`` when nothing binds the seat or no listed move could keep them."""
    if honour is None:
        return listed
    kept = [(key, action) for key, action in listed if honour.keeps(action)]
    keys = {key for key, _ in kept}
    for move in honour.moves:
        if space.contains(move):
            key = _key(space, move)
            if key not in keys:
                kept.append((key, dict(move)))
                keys.add(key)
    return kept or listed


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


def make(text: str | None) -> ISMCTSAgent:
    """The IS-MCTS agent of what a strategy name gives after ``ismcts:``: a budget (``300``
    iterations, ``0.5s``), or parameters (``iterations=300,deals=true``; see
    :attr:`ISMCTSAgent.parameters`); ``None`` gives the defaults."""
    if text is None:
        return ISMCTSAgent()
    if "=" not in text:
        return ISMCTSAgent(Budget.parse(text))
    _, values = parse(f"{ISMCTSAgent.name}:{text}")
    return ISMCTSAgent(**convert(ISMCTSAgent.name, ISMCTSAgent, values))  # type: ignore[arg-type]
