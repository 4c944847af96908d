"""``tricolore llm-bench``: a language model against the strategy pool, as a leaderboard.

The command's helpers (one-sentence errors, options) are those of :mod:`tricolore.cli.main`,
imported when the command runs since that module registers this one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from tricolore.agents.params import split as split_strategies
from tricolore.cli.options import OptionArg

MOST_SEEDS = 10_000
"""Most games one benchmark plays."""


def llm_bench(
    game: Annotated[str, typer.Argument(help="The game to play.")],
    model: Annotated[str | None, typer.Option(
        help="The model (default: TRICOLORE_LLM_MODEL).")] = None,
    players: Annotated[int | None, typer.Option(
        help="Players at each table (default: the fewest the game allows, at least 3).")] = None,
    games: Annotated[int, typer.Option(help="Games, one per seed from --seed on.")] = 10,
    seed: Annotated[int, typer.Option(help="The first seed.")] = 0,
    pool: Annotated[str | None, typer.Option(
        help="Comma-separated opponent strategies (default: the game's named strategies).")] = None,
    output: Annotated[str, typer.Option(
        help="How answers are asked for: text, json_schema (structured output) or tools.")] = "text",
    timeout: Annotated[float | None, typer.Option(help="Seconds an answer may take.")] = None,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature, 0 to 2.")] = None,
    option: OptionArg = None,
    out: Annotated[Path, typer.Option(help="Where to write the JSON report.")] = Path("llm-bench.json"),
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the JSON report instead of the table.")] = False,
) -> None:
    """Play a language model against the strategy pool over fixed seeds and print a leaderboard:
    win rate with its 95% Wilson interval, OpenSkill rating, deals offered, accepted and kept,
    invalid answers and tokens. The endpoint is TRICOLORE_LLM_URL (any OpenAI-compatible one) and
    its key TRICOLORE_LLM_KEY."""
    from rich.table import Table

    from tricolore.agents.llm import MODEL_VARIABLE
    from tricolore.cli.main import Refused, clear_errors, console, parse_options
    from tricolore.core import get_game
    from tricolore.sim.llm_bench import BenchSpec, check, report, run_bench

    with clear_errors():
        g = get_game(game)
        if not 1 <= games <= MOST_SEEDS:
            raise Refused(f"--games must be from 1 to {MOST_SEEDS:,}")
        info = g.info
        if players is None:
            players = min(max(3, info.min_players), info.max_players)
        elif not info.min_players <= players <= info.max_players:
            raise Refused(f"{info.title} is played by {info.min_players} to {info.max_players} players, "
                          f"not {players}")
        name = model if model is not None else os.environ.get(MODEL_VARIABLE, "").strip()
        if not name:
            raise Refused(f"name the model with --model or set {MODEL_VARIABLE}")
        settings = [f"output={output}"]
        if timeout is not None:
            settings.append(f"timeout={timeout}")
        if temperature is not None:
            settings.append(f"temperature={temperature}")
        strategy = "@".join([f"llm:{name}", *settings])
        names = ([s for s in split_strategies(pool) if s] if pool is not None
                 else list(g.strategies) or ["random"])
        if not names:
            raise Refused("--pool names no strategy; write e.g. random,honest-revolutionary")
        spec = BenchSpec(game, players, tuple(range(seed, seed + games)), strategy, tuple(names),
                         parse_options(option))
        check(spec)
        if out.exists() and out.is_dir():
            raise Refused(f"--out must name a file; {out} is a folder")
        played = run_bench(spec, None if as_json else
                           lambda b: console.print(f"seed {b.seed}: seat {b.seat}, "
                                                   + ("won" if b.seat in b.winners else "lost")))
        result = report(spec, played)
        out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if as_json:
        console.print_json(json.dumps(result))
        return
    table = Table(title=f"{info.title}: {name} against the pool, {games} games at {players} players")
    for column in ("strategy", "games", "wins", "win rate (95%)", "OpenSkill μ ± σ",
                   "deals offered/accepted/kept", "invalid", "tokens in/out"):
        # folded, never cut short with an ellipsis, where the output is narrower than the table
        # (a file or a pipe is 80 columns wide)
        table.add_column(column, justify="left" if column == "strategy" else "right", overflow="fold")
    for entry in result["leaderboard"]:
        llm = entry["language_model"]
        table.add_row(
            entry["strategy"], str(entry["games"]), str(entry["wins"]),
            f"{entry['win_rate']:.2f} ({entry['win_low']:.2f}–{entry['win_high']:.2f})",
            f"{entry['mu']:.1f} ± {entry['sigma']:.1f}" if entry["mu"] is not None else "—",
            f"{entry['deals_offered']}/{entry['deals_accepted']}/{entry['deals_kept']}" if llm else "—",
            str(entry["invalid"]) if llm else "—",
            f"{entry['tokens_in']:,}/{entry['tokens_out']:,}" if llm else "—")
    console.print(table)
    console.print(f"report: {out}")
