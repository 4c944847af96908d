"""The speed benchmark: every game beside a bare-Python floor and OpenSpiel's games, in one run.

For every registered game, at a typical table size, it measures

* decisions per second of random play on the **simulation path** (``seat = acting()[0]``,
  ``legal_actions(seat).sample(rng)``, ``apply_trusted``, events off: the loop of
  :func:`tricolore.core.playout.play_at_random`, what :func:`tricolore.sim.runner.play_game`
  runs for random agents and a search for its rollouts);
* decisions per second of random play on **moves**, in a game that numbers them
  (``seat = acting()[0]``, a move drawn uniformly from ``legal_moves(seat)``, ``apply_move``,
  events off: :func:`tricolore.core.playout.play_moves_at_random`);
* decisions per second through the **public API** (``view(seat)`` asked before each decision,
  then ``apply``, events on: what a table serving people does);
* the cost per call of ``legal_actions``, ``view``, ``clone``, ``determinize`` and ``digest`` at
  mid-game positions met in random games (each call from a fresh position: the position's memo is
  cleared before it; the fastest of a few rounds in each pass), and the memory of one mid-game
  state (``tracemalloc`` of a clone);

beside the floor (:mod:`tricolore.perf.floor`), OpenSpiel's peers when installed
(:mod:`tricolore.perf.peers`) and the scaling of ``simulate`` from one worker to two. On every
build it also measures

* games per second of a Culottes table whose seats are drawn from the pool of its named
  strategies, played by the simulation runner on two worker processes (as ``tricolore simulate
  --workers 2`` plays it);
* IS-MCTS iterations per CPU second in every game: the search at its default settings deciding
  at a handful of the mid-game positions.

Runs are interleaved: pass 1 plays every row, then pass 2 plays every row, and so on, so that a
slow moment of a shared machine hits every row alike. Each figure is the median of the passes.
A slice of the floor is played before each game's rows in every pass, and each ratio to the
floor is the median over the passes of the row's figure over the slice just before it, which
cancels most of the machine's drift. Every ratio is the figure divided by
the floor's same figure: decisions/s over the floor's decisions/s (above 1 is faster than the
floor), microseconds per call over the floor's microseconds per decision (the call costs that
many floor decisions), memory over the memory of the floor's state.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
import typing
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from tricolore.agents.search import ISMCTSAgent
from tricolore.core import get_game, list_games
from tricolore.core.model import Game, Seat, State
from tricolore.core.playout import play_at_random, play_moves_at_random
from tricolore.perf import floor, peers

TABLE_SIZES = {"culottes": 5, "culottes-trials": 5, "let-them-eat-cake": 5, "revolution": 4,
               "bread-and-circuses": 6}
"""The table size each game is measured at; a game not listed plays at its smallest table."""

SIMULATE_GAME = "culottes"
"""The game whose batch measures the scaling of ``simulate`` from one worker to two."""

WARM_UP_SEED = 1_000_000
"""The game each path plays once before timing: never one of the timed games, which are new to
every pass (a cache of earlier games is worth only what it gives on new ones)."""

POOL_GAME = "culottes"
POOL_PLAYERS = 4
POOL_WORKERS = 2
"""The named-strategy pool's table: Culottes at four players, played on two worker processes."""
POOL_TARGET = 165.0
"""Games per second the named-strategy pool should reach on two cores."""

CALLS = ("legal_actions", "view", "clone", "determinize", "digest")


@dataclass(frozen=True, slots=True)
class Settings:
    """How much the benchmark plays."""

    games: int
    """Games of each of our games a row plays at a time, in each pass: a row plays batches of
    this many new games until it has played as long as a slice of the floor."""
    passes: int
    seconds: float
    """Seconds each peer plays per pass (its games are short: whole games until this much time
    has passed)."""
    floor_seconds: float
    """Seconds of each slice of the floor: one is played before each game's rows (and before the
    peers) in every pass, and each row's ratio is taken to the slice nearest it."""
    positions: int
    """Mid-game positions per game for the per-call costs and the memory."""
    simulate_games: int
    """Games of the batch that measures ``simulate`` scaling."""
    simulate_passes: int
    pool_games: int = 800
    """Games of the named-strategy pool's batch."""
    pool_passes: int = 3
    search_positions: int = 6
    """Mid-game positions per game at which the search decides, in each pass (positions with a
    single legal action, where it does not search, are passed over)."""
    batch_games: int = 20_000
    """Games of Revolution!'s numpy batch played at once in each pass."""
    quick: bool = False
    extras: bool = True
    """Whether this run also plays the peers, the Revolution! batch and the ``simulate`` scaling
    (the first build's run does; the second build's measures only the engine's rows)."""


FULL = Settings(games=40, passes=5, seconds=0.5, floor_seconds=0.25, positions=60, simulate_games=2400,
                simulate_passes=3)
QUICK = Settings(games=6, passes=3, seconds=0.1, floor_seconds=0.05, positions=20, simulate_games=60,
                 simulate_passes=1, pool_games=80, pool_passes=2, search_positions=3, batch_games=2_000,
                 quick=True)


def settings(quick: bool = False, games: int | None = None, passes: int | None = None) -> Settings:
    """The full or quick settings, with ``games`` and ``passes`` when given."""
    chosen = QUICK if quick else FULL
    if games is not None:
        chosen = replace(chosen, games=games)
    if passes is not None:
        chosen = replace(chosen, passes=passes)
    return chosen


Progress = Callable[[str], None]


# -- our games ---------------------------------------------------------------------------------
def play_simulation_path(game: Game, players: int, seeds: Sequence[int]) -> int:
    """Random games of ``seeds`` as a simulation plays them; return the decisions made. One
    generator, seeded with the first seed, draws for every player of every game, as the floor's
    one generator does for its games (each game's own chance is seeded by its seed). Each state
    is released when its game ends, as the runner releases it."""
    decisions = 0
    rng = random.Random(seeds[0] if seeds else 0)
    for seed in seeds:
        state = game.new(players, seed)
        state.record_events = False
        decisions += play_at_random(state, [rng])
        state.release()
    return decisions


def play_move_path(game: Game, players: int, seeds: Sequence[int]) -> int:
    """Random games of ``seeds`` on moves, as a simulation or a search plays a game that numbers
    them (:meth:`~tricolore.core.model.State.legal_moves`): uniform over the legal moves; return
    the decisions made."""
    decisions = 0
    rng = random.Random(seeds[0] if seeds else 0)  # one for every game, as on the simulation path
    for seed in seeds:
        state = game.new(players, seed)
        state.record_events = False
        decisions += play_moves_at_random(state, rng)
        state.release()
    return decisions


PASS_SEEDS = 10_000_000
"""Pass ``n`` plays the games of seeds from ``(n + 1) * PASS_SEEDS`` up: none played in another
pass, nor the warm-up's game (:data:`WARM_UP_SEED`) or the games the mid-game positions come from."""


def play_for(play: Callable[[Game, int, Sequence[int]], int], game: Game, players: int, first_seed: int,
             games: int, seconds: float) -> tuple[int, int, float]:
    """``play`` batches of ``games`` new games, from the seed ``first_seed`` up, until ``seconds``
    have passed: the decisions made, the games played and the seconds taken. A row is timed over
    as long a stretch as the floor's slice it is compared with: a stretch of a few milliseconds
    after another row (40 games of Culottes take 5 ms) reads a third slower than the same games
    played on, while the caches fill with this game's code and data."""
    decided = played = 0
    start = time.perf_counter()
    elapsed = 0.0
    while played == 0 or elapsed < seconds:
        decided += play(game, players, range(first_seed + played, first_seed + played + games))
        played += games
        elapsed = time.perf_counter() - start
    return decided, played, elapsed


def numbers_moves(game: Game, players: int) -> bool:
    """Whether ``game``'s states number their moves."""
    return type(game.new(players, WARM_UP_SEED)).numbers_moves()


def play_api_path(game: Game, players: int, seeds: Sequence[int]) -> int:
    """Random games of ``seeds`` through the public API, the seat's view asked before each
    decision and events on; return the decisions made."""
    decisions = 0
    rng = random.Random(seeds[0] if seeds else 0)  # one for every game, as on the simulation path
    for seed in seeds:
        state = game.new(players, seed)
        while not state.is_over():
            seat = min(state.pending())
            state.view(seat)
            state.apply(seat, state.legal_actions(seat).sample(rng))
            decisions += 1
    return decisions


def mid_game_positions(game: Game, players: int, count: int, seeds: Sequence[int]
                       ) -> list[tuple[State, Seat]]:
    """About ``count`` positions (and the seat asked there) from the middle half of random games
    of ``seeds``, played with events on as a table keeps them."""
    per_game = max(1, -(-count // len(seeds)))
    positions: list[tuple[State, Seat]] = []
    for seed in seeds:
        length = play_simulation_path(game, players, [seed])
        wanted = {length // 4 + (i * (length // 2)) // per_game for i in range(per_game)}
        state = game.new(players, seed)
        rng = random.Random(seed)
        for step in range(length):
            seat = min(state.pending())
            if step in wanted:
                positions.append((state.clone(), seat))
            state.play_trusted(seat, state.legal_actions(seat).sample(rng))
    return positions[:count]


def _legal_actions(state: State, seat: Seat, rng: random.Random) -> object:
    return state.legal_actions(seat)


def _view(state: State, seat: Seat, rng: random.Random) -> object:
    return state.view(seat)


def _clone(state: State, seat: Seat, rng: random.Random) -> object:
    return state.clone()


def _determinize(state: State, seat: Seat, rng: random.Random) -> object:
    return state.determinize(seat, rng)


def _digest(state: State, seat: Seat, rng: random.Random) -> object:
    return state.digest()


OPERATIONS: dict[str, Callable[[State, Seat, random.Random], object]] = {
    "legal_actions": _legal_actions, "view": _view, "clone": _clone, "determinize": _determinize,
    "digest": _digest,
}


def call_costs(positions: Sequence[tuple[State, Seat]], rng: random.Random, repeats: int = 5
               ) -> dict[str, float]:
    """Microseconds per call of each operation over ``positions`` (each call from a fresh memo):
    the fastest of ``repeats`` rounds over all of them, as ``timeit`` takes it, since on a shared
    machine a slower round measures the others' work, not the call's."""
    out: dict[str, float] = {}
    for name, operation in OPERATIONS.items():
        rounds = []
        for _ in range(repeats):
            start = time.perf_counter()
            for state, seat in positions:
                state.changed()
                operation(state, seat, rng)
            rounds.append(time.perf_counter() - start)
        out[name] = 1e6 * min(rounds) / len(positions)
    return out


def state_bytes(positions: Sequence[tuple[State, Seat]]) -> float:
    """The mean memory of one state, as ``tracemalloc`` counts a clone of each position."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [state.clone() for state, _ in positions]
        size = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    finally:
        tracemalloc.stop()
    return size


# -- Revolution!'s batch -----------------------------------------------------------------------
BATCH_PLAYERS = 4


NAMED_LINEUP = ("area-control", "printer-first", "random", "area-control")
"""The named strategies' batch: both named strategies and a random seat."""
NAMED_SHARE = 4
"""The named strategies' batch plays a quarter of the random batch's games (each decision costs
more: it values every space)."""


def play_revolution_batch(games: int, seed: int, strategies: str | tuple[str, ...] = "random"
                          ) -> float:
    """Decisions per second of ``games`` Revolution! games played at once by the numpy batch
    (:mod:`tricolore.games.revolution.batch`), writing no records."""
    from tricolore.games.revolution import batch

    out = batch.play(games, BATCH_PLAYERS, seed=seed, strategies=strategies,
                     max_rounds=None if strategies == "random" else 30)
    return out.decisions / out.seconds


# -- simulate scaling --------------------------------------------------------------------------
def simulate_scaling(games: int, passes: int, progress: Progress | None = None) -> dict[str, Any]:
    """Time ``run_job`` on one batch of random Culottes games with one worker and with two,
    interleaved over ``passes``, and check the two give the same summary."""
    from tricolore.sim.batch import BatchSpec, summarise

    players = TABLE_SIZES[SIMULATE_GAME]
    spec = BatchSpec(SIMULATE_GAME, ("random",) * players, games, seed=0)
    seconds: dict[int, list[float]] = {1: [], 2: []}
    summaries: dict[int, dict[str, Any]] = {}
    decisions = 0
    for number in range(passes):
        for workers in (1, 2):
            if progress:
                progress(f"simulate, pass {number + 1}/{passes}, {workers} worker{'s' * (workers > 1)}")
            took, finished = _timed_job(spec, workers)
            seconds[workers].append(took)
            summaries.setdefault(workers, summarise(spec, finished.rows))
            decisions = sum(r.actions for r in finished.rows)
    ratios = [one / two for one, two in zip(seconds[1], seconds[2], strict=True)]
    return {
        "game": SIMULATE_GAME, "players": players, "seats": "random", "games": games,
        "decisions": decisions, "passes": passes,
        "one_worker": _rate_figures(games, decisions, seconds[1]),
        "two_workers": _rate_figures(games, decisions, seconds[2]),
        "scaling": statistics.median(ratios),
        "summaries_identical": summaries[1] == summaries[2],
    }


def _timed_job(spec: Any, workers: int) -> tuple[float, Any]:
    """Wall-clock seconds of ``run_job`` playing ``spec`` on ``workers`` processes, and its result."""
    from tricolore.sim.jobs import run_job

    start = time.perf_counter()
    finished = run_job(spec, workers=workers)
    return time.perf_counter() - start, finished


# -- the named-strategy pool -------------------------------------------------------------------
def pool_throughput(games: int, passes: int, progress: Progress | None = None) -> dict[str, Any]:
    """Time ``run_job`` on a batch of Culottes games at four players whose seats are drawn from
    the pool of the game's named strategies, on two worker processes, over ``passes``."""
    from tricolore.sim.batch import BatchSpec

    strategies = tuple(get_game(POOL_GAME).strategies)
    spec = BatchSpec(POOL_GAME, strategies, games, seed=0, players_in_pool=POOL_PLAYERS)
    seconds: list[float] = []
    decisions = 0
    for number in range(passes):
        if progress:
            progress(f"named-strategy pool, pass {number + 1}/{passes}")
        took, finished = _timed_job(spec, POOL_WORKERS)
        seconds.append(took)
        decisions = sum(r.actions for r in finished.rows)
    return {"game": POOL_GAME, "players": POOL_PLAYERS, "workers": POOL_WORKERS,
            "strategies": list(strategies), "games": games, "decisions": decisions, "passes": passes,
            **_rate_figures(games, decisions, seconds)}


# -- the search --------------------------------------------------------------------------------
def searched_positions(positions: Sequence[tuple[State, Seat]], count: int
                       ) -> list[tuple[State, Seat]]:
    """Up to ``count`` of ``positions``, spread over them, at which the search runs (more than one
    move to choose from)."""
    from tricolore.agents import decide

    searching = []
    for state, seat in positions:
        probe = ISMCTSAgent(iterations=1)
        decide(probe, state, seat, random.Random(0))
        if probe.last.iterations:
            searching.append((state, seat))
    step = max(1, len(searching) // max(1, count))
    return searching[::step][:count]


def search_rate(positions: Sequence[tuple[State, Seat]]) -> tuple[int, float]:
    """The iterations the search (the ``ismcts`` strategy at its defaults) runs deciding at
    each of ``positions``, and the CPU seconds it takes."""
    from tricolore.agents import decide

    iterations = 0
    cpu = 0.0
    for number, (state, seat) in enumerate(positions):
        agent = ISMCTSAgent()
        rng = random.Random(number)  # the same search in every pass: only its time differs
        start = time.process_time()
        decide(agent, state, seat, rng)
        cpu += time.process_time() - start
        iterations += agent.last.iterations
    return iterations, cpu


def search_figures(game: str, players: int, positions: int, runs: Sequence[tuple[int, float]]
                   ) -> dict[str, Any]:
    """A game's search figures from each pass's iterations and CPU seconds: the median of the
    passes' iterations per CPU second."""
    rates = [iterations / cpu for iterations, cpu in runs if cpu > 0]
    return {"game": game, "players": players, "positions": positions,
            "iterations": sum(i for i, _ in runs) // max(1, len(runs)),
            "cpu_seconds": statistics.median(cpu for _, cpu in runs) if runs else 0.0,
            "iterations_per_s": statistics.median(rates) if rates else 0.0, "passes": rates}


def _rate_figures(games: int, decisions: int, seconds: Sequence[float]) -> dict[str, Any]:
    middle = statistics.median(seconds)
    return {"seconds": middle, "games_per_s": games / middle, "decisions_per_s": decisions / middle,
            "passes_seconds": list(seconds)}


# -- the run -----------------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.partition(":")[2].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.platform(terse=True),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "open_spiel": peers.version(),
        "load_average": _load(),
    }


def _load() -> float | None:
    """The machine's load average over the last minute (how busy the others keep it)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def game_sizes() -> list[tuple[str, int]]:
    """Every registered game and the table size it is measured at, the usual games first."""
    infos = {info.name: info for info in list_games()}
    order = [name for name in TABLE_SIZES if name in infos] + sorted(set(infos) - set(TABLE_SIZES))
    return [(name, TABLE_SIZES.get(name, infos[name].min_players)) for name in order]


def _ratio(figures: Sequence[float], floors: Sequence[float]) -> float:
    return statistics.median(f / g for f, g in zip(figures, floors, strict=True))


BUILDS = ("compiled", "pure")
"""The builds measured, each in its own interpreter (see :func:`tricolore.build`)."""


def run(chosen: Settings, progress: Progress | None = None) -> dict[str, Any]:
    """Run the benchmark once per build, each in a fresh interpreter with ``TRICOLORE_BUILD`` set,
    and return the first build's figures (the compiled one's, when it is installed) with every
    build's under ``"builds"``."""
    say = progress or (lambda _message: None)
    results: dict[str, dict[str, Any]] = {}
    unavailable: dict[str, str] = {}
    for build in BUILDS:
        measured = _run_in_child(build, replace(chosen, extras=not results), say)
        if measured.get("build") != build:
            unavailable[build] = "not installed (no C compiler at install time)"
            continue
        results[build] = measured
    first = next(iter(results.values()))
    combined = dict(first)
    combined["builds"] = {build: {"build": build, "floor": r["floor"], "games": r["games"],
                                  "pool": r["pool"], "search": r["search"], "machine": r["machine"]}
                          for build, r in results.items()}
    combined["builds_unavailable"] = unavailable
    return combined


_CHILD = """
import json, sys
import tricolore
from tricolore.perf.bench import Settings, run_here
if tricolore.build() != sys.argv[2]:  # the compiled build asked for is not installed
    print(json.dumps({"build": tricolore.build()}))
    sys.exit()
result = run_here(Settings(**json.loads(sys.argv[1])), lambda m: print(m, file=sys.stderr, flush=True))
print(json.dumps(result))
"""


def _run_in_child(build: str, chosen: Settings, say: Progress) -> dict[str, Any]:
    env = {**os.environ, "TRICOLORE_BUILD": build}
    child = subprocess.Popen([sys.executable, "-c", _CHILD, json.dumps(asdict(chosen)), build], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None and child.stdout is not None
    errors = []
    for line in child.stderr:
        errors.append(line)
        say(f"{build} build: {line.strip()}")
    out = child.stdout.read()
    if child.wait() != 0:
        raise RuntimeError(f"the {build} build's benchmark failed: {''.join(errors[-20:])}")
    return typing.cast(dict[str, Any], json.loads(out))


def run_here(chosen: Settings, progress: Progress | None = None) -> dict[str, Any]:
    """Run the benchmark in this interpreter, on the build it runs, with ``chosen`` settings and
    return every figure (see the module)."""
    import tricolore

    say = progress or (lambda _message: None)
    sizes = game_sizes()
    games = {name: get_game(name) for name, _ in sizes}
    position_seeds = [10_000 + i for i in range(4 if not chosen.quick else 2)]
    peer_games: dict[str, Any] = {}
    skipped = peers.unavailable() if chosen.extras else "measured in the other build's run"
    if skipped is None:
        peer_games = {p.name: peers.load(p.name) for p in peers.PEERS}

    load_before = _load()
    say("finding mid-game positions")
    positions = {name: mid_game_positions(games[name], players, chosen.positions, position_seeds)
                 for name, players in sizes}

    say("finding positions where the search decides")
    searched = {name: searched_positions(positions[name], chosen.search_positions) for name, _ in sizes}

    say("warming up")
    moving = {name: numbers_moves(games[name], players) for name, players in sizes}
    for name, players in sizes:
        play_simulation_path(games[name], players, [WARM_UP_SEED])
        play_api_path(games[name], players, [WARM_UP_SEED])
        if moving[name]:
            play_move_path(games[name], players, [WARM_UP_SEED])
    floor.run_for(0.0, random.Random(0))
    for game in peer_games.values():
        peers.run_for(game, 0.0, random.Random(0))

    floor_rng = random.Random(1)
    peer_rngs = {name: random.Random(1) for name in peer_games}
    call_rng = random.Random(2)
    floor_rates: list[float] = []
    floor_games = floor_decisions = 0
    rates: dict[tuple[str, str], list[float]] = {}
    costs: dict[tuple[str, str], list[float]] = {}
    nearest_floor: dict[str, list[float]] = {}  # the floor slice played just before each group
    lengths: dict[tuple[str, str], float] = {}  # decisions a game in the last pass, by game and path
    peer_counts: dict[str, tuple[int, int]] = {}
    batch_rates: list[float] = []
    named_rates: list[float] = []
    search_runs: dict[str, list[tuple[int, float]]] = {name: [] for name, _ in sizes}

    def floor_slice(group: str) -> None:
        nonlocal floor_games, floor_decisions
        played, decided, seconds = floor.run_for(chosen.floor_seconds, floor_rng)
        floor_rates.append(decided / seconds)
        nearest_floor.setdefault(group, []).append(decided / seconds)
        floor_games, floor_decisions = floor_games + played, floor_decisions + decided

    for number in range(chosen.passes):
        for name, players in sizes:
            say(f"pass {number + 1}/{chosen.passes}: {name}")
            floor_slice(name)
            paths = [("sim", play_simulation_path), ("api", play_api_path)]
            if moving[name]:
                paths.append(("moves", play_move_path))
            for path, play in paths:
                # every pass plays games it has not played before, as a simulation plays new games
                decided, played, seconds = play_for(play, games[name], players, PASS_SEEDS * (number + 1),
                                                    chosen.games, chosen.floor_seconds)
                rates.setdefault((name, path), []).append(decided / seconds)
                lengths[name, path] = decided / played
            for call, us in call_costs(positions[name], call_rng).items():
                costs.setdefault((name, call), []).append(us)
            search_runs[name].append(search_rate(searched[name]))
        if chosen.batch_games and chosen.extras:
            say(f"pass {number + 1}/{chosen.passes}: the Revolution! batch")
            floor_slice("batch")
            batch_rates.append(play_revolution_batch(chosen.batch_games, seed=number))
            floor_slice("batch_named")
            named_rates.append(play_revolution_batch(chosen.batch_games // NAMED_SHARE, seed=number,
                                                     strategies=NAMED_LINEUP))
        if peer_games:
            floor_slice("peers")
        for name, game in peer_games.items():
            say(f"pass {number + 1}/{chosen.passes}: {name}")
            played, decided, seconds = peers.run_for(game, chosen.seconds, peer_rngs[name])
            rates.setdefault((name, "peer"), []).append(decided / seconds)
            before = peer_counts.get(name, (0, 0))
            peer_counts[name] = (before[0] + played, before[1] + decided)

    floor_rate = statistics.median(floor_rates)
    floor_state = floor.state_bytes()

    def throughput(key: tuple[str, str], group: str) -> dict[str, Any]:
        middle = statistics.median(rates[key])
        return {"decisions_per_s": middle, "us_per_decision": 1e6 / middle,
                "ratio_to_floor": _ratio(rates[key], nearest_floor[group]), "passes": rates[key]}

    def per_call(name: str, call: str) -> dict[str, Any]:
        floor_us = [1e6 / r for r in nearest_floor[name]]
        return {"us": statistics.median(costs[name, call]),
                "ratio_to_floor": _ratio(costs[name, call], floor_us)}

    rows: list[dict[str, Any]] = []
    for name, players in sizes:
        say(f"memory of a {name} state")
        size = state_bytes(positions[name])
        rows.append({
            "game": name, "players": players, "games": chosen.games,
            "decisions_per_game": lengths[name, "sim"], "positions": len(positions[name]),
            "sim": throughput((name, "sim"), name),
            "api": throughput((name, "api"), name),
            "moves": ({**throughput((name, "moves"), name),
                       "decisions_per_game": lengths[name, "moves"]}
                      if moving[name] else None),
            "calls": {call: per_call(name, call) for call in CALLS},
            "memory": {"kib": size / 1024, "ratio_to_floor": size / floor_state},
        })

    peer_rows = []
    for peer in peers.PEERS if skipped is None else ():
        played, decided = peer_counts[peer.name]
        peer_rows.append({"game": peer.name, "implementation": peer.implementation, "kind": peer.kind,
                          "decisions_per_game": decided / played, **throughput((peer.name, "peer"), "peers")})

    revolution_batch = None
    if batch_rates:
        middle = statistics.median(batch_rates)
        revolution_batch = {"game": "revolution", "players": BATCH_PLAYERS, "games": chosen.batch_games,
                            "strategy": "random", "decisions_per_s": middle, "us_per_decision": 1e6 / middle,
                            "ratio_to_floor": _ratio(batch_rates, nearest_floor["batch"]),
                            "passes": batch_rates}
    revolution_named = None
    if named_rates:
        middle = statistics.median(named_rates)
        revolution_named = {"game": "revolution", "players": BATCH_PLAYERS,
                            "games": chosen.batch_games // NAMED_SHARE,
                            "strategy": ", ".join(NAMED_LINEUP), "decisions_per_s": middle,
                            "us_per_decision": 1e6 / middle,
                            "ratio_to_floor": _ratio(named_rates, nearest_floor["batch_named"]),
                            "passes": named_rates}

    search = {"strategy": "ismcts", "iterations_per_decision": ISMCTSAgent().budget.iterations,
              "rows": [search_figures(name, players, len(searched[name]), search_runs[name])
                       for name, players in sizes]}

    pool = None
    if chosen.pool_games:
        pool = pool_throughput(chosen.pool_games, chosen.pool_passes, progress)
        pool["ratio_to_floor"] = pool["decisions_per_s"] / floor_rate

    scaling = None
    if chosen.simulate_games and chosen.extras:
        scaling = simulate_scaling(chosen.simulate_games, chosen.simulate_passes, progress)
        for key in ("one_worker", "two_workers"):
            scaling[key]["ratio_to_floor"] = scaling[key]["decisions_per_s"] / floor_rate

    measured_on = machine()
    measured_on["load_average"] = [load_before, measured_on["load_average"]]
    result: dict[str, Any] = {
        "build": tricolore.build(),
        "machine": measured_on,
        "settings": asdict(chosen),
        "ratios": "each ratio is the figure over the floor's same figure: decisions/s over the floor's "
                  "decisions/s; microseconds per call over the floor's microseconds per decision; "
                  "memory over the memory of the floor's state",
        "floor": {"description": "6 players pick one of three tiles, not last round's; a tile picked "
                                 "by at most two scores its number; first to 15",
                  "decisions_per_s": floor_rate, "us_per_decision": 1e6 / floor_rate,
                  "state_bytes": floor_state, "games": floor_games,
                  "decisions_per_game": floor_decisions / floor_games, "passes": floor_rates},
        "games": rows,
        "peers": {"skipped": skipped, "rows": peer_rows},
        "simulate": scaling,
        "batch": revolution_batch,
        "batch_named": revolution_named,
        "pool": pool,
        "search": search,
    }
    result["targets"] = targets(result)
    return result


# -- targets -----------------------------------------------------------------------------------
def _sim_on_moves(row: dict[str, Any]) -> float:
    """The ratio of a game's random play on moves, or on the sim path where it has none."""
    return float((row.get("moves") or row["sim"])["ratio_to_floor"])


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Each speed target, the worst figure measured against it, and whether it is met."""
    rows = result["games"]

    def worst(label: str, goal: str, threshold: float, figure: Callable[[dict[str, Any]], float],
              at_least: bool, unit: str = "x") -> dict[str, Any]:
        per_game = {r["game"]: figure(r) for r in rows}
        game = (min if at_least else max)(per_game, key=per_game.__getitem__)
        measured = per_game[game]
        met = measured >= threshold if at_least else measured < threshold
        return {"target": label, "goal": goal, "threshold": threshold, "unit": unit,
                "measured": measured, "worst_game": game, "met": met, "per_game": per_game}

    out = [
        worst("sim path", "at least 0.28x the floor in every game", 0.28,
              lambda r: r["sim"]["ratio_to_floor"], True),
        worst("sim path, lowest", "never below 0.10x the floor", 0.10,
              lambda r: r["sim"]["ratio_to_floor"], True),
        worst("sim path on moves", "at least 0.28x the floor in every game (the sim path where a "
              "game does not number its moves)", 0.28, _sim_on_moves, True),
        worst("API path", "at least 0.10x the floor in every game", 0.10,
              lambda r: r["api"]["ratio_to_floor"], True),
        worst("clone", "under 10 us for a mid-game state", 10.0,
              lambda r: r["calls"]["clone"]["us"], False, "us"),
        worst("determinize", "under 10 us for a mid-game state", 10.0,
              lambda r: r["calls"]["determinize"]["us"], False, "us"),
    ]
    batch = result.get("batch")
    if batch is not None:
        out.append({"target": "Revolution! batch", "goal": "at least 10x the floor (numpy, random play)",
                    "threshold": 10.0, "unit": "x", "measured": batch["ratio_to_floor"],
                    "worst_game": "revolution", "met": batch["ratio_to_floor"] >= 10.0,
                    "per_game": {"revolution": batch["ratio_to_floor"]}})
    named = result.get("batch_named")
    if named is not None:
        out.append({"target": "Revolution! batch, named strategies",
                    "goal": "at least 10x the floor (numpy, printer-first and area-control)",
                    "threshold": 10.0, "unit": "x", "measured": named["ratio_to_floor"],
                    "worst_game": "revolution", "met": named["ratio_to_floor"] >= 10.0,
                    "per_game": {"revolution": named["ratio_to_floor"]}})
    pool = result.get("pool")
    if pool is not None:
        out.append({"target": "named-strategy pool",
                    "goal": f"at least {POOL_TARGET:.0f} games/s on two cores ({pool['game']} at "
                            f"{pool['players']} players, seats drawn from its named strategies)",
                    "threshold": POOL_TARGET, "unit": "games/s", "measured": pool["games_per_s"],
                    "worst_game": pool["game"], "met": pool["games_per_s"] >= POOL_TARGET,
                    "per_game": {pool["game"]: pool["games_per_s"]}})
    scaling = result.get("simulate")
    if scaling is not None:
        out.append({"target": "simulate scaling", "goal": "at least 1.8x from one worker to two",
                    "threshold": 1.8, "unit": "x", "measured": scaling["scaling"],
                    "worst_game": scaling["game"], "met": scaling["scaling"] >= 1.8,
                    "per_game": {scaling["game"]: scaling["scaling"]}})
    return out
