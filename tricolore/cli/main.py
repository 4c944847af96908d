"""The ``tricolore`` command line."""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tricolore.agents import LLM, SEARCH, canonical_strategy, make_agent, strategy_names, strategy_schema
from tricolore.agents.params import Parameter
from tricolore.agents.params import split as split_strategies
from tricolore.cli import llm_bench, printing, research
from tricolore.cli.options import BackendArg, OptionArg, RayAddressArg, WorkersArg
from tricolore.cli.reading import text_problem
from tricolore.core import IllegalAction, OptionsError, RecordError, get_game, list_games
from tricolore.core.inputs import RECORD_DEPTH, InputError, loads
from tricolore.core.record import Record, check_record, new_state
from tricolore.core.registry import companions
from tricolore.sim.runner import EndlessGame

app = typer.Typer(help="Tricolore: negotiation games of the French Revolution.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)



def _version(value: bool) -> None:
    if value:
        import tricolore

        print(f"tricolore {tricolore.__version__} ({tricolore.build()} build)")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and which build runs (compiled or pure), then exit.")] = False) -> None:
    """Tricolore: negotiation games of the French Revolution."""


# Nothing printed is read as markup or emoji codes: names, paths, options and typed text come
# from users and records, and "[/red]" or ":fire:" in them must print as they are. Style is given
# with ``style=`` or :class:`rich.text.Text` instead.
console = Console(markup=False, emoji=False)
errors = Console(stderr=True, markup=False, emoji=False)

MAX_GAMES = 1_000_000
"""Most games one ``simulate`` plays; a longer study is several batches with different seeds."""


class Refused(Exception):
    """A user error to report in one sentence."""


def os_sentence(exc: OSError) -> str:
    """An operating-system error as a sentence naming the file: "cannot use x.csv: it is a
    folder" rather than "[Errno 21] Is a directory: 'x.csv'"."""
    if isinstance(exc, IsADirectoryError):
        why = "it is a folder"
    elif isinstance(exc, NotADirectoryError):
        why = "a part of the path is a file, not a folder"
    elif isinstance(exc, FileExistsError):
        why = "a file of that name is in the way"
    elif exc.strerror:
        why = exc.strerror[0].lower() + exc.strerror[1:]
    else:
        why = str(exc) or exc.__class__.__name__
    return f"cannot use {exc.filename}: {why}" if exc.filename is not None else why


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn every expected error into one sentence on stderr and exit status 1."""
    try:
        yield
    except (Refused, OptionsError, RecordError, IllegalAction, OSError, EndlessGame) as exc:
        if isinstance(exc, IllegalAction):
            message = exc.message
        elif isinstance(exc, OSError):
            message = os_sentence(exc)
        else:
            message = str(exc)
        errors.print(Text.assemble(("error:", "red"), " ", message), soft_wrap=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM during a job (which has a signum)
        errors.print("interrupted")
        raise typer.Exit(128 + getattr(exc, "signum", signal.SIGINT)) from None


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``--option name=value`` pairs; values are read as JSON when they can be, else as text."""
    out: dict[str, Any] = {}
    for item in items or []:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise Refused(f"--option must look like name=value; got {item!r:.60}")
        for part in (name, text):
            why = text_problem(part)
            if why is not None:
                raise Refused(f"--option {name.strip()!r:.40} cannot be read: {why}")
        try:
            out[name.strip()] = loads(text, RECORD_DEPTH)
        except InputError as exc:
            if not exc.malformed:
                raise Refused(f"--option {name.strip()}: the value cannot be read: {exc}") from None
            out[name.strip()] = text
    return out


PlayersArg = Annotated[int | None, typer.Option(
    help="Number of players (default: one a seat of --seats, else 5 or the nearest count the game "
         "allows).")]


def table_size(g: Any, players: int | None, seats: str | None) -> int:
    """``--players``, or when it is not given the number of seats ``--seats`` lists (not a pool),
    else five players or the nearest count the game allows."""
    if players is not None:
        return players
    if seats is not None and not seats.strip().startswith("pool:"):
        return len(split_strategies(seats))
    return research.default_players(g.info.min_players, g.info.max_players)


MAX_NAME = 40
"""The longest name a player may be given at a terminal table."""


def parse_names(text: str | None, players: int) -> list[str] | None:
    """The players' names of ``--names``, one a seat, each its own; ``None`` when not given."""
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if len(names) != players:
        raise Refused(f"--names gives {len(names)} names but the table has {players} players")
    for name in names:
        why = text_problem(name)
        if why is not None or not name or len(name) > MAX_NAME:
            raise Refused(f"--names: {name[:MAX_NAME]!r} cannot be a name: "
                          + (why or f"a name is 1 to {MAX_NAME} characters"))
    if len({n.casefold() for n in names}) < players:
        raise Refused("--names gives two players the same name; give each their own")
    return names


def parse_seats(text: str | None, players: int, default: Callable[[], list[str]]) -> list[str]:
    """The comma-separated seat list, one entry per player."""
    if text is None:
        return default()
    seats = split_strategies(text)
    if len(seats) != players:
        raise Refused(f"--seats lists {len(seats)} seats but --players is {players}")
    return seats




@app.command()
def games() -> None:
    """List the games with their player ranges and strategies, and each strategy's parameters
    (given as name:key=value,key=value)."""
    table = Table(title="Games")
    for col in ("name", "title", "players", "strategies"):
        table.add_column(col)
    for info in list_games():
        table.add_row(info.name, info.title, f"{info.min_players}-{info.max_players}",
                      ", ".join(strategy_names(get_game(info.name))))
    console.print(table)
    console.print("\nStrategy parameters, given as name:key=value,key=value (default, range, what it does):")
    for heading, strategies in parameter_listing():
        console.print(f"\n{heading}")
        for name, parameters in strategies:
            console.print(f"  {name}")
            for p in parameters:
                default = json.dumps(p["default"]) if isinstance(p["default"], bool) else p["default"]
                console.print(f"    {p['key']}={default}  ({describe_range(p)})  {p['doc']}", soft_wrap=True)


def parameter_listing() -> list[tuple[str, list[tuple[str, list[dict[str, Any]]]]]]:
    """The strategies with parameters, by game; a strategy every game offers with the same
    parameters (the search) comes once, under "every game"."""
    by_game = {info.name: [(s["name"], s["parameters"]) for s in strategy_schema(get_game(info.name))
                           if s["parameters"]] for info in list_games()}
    listed = list(by_game.values())
    shared = [entry for entry in (listed[0] if listed else []) if all(entry in rest for rest in listed)]
    out = [(name, [e for e in entries if e not in shared]) for name, entries in by_game.items()]
    if shared:
        out.append(("every game", shared))
    return [(name, entries) for name, entries in out if entries]


def describe_range(parameter: dict[str, Any]) -> str:
    """A parameter's range in words, as :meth:`tricolore.agents.params.Parameter.describe` gives it."""
    return Parameter(parameter["default"], parameter["low"], parameter["high"],
                     choices=tuple(parameter["choices"])).describe()


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game to play, e.g. culottes.")],
    players: PlayersArg = None,
    seats: Annotated[str | None, typer.Option(
        help="Comma-separated seats: 'human' or a strategy name, one per player.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game's dice and shuffles.")] = 0,
    option: OptionArg = None,
    names: Annotated[str | None, typer.Option(
        help="Comma-separated names of the players, one per seat (default: Marat, Danton, "
             "Olympe, ...).")] = None,
) -> None:
    """Play in the terminal against bots; several humans share the screen in turn."""
    from tricolore.cli.play import HUMAN, InputEnded, TerminalTable, default_seats

    with clear_errors():
        g = get_game(game)
        count = table_size(g, players, seats)
        state = g.new(count, seed, parse_options(option))
        seat_kinds = parse_seats(seats, count, lambda: default_seats(count, list(g.strategies)))
        agents = [None if s == HUMAN else make_agent(g, s) for s in seat_kinds]
        table = TerminalTable(state, seat_kinds, agents, console, names=parse_names(names, count))
        try:
            table.run()
        except InputEnded:
            raise Refused("input ended before the game did") from None


PoolOrSeats = Annotated[str | None, typer.Option(
    help="Comma-separated strategies, one per seat, or 'pool:a,b,c' to draw each game's seats from "
         "a pool (default: the game's strategies and random in turn).")]


def seat_spec(g: Any, seats: str | None, players: int) -> tuple[tuple[str, ...], int | None]:
    """The strategies of ``--seats`` and, for a pool, the number of players to draw."""
    if seats is not None and seats.strip().startswith("pool:"):
        # each strategy written the one way, so its rows name it as every other run does
        pool = [canonical_strategy(g, s) for s in split_strategies(seats.strip()[len("pool:"):]) if s]
        if not pool:
            raise Refused("--seats pool: names no strategy; write e.g. pool:random,ismcts")
        if len(set(pool)) != len(pool):
            raise Refused("--seats pool: names a strategy twice; name each once")
        return tuple(pool), players
    # a search and a language model are asked for by name: both are slow, a model costs money
    names = [n for n in strategy_names(g) if n not in (SEARCH, LLM)]
    rotation = [*names[1:], names[0]]
    given = parse_seats(seats, players, lambda: [rotation[i % len(rotation)] for i in range(players)])
    return tuple(canonical_strategy(g, s) for s in given), None


def check_workers(workers: int | None) -> None:
    """Refuse a worker count the machine cannot use."""
    most_workers = 4 * (os.cpu_count() or 1)
    if workers is not None and workers < 1:
        raise Refused("--workers must be at least 1")
    if workers is not None and workers > most_workers:
        raise Refused(f"--workers must be at most {most_workers}, four per core")


def check_games(games: int) -> None:
    """Refuse a number of games outside 1 .. MAX_GAMES."""
    if games < 1:
        raise Refused("--games must be at least 1")
    if games > MAX_GAMES:
        raise Refused(f"--games must be at most {MAX_GAMES:,}; play more in batches with "
                      "different seeds")


def command_line(ctx: typer.Context) -> list[str]:
    """The command of ``ctx`` in words as the user gave them, rebuilt from what was parsed
    (``tricolore simulate culottes --games 100 ...``; what was left at its default is left out)."""
    words = ["tricolore", ctx.info_name or ""]
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name else None
        if param.name is None or source is None or source.name == "DEFAULT":
            continue
        value = ctx.params[param.name]
        values = list(value) if isinstance(value, (list, tuple)) else [value]
        if param.param_type_name == "option" and getattr(param, "is_flag", False):
            if value or param.secondary_opts:
                words.append(param.opts[0] if value else param.secondary_opts[0])
        elif param.param_type_name == "option":
            for v in values:
                words.extend([param.opts[0], str(v)])
        else:
            words.extend(str(v) for v in values)
    return words


def resume_command(command: list[str]) -> str:
    """``command`` with ``--resume``, as a line to type."""
    return shlex.join(command if "--resume" in command else [*command, "--resume"])


@contextmanager
def games_bar(description: str, total: int, *, quiet: bool = False) -> Iterator[Callable[..., None]]:
    """A progress bar of games on the terminal (stderr), unless ``quiet`` or stderr is not a
    terminal; yields ``advance(n, label=None)``, which moves it on by ``n`` games (and relabels
    it), with the games a second and the time left."""
    if quiet or not sys.stderr.isatty():
        yield lambda n, label=None: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("left"),
               TimeRemainingColumn())
    with Progress(*columns, console=errors, transient=True) as bar:
        task = bar.add_task(description, total=total, rate="")

        def advance(n: int, label: str | None = None) -> None:
            bar.advance(task, n)
            speed = bar.tasks[0].speed
            bar.update(task, rate=f"{speed:,.1f} games/s" if speed else "")
            if label:
                bar.update(task, description=label)

        yield advance


def stop_run(stopped_by: signal.Signals | None, kept: str) -> NoReturn:
    """Say that a run was interrupted and what it ``kept``; exit with 128 + the signal's number
    (130 for Ctrl-C, 143 for SIGTERM)."""
    number = stopped_by or signal.SIGINT
    name = "Ctrl-C (SIGINT)" if number == signal.SIGINT else signal.Signals(number).name
    errors.print(Text.assemble(("interrupted", "red"), f" by {name}: {kept}"), soft_wrap=True)
    raise typer.Exit(128 + number)


def kept_by(finished: Any, spec: Any, out: Path | None, command: list[str]) -> str:
    """What an interrupted job kept, in words: only what is on disk; ``command`` is the one that
    ran it."""
    journal = finished.journal
    if journal is None:
        return (f"{len(finished.rows):,} of {spec.games:,} games were played and none is kept "
                "(there is no --out); the summary covers those games only")
    return (f"{journal.kept():,} of {spec.games:,} games are kept in {journal.folder}; {out} is "
            f"written only when every game is played. Continue with: {resume_command(command)}")


def play_job(spec: Any, *, quiet: bool, backend: str, workers: int | None, ray_address: str | None,
             out: Path | None, resume: bool, command: list[str]) -> Any:
    """Run a simulation job with a progress bar on a terminal (none when ``quiet``), recording
    ``command`` with its results; an interrupted job that finished no game is reported here,
    with what it kept."""
    from tricolore.sim.backends import BackendError
    from tricolore.sim.jobs import run_job
    from tricolore.sim.results import ResultsError

    if resume and out is None:
        raise Refused("--resume continues the run kept in an --out file; name it with --out")
    if out is not None and out.exists() and out.is_dir():
        raise Refused(f"--out must name a file; {out} is a folder")
    try:
        with games_bar(spec.game, spec.games, quiet=quiet) as advance:
            finished = run_job(spec, backend=backend, workers=workers, address=ray_address, out=out,
                               resume=resume, progress=advance, command=shlex.join(command))
    except (BackendError, ResultsError) as exc:
        raise Refused(str(exc)) from None
    if finished.interrupted and not finished.rows:
        stop_run(finished.signal, kept_by(finished, spec, out, command))
    return finished


@app.command()
def simulate(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="The game to simulate.")],
    players: PlayersArg = None,
    games: Annotated[int, typer.Option(help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 0,
    seats: PoolOrSeats = None,
    rotate: Annotated[bool, typer.Option(
        help="Turn seat positions from game to game, so no strategy is credited with a seat's "
             "advantage.")] = True,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    out: Annotated[Path | None, typer.Option(
        help="Write one row per game to this Parquet file.")] = None,
    resume: Annotated[bool, typer.Option(
        help="Continue an interrupted run of the same --out file without replaying its games.")] = False,
    records: Annotated[Path | None, typer.Option(help="Keep every game's record in this folder.")] = None,
    backend: BackendArg = "local",
    ray_address: RayAddressArg = None,
    workers: WorkersArg = None,
    batch: Annotated[bool, typer.Option(
        help="Play every game at once in numpy, in this process (revolution: random, printer-first "
             "and area-control seats; see docs/games/revolution.md).")] = False,
) -> None:
    """Play bot games and summarise win rates and scores per strategy and per seat."""
    from tricolore.sim.batch import BatchSpec, summarise

    with clear_errors():
        check_games(games)
        check_workers(workers)
        g = get_game(game)
        options = parse_options(option)
        players = table_size(g, players, seats)
        g.new(players, seed, options)  # the player count and options, checked before the seats
        if records is not None and records.exists() and not records.is_dir():
            raise Refused(f"--records must name a folder; {records} is a file")
        strategies, pool = seat_spec(g, seats, players)
        if batch and seats is None:  # the default line-up may hold a search the batch cannot play
            strategies, pool = ("random",) * players, None
        spec = BatchSpec(game, strategies, games, seed, options,
                         None if records is None else str(records), pool, rotate)
        if batch:
            path = check_batch(spec, backend=backend, workers=workers, ray_address=ray_address,
                               resume=resume)
            rows = play_batch(path, spec, out, command_line(ctx))
            summary = summarise(spec, rows)
            summary["out"] = None if out is None else str(out)
            if as_json:
                print(json.dumps(summary, indent=2))
                return
            print_summary(summary)
            return
        finished = play_job(spec, quiet=as_json, backend=backend, workers=workers,
                            ray_address=ray_address, out=out, resume=resume, command=command_line(ctx))
        summary = summarise(spec, finished.rows, finished.interrupted)
        summary["out"] = None if out is None or finished.interrupted else str(out)
        if as_json:
            print(json.dumps(summary, indent=2))
        else:
            print_summary(summary)
        if finished.interrupted:
            stop_run(finished.signal, kept_by(finished, spec, out, command_line(ctx)))


def check_batch(spec: Any, *, backend: str, workers: int | None, ray_address: str | None,
                resume: bool) -> Any:
    """Refuse what ``--batch`` cannot do, with one sentence; the game's batched path otherwise."""
    path = companions(spec.game).batch
    if path is None:
        batched = [info.name for info in list_games() if companions(info.name).batch is not None]
        raise Refused(f"--batch plays only {', '.join(batched) or 'games with a batched path'}; "
                      f"{spec.game} is played game by game")
    unknown = [s for s in spec.seats if s not in path.strategies]
    if unknown:
        raise Refused(f"--batch plays only {', '.join(path.strategies)} seats; not {unknown[0]}")
    if resume:
        raise Refused("--batch plays its games in one go: there is no run to resume")
    if backend != "local" or workers is not None or ray_address is not None:
        raise Refused("--batch plays in this process; leave out --backend, --workers and --ray-address")
    return path


def play_batch(path: Any, spec: Any, out: Path | None, command: list[str]) -> list[Any]:
    """Play ``spec`` with the game's batched ``path`` (:class:`tricolore.core.batch.BatchPath`):
    its rows, like those of other runs (recording ``command`` in the results file); with
    ``spec.records``, each game's record (its digests got by replaying it through the engine)."""
    from tricolore.core.record import replay_steps
    from tricolore.sim.batch import GameRow
    from tricolore.sim.provenance import this_run
    from tricolore.sim.results import write

    if out is not None and out.exists() and out.is_dir():
        raise Refused(f"--out must name a file; {out} is a folder")
    options = dict(spec.options)
    lineups = [tuple(spec.lineup(spec.seed + g)) for g in range(spec.games)]
    try:
        played = path.play(spec.games, spec.players, spec.seed, lineups, options, spec.records is not None)
    except ValueError as e:
        raise Refused(str(e)) from None
    rows = [GameRow(int(row["seed"]), lineups[g], tuple(float(x) for x in row["scores"]),
                    tuple(int(w) for w in row["winners"]), int(row["actions"]), row["metrics"])
            for g, row in enumerate(played.rows())]
    if spec.records is not None:
        folder = Path(spec.records)
        folder.mkdir(parents=True, exist_ok=True)
        for record in played.records():
            record.digests = [state.digest() for _, state in replay_steps(record)]
            record.save(folder / f"{spec.game}-{record.seed}.json")
    if out is not None:
        run = this_run(shlex.join(command))
        write(out, rows, spec.game, {**spec.describe(), "games": spec.games, "runs": [run]})
    return rows


def print_summary(summary: dict[str, Any]) -> None:
    """The summary of a simulation as tables: per strategy, per seat, and the game's metrics."""
    table = Table(title=f"{summary['game']}: {summary['games']} games, {summary['players']} players"
                  + (" (interrupted)" if summary["interrupted"] else ""))
    for col in ("strategy", "seat-games", "mean score", "win rate", "95% interval"):
        table.add_column(col)
    for name, s in summary["strategies"].items():
        table.add_row(name, str(s["seat_games"]), f"{s['mean_score']:.2f}", f"{s['win_rate']:.3f}",
                      f"{s['win_rate_95'][0]:.3f}-{s['win_rate_95'][1]:.3f}")
    console.print(table)
    by_seat = Table(title="by seat (first to play is seat 1)")
    for col in ("seat", "games", "mean score", "win rate", "95% interval"):
        by_seat.add_column(col)
    for s in summary["by_seat"]:
        by_seat.add_row(str(s["seat"]), str(s["games"]), f"{s['mean_score']:.2f}", f"{s['win_rate']:.3f}",
                        f"{s['win_rate_95'][0]:.3f}-{s['win_rate_95'][1]:.3f}")
    console.print(by_seat)
    for k, v in summary["metrics"].items():
        console.print(f"mean {k}: {v}")
    if summary.get("out"):
        console.print(f"rows written to {summary['out']}")


def _bounds(interval: tuple[float, float] | None) -> str:
    return "" if interval is None else f"[{interval[0]:.2f}–{interval[1]:.2f}]"


def parse_strategies(text: str) -> tuple[str, ...]:
    """The comma-separated strategies of a tournament: two or more, each named once."""
    names = [s for s in split_strategies(text) if s]
    if len(set(names)) != len(names):
        raise Refused("--strategies names a strategy twice; name each once")
    if len(names) < 2:
        raise Refused("--strategies must name at least two strategies, e.g. random,ismcts")
    return tuple(names)


@app.command()
def tournament(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="The game to play.")],
    strategies: Annotated[str, typer.Option(help="Comma-separated strategies to rate, e.g. a,b,c.")],
    games: Annotated[int, typer.Option(help="Number of games.")] = 100,
    players: Annotated[int | None, typer.Option(
        help="Players at each table (default: one per strategy, within the game's range).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 0,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print ratings and head to head as JSON.")] = False,
    out: Annotated[Path | None, typer.Option(
        help="Write one row per game to this Parquet file (for tricolore report).")] = None,
    resume: Annotated[bool, typer.Option(
        help="Continue an interrupted run of the same --out file without replaying its games.")] = False,
    backend: BackendArg = "local",
    ray_address: RayAddressArg = None,
    workers: WorkersArg = None,
) -> None:
    """Rate strategies against each other: OpenSkill ratings and a head-to-head matrix.

    Each game seats strategies drawn from the list (distinct ones when there are enough), turned
    from seat to seat so every strategy sits in every seat equally often.
    """
    from tricolore.sim.batch import BatchSpec
    from tricolore.sim.ratings import bootstrap, head_to_head, head_to_head_json, rate

    with clear_errors():
        check_games(games)
        check_workers(workers)
        g = get_game(game)
        pool = tuple(canonical_strategy(g, s) for s in parse_strategies(strategies))
        if len(set(pool)) != len(pool):
            raise Refused("--strategies names a strategy twice (once with its default parameters written "
                          "out); name each once")
        if players is None:
            players = min(max(len(pool), g.info.min_players), g.info.max_players)
        options = parse_options(option)
        g.new(players, seed, options)  # the player count and options, checked before the strategies
        spec = BatchSpec(game, pool, games, seed, options, players_in_pool=players, rotate=True)
        finished = play_job(spec, quiet=as_json, backend=backend, workers=workers,
                            ray_address=ray_address, out=out, resume=resume, command=command_line(ctx))
        ratings = rate(finished.rows)
        matrix = head_to_head(finished.rows)
        spread = bootstrap(finished.rows, seed=seed)
        written = None if out is None or finished.interrupted else str(out)
        if as_json:
            pairs_json = head_to_head_json(matrix)
            for a, row in pairs_json.items():
                for b, cell in row.items():
                    found = spread.share[a][b]
                    cell["share_95"] = None if found is None else [round(x, 4) for x in found]
            print(json.dumps({**spec.describe(), "games": len(finished.rows),
                              "interrupted": finished.interrupted,
                              "ratings": [{**r.as_dict(),
                                           "mu_95": [round(x, 4) for x in spread.mu[r.strategy]],
                                           "ordinal_95": [round(x, 4) for x in spread.ordinal[r.strategy]]}
                                          for r in ratings],
                              "head_to_head": pairs_json,
                              "bootstrap": {"resamples": spread.resamples, "interval": "percentile 95%",
                                            "resampled": "games"},
                              "out": written}, indent=2))
            if finished.interrupted:
                stop_run(finished.signal, kept_by(finished, spec, out, command_line(ctx)))
            return
        title = (f"{game}: {len(finished.rows)} games, {players} players"
                 + (" (interrupted)" if finished.interrupted else ""))
        table = Table(title=title)
        for col in ("strategy", "games", "mu", "sigma", "ordinal (mu - 3 sigma)", "ordinal, 95% bootstrap"):
            table.add_column(col, justify="left" if col == "strategy" else "right")
        for r in ratings:
            low, high = spread.ordinal[r.strategy]
            table.add_row(r.strategy, str(r.games), f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}",
                          f"{low:.2f}–{high:.2f}")
        console.print(table)
        names = [r.strategy for r in ratings]
        pairs = Table(title="head to head: share of games the row beat the column (ties half), "
                            "its 95% bootstrap interval, games")
        pairs.add_column("")
        for name in names:
            pairs.add_column(name, justify="right")
        for a in names:
            pairs.add_row(a, *("-" if a == b or not matrix[a][b].games else
                               f"{matrix[a][b].share:.2f} {_bounds(spread.share[a][b])} "
                               f"({matrix[a][b].games})" for b in names))
        console.print(pairs)
        if finished.interrupted:
            stop_run(finished.signal, kept_by(finished, spec, out, command_line(ctx)))
        if out is not None:
            console.print(f"rows written to {out}; tricolore report {out} makes an HTML report of them")


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="A results file written by simulate or tournament --out.")],
    out: Annotated[Path | None, typer.Option(
        help="The HTML file to write (default: the results file with .html).")] = None,
) -> None:
    """Write a self-contained HTML report of a results file: win rates, seats, scores, game
    lengths, the game's metrics and, with two strategies or more, ratings and head to head."""
    from tricolore.sim.report import ReportError, results_page
    from tricolore.sim.results import ResultsError, job_of, read, rows_of

    with clear_errors():
        out = out if out is not None else results.with_suffix(".html")
        if results.is_dir():
            raise Refused(f"{results} is a folder, not a results file")
        if out.is_dir():
            raise Refused(f"--out must name a file; {out} is a folder")
        if out.resolve() == results.resolve():
            raise Refused(f"--out {out} would overwrite the results file; name another file")
        try:
            table = read(results)
            job = job_of(table)
            rows = rows_of(table)
        except ResultsError as exc:
            raise Refused(str(exc)) from None
        except (TypeError, ValueError, KeyError):  # missing values, or a job that is not JSON
            raise Refused(f"{results} is not a results file written by tricolore: some of its "
                          "rows or its job cannot be read") from None
        try:
            page = results_page(rows, job, results.name)
        except ReportError as exc:
            raise Refused(f"cannot report on {results}: {exc}") from None
        out.write_text(page, encoding="utf-8")
        games_text = f"{len(rows):,} game" + ("" if len(rows) == 1 else "s")
        console.print(f"report on {games_text} written to {out}", soft_wrap=True)


@app.command()
def study(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="The game to study.")],
    out: Annotated[Path | None, typer.Option(
        help="Folder for the report, the findings and every batch's rows (default: study-GAME).")] = None,
    games: Annotated[int | None, typer.Option(
        help="Games per batch (default: the study's own, enough for intervals of a few points).")] = None,
    players: Annotated[int | None, typer.Option(help="Players per game (default: a typical table).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game of every batch.")] = 0,
    quick: Annotated[bool, typer.Option(
        help="A few games per batch: shows every figure in a minute, proves nothing.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
    backend: BackendArg = "local",
    ray_address: RayAddressArg = None,
    workers: WorkersArg = None,
) -> None:
    """Run a game's standard experiments and write a report of what the data shows.

    An interrupted study resumes where it stopped when run again with the same settings.
    """
    from tricolore.sim.backends import BackendError
    from tricolore.sim.jobs import stopping
    from tricolore.sim.results import ResultsError
    from tricolore.sim.studies import QUICK_GAMES, build
    from tricolore.sim.study import run_study

    with clear_errors():
        info = get_game(game).info
        if quick and games is not None:
            raise Refused("--quick sets the number of games; give --quick or --games, not both")
        if games is not None:
            check_games(games)
        check_workers(workers)
        if players is not None and not info.min_players <= players <= info.max_players:
            raise Refused(f"{info.title} is played by {info.min_players} to {info.max_players} players, "
                          f"not {players}")
        folder = out if out is not None else Path(f"study-{game}")
        if folder.exists() and not folder.is_dir():
            raise Refused(f"--out must name a folder; {folder} is a file")
        plan = build(game, QUICK_GAMES if quick else games, players, seed)
        command = " ".join(["tricolore study", game, *(["--quick"] if quick else []),
                            *([f"--games {games}"] if games is not None else []),
                            *([f"--players {players}"] if players is not None else []),
                            *([f"--seed {seed}"] if seed else [])])
        with stopping() as stop:  # knows which signal stopped a batch of the study
            try:
                with games_bar(f"{game} study", plan.games(), quiet=as_json) as advance:
                    result = run_study(plan, folder, backend=backend, workers=workers, address=ray_address,
                                       progress=lambda label, n: advance(n, label), command=command)
            except (BackendError, ResultsError) as exc:
                raise Refused(str(exc)) from None
        if result.interrupted:
            stop_run(stop.signal, study_kept(plan, folder, command_line(ctx)))
        if as_json:
            print(json.dumps({"game": game, "report": str(result.report), "findings": {
                e.key: {"question": e.question, "claims": result.findings[e.key].claims}
                for e in plan.experiments}}, indent=2))
            return
        console.print(Text(plan.title, style="bold"))
        for e in plan.experiments:
            console.print(Text(e.heading, style="bold"))
            for claim in result.findings[e.key].claims:
                console.print(f"  - {claim}", soft_wrap=True)
        console.print(f"report written to {result.report}")


def study_kept(plan: Any, folder: Path, command: list[str]) -> str:
    """What an interrupted study kept in ``folder``, in words: only what is on disk; ``command``
    is the one that ran it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tricolore.sim.results import Journal

    arms = plan.arms()
    finished = journaled = 0
    for arm in arms:
        path = folder / f"{arm.key}.parquet"
        journal = Journal(path, arm.spec)
        if journal.folder.exists():
            journaled += journal.kept()
            continue
        try:
            finished += path.exists() and pq.read_metadata(path).num_rows >= arm.spec.games
        except (pa.ArrowInvalid, OSError):
            continue
    return (f"{finished} of {len(arms)} batches are finished in {folder} and {journaled:,} games of the "
            "others are kept in their journals; the report is written only when every batch is played. "
            f"Resume with the same command: {shlex.join(command)}")


app.command("empirical")(research.empirical)
app.command("psro")(research.psro)
app.command("print")(printing.print_pdf)
app.command("llm-bench")(llm_bench.llm_bench)


MOST_BENCH_GAMES = 10_000
MOST_BENCH_PASSES = 100


@app.command()
def bench(
    quick: Annotated[bool, typer.Option(
        help="Fewer games and passes, and a small simulate batch: a figure in seconds.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print every figure as JSON, nothing else.")] = False,
    as_markdown: Annotated[bool, typer.Option(
        "--markdown", help="Print the tables as Markdown, as docs/performance.md shows them.")] = False,
    games: Annotated[int | None, typer.Option(
        help="Games of each game a row plays at a time (default 40, or 6 with --quick); a row plays "
             "batches of new games for as long as a slice of the floor in every pass.")] = None,
    passes: Annotated[int | None, typer.Option(
        help="Interleaved passes, of which the median is reported (default 5, or 3 with --quick).")] = None,
) -> None:
    """Measure the engine's speed beside a bare-Python floor and OpenSpiel's games, in one run."""
    from tricolore.perf import bench as perf
    from tricolore.perf import render

    with clear_errors():
        if as_json and as_markdown:
            raise Refused("choose one of --json and --markdown")
        if games is not None and not 1 <= games <= MOST_BENCH_GAMES:
            raise Refused(f"--games must be from 1 to {MOST_BENCH_GAMES:,}")
        if passes is not None and not 1 <= passes <= MOST_BENCH_PASSES:
            raise Refused(f"--passes must be from 1 to {MOST_BENCH_PASSES}")
        chosen = perf.settings(quick, games, passes)
        if as_json or not sys.stderr.isatty():
            result = perf.run(chosen)
        else:
            with errors.status("measuring") as status:
                result = perf.run(chosen, lambda message: status.update(f"measuring: {message}"))
        if as_json:
            print(json.dumps(result, indent=2))
        elif as_markdown:
            print(render.markdown(result))
        else:
            for part in render.rich_tables(result):
                console.print(part, soft_wrap=isinstance(part, str))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option(help="Database URL: an SQLite file (the default) or "
                                    "postgresql://user:password@host/name.")] = "sqlite:///tricolore.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each action.")] = 0.6,
    tables_per_minute: Annotated[int, typer.Option(
        envvar="TRICOLORE_TABLES_PER_MINUTE",
        help="New tables (and open seats taken from the lobby) one address may ask for a minute.")] = 10,
    sockets_per_address: Annotated[int, typer.Option(
        envvar="TRICOLORE_SOCKETS_PER_ADDRESS",
        help="Websockets one address may hold open at once.")] = 64,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        envvar="TRICOLORE_TRUSTED_PROXIES",
        help="A reverse proxy's address or network (repeat the option; in the variable, separate "
             "them with spaces or commas): its X-Forwarded-For names the client; from anyone else "
             "it is ignored.")] = None,
    hello_seconds: Annotated[float, typer.Option(
        envvar="TRICOLORE_HELLO_SECONDS",
        help="Seconds a new socket has to say hello before it is closed.")] = 5.0,
    db_pool_size: Annotated[int, typer.Option(
        envvar="TRICOLORE_DB_POOL_SIZE",
        help="Database connections kept open (PostgreSQL).")] = 5,
    policies: Annotated[Path | None, typer.Option(
        envvar="TRICOLORE_POLICIES",
        help="A folder of trained policies (.npz, from the self-play example) the lobby offers as "
             "bots: policy:NAME plays NAME.npz.")] = None,
    instance_name: Annotated[str | None, typer.Option(
        envvar="TRICOLORE_INSTANCE_NAME",
        help="This process's name among several serving one PostgreSQL database, each its own "
             "(default: host name and port, so a server restarted there takes its tables back at "
             "once).")] = None,
    lease_seconds: Annotated[float, typer.Option(
        envvar="TRICOLORE_LEASE_SECONDS",
        help="Seconds a process's hold on a table lasts unless renewed (PostgreSQL): another "
             "process takes over a killed one's tables this long after.")] = 5.0,
) -> None:
    """Serve the browser client: the lobby, the tables and their replays.

    Every setting can also come from its TRICOLORE_* environment variable (shown with each option).
    """
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from tricolore.server import Settings, build_app

    with clear_errors():
        if not math.isfinite(bot_delay) or bot_delay < 0:
            raise Refused(f"--bot-delay must be a number of seconds, 0 or more, not {bot_delay}")
        check_can_listen(host, port)
        proxies = tuple(p.strip() for entry in trusted_proxy or [] for p in entry.split(",") if p.strip())
        try:
            settings = Settings(tables_per_minute=tables_per_minute,
                                sockets_per_address=sockets_per_address, trusted_proxies=proxies,
                                hello_seconds=hello_seconds, db_pool_size=db_pool_size,
                                policies=None if policies is None else str(policies),
                                instance_name=instance_name or f"{socket.gethostname()}:{port}",
                                lease_seconds=lease_seconds)
        except OptionsError as exc:
            raise Refused(str(exc)) from None
        where = shown_database(db)
        try:
            application, resumed = build_app(db, bot_delay=bot_delay, settings=settings)
        except SQLAlchemyError as exc:
            raise Refused(f"cannot open the database {where}: {exc.__class__.__name__}: "
                          f"{str(exc).splitlines()[0]}") from None
        console.print(Text.assemble("Tricolore is serving on ", (f"http://{host}:{port}/", "bold")),
                      soft_wrap=True)
        noun = "table" if resumed == 1 else "tables"
        console.print(f"{resumed} {noun} in play resumed from {where} (finished ones open when asked "
                      "for); Ctrl+C stops the server.",
                      highlight=False, soft_wrap=True)
        # the application decides whom to believe (--trusted-proxy), not uvicorn's own proxy
        # headers; messages are small JSON, so compressing them costs the server a quarter of its
        # throughput under load for little saved (docs/performance.md, "The server under load")
        uvicorn.run(application, host=host, port=port, log_level="warning", ws_max_size=1 << 20,
                    proxy_headers=False, ws_per_message_deflate=False)


def check_can_listen(host: str, port: int) -> None:
    """Refuse, in one sentence, a port out of range or an address the server cannot listen on
    (an unknown host, a port already taken), before anything else starts."""
    if not 1 <= port <= 65535:
        raise Refused(f"--port must be from 1 to 65535, not {port}")
    why = text_problem(host)
    if why is not None:
        raise Refused(f"--host cannot be read: {why}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn chooses
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except socket.gaierror as exc:
        raise Refused(f"cannot listen on {host}: {(exc.strerror or str(exc)).lower()}") from None
    except (OSError, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise Refused(f"cannot listen on {host} port {port}: {why.lower()}") from None


def shown_database(url: str) -> str:
    """The database URL without its password, for messages."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url.split("@")[-1]


@app.command()
def replay(
    records: Annotated[list[Path], typer.Argument(help="Records (JSON) to replay, or folders of them.")],
    verify_digests: Annotated[bool, typer.Option("--verify", help="Check every digest; exit 1 on a "
                                                 "mismatch.")] = False,
    workers: Annotated[int | None, typer.Option(
        help="Worker processes that verify records (default: every core; 1: in this process).")] = None,
) -> None:
    """Replay a record step by step, or verify the digests of records."""
    with clear_errors():
        paths: list[Path] = []
        for r in records:
            found = sorted(r.glob("*.json")) if r.is_dir() else [r]
            if not found:
                raise Refused(f"no records (*.json) in the folder {r}")
            paths.extend(found)
        if verify_digests:
            if workers is not None and workers < 1:
                raise Refused(f"--workers must be at least 1; got {workers}")
            for path, (problem, actions) in verified_records(paths, workers):
                if problem is not None:
                    raise Refused(problem)
                if len(paths) == 1:
                    console.print(f"{path}: {counted_actions(actions)}, every digest verified",
                                  highlight=False)
            if len(paths) > 1:
                console.print(f"{len(paths)} records, every digest verified")
            return
        if len(paths) > 1:
            raise Refused("replay one record at a time, or use --verify")
        rec = Record.load(paths[0])
        try:
            print_replay(rec)
        except RecordError as exc:
            raise Refused(f"{paths[0]}: {exc}") from None


def record_problem(path: Path) -> tuple[str | None, int]:
    """Why the record at ``path`` does not verify, in one sentence (``None`` if it does: it replays
    to every digest it holds and to the game's end), and how many actions it holds."""
    try:
        rec = Record.load(path)
    except RecordError as exc:  # its sentence names the file
        return str(exc), 0
    actions = len(rec.actions)
    try:
        checked = check_record(rec)
    except RecordError as exc:
        return f"{path}: {exc}", actions
    if checked.mismatches:
        m = checked.mismatches[0]
        count = len(checked.mismatches)
        differ = "1 digest differs" if count == 1 else f"{count} digests differ"
        return (f"{path}: {differ}, first after action {m.index} "
                f"(expected {m.expected:.40}, replay gives {m.actual})"), actions
    if not checked.over:
        return f"record {path} stops after {counted_actions(actions)}, before the game's end", actions
    return None, actions


def record_problems(paths: list[Path]) -> list[tuple[str | None, int]]:
    """:func:`record_problem` of each of ``paths``, in order: one task of a worker process."""
    return [record_problem(path) for path in paths]


def verified_records(paths: list[Path], workers: int | None
                     ) -> Iterator[tuple[Path, tuple[str | None, int]]]:
    """Each of ``paths`` with :func:`record_problem`, in their order: checked on ``workers``
    processes (default: every core) when there are several records, in this one otherwise. The
    workers left when the caller stops early (at the first problem) are stopped at once.

    The records go to the workers a few at a time, at most two tasks a worker ahead of what has
    been read, and are read back in order. Nothing here cancels a task: the pool's shutdown drops
    those not started itself (``Executor.map`` cancels them from this thread when its reader stops
    early, which Python 3.11's pool, finding its killed workers at the same moment, reports as an
    error in its own thread)."""
    workers = min(workers or os.cpu_count() or 1, len(paths))
    if workers <= 1:
        for path in paths:
            yield path, record_problem(path)
        return
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    from tricolore.sim.backends import start_worker, stop_workers

    # a few records a task: a long folder costs little in messages
    size = max(1, min(16, len(paths) // (workers * 4)))
    tasks = iter([paths[i : i + size] for i in range(0, len(paths), size)])
    pool = ProcessPoolExecutor(max_workers=workers, initializer=start_worker, initargs=(os.getpid(),))
    complete = False
    try:
        ahead: deque[tuple[list[Path], Future[list[tuple[str | None, int]]]]] = deque()
        for task in tasks:
            ahead.append((task, pool.submit(record_problems, task)))
            if len(ahead) >= workers * 2:
                break
        while ahead:
            task, future = ahead.popleft()
            problems = future.result()
            more = next(tasks, None)
            if more is not None:
                ahead.append((more, pool.submit(record_problems, more)))
            yield from zip(task, problems, strict=True)
        complete = True
    finally:
        if not complete:
            stop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def counted_actions(count: int) -> str:
    """A count of actions in words: "1 action", "12 actions"."""
    return f"{count} action{'' if count == 1 else 's'}"


def print_replay(rec: Record) -> None:
    """Print a record step by step with every event, secrets included."""
    from tricolore.cli.render import renderer
    from tricolore.core.record import replay_steps

    render = renderer(rec.game)
    state = new_state(rec)
    seen = 0
    for i, state in replay_steps(rec):
        seat, action = rec.actions[i]
        console.print(Text.assemble((f"{i + 1}. seat {seat}", "bold"), " ", json.dumps(action)))
        view = state.view(None)
        for e in (e.as_dict() for e in state.log[seen:]):  # a replay shows every secret
            console.print("    · " + render.event(e, view), highlight=False)
        seen = len(state.log)
    if state.is_over():
        for part in render.result(state.view(None)):
            console.print(part)
    else:
        console.print(f"The record stops after {counted_actions(len(rec.actions))}, before the "
                      "game's end.")


def mount_game_commands() -> list[str]:
    """Mount every registered game's own commands (``COMMANDS`` in a ``cli.py`` beside its rules,
    such as Culottes' ``book``) as ``tricolore NAME ...``: those not mounted yet, by name. A game
    whose commands fail to load is left out; the game itself still plays."""
    mounted = {group.name or (group.typer_instance and group.typer_instance.info.name)
               for group in app.registered_groups}
    added = []
    for info in list_games():
        try:
            commands = companions(info.name).commands
        except OptionsError:
            continue
        if not isinstance(commands, typer.Typer):
            continue
        name = commands.info.name if isinstance(commands.info.name, str) else info.name
        if name in mounted:
            continue
        app.add_typer(commands, name=name)
        mounted.add(name)
        added.append(name)
    return added


mount_game_commands()


if __name__ == "__main__":
    app()
