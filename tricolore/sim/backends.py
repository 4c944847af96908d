"""Where a batch's games are played: worker processes on this machine, or a Ray cluster.

Both back ends play the same chunks of seeds with :func:`~tricolore.sim.batch.play_chunk`, and a
game's row depends only on its seed and the job, so the rows are the same whichever runs them;
chunks come back in the order they finish.

No worker process outlives its run. When the run stops early (an exception, Ctrl-C, SIGTERM, or
the generator closed), its workers are killed at once rather than left to finish their chunks;
and a worker whose run process dies without a word (SIGKILL) dies too: on Linux the kernel
kills it with its parent (``PR_SET_PDEATHSIG``), and everywhere a watchdog thread ends it
once its parent is gone.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from itertools import islice
from typing import Any

from tricolore.sim.batch import BatchSpec, GameRow, play_chunk

BACKENDS = ("local", "ray")


class BackendError(Exception):
    """A back end that cannot run, in one sentence."""


def chunked(seeds: Sequence[int], workers: int) -> list[list[int]]:
    """Seeds in chunks small enough to spread over ``workers`` (about four each) and to lose
    little when a run is interrupted, large enough to keep the overhead small."""
    size = max(1, min(50, len(seeds) // (workers * 4)))
    return [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]


PR_SET_PDEATHSIG = 1
"""The Linux ``prctl`` option that sends a process a signal when its parent ends."""

WATCH_SECONDS = 0.5
"""How often a worker's watchdog looks for its parent."""


def start_worker(run: int) -> None:
    """Set up a worker process of the run process ``run``: it leaves Ctrl-C to the run (a
    terminal sends SIGINT to every process of the group, and the run stops its workers itself),
    ends on SIGTERM, and dies with its parent (the run, or the process that forks workers for
    it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the run's handler, copied by fork
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still ends the worker
    if os.getppid() != parent or not running(run):  # it ended before the kernel was asked
        os._exit(1)
    threading.Thread(target=watch_parent, args=(parent, run), name="parent-watchdog", daemon=True).start()


def watch_parent(parent: int, run: int) -> None:
    """End this process as soon as ``parent`` is no longer its parent (it has ended and the
    process was handed to another) or the run process has ended."""
    while os.getppid() == parent and running(run):
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def running(pid: int) -> bool:
    """Whether the process ``pid`` exists (always true where that cannot be asked)."""
    if os.name != "posix":
        return True  # os.kill(pid, 0) would send Ctrl-C on Windows
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's worker processes now, abandoning the chunks they play.

    A worker killed while it sends a chunk's rows leaves half a message in the pipe, and the
    pool's manager thread would wait for the rest for ever (it holds the pipe's writing end
    itself), so that neither ``shutdown`` nor the interpreter's exit returned. So this process's
    copy of that writing end is closed too: once the killed workers' copies close with them, the
    half message ends in an end of file, which the manager thread takes as a broken pool. (The
    workers are not waited for here: waiting let the manager thread find the pool broken before
    ``shutdown`` had cancelled the chunks not started, which Python 3.11 reports as an error.)"""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if callable(terminate):
        terminate()
    else:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            if process.is_alive():
                process.kill()
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()


def run_local(
    spec: BatchSpec, seeds: Sequence[int], workers: int | None = None
) -> Generator[list[GameRow], None, None]:
    """Play ``seeds`` in worker processes on this machine (in this process for one worker or a
    handful of games), yielding each chunk's rows as it finishes."""
    workers = workers or os.cpu_count() or 1
    chunks = chunked(seeds, workers)
    if workers == 1 or len(seeds) < 20:
        for chunk in chunks:
            yield play_chunk(spec, chunk)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=start_worker, initargs=(os.getpid(),))
    complete = False
    try:
        running: set[Future[list[GameRow]]] = set()
        waiting = iter(chunks)
        for chunk in waiting:  # a bounded queue keeps the memory of a long run small
            running.add(pool.submit(play_chunk, spec, chunk))
            if len(running) >= workers * 2:
                break
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                more = next(waiting, None)
                if more is not None:
                    running.add(pool.submit(play_chunk, spec, more))
                yield future.result()
        complete = True
    finally:
        if not complete:
            stop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def ray_session(backend: str, address: str | None = None, workers: int | None = None) -> Iterator[None]:
    """Ray for everything played inside: the cluster at ``address`` (``auto``, ``host:port`` or
    ``ray://host:10001``), or a Ray started on this machine with ``workers`` CPUs; shut down on
    leaving if it was started here. A job of many batches (the empirical game's profiles, the
    best-response loop) holds one session rather than one per batch. Nothing for another back
    end."""
    if backend != "ray":
        yield
        return
    try:
        import ray
    except ImportError:
        raise BackendError(
            "the ray back end needs Ray; install it with pip install 'tricolore[ray]'"
        ) from None
    started = not ray.is_initialized()
    if started:
        settings: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address is None:
            settings["num_cpus"] = workers or os.cpu_count() or 1
        try:
            ray.init(address=address, **settings)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise BackendError(f"cannot reach the Ray cluster at {address}: {exc}") from None
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def run_ray(
    spec: BatchSpec, seeds: Sequence[int], address: str | None = None, workers: int | None = None
) -> Generator[list[GameRow], None, None]:
    """Play ``seeds`` on Ray (see :func:`ray_session`). Every node needs this version of
    tricolore installed."""
    with ray_session("ray", address, workers):
        import ray

        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(play_chunk)
        chunks = iter(chunked(seeds, cpus))
        running = [remote.remote(spec, c) for c in islice(chunks, cpus * 2)]
        while running:
            finished, running = ray.wait(running, num_returns=1)
            chunk = next(chunks, None)
            if chunk is not None:
                running.append(remote.remote(spec, chunk))
            yield ray.get(finished[0])


def run(
    spec: BatchSpec,
    seeds: Sequence[int],
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
) -> Generator[list[GameRow], None, None]:
    """Play ``seeds`` of ``spec`` on ``backend``, yielding chunks of rows as they finish (close
    the generator to stop early: its workers stop with it)."""
    if backend == "local":
        if address is not None:
            raise BackendError("--ray-address is for the ray back end; add --backend ray")
        return run_local(spec, seeds, workers)
    if backend == "ray":
        return run_ray(spec, seeds, address, workers)
    raise BackendError(f"there is no back end {backend!r}; back ends are: {', '.join(BACKENDS)}")
