"""Stopping a pool of worker processes: however the workers are caught when they are killed, the
pool shuts down and the run can exit."""

import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from tricolore.sim.backends import stop_workers

ROWS_BYTES = 96 * 1024 * 1024
"""A chunk's rows large enough that sending them takes a while."""

pytestmark = pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="reads what it read from /proc")


def rows() -> bytes:
    """A large result."""
    return b"r" * ROWS_BYTES


def received() -> int:
    """The bytes this process has read so far (the pool reads the rows a piece at a time)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def test_a_pool_stopped_while_a_worker_sends_its_rows_still_shuts_down():
    pool = ProcessPoolExecutor(max_workers=1)
    pool.submit(time.sleep, 0).result()  # the worker is up
    before = received()
    pool.submit(rows)
    deadline = time.monotonic() + 60
    while received() < before + ROWS_BYTES // 8:  # an eighth received: the rest is still to come
        assert time.monotonic() < deadline, "the worker sent nothing"
    stop_workers(pool)
    shutdown = threading.Thread(target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True},
                                daemon=True)
    shutdown.start()
    shutdown.join(20)
    assert not shutdown.is_alive(), "the pool's shutdown waits for ever for the rest of a message"
