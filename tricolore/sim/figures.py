"""The figures studies add to a report's (:mod:`tricolore.sim.report`): estimates that are not
rates, and how figures move as one setting changes. Drawn and saved like the report's figures,
each title naming the games behind it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tricolore.sim.report import ACCENT, FAIR, new_figure, styled, svg
from tricolore.sim.stats import Estimate

COLOURS = (ACCENT, FAIR, "#7f8c8d", "#27ae60", "#8e44ad", "#d35400")
"""Blue and red first, then colours a reader tells apart."""


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
    """Horizontal bars, one per label (first on top), with 95% interval whiskers and an optional
    reference line (an average, a baseline); rates in percent or plain means. Returns SVG."""
    scale = 100 if percent else 1
    with styled():
        fig = new_figure(6.5, 0.9 + 0.32 * len(labels))
        ax = fig.add_subplot()
        ys = list(range(len(labels)))[::-1]
        values = [e.value * scale for e in estimates]
        ax.barh(ys, values, color=ACCENT, alpha=0.75, height=0.6)
        ax.errorbar(
            values,
            ys,
            fmt="none",
            ecolor="black",
            capsize=3,
            lw=1,
            xerr=[
                [(e.value - e.low) * scale for e in estimates],
                [(e.high - e.value) * scale for e in estimates],
            ],
        )
        if reference is not None:
            ax.axvline(reference * scale, color=FAIR, ls="--", lw=1, label=reference_label or None)
            if reference_label:
                ax.legend(loc="lower right", frameon=False)
        ax.set_yticks(ys, list(labels))
        ax.set_xlabel(axis + (" (%)" if percent else "") + " (bars: 95% interval)")
        ax.set_title(title, loc="left")
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
    """How figures move as one setting changes: a line per figure over the settings, with its 95%
    interval as a band, and an optional reference line. Returns SVG."""
    scale = 100 if percent else 1
    with styled():
        fig = new_figure(6.5, 3.2)
        ax = fig.add_subplot()
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
            ax.axhline(reference * scale, color="black", ls="--", lw=1)
        ax.set_xticks(xs, list(settings))
        ax.set_xlabel(setting_axis)
        ax.set_ylabel(axis + (" (%)" if percent else ""))
        ax.set_title(title, loc="left")
        ax.legend(fontsize=8, frameon=False)
        return svg(fig)


def forest_chart(
    title: str,
    labels: Sequence[str],
    estimates: Sequence[Estimate],
    *,
    axis: str,
    percent: bool = False,
) -> str:
    """A forest plot of differences: one row per label (first on top), a point at each estimate
    with its 95% interval as a line, and a line at zero (no difference). Returns SVG."""
    scale = 100 if percent else 1
    with styled():
        fig = new_figure(6.5, 0.9 + 0.36 * len(labels))
        ax = fig.add_subplot()
        ys = list(range(len(labels)))[::-1]
        values = [e.value * scale for e in estimates]
        ax.errorbar(
            values,
            ys,
            fmt="o",
            color=ACCENT,
            ecolor="black",
            capsize=3,
            lw=1,
            xerr=[
                [(e.value - e.low) * scale for e in estimates],
                [(e.high - e.value) * scale for e in estimates],
            ],
        )
        ax.axvline(0, color=FAIR, ls="--", lw=1)
        ax.set_yticks(ys, list(labels))
        ax.set_ylim(-0.7, len(labels) - 0.3)
        ax.set_xlabel(axis + (" (points)" if percent else "") + " (lines: 95% interval)")
        ax.set_title(title, loc="left")
        return svg(fig)
