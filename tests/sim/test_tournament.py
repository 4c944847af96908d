"""The ``tournament`` command, end to end on a small fast game."""

import json
import re

import pytest
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.sim.results import job_of, read, rows_of

runner = CliRunner()
STRATEGIES = "random,honest-revolutionary,puppet-grabber"


def run(*args):
    return runner.invoke(app, list(args))


def test_a_tournament_writes_rows_rates_strategies_and_reports_on_them(tmp_path):
    out = tmp_path / "t.parquet"
    result = run("tournament", "culottes", "--strategies", STRATEGIES, "--players", "4",
                 "--games", "40", "--workers", "1", "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 40 and summary["pool"] is True and summary["players"] == 4
    ordinals = [r["ordinal"] for r in summary["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert {r["strategy"] for r in summary["ratings"]} == set(STRATEGIES.split(","))
    assert summary["ratings"][-1]["strategy"] == "random"
    pairs = summary["head_to_head"]
    assert pairs["random"]["puppet-grabber"]["games"] == 40  # three strategies at four seats: all sit
    assert pairs["random"]["puppet-grabber"]["share"] + pairs["puppet-grabber"]["random"]["share"] \
        == pytest.approx(1.0, abs=1e-3)

    table = read(out)
    rows = rows_of(table)
    assert len(rows) == 40 and job_of(table)["pool"] is True
    assert all(set(r.strategies) == set(STRATEGIES.split(",")) for r in rows)
    for seat in range(4):  # rotated: every strategy sits in every seat
        assert {r.strategies[seat] for r in rows} == set(STRATEGIES.split(","))

    report = run("report", str(out), "--out", str(tmp_path / "t.html"))
    assert report.exit_code == 0, report.output
    page = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert {"Ratings", "Head to head", "By role"} <= set(re.findall(r"<h2>(.*?)</h2>", page))
    assert "pool (each game draws its seats)" in page


def test_a_tournament_prints_ratings_and_head_to_head_as_tables():
    result = run("tournament", "culottes", "--strategies", "random,puppet-grabber", "--players", "3",
                 "--games", "6", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "ordinal" in result.output and "head to head" in result.output
    assert result.output.index("puppet-grabber") < result.output.index("random")


def test_the_players_default_to_one_per_strategy_within_the_game_s_range():
    result = run("tournament", "culottes", "--strategies", "random,puppet-grabber", "--games", "3",
                 "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["players"] == 3  # Culottes is for 3 to 12


@pytest.mark.parametrize(("args", "why"), [
    (["--strategies", "random"], "at least two strategies"),
    (["--strategies", "random,random"], "names a strategy twice"),
    (["--strategies", "random,nobody"], "nobody"),
    (["--strategies", "random,puppet-grabber", "--games", "0"], "--games must be at least 1"),
    (["--strategies", "random,puppet-grabber", "--players", "2"], "3 to 12 players"),
])
def test_bad_input_to_a_tournament_is_refused_with_a_sentence(args, why):
    result = run("tournament", "culottes", *args)
    assert result.exit_code == 1
    assert why in result.output and "Traceback" not in result.output
