"""The command line given careless or hostile input: one sentence, a non-zero exit, no traceback.

In ``play`` a refused line is explained in one sentence and asked again.
"""

import io
import json
import socket

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.cli.play import TerminalTable
from tricolore.cli.reading import menu_number, whole_number
from tricolore.core import get_game

runner = CliRunner()
DEEP = "[" * 5000
LONG_NUMBER = "9" * 5000


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def refused(result, fragment: str) -> str:
    """The one ``error:`` line of a refused command, after checking the exit and the fragment."""
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    # In play the sentence follows the last prompt on its line.
    lines = [line[line.index("error:"):] for line in result.output.splitlines() if "error:" in line]
    assert len(lines) == 1, result.output
    assert fragment in lines[0], result.output
    return lines[0]


def refused_alone(result, fragment: str) -> None:
    """A command refused before doing anything: its whole output is the one sentence."""
    line = refused(result, fragment)
    assert result.output.strip() == line


def play(answers: list[str], *args: str, game: str = "culottes", seats: str = "human,random,random"):
    return run("play", game, "--players", "3", "--seats", seats, "--seed", "1", *args,
               input="\n".join(answers) + "\n")


def a_record(tmp_path, players: int = 3) -> tuple:
    run("simulate", "culottes", "--players", str(players), "--games", "1", "--seed", "4", "--records",
        str(tmp_path), "--json", "--workers", "1")
    path = next(tmp_path.glob("*.json"))
    return path, json.loads(path.read_text())


# -- user text is never read as markup --------------------------------------------------------
def test_markup_in_a_game_name_is_printed_as_typed():
    refused_alone(run("play", "[/red]"), "there is no game called '[/red]'")


def test_markup_in_a_record_path_is_printed_as_typed():
    refused_alone(run("replay", "--verify", "[/b].json"), "cannot read [/b].json")


def test_markup_in_a_citizen_name_for_the_book_is_printed_as_typed(tmp_path):
    book = tmp_path / "book.csv"
    book.write_text("voter,citizen,cakes,side\nA,Z,1,privileged\n")
    refused_alone(run("book", "close", str(book), "--citizen", "[/y]", "--order", "A"),
                  "[/y] has no open trial in the Book")


def test_markup_in_a_typed_action_is_printed_as_typed():
    result = play(['{"type": "[/red]"}'])
    assert "Refused: This game has no action \"[/red]\"" in result.output
    refused(result, "input ended before the game did")


def test_markup_in_a_citizen_named_in_play_is_shown_as_typed():
    result = play(["1", "1", "[/red] :fire:"])
    assert "[/red] :fire:" in result.output and "🔥" not in result.output
    refused(result, "input ended before the game did")


def test_markup_in_an_option_name_and_a_seat_is_printed_as_typed():
    refused_alone(run("play", "culottes", "--option", "[/red]=1"), "unknown option '[/red]'")
    refused_alone(run("play", "culottes", "--players", "3", "--seats", "human,[/x],random"),
                  "no strategy '[/x]'")


# -- numbers typed in play ----------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["²", "٣", LONG_NUMBER, "1_0", "+1"])
def test_a_number_that_is_not_plain_digits_at_the_menu_is_refused_and_asked_again(typed):
    result = play([typed, "1", "1", ""])
    assert "Type a number from 1 to 1, or a JSON action." in result.output
    assert "role (number, Enter to cancel)" in result.output  # asked again, then "1" was taken
    refused(result, "input ended before the game did")


@pytest.mark.parametrize("typed", ["²", LONG_NUMBER])
def test_a_strange_number_for_a_choice_is_refused_and_asked_again(typed):
    result = play(["1", typed, "1", ""])
    assert "The role must be 'revolutionary' or 'grabber'" in result.output
    assert "Marat plays as a revolutionary" in result.output
    refused(result, "input ended before the game did")


@pytest.mark.parametrize("typed", ["²", LONG_NUMBER])
def test_a_strange_number_for_an_amount_is_refused_and_asked_again(typed):
    result = play(["1", "1", "", "2", typed, "1"], "--option", "max_rounds=2")
    assert "The cakes must be a whole number; you sent" in result.output
    assert "donates 1 cakes to the Bastille" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("typed", ["²", LONG_NUMBER, "8,8"])
def test_a_strange_number_in_a_bid_is_refused_and_asked_again(typed):
    answers = ["1", typed, "8", "5", "6,7,12"] + ["1"] * 12
    result = play(answers, "--option", "max_rounds=1", game="revolution",
                  seats="human,printer-first,area-control")
    assert "Type 1 space number from 1 to 12, separated by commas." in result.output
    assert result.exit_code == 0, result.output
    assert "Revolution!: popular support" in result.output


def test_whole_numbers_are_plain_ascii_digits_of_sensible_length():
    assert whole_number("12") == 12 and whole_number(" 7 ") == 7 and whole_number("-3", signed=True) == -3
    assert [whole_number(t) for t in ("²", "٣", "-3", "1_0", "", "9" * 13, LONG_NUMBER)] == [None] * 7
    assert menu_number("3", 3) == 3 and menu_number("4", 3) is None and menu_number("0", 3) is None


# -- deeply nested JSON --------------------------------------------------------------------------
def test_deeply_nested_json_in_an_option_is_refused():
    refused_alone(run("simulate", "culottes", "--option", f"max_rounds={DEEP}"),
                  "--option max_rounds: the value cannot be read: it nests deeper than 64 levels")


def test_a_5000_digit_number_in_an_option_is_refused():
    refused_alone(run("simulate", "culottes", "--option", f"max_rounds={LONG_NUMBER}"),
                  "it holds a number longer than 4300 digits")


def test_deeply_nested_json_typed_in_play_is_refused_and_asked_again():
    result = play(['{"type": ' + DEEP, "1", "1", ""])
    assert "Refused: That JSON cannot be read: it nests deeper than 64 levels." in result.output
    assert "Marat plays as a revolutionary" in result.output
    refused(result, "input ended before the game did")


def test_a_deeply_nested_record_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"actions": ' + DEEP)
    refused_alone(run("replay", "--verify", str(path)), "deep.json is not a record: it nests deeper than 64")


# -- records ------------------------------------------------------------------------------------
def test_a_record_that_is_not_utf8_is_refused(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"game": "culottes", "note": "Fréron"}'.encode("latin-1"))
    refused_alone(run("replay", "--verify", str(path)), "latin1.json is not a record: byte 32 is not UTF-8")
    refused_alone(run("replay", str(path)), "is not a record")


@pytest.mark.parametrize("change, fragment", [
    (lambda d: d.pop("game"), "the record's 'game' is missing or of the wrong type"),
    (lambda d: d.update(players="3"), "the record's 'players' is missing or of the wrong type"),
    (lambda d: d.update(actions={"0": 1}), "the record's 'actions' is missing or of the wrong type"),
    (lambda d: d.update(format=2), "the record is in format 2, and this build reads only format 1"),
    (lambda d: d.update(format="1"), "the record's 'format' must be a whole number"),
    (lambda d: d["digests"].__setitem__(0, 7), "one digest (a text) per action"),
])
def test_verify_refuses_a_record_format_it_does_not_know(tmp_path, change, fragment):
    path, data = a_record(tmp_path)
    change(data)
    path.write_text(json.dumps(data))
    refused_alone(run("replay", "--verify", str(path)), fragment)


def test_verify_says_when_a_record_stops_before_the_games_end(tmp_path):
    path, data = a_record(tmp_path)
    data["actions"], data["digests"] = data["actions"][:12], data["digests"][:12]
    path.write_text(json.dumps(data))
    refused_alone(run("replay", "--verify", str(path)),
                  f"record {path} stops after 12 actions, before the game's end")
    shown = run("replay", str(path))
    assert shown.exit_code == 0
    assert "The record stops after 12 actions, before the game's end." in shown.output


def test_a_record_action_the_rules_refuse_names_the_file(tmp_path):
    path, data = a_record(tmp_path)
    data["actions"][0] = [7, {"type": "pass"}]
    path.write_text(json.dumps(data))
    refused_alone(run("replay", "--verify", str(path)), f"{path}: action 0 by seat 7 is refused")


# -- the Book's CSV ------------------------------------------------------------------------------
def test_a_book_field_over_the_csv_limit_is_refused(tmp_path):
    book = tmp_path / "book.csv"
    book.write_text("voter,citizen,cakes,side\n" + "A" * 140_000 + ",Z,1,privileged\n")
    refused_alone(run("book", "show", str(book)), "line 2: a field is longer than 131072 characters")
    refused_alone(run("book", "vote", str(book), "A", "Z", "1", "p"), "a field is longer than")
    assert book.read_text().startswith("voter,citizen,cakes,side\nAAAA")


# -- serve ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("port", ["99999", "65536", "0", "-1"])
def test_serve_refuses_a_port_out_of_range(port):
    refused_alone(run("serve", "--port", port), f"--port must be from 1 to 65535, not {port}")


def test_serve_refuses_a_port_already_taken():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused_alone(run("serve", "--port", str(port)),
                      f"cannot listen on 127.0.0.1 port {port}: address already in use")


@pytest.mark.parametrize("delay", ["-1", "nan", "inf"])
def test_serve_refuses_a_bot_delay_that_is_not_a_number_of_seconds(delay):
    refused_alone(run("serve", "--bot-delay", delay), "--bot-delay must be a number of seconds")


# -- a sweep of other careless arguments ---------------------------------------------------------
@pytest.mark.parametrize("args, fragment", [
    (["replay", "{tmp}/none.json"], "cannot read {tmp}/none.json: No such file or directory"),
    (["replay", "{tmp}/empty.json"], "empty.json is not JSON: Expecting value at line 1, column 1"),
    (["replay", "--verify", "{tmp}/folder"], "no records (*.json) in the folder {tmp}/folder"),
    (["book", "show", "{tmp}/folder"], "cannot use {tmp}/folder: it is a folder"),
    (["book", "show", "{tmp}/empty.json"], "must start with the header voter,citizen,cakes,side"),
    (["book", "vote", "{tmp}/b.csv", "A", "Z", "²", "p"], "cakes must be a whole number"),
    (["book", "vote", "{tmp}/b.csv", "A", "Z", LONG_NUMBER, "p"], "cakes must be a whole number"),
    (["book", "vote", "{tmp}/b.csv", "A", "Z", "0", "p"], "a cake vote stakes at least 1 cake"),
    (["book", "vote", "{tmp}/b.csv", "A\nB", "Z", "1", "p"], "the voter's name cannot be read: it holds "
                                                            "the control character U+000A"),
    (["book", "vote", "{tmp}/b.csv", "\udcff", "Z", "1", "p"], "the voter's name cannot be read: it "
                                                               "holds bytes that are not UTF-8 text"),
    (["book", "vote", "{tmp}/b.csv", "A", "Bastille", "1", "p"], "'Bastille' cannot name a citizen"),
    (["simulate", "culottes", "--records", "{tmp}/empty.json"], "--records must name a folder"),
    (["simulate", "culottes", "--players", "-3"], "Culottes is for 3 to 12 players; you asked for -3"),
    (["simulate", "culottes", "--games", "-5"], "--games must be at least 1"),
    (["simulate", "culottes", "--games", "10000000000"], "--games must be at most 1,000,000"),
    (["simulate", "culottes", "--workers", "100000"], "--workers must be at most"),
    (["simulate", "culottes", "--option", "closing_faces=\"six\""], "closing_faces"),
    (["simulate", "culottes", "--option", "max_rounds=NaN"], "max_rounds must be a whole number"),
    (["simulate", "nope"], "there is no game called 'nope'"),
    (["play", "culottes", "--players", "3", "--seats", "human,genius,random"], "no strategy 'genius'"),
])
def test_careless_arguments_get_one_sentence_and_a_non_zero_exit(tmp_path, args, fragment):
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "folder").mkdir()
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    refused_alone(run(*args), fragment.replace("{tmp}", str(tmp_path)))
    assert not (tmp_path / "b.csv").exists()


# -- lines that are not text ---------------------------------------------------------------------
class Lines:
    """Answers for ``TerminalTable.ask``; an exception instance is raised instead of returned."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)

    def __call__(self, prompt: str) -> str:
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        assert isinstance(answer, str)
        return answer


@pytest.mark.parametrize("line, why", [
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "bytes that are not UTF-8 text"),
    ("Dan\udcffton", "bytes that are not UTF-8 text"),
    ("\x1b[A", "the control character U+001B"),
])
def test_a_typed_line_that_is_not_text_is_refused_and_asked_again(line, why):
    out = io.StringIO()
    state = get_game("culottes").new(3, 1)
    table = TerminalTable(state, ["human", "random", "random"], [None, None, None],
                          Console(file=out, markup=False, width=200), ask=Lines(line, "1"))
    assert table.ask("> ") == "1"
    assert out.getvalue() == f"That line cannot be read: it holds {why}.\n"


def test_a_record_or_book_larger_than_any_real_one_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    import tricolore.core.record as record
    import tricolore.games.culottes.cli as book_commands

    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 1000)
    monkeypatch.setattr(book_commands, "MAX_BOOK_BYTES", 1000)
    path = tmp_path / "huge.json"
    path.write_text("[" + "0," * 1000 + "0]")
    refused_alone(run("replay", "--verify", str(path)), "huge.json is not a record: it is larger than")
    refused_alone(run("book", "show", str(path)), "huge.json is larger than")


def test_a_book_that_is_not_utf8_is_refused(tmp_path):
    book = tmp_path / "book.csv"
    book.write_bytes("voter,citizen,cakes,side\nFréron,Z,1,p\n".encode("latin-1"))
    refused_alone(run("book", "show", str(book)), "book.csv is not a Book: byte 27 is not UTF-8 text")
