"""Simulation jobs: balanced seats, Parquet rows, resuming, and the Ray back end."""

import json
from collections import Counter

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.sim.batch import BatchSpec, lineup, play_one, summarise
from tricolore.sim.jobs import run_job
from tricolore.sim.results import SCHEMA, Journal, ResultsError, read, rows_of

runner = CliRunner()
SPEC = BatchSpec("culottes", ("honest-revolutionary", "puppet-grabber", "random", "random"), 24, seed=5)


# -- seat balancing --------------------------------------------------------------------------------
def test_rotation_seats_every_strategy_once_in_every_seat_over_each_block():
    strategies = ["a", "b", "c", "d"]
    block = [lineup(strategies, 4, 0, i) for i in range(8)]
    for seat in range(4):
        assert Counter(line[seat] for line in block) == dict.fromkeys(strategies, 2)
    assert all(sorted(line) == strategies for line in block)


def test_without_rotation_every_game_has_the_seats_as_given():
    assert {lineup(["a", "b", "c"], 3, 0, i, rotate=False) for i in range(6)} == {("a", "b", "c")}


def test_a_pool_larger_than_the_table_draws_distinct_strategies_balanced_over_seats():
    pool = ["a", "b", "c", "d", "e"]
    lines = [lineup(pool, 3, 7, i, pool=True) for i in range(3000)]
    assert all(len(set(line)) == 3 for line in lines)
    for seat in range(3):
        counts = Counter(line[seat] for line in lines)
        assert set(counts) == set(pool) and max(counts.values()) - min(counts.values()) < 150


def test_a_pool_smaller_than_the_table_seats_each_strategy_as_often_as_any_other_give_or_take_one():
    for i in range(40):
        counts = Counter(lineup(["a", "b", "c"], 5, 1, i, pool=True))
        assert max(counts.values()) - min(counts.values()) <= 1 and sum(counts.values()) == 5


def test_a_games_line_up_depends_only_on_the_job_and_its_seed():
    spec = BatchSpec("culottes", ("a", "b", "c"), 100, seed=3, players_in_pool=3)
    assert spec.lineup(50) == lineup(["a", "b", "c"], 3, 3, 47, pool=True)


def test_the_summary_reports_each_seats_win_rate_whatever_its_strategy():
    rows = [play_one(SPEC, s) for s in SPEC.seeds()[:8]]
    summary = summarise(SPEC, rows)
    assert [s["seat"] for s in summary["by_seat"]] == [1, 2, 3, 4]
    assert all(s["games"] == 8 for s in summary["by_seat"])
    assert sum(s["wins"] for s in summary["by_seat"]) == sum(len(r.winners) for r in rows)
    assert sum(s["seat_games"] for s in summary["strategies"].values()) == 32
    assert summary["strategies"]["random"]["seat_games"] == 16


# -- rows --------------------------------------------------------------------------------------------
def test_out_writes_one_parquet_row_per_game_with_its_seats_scores_winner_length_and_metrics(tmp_path):
    out = tmp_path / "results.parquet"
    finished = run_job(SPEC, workers=1, out=out)
    table = read(out)
    assert table.schema.remove_metadata() == SCHEMA and table.num_rows == 24
    assert rows_of(table) == finished.rows
    first = table.slice(0, 1).to_pylist()[0]
    assert first["game"] == "culottes" and first["seed"] == 5
    assert sorted(first["strategies"]) == sorted(SPEC.seats)
    assert first["winner_strategies"] == [first["strategies"][w] for w in first["winners"]]
    assert first["actions"] > 0 and dict(first["metrics"])["turns"] > 0
    assert set(first["roles"]) <= {"grabber", "revolutionary"}
    assert json.loads(table.schema.metadata[b"tricolore.job"])["games"] == 24
    assert not (tmp_path / "results.parquet.parts").exists()


def test_rows_are_the_same_whatever_the_number_of_workers():
    assert run_job(SPEC, workers=1).rows == run_job(SPEC, workers=2).rows


# -- resuming ----------------------------------------------------------------------------------------
class Interrupt:
    """Ctrl-C after ``after`` games."""

    def __init__(self, after: int) -> None:
        self.after, self.seen = after, 0

    def __call__(self, n: int) -> None:
        self.seen += n
        if self.seen >= self.after:
            raise KeyboardInterrupt


def test_resume_continues_an_interrupted_run_without_replaying_its_games_to_the_same_rows(tmp_path):
    whole = run_job(SPEC, workers=1).rows
    out = tmp_path / "results.parquet"
    cut = run_job(SPEC, workers=1, out=out, progress=Interrupt(6))
    assert cut.interrupted and 0 < len(cut.rows) < 24 and not out.exists()
    played: list[int] = []
    resumed = run_job(SPEC, workers=1, out=out, resume=True, progress=played.append)
    assert resumed.resumed == len(cut.rows) and played[0] == len(cut.rows)
    assert sum(played[1:]) == 24 - len(cut.rows)
    assert resumed.rows == whole and rows_of(pq.read_table(out)) == whole


def test_an_interrupted_run_is_not_overwritten_without_resume(tmp_path):
    out = tmp_path / "results.parquet"
    run_job(SPEC, workers=1, out=out, progress=Interrupt(1))
    with pytest.raises(ResultsError, match="interrupted run; continue it with --resume"):
        run_job(SPEC, workers=1, out=out)


def test_resume_refuses_the_journal_of_a_different_job(tmp_path):
    out = tmp_path / "results.parquet"
    run_job(SPEC, workers=1, out=out, progress=Interrupt(1))
    other = BatchSpec("culottes", SPEC.seats, 24, seed=6)
    with pytest.raises(ResultsError, match=r"different job \(its seed differ\)"):
        run_job(other, workers=1, out=out, resume=True)


def test_a_finished_run_resumed_with_more_games_plays_only_the_new_ones(tmp_path):
    out = tmp_path / "results.parquet"
    run_job(BatchSpec("culottes", SPEC.seats, 12, seed=5), workers=1, out=out)
    longer = run_job(SPEC, workers=1, out=out, resume=True)
    assert longer.resumed == 12 and longer.rows == run_job(SPEC, workers=1).rows


def test_a_chunk_cut_off_mid_write_is_played_again(tmp_path):
    out = tmp_path / "results.parquet"
    run_job(SPEC, workers=1, out=out, progress=Interrupt(6))
    journal = Journal(out, SPEC)
    (journal.folder / "part-999-3.parquet").write_bytes(b"PAR1 cut off")
    assert run_job(SPEC, workers=1, out=out, resume=True).rows == run_job(SPEC, workers=1).rows


# -- Ray -----------------------------------------------------------------------------------------------
def test_the_ray_back_end_on_a_local_ray_gives_the_local_rows_row_for_row(tmp_path):
    spec = BatchSpec("culottes", ("random", "puppet-grabber", "honest-revolutionary"), 30, seed=11,
                     players_in_pool=4)
    local = run_job(spec, workers=2, out=tmp_path / "local.parquet")
    on_ray = run_job(spec, backend="ray", workers=2, out=tmp_path / "ray.parquet")
    assert on_ray.rows == local.rows
    assert read(tmp_path / "ray.parquet").equals(read(tmp_path / "local.parquet"))


# -- the command ---------------------------------------------------------------------------------------
def test_simulate_out_and_resume_from_the_command_line(tmp_path):
    out = tmp_path / "r.parquet"
    args = ["simulate", "culottes", "--players", "4", "--games", "12", "--workers", "1", "--json",
            "--seats", "pool:random,puppet-grabber,honest-revolutionary", "--out", str(out)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    summary = json.loads(first.output)  # --json prints the summary alone: no progress bar
    assert summary["pool"] and summary["out"] == str(out) and len(summary["by_seat"]) == 4
    assert read(out).num_rows == 12
    again = runner.invoke(app, [*args, "--resume"])
    assert again.exit_code == 0 and json.loads(again.output)["strategies"] == summary["strategies"]


@pytest.mark.parametrize("args, sentence", [
    (["--resume"], "--resume continues the run kept in an --out file"),
    (["--backend", "spark"], "there is no back end 'spark'; back ends are: local, ray"),
    (["--ray-address", "auto"], "--ray-address is for the ray back end"),
    (["--seats", "pool:"], "--seats pool: names no strategy"),
    (["--seats", "pool:random,random"], "names a strategy twice"),
    (["--seats", "pool:random,nobody"], "has no strategy 'nobody'"),
])
def test_simulate_refuses_bad_job_settings_with_a_sentence(args, sentence):
    result = runner.invoke(app, ["simulate", "culottes", "--games", "3", "--json", *args])
    assert result.exit_code == 1 and sentence in result.output and "Traceback" not in result.output


def test_simulate_refuses_an_out_that_is_a_folder_or_not_a_results_file(tmp_path):
    folder = runner.invoke(app, ["simulate", "culottes", "--games", "3", "--out", str(tmp_path)])
    assert folder.exit_code == 1 and "--out must name a file" in folder.output
    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    resumed = runner.invoke(app, ["simulate", "culottes", "--games", "3", "--out", str(junk), "--resume"])
    assert resumed.exit_code == 1 and "is not a results file written by tricolore" in resumed.output
