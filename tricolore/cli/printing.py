"""``tricolore print``: a table's paper material as a PDF. The drawing is
:mod:`tricolore.games.culottes.paper`, imported when the command runs so that reportlab is loaded
only then; the command's helpers (one-sentence errors, the console) are those of
:mod:`tricolore.cli.main`, which registers this command.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer


def print_pdf(
    game: Annotated[str, typer.Argument(help="culottes or culottes-trials.")],
    players: Annotated[int, typer.Option(help="Players at the table.")] = 5,
    out: Annotated[Path, typer.Option(help="The PDF file to write.")] = Path("sheets.pdf"),
    paper: Annotated[str, typer.Option(help="Paper size: a4 or letter.")] = "a4",
    seed: Annotated[int | None, typer.Option(
        help="Seed of the citizen sheets' shuffle (Culottes; default: a fresh random one).")] = None,
    sheets_per_player: Annotated[int, typer.Option(
        help="Citizen sheets per player, 2 to 10 (Culottes).")] = 2,
    book_pages: Annotated[int, typer.Option(
        help="Pages of the Book of Public Safety, 1 to 20 (Culottes).")] = 2,
) -> None:
    """Print a table's paper material as a PDF: Culottes' citizen sheets, Bastille, Book of Public
    Safety and reminder cards, or the revolutionary trials' cards and record."""
    from tricolore.cli.main import clear_errors, console
    from tricolore.games.culottes.paper import check_players, culottes_pdf, trials_pdf

    with clear_errors():
        check_players(game, players)
        if game == "culottes":
            data, printed = culottes_pdf(players, paper, secrets.randbits(32) if seed is None else seed,
                                         sheets_per_player, book_pages)
        else:
            data, printed = trials_pdf(players, paper)
        out.write_bytes(data)
        # a file name that is not UTF-8 (a Linux file name may be any bytes) is shown escaped
        shown = Path(str(out).encode("utf-8", "backslashreplace").decode("utf-8"))
        console.print(printed.summary(shown), soft_wrap=True)
