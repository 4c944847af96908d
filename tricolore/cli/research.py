"""``tricolore empirical``: the empirical game of a set of strategies, solved and reported.

The command's helpers (one-sentence errors, options, worker checks) are those of
:mod:`tricolore.cli.main`, imported when the command runs since that module registers this one.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from tricolore.agents.params import split as split_strategies
from tricolore.cli.options import BackendArg, OptionArg, RayAddressArg, WorkersArg

QUICK_RESAMPLES = 20
"""Bootstrap resamples of a ``--quick`` run."""
QUICK_STRATEGIES = 4
"""Strategies a ``--quick`` run of the empirical game plays when none are named: the game's first
named ones."""


def default_players(low: int, high: int) -> int:
    """Five players, or the nearest count the game allows."""
    return min(max(5, low), high)


def empirical(
    game: Annotated[str, typer.Argument(help="The game whose strategies to compare.")],
    strategies: Annotated[str | None, typer.Option(
        help="Comma-separated strategies, e.g. a,b:key=value,c (default: the game's named "
             "strategies).")] = None,
    players: Annotated[int | None, typer.Option(
        help="Players at each table (default: 5, or the nearest the game allows).")] = None,
    games: Annotated[int | None, typer.Option(
        help="Games per profile, rounded up to a multiple of --players (default: 200, fewer when "
             "the profiles are many: 50,000 games in all).")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Folder for the rows, empirical.json and report.html (default: empirical-GAME).")] = None,
    quick: Annotated[bool, typer.Option(
        help="The game's first four named strategies (unless --strategies names others), one turn "
             "of the seats per profile (one game when the profiles are many) and few resamples: "
             "every figure quickly, proves nothing.")] = False,
    payoff: Annotated[str, typer.Option(
        help="A seat's payoff: win (its share of the win: 1/k to each of k winners) or score.")] = "win",
    seed: Annotated[int, typer.Option(help="Seed of the first game of every profile.")] = 0,
    resamples: Annotated[int | None, typer.Option(
        help="Bootstrap resamples for the intervals (default: 200, or 20 with --quick).")] = None,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print empirical.json instead of the claims.")] = False,
    backend: BackendArg = "local",
    ray_address: RayAddressArg = None,
    workers: WorkersArg = None,
) -> None:
    """Play every line-up of the strategies, solve the empirical game and report it.

    Every profile (multiset of strategies over the seats) plays the same seeds; the table of mean
    payoffs gives a symmetric equilibrium with its regret, each strategy's regret against it,
    replicator dynamics and α-Rank, with bootstrap intervals. An interrupted run resumes when the
    same command is run again.
    """
    import tricolore
    from tricolore.agents import strategy_parameters
    from tricolore.cli.main import (
        Refused,
        check_games,
        check_workers,
        clear_errors,
        console,
        games_bar,
        parse_options,
        stop_run,
    )
    from tricolore.core import get_game
    from tricolore.sim import egta
    from tricolore.sim.backends import BackendError
    from tricolore.sim.egta_figures import claims, empirical_page
    from tricolore.sim.results import ResultsError

    with clear_errors():
        g = get_game(game)
        if quick and games is not None:
            raise Refused("--quick sets the number of games; give --quick or --games, not both")
        if games is not None:
            check_games(games)
        check_workers(workers)
        if payoff not in egta.PAYOFFS:
            raise Refused(f"--payoff must be one of {', '.join(egta.PAYOFFS)}; you gave {payoff!r:.40}")
        if resamples is not None and not 1 <= resamples <= 10_000:
            raise Refused("--resamples must be from 1 to 10,000")
        info = g.info
        if players is None:
            players = default_players(info.min_players, info.max_players)
        elif not info.min_players <= players <= info.max_players:
            raise Refused(f"{info.title} is played by {info.min_players} to {info.max_players} players, "
                          f"not {players}")
        options = parse_options(option)
        g.new(players, seed, options)  # the options, checked before any game is played
        if strategies is None:
            # a smoke run plays the first few only: every profile of them, in seconds
            names = list(g.strategies)[:QUICK_STRATEGIES] if quick else list(g.strategies)
        else:
            names = [s for s in split_strategies(strategies) if s]
            if not names:
                raise Refused("--strategies names no strategy; write e.g. random,honest-revolutionary")
        names = list(egta.canonical_strategies(game, names))
        folder = out if out is not None else Path(f"empirical-{game}")
        if folder.exists() and not folder.is_dir():
            raise Refused(f"--out must name a folder; {folder} is a file")
        count = len(egta.profiles(len(names), players))
        if quick:
            per_profile = egta.quick_games(count, players)
        elif games is not None:
            per_profile = egta.rounded_games(games, players)
        else:
            per_profile = egta.default_games(count, players)
        asked_resamples = resamples
        resamples = resamples or (QUICK_RESAMPLES if quick else egta.RESAMPLES)
        command = " ".join([
            "tricolore empirical", game, *([f"--strategies {','.join(names)}"] if strategies else []),
            f"--players {players}", *(["--quick"] if quick else [f"--games {per_profile}"]),
            *(["--payoff score"] if payoff != "win" else []), *([f"--seed {seed}"] if seed else []),
            *(f"--option {o}" for o in option or []),
            *([f"--resamples {resamples}"] if asked_resamples else []),
        ])
        started = time.monotonic()
        try:
            with games_bar(f"{game}: {count} profiles", count * per_profile, quiet=as_json) as advance:
                eg = egta.build(game, names, players, games_per_profile=per_profile, seed=seed,
                                options=options, payoff=payoff, backend=backend, workers=workers,
                                address=ray_address, folder=folder, progress=advance)
        except (BackendError, ResultsError) as exc:
            raise Refused(str(exc)) from None
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (which has a signum)
            stop_run(getattr(exc, "signum", None),
                     f"the profiles finished are kept in {folder}; run the same command again to resume")
        played = time.monotonic() - started
        analysis = egta.analyse(eg, resamples=resamples, seed=seed)
        table = egta.to_json(eg)
        summary: dict[str, Any] = {
            "command": command,
            "game": game,
            "rules_version": info.rules_version,
            "tricolore_version": tricolore.__version__,
            "players": players,
            "payoff": payoff,
            "seed": seed,
            "options": options,
            "strategies": [{"name": s, "parameters": strategy_parameters(g, s)} for s in names],
            "profiles": count,
            "games_per_profile": per_profile,
            "games_played": eg.games_played(),
            "seconds": round(played, 1),
            **egta.analysis_json(eg, analysis),
            "table": table["profiles"],
        }
        shares = egta.role_shares(folder, names)
        if shares:
            summary["role_shares"] = shares
            summary["roles_at_equilibrium"] = egta.roles_at(shares, names, analysis.equilibrium)
        (folder / "empirical.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
        report = folder / "report.html"
        report.write_text(empirical_page(eg, analysis, command), encoding="utf-8")
        if as_json:
            print(json.dumps(summary, indent=2))
            return
        for claim in claims(eg, analysis):
            console.print(f"- {claim}", soft_wrap=True)
        console.print(f"report written to {report}, the table and analysis to {folder / 'empirical.json'}",
                      soft_wrap=True)


DEFAULT_POOL = 4
"""Strategies a ``psro`` run starts from when none are named: the game's first named ones (the
empirical game grows with the pool, as C(strategies + players - 1, players) profiles)."""


def psro(
    game: Annotated[str, typer.Argument(help="The game to search for best responses in.")],
    strategies: Annotated[str | None, typer.Option(
        help=f"Comma-separated strategies the pool starts from, e.g. a,b:key=value (default: the "
             f"game's first {DEFAULT_POOL} named strategies).")] = None,
    players: Annotated[int | None, typer.Option(
        help="Players at each table (default: 5, or the nearest the game allows).")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Folder for psro.json, report.html and the empirical game's rows (default: psro-GAME).")] = None,
    quick: Annotated[bool, typer.Option(
        help="A handful of games everywhere: every figure in well under a minute, proves nothing.")] = False,
    iterations: Annotated[int | None, typer.Option(
        help="Most best responses to search for (default: 4, or 2 with --quick).")] = None,
    games: Annotated[int | None, typer.Option(
        help="Selection games per candidate of the parameter search, rounded up to a multiple of "
             "--players (default: 100).")] = None,
    validation_games: Annotated[int | None, typer.Option(
        help="Fresh games the best candidate is judged on (default: 600).")] = None,
    games_per_profile: Annotated[int | None, typer.Option(
        help="Games per profile of the empirical game (default: 50).")] = None,
    search: Annotated[str, typer.Option(
        help="The search agent also tried against each mixture, or 'none'.")] = "ismcts:10",
    search_games: Annotated[int | None, typer.Option(
        help="Selection games of the search agent (default: 20); it is judged on five times as "
             "many.")] = None,
    minutes: Annotated[float, typer.Option(
        help="Time budget: no iteration starts, and no strategy is added, past it.")] = 15.0,
    payoff: Annotated[str, typer.Option(
        help="A seat's payoff: win (its share of the win: 1/k to each of k winners) or score.")] = "win",
    seed: Annotated[int, typer.Option(help="Seed of the first game; every other seed follows from it.")] = 0,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print psro.json instead of the findings.")] = False,
    backend: BackendArg = "local",
    ray_address: RayAddressArg = None,
    workers: WorkersArg = None,
) -> None:
    """Search for strategies that beat the pool's equilibrium (policy-space response oracles).

    Each iteration solves the pool's empirical game, searches every named strategy family's
    parameters (cross-entropy method, common random numbers) and tries the search agent against
    the equilibrium mixture, judges the best candidate on fresh games with a paired one-sided
    test, and adds it to the pool only if it wins significantly more than the mixture.
    """
    from tricolore.cli.main import (
        Refused,
        check_workers,
        clear_errors,
        console,
        errors,
        parse_options,
        stop_run,
    )
    from tricolore.core import get_game
    from tricolore.sim import psro as loop
    from tricolore.sim.backends import BackendError
    from tricolore.sim.results import ResultsError

    with clear_errors():
        g = get_game(game)
        info = g.info
        if players is None:
            players = default_players(info.min_players, info.max_players)
        elif not info.min_players <= players <= info.max_players:
            raise Refused(f"{info.title} is played by {info.min_players} to {info.max_players} players, "
                          f"not {players}")
        check_workers(workers)
        for name, value in (("--games", games), ("--validation-games", validation_games),
                            ("--games-per-profile", games_per_profile), ("--search-games", search_games),
                            ("--iterations", iterations)):
            if value is not None and not 1 <= value <= 1_000_000:
                raise Refused(f"{name} must be from 1 to 1,000,000")
        if not 0 < minutes <= 7 * 24 * 60:
            raise Refused("--minutes must be more than 0 and at most a week")
        options = parse_options(option)
        names = ([s for s in split_strategies(strategies) if s] if strategies is not None
                 else list(g.strategies)[:DEFAULT_POOL])
        if not names:
            raise Refused("--strategies names no strategy; write e.g. honest-revolutionary,skeptic")
        if len(set(names)) != len(names):
            raise Refused("--strategies names a strategy twice; name each once")
        agent = None if search.strip().lower() == "none" else search.strip()
        table = players
        settings = loop.Settings(
            iterations=iterations or (2 if quick else 4),
            games=games or (table * 2 if quick else 100),
            population=4 if quick else 12,
            generations=2 if quick else 4,
            validation_games=validation_games or (table * 4 if quick else 600),
            search=agent if not quick or agent is None else "ismcts:5",
            search_games=search_games or (table if quick else 20),
            search_validation_games=5 * (search_games or (table if quick else 20)),
            seconds=60 * minutes,
        )
        per_profile = games_per_profile or (table if quick else 50)
        folder = out if out is not None else Path(f"psro-{game}")
        if folder.exists() and not folder.is_dir():
            raise Refused(f"--out must name a folder; {folder} is a file")
        command = " ".join([
            "tricolore psro", game, f"--strategies {','.join(names)}", f"--players {players}",
            *(["--quick"] if quick else []),
            *(f"--{k.replace('_', '-')} {v}" for k, v in (
                ("iterations", iterations), ("games", games), ("validation_games", validation_games),
                ("games_per_profile", games_per_profile), ("search_games", search_games)) if v is not None),
            *([f"--search {search}"] if search != "ismcts:10" else []),
            f"--minutes {minutes:g}", *(["--payoff score"] if payoff != "win" else []),
            *([f"--seed {seed}"] if seed else []), *(f"--option {o}" for o in option or []),
        ])
        started = time.monotonic()

        def say(text: str) -> None:
            if not as_json:
                errors.print(f"[{time.monotonic() - started:6.0f} s] {text}", soft_wrap=True)

        try:
            result = loop.psro(game, names, players, settings=settings, games_per_profile=per_profile,
                               seed=seed, options=options, payoff=payoff, backend=backend, workers=workers,
                               address=ray_address, folder=folder, progress=say, command=command)
        except (BackendError, ResultsError) as exc:
            raise Refused(str(exc)) from None
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (which has a signum)
            stop_run(getattr(exc, "signum", None),
                     f"the empirical game's games are kept in {folder} and the iterations finished so "
                     f"far in {folder / 'psro.json'}")
        if as_json:
            print(json.dumps(result.as_json(), indent=2))
            return
        for sentence in result.sentences():
            console.print(f"- {sentence}", soft_wrap=True)
        console.print(f"report written to {folder / 'report.html'}, the run to {folder / 'psro.json'}",
                      soft_wrap=True)
