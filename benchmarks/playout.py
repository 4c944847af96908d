"""Random-play throughput of every game, quickly: ``tricolore bench --quick`` under its old name.

    python benchmarks/playout.py [--games 100] [--json]

Every argument is passed to ``tricolore bench --quick`` (see benchmarks/bench.py and
:mod:`tricolore.perf.bench`): the simulation and API paths, the cost per call of
``legal_actions``, ``view``, ``clone``, ``determinize`` and ``digest``, the memory of a state, each
as a ratio to the bare-Python floor, beside OpenSpiel's games when installed.
"""

from __future__ import annotations

import sys

from tricolore.cli.main import app

if __name__ == "__main__":
    app(["bench", "--quick", *sys.argv[1:]])
