"""Results files: one Parquet row per game, and the journal that lets a run resume.

A results file holds one row per game (see :data:`SCHEMA`) and, in its schema metadata under
``tricolore.job``, the job that made it (:meth:`BatchSpec.describe`, with its ``provenance``: the
code, the rules version and every strategy's parameters), the number of ``games`` asked, and the
``runs`` that played them (:func:`~tricolore.sim.provenance.this_run`: each one's command line, code
and start). While a job runs, every finished chunk of games is written at once to the journal
folder beside the results file (``results.parquet.parts``), so an interrupted run loses at most the
chunks in flight. ``--resume`` reads the journal, plays only the seeds it lacks, and finishing
writes the results file (rows in seed order) and removes the journal: the same rows as an
uninterrupted run.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from tricolore.sim.batch import BatchSpec, GameRow, in_seed_order
from tricolore.sim.provenance import this_run

SCHEMA = pa.schema(
    [
        ("game", pa.string()),
        ("seed", pa.int64()),
        ("players", pa.int32()),
        ("strategies", pa.list_(pa.string())),
        ("scores", pa.list_(pa.float64())),
        ("winners", pa.list_(pa.int32())),
        ("winner_strategies", pa.list_(pa.string())),
        ("actions", pa.int64()),
        ("roles", pa.list_(pa.string())),
        ("metrics", pa.map_(pa.string(), pa.float64())),
    ]
)
"""One row per game: ``strategies``, ``scores`` and ``roles`` are indexed by seat (seat 0 plays
first); ``winners`` are seats (a shared win lists each); ``actions`` is the game's length in
decisions; ``metrics`` the game's own figures (rounds, riots, Bastille cakes, ...)."""

JOB_KEY = b"tricolore.job"

NOT_IDENTITY = ("games", "provenance", "runs")
"""Parts of a recorded job that a resumed run need not share: a longer run may resume a shorter
one, and the code or command may change between runs (each run is recorded)."""


class ResultsError(Exception):
    """A results file or journal that cannot be used, in one sentence."""


def to_table(rows: Sequence[GameRow], game: str, job: Mapping[str, Any] | None = None) -> pa.Table:
    """The rows as an Arrow table with :data:`SCHEMA` (and the job in its metadata)."""
    columns = {
        "game": [game] * len(rows),
        "seed": [r.seed for r in rows],
        "players": [len(r.strategies) for r in rows],
        "strategies": [list(r.strategies) for r in rows],
        "scores": [list(r.scores) for r in rows],
        "winners": [list(r.winners) for r in rows],
        "winner_strategies": [[r.strategies[w] for w in r.winners] for r in rows],
        "actions": [r.actions for r in rows],
        "roles": [list(r.roles) for r in rows],
        "metrics": [sorted(r.metrics.items()) for r in rows],
    }
    schema = SCHEMA if job is None else SCHEMA.with_metadata({JOB_KEY: json.dumps(job)})
    return pa.Table.from_pydict(columns, schema=schema)


def rows_of(table: pa.Table) -> list[GameRow]:
    """The rows of a results table."""
    return [
        GameRow(
            seed=d["seed"],
            strategies=tuple(d["strategies"]),
            scores=tuple(d["scores"]),
            winners=tuple(d["winners"]),
            actions=d["actions"],
            metrics=dict(d["metrics"]),
            roles=tuple(d["roles"]),
        )
        for d in table.to_pylist()
    ]


def write(path: Path, rows: Sequence[GameRow], game: str, job: Mapping[str, Any] | None = None) -> None:
    """Write a results file at once (through a temporary file, so a reader never sees half)."""
    partial = path.with_name(path.name + ".writing")
    pq.write_table(to_table(rows, game, job), partial)
    os.replace(partial, path)


def read(path: Path) -> pa.Table:
    """A results file as an Arrow table; a file that is not one is refused with a sentence."""
    try:
        table = pq.read_table(path)
    except FileNotFoundError:
        raise ResultsError(f"there is no results file {path}") from None
    except (pa.ArrowInvalid, OSError) as exc:
        raise ResultsError(f"{path} is not a results file written by tricolore ({exc})") from None
    missing = [name for name in SCHEMA.names if name not in table.schema.names]
    if missing:
        raise ResultsError(
            f"{path} is not a results file written by tricolore: it has no {', '.join(missing)} column"
        )
    return table


def job_of(table: pa.Table) -> dict[str, Any] | None:
    """The job recorded in a results table, if any."""
    meta = table.schema.metadata or {}
    return json.loads(meta[JOB_KEY]) if JOB_KEY in meta else None


class Journal:
    """The chunks of a running job, saved as they finish, beside its results file.

    ``command`` is the command line of this run, recorded with the runs before it (this
    process's own when not given).
    """

    def __init__(self, out: Path, spec: BatchSpec, command: str | None = None) -> None:
        self.out = out
        self.spec = spec
        self.folder = out.with_name(out.name + ".parts")
        self.job = spec.describe()
        self.run = this_run(command)
        self.runs: list[dict[str, Any]] = [self.run]

    def start(self, resume: bool) -> list[GameRow]:
        """Open the journal and return the rows already played (only when resuming).

        Without ``resume`` an interrupted run's journal is refused rather than overwritten; with
        it, the journal (or a finished results file) must come from the same job.
        """
        done: list[GameRow] = []
        earlier: Mapping[str, Any] | None = None
        if self.folder.exists():
            if not resume:
                raise ResultsError(
                    f"{self.folder} holds an interrupted run; continue it with "
                    "--resume, or remove that folder to start again"
                )
            earlier = self._journal_job()
            self._check(earlier, self.folder)
            for part in sorted(self.folder.glob("part-*.parquet")):
                try:
                    done.extend(rows_of(pq.read_table(part)))
                except (pa.ArrowInvalid, OSError):
                    part.unlink()  # a chunk cut off mid-write is played again
        elif resume and self.out.exists():
            table = read(self.out)
            earlier = job_of(table)
            self._check(earlier, self.out)
            done.extend(rows_of(table))
        runs = (earlier or {}).get("runs")
        self.runs = [*(runs if isinstance(runs, list) else []), self.run]
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "job.json").write_text(json.dumps({**self.job, "runs": self.runs}), encoding="utf-8")
        if earlier is not None and not any(self.folder.glob("part-*.parquet")):
            # the rows of a finished file being extended go into the journal, so that the journal
            # alone holds everything kept if this run is interrupted in turn
            self.save(in_seed_order(done))
        wanted = set(self.spec.seeds())
        return [r for r in in_seed_order(done) if r.seed in wanted]

    def _journal_job(self) -> dict[str, Any] | None:
        path = self.folder / "job.json"
        if not path.exists():
            return None
        try:
            job = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            raise ResultsError(f"{path} cannot be read; remove {self.folder} to start again") from None
        return job if isinstance(job, dict) else None

    def kept(self) -> int:
        """Games of this job kept in the journal now (what a resumed run would not play again)."""
        wanted = set(self.spec.seeds())
        seeds: set[int] = set()
        for part in self.folder.glob("part-*.parquet"):
            try:
                seeds.update(pq.read_table(part, columns=["seed"]).column("seed").to_pylist())
            except (pa.ArrowInvalid, OSError):
                continue  # cut off mid-write: played again on resuming
        return len(seeds & wanted)

    def _check(self, job: Mapping[str, Any] | None, where: Path) -> None:
        job = {k: v for k, v in (job or {}).items() if k not in NOT_IDENTITY}
        mine = {k: v for k, v in self.job.items() if k not in NOT_IDENTITY}
        if job != mine:
            differs = sorted(k for k in {*mine, *job} if job.get(k) != mine.get(k))
            raise ResultsError(
                f"{where} was made by a different job (its {', '.join(differs)} "
                "differ); resume it with the same game, players, seats, seed and "
                "options, or choose another --out"
            )

    def save(self, rows: Sequence[GameRow]) -> None:
        """Keep a finished chunk."""
        if rows:
            part = self.folder / f"part-{rows[0].seed}-{len(rows)}.parquet"
            partial = part.with_suffix(".writing")
            pq.write_table(to_table(rows, self.spec.game), partial)
            os.replace(partial, part)

    def finish(self, rows: Sequence[GameRow]) -> None:
        """Write the results file, rows in seed order, and drop the journal."""
        job = {**self.job, "games": self.spec.games, "runs": self.runs}
        write(self.out, in_seed_order(rows), self.spec.game, job)
        shutil.rmtree(self.folder, ignore_errors=True)
