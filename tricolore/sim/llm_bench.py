"""A negotiation benchmark for language models: one language-model seat against the strategy pool.

:func:`run_bench` plays one game per seed. In the game of the ``i``-th seed the language-model
seat is seat ``i mod players`` and the other seats take the pool's strategies in turn, so every
seat and every opponent comes round. The leaderboard (:func:`leaderboard`) gives each strategy its
games, wins (a shared win counts), win rate with its 95% Wilson interval and OpenSkill rating
(:func:`tricolore.sim.ratings.rate`, the games in seed order); the language model's entry adds the
deals it offered, accepted and saw kept (settled by the engine), its invalid answers and the tokens
it read and wrote.

Deals are read from the seat's own actions and the log: an action whose kind begins ``offer``,
``propose``, ``solicit`` or ``found`` offers one, ``accept`` or ``join`` accepts one; a deal is
kept when the log settles it honoured (:func:`honoured`): a Bread and Circuses deal paid, a
Culottes bribe whose voter voted as paid to, an alliance none of whose members voted the other
side. A deal that lapsed (its condition did not hold) or was broken is not counted as kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tricolore.agents import Message, decide, make_agent, take_said
from tricolore.core.deals import PAID
from tricolore.core.errors import OptionsError
from tricolore.core.registry import get_game
from tricolore.sim.batch import GameRow, wilson_interval
from tricolore.sim.ratings import rate
from tricolore.sim.runner import EndlessGame, agent_rng

OFFERS = ("offer", "propose", "solicit", "found")
"""How the kinds of action that offer a deal begin."""
ACCEPTS = ("accept", "join")
"""How the kinds of action that accept a deal begin."""
MAX_ACTIONS = 20_000
"""Most actions one game of the benchmark may take."""


@dataclass(frozen=True, slots=True)
class BenchSpec:
    """What to play: ``game`` at ``players`` seats, one game per seed of ``seeds``, the strategy
    ``model`` (``llm:<model>...``) in one seat and ``pool`` in the others."""

    game: str
    players: int
    seeds: tuple[int, ...]
    model: str
    pool: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)

    def lineup(self, index: int) -> tuple[str, ...]:
        """The strategy of each seat in the game of the ``index``-th seed."""
        seat = index % self.players
        out: list[str] = []
        k = 0
        for s in range(self.players):
            if s == seat:
                out.append(self.model)
            else:
                out.append(self.pool[(index + k) % len(self.pool)])
                k += 1
        return tuple(out)


@dataclass(slots=True)
class BenchGame:
    """One game of the benchmark: its seed, seats, scores and winners, and the language-model
    seat's deals, invalid answers, fallbacks and tokens."""

    seed: int
    strategies: tuple[str, ...]
    seat: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    deals_offered: int = 0
    deals_accepted: int = 0
    deals_kept: int = 0
    invalid: int = 0
    fallbacks: int = 0
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    chat_messages: int = 0

    def row(self) -> GameRow:
        """The game as a simulation row (for the ratings)."""
        return GameRow(self.seed, self.strategies, self.scores, self.winners, 0, {})

    def as_dict(self) -> dict[str, Any]:
        """The game as JSON."""
        out = asdict(self)
        out["strategies"], out["scores"], out["winners"] = (
            list(self.strategies), list(self.scores), list(self.winners))
        return out


def check(spec: BenchSpec) -> None:
    """Refuse a bad game, player count, options, strategy or seed list with one sentence."""
    game = get_game(spec.game)
    if not spec.seeds:
        raise OptionsError("the benchmark needs at least one seed")
    if not spec.pool:
        raise OptionsError("the strategy pool is empty: name at least one strategy")
    if spec.players < 2:
        raise OptionsError("the benchmark needs at least two players")
    game.new(spec.players, spec.seeds[0], spec.options)
    for strategy in (spec.model, *spec.pool):
        make_agent(game, strategy)


def play(spec: BenchSpec, index: int) -> BenchGame:
    """Play the game of the ``index``-th seed."""
    game = get_game(spec.game)
    seed = spec.seeds[index]
    strategies = spec.lineup(index)
    seat = index % spec.players
    state = game.new(spec.players, seed, spec.options)
    state.record_events = True
    agents = [make_agent(game, s) for s in strategies]
    rngs = [agent_rng(seed, s) for s in range(spec.players)]
    chat: list[Message] = []
    parties: set[tuple[str, object]] = set()
    offered = accepted = 0
    count = 0
    try:
        while not state.is_over():
            if count >= MAX_ACTIONS:
                raise EndlessGame(f"the {spec.game} game of seed {seed} did not end in {MAX_ACTIONS:,} "
                                  "actions; bound it with the game's max_rounds option where it has one")
            mover = min(state.pending())
            action = decide(agents[mover], state, mover, rngs[mover], chat=chat)
            start = len(state.log)
            state.apply(mover, action)
            chat.extend(Message(mover, said.text, said.to) for said in take_said(agents[mover]))
            count += 1
            if mover != seat:
                continue
            kind = str(action["type"])
            if kind.startswith(OFFERS):
                offered += 1
            elif kind.startswith(ACCEPTS):
                accepted += 1
            else:
                continue
            parties.update(key for e in state.log[start:] if (key := _deal(e.kind, e.data)) is not None)
    finally:
        for agent in agents:
            if callable(close := getattr(agent, "close", None)):
                close()
    kept = sum(1 for e in state.log if e.kind.endswith("_settled") and _deal(e.kind, e.data) in parties
               and honoured(e.kind, e.data))
    result = state.result()
    counters = getattr(agents[seat], "counters", None)
    out = BenchGame(seed, strategies, seat, tuple(float(s) for s in result.scores),
                    tuple(sorted(result.winners)), offered, accepted, kept,
                    chat_messages=sum(1 for m in chat if m.sender == seat))
    if counters is not None:
        out.invalid, out.fallbacks, out.calls = counters.invalid, counters.fallbacks, counters.calls
        out.tokens_in, out.tokens_out = counters.prompt_tokens, counters.completion_tokens
    return out


def honoured(kind: str, data: Mapping[str, Any]) -> bool:
    """Whether the settlement ``kind`` (an event ``..._settled``) with ``data`` shows its deal
    honoured: a deal paid (not lapsed), a bribe's voter voting as paid to, an alliance with no
    member voting the other side."""
    if kind == "deal_settled":
        return data.get("status") == PAID
    if kind == "bribe_settled":
        return bool(data.get("voted_like"))
    if kind == "alliance_settled":
        return not data.get("disloyal")
    return True


def _deal(kind: str, data: Mapping[str, Any]) -> tuple[str, object] | None:
    """The deal an event is about, as (its family, its id), or ``None``."""
    for key in ("deal", "alliance", "id"):
        if key in data:
            value = data[key]
            return (kind.split("_", 1)[0], value if isinstance(value, int | str) else repr(value))
    return None


def run_bench(spec: BenchSpec, progress: Callable[[BenchGame], None] | None = None) -> list[BenchGame]:
    """Every game of ``spec``, in seed order; ``progress`` is told of each as it ends."""
    check(spec)
    games = []
    for index in range(len(spec.seeds)):
        played = play(spec, index)
        games.append(played)
        if progress is not None:
            progress(played)
    return games


def leaderboard(spec: BenchSpec, games: Sequence[BenchGame]) -> list[dict[str, Any]]:
    """Each strategy's entry, best OpenSkill ordinal first (see the module's notes). A strategy in
    several seats of one game is counted once, by its best seat."""
    ratings = {r.strategy: r for r in rate([g.row() for g in games])}
    out = []
    for strategy in dict.fromkeys((spec.model, *spec.pool)):
        played = [g for g in games if strategy in g.strategies]
        wins = sum(1 for g in played if any(g.strategies[w] == strategy for w in g.winners))
        low, high = wilson_interval(wins, len(played))
        rating = ratings.get(strategy)
        entry: dict[str, Any] = {
            "strategy": strategy, "language_model": strategy == spec.model, "games": len(played),
            "wins": wins, "win_rate": round(wins / len(played), 4) if played else 0.0,
            "win_low": round(low, 4), "win_high": round(high, 4),
            "mu": round(rating.mu, 4) if rating else None,
            "sigma": round(rating.sigma, 4) if rating else None,
            "ordinal": round(rating.ordinal, 4) if rating else None,
        }
        if strategy == spec.model:
            for key in ("deals_offered", "deals_accepted", "deals_kept", "invalid", "fallbacks", "calls",
                        "tokens_in", "tokens_out", "chat_messages"):
                entry[key] = sum(getattr(g, key) for g in played)
        out.append(entry)
    return sorted(out, key=lambda e: (-(e["ordinal"] if e["ordinal"] is not None else -1e9), e["strategy"]))


def report(spec: BenchSpec, games: Sequence[BenchGame]) -> dict[str, Any]:
    """The benchmark as JSON: what was played, the leaderboard and every game."""
    return {"game": spec.game, "players": spec.players, "seeds": list(spec.seeds), "model": spec.model,
            "pool": list(spec.pool), "options": dict(spec.options),
            "leaderboard": leaderboard(spec, games), "games": [g.as_dict() for g in games]}
