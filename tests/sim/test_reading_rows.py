"""The "Reading rows" snippets of docs/research.md, run as written on a real results file."""

import re
from pathlib import Path

import pytest

from tricolore.sim.batch import BatchSpec
from tricolore.sim.jobs import run_job
from tricolore.sim.provenance import code_version

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
SEATS = ("p-epsilon-briber:reward=2", "puppet-grabber", "honest-revolutionary", "random")


def snippets() -> list[str]:
    """The Python blocks of the doc's "Reading rows" section, in order."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Reading rows\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    folder = tmp_path_factory.mktemp("rows")
    spec = BatchSpec("culottes", SEATS, 16, seed=3, players_in_pool=4)
    finished = run_job(spec, workers=1, out=folder / "culottes.parquet", command="tricolore simulate")
    return folder, finished.rows


def expected_shares(rows: list) -> dict[str, tuple[int, float]]:
    """Each strategy's seat-games and mean share of the win, counted here by hand."""
    totals: dict[str, list[float]] = {}
    for row in rows:
        for seat, strategy in enumerate(row.strategies):
            totals.setdefault(strategy, []).append(1 / len(row.winners) if seat in row.winners else 0.0)
    return {s: (len(v), sum(v) / len(v)) for s, v in totals.items()}


def run(snippet: str, folder: Path, monkeypatch: pytest.MonkeyPatch, namespace: dict) -> dict:
    monkeypatch.chdir(folder)  # the snippets name the file as culottes.parquet
    exec(compile(snippet, str(DOC), "exec"), namespace)
    return namespace


def test_the_section_has_the_duckdb_pandas_and_provenance_snippets():
    found = snippets()
    assert len(found) == 3
    assert "import duckdb" in found[0] and "unnest" in found[0]
    assert "import pandas" in found[1] and "explode" in found[1]
    assert "tricolore.job" in found[2]


def test_the_duckdb_snippet_gives_each_strategys_share_of_the_win(results, monkeypatch, capsys):
    folder, rows = results
    done = run(snippets()[0], folder, monkeypatch, {})
    got = {s: (n, share) for s, n, share in done["shares"].fetchall()}
    want = expected_shares(rows)
    assert got.keys() == want.keys() == set(SEATS)
    for strategy, (n, share) in want.items():
        assert got[strategy][0] == n and got[strategy][1] == pytest.approx(share)
    assert "share_of_win" in capsys.readouterr().out


def test_the_pandas_snippet_gives_the_same_shares(results, monkeypatch, capsys):
    folder, rows = results
    table = run(snippets()[1], folder, monkeypatch, {})["table"]
    want = expected_shares(rows)
    assert set(table.index) == set(want)
    for strategy, (n, share) in want.items():
        assert table.loc[strategy, "count"] == n and table.loc[strategy, "mean"] == pytest.approx(share)
    assert list(table["mean"]) == sorted(table["mean"], reverse=True)
    assert "p-epsilon-briber:reward=2" in capsys.readouterr().out


def test_the_provenance_snippet_reads_the_code_rules_parameters_and_runs(results, monkeypatch, capsys):
    folder, _ = results
    done = run(snippets()[0], folder, monkeypatch, {})  # it reuses the duckdb import
    done = run(snippets()[2], folder, monkeypatch, done)
    job = done["job"]
    assert job["provenance"]["tricolore"] == code_version()["tricolore"]
    assert job["provenance"]["rules_version"] == "1"
    assert job["provenance"]["strategies"]["p-epsilon-briber:reward=2"]["reward"] == 2
    assert done["commit"] == code_version()["commit"]
    assert "['tricolore simulate']" in capsys.readouterr().out
