"""Culottes' own commands: ``tricolore book ...``, the Book of Public Safety for a table playing
on paper (:mod:`tricolore.games.culottes.book`). The command line mounts ``COMMANDS`` (see
:func:`tricolore.core.registry.companions`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from tricolore.cli.reading import MAX_DIGITS, text_problem, whole_number
from tricolore.games.culottes.book import BASTILLE, BookError, BookOfPublicSafety, parse_side

COMMANDS = typer.Typer(name="book", help="The Culottes Book of Public Safety, for a table playing on paper.",
                       no_args_is_help=True)
book_app = COMMANDS


class Refused(ValueError):
    """A mistake in what was typed, to report in one sentence."""


@contextmanager
def book_errors() -> Iterator[None]:
    """Every expected error as one sentence on stderr and exit status 1, a Book's own included."""
    # imported here: the command line imports this module while it mounts the games' commands
    from tricolore.cli.main import Refused as Said
    from tricolore.cli.main import clear_errors

    with clear_errors():
        try:
            yield
        except (BookError, Refused) as exc:
            raise Said(str(exc)) from None


def print_out(*parts: object) -> None:
    """Print to the command line's console (no markup: names come from users)."""
    from tricolore.cli.main import console

    console.print(*parts)


@book_app.command("close")
def book_close(
    book: Annotated[Path, typer.Argument(help="The Book as CSV: voter,citizen,cakes,side.")],
    citizen: Annotated[str, typer.Option(help="The citizen whose trial closes.")],
    order: Annotated[str, typer.Option(help="Voting citizens from the current player's left, "
                                       "comma-separated.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the closing as JSON.")] = False,
) -> None:
    """Close a citizen's open trial: verdict and rewards, and the trial marked closed in the file."""
    with book_errors():
        citizen = citizen_name(citizen, "--citizen")
        names = [citizen_name(n, "--order") for n in order.split(",") if n.strip()]
        if len(set(names)) != len(names):
            raise Refused("--order names a citizen twice")
        ledger = read_book(book)
        closing = ledger.close(citizen, names)
        book.write_text(ledger.to_csv(), encoding="utf-8")
        out = {"citizen": citizen, "verdict": closing.verdict.replace("_", "-"),
               "winning_cakes": closing.winning_cakes, "lost_cakes": closing.lost_cakes,
               "bastille_vote": closing.bastille_vote,
               "rewards": [{"voter": r.voter, "returned": r.returned, "reward": r.reward}
                           for r in closing.rewards],
               "lost": [{"voter": v, "cakes": n} for v, n in closing.lost],
               "leftover_to_bastille": closing.leftover}
        if as_json:
            print(json.dumps(out, indent=2, ensure_ascii=False))
            return
        print_out(Text.assemble(
            f"Verdict on {citizen}: ", (str(out["verdict"]), "bold"),
            f" ({closing.winning_cakes} winning cakes against {closing.lost_cakes}); "
            f"the Bastille votes {closing.bastille_vote}."))
        table = Table(title="Rewards, in the order they are handed out")
        for col in ("voter", "cakes back", "reward", "exact share"):
            table.add_column(col)
        for r in closing.rewards:
            table.add_row(str(r.voter), str(r.returned), str(r.reward), f"{float(r.share):.3f}")
        print_out(table)
        for v, n in closing.lost:
            print_out(f"{v} loses {n} cakes.")


@book_app.command("vote")
def book_vote(
    book: Annotated[Path, typer.Argument(help="The Book as CSV (created if missing).")],
    voter: Annotated[str, typer.Argument(help="The voting citizen.")],
    citizen: Annotated[str, typer.Argument(help="The citizen on trial.")],
    cakes: Annotated[str, typer.Argument(help="Cakes voted.")],
    side: Annotated[str, typer.Argument(help="sans-culotte or privileged.")],
) -> None:
    """Write a cake vote at the end of the Book: "Robespierre, Danton, 3, privileged"."""
    with book_errors():
        parsed = parse_side(side)
        if parsed is None:
            raise Refused(f"side must be sans-culotte or privileged, not {side!r:.40}")
        count = whole_number(cakes)
        if count is None:
            raise Refused(f"cakes must be a whole number of at most {MAX_DIGITS} digits, "
                          f"not {cakes!r:.40}")
        voter = citizen_name(voter, "the voter's name")
        citizen = citizen_name(citizen, "the citizen's name")
        ledger = read_book(book) if book.exists() else BookOfPublicSafety()
        ledger.write(voter, citizen, count, parsed)
        book.write_text(ledger.to_csv(), encoding="utf-8")
        scales = ledger.scales(citizen)
        print_out(f"{citizen} is on trial: {scales['sans_culotte']} sans-culotte, "
                      f"{scales['privileged']} privileged.")


@book_app.command("show")
def book_show(book: Annotated[Path, typer.Argument(help="The Book as CSV.")]) -> None:
    """Show the Book's open trials and their scales."""
    with book_errors():
        ledger = read_book(book)
        table = Table(title="Open trials")
        for col in ("citizen", "sans-culotte", "privileged", "votes"):
            table.add_column(col)
        for name in dict.fromkeys(r.citizen for r in ledger.rows if r.closing is None):
            s = ledger.scales(name)
            table.add_row(str(name), str(s["sans_culotte"]), str(s["privileged"]),
                          str(len(ledger.open_rows(name))))
        print_out(table)


def citizen_name(text: str, what: str) -> str:
    """A citizen's name as typed for ``what``, stripped; refused if it cannot name a citizen."""
    name = text.strip()
    if not name or name.casefold() == BASTILLE.casefold():
        raise Refused(f"{text!r:.40} cannot name a citizen")
    why = text_problem(name)
    if why is not None:
        raise Refused(f"{what} cannot be read: {why}")
    return name


MAX_BOOK_BYTES = 16 << 20
"""Largest Book file read; a paper game's Book holds a few hundred rows."""


def read_book(path: Path) -> BookOfPublicSafety:
    """Read a Book CSV, with errors naming the file and line."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BOOK_BYTES + 1)
    except FileNotFoundError:
        raise Refused(f"there is no Book at {path}") from None
    if len(raw) > MAX_BOOK_BYTES:
        raise Refused(f"{path} is larger than {MAX_BOOK_BYTES >> 20} MB, too large for a Book")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"{path} is not a Book: byte {exc.start} is not UTF-8 text") from None
    return BookOfPublicSafety.from_csv(text, str(path))
