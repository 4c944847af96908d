"""The report of an empirical game (:mod:`tricolore.sim.egta`): payoff heat maps, replicator
trajectories, the α-Rank graph and the tables behind them, on one self-contained page made with
:func:`~tricolore.sim.report.render_page`. Figures are drawn like the other reports' (matplotlib's
object interface, inline SVG), each title naming the games behind it."""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
import numpy as np
from matplotlib.colors import TwoSlopeNorm

from tricolore.sim.egta import Analysis, EmpiricalGame, Vector
from tricolore.sim.figures import COLOURS
from tricolore.sim.report import ACCENT, FAIR, Section, Table, new_figure, render_page, styled, svg

MOST_PROFILES_DRAWN = 400
"""Beyond this many profiles the full payoff heat map is left out (its table stays)."""

MOST_PROFILES_LABELLED = 60
"""Beyond this many profiles the heat map's cells carry no numbers."""


def letter(index: int) -> str:
    """The short name of the strategy of ``index`` in figures: A, B, ..., Z, then S27, S28, ..."""
    return chr(ord("A") + index) if index < 26 else f"S{index + 1}"


def profile_label(counts: Sequence[int]) -> str:
    """A profile as its seats' letters: ``AABCC``."""
    return "".join(letter(j) * int(c) for j, c in enumerate(counts))


def _games(n: int) -> str:
    return f"{n:,} game" + ("" if n == 1 else "s")


def _norm(eg: EmpiricalGame, values: Vector) -> TwoSlopeNorm:
    """Colours centred on the fair share (a win share of 1/players) or on the median score."""
    finite = values[np.isfinite(values)]
    centre = 1 / eg.players if eg.payoff == "win" else float(np.median(finite))
    low, high = float(finite.min()), float(finite.max())
    low = min(low, centre - 1e-9)
    high = max(high, centre + 1e-9)
    return TwoSlopeNorm(vcenter=centre, vmin=low, vmax=high)


def _ink(norm: TwoSlopeNorm, value: float) -> str:
    """White text on the dark ends of the colour scale, black in between."""
    return "white" if abs(float(norm(value)) - 0.5) > 0.3 else "black"


def _payoff_axis(eg: EmpiricalGame) -> str:
    return "share of the win (1/k to each of k winners)" if eg.payoff == "win" else "score"


def profile_heatmap(eg: EmpiricalGame) -> str:
    """Every profile (rows, named by its seats' letters) by strategy (columns): the strategy's
    mean payoff there, blank where it is absent. Returns SVG."""
    values = eg.means
    rows, n = values.shape
    labelled = rows <= MOST_PROFILES_LABELLED
    with styled():
        fig = new_figure(2.2 + 0.75 * n, 1.2 + 0.19 * rows)
        ax = fig.add_subplot()
        norm = _norm(eg, values)
        image = ax.pcolormesh(
            np.arange(n + 1) - 0.5,
            np.arange(rows + 1) - 0.5,
            np.ma.masked_invalid(values),
            cmap="RdBu",
            norm=norm,
        )
        ax.invert_yaxis()
        ax.grid(False)
        if labelled:
            for i in range(rows):
                for j in range(n):
                    if np.isfinite(values[i, j]):
                        ax.text(
                            j,
                            i,
                            f"{values[i, j]:.2f}",
                            ha="center",
                            va="center",
                            fontsize=6,
                            color=_ink(norm, values[i, j]),
                        )
        ax.set_xticks(range(n), [letter(j) for j in range(n)])
        ax.set_yticks(range(rows), [profile_label(c) for c in eg.counts], fontsize=6, family="monospace")
        ax.set_xlabel("strategy")
        ax.set_ylabel("profile (the seats' strategies)")
        fig.colorbar(image, ax=ax, shrink=0.6, label=_payoff_axis(eg))
        ax.set_title(f"Payoff of each strategy in each profile ({_games(eg.games_played())})", loc="left")
        return svg(fig)


def matrix_heatmap(eg: EmpiricalGame) -> str:
    """Strategy against strategy: the payoff of one seat of the row strategy at a table whose
    other seats all play the column strategy (the payoff matrix for two players). Returns SVG."""
    values = eg.matrix()
    n = len(values)
    with styled():
        side = 1.8 + 0.7 * n
        fig = new_figure(side + 1.4, side)
        ax = fig.add_subplot()
        edges = np.arange(n + 1) - 0.5
        norm = _norm(eg, values)
        image = ax.pcolormesh(edges, edges, values, cmap="RdBu", norm=norm)
        ax.set_aspect("equal")
        ax.invert_yaxis()
        ax.grid(False)
        for i in range(n):
            for j in range(n):
                ax.text(
                    j,
                    i,
                    f"{values[i, j]:.2f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color=_ink(norm, values[i, j]),
                )
        ax.set_xticks(range(n), [letter(j) for j in range(n)])
        ax.set_yticks(range(n), [letter(j) for j in range(n)])
        others = "the other seat plays" if eg.players == 2 else f"the other {eg.players - 1} seats play"
        ax.set_xlabel(others)
        ax.set_ylabel("one seat plays")
        fig.colorbar(image, ax=ax, shrink=0.8, label=_payoff_axis(eg))
        ax.set_title(f"One against the rest ({_games(eg.games_played())})", loc="left")
        return svg(fig)


def replicator_figure(eg: EmpiricalGame, trajectory: Vector, dt: float = 0.5) -> str:
    """Each strategy's share of the population over time under the replicator dynamics from a
    uniform start. Returns SVG."""
    times = np.arange(len(trajectory)) * dt
    with styled():
        fig = new_figure(6.5, 3.2)
        ax = fig.add_subplot()
        for j, name in enumerate(eg.strategies):
            colour = COLOURS[j % len(COLOURS)]
            style = "-" if j < len(COLOURS) else "--"
            ax.plot(times, trajectory[:, j], style, color=colour, label=f"{letter(j)}: {name}")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("time (payoffs rescaled to span 1)")
        ax.set_ylabel("share of the population")
        ax.legend(fontsize=7, frameon=False, loc="best")
        ax.set_title(f"Replicator dynamics from uniform ({_games(eg.games_played())})", loc="left")
        return svg(fig)


def alpha_rank_graph(eg: EmpiricalGame, masses: Vector, fixation: Vector, population: int) -> str:
    """α-Rank's graph: a node per strategy, sized by its mass, and an arrow from ``s`` to ``r``
    where a mutant playing ``r`` takes over a population playing ``s`` more often than a neutral
    mutant would (1/population), thicker the likelier. Returns SVG."""
    n = len(eg.strategies)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    neutral = 1 / population
    for s in range(n):
        for r in range(n):
            if s != r and fixation[s, r] > neutral:
                graph.add_edge(s, r, weight=float(fixation[s, r]))
    layout = nx.circular_layout(graph) if n > 1 else {0: np.zeros(2)}
    with styled():
        fig = new_figure(5.5, 4.6)
        ax = fig.add_subplot()
        ax.grid(False)
        ax.set_axis_off()
        sizes = [300 + 3000 * float(masses[j]) for j in range(n)]
        nx.draw_networkx_nodes(graph, layout, ax=ax, node_size=sizes, node_color=ACCENT, alpha=0.85)
        nx.draw_networkx_labels(
            graph,
            layout,
            ax=ax,
            labels={j: f"{letter(j)}\n{masses[j]:.2f}" for j in range(n)},
            font_color="white",
            font_size=8,
        )
        edges = list(graph.edges(data="weight"))
        if edges:
            nx.draw_networkx_edges(
                graph,
                layout,
                ax=ax,
                edgelist=[(s, r) for s, r, _ in edges],
                width=[0.5 + 3 * math.sqrt(w) for _, _, w in edges],
                edge_color=FAIR,
                alpha=0.7,
                arrows=True,
                arrowsize=12,
                node_size=sizes,
                connectionstyle="arc3,rad=0.12",
            )
        ax.margins(0.2)
        ax.set_title(f"α-Rank: mass and takeovers ({_games(eg.games_played())})", loc="left")
        return svg(fig)


def _share(value: float) -> str:
    return f"{value + 0.0:.3f}".replace("-0.000", "0.000")  # no "-0.000" for a rounded zero


def _with(value: float, low: float, high: float) -> str:
    return f"{_share(value)} [{_share(low)}–{_share(high)}]"


def _strategy_table(eg: EmpiricalGame, analysis: Analysis) -> Table:
    b = analysis.bootstrap
    rows = []
    for j, name in enumerate(eg.strategies):
        rows.append(
            [
                f"{letter(j)}: {name}",
                _with(analysis.equilibrium[j], b.equilibrium[0][j], b.equilibrium[1][j]),
                _with(analysis.regrets[j], b.regrets[0][j], b.regrets[1][j]),
                _share(analysis.trajectory[-1][j]),
                _with(analysis.alpha_rank[j], b.alpha_rank[0][j], b.alpha_rank[1][j]),
            ]
        )
    return Table(
        ["strategy", "equilibrium mass", "regret against it", "replicator end share", "α-Rank mass"],
        rows,
        f"95% percentile intervals over {b.resamples} bootstrap resamples of the games"
        + (" (the same seeds drawn for every profile)" if b.paired else "")
        + ". Regret: what one seat gains by playing the strategy while the others play the equilibrium.",
    )


def _payoff_table(eg: EmpiricalGame) -> Table:
    rows = []
    for i, counts in enumerate(eg.counts):
        cells = []
        for j in range(len(eg.strategies)):
            if counts[j]:
                se = eg.errors[i, j]
                error = "" if math.isnan(se) else f" ± {se:.3f}"
                cells.append(f"{eg.means[i, j]:.3f}{error} ({int(eg.seat_games[i, j]):,})")
            else:
                cells.append("")
        games = len(eg.played[tuple(int(c) for c in counts)].seeds)
        rows.append([profile_label(counts), f"{games:,}", *cells])
    return Table(
        ["profile", "games", *(letter(j) for j in range(len(eg.strategies)))],
        rows,
        "Mean payoff ± its standard error over games, and the seat-games behind it, per strategy present.",
    )


def claims(eg: EmpiricalGame, analysis: Analysis) -> list[str]:
    """What the analysis says, in sentences with their numbers and intervals."""
    b = analysis.bootstrap
    support = [j for j in np.argsort(-analysis.equilibrium) if analysis.equilibrium[j] > 1e-3]
    low, high = b.equilibrium
    mixture = ", ".join(
        f"{eg.strategies[j]} {analysis.equilibrium[j]:.2f} [{low[j]:.2f}–{high[j]:.2f}]" for j in support
    )
    kind = "a pure" if len(support) == 1 else "a mixed"
    out = [
        f"The empirical game has {kind} symmetric equilibrium: {mixture}. No strategy gains more than "
        f"{max(0.0, analysis.exploitability):.4f} against it in this table; in resampled tables the best "
        f"deviation gains {b.exploitability[0]:.3f}–{b.exploitability[1]:.3f} (95%), "
        f"{eg.games_played():,} games over {len(eg.counts)} profiles.",
    ]
    losers = [j for j in range(len(eg.strategies)) if b.regrets[1][j] <= -0.0005]
    if losers:
        out.append(
            "Deviating to these strategies from the equilibrium loses (the 95% interval of "
            "the regret lies below 0): "
            + ", ".join(
                f"{eg.strategies[j]} {_with(analysis.regrets[j], b.regrets[0][j], b.regrets[1][j])}"
                for j in losers
            )
            + "."
        )
    survivors = [eg.strategies[j] for j in range(len(eg.strategies)) if analysis.trajectory[-1][j] > 0.01]
    out.append(
        "Replicator dynamics from a uniform start keep "
        + ", ".join(f"{s} ({analysis.trajectory[-1][eg.strategies.index(s)]:.2f})" for s in survivors)
        + "."
    )
    top = int(np.argmax(analysis.alpha_rank))
    out.append(
        f"α-Rank puts most mass on {eg.strategies[top]}: {analysis.alpha_rank[top]:.2f} "
        f"[{b.alpha_rank[0][top]:.2f}–{b.alpha_rank[1][top]:.2f}]."
    )
    return out


def empirical_page(eg: EmpiricalGame, analysis: Analysis, command: str = "") -> str:
    """The whole report of an empirical game and its analysis."""
    legend = "Strategies: " + "; ".join(f"{letter(j)} = {s}" for j, s in enumerate(eg.strategies)) + "."
    payoff = (
        "A seat's payoff is its share of the win (1/k to each of k winners, 0 otherwise)."
        if eg.payoff == "win"
        else "A seat's payoff is its final score."
    )
    intro = [
        f"The empirical game of {len(eg.strategies)} strategies of {eg.game} at tables of {eg.players}: "
        f"{len(eg.counts)} profiles (every multiset of strategies over the seats), "
        f"{eg.games_played():,} games, every profile on the same seeds from {eg.seed}, seats turned so "
        "every strategy of a profile sits in every seat alike.",
        payoff + " " + legend,
    ]
    if eg.options:
        intro.append("Options: " + ", ".join(f"{k}={v}" for k, v in sorted(eg.options.items())) + ".")
    if command:
        intro.append(f"Made with: {command}")
    heat = [matrix_heatmap(eg)]
    if len(eg.counts) <= MOST_PROFILES_DRAWN:
        heat.append(profile_heatmap(eg))
    sections = [
        Section("What the table shows", claims(eg, analysis)),
        Section(
            "Equilibrium and regrets",
            [
                "A symmetric Nash equilibrium of the empirical game (every seat playing the mixture, no "
                "strategy gains by deviating), each strategy's regret against it, where replicator "
                "dynamics from uniform end, and α-Rank's masses.",
                legend,
            ],
            tables=[_strategy_table(eg, analysis)],
        ),
        Section(
            "Payoff table",
            [
                "First: one seat of the row strategy among seats all playing the column strategy. "
                "Then every profile (named by its seats' letters) and each present strategy's mean "
                "payoff; colours are centred on "
                + ("the fair share." if eg.payoff == "win" else "the median score."),
                legend,
            ],
            heat,
            [_payoff_table(eg)],
        ),
        Section(
            "Replicator dynamics",
            [
                "Each strategy's share of an infinite population whose members copy the better "
                "paid (replicator dynamics), from equal shares; time is measured with payoffs "
                "rescaled to span 1."
            ],
            [replicator_figure(eg, analysis.trajectory)],
        ),
        Section(
            "α-Rank",
            [
                f"α-Rank (α = {analysis.alpha:g} on payoffs rescaled to span 1, population "
                f"{analysis.population}): the long-run share of time a population spends playing "
                "each strategy when rare mutants try another. An arrow from one strategy to another "
                "means a mutant of the second takes over a population of the first more often than "
                "a neutral one would."
            ],
            [alpha_rank_graph(eg, analysis.alpha_rank, analysis.fixation, analysis.population)],
        ),
    ]
    return render_page(
        f"{eg.game}: the empirical game of {len(eg.strategies)} strategies",
        intro,
        sections,
        footer="Made with tricolore empirical.",
    )
