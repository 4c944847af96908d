"""``tricolore bench``: every figure present, positive and given with its ratio to the floor.

Speed itself is never asserted here: the figures depend on the machine and on who else uses it.
"""

import importlib.util
import io
import json
import random

import pytest
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.core import get_game, list_games
from tricolore.perf import floor, render
from tricolore.perf.bench import CALLS, QUICK
from tricolore.perf.peers import PEERS

runner = CliRunner()


@pytest.fixture(scope="module")
def measured():
    result = runner.invoke(app, ["bench", "--quick", "--json", "--games", "1", "--passes", "1"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # JSON and nothing else


def positive_with_ratio(figure):
    return figure["ratio_to_floor"] > 0 and all(
        value > 0 for key, value in figure.items() if key in ("decisions_per_s", "us", "kib"))


def test_every_registered_game_is_measured_on_both_paths_with_its_ratio_to_the_floor(measured):
    assert [g["game"] for g in measured["games"]] == [
        "culottes", "culottes-trials", "let-them-eat-cake", "revolution", "bread-and-circuses"]
    assert {g["game"] for g in measured["games"]} == {info.name for info in list_games()}
    for game in measured["games"]:
        assert game["decisions_per_game"] > 0
        for path in ("sim", "api"):
            assert positive_with_ratio(game[path]), (game["game"], path)
            assert game[path]["us_per_decision"] == pytest.approx(1e6 / game[path]["decisions_per_s"])


def test_every_game_that_numbers_its_moves_is_measured_on_moves_too(measured):
    for game in measured["games"]:
        numbered = type(get_game(game["game"]).new(game["players"], 0)).numbers_moves()
        moves = game["moves"]
        assert (moves is not None) == numbered, game["game"]
        if moves is not None:
            assert positive_with_ratio(moves) and moves["decisions_per_game"] > 0
    assert [g["game"] for g in measured["games"] if g["moves"] is None] == []  # every game numbers them


def test_every_call_and_the_memory_of_a_state_have_a_cost_and_a_ratio_to_the_floor(measured):
    for game in measured["games"]:
        assert game["positions"] > 0
        assert set(game["calls"]) == set(CALLS)
        for call in CALLS:
            assert positive_with_ratio(game["calls"][call]), (game["game"], call)
        assert positive_with_ratio(game["memory"])


def test_the_floor_is_measured_in_the_same_run(measured):
    f = measured["floor"]
    assert f["decisions_per_s"] > 0 and f["state_bytes"] > 0 and f["games"] > 0
    assert f["decisions_per_game"] >= 5 * 6  # fifteen points take five rounds of six picks at least


def test_the_peers_are_measured_or_said_to_be_skipped(measured):
    peers = measured["peers"]
    if importlib.util.find_spec("pyspiel") is None:
        assert peers["rows"] == [] and "open_spiel" in peers["skipped"]
    else:
        assert peers["skipped"] is None
        assert [p["game"] for p in peers["rows"]] == [p.name for p in PEERS]
        assert all(positive_with_ratio(p) for p in peers["rows"])


def test_simulate_is_timed_with_one_and_two_workers_and_gives_the_same_summary(measured):
    s = measured["simulate"]
    assert s["summaries_identical"] is True
    assert s["scaling"] > 0
    for key in ("one_worker", "two_workers"):
        assert s[key]["seconds"] > 0 and positive_with_ratio(s[key])


def test_revolution_s_numpy_batch_is_measured_beside_the_floor(measured):
    b = measured["batch"]
    assert b["game"] == "revolution" and b["games"] == 2_000
    assert positive_with_ratio(b)
    assert b["us_per_decision"] == pytest.approx(1e6 / b["decisions_per_s"])
    assert "| revolution (numpy batch, random play) |" in render.markdown(measured)


def test_revolution_s_batch_of_named_strategies_is_measured_beside_the_floor(measured):
    b = measured["batch_named"]
    assert b["games"] == 500 and b["strategy"] == "area-control, printer-first, random, area-control"
    assert positive_with_ratio(b)
    assert "| revolution (numpy batch, area-control, printer-first, random, area-control play) |" in (
        render.markdown(measured))


def test_the_named_strategy_pool_is_simulated_on_two_workers(measured):
    pool = measured["pool"]
    assert (pool["game"], pool["players"], pool["workers"]) == ("culottes", 4, 2)
    assert pool["strategies"] == list(get_game("culottes").strategies) and "random" not in pool["strategies"]
    assert pool["games"] == QUICK.pool_games and pool["decisions"] > pool["games"]
    assert len(pool["passes_seconds"]) == QUICK.pool_passes and pool["seconds"] > 0
    assert pool["games_per_s"] == pytest.approx(pool["games"] / pool["seconds"])
    assert pool["decisions_per_s"] == pytest.approx(pool["decisions"] / pool["seconds"])
    target = next(t for t in measured["targets"] if t["target"] == "named-strategy pool")
    assert target["threshold"] == 165 and target["measured"] == pool["games_per_s"]
    assert target["met"] is (pool["games_per_s"] >= 165)


def test_the_search_is_timed_in_every_game_at_positions_where_it_searches(measured):
    search = measured["search"]
    assert search["strategy"] == "ismcts" and search["iterations_per_decision"] > 0
    assert [r["game"] for r in search["rows"]] == [g["game"] for g in measured["games"]]
    for row in search["rows"]:
        assert 0 < row["positions"] <= QUICK.search_positions, row["game"]
        # every position kept is one where the search runs its whole budget
        assert row["iterations"] == row["positions"] * search["iterations_per_decision"], row["game"]
        assert row["cpu_seconds"] > 0 and row["iterations_per_s"] > 0, row["game"]
        assert len(row["passes"]) == measured["settings"]["passes"]


def test_every_build_measured_has_its_pool_and_search_figures(measured):
    for build, figures in measured["builds"].items():
        assert figures["pool"]["games_per_s"] > 0, build
        assert all(r["iterations_per_s"] > 0 for r in figures["search"]["rows"]), build


def test_the_pool_and_the_search_are_printed_as_tables(measured):
    from rich.console import Console

    console = Console(record=True, width=400, file=io.StringIO())
    for part in render.rich_tables(measured):
        console.print(part)
    text = console.export_text()
    markdown = render.markdown(measured)
    pool = measured["pool"]
    for printed in (text, markdown):
        assert "named-strategy pool" in printed.lower() and "IS-MCTS iterations per CPU second" in printed
        assert f"{pool['games_per_s']:.0f}" in printed and f"{pool['decisions_per_s']:,.0f}" in printed
        for row in measured["search"]["rows"]:
            assert f"{row['iterations_per_s']:,.0f}" in printed, row["game"]
    for build in measured["builds"]:
        assert f"| {build} | {pool['games']} |" in markdown
    assert "| named-strategy pool |" in markdown


def test_every_target_names_its_worst_figure(measured):
    targets = {t["target"]: t for t in measured["targets"]}
    assert set(targets) == {"sim path", "sim path, lowest", "sim path on moves", "API path", "clone",
                            "determinize",
                            "Revolution! batch", "Revolution! batch, named strategies",
                            "named-strategy pool", "simulate scaling"}
    for t in targets.values():
        assert t["measured"] > 0 and isinstance(t["met"], bool)
        assert t["measured"] == t["per_game"][t["worst_game"]]


def test_the_machine_is_named(measured):
    m = measured["machine"]
    assert m["cpu"] and m["cores"] >= 1 and m["python"].count(".") == 2 and m["date"]


def test_a_saved_run_prints_as_markdown_with_every_game_and_the_floor(measured):
    text = render.markdown(measured)
    for game in measured["games"]:
        assert f"| {game['game']} |" in text
    assert "| floor (bare Python) |" in text and "| simulate scaling |" in text


@pytest.mark.parametrize(("args", "sentence"), [
    (["--games", "0"], "--games must be from 1 to 10,000"),
    (["--passes", "101"], "--passes must be from 1 to 100"),
    (["--json", "--markdown"], "choose one of --json and --markdown"),
])
def test_bad_bench_options_are_refused_with_one_sentence(args, sentence):
    result = runner.invoke(app, ["bench", *args])
    assert result.exit_code == 1
    assert sentence in result.output and "Traceback" not in result.output


def test_the_floor_game_ends_with_six_picks_a_round_and_replays_from_its_seed():
    counts = [floor.play(random.Random(seed)) for seed in range(20)]
    assert all(c > 0 and c % 6 == 0 for c in counts)
    assert counts == [floor.play(random.Random(seed)) for seed in range(20)]
    # fifteen points take at least five rounds (three points at most per round)
    assert min(counts) >= 5 * 6


def test_a_row_plays_batches_of_new_games_until_it_has_played_as_long_as_the_floor_slice():
    from tricolore.perf.bench import play_for

    seen: list[int] = []

    def play(game, players, seeds):
        seen.extend(seeds)
        return 3 * len(seeds)

    decided, played, seconds = play_for(play, get_game("culottes"), 5, 2_000, 4, 0.0)
    assert (decided, played, seen) == (12, 4, [2_000, 2_001, 2_002, 2_003])  # at least one batch
    seen.clear()
    decided, played, seconds = play_for(play, get_game("culottes"), 5, 7, 4, 0.02)
    assert seconds >= 0.02 and played == len(seen) and played % 4 == 0 and played > 4
    assert seen == list(range(7, 7 + played)) and decided == 3 * played
