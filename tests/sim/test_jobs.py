"""Simulation jobs: balanced seats, Parquet rows, resuming, and the Ray back end."""

import json
import multiprocessing
import os
import signal
import subprocess
import time
from collections import Counter

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import tricolore
from tricolore.agents import strategy_parameters
from tricolore.cli.main import app
from tricolore.core import get_game
from tricolore.sim import batch
from tricolore.sim.backends import run_local
from tricolore.sim.batch import BatchSpec, lineup, play_one, summarise
from tricolore.sim.jobs import run_job
from tricolore.sim.provenance import _git_state, code_version
from tricolore.sim.results import SCHEMA, Journal, ResultsError, job_of, read, rows_of

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


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost exception
def test_a_run_stops_even_when_the_exception_of_its_signal_is_lost(tmp_path):
    """A signal that comes while a finalizer runs has its handler's exception dropped by Python
    ("Exception ignored in ..."): the run still stops after the chunk, keeping what it played."""

    class Finalized:
        def __del__(self) -> None:
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)  # the run's own handler

    def progress(n: int) -> None:
        Finalized()  # dropped at once: its finalizer meets the signal

    out = tmp_path / "results.parquet"
    # Ctrl-C as in a terminal, even where the tests run with it ignored
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        cut = run_job(SPEC, workers=1, out=out, progress=progress)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back after the run
    finally:
        signal.signal(signal.SIGINT, before)
    assert cut.interrupted and cut.signal == signal.SIGINT
    assert 0 < len(cut.rows) < 24 and not out.exists()


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


# -- stopping early ------------------------------------------------------------------------------------
def slow_unless_first(spec, seed):
    """A game that takes long, except the first game of the job, which fails or plays at once."""
    if seed != spec.seed:
        time.sleep(60)
    return play_one(spec, seed)


def failing_first(spec, seed):
    if seed == spec.seed:
        raise RuntimeError("this game cannot be played")
    time.sleep(60)
    return play_one(spec, seed)


def test_an_interrupted_job_stops_its_workers_at_once_rather_than_let_them_finish(monkeypatch, tmp_path):
    monkeypatch.setattr(batch, "play_one", slow_unless_first)  # the workers are forked with it
    spec = BatchSpec("culottes", SPEC.seats, 20, seed=5)  # four workers: a game a chunk
    began = time.monotonic()
    cut = run_job(spec, workers=4, out=tmp_path / "r.parquet", progress=Interrupt(1))
    assert time.monotonic() - began < 20 and not multiprocessing.active_children()
    assert cut.interrupted and cut.signal == signal.SIGINT and [r.seed for r in cut.rows] == [5]
    assert cut.journal is not None and cut.journal.kept() == 1


def test_a_failing_game_stops_the_other_workers_and_is_raised(monkeypatch):
    monkeypatch.setattr(batch, "play_one", failing_first)
    began = time.monotonic()
    with pytest.raises(RuntimeError, match="this game cannot be played"):
        run_job(BatchSpec("culottes", SPEC.seats, 20, seed=5), workers=4)
    assert time.monotonic() - began < 20 and not multiprocessing.active_children()


def test_closing_the_local_back_end_early_stops_its_workers():
    chunks = run_local(BatchSpec("culottes", SPEC.seats, 400, seed=5), list(range(5, 405)), workers=2)
    next(chunks)
    workers = multiprocessing.active_children()
    assert len(workers) == 2
    chunks.close()
    assert not multiprocessing.active_children() and not any(w.is_alive() for w in workers)


def test_sigterm_interrupts_a_job_as_ctrl_c_does_and_is_told_apart(tmp_path):
    def terminate(n: int) -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    before = signal.getsignal(signal.SIGTERM)
    cut = run_job(SPEC, workers=1, out=tmp_path / "r.parquet", progress=terminate)
    assert cut.interrupted and cut.signal == signal.SIGTERM and 0 < len(cut.rows) < 24
    assert signal.getsignal(signal.SIGTERM) is before  # the run's handler is removed after it


# -- provenance ----------------------------------------------------------------------------------------
def test_a_results_file_records_the_code_rules_strategy_parameters_and_command(tmp_path):
    seats = ("p-epsilon-briber:reward=2", "honest-revolutionary", "random", "random")
    spec = BatchSpec("culottes", seats, 8, seed=1)
    run_job(spec, workers=1, out=tmp_path / "r.parquet", command="tricolore simulate culottes")
    job = job_of(read(tmp_path / "r.parquet"))
    game = get_game("culottes")
    assert job["provenance"] == {**code_version(), "rules_version": game.info.rules_version,
                                 "strategies": {s: strategy_parameters(game, s) for s in seats[:3]}}
    assert job["provenance"]["tricolore"] == tricolore.__version__
    assert job["provenance"]["strategies"]["p-epsilon-briber:reward=2"]["reward"] == 2
    [run] = job["runs"]
    assert run["command"] == "tricolore simulate culottes" and run["tricolore"] == tricolore.__version__
    assert {"commit", "dirty", "started", "python"} <= set(run)


def test_the_commit_and_a_dirty_tree_are_recorded_from_a_git_checkout_and_nothing_without_one(
        tmp_path, monkeypatch):
    repo = tmp_path / "checkout"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "rules.txt").write_text("one")
    subprocess.run([*git, "add", "rules.txt"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "rules"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    assert _git_state(repo.resolve()) == (head.stdout.strip(), False)
    (repo / "rules.txt").write_text("two")
    assert _git_state(repo.resolve()) == (head.stdout.strip(), True)
    (repo / "inside").mkdir()
    assert _git_state((repo / "inside").resolve()) == (None, None)  # not the checkout's top
    assert _git_state(tmp_path.resolve()) == (None, None)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))  # no git at all
    assert _git_state(repo.resolve()) == (None, None)


def test_resume_accepts_a_journal_made_by_other_code_or_another_command_and_records_both_runs(tmp_path):
    out = tmp_path / "results.parquet"
    run_job(SPEC, workers=1, out=out, progress=Interrupt(6), command="tricolore simulate first")
    journal = Journal(out, SPEC)
    job = json.loads((journal.folder / "job.json").read_text())
    job["provenance"] = {**job["provenance"], "commit": "0" * 40, "tricolore": "0.0.1"}
    job["runs"][0]["commit"] = "0" * 40
    (journal.folder / "job.json").write_text(json.dumps(job))
    resumed = run_job(SPEC, workers=1, out=out, resume=True, command="tricolore simulate second")
    assert resumed.rows == run_job(SPEC, workers=1).rows
    runs = job_of(read(out))["runs"]
    assert [r["command"] for r in runs] == ["tricolore simulate first", "tricolore simulate second"]
    assert runs[0]["commit"] == "0" * 40 and runs[1]["commit"] == code_version()["commit"]


def test_an_extended_file_interrupted_again_keeps_its_earlier_games_in_the_journal(tmp_path):
    out = tmp_path / "results.parquet"
    run_job(BatchSpec("culottes", SPEC.seats, 12, seed=5), workers=1, out=out)
    cut = run_job(SPEC, workers=1, out=out, resume=True, progress=Interrupt(13))
    assert cut.interrupted and cut.journal is not None and cut.journal.kept() == len(cut.rows) > 12
    out.unlink()  # the journal alone holds every game kept
    again = run_job(SPEC, workers=1, out=out, resume=True)
    assert again.resumed == len(cut.rows) and again.rows == run_job(SPEC, workers=1).rows
