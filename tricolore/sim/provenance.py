"""Where results come from: the code, the rules and the strategies that made them, and each run.

A results file records, beside its rows, the version of tricolore that played them and, when it
ran from a git checkout, the commit and whether tracked files differed from it; the game's rules
version; every strategy's full parameters; and each run that played some of its games (the
command line, the code, the time it started). None of it is needed to resume a job: a job is
identified by what it plays, not by the code or the command that played it.
"""

from __future__ import annotations

import functools
import shlex
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import tricolore
from tricolore.agents import strategy_parameters
from tricolore.core.registry import get_game

GIT_SECONDS = 5.0
"""Longest wait for git; a slow or hung git leaves the commit unrecorded rather than the run."""


@functools.lru_cache(maxsize=1)
def code_version() -> dict[str, Any]:
    """The running code: ``tricolore`` (the package version), ``commit`` and ``dirty`` (whether
    tracked files differ from the commit), both ``None`` outside a git checkout of tricolore or
    without git."""
    commit, dirty = _git_state(Path(tricolore.__file__).resolve().parent.parent)
    return {"tricolore": tricolore.__version__, "commit": commit, "dirty": dirty}


def _git_state(root: Path) -> tuple[str | None, bool | None]:
    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(root), *args],
                capture_output=True,
                text=True,
                timeout=GIT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    # an installed copy inside some other repository (a virtualenv in a project) is not a checkout
    if top is None or Path(top).resolve() != root:
        return None, None
    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no")
    return commit, (None if status is None else status != "")


def job_provenance(game: str, strategies: Sequence[str]) -> dict[str, Any]:
    """What a job's rows depend on besides the job itself: the code (:func:`code_version`), the
    game's ``rules_version``, and each strategy's parameters with their defaults, keyed by the
    strategy as the rows name it."""
    definition = get_game(game)
    return {
        **code_version(),
        "rules_version": definition.info.rules_version,
        "strategies": {s: strategy_parameters(definition, s) for s in dict.fromkeys(strategies)},
    }


def this_run(command: str | None = None) -> dict[str, Any]:
    """One run of a job: its ``command`` line (this process's own when not given), the code it
    ran and when it started (UTC)."""
    if command is None:
        command = shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv else ""
    return {
        "command": command,
        **code_version(),
        "python": sys.version.split()[0],
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
