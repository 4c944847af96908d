"""A simulation job from start to finish: play what is left, keep it, report progress.

A job stops early on Ctrl-C (SIGINT) or SIGTERM: what it finished is kept in the journal, its
worker processes are stopped, and :func:`run_job` returns the rows marked ``interrupted`` with
the signal that stopped it, so a command can say what it kept and exit with ``128 + signal``
(130 for SIGINT, 143 for SIGTERM).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from tricolore.sim import backends
from tricolore.sim.batch import BatchSpec, GameRow, check, in_seed_order
from tricolore.sim.results import Journal


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread where Ctrl-C raises :class:`KeyboardInterrupt`, so a
    job stops the same way for both."""

    signum = signal.SIGTERM


class Stopping:
    """The signal handler of a run: SIGINT raises :class:`KeyboardInterrupt`, SIGTERM
    :class:`Terminated`, and ``signal`` remembers the last one that came."""

    def __init__(self) -> None:
        self.signal: signal.Signals | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        """Handle ``signum``: remember it and raise."""
        self.signal = signal.Signals(signum)
        self.check()

    def check(self) -> None:
        """Raise again what the handler raised, if a signal came. Python runs a signal's handler
        in whatever code the main thread runs at that moment, and drops the exception it raises
        when that code is a finalizer (a ``__del__``, a weak reference's callback): a run that
        checks after each piece of work still stops."""
        if self.signal == signal.SIGTERM:
            raise Terminated
        if self.signal is not None:
            raise KeyboardInterrupt


@contextmanager
def stopping() -> Iterator[Stopping]:
    """Within this block, SIGINT and SIGTERM stop the run by an exception rather than end the
    process at once (in the main thread; nested blocks share the outer handler)."""
    current = signal.getsignal(signal.SIGTERM)
    if isinstance(current, Stopping):
        yield current
        return
    stop = Stopping()
    if threading.current_thread() is not threading.main_thread():
        yield stop  # only the main thread may handle signals
        return
    previous: dict[signal.Signals, Any] = {signal.SIGTERM: signal.signal(signal.SIGTERM, stop)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where SIGINT is ignored
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, stop)
    try:
        yield stop
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


@dataclass(slots=True)
class Finished:
    """What a job played: its rows in seed order, and whether it was interrupted."""

    rows: list[GameRow]
    interrupted: bool
    resumed: int = 0
    """Games found already played in the journal (with ``resume``)."""
    signal: signal.Signals | None = None
    """The signal that interrupted the job (SIGINT for Ctrl-C or a bare KeyboardInterrupt)."""
    journal: Journal | None = None
    """The journal of a job run with ``out``: where an interrupted job's games are kept."""


def run_job(
    spec: BatchSpec,
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    out: Path | None = None,
    resume: bool = False,
    progress: Callable[[int], None] | None = None,
    command: str | None = None,
) -> Finished:
    """Play every game of ``spec`` not already in ``out``'s journal, on ``backend``.

    With ``out``, each finished chunk is kept in the journal at once and the results file is
    written at the end, recording ``command`` (this process's command line when not given) among
    its runs; an interrupted job (Ctrl-C, SIGTERM) stops its workers, keeps what it finished and
    returns it marked ``interrupted``. ``progress`` hears the number of games each finished
    chunk adds (and, first, the games found already played).
    """
    check(spec)
    journal = Journal(out, spec, command) if out is not None else None
    rows = journal.start(resume) if journal is not None else []
    resumed = len(rows)
    done = {r.seed for r in rows}
    left = [s for s in spec.seeds() if s not in done]
    stopped_by: signal.Signals | None = None
    with stopping() as stop:
        try:
            if progress and rows:
                progress(len(rows))
            # closed at once on leaving, so an interruption stops the workers before returning
            with closing(backends.run(spec, left, backend, workers, address)) as chunks:
                for chunk in chunks:
                    if journal is not None:
                        journal.save(chunk)
                    rows.extend(chunk)
                    if progress:
                        progress(len(chunk))
                    stop.check()
        except KeyboardInterrupt as exc:
            stopped_by = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    rows = in_seed_order(rows)
    if journal is not None and stopped_by is None:
        journal.finish(rows)
    return Finished(rows, stopped_by is not None, resumed, stopped_by, journal)
