"""Figures for reports and studies, drawn with matplotlib and kept as inline SVG.

Each function returns one figure as an ``<svg>`` string (text kept as text, so a page stays small
and searchable); every figure's title says how many games are behind it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from tricolore.sim.stats import Estimate

plt.rcParams.update(
    {
        "svg.fonttype": "none",
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "svg.hashsalt": "tricolore",
    }
)
COLOURS = ("#1f3a93", "#c0392b", "#7f8c8d", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#2c3e50")
"""Blue, red and grey first: the tricolour, then colours a reader tells apart."""


def svg(fig: Figure) -> str:
    """The figure as an ``<svg>`` element (without the XML prologue), then closed."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def estimates_chart(
    title: str,
    labels: Sequence[str],
    estimates: Sequence[Estimate],
    *,
    axis: str,
    reference: float | None = None,
    reference_label: str = "",
    percent: bool = True,
) -> str:
    """Horizontal bars, one per label, with 95% interval whiskers and an optional reference line
    (a fair share, a baseline)."""
    scale = 100 if percent else 1
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(labels) + 1.2))
    values = [e.value * scale for e in estimates]
    errors = [[(e.value - e.low) * scale for e in estimates], [(e.high - e.value) * scale for e in estimates]]
    positions = list(range(len(labels)))[::-1]
    ax.barh(
        positions,
        values,
        xerr=errors,
        color=[COLOURS[i % len(COLOURS)] for i in range(len(labels))],
        alpha=0.85,
        capsize=3,
    )
    ax.set_yticks(positions, labels)
    if reference is not None:
        ax.axvline(reference * scale, color="black", linestyle="--", linewidth=1)
        if reference_label:
            ax.text(reference * scale, len(labels) - 0.4, f" {reference_label}", fontsize=8)
    ax.set_xlabel(axis + (" (%)" if percent else ""))
    ax.set_title(title)
    return svg(fig)


def distributions_chart(title: str, series: Mapping[str, Sequence[float]], *, axis: str) -> str:
    """Box plots of several samples side by side (scores, lengths)."""
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(series) + 1.2))
    labels = list(series)
    parts = ax.boxplot(
        [list(series[k]) for k in labels][::-1], vert=False, patch_artist=True, widths=0.6, showfliers=False
    )
    for i, box in enumerate(parts["boxes"]):
        box.set_facecolor(COLOURS[(len(labels) - 1 - i) % len(COLOURS)])
        box.set_alpha(0.6)
    ax.set_yticks(range(1, len(labels) + 1), labels[::-1])
    ax.set_xlabel(axis)
    ax.set_title(title)
    return svg(fig)


def histogram(title: str, values: Sequence[float], *, axis: str) -> str:
    """One sample's distribution."""
    fig, ax = plt.subplots(figsize=(6.4, 2.6))
    ax.hist(values, bins=min(40, max(5, len(set(values)))), color=COLOURS[0], alpha=0.85)
    ax.set_xlabel(axis)
    ax.set_ylabel("games")
    ax.set_title(title)
    return svg(fig)


def sweep_chart(
    title: str,
    settings: Sequence[str],
    lines: Mapping[str, Sequence[Estimate]],
    *,
    axis: str,
    setting_axis: str,
    percent: bool = False,
    reference: float | None = None,
) -> str:
    """How some figures move as one setting changes: a line per figure, with interval bands."""
    scale = 100 if percent else 1
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    xs = list(range(len(settings)))
    for i, (name, estimates) in enumerate(lines.items()):
        colour = COLOURS[i % len(COLOURS)]
        ax.plot(xs, [e.value * scale for e in estimates], marker="o", color=colour, label=name)
        ax.fill_between(
            xs,
            [e.low * scale for e in estimates],
            [e.high * scale for e in estimates],
            color=colour,
            alpha=0.15,
        )
    if reference is not None:
        ax.axhline(reference * scale, color="black", linestyle="--", linewidth=1)
    ax.set_xticks(xs, settings)
    ax.set_xlabel(setting_axis)
    ax.set_ylabel(axis + (" (%)" if percent else ""))
    ax.set_title(title)
    ax.legend(fontsize=8, frameon=False)
    return svg(fig)
