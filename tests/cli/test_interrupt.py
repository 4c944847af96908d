"""Interrupted runs, end to end in a real process: the exit status, a message that claims only what
was kept, and no worker process left behind however the run ends."""

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest

TRICOLORE = Path(sys.executable).with_name("tricolore")
POOL = "pool:random,puppet-grabber,honest-revolutionary"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def parent_of(pid: int) -> tuple[int, str] | None:
    """The parent and state of a process, or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid = stat.rsplit(")", 1)[1].split()[:2]
    return int(ppid), state


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := parent_of(int(entry.name))) is not None:
            parents[int(entry.name)] = found[0]
    below: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - below
        below |= frontier
    return below


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that can still run (a zombie has ended)."""
    found = parent_of(pid)
    return found is not None and found[1] not in ("Z", "X")


def wait_until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.05)


def journal_games(folder: Path) -> int:
    return sum(pq.read_metadata(p).num_rows for p in folder.glob("part-*.parquet"))


STARTED: list[subprocess.Popen[str]] = []
"""The runs a test started, each the leader of its own process group."""


@pytest.fixture(autouse=True)
def no_run_outlives_its_test():
    """A run a failed test left going is killed with its workers, so that it does not slow the
    tests after it."""
    yield
    while STARTED:
        process = STARTED.pop()
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def as_from_a_terminal() -> None:
    """Start the run as a terminal starts a command in the foreground: Ctrl-C not ignored, even
    when the tests themselves were started with it ignored (in the background of a script)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen([str(TRICOLORE), *args], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=as_from_a_terminal)
    STARTED.append(process)
    return process


def started_playing(process: subprocess.Popen[str], journal: Path) -> set[int]:
    """Wait until two workers play and a chunk is kept; the run's processes below it."""
    wait_until(lambda: len(descendants(process.pid)) >= 2 and journal.exists()
               and any(journal.glob("part-*.parquet")), 60, "two workers and a kept chunk")
    workers = descendants(process.pid)
    assert all(running(w) for w in workers)
    return workers


def simulate(tmp_path: Path) -> tuple[subprocess.Popen[str], list[str], Path]:
    args = ["simulate", "culottes", "--players", "4", "--games", "400000", "--seats", POOL, "--json",
            "--out", "r.parquet", "--workers", "2"]  # in the order the command declares them
    return start(args, tmp_path), args, tmp_path / "r.parquet"


@pytest.mark.parametrize("how, status, named", [
    ("Ctrl-C", 130, "Ctrl-C (SIGINT)"),
    ("SIGTERM", 143, "SIGTERM"),
])
def test_an_interrupted_simulate_says_what_it_kept_exits_non_zero_and_leaves_no_worker(
        tmp_path, how, status, named):
    process, args, out = simulate(tmp_path)
    journal = out.with_name("r.parquet.parts")
    workers = started_playing(process, journal)
    if how == "Ctrl-C":  # a terminal sends SIGINT to every process of the foreground group
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=30)
    wait_until(lambda: not any(running(w) for w in workers), 5, "the workers to end")
    assert process.returncode == status, stderr
    assert "Traceback" not in stderr and "rows written" not in stdout + stderr
    kept = re.search(rf"interrupted by {re.escape(named)}: ([\d,]+) of 400,000 games are kept in "
                     rf"(\S+); r.parquet is written only when every game is played\. "
                     r"Continue with: (.+)$", " ".join(stderr.split()))
    assert kept is not None, stderr
    assert int(kept[1].replace(",", "")) == journal_games(journal) > 0
    assert kept[2] == "r.parquet.parts" and not out.exists()
    assert shlex.split(kept[3]) == ["tricolore", *args, "--resume"]
    summary = json.loads(stdout)
    assert summary["interrupted"] and summary["out"] is None


def test_workers_end_with_a_simulate_killed_outright(tmp_path):
    process, _, out = simulate(tmp_path)
    workers = started_playing(process, out.with_name("r.parquet.parts"))
    process.kill()
    process.wait(timeout=10)
    wait_until(lambda: not any(running(w) for w in workers), 5, "the workers to end with their parent")


def test_an_interrupted_tournament_says_what_it_kept_and_exits_143_on_sigterm(tmp_path):
    args = ["tournament", "culottes", "--strategies", "random,puppet-grabber,honest-revolutionary",
            "--games", "400000", "--players", "4", "--out", "t.parquet", "--workers", "2"]
    process = start(args, tmp_path)
    journal = tmp_path / "t.parquet.parts"
    workers = started_playing(process, journal)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=30)
    wait_until(lambda: not any(running(w) for w in workers), 5, "the workers to end")
    assert process.returncode == 143, stderr
    message = " ".join(stderr.split())
    kept = re.search(r"interrupted by SIGTERM: ([\d,]+) of 400,000 games are kept in t\.parquet\.parts",
                     message)
    assert kept is not None and int(kept[1].replace(",", "")) == journal_games(journal)
    assert "rows written" not in stdout and "(interrupted)" in stdout
    assert message.endswith(shlex.join(["tricolore", *args, "--resume"]))


def test_an_interrupted_study_says_what_it_kept_and_exits_130_on_ctrl_c(tmp_path):
    args = ["study", "culottes-trials", "--out", "s", "--games", "400000", "--workers", "2"]
    process = start(args, tmp_path)
    folder = tmp_path / "s"
    wait_until(lambda: folder.exists() and any(folder.glob("*.parts/part-*.parquet")), 60, "a kept chunk")
    workers = descendants(process.pid)
    assert len(workers) >= 2
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    wait_until(lambda: not any(running(w) for w in workers), 5, "the workers to end")
    assert process.returncode == 130, stderr
    message = " ".join(stderr.split())
    kept = re.search(r"interrupted by Ctrl-C \(SIGINT\): 0 of (\d+) batches are finished in s and "
                     r"([\d,]+) games of the others are kept in their journals", message)
    assert kept is not None, stderr
    assert int(kept[2].replace(",", "")) == sum(journal_games(j) for j in folder.glob("*.parts")) > 0
    assert not (folder / "report.html").exists()
    assert message.endswith("Resume with the same command: " + shlex.join(["tricolore", *args]))


def test_empirical_stopped_by_sigterm_exits_143_keeps_its_profiles_and_leaves_no_worker(tmp_path):
    out = tmp_path / "eg"
    process = start(["empirical", "culottes", "--games", "40", "--workers", "2", "--out", str(out),
                     "--json"], tmp_path)
    wait_until(lambda: len(descendants(process.pid)) >= 2 and any((out / "profiles").glob("*.parquet"))
               if (out / "profiles").exists() else False, 120, "two workers and a finished profile")
    workers = descendants(process.pid)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert "interrupted by SIGTERM" in err and f"kept in {out}" in err and "Traceback" not in err
    wait_until(lambda: not any(running(w) for w in workers), 10, "the workers to end")
    assert not (out / "empirical.json").exists()
