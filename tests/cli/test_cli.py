"""The command line, as a user runs it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tricolore.cli.main import app

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_games_lists_games_with_player_ranges():
    result = run("games")
    assert result.exit_code == 0
    assert "culottes" in result.output and "3-12" in result.output


def test_simulate_prints_a_json_summary_and_keeps_records(tmp_path):
    result = run("simulate", "culottes", "--players", "4", "--games", "30", "--seed", "1", "--json",
                 "--records", str(tmp_path), "--workers", "1")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 30 and summary["mean_turns"] > 0
    assert set(summary["strategies"]) == set(summary["seats"]) == {
        "honest-revolutionary", "puppet-grabber", "p-epsilon-briber", "alliance-defender"}
    assert {"bastille_to_sans_culottes", "bastille_to_privileged"} <= set(summary["metrics"])
    assert len(list(tmp_path.glob("*.json"))) == 30
    verified = run("replay", "--verify", str(tmp_path))
    assert verified.exit_code == 0 and "30 records, every digest verified" in verified.output


def test_simulate_is_the_same_whatever_the_number_of_workers():
    one = json.loads(run("simulate", "culottes", "--games", "40", "--json", "--workers", "1").output)
    two = json.loads(run("simulate", "culottes", "--games", "40", "--json", "--workers", "2").output)
    assert one == two


def test_replay_without_verify_prints_the_game_step_by_step(tmp_path):
    run("simulate", "culottes", "--players", "3", "--games", "1", "--records", str(tmp_path), "--json")
    result = run("replay", str(next(tmp_path.glob("*.json"))))
    assert result.exit_code == 0
    assert "1. seat 0" in result.output and "plays as a" in result.output


def test_replay_verify_exits_non_zero_on_a_mismatch(tmp_path):
    run("simulate", "culottes", "--players", "3", "--games", "1", "--records", str(tmp_path), "--json")
    path = next(tmp_path.glob("*.json"))
    data = json.loads(path.read_text())
    data["digests"][-1] = "f" * 32
    path.write_text(json.dumps(data))
    result = run("replay", "--verify", str(path))
    assert result.exit_code == 1
    assert "1 digest differs, first after action" in " ".join(result.output.split())


def test_replay_verify_on_worker_processes_finds_what_one_process_finds(tmp_path):
    run("simulate", "culottes-trials", "--players", "3", "--games", "12", "--records", str(tmp_path),
        "--json", "--workers", "1")
    for workers in ("1", "2"):
        result = run("replay", "--verify", str(tmp_path), "--workers", workers)
        assert result.exit_code == 0 and "12 records, every digest verified" in result.output
    tampered = sorted(tmp_path.glob("*.json"))[7]
    data = json.loads(tampered.read_text())
    data["digests"][3] = "0" * 32
    tampered.write_text(json.dumps(data))
    said = set()
    for workers in ("1", "2"):
        result = run("replay", "--verify", str(tmp_path), "--workers", workers)
        assert result.exit_code == 1
        assert f"{tampered}: 1 digest differs, first after action 3" in " ".join(result.output.split())
        said.add(result.output)
    assert len(said) == 1
    refused = run("replay", "--verify", str(tmp_path), "--workers", "0")
    assert refused.exit_code != 0 and "--workers must be at least 1; got 0" in refused.output


def test_replay_verify_stopped_early_leaves_the_cancelling_to_the_pool(tmp_path, monkeypatch):
    # Python 3.11's pool, finding its workers killed, marks every task it still holds as failed;
    # one cancelled meanwhile from the reader's thread makes that an error in the pool's thread.
    # So the reader never cancels: the pool's shutdown drops the tasks not started, in its thread.
    import threading
    from concurrent.futures import Future

    from tricolore.cli.main import verified_records

    run("simulate", "culottes-trials", "--players", "3", "--games", "40", "--records", str(tmp_path),
        "--json", "--workers", "1")
    paths = sorted(tmp_path.glob("*.json"))
    data = json.loads(paths[0].read_text())
    data["digests"][2] = "0" * 32
    paths[0].write_text(json.dumps(data))
    cancelled_from: list[str] = []
    cancel = Future.cancel

    def cancel_seen(future):
        cancelled_from.append(threading.current_thread().name)
        return cancel(future)

    monkeypatch.setattr(Future, "cancel", cancel_seen)
    checked = verified_records(paths, 2)
    path, (problem, _) = next(checked)
    assert path == paths[0] and problem is not None and "1 digest differs" in problem
    checked.close()  # as the command does at the first problem
    assert threading.current_thread().name not in cancelled_from


def test_play_against_bots_in_the_terminal_to_the_end():
    # Choose a role from the menu ("1" choose_role, "1" revolutionary, Enter for the default name),
    # then type JSON actions: agree to end, and pass every citizen and every recruit.
    agree, done = '{"type": "agree_end", "agree": true}', '{"type": "pass"}'
    answers = ["1", "1", "1", "", agree] + [done] * 200
    result = run("play", "culottes", "--players", "3", "--seats", "human,honest-revolutionary,puppet-grabber",
                 "--seed", "7", "--option", "max_rounds=3", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "SECRET: only you see this" in result.output
    assert "Winner:" in result.output and "score" in result.output


def test_play_refuses_bad_input_with_a_sentence_and_goes_on():
    answers = ["9", "{not json", "{\"type\": \"fly\"}", "1", "1", "1", ""]
    result = run("play", "culottes", "--players", "3", "--seats", "human,random,random", "--seed", "1",
                 input="\n".join(answers) + "\n")
    assert "Type a number from 1 to" in result.output
    assert "not valid JSON" in result.output
    assert "This game has no action \"fly\"; you may choose role." in result.output
    assert result.exit_code == 1 and "input ended before the game did" in result.output
    assert "Traceback" not in result.output


def test_hot_seat_hides_the_screen_between_humans():
    answers = ["", "1", "1", ""] + [""] + ["1", "2", ""] + [""] * 3
    result = run("play", "culottes", "--players", "3", "--seats", "human,human,random", "--seed", "2",
                 input="\n".join(answers) + "\n")
    assert "Pass the screen to Marat" in result.output
    assert "Pass the screen to Danton" in result.output
    assert "Marat, choose:" in result.output and "seat 0" not in result.output


def test_players_are_called_by_the_names_given_and_a_table_fits_the_game():
    answers = ["1", "1", ""] + [""] * 40
    result = run("play", "revolution", "--seats", "human,random,random", "--names", "Rose, Jeanne ,Georges",
                 "--seed", "1", input="\n".join(answers) + "\n")
    assert "Rose, choose:" in result.output and "Jeanne" in result.output and "Georges" in result.output
    assert "seat 1" not in result.output and "seat 2" not in result.output
    simulated = run("simulate", "revolution", "--games", "4", "--json")
    assert simulated.exit_code == 0 and json.loads(simulated.output)["players"] == 4


@pytest.mark.parametrize("args, fragment", [
    (["play", "culottes", "--players", "2"], "3 to 12 players"),
    (["play", "chess"], "no game called 'chess'"),
    (["play", "culottes", "--players", "3", "--seats", "human,random"], "--seats lists 2 seats"),
    (["play", "culottes", "--players", "3", "--names", "Rose,Jeanne"], "--names gives 2 names"),
    (["play", "culottes", "--players", "3", "--names", "Rose,rose,Jeanne"], "the same name"),
    (["play", "culottes", "--players", "3", "--names", "Rose,,Jeanne"], "cannot be a name"),
    (["play", "culottes", "--seats", "human,random,random,random,genius"], "no strategy 'genius'"),
    (["simulate", "culottes", "--option", "starting_cakes=-3"], "starting_cakes must be from 1 to 1000"),
    (["simulate", "culottes", "--option", "nonsense"], "name=value"),
    (["simulate", "culottes", "--games", "0"], "--games must be at least 1"),
    (["replay", "--verify", "/nonexistent/record.json"], "cannot read"),
])
def test_bad_arguments_get_one_sentence_and_a_non_zero_exit(args, fragment):
    result = run(*args)
    assert result.exit_code != 0
    assert fragment in result.output
    assert "Traceback" not in result.output


# -- the paper companion ------------------------------------------------------------------------
SEED_EXAMPLE = "voter,citizen,cakes,side\nA,Z,1,sans-culotte\nB,Z,2,sans-culotte\nC,Z,3,sans-culotte\n" \
               "D,Z,2,privileged\nE,Z,2,privileged\nA,Y,5,privileged\n"


def test_book_close_reproduces_the_seed_example_and_marks_the_trial_closed(tmp_path):
    book = tmp_path / "book.csv"
    book.write_text(SEED_EXAMPLE)
    result = run("book", "close", str(book), "--citizen", "Z", "--order", "A,B,C,D,E", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    totals = (out["winning_cakes"], out["lost_cakes"], out["bastille_vote"])
    assert (out["citizen"], out["verdict"], totals) == ("Z", "sans-culotte", (6, 4, 2))
    assert [(r["voter"], r["returned"], r["reward"]) for r in out["rewards"]] == [
        ("C", 3, 2), ("Bastille", 0, 1), ("B", 2, 1), ("A", 1, 0)]
    lines = book.read_text().splitlines()
    assert lines[0] == "voter,citizen,cakes,side,closed"
    assert lines[1] == "A,Z,1,sans-culotte,1" and lines[6] == "A,Y,5,privileged,"
    again = run("book", "close", str(book), "--citizen", "Z", "--order", "A,B,C,D,E", "--json")
    assert again.exit_code == 1 and "Z has no open trial" in again.output


def test_book_close_prints_a_table_without_json(tmp_path):
    book = tmp_path / "book.csv"
    book.write_text(SEED_EXAMPLE)
    result = run("book", "close", str(book), "--citizen", "Z", "--order", "A,B,C,D,E")
    assert result.exit_code == 0 and "sans-culotte" in result.output and "Bastille" in result.output


def test_book_vote_and_show_keep_a_book_for_a_paper_table(tmp_path):
    book = tmp_path / "book.csv"
    assert run("book", "vote", str(book), "Robespierre", "Danton", "3", "privileged").exit_code == 0
    assert run("book", "vote", str(book), "Marat", "Danton", "1", "sans-culotte").exit_code == 0
    shown = run("book", "show", str(book))
    assert "Danton" in shown.output
    assert book.read_text().splitlines()[1] == "Robespierre,Danton,3,privileged,"


@pytest.mark.parametrize("text, args, fragment", [
    ("voter,citizen,cakes,side\nA,Z,-1,privileged\n", ["--citizen", "Z", "--order", "A"], "at least 1 cake"),
    ("voter,citizen,cakes,side\nA,Z,three,privileged\n", ["--citizen", "Z", "--order", "A"],
     "cakes must be a whole number"),
    (SEED_EXAMPLE, ["--citizen", "Nobody", "--order", "A"], "Nobody has no open trial"),
    (SEED_EXAMPLE, ["--citizen", "Z", "--order", "A,B,C"], "D voted in this trial but is missing"),
    (SEED_EXAMPLE, ["--citizen", "Z", "--order", "A,A,B"], "names a citizen twice"),
])
def test_book_errors_are_one_sentence(tmp_path, text, args, fragment):
    book = tmp_path / "book.csv"
    book.write_text(text)
    result = run("book", "close", str(book), *args)
    assert result.exit_code == 1
    assert fragment in result.output and "Traceback" not in result.output
    assert book.read_text() == text


def test_book_close_on_a_missing_file(tmp_path):
    result = run("book", "close", str(tmp_path / "none.csv"), "--citizen", "Z", "--order", "A")
    assert result.exit_code == 1 and "there is no Book at" in result.output



def test_play_the_tutorial_as_the_accused_to_the_end():
    answers = ["1", "2", "", "1", "There is a duck on my phone", "1", "2", "2", "2", "2"]
    result = run("play", "culottes-trials", "--players", "3", "--seats", "human,random,random", "--seed", "1",
                 "--option", "first_accused=0", "--option", "trials=1", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "states: « There is a duck on my phone »" in result.output
    assert "Revolutionary trials: points" in result.output and "Winner:" in result.output


def test_play_let_them_eat_cake_in_the_terminal_to_the_end():
    # Always the first menu entry: the first kind of action, then the first option of each field.
    result = run("play", "let-them-eat-cake", "--players", "4", "--seats",
                 "human,cake-hoarder,kingmaker,random", "--seed", "3", "--option", "max_rounds=2",
                 input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "SECRET: only you see this" in result.output and "Your stash:" in result.output
    assert "Let Them Eat Cake:" in result.output and "Winner:" in result.output



def test_play_revolution_in_the_terminal_bidding_chip_by_chip():
    # One bid for the round: Force on the Printer (8), Blackmail on the Priest (5), Gold on the
    # Aristocrat, the Merchant and a card (6, 7, 12); then the first choice of anything asked.
    answers = ["1", "8", "5", "6,7,12"] + ["1"] * 12
    result = run("play", "revolution", "--players", "3", "--seats", "human,printer-first,area-control",
                 "--seed", "2", "--option", "max_rounds=1", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "shields down: Marat: Aristocrat 1G, Card 1G, Merchant 1G, Priest 1B," in result.output
    assert "Revolution!: popular support" in result.output and "Winner:" in result.output


def test_play_revolution_explains_a_bad_bid_and_asks_again():
    answers = ["1", "10", "5", "6,7,12", "8", "5", "6,7,12"] + ["1"] * 12
    result = run("play", "revolution", "--players", "3", "--seats", "human,random,random", "--seed", "2",
                 "--option", "max_rounds=1", input="\n".join(answers) + "\n")
    assert "Force may not be bid on the Spy" in result.output
    assert result.exit_code == 0, result.output



def test_play_bread_and_circuses_in_the_terminal_to_the_end():
    # Disclose Bread honestly (1, 1, 1), then ready (the last entry), round after round.
    answers = ["1", "1", "1", "3"] + ["1", "1", "1", "3", "2", "2"] * 20
    result = run("play", "bread-and-circuses", "--players", "4", "--seats",
                 "human,honest-discloser,free-rider,random", "--seed", "3", "--option", "max_rounds=2",
                 input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "Marat discloses on the bread icon" in result.output
    assert "Bread and Circuses: Gold" in result.output and "Winner:" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("game, players, options, metric", [
    ("culottes", 6, [], "bastille_donated"),
    ("let-them-eat-cake", 5, [], "rounds"),
    ("revolution", 4, [], "board_full"),
    ("bread-and-circuses", 6, ["--option", "regulated_bribery=true"], "deals_paid"),
])
def test_simulate_1000_games_and_verify_every_record(tmp_path, game, players, options, metric):
    records = tmp_path / "records"
    cli = [sys.executable, "-m", "tricolore.cli.main"]
    out = subprocess.run([*cli, "simulate", game, "--players", str(players), "--games", "1000",
                          "--seed", "1", "--json", "--records", str(records), *options],
                         capture_output=True, text=True, check=True)
    summary = json.loads(out.stdout)
    assert summary["games"] == 1000 and not summary["interrupted"]
    assert summary["metrics"][metric] > 0
    assert len(list(Path(records).glob("*.json"))) == 1000
    verified = subprocess.run([*cli, "replay", "--verify", str(records)], capture_output=True, text=True)
    assert verified.returncode == 0, verified.stderr
    assert "1000 records, every digest verified" in verified.stdout


def test_a_player_is_chosen_by_name_where_an_action_names_a_player():
    import io

    from rich.console import Console

    import tricolore
    from tricolore.cli.play import TerminalTable

    state = tricolore.make("culottes-trials", 4, seed=0, first_accused=0)
    answers = iter(["1", "olympe"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    table = TerminalTable(state, ["human", "random", "random", "random"], [None] * 4,
                          Console(file=out, width=160, markup=False), ask=ask)
    table.human_turn(0)
    assert "  grabbers (comma-separated, from Danton, Olympe, Roland): " in prompts
    assert "Grabbers: not named yet" in out.getvalue()
    assert state.view(0)["you"]["grabbers"] == [0, 2]  # the accused, and the name typed as its seat
    assert "seat 2" not in out.getvalue() and "[2]" not in out.getvalue()
