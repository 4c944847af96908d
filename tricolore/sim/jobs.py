"""A simulation job from start to finish: play what is left, keep it, report progress."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tricolore.sim import backends
from tricolore.sim.batch import BatchSpec, GameRow, check, in_seed_order
from tricolore.sim.results import Journal


@dataclass(slots=True)
class Finished:
    """What a job played: its rows in seed order, and whether it was interrupted."""

    rows: list[GameRow]
    interrupted: bool
    resumed: int = 0
    """Games found already played in the journal (with ``resume``)."""


def run_job(
    spec: BatchSpec,
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    out: Path | None = None,
    resume: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Finished:
    """Play every game of ``spec`` not already in ``out``'s journal, on ``backend``.

    With ``out``, each finished chunk is kept in the journal at once and the results file is
    written at the end; an interrupted job (Ctrl-C) keeps what it finished and returns it marked
    ``interrupted``. ``progress`` hears the number of games each finished chunk adds (and, first,
    the games found already played).
    """
    check(spec)
    journal = Journal(out, spec) if out is not None else None
    rows = journal.start(resume) if journal is not None else []
    resumed = len(rows)
    if progress and rows:
        progress(len(rows))
    done = {r.seed for r in rows}
    left = [s for s in spec.seeds() if s not in done]
    interrupted = False
    try:
        for chunk in backends.run(spec, left, backend, workers, address):
            if journal is not None:
                journal.save(chunk)
            rows.extend(chunk)
            if progress:
                progress(len(chunk))
    except KeyboardInterrupt:
        interrupted = True
    rows = in_seed_order(rows)
    if journal is not None and not interrupted:
        journal.finish(rows)
    return Finished(rows, interrupted, resumed)
