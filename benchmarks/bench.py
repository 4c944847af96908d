"""The speed benchmark (``tricolore bench``), and the table of docs/performance.md.

    python benchmarks/bench.py [--quick] [--json | --markdown] [--games N] [--passes N]
    python benchmarks/bench.py --write-doc [docs/performance.md] [--games N] [--passes N]
    python benchmarks/bench.py --from-json run.json [--write-doc [docs/performance.md]]

Without ``--write-doc`` or ``--from-json`` it is ``tricolore bench`` itself (see
:mod:`tricolore.perf.bench`). ``--write-doc`` runs the full benchmark (or reads ``--from-json``, a
saved ``tricolore bench --json``) and replaces the measured part of the page, between its
``<!-- bench:begin -->`` and ``<!-- bench:end -->`` lines, with the new tables.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tricolore.cli.main import app
from tricolore.perf import bench, render

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
DOC = Path(__file__).resolve().parent.parent / "docs" / "performance.md"


def write_doc(path: Path, result: dict) -> None:
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        sys.exit(f"{path} has no {BEGIN} ... {END} block to replace")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    path.write_text(f"{head}{BEGIN}\n{render.markdown(result)}\n{END}{tail}", encoding="utf-8")
    print(f"{path} updated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=False)
    parser.add_argument("--write-doc", nargs="?", const=DOC, type=Path)
    parser.add_argument("--from-json", type=Path)
    ours, rest = parser.parse_known_args()
    if ours.write_doc is None and ours.from_json is None:
        app(["bench", *rest])
        return
    if ours.from_json is not None:
        result = json.loads(ours.from_json.read_text(encoding="utf-8"))
    else:
        known = argparse.ArgumentParser()
        known.add_argument("--games", type=int)
        known.add_argument("--passes", type=int)
        options = known.parse_args(rest)
        result = bench.run(bench.settings(False, options.games, options.passes),
                           lambda message: print(message, file=sys.stderr))
    if ours.write_doc is None:
        print(render.markdown(result))
    else:
        write_doc(ours.write_doc, result)


if __name__ == "__main__":
    main()
