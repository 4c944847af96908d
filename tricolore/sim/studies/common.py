"""What every game's study asks: which strategy wins, whether a seat has an advantage, and how
long games last; with the helpers the game-specific experiments share."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy

from tricolore.agents import SEARCH, strategy_names
from tricolore.core.registry import get_game
from tricolore.sim import figures
from tricolore.sim.batch import BatchSpec, GameRow
from tricolore.sim.report import Table, box_figure, histograms_figure
from tricolore.sim.stats import (
    Claim,
    Estimate,
    binomial_test,
    bootstrap,
    chi_square_uniform,
    excluded_effect,
    games,
    mean,
    one_sample_test,
    paired_difference,
    rate,
)
from tricolore.sim.study import Arm, Experiment, Finding, Rows, Study


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


@dataclass(frozen=True, slots=True)
class GameStudy:
    """A game's study, as its ``study.py`` declares it (``STUDY``): the function that builds the
    experiments for a :class:`Setup`, the table size it plays at by default (a typical table of
    the game) and the games per arm by default (enough for intervals of a few points)."""

    build: Callable[[Setup], Study]
    players: int
    games: int


# -- reading rows -----------------------------------------------------------------------------------
def win_shares(row: GameRow) -> list[float]:
    """Each seat's win share in a game: 1 for a lone winner, 1/k for each of k seats sharing the
    win, 0 for the others (the shares of a game add up to 1)."""
    k = len(row.winners)
    return [1.0 / k if seat in row.winners else 0.0 for seat in range(len(row.strategies))]


@dataclass(frozen=True, slots=True)
class SeatMeasure:
    """A per-seat figure (a win share, a score) of some seats over many games: the mean over
    every seat-game, with an interval that treats the seats of one game together."""

    estimate: Estimate
    per_game: list[float]
    """The mean over the chosen seats of each game that has any."""
    seeds: list[int]
    seat_games: int

    @property
    def games(self) -> int:
        """Games with at least one chosen seat."""
        return len(self.per_game)


def seat_measure(
    rows: Sequence[GameRow],
    chosen: Callable[[GameRow, int], bool],
    value: Callable[[GameRow, int], float] | None = None,
) -> SeatMeasure:
    """``value`` over the seats ``chosen`` picks (by default each seat's win share). When every
    game has the same number of chosen seats the interval is a t interval over the per-game means;
    otherwise (copies of a strategy at some tables only) a bootstrap over games of the ratio of
    sums, so that copies in one game are not counted as independent games."""
    share = value is None
    measure = value or (lambda row, seat: win_shares(row)[seat])
    sums: list[float] = []
    counts: list[int] = []
    seeds: list[int] = []
    for row in rows:
        seats = [s for s in range(len(row.strategies)) if chosen(row, s)]
        if seats:
            sums.append(sum(measure(row, s) for s in seats))
            counts.append(len(seats))
            seeds.append(row.seed)
    per_game = [t / c for t, c in zip(sums, counts, strict=True)]
    total = sum(counts)
    if share and set(counts) == {1} and all(v in (0.0, 1.0) for v in per_game):
        estimate = rate(sum(per_game), total)  # one seat a game, no shared win: a plain rate
    elif len(set(counts)) <= 1:
        centre = mean(per_game)
        estimate = Estimate(centre.value, centre.low, centre.high, total)
    else:
        pairs = numpy.array([sums, counts], dtype=float).T
        ratio = bootstrap(pairs, lambda a: float(a[:, 0].sum() / a[:, 1].sum()))
        estimate = Estimate(ratio.value, ratio.low, ratio.high, total)
    if share:  # a t interval of a share can reach past 0 or 1
        estimate = Estimate(estimate.value, max(0.0, estimate.low), min(1.0, estimate.high), total)
    return SeatMeasure(estimate, per_game, seeds, total)


def played_by(strategy: str) -> Callable[[GameRow, int], bool]:
    """Chooses the seats ``strategy`` held."""
    return lambda row, seat: row.strategies[seat] == strategy


def position(place: int) -> Callable[[GameRow, int], bool]:
    """Chooses the seat at ``place`` (0 plays first), whoever held it."""
    return lambda _row, seat: seat == place


def score(row: GameRow, seat: int) -> float:
    """The seat's score."""
    return row.scores[seat]


def strategy_shares(rows: Sequence[GameRow]) -> dict[str, SeatMeasure]:
    """Each strategy's win share per seat-game, best first."""
    names = sorted({s for row in rows for s in row.strategies})
    shares = {n: seat_measure(rows, played_by(n)) for n in names}
    return dict(sorted(shares.items(), key=lambda kv: -kv[1].estimate.value))


def strategy_scores(rows: Sequence[GameRow], names: Sequence[str]) -> dict[str, SeatMeasure]:
    """Each strategy's score per seat-game."""
    return {n: seat_measure(rows, played_by(n), score) for n in names}


def metric(rows: Sequence[GameRow], name: str) -> list[float]:
    """One game metric over the rows (0 where a game lacks it)."""
    return [float(r.metrics.get(name, 0.0)) for r in rows]


def by_seed(a: Sequence[GameRow], b: Sequence[GameRow]) -> list[tuple[GameRow, GameRow]]:
    """The games of two arms paired on their seed (seeds only one arm has are left out)."""
    other = {r.seed: r for r in b}
    return [(r, other[r.seed]) for r in a if r.seed in other]


def same_play(a: Sequence[GameRow], b: Sequence[GameRow]) -> bool:
    """Whether two arms played every game alike: for every seed the same line-up, the same number
    of decisions and the same game metrics (what the play produced, before any scoring)."""
    pairs = by_seed(a, b)
    return len(pairs) == len(a) == len(b) and all(
        x.strategies == y.strategies
        and x.actions == y.actions
        and x.metrics == y.metrics
        and x.roles == y.roles
        for x, y in pairs
    )


def cannot_show(rule: str, control: Sequence[GameRow], changed: Sequence[GameRow]) -> Claim:
    """The claim of an arm whose games were played exactly as its control's: nothing in it can
    speak about ``rule``."""
    moved = sum(x.scores != y.scores for x, y in by_seed(control, changed))
    winners = sum(x.winners != y.winners for x, y in by_seed(control, changed))
    text = (
        f"This experiment cannot show anything about {rule}: no strategy in it reads the option, so "
        "every game came out the same"
    )
    if moved:
        text += (
            f" (the same decisions in every game; only the final scoring differed, in {moved:,} games, "
            f"changing the winners of {winners:,})"
        )
    return Claim(text, len(control), test="the games of both batches compared seed by seed", cannot=True)


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[Estimate, float]:
    """The paired difference ``a - b`` and the p-value of the paired t-test that it is zero."""
    gap = paired_difference(a, b)
    return gap, one_sample_test([x - y for x, y in zip(a, b, strict=True)], 0.0)


PAIRED = "paired t-test on the per-game differences"
ONE_SAMPLE = "one-sample t-test of the per-game win share of these seats against the fair share"
EXACT = "exact binomial test of the wins against the fair share"


def bound(estimate: Estimate, percent: bool) -> str:
    """The largest effect a null result leaves possible, in the estimate's unit."""
    x = excluded_effect(estimate)
    return f"{100 * x:.1f} points" if percent else f"{x:.2f}"


def no_difference(what: str, estimate: Estimate, n: int, percent: bool, unit: str = "games") -> str:
    """A null result with its power and its interval: "no difference in WHAT larger than X at 95%
    confidence (the difference: D [LOW–HIGH]) with N games"."""
    measured = estimate.points() if percent else estimate.number()
    return (
        f"no difference in {what} larger than {bound(estimate, percent)} at 95% confidence "
        f"(the difference: {measured}) with {n:,} {unit}"
    )


def fair_share_claim(subject: str, measure: SeatMeasure, fair: float, *, single_seats: bool = False) -> Claim:
    """Whether ``subject``'s seats take more or less than the fair share of the win. With
    ``single_seats`` (one such seat per game) and no shared win, the test is the exact binomial
    test; otherwise a one-sample t-test of the per-game win shares."""
    e = measure.estimate
    whole = all(v in (0.0, 1.0) for v in measure.per_game)
    if single_seats and whole:
        test, p = EXACT, binomial_test(round(sum(measure.per_game)), measure.games, fair)
    else:
        test, p = ONE_SAMPLE, one_sample_test(measure.per_game, fair)
    side = "more" if e.value > fair else "less"
    gap = Estimate(e.value - fair, e.low - fair, e.high - fair, e.n)
    return Claim(
        f"{subject} takes a win share of {e.percent()} per seat-game, {side} than the fair share of "
        f"{100 * fair:.1f}%",
        measure.games,
        e,
        seat_games=measure.seat_games,
        test=test,
        p=p,
        not_shown=f"{subject} takes a win share of {e.percent()} per seat-game: "
        + no_difference(f"win share from the fair share of {100 * fair:.1f}%", gap, measure.games, True),
    )


def measure_table(
    heading: str, measures: Mapping[str, SeatMeasure], what: str, percent: bool = True
) -> Table:
    """A table of per-seat figures: name, figure, interval, seat-games and games."""

    def show(x: float) -> str:
        return f"{100 * x:.1f}%" if percent else f"{x:.2f}"

    return Table(
        [heading, what, "95% interval", "seat-games", "games"],
        [
            [
                name,
                show(m.estimate.value),
                f"{show(m.estimate.low)}–{show(m.estimate.high)}",
                f"{m.seat_games:,}",
                f"{m.games:,}",
            ]
            for name, m in measures.items()
        ],
    )


def estimate_table(heading: str, estimates: Mapping[str, Estimate], what: str, unit: str = "games") -> Table:
    """A table of estimates: name, figure, interval, count (games unless ``unit`` says otherwise)."""
    return Table(
        [heading, what, "95% interval", unit],
        [[name, f"{e.value:.2f}", f"{e.low:.2f}–{e.high:.2f}", f"{e.n:,}"] for name, e in estimates.items()],
    )


def copies_note(arm: Arm) -> list[str]:
    """Say so when a table has more seats than the pool has strategies."""
    pool = len(arm.spec.seats)
    if not arm.spec.pool or arm.spec.players <= pool:
        return []
    return [
        f"The table has {arm.spec.players} seats and the pool {pool} strategies, so every game seats "
        "copies of the same strategy. Each strategy is counted per seat-game (one seat in one game), "
        "and its interval treats the seats it holds in one game together, so copies are not "
        "credited as separate games."
    ]


WIN_SHARE_NOTE = (
    "A seat's win share is 1 when it wins alone, 1/k when it shares the win with k − 1 other seats, "
    "and 0 otherwise; at a table of n players the fair share is 1/n."
)


# -- the experiments every game runs ----------------------------------------------------------------
def strategies_experiment(arm: Arm) -> Experiment:
    """Which named strategy wins most where every strategy sits in every seat alike, and whether it
    dominates (paired tests against every other strategy, corrected with the study's family)."""

    def analyse(rows: Rows) -> Finding:
        played = rows[arm.key]
        fair = 1 / arm.spec.players
        shares = strategy_shares(played)
        names = list(shares)
        claims = [fair_share_claim(n, shares[n], fair) for n in names]
        best = names[0]
        pairwise: list[Claim] = []
        gaps: dict[str, Estimate] = {}
        for other in names[1:]:
            a, b = shares[best], shares[other]
            common = dict(zip(b.seeds, b.per_game, strict=True))
            mine = [(v, common[s]) for s, v in zip(a.seeds, a.per_game, strict=True) if s in common]
            if len(mine) < 2:
                pairwise.append(
                    Claim(
                        f"{best} and {other} sat together in {len(mine)} of the games, too few to compare "
                        "them game by game",
                        len(mine),
                        test="no paired test possible",
                        cannot=True,
                    )
                )
                continue
            gap, p = paired([x for x, _ in mine], [y for _, y in mine])
            gaps[f"{best} − {other}"] = gap
            pairwise.append(
                Claim(
                    f"{best} takes a larger win share than {other}, {gap.points()} per seat-game",
                    len(mine),
                    gap,
                    test=PAIRED + " (games where both sat)",
                    p=p,
                    not_shown=f"{best} against {other}: " + no_difference("win share", gap, len(mine), True),
                )
            )
        claims.extend(pairwise)
        claims.append(
            Claim(
                f"{best} dominates this table: it takes a larger win share than every other strategy",
                len(played),
                test=f"each of the {len(pairwise)} paired tests above, after correction",
                requires=tuple(pairwise),
                not_shown=f"No strategy is shown to dominate: {best}, the highest win share, is not "
                "shown to beat every other strategy",
            )
        )
        scores = strategy_scores(played, names)
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"Win share per seat-game ({games(len(played))})",
                    names,
                    [shares[n].estimate for n in names],
                    axis="win share",
                    reference=fair,
                    reference_label="fair share",
                ),
                figures.forest_chart(
                    f"{best}'s win share minus each other strategy's, paired by game ({games(len(played))})",
                    list(gaps),
                    list(gaps.values()),
                    axis="difference in win share",
                    percent=True,
                ),
                box_figure(
                    names,
                    [
                        [r.scores[s] for r in played for s, x in enumerate(r.strategies) if x == n]
                        for n in names
                    ],
                    title="Scores per strategy",
                    games=len(played),
                    ylabel="score",
                ),
            ],
            [
                measure_table("strategy", {n: shares[n] for n in names}, "win share"),
                measure_table("strategy", scores, "mean score", percent=False),
            ],
            [
                f"{arm.spec.players} players per game, seats drawn from {', '.join(arm.spec.seats)} and "
                "turned from game to game so that every strategy sits in every seat alike.",
                WIN_SHARE_NOTE,
                "Dominance rests on the paired tests of the best strategy against each other one, "
                "game by game, in the study's corrected family; overlapping or separate intervals "
                "are not used as a test.",
                *copies_note(arm),
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
    """Whether a seat position wins more than the others, whoever sits there: first as a whole
    (chi-square test of uniformity), then seat by seat only if that holds."""

    def analyse(rows: Rows) -> Finding:
        played = rows[arm.key]
        players = arm.spec.players
        fair = 1 / players
        measures = [seat_measure(played, position(s)) for s in range(players)]
        totals = [sum(m.per_game) for m in measures]
        whole = Claim(
            "The seat order matters: the win shares of the seats are not uniform",
            len(played),
            test="chi-square test of uniformity of the seats' win shares",
            p=chi_square_uniform(totals),
            not_shown="No seat advantage is shown: the seats' win shares are not shown to differ from "
            "uniform",
        )
        claims = [whole]
        for s, m in enumerate(measures):
            claim = fair_share_claim(
                f"Seat {s + 1} (the {ordinal(s + 1)} to play)", m, fair, single_seats=True
            )
            claims.append(
                Claim(
                    claim.shown,
                    claim.games,
                    claim.estimate,
                    seat_games=None,
                    test=claim.test,
                    p=claim.p,
                    not_shown=claim.not_shown,
                    requires=(whole,),
                )
            )
        labels = [f"seat {s + 1}" for s in range(players)]
        estimates = [m.estimate for m in measures]
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"Win share per seat ({games(len(played))})",
                    labels,
                    estimates,
                    axis="win share",
                    reference=fair,
                    reference_label="fair share",
                )
            ],
            [measure_table("seat", dict(zip(labels, measures, strict=True)), "win share")],
            [
                "Seat 1 plays first. Strategies are turned through the seats, so each seat saw every "
                "strategy equally often.",
                WIN_SHARE_NOTE,
                "A seat is named only when the test of all seats together holds after correction; "
                "each seat's own test is in the same corrected family.",
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
            Claim(
                f"A game takes {mean(actions).number(1)} decisions on average (median "
                f"{statistics.median(actions):.0f}, 90% of games under {quantile(actions, 0.9):.0f})",
                len(played),
                mean(actions),
            )
        ]
        samples = {"decisions per game": actions}
        for unit in ("rounds", "turns"):
            if any(unit in r.metrics for r in played):
                values = metric(played, unit)
                claims.append(
                    Claim(
                        f"It lasts {mean(values).number(2)} {unit} on average (from "
                        f"{min(values):.0f} to {max(values):.0f})",
                        len(played),
                        mean(values),
                    )
                )
                samples[f"{unit} per game"] = values
                break
        figure = histograms_figure(samples, title="Game length", games=len(played), columns=2)
        means = {name: mean(values) for name, values in samples.items()}
        return Finding(claims, [figure], [estimate_table("length", means, "mean")])

    return Experiment("length", "Game length", "How long does a game last?", (arm,), analyse)


def measure_of(rows: Sequence[GameRow], name: str) -> list[float]:
    """A game measure: ``decisions`` (the game's length) or one of its metrics."""
    return [float(r.actions) for r in rows] if name == "decisions" else metric(rows, name)


def compare_experiment(
    key: str, heading: str, question: str, arms: Sequence[Arm], measures: Mapping[str, str], rule: str
) -> Experiment:
    """The same table under different rules (the first arm is the control, ``rule`` names what the
    others change): each measure (a metric, ``decisions`` for the game's length) compared game by
    game on the seed, and each strategy's win share under each rule."""

    def analyse(rows: Rows) -> Finding:
        claims: list[Claim] = []
        tables: list[Table] = []
        figs: list[str] = []
        first, *others = arms
        control = rows[first.key]
        for a in others:
            if same_play(control, rows[a.key]):
                claims.append(cannot_show(rule, control, rows[a.key]))
                continue
            pairs = by_seed(control, rows[a.key])
            for name, what in measures.items():
                base = measure_of([x for x, _ in pairs], name)
                changed = measure_of([y for _, y in pairs], name)
                gap, p = paired(changed, base)
                side = "raises" if gap.value > 0 else "lowers"
                claims.append(
                    Claim(
                        f"{a.label.capitalize()} {side} the {what} from {mean(base).number(2)} to "
                        f"{mean(changed).number(2)}, by {gap.number(2)} per game against {first.label}",
                        len(pairs),
                        gap,
                        test=PAIRED + " (paired on the seed)",
                        p=p,
                        not_shown=f"{a.label.capitalize()} against {first.label}: "
                        + no_difference(what, gap, len(pairs), False)
                        + f" ({mean(base).number(2)} and {mean(changed).number(2)})",
                    )
                )
        for name, what in measures.items():
            values = {a.label: mean(measure_of(rows[a.key], name)) for a in arms}
            tables.append(estimate_table("rules", values, what))
            figs.append(
                figures.estimates_chart(
                    f"{what.capitalize()} ({games(len(control))} each)",
                    list(values),
                    list(values.values()),
                    axis=what,
                    percent=False,
                )
            )
        for a in arms:
            shares = strategy_shares(rows[a.key])
            best, top = next(iter(shares.items()))
            claims.append(
                Claim(
                    f"Under {a.label}, {best} has the highest win share, "
                    f"{top.estimate.percent()} per seat-game",
                    top.games,
                    top.estimate,
                    seat_games=top.seat_games,
                )
            )
            tables.append(measure_table(f"strategy ({a.label})", shares, "win share"))
        notes = [
            "Every batch plays the same seeds with the same line-ups, so each measure is compared game "
            "by game (the paired difference of the two games of each seed).",
            WIN_SHARE_NOTE,
            *copies_note(first),
        ]
        if any(c.cannot for c in claims):
            notes.append(
                "The experiment is kept although it shows nothing about the rule: saying so is the "
                "finding until a strategy that reads the option joins the table."
            )
        return Finding(claims, figs, tables, notes)

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
