"""The ``tricolore`` command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from tricolore.agents import SEARCH, make_agent, strategy_names
from tricolore.core import IllegalAction, OptionsError, RecordError, get_game, list_games
from tricolore.core.record import Record, new_state, verify
from tricolore.games.culottes.book import BookError, BookOfPublicSafety, parse_side

app = typer.Typer(help="Tricolore: negotiation games of the French Revolution.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
book_app = typer.Typer(help="The Culottes Book of Public Safety, for a table playing on paper.",
                       no_args_is_help=True)
app.add_typer(book_app, name="book")

console = Console()
errors = Console(stderr=True)


class Refused(Exception):
    """A user error to report in one sentence."""


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn every expected error into one sentence on stderr and exit status 1."""
    try:
        yield
    except (Refused, OptionsError, RecordError, BookError, IllegalAction, OSError) as exc:
        message = exc.message if isinstance(exc, IllegalAction) else str(exc)
        errors.print(f"[red]error:[/red] {message}", highlight=False)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        errors.print("interrupted")
        raise typer.Exit(130) from None


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``--option name=value`` pairs; values are read as JSON when they can be."""
    out: dict[str, Any] = {}
    for item in items or []:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise Refused(f"--option must look like name=value; got {item!r}")
        try:
            out[name.strip()] = json.loads(text)
        except json.JSONDecodeError:
            out[name.strip()] = text
    return out


def parse_seats(text: str | None, players: int, default: Callable[[], list[str]]) -> list[str]:
    """The comma-separated seat list, one entry per player."""
    if text is None:
        return default()
    seats = [s.strip() for s in text.split(",")]
    if len(seats) != players:
        raise Refused(f"--seats lists {len(seats)} seats but --players is {players}")
    return seats


OptionArg = Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="A game option as name=value (repeatable).")]


@app.command()
def games() -> None:
    """List the games with their player ranges and strategies."""
    table = Table(title="Games")
    for col in ("name", "title", "players", "strategies"):
        table.add_column(col)
    for info in list_games():
        table.add_row(info.name, info.title, f"{info.min_players}-{info.max_players}",
                      ", ".join(strategy_names(get_game(info.name))))
    console.print(table)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game to play, e.g. culottes.")],
    players: Annotated[int, typer.Option(help="Number of players.")] = 5,
    seats: Annotated[str | None, typer.Option(
        help="Comma-separated seats: 'human' or a strategy name, one per player.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game's dice and shuffles.")] = 0,
    option: OptionArg = None,
) -> None:
    """Play in the terminal against bots; several humans share the screen in turn."""
    from tricolore.cli.play import HUMAN, InputEnded, TerminalTable, default_seats

    with clear_errors():
        g = get_game(game)
        state = g.new(players, seed, parse_options(option))
        seat_kinds = parse_seats(seats, players, lambda: default_seats(players, list(g.strategies)))
        agents = [None if s == HUMAN else make_agent(g, s) for s in seat_kinds]
        table = TerminalTable(state, seat_kinds, agents, console)
        try:
            table.run()
        except InputEnded:
            raise Refused("input ended before the game did") from None


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="The game to simulate.")],
    players: Annotated[int, typer.Option(help="Number of players.")] = 5,
    games: Annotated[int, typer.Option(help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 0,
    seats: Annotated[str | None, typer.Option(
        help="Comma-separated strategies, one per seat (default: the game's strategies and random "
             "in turn).")] = None,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    records: Annotated[Path | None, typer.Option(help="Keep every game's record in this folder.")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: every core).")] = None,
) -> None:
    """Play bot games and summarise win rates and scores per strategy."""
    from tricolore.sim.batch import BatchSpec, GameRow, run_rows, summarise

    with clear_errors():
        if games < 1:
            raise Refused("--games must be at least 1")
        if workers is not None and workers < 1:
            raise Refused("--workers must be at least 1")
        g = get_game(game)
        names = [n for n in strategy_names(g) if n != SEARCH]  # a search is asked for by name
        rotation = [*names[1:], names[0]]
        seat_list = parse_seats(seats, players,
                                lambda: [rotation[i % len(rotation)] for i in range(players)])
        spec = BatchSpec(game, tuple(seat_list), games, seed, parse_options(option),
                         None if records is None else str(records))
        rows: list[GameRow] = []
        interrupted = False
        try:
            if as_json or not sys.stderr.isatty():
                rows.extend(run_rows(spec, workers))
            else:
                from rich.progress import Progress
                with Progress(console=errors, transient=True) as progress:
                    task = progress.add_task(f"{game}: {games} games", total=games)
                    for row in run_rows(spec, workers, lambda n: progress.advance(task, n)):
                        rows.append(row)
        except KeyboardInterrupt:
            interrupted = True
        if not rows:
            raise Refused("interrupted before any game finished")
        summary = summarise(spec, rows, interrupted)
        if as_json:
            print(json.dumps(summary, indent=2))
            return
        table = Table(title=f"{game}: {summary['games']} games, {players} players")
        for col in ("strategy", "seats", "mean score", "win rate", "95% interval"):
            table.add_column(col)
        for name, s in summary["strategies"].items():
            table.add_row(name, str(s["seats"]), f"{s['mean_score']:.2f}", f"{s['win_rate']:.3f}",
                          f"{s['win_rate_95'][0]:.3f}-{s['win_rate_95'][1]:.3f}")
        console.print(table)
        for k, v in summary["metrics"].items():
            console.print(f"mean {k}: {v}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option(help="Database URL: an SQLite file (the default) or "
                                    "postgresql://user:password@host/name.")] = "sqlite:///tricolore.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each action.")] = 0.6,
) -> None:
    """Serve the browser client: the lobby, the tables and their replays."""
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from tricolore.server import build_app

    with clear_errors():
        try:
            application, resumed = build_app(db, bot_delay=bot_delay)
        except SQLAlchemyError as exc:
            raise Refused(f"cannot open the database {db}: {exc.__class__.__name__}: "
                          f"{str(exc).splitlines()[0]}") from None
        console.print(f"Tricolore is serving on [bold]http://{host}:{port}/[/bold]", highlight=False,
                      soft_wrap=True)
        console.print(f"{resumed} tables resumed from {db.split('@')[-1]}; Ctrl+C stops the server.",
                      highlight=False, soft_wrap=True)
        uvicorn.run(application, host=host, port=port, log_level="warning", ws_max_size=1 << 20)


@app.command()
def replay(
    records: Annotated[list[Path], typer.Argument(help="Records (JSON) to replay, or folders of them.")],
    verify_digests: Annotated[bool, typer.Option("--verify", help="Check every digest; exit 1 on a "
                                                 "mismatch.")] = False,
) -> None:
    """Replay a record step by step, or verify the digests of records."""
    with clear_errors():
        paths = [p for r in records for p in (sorted(r.glob("*.json")) if r.is_dir() else [r])]
        if not paths:
            raise Refused("no records found")
        if verify_digests:
            for path in paths:
                rec = Record.load(path)
                mismatches = verify(rec)
                if mismatches:
                    m = mismatches[0]
                    raise Refused(f"{path}: {len(mismatches)} digests differ, first after action "
                                  f"{m.index} (expected {m.expected}, replay gives {m.actual})")
                if len(paths) == 1:
                    console.print(f"{path}: {len(rec.actions)} actions, every digest verified")
            if len(paths) > 1:
                console.print(f"{len(paths)} records, every digest verified")
            return
        if len(paths) > 1:
            raise Refused("replay one record at a time, or use --verify")
        print_replay(Record.load(paths[0]))


def print_replay(rec: Record) -> None:
    """Print a record step by step with every event, secrets included."""
    from tricolore.cli.render import renderer
    from tricolore.core.record import replay_steps

    render = renderer(rec.game)
    state = new_state(rec)
    seen = 0
    for i, state in replay_steps(rec):
        seat, action = rec.actions[i]
        console.print(f"[bold]{i + 1}. seat {seat}[/bold] {json.dumps(action)}", highlight=False)
        view = state.view(None)
        for e in (e.as_dict() for e in state.log[seen:]):  # a replay shows every secret
            console.print("    · " + render.event(e, view), highlight=False)
        seen = len(state.log)
    if state.is_over():
        for part in render.result(state.view(None)):
            console.print(part)


@book_app.command("close")
def book_close(
    book: Annotated[Path, typer.Argument(help="The Book as CSV: voter,citizen,cakes,side.")],
    citizen: Annotated[str, typer.Option(help="The citizen whose trial closes.")],
    order: Annotated[str, typer.Option(help="Voting citizens from the current player's left, "
                                       "comma-separated.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the closing as JSON.")] = False,
) -> None:
    """Close a citizen's open trial: verdict and rewards, and the trial marked closed in the file."""
    with clear_errors():
        ledger = read_book(book)
        names = [n.strip() for n in order.split(",") if n.strip()]
        if len(set(names)) != len(names):
            raise Refused("--order names a citizen twice")
        closing = ledger.close(citizen.strip(), names)
        book.write_text(ledger.to_csv(), encoding="utf-8")
        out = {"citizen": citizen.strip(), "verdict": closing.verdict.replace("_", "-"),
               "winning_cakes": closing.winning_cakes, "lost_cakes": closing.lost_cakes,
               "bastille_vote": closing.bastille_vote,
               "rewards": [{"voter": r.voter, "returned": r.returned, "reward": r.reward}
                           for r in closing.rewards],
               "lost": [{"voter": v, "cakes": n} for v, n in closing.lost],
               "leftover_to_bastille": closing.leftover}
        if as_json:
            print(json.dumps(out, indent=2, ensure_ascii=False))
            return
        console.print(f"Verdict on {out['citizen']}: [bold]{out['verdict']}[/bold] "
                      f"({closing.winning_cakes} winning cakes against {closing.lost_cakes}); "
                      f"the Bastille votes {closing.bastille_vote}.")
        table = Table(title="Rewards, in the order they are handed out")
        for col in ("voter", "cakes back", "reward", "exact share"):
            table.add_column(col)
        for r in closing.rewards:
            table.add_row(str(r.voter), str(r.returned), str(r.reward), f"{float(r.share):.3f}")
        console.print(table)
        for v, n in closing.lost:
            console.print(f"{v} loses {n} cakes.")


@book_app.command("vote")
def book_vote(
    book: Annotated[Path, typer.Argument(help="The Book as CSV (created if missing).")],
    voter: Annotated[str, typer.Argument(help="The voting citizen.")],
    citizen: Annotated[str, typer.Argument(help="The citizen on trial.")],
    cakes: Annotated[str, typer.Argument(help="Cakes voted.")],
    side: Annotated[str, typer.Argument(help="sans-culotte or privileged.")],
) -> None:
    """Write a cake vote at the end of the Book: "Robespierre, Danton, 3, privileged"."""
    with clear_errors():
        ledger = read_book(book) if book.exists() else BookOfPublicSafety()
        parsed = parse_side(side)
        if parsed is None:
            raise Refused(f"side must be sans-culotte or privileged, not {side!r}")
        try:
            count = int(cakes)
        except ValueError:
            raise Refused(f"cakes must be a whole number, not {cakes!r}") from None
        for name in (voter, citizen):
            if not name.strip() or name.strip().casefold() == "bastille":
                raise Refused(f"{name!r} cannot name a citizen")
        ledger.write(voter.strip(), citizen.strip(), count, parsed)
        book.write_text(ledger.to_csv(), encoding="utf-8")
        scales = ledger.scales(citizen.strip())
        console.print(f"{citizen.strip()} is on trial: {scales['sans_culotte']} sans-culotte, "
                      f"{scales['privileged']} privileged.")


@book_app.command("show")
def book_show(book: Annotated[Path, typer.Argument(help="The Book as CSV.")]) -> None:
    """Show the Book's open trials and their scales."""
    with clear_errors():
        ledger = read_book(book)
        table = Table(title="Open trials")
        for col in ("citizen", "sans-culotte", "privileged", "votes"):
            table.add_column(col)
        for name in dict.fromkeys(r.citizen for r in ledger.rows if r.closing is None):
            s = ledger.scales(name)
            table.add_row(name, str(s["sans_culotte"]), str(s["privileged"]),
                          str(len(ledger.open_rows(name))))
        console.print(table)


def read_book(path: Path) -> BookOfPublicSafety[str]:
    """Read a Book CSV, with errors naming the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Refused(f"there is no Book at {path}") from None
    except UnicodeDecodeError:
        raise Refused(f"{path} is not a text file") from None
    return BookOfPublicSafety.from_csv(text, str(path))


if __name__ == "__main__":
    app()
