"""Studies: a standard set of experiments per game, run as simulation jobs, written up as a report.

A study is a list of :class:`Experiment` objects. Each experiment asks one question, names the batches
(:class:`Arm`) whose games answer it, and analyses their rows into a :class:`Finding`: claims
(:class:`~tricolore.sim.stats.Claim`), each with its number of games, its 95% interval and the test
it rests on, and the figures and tables behind them. Every tested claim of a study belongs to one
:class:`~tricolore.sim.stats.Family`, corrected with Holm–Bonferroni before any claim is worded.
Arms are played once even when several experiments read them, every arm of a study plays the
same seeds (so two arms differ only by what the experiment changes), and each arm's rows are kept
in a Parquet file in the study's folder, so an interrupted study resumes where it stopped.

The experiments of each game are in its ``study.py`` (see :mod:`tricolore.sim.studies`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tricolore.sim.batch import BatchSpec, GameRow
from tricolore.sim.jobs import run_job
from tricolore.sim.report import Section, Table, render_page
from tricolore.sim.stats import Claim, Family

Rows = Mapping[str, Sequence[GameRow]]
"""The rows of every arm of a study, by arm key."""


@dataclass(frozen=True, slots=True)
class Arm:
    """One batch of games of a study: ``key`` names its rows file, ``label`` is what a reader
    sees."""

    key: str
    label: str
    spec: BatchSpec


@dataclass(slots=True)
class Finding:
    """What one experiment shows: its claims, and the figures and tables behind them."""

    records: list[Claim]
    """The claims, before and (once the study's family is settled) after correction."""
    figures: list[str] = field(default_factory=list)
    """Figures as inline SVG."""
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """How the experiment was set up, for the reader who checks it."""
    claims: list[str] = field(default_factory=list)
    """Each claim's sentence, after correction (filled by :func:`settle`)."""


@dataclass(frozen=True, slots=True)
class Experiment:
    """One question, the arms that answer it, and how their rows are read."""

    key: str
    heading: str
    question: str
    arms: tuple[Arm, ...]
    analyse: Callable[[Rows], Finding]


@dataclass(frozen=True, slots=True)
class Study:
    """A game's standard experiments."""

    game: str
    title: str
    experiments: tuple[Experiment, ...]

    def arms(self) -> list[Arm]:
        """Every distinct arm, in the order experiments name them."""
        seen: dict[str, Arm] = {}
        for experiment in self.experiments:
            for arm in experiment.arms:
                if arm.key in seen and seen[arm.key].spec != arm.spec:
                    raise ValueError(f"two arms of the {self.game} study share the key {arm.key}")
                seen.setdefault(arm.key, arm)
        return list(seen.values())

    def games(self) -> int:
        """Games the whole study plays."""
        return sum(arm.spec.games for arm in self.arms())


@dataclass(slots=True)
class StudyResult:
    """A finished study: each experiment's finding, and where the report was written."""

    study: Study
    findings: dict[str, Finding]
    report: Path
    interrupted: bool = False


def run_study(
    study: Study,
    folder: Path,
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: Callable[[str, int], None] | None = None,
    command: str = "",
) -> StudyResult:
    """Play every arm of ``study`` (resuming any arm already begun in ``folder``), analyse, and
    write ``report.html`` and ``findings.json`` there. ``progress(arm label, games)`` hears each
    finished chunk."""
    folder.mkdir(parents=True, exist_ok=True)
    rows: dict[str, Sequence[GameRow]] = {}
    for arm in study.arms():

        def told(n: int, label: str = arm.label) -> None:
            if progress:
                progress(label, n)

        finished = run_job(
            arm.spec,
            backend=backend,
            workers=workers,
            address=address,
            out=folder / f"{arm.key}.parquet",
            resume=True,
            progress=told,
        )
        if finished.interrupted:
            return StudyResult(study, {}, folder / "report.html", interrupted=True)
        rows[arm.key] = finished.rows
    findings = {e.key: e.analyse({a.key: rows[a.key] for a in e.arms}) for e in study.experiments}
    family = settle(findings)
    report = folder / "report.html"
    report.write_text(study_page(study, findings, command), encoding="utf-8")
    (folder / "findings.json").write_text(
        json.dumps(
            {
                "game": study.game,
                "title": study.title,
                "command": command,
                "correction": {
                    "method": "Holm–Bonferroni",
                    "alpha": family.alpha,
                    "tests": len(family.tested()),
                    "in_words": family.method(),
                },
                "experiments": [
                    {
                        "key": e.key,
                        "heading": e.heading,
                        "question": e.question,
                        "arms": {
                            a.key: {"label": a.label, **a.spec.describe(), "games": a.spec.games}
                            for a in e.arms
                        },
                        "claims": [c.record() for c in findings[e.key].records],
                        "notes": findings[e.key].notes,
                    }
                    for e in study.experiments
                ],
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    return StudyResult(study, findings, report)


def settle(findings: Mapping[str, Finding]) -> Family:
    """Correct every tested claim of a study as one family and word each finding's claims."""
    family = Family()
    for finding in findings.values():
        for claim in finding.records:
            family.register(claim)
    family.settle()
    for finding in findings.values():
        finding.claims = [c.sentence() for c in finding.records]
    return family


def study_page(study: Study, findings: Mapping[str, Finding], command: str = "") -> str:
    """The study's report: what was played, every claim at the top, then each experiment with its
    question, claims, figures and the tables behind them."""
    arms = study.arms()
    total = sum(a.spec.games for a in arms)
    family = Family(claims=[c for f in findings.values() for c in f.records])
    intro = [
        f"{len(study.experiments)} experiments over {len(arms)} batches of games, "
        f"{total:,} games in all ({arms[0].spec.players} players, seeds from {arms[0].spec.seed}; "
        "every batch plays the same seeds, so batches are compared game by game on the seed). "
        "Each claim gives a 95% interval in brackets, the test it rests on with its p-value, and "
        "the games (or seat-games: one seat in one game) behind it.",
        f"Correction for many claims: {family.method()}",
    ]
    if command:
        intro.append(f"Made with: {command}")
    summary = Section(
        "What the data shows",
        [f"{e.heading}: {c.sentence()}" for e in study.experiments for c in findings[e.key].records],
    )
    sections = [summary]
    for e in study.experiments:
        finding = findings[e.key]
        batches = "; ".join(f"{a.label} ({a.spec.games:,} games)" for a in e.arms)
        sections.append(
            Section(
                e.heading,
                [
                    e.question,
                    *(c.sentence() for c in finding.records),
                    *finding.notes,
                    f"Batches: {batches}.",
                ],
                finding.figures,
                list(finding.tables),
            )
        )
    return render_page(study.title, intro, sections, footer="Made with tricolore study.")
