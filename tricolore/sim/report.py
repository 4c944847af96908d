"""A self-contained HTML report of a results file, built from reusable blocks.

A page is a title, a few paragraphs of introduction and a list of :class:`Section` s; each section
has paragraphs, figures (inline SVG strings made with :func:`svg`) and the :class:`Table` s behind
them. :func:`render_page` turns them into one HTML page that needs no other file, script or font,
and prints as it reads. :func:`results_sections` gives the sections of one results file (win rates,
seat advantage, scores, game lengths, the game's own metrics, roles, ratings and head-to-head), so
a page comparing several runs can take the sections it wants and add its own.

Figures are drawn with matplotlib's object interface (:class:`~matplotlib.figure.Figure`, never
pyplot, so no window or global figure state is involved) and saved as SVG with text kept as text.
Every figure names in its title the number of games behind it.
"""

from __future__ import annotations

import hashlib
import html
import io
import math
import re
import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

import matplotlib
import numpy
from matplotlib.figure import Figure

from tricolore.sim import stats
from tricolore.sim.batch import GameRow, wilson_interval
from tricolore.sim.ratings import Rating, bootstrap, head_to_head, rate, strategies_of

STYLE: dict[str, Any] = {
    "svg.fonttype": "none",  # text stays text: small files, and it can be searched and copied
    "svg.hashsalt": "tricolore",  # the same figure gives the same SVG
    "text.parse_math": False,  # a strategy named "$x$" is shown as written
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 72,
}
"""The matplotlib settings every figure of a report is drawn and saved with."""

ACCENT = "#1f4e79"
FAIR = "#b22222"

LENGTH_METRICS = ("rounds", "turns")
"""Metrics that measure a game's length: shown with the number of actions, not with the others."""


class ReportError(Exception):
    """Rows a report cannot be made of, in one sentence."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table: column ``headers`` and ``rows`` of cells (shown as text, HTML-escaped)."""

    headers: Sequence[str]
    rows: Sequence[Sequence[object]]
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a page: a heading, paragraphs of text, figures (SVG from :func:`svg`) and the
    tables behind them. Text is HTML-escaped when the page is rendered; figures are trusted."""

    heading: str
    paragraphs: Sequence[str] = ()
    figures: Sequence[str] = ()
    tables: Sequence[Table] = ()
    id: str = field(default="")
    """The anchor of the section in the page (made from the heading when empty)."""


# --- figures -------------------------------------------------------------------------------------


@contextmanager
def styled() -> Iterator[None]:
    """Draw under :data:`STYLE` (wrap the whole drawing of a figure, not only its saving)."""
    with matplotlib.rc_context(cast(Any, STYLE)):  # the stubs know every key only as a literal
        yield


def new_figure(width: float, height: float) -> Figure:
    """A blank figure of ``width`` by ``height`` inches, laid out to fit its labels."""
    with styled():
        return Figure(figsize=(width, height), layout="constrained")


_ID = re.compile(r'\bid="([^"]+)"')


def svg(fig: Figure) -> str:
    """The figure as an ``<svg>`` element to put inline in HTML.

    The XML prologue and namespace declarations are dropped (an HTML parser knows SVG), and every
    ``id`` gets a prefix made from the figure's content, so several figures on one page never
    share an id while the same figure always gives the same text.
    """
    with styled():
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = out.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    prefix = "f" + hashlib.sha256(text.encode()).hexdigest()[:8] + "-"
    text = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', text)
    text = text.replace('href="#', f'href="#{prefix}').replace("url(#", f"url(#{prefix}")
    return text.strip()


def _games(n: int) -> str:
    return f"{n:,} game" + ("" if n == 1 else "s")


def rates_figure(
    labels: Sequence[str],
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    *,
    title: str,
    games: int,
    fair: float | None = None,
    xlabel: str = "win rate",
) -> str:
    """Rates (e.g. win rates) as horizontal bars with their intervals, first label on top, and,
    with ``fair``, a line at the fair share; ``games`` is named in the title. Returns SVG."""
    with styled():
        fig = new_figure(6.5, 0.9 + 0.32 * len(labels))
        ax = fig.add_subplot()
        ys = list(range(len(labels)))[::-1]
        low = [max(0.0, r - i[0]) for r, i in zip(rates, intervals, strict=True)]
        high = [max(0.0, i[1] - r) for r, i in zip(rates, intervals, strict=True)]
        ax.barh(ys, rates, color=ACCENT, alpha=0.75, height=0.6)
        ax.errorbar(rates, ys, xerr=[low, high], fmt="none", ecolor="black", capsize=3, lw=1)
        if fair is not None:
            ax.axvline(fair, color=FAIR, ls="--", lw=1, label=f"fair share {fair:.3g}")
            ax.legend(loc="lower right", frameon=False)
        ax.set_yticks(ys, list(labels))
        ax.set_xlim(0, max(1.0, *(i[1] for i in intervals)) if intervals else 1.0)
        ax.set_xlabel(xlabel + " (bars: 95% Wilson interval)")
        ax.set_title(f"{title} ({_games(games)})", loc="left")
        return svg(fig)


def box_figure(
    labels: Sequence[str], samples: Sequence[Sequence[float]], *, title: str, games: int, ylabel: str
) -> str:
    """A box plot per label, side by side (box: quartiles, line: median, whiskers: 1.5 IQR, dots:
    beyond); ``games`` is named in the title. Returns SVG."""
    with styled():
        fig = new_figure(max(4.0, 1.2 + 0.9 * len(labels)), 3.4)
        ax = fig.add_subplot()
        xs = list(range(len(labels)))
        ax.boxplot(
            [list(s) for s in samples],
            positions=xs,
            widths=0.55,
            patch_artist=True,
            boxprops={"facecolor": "#d6e4f0", "edgecolor": ACCENT},
            medianprops={"color": FAIR},
            flierprops={"markersize": 3, "alpha": 0.5},
        )
        crowded = len(labels) > 2 and max(len(label) for label in labels) > 10
        ax.set_xticks(xs, list(labels), rotation=20 if crowded else 0, ha="right" if crowded else "center")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{title} ({_games(games)})", loc="left")
        return svg(fig)


def histograms_figure(
    samples: Mapping[str, Sequence[float]], *, title: str, games: int, columns: int = 3
) -> str:
    """One small histogram per named sample, ``columns`` to a row (whole-number samples get one
    bar per value when they span few values); ``games`` is named in the title. Returns SVG."""
    names = list(samples)
    columns = max(1, min(columns, len(names)))
    lines = math.ceil(len(names) / columns)
    with styled():
        fig = new_figure(2.3 * columns, 0.5 + 1.7 * lines)
        for i, name in enumerate(names):
            ax = fig.add_subplot(lines, columns, i + 1)
            values = list(samples[name])
            ax.hist(values, bins=_bins(values), color=ACCENT, alpha=0.8)
            ax.set_title(name, fontsize=8)
            ax.tick_params(labelsize=7)
        fig.suptitle(f"{title} ({_games(games)})", x=0.01, ha="left")
        return svg(fig)


def _bins(values: Sequence[float]) -> int | list[float]:
    low, high = min(values), max(values)
    if all(v == int(v) for v in values) and high - low <= 30:
        return [v - 0.5 for v in range(int(low), int(high) + 2)]
    return 20


def ratings_figure(ratings: Sequence[Rating], *, games: int) -> str:
    """OpenSkill ratings, best on top: a dot at ``mu``, a bar from ``mu - 3 sigma`` (the ordinal,
    marked) to ``mu + 3 sigma``; ``games`` is named in the title. Returns SVG."""
    with styled():
        fig = new_figure(6.5, 0.9 + 0.32 * len(ratings))
        ax = fig.add_subplot()
        ys = list(range(len(ratings)))[::-1]
        ax.errorbar(
            [r.mu for r in ratings],
            ys,
            xerr=[3 * r.sigma for r in ratings],
            fmt="o",
            color=ACCENT,
            capsize=3,
            lw=1,
            label="mu ± 3 sigma",
        )
        ax.plot(
            [r.ordinal for r in ratings],
            ys,
            "|",
            color=FAIR,
            markersize=12,
            mew=2,
            label="ordinal (mu - 3 sigma)",
        )
        ax.set_yticks(ys, [r.strategy for r in ratings])
        ax.set_xlabel("OpenSkill rating (Plackett-Luce)")
        ax.legend(loc="lower right", frameon=False, fontsize=7)
        ax.set_title(f"Ratings ({_games(games)})", loc="left")
        return svg(fig)


def heatmap_figure(
    labels: Sequence[str],
    shares: Sequence[Sequence[float | None]],
    counts: Sequence[Sequence[int]],
    *,
    title: str,
    games: int,
) -> str:
    """A square heat map of ``shares[i][j]`` (0 to 1; ``None`` left blank), each cell showing its
    share and, below, its count; rows are the first of each pair. Returns SVG."""
    n = len(labels)
    grid = [[math.nan if v is None else v for v in row] for row in shares]
    with styled():
        side = 1.6 + 0.75 * n
        fig = new_figure(side + 1.2, side)
        ax = fig.add_subplot()
        edges = [k - 0.5 for k in range(n + 1)]
        # Cells drawn as shapes rather than an image: sharp in print, and no embedded picture.
        image = ax.pcolormesh(edges, edges, numpy.ma.masked_invalid(grid), cmap="RdBu", vmin=0, vmax=1)
        ax.set_aspect("equal")
        ax.invert_yaxis()
        ax.grid(False)
        for i in range(n):
            for j in range(n):
                if shares[i][j] is not None:
                    value = float(grid[i][j])
                    ax.text(
                        j,
                        i,
                        f"{value:.2f}\n{counts[i][j]}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if abs(value - 0.5) > 0.3 else "black",
                    )
        ax.set_xticks(range(n), list(labels), rotation=35, ha="right")
        ax.set_yticks(range(n), list(labels))
        ax.set_xlabel("against")
        fig.colorbar(image, ax=ax, shrink=0.8, label="share of games won (ties half)")
        ax.set_title(f"{title} ({_games(games)})", loc="left")
        return svg(fig)


# --- statistics ----------------------------------------------------------------------------------


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation: 1.96 standard errors)."""
    estimate = stats.mean(values)
    return estimate.value, estimate.low, estimate.high


def _n(x: float) -> str:
    return f"{x:,.3f}".rstrip("0").rstrip(".") if x != int(x) else f"{int(x):,}"


def _interval(low: float, high: float) -> str:
    return f"{low:.3f}–{high:.3f}"


def _describe(name: str, values: Sequence[float]) -> list[str]:
    mean, low, high = mean_interval(values)
    return [
        name,
        _n(mean),
        f"{low:,.2f}–{high:,.2f}",
        _n(statistics.median(values)),
        _n(min(values)),
        _n(max(values)),
    ]


DESCRIBE = ("", "mean", "95% interval of the mean", "median", "min", "max")


# --- the sections of a results file --------------------------------------------------------------


def check_rows(rows: Sequence[GameRow]) -> None:
    """Refuse rows a report cannot be made of (none, or a game whose columns do not agree)."""
    if not rows:
        raise ReportError("it holds no games")
    for row in rows:
        players = len(row.strategies)
        where = f"the game of seed {row.seed}"
        if not isinstance(row.seed, int) or not all(isinstance(s, str) for s in row.strategies):
            raise ReportError(f"{where} has no seed or a seat with no strategy")
        if players == 0 or len(row.scores) != players:
            raise ReportError(f"{where} has {len(row.scores)} scores for {players} seats")
        if any(not isinstance(w, int) or not 0 <= w < players for w in row.winners):
            raise ReportError(f"{where} names a winner that is not one of its {players} seats")
        if row.roles and len(row.roles) != players:
            raise ReportError(f"{where} has {len(row.roles)} roles for {players} seats")
        numbers = [*row.scores, *row.metrics.values()]
        if any(not isinstance(x, float | int) or not math.isfinite(x) for x in numbers):
            raise ReportError(f"{where} has a score or metric that is not a finite number")
        if not isinstance(row.actions, int) or row.actions < 0:
            raise ReportError(f"{where} has no number of actions")


def usable_job(job: object) -> dict[str, Any] | None:
    """The fields of a recorded job a report can show, each of the type it should have (a results
    file written by hand or by another tool may record anything, or nothing)."""
    if not isinstance(job, Mapping):
        return None
    kinds: dict[str, type | tuple[type, ...]] = {
        "game": str,
        "players": int,
        "seats": list,
        "pool": bool,
        "rotate": bool,
        "seed": int,
        "options": dict,
        "games": int,
    }
    out = {k: job[k] for k, kind in kinds.items() if isinstance(job.get(k), kind)}
    if isinstance(out.get("players"), bool) or out.get("players", 1) < 1:
        out.pop("players")
    if "seats" in out and not all(isinstance(s, str) for s in out["seats"]):
        out.pop("seats")
    return out


def job_section(job: Mapping[str, Any] | None, rows: Sequence[GameRow]) -> Section:
    """What was played: the game, players, seats or pool, options and seeds, as a table."""
    job = usable_job(job) or {}
    seeds = sorted(r.seed for r in rows)
    facts: list[list[object]] = [["game", job.get("game", "unknown")]]
    facts.append(["players", job.get("players", ", ".join(sorted({str(len(r.strategies)) for r in rows})))])
    if "seats" in job:
        kind = "pool (each game draws its seats)" if job.get("pool") else "seats"
        facts.append([kind, ", ".join(str(s) for s in job["seats"])])
    if "rotate" in job:
        facts.append(["seats rotate", "yes" if job["rotate"] else "no"])
    options = job.get("options") or {}
    facts.append(["options", ", ".join(f"{k}={v}" for k, v in options.items()) or "none"])
    facts.append(["seeds", f"{seeds[0]} to {seeds[-1]}" if seeds else "none"])
    facts.append(
        [
            "games",
            f"{len(rows):,}"
            + (
                f" of {job['games']:,} asked"
                if isinstance(job.get("games"), int) and job["games"] != len(rows)
                else ""
            ),
        ]
    )
    return Section(
        "Job",
        ("What was played. Game i of the job plays with seed + i, so any game can be replayed alone.",),
        tables=(Table(("", ""), facts),),
    )


def _strategy_order(rows: Sequence[GameRow], job: Mapping[str, Any] | None) -> list[str]:
    seen = strategies_of(rows)
    named = [s for s in (job or {}).get("seats", []) if s in seen]
    return list(dict.fromkeys([*named, *seen]))


def _rate_rows(
    names: Sequence[str],
    wins: Mapping[str, float],
    seat_games: Mapping[str, int],
    scores: Mapping[str, list[float]],
) -> tuple[list[float], list[tuple[float, float]], list[list[object]]]:
    rates: list[float] = []
    intervals: list[tuple[float, float]] = []
    table: list[list[object]] = []
    for name in names:
        n = seat_games[name]
        rate_ = wins[name] / n if n else 0.0
        low, high = wilson_interval(wins[name], n)
        rates.append(rate_)
        intervals.append((low, high))
        table.append(
            [
                name,
                f"{n:,}",
                f"{int(wins[name]):,}",
                f"{rate_:.3f}",
                _interval(low, high),
                f"{statistics.fmean(scores[name]):.2f}" if scores[name] else "–",
            ]
        )
    return rates, intervals, table


RATE_HEADERS = ("", "seat-games", "wins", "win rate", "95% interval", "mean score")


def win_rate_section(rows: Sequence[GameRow], names: Sequence[str]) -> Section:
    """Win rate per strategy over the seats it held, with 95% Wilson intervals."""
    wins = dict.fromkeys(names, 0.0)
    seat_games = dict.fromkeys(names, 0)
    scores: dict[str, list[float]] = {n: [] for n in names}
    for row in rows:
        for seat, s in enumerate(row.strategies):
            seat_games[s] += 1
            wins[s] += seat in row.winners
            scores[s].append(row.scores[seat])
    rates, intervals, table = _rate_rows(names, wins, seat_games, scores)
    return Section(
        "Win rate per strategy",
        (
            "Each seat a strategy held counts once (a seat-game); a shared win counts as a win for each "
            "seat that shares it. Bars are 95% Wilson score intervals.",
        ),
        (rates_figure(names, rates, intervals, title="Win rate per strategy", games=len(rows)),),
        (Table(("strategy", *RATE_HEADERS[1:]), table),),
    )


def seat_section(rows: Sequence[GameRow], players: int) -> Section:
    """Win rate per seat position whatever the strategy (the seat's own advantage)."""
    seats = max(len(r.strategies) for r in rows)
    names = [f"seat {i + 1}" for i in range(seats)]
    wins = dict.fromkeys(names, 0.0)
    seat_games = dict.fromkeys(names, 0)
    scores: dict[str, list[float]] = {n: [] for n in names}
    for row in rows:
        for seat in range(len(row.strategies)):
            seat_games[names[seat]] += 1
            wins[names[seat]] += seat in row.winners
            scores[names[seat]].append(row.scores[seat])
    rates, intervals, table = _rate_rows(names, wins, seat_games, scores)
    return Section(
        "Seat advantage",
        (
            "Win rate of each seat position whatever the strategy in it; seat 1 plays first. With "
            "rotating seats every strategy sits in every seat equally often, so a seat above the fair "
            f"share of 1/{players} is an advantage of the seat itself.",
        ),
        (
            rates_figure(
                names, rates, intervals, title="Win rate per seat", games=len(rows), fair=1 / players
            ),
        ),
        (Table(("seat", *RATE_HEADERS[1:]), table),),
    )


def score_section(rows: Sequence[GameRow], names: Sequence[str]) -> Section:
    """The distribution of each strategy's scores (every seat it held)."""
    scores: dict[str, list[float]] = {n: [] for n in names}
    for row in rows:
        for seat, s in enumerate(row.strategies):
            scores[s].append(row.scores[seat])
    return Section(
        "Scores per strategy",
        ("The final score of every seat each strategy held.",),
        (
            box_figure(
                names,
                [scores[n] for n in names],
                title="Scores per strategy",
                games=len(rows),
                ylabel="final score",
            ),
        ),
        (
            Table(
                ("strategy", "seat-games", *DESCRIBE[1:]),
                [[n, f"{len(scores[n]):,}", *_describe(n, scores[n])[1:]] for n in names],
            ),
        ),
    )


def length_section(rows: Sequence[GameRow]) -> Section:
    """How long games last: actions (decisions), and rounds and turns where the game counts them."""
    samples: dict[str, list[float]] = {"actions": [float(r.actions) for r in rows]}
    for name in LENGTH_METRICS:
        if all(name in r.metrics for r in rows):
            samples[name] = [r.metrics[name] for r in rows]
    return Section(
        "Game length",
        (
            "Actions are the decisions taken in a game, by every player together"
            + (
                f"; {' and '.join(list(samples)[1:])} are counted by the game itself."
                if len(samples) > 1
                else "."
            ),
        ),
        (histograms_figure(samples, title="Game length", games=len(rows)),),
        (Table(("measure", *DESCRIBE[1:]), [_describe(k, v) for k, v in samples.items()]),),
    )


def metrics_section(rows: Sequence[GameRow]) -> Section | None:
    """The game's own metrics (riots, Bastille cakes, ...): each one's distribution and mean."""
    names = sorted({k for r in rows for k in r.metrics} - set(LENGTH_METRICS))
    if not names:
        return None
    samples = {k: [r.metrics[k] for r in rows if k in r.metrics] for k in names}
    least = min(len(v) for v in samples.values())
    return Section(
        "Game metrics",
        (
            "What the game itself counts in each game. The interval is the 95% interval of the mean "
            "(1.96 standard errors).",
        ),
        (histograms_figure(samples, title="Game metrics", games=len(rows)),),
        (
            Table(
                ("metric", *DESCRIBE[1:], "games"),
                [[*_describe(k, v), f"{len(v):,}"] for k, v in samples.items()],
                caption="" if least == len(rows) else "Some games do not record every metric.",
            ),
        ),
    )


def role_section(rows: Sequence[GameRow], names: Sequence[str]) -> Section | None:
    """Win rate by secret role (Culottes: grabber or revolutionary), overall and per strategy."""
    with_roles = [r for r in rows if r.roles]
    if not with_roles:
        return None
    roles = sorted({role for r in with_roles for role in r.roles if role})
    labels = [*roles, *(f"{n} as {role}" for n in names for role in roles)]
    wins = dict.fromkeys(labels, 0.0)
    seat_games = dict.fromkeys(labels, 0)
    scores: dict[str, list[float]] = {k: [] for k in labels}
    for row in with_roles:
        for seat, (strategy, role) in enumerate(zip(row.strategies, row.roles, strict=True)):
            if not role:
                continue
            for key in (role, f"{strategy} as {role}"):
                seat_games[key] += 1
                wins[key] += seat in row.winners
                scores[key].append(row.scores[seat])
    labels = [k for k in labels if seat_games[k]]
    rates, intervals, table = _rate_rows(labels, wins, seat_games, scores)
    return Section(
        "By role",
        (
            "Each player's secret side, dealt at the start: win rate and mean score of every role, then "
            "of each strategy in each role.",
        ),
        (rates_figure(labels, rates, intervals, title="Win rate by role", games=len(with_roles)),),
        (Table(("role", *RATE_HEADERS[1:]), table),),
    )


def ratings_section(rows: Sequence[GameRow]) -> Section:
    """OpenSkill (Plackett-Luce) ratings of the strategies, best conservative estimate first."""
    ratings = rate(rows)
    spread = bootstrap(rows)
    rated = sum(1 for r in rows if len(set(r.strategies)) > 1)
    return Section(
        "Ratings",
        (
            "Every game is a match between the strategies at the table, each ranked by its best seat "
            "(higher score first; at equal scores, a seat the game declared winner first; equal "
            "standings share a rank), rated one game after another in seed order with OpenSkill's "
            "Plackett-Luce model. mu is the skill, sigma its uncertainty, and the ordinal mu - 3 sigma a "
            "conservative estimate; strategies are sorted by it. Games with a single strategy at the "
            "table are left out. The intervals are 95% percentile bootstrap intervals: the games "
            f"resampled with replacement {spread.resamples} times and rated again.",
        ),
        (ratings_figure(ratings, games=rated),),
        (
            Table(
                ("strategy", "games", "mu", "mu, 95% interval", "sigma", "ordinal", "ordinal, 95% interval"),
                [
                    [r.strategy, f"{r.games:,}", f"{r.mu:.2f}", _span(spread.mu[r.strategy]),
                     f"{r.sigma:.2f}", f"{r.ordinal:.2f}", _span(spread.ordinal[r.strategy])]
                    for r in ratings
                ],
            ),
        ),
    )


def _span(interval: tuple[float, float] | None, digits: int = 2) -> str:
    """A bootstrap interval in a table cell: "[1.20–3.40]"."""
    return "–" if interval is None else f"[{interval[0]:.{digits}f}–{interval[1]:.{digits}f}]"


def head_to_head_section(rows: Sequence[GameRow], names: Sequence[str]) -> Section:
    """For each pair of strategies, the share of the games they both sat in won by the first."""
    matrix = head_to_head(rows)
    spread = bootstrap(rows)
    shares = [[None if a == b else matrix[a][b].share for b in names] for a in names]
    counts = [[0 if a == b else matrix[a][b].games for b in names] for a in names]
    met = sum(1 for r in rows if len(set(r.strategies)) > 1)
    table = [
        [
            a,
            *(
                "–"
                if a == b or not matrix[a][b].games
                else f"{matrix[a][b].share:.3f} {_span(spread.share[a][b], 3)} ({matrix[a][b].games:,})"
                for b in names
            ),
        ]
        for a in names
    ]
    return Section(
        "Head to head",
        (
            "Row against column: over the games where both sat, the share in which the row's best seat "
            "beat the column's (higher score, or the game's winner at equal scores), ties counting "
            "half; then its 95% bootstrap interval (games resampled) and, in brackets, the number of "
            "those games.",
        ),
        (heatmap_figure(names, shares, counts, title="Head to head", games=met),),
        (Table(("", *names), table),),
    )


def results_sections(rows: Sequence[GameRow], job: Mapping[str, Any] | None) -> list[Section]:
    """The sections of a report on ``rows`` (checked with :func:`check_rows`): the job, win rates,
    seat advantage, scores, game lengths, the game's metrics, roles where the game deals them, and,
    with two strategies or more, ratings and the head-to-head matrix."""
    check_rows(rows)
    job = usable_job(job)
    names = _strategy_order(rows, job)
    players = int((job or {}).get("players") or max(len(r.strategies) for r in rows))
    sections = [
        job_section(job, rows),
        win_rate_section(rows, names),
        seat_section(rows, players),
        score_section(rows, names),
        length_section(rows),
    ]
    optional: list[Callable[[], Section | None]] = [
        lambda: metrics_section(rows),
        lambda: role_section(rows, names),
    ]
    if len(names) > 1:
        optional += [lambda: ratings_section(rows), lambda: head_to_head_section(rows, names)]
    sections += [s for make in optional if (s := make()) is not None]
    return sections


# --- the page ------------------------------------------------------------------------------------

CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       margin: 0; background: #fafafa; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 2rem 3rem; background: #fff; }
h1 { font-size: 1.7rem; margin-bottom: .3rem; }
h2 { font-size: 1.25rem; border-bottom: 2px solid #1f4e79; padding-bottom: .2rem; margin-top: 2.2rem; }
nav ol { columns: 2; padding-left: 1.2rem; }
a { color: #1f4e79; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .85rem; font-variant-numeric: tabular-nums; }
caption { caption-side: bottom; text-align: left; color: #555; padding-top: .3rem; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #eef3f8; }
table.facts td { text-align: left; }
table.facts td:first-child { color: #555; }
footer { margin-top: 3rem; color: #666; font-size: .8rem; }
@media print {
  body { background: #fff; font-size: 11pt; }
  main { max-width: none; padding: 0; }
  nav { display: none; }
  section { break-before: page; }
  figure, table { break-inside: avoid; }
}
"""


def _slug(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, i = base, 2
    while slug in taken:
        slug, i = f"{base}-{i}", i + 1
    taken.add(slug)
    return slug


def render_table(table: Table) -> str:
    """A :class:`Table` as HTML (every cell escaped)."""
    e = html.escape
    caption = f"<caption>{e(table.caption)}</caption>" if table.caption else ""
    body = "".join("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>" for row in table.rows)
    if not any(table.headers):  # a list of facts: names on the left, values beside them
        return f'<table class="facts">{caption}<tbody>{body}</tbody></table>'
    head = "".join(f"<th>{e(str(h))}</th>" for h in table.headers)
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_page(title: str, intro: Sequence[str], sections: Sequence[Section], footer: str = "") -> str:
    """One self-contained HTML page: ``title``, the ``intro`` paragraphs, a list of contents, the
    ``sections`` in order and a ``footer`` line. All text is HTML-escaped; figures go in as given."""
    e = html.escape
    taken: set[str] = set()
    ids = [s.id or _slug(s.heading, taken) for s in sections]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{e(title)}</h1>",
        *(f"<p>{e(p)}</p>" for p in intro),
    ]
    if len(sections) > 1:
        parts.append(
            "<nav><ol>"
            + "".join(
                f'<li><a href="#{e(i)}">{e(s.heading)}</a></li>' for i, s in zip(ids, sections, strict=True)
            )
            + "</ol></nav>"
        )
    for anchor, section in zip(ids, sections, strict=True):
        parts.append(f'<section id="{e(anchor)}"><h2>{e(section.heading)}</h2>')
        parts.extend(f"<p>{e(p)}</p>" for p in section.paragraphs)
        parts.extend(f"<figure>{f}</figure>" for f in section.figures)
        parts.extend(render_table(t) for t in section.tables)
        parts.append("</section>")
    if footer:
        parts.append(f"<footer>{e(footer)}</footer>")
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"


def results_page(rows: Sequence[GameRow], job: Mapping[str, Any] | None, source: str = "") -> str:
    """The whole report on one results file (``source`` names it in the introduction)."""
    check_rows(rows)
    game = (usable_job(job) or {}).get("game", "unknown game")
    intro = [f"{len(rows):,} games of {game}" + (f" from {source}" if source else "") + "."]
    return render_page(
        f"{game}: {_games(len(rows))}",
        intro,
        results_sections(rows, job),
        footer="Made with tricolore report.",
    )
