"""What every game's study asks: which strategy wins, whether a seat has an advantage, and how
long games last; with the helpers the game-specific experiments share."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tricolore.agents import SEARCH, strategy_names
from tricolore.core.registry import get_game
from tricolore.sim import figures
from tricolore.sim.batch import BatchSpec, GameRow
from tricolore.sim.report import Table, box_figure, histograms_figure
from tricolore.sim.stats import Estimate, games, mean, rate
from tricolore.sim.study import Arm, Experiment, Finding, Rows


@dataclass(frozen=True, slots=True)
class Setup:
    """The size of a study: games per arm, players at the table, the first seed."""

    game: str
    games: int
    players: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    def arm(
        self,
        key: str,
        label: str,
        seats: Sequence[str],
        *,
        pool: bool = False,
        options: Mapping[str, Any] | None = None,
    ) -> Arm:
        """An arm of this study: ``seats`` one strategy per seat (turned from game to game) or,
        with ``pool``, the strategies each game draws its seats from."""
        spec = BatchSpec(
            self.game,
            tuple(seats),
            self.games,
            self.seed,
            {**self.options, **(options or {})},
            players_in_pool=self.players if pool else None,
        )
        return Arm(key, label, spec)

    def strategies(self) -> list[str]:
        """The game's named strategies and random (the search is left to tournaments: its
        games take minutes, not milliseconds)."""
        return [s for s in strategy_names(get_game(self.game)) if s != SEARCH]

    def mixed(self, key: str = "mixed", label: str = "every strategy", **options: Any) -> Arm:
        """Every named strategy and random, drawn and turned so each sits in every seat alike."""
        return self.arm(key, label, self.strategies(), pool=True, options=options)


# -- reading rows -----------------------------------------------------------------------------------
def strategy_rates(rows: Sequence[GameRow]) -> dict[str, Estimate]:
    """Each strategy's win rate over its seat-games (a shared win counts as a win), best first."""
    seats: dict[str, list[int]] = {}
    for row in rows:
        for seat, strategy in enumerate(row.strategies):
            seats.setdefault(strategy, []).append(seat in row.winners)
    rates = {s: rate(sum(w), len(w)) for s, w in seats.items()}
    return dict(sorted(rates.items(), key=lambda kv: -kv[1].value))


def seat_rates(rows: Sequence[GameRow]) -> list[Estimate]:
    """Each seat position's win rate, whoever sat there."""
    players = len(rows[0].strategies)
    return [rate(sum(seat in r.winners for r in rows), len(rows)) for seat in range(players)]


def role_rates(rows: Sequence[GameRow]) -> dict[str, Estimate]:
    """Each secret side's win rate over the seat-games played on that side."""
    sides: dict[str, list[int]] = {}
    for row in rows:
        for seat, role in enumerate(row.roles):
            sides.setdefault(role, []).append(seat in row.winners)
    return {r: rate(sum(w), len(w)) for r, w in sorted(sides.items())}


def side_wins(rows: Sequence[GameRow], role: str) -> Estimate:
    """The share of games in which at least one seat of ``role`` is among the winners."""
    return rate(sum(any(row.roles[w] == role for w in row.winners) for row in rows), len(rows))


def metric(rows: Sequence[GameRow], name: str) -> list[float]:
    """One game metric over the rows (0 where a game lacks it)."""
    return [float(r.metrics.get(name, 0.0)) for r in rows]


def scores_of(rows: Sequence[GameRow], strategy: str) -> list[float]:
    """Every score ``strategy`` made, one per seat it held."""
    return [r.scores[s] for r in rows for s, name in enumerate(r.strategies) if name == strategy]


def rate_table(heading: str, rates: Mapping[str, Estimate], unit: str = "seat-games") -> Table:
    """A table of rates: name, rate, interval, count."""
    return Table(
        [heading, "win rate", "95% interval", unit],
        [
            [name, f"{100 * e.value:.1f}%", f"{100 * e.low:.1f}–{100 * e.high:.1f}%", f"{e.n:,}"]
            for name, e in rates.items()
        ],
    )


def mean_table(heading: str, means: Mapping[str, Estimate], what: str) -> Table:
    """A table of means: name, mean, interval, count."""
    return Table(
        [heading, what, "95% interval", "games"],
        [[name, f"{e.value:.2f}", f"{e.low:.2f}–{e.high:.2f}", f"{e.n:,}"] for name, e in means.items()],
    )


# -- the experiments every game runs ----------------------------------------------------------------
def strategies_experiment(arm: Arm) -> Experiment:
    """Which named strategy dominates a table where every strategy sits in every seat alike."""

    def analyse(rows: Rows) -> Finding:
        played = rows[arm.key]
        rates = strategy_rates(played)
        names = list(rates)
        best, runner_up = names[0], names[1]
        claims = [
            f"{best} wins {rates[best].percent()} of its {rates[best].n:,} seat-games, "
            f"{runner_up} {rates[runner_up].percent()} of {rates[runner_up].n:,}, and random "
            f"{rates['random'].percent()} ({games(len(played))})."
        ]
        if all(rates[best].above(rates[n]) for n in names[1:]):
            claims.append(
                f"{best} dominates this table: its interval lies above every other "
                f"strategy's ({games(len(played))})."
            )
        else:
            close = [n for n in names[1:] if not rates[best].above(rates[n])]
            claims.append(
                f"No strategy clearly dominates: {best}'s interval overlaps "
                f"{', '.join(close)}'s ({games(len(played))})."
            )
        scores = {n: mean(scores_of(played, n)) for n in names}
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"Win rate per strategy ({games(len(played))})",
                    names,
                    [rates[n] for n in names],
                    axis="win rate",
                ),
                box_figure(
                    names,
                    [scores_of(played, n) for n in names],
                    title="Scores per strategy",
                    games=len(played),
                    ylabel="score",
                ),
            ],
            [rate_table("strategy", rates), mean_table("strategy", scores, "mean score")],
            [
                f"{arm.spec.players} players per game, seats drawn from {', '.join(arm.spec.seats)} and "
                "turned from game to game so that every strategy sits in every seat alike."
            ],
        )

    return Experiment(
        "strategies",
        "Which strategy wins",
        "Which named strategy dominates when every strategy sits in every seat alike?",
        (arm,),
        analyse,
    )


def seats_experiment(arm: Arm) -> Experiment:
    """Whether a seat position wins more than the others, whoever sits there."""

    def analyse(rows: Rows) -> Finding:
        played = rows[arm.key]
        rates = seat_rates(played)
        average = sum(e.value for e in rates) / len(rates)
        best = max(range(len(rates)), key=lambda s: rates[s].value)
        worst = min(range(len(rates)), key=lambda s: rates[s].value)
        off = [s + 1 for s, e in enumerate(rates) if e.excludes(average)]
        claims = [
            f"Seat {best + 1} (the {ordinal(best + 1)} to play) wins most often, "
            f"{rates[best].percent()}, and seat {worst + 1} least, {rates[worst].percent()}, "
            f"against an average of {100 * average:.1f}% per seat ({games(len(played))})."
        ]
        claims.append(
            f"Seat{'s' if len(off) > 1 else ''} {', '.join(map(str, off))} "
            f"{'lie' if len(off) > 1 else 'lies'} outside the average: the seat order "
            f"matters ({games(len(played))})."
            if off
            else f"Every seat's interval holds the average: no seat advantage shows in {games(len(played))}."
        )
        labels = [f"seat {s + 1}" for s in range(len(rates))]
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"Win rate per seat ({games(len(played))})",
                    labels,
                    rates,
                    axis="win rate",
                    reference=average,
                    reference_label="average",
                )
            ],
            [rate_table("seat", dict(zip(labels, rates, strict=True)), "games")],
            [
                "Seat 1 plays first. Strategies are turned through the seats, so each seat saw every "
                "strategy equally often."
            ],
        )

    return Experiment(
        "seats", "Seat advantage", "Does a seat position win more often, whoever sits there?", (arm,), analyse
    )


def length_experiment(arm: Arm) -> Experiment:
    """How long games last, in decisions and in the game's own rounds."""

    def analyse(rows: Rows) -> Finding:
        played = rows[arm.key]
        actions = [float(r.actions) for r in played]
        claims = [
            f"A game takes {mean(actions).number(1)} decisions on average (median "
            f"{statistics.median(actions):.0f}, 90% of games under {quantile(actions, 0.9):.0f}; "
            f"{games(len(played))})."
        ]
        samples = {"decisions per game": actions}
        for unit in ("rounds", "turns"):
            if any(unit in r.metrics for r in played):
                values = metric(played, unit)
                claims.append(
                    f"It lasts {mean(values).number(2)} {unit} on average (from "
                    f"{min(values):.0f} to {max(values):.0f}; {games(len(played))})."
                )
                samples[f"{unit} per game"] = values
                break
        figure = histograms_figure(samples, title="Game length", games=len(played), columns=2)
        means = {name: mean(values) for name, values in samples.items()}
        return Finding(claims, [figure], [mean_table("length", means, "mean")])

    return Experiment("length", "Game length", "How long does a game last?", (arm,), analyse)


def compare_experiment(
    key: str, heading: str, question: str, arms: Sequence[Arm], measures: Mapping[str, str]
) -> Experiment:
    """The same table under different rules: each measure (a metric, ``decisions`` for the game's
    length) per arm, with the best strategy of each."""

    def analyse(rows: Rows) -> Finding:
        claims, tables, figs = [], [], []
        for name, what in measures.items():
            values = {
                a.label: mean(
                    [float(r.actions) for r in rows[a.key]]
                    if name == "decisions"
                    else metric(rows[a.key], name)
                )
                for a in arms
            }
            first, *others = arms
            parts = [f"{values[a.label].number(2)} {a.label}" for a in arms]
            differs = [
                a.label
                for a in others
                if values[a.label].above(values[first.label]) or values[first.label].above(values[a.label])
            ]
            same = all(
                [r.actions for r in rows[a.key]] == [r.actions for r in rows[first.key]]
                and metric(rows[a.key], name) == metric(rows[first.key], name)
                for a in others
            )
            verdict = (
                f"the difference from {first.label} is beyond chance for {', '.join(differs)}"
                if differs
                else "every game came out the same: the change does not reach these strategies' play"
                if same
                else "the intervals overlap: no difference shows"
            )
            claims.append(
                f"{what.capitalize()}: {'; '.join(parts)}; {verdict} "
                f"({games(min(len(rows[a.key]) for a in arms))} each)."
            )
            tables.append(mean_table("rules", values, what))
            figs.append(
                figures.estimates_chart(
                    f"{what.capitalize()} ({games(len(rows[first.key]))} each)",
                    list(values),
                    list(values.values()),
                    axis=what,
                    percent=False,
                )
            )
        for a in arms:
            rates = strategy_rates(rows[a.key])
            best = next(iter(rates))
            claims.append(
                f"Under {a.label}, {best} wins most: {rates[best].percent()} of its "
                f"{rates[best].n:,} seat-games."
            )
            tables.append(rate_table(f"strategy ({a.label})", rates))
        return Finding(claims, figs, tables)

    return Experiment(key, heading, question, tuple(arms), analyse)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def standard(setup: Setup) -> tuple[Arm, list[Experiment]]:
    """The mixed arm and the three experiments every study runs on it."""
    arm = setup.mixed()
    return arm, [strategies_experiment(arm), seats_experiment(arm), length_experiment(arm)]
