"""Command-line options several commands share, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

OptionArg = Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="A game option as name=value (repeatable).")]
BackendArg = Annotated[str, typer.Option(help="Where to play: local (worker processes) or ray.")]
RayAddressArg = Annotated[str | None, typer.Option(
    help="The Ray cluster to use with --backend ray (default: start Ray on this machine).")]
WorkersArg = Annotated[int | None, typer.Option(help="Worker processes (default: every core).")]
