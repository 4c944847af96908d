"""The empirical game: payoff tables, equilibria, replicator dynamics and α-Rank on games whose
answers are known, the table of a real game played and resumed, and the command's report."""

import itertools
import json
import math

import numpy as np
import pytest
from open_spiel.python.egt import alpharank, heuristic_payoff_table
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.core.errors import OptionsError
from tricolore.sim import egta
from tricolore.sim.results import read, rows_of

runner = CliRunner()

# Row strategy's share of the win against the column strategy (a draw shares it).
RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
# Prisoner's dilemma: cooperate, defect.
PD = np.array([[3.0, 0.0], [5.0, 1.0]])


def matrix_game(names: list[str], matrix: np.ndarray, kind: str = "win") -> egta.EmpiricalGame:
    """The two-player empirical game of a payoff matrix."""

    def payoff(profile: tuple[int, ...]) -> list[float]:
        counts = np.array(profile)
        others = [counts - np.eye(len(names))[i] for i in range(len(names))]
        return [float(matrix[i] @ others[i]) if c else 0.0 for i, c in enumerate(counts)]

    return egta.EmpiricalGame.from_function(names, 2, payoff, kind=kind)


def rps() -> egta.EmpiricalGame:
    return matrix_game(["rock", "paper", "scissors"], RPS)


def test_profiles_are_every_multiset_of_strategies_over_the_seats():
    for n, players in [(1, 3), (3, 2), (4, 5), (9, 5)]:
        found = egta.profiles(n, players)
        assert len(found) == len(set(found)) == math.comb(n + players - 1, players)
        assert all(sum(p) == players and len(p) == n and min(p) >= 0 for p in found)
    with pytest.raises(OptionsError):
        egta.profiles(0, 3)


def test_deviation_payoffs_average_over_every_seating_of_the_other_players():
    rng = np.random.default_rng(4)
    table = {p: rng.random(3) for p in egta.profiles(3, 4)}
    eg = egta.EmpiricalGame.from_function(["a", "b", "c"], 4, lambda p: table[p])
    x = np.array([0.2, 0.5, 0.3])
    expected = np.zeros(3)
    for j in range(3):
        for others in itertools.product(range(3), repeat=3):
            counts = [0, 0, 0]
            counts[j] += 1
            for o in others:
                counts[o] += 1
            expected[j] += np.prod(x[list(others)]) * table[tuple(counts)][j]
    assert np.allclose(eg.deviation_payoffs(x), expected)
    assert eg.value(x) == pytest.approx(x @ expected)
    assert np.allclose(eg.regrets(x), expected - x @ expected)
    assert eg.nash_conv(x) == pytest.approx(4 * max(expected - x @ expected))


def test_two_player_deviation_payoffs_are_the_payoff_matrix_against_the_mixture():
    eg = rps()
    assert np.allclose(eg.matrix(), RPS)
    x = np.array([0.6, 0.3, 0.1])
    assert np.allclose(eg.deviation_payoffs(x), RPS @ x)


def test_a_mixture_that_is_not_a_distribution_is_refused_in_a_sentence():
    eg = rps()
    for bad in ([0.5, 0.5], [0.7, 0.7, -0.4], [0.2, 0.2, 0.2]):
        with pytest.raises(OptionsError, match="mixture"):
            eg.regrets(bad)


def test_rock_paper_scissors_has_the_uniform_equilibrium_and_no_regret_there():
    eg = rps()
    x = egta.equilibrium(eg)
    assert np.allclose(x, 1 / 3, atol=1e-6)
    assert np.allclose(eg.regrets(x), 0, atol=1e-9)
    assert eg.exploitability([1, 0, 0]) == pytest.approx(0.5)  # paper beats a rock population


def test_rock_paper_scissors_replicator_dynamics_stay_at_uniform_and_cycle_around_it():
    eg = rps()
    assert np.allclose(egta.replicator(eg, steps=200), 1 / 3)
    start = np.array([0.5, 0.3, 0.2])
    path = egta.replicator(eg, start, steps=4000)
    # the product of shares is constant on the orbits of a constant-sum RPS: a cycle, not a spiral
    assert np.allclose(path.prod(axis=1), start.prod(), rtol=1e-4)
    assert np.abs(path - start).max() > 0.1  # it moves round, neither still nor drawn to a corner
    assert np.allclose(path.mean(axis=0), 1 / 3, atol=0.05)


def test_rock_paper_scissors_alpha_rank_is_uniform():
    assert np.allclose(egta.alpha_rank(rps()), 1 / 3)


def test_a_dominant_strategy_is_the_equilibrium_and_takes_alpha_rank():
    eg = matrix_game(["cooperate", "defect"], PD, kind="score")
    x = egta.equilibrium(eg)
    assert np.allclose(x, [0, 1])
    regret = eg.regrets(x)
    assert regret[0] == pytest.approx(-1.0) and regret[1] == pytest.approx(0.0)
    assert egta.replicator(eg)[-1][1] > 0.99
    assert egta.alpha_rank(eg)[1] > 0.99


def test_a_dominant_strategy_at_a_larger_table_wins_everything_too():
    # public goods: each contributor pays 1, the pot is doubled and shared by all four
    def payoff(p: tuple[int, ...]) -> list[float]:
        share = 2 * p[0] / 4
        return [share - 1, share]

    eg = egta.EmpiricalGame.from_function(["contribute", "free-ride"], 4, payoff, kind="score")
    assert np.allclose(egta.equilibrium(eg), [0, 1])
    assert egta.alpha_rank(eg)[1] > 0.99


def test_a_coordination_game_finds_its_mixed_equilibrium_from_the_starts_given():
    eg = matrix_game(["left", "right"], np.array([[2.0, 0.0], [0.0, 1.0]]), kind="score")
    x = egta.equilibrium(eg, starts=[[0.4, 0.6]])
    assert np.allclose(x, [1 / 3, 2 / 3], atol=1e-6)
    assert eg.exploitability(x) < 1e-9


def test_alpha_rank_at_two_players_is_openspiels():
    rng = np.random.default_rng(7)
    table = {p: rng.random(4) for p in egta.profiles(4, 2)}
    eg = egta.EmpiricalGame.from_function(list("abcd"), 2, lambda p: table[p])
    scaled = np.hstack([eg.counts.astype(float), np.nan_to_num(eg.means) / eg.span()])
    hpt = heuristic_payoff_table.from_heuristic_payoff_table(scaled)
    rhos, _, pi, _, _ = alpharank.compute(
        [hpt], m=egta.POPULATION, alpha=egta.ALPHA, use_local_selection_model=False
    )
    assert np.allclose(egta.fixation(eg), rhos, rtol=1e-6, atol=1e-12)
    assert np.allclose(egta.alpha_rank(eg), pi)
    assert np.allclose(egta._stationary(egta.fixation(eg)), pi, atol=1e-8)


def test_the_bootstrap_is_the_same_for_the_same_seed_and_brackets_its_estimates():
    rng = np.random.default_rng(1)
    played = {}
    for p in egta.profiles(3, 2):
        values = np.where(np.array(p) > 0, rng.random((30, 3)), np.nan)
        played[p] = egta.ProfileGames(np.arange(30), values)
    eg = egta.EmpiricalGame("made-up", 2, ("a", "b", "c"), played)
    assert eg.common_seeds()
    first = egta.bootstrap(eg, resamples=30, seed=5)
    again = egta.bootstrap(eg, resamples=30, seed=5)
    other = egta.bootstrap(eg, resamples=30, seed=6)
    assert first.paired and first.resamples == 30
    for a, b in [(first.equilibrium, again.equilibrium), (first.alpha_rank, again.alpha_rank)]:
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(first.regrets[0], other.regrets[0])
    for low, high in (first.equilibrium, first.regrets, first.alpha_rank):
        assert (low <= high).all()
    assert ((first.alpha_rank[0] >= 0) & (first.alpha_rank[1] <= 1 + 1e-12)).all()


def test_a_table_lacking_a_profile_is_refused():
    played = {(2, 0): egta.ProfileGames(np.arange(1), np.array([[0.5, np.nan]]))}
    with pytest.raises(OptionsError, match="lacks 2 of its 3 profiles"):
        egta.EmpiricalGame("g", 2, ("a", "b"), played)


TRIALS = ["honest-revolutionary", "bluffing-grabber", "skeptic"]


def test_build_plays_every_profile_on_the_same_seeds_and_repeats_itself(tmp_path):
    eg = egta.build("culottes-trials", TRIALS, 3, games_per_profile=5, seed=11, workers=1, folder=tmp_path)
    assert len(eg.played) == 10 and set(eg.played) == set(egta.profiles(3, 3))
    assert eg.common_seeds()
    assert all(list(g.seeds) == list(range(11, 17)) for g in eg.played.values())  # 5 rounded up to 6
    again = egta.build("culottes-trials", TRIALS, 3, games_per_profile=5, seed=11, workers=2)
    for p, games in eg.played.items():
        assert np.array_equal(games.values, again.played[p].values, equal_nan=True)
    files = sorted((tmp_path / egta.PROFILES_FOLDER).glob("*.parquet"))
    assert len(files) == 10
    rows = rows_of(read(files[0]))
    for strategy in set(rows[0].strategies):
        seats = [sum(r.strategies[s] == strategy for r in rows) for s in range(3)]
        assert len(set(seats)) == 1  # every seat held alike
    loaded = egta.load(tmp_path, strategies=eg.strategies)
    assert np.array_equal(loaded.means, eg.means, equal_nan=True)
    assert np.array_equal(loaded.errors, eg.errors, equal_nan=True)


def test_extend_plays_only_the_new_profiles_and_agrees_with_building_them_all(tmp_path):
    eg = egta.build("culottes-trials", TRIALS, 3, games_per_profile=3, workers=1, folder=tmp_path)
    heard: list[int] = []
    bigger = egta.extend(eg, "random", workers=1, folder=tmp_path, progress=heard.append)
    assert bigger.strategies == (*TRIALS, "random")
    assert sum(heard) == 3 * (math.comb(6, 3) - math.comb(5, 3))
    whole = egta.build("culottes-trials", [*TRIALS, "random"], 3, games_per_profile=3, workers=1)
    assert np.array_equal(bigger.means, whole.means, equal_nan=True)
    with pytest.raises(OptionsError, match="already has"):
        egta.extend(bigger, "random", workers=1)


def test_a_run_started_again_resumes_from_its_folder(tmp_path):
    egta.build("culottes-trials", TRIALS, 3, games_per_profile=3, workers=1, folder=tmp_path)
    heard: list[int] = []
    egta.build(
        "culottes-trials", TRIALS, 3, games_per_profile=3, workers=1, folder=tmp_path, progress=heard.append
    )
    assert sum(heard) == 30  # every game found kept, none played again


def test_score_payoffs_are_the_seats_scores_and_win_payoffs_share_the_win():
    rows = egta.build("culottes-trials", TRIALS[:2], 3, games_per_profile=3, workers=1)
    assert rows.payoff == "win"
    shares = rows.means[~np.isnan(rows.means)]
    assert ((shares >= 0) & (shares <= 1)).all()
    scores = egta.build("culottes-trials", TRIALS[:2], 3, games_per_profile=3, workers=1, payoff="score")
    assert scores.payoff == "score"
    assert not np.allclose(np.nan_to_num(scores.means), np.nan_to_num(rows.means))


def test_from_rows_refuses_a_strategy_it_was_not_given(tmp_path):
    eg = egta.build("culottes-trials", TRIALS[:2], 3, games_per_profile=3, workers=1, folder=tmp_path)
    rows = [r for f in (tmp_path / egta.PROFILES_FOLDER).glob("*.parquet") for r in rows_of(read(f))]
    again = egta.from_rows(rows, game=eg.game, players=3, strategies=eg.strategies)
    assert np.array_equal(again.means, eg.means, equal_nan=True)
    with pytest.raises(OptionsError, match="not among the strategies"):
        egta.from_rows(rows, game=eg.game, players=3, strategies=["honest-revolutionary"])
    table = egta.to_json(eg)
    assert [p["counts"] for p in table["profiles"]] == [list(p) for p in egta.profiles(2, 3)]
    first = table["profiles"][1]["payoffs"]["honest-revolutionary"]
    assert first["seat_games"] == 2 * 3 and first["mean"] == pytest.approx(eg.means[1, 0], abs=1e-6)


def test_build_refuses_unknown_and_repeated_strategies():
    with pytest.raises(OptionsError, match="no strategy"):
        egta.build("culottes-trials", ["skeptic", "nobody"], 3, games_per_profile=3)
    with pytest.raises(OptionsError, match="named twice"):
        egta.build("culottes-trials", ["skeptic", "skeptic"], 3, games_per_profile=3)


def test_the_quick_command_writes_the_rows_the_table_and_the_report(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(
        app, ["empirical", "culottes-trials", "--quick", "--players", "4", "--out", str(out), "--workers=1"]
    )
    assert result.exit_code == 0, result.output
    found = json.loads((out / "empirical.json").read_text(encoding="utf-8"))
    names = [s["name"] for s in found["strategies"]]
    count = math.comb(len(names) + 3, 4)
    assert found["profiles"] == len(found["table"]) == count
    assert found["games_played"] == count * 4 == len(list((out / "profiles").glob("*.parquet"))) * 4
    assert set(found["equilibrium"]["mixture"]) == set(names)
    assert sum(v["value"] for v in found["equilibrium"]["mixture"].values()) == pytest.approx(1, abs=1e-5)
    assert set(found["alpha_rank"]["masses"]) == set(names)
    assert found["command"].startswith("tricolore empirical culottes-trials")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 4
    assert "α-Rank" in page and "Replicator dynamics" in page


@pytest.mark.parametrize(
    ("arguments", "sentence"),
    [
        (["--payoff", "money"], "--payoff must be one of win, score"),
        (["--strategies", "skeptic,skeptic"], "named twice"),
        (["--players", "40"], "played by 3 to 12 players"),
        (["--quick", "--games", "10"], "give --quick or --games, not both"),
    ],
)
def test_the_command_refuses_bad_input_in_one_sentence(tmp_path, arguments, sentence):
    result = runner.invoke(app, ["empirical", "culottes-trials", "--out", str(tmp_path / "x"), *arguments])
    assert result.exit_code == 1 and sentence in result.output and "Traceback" not in result.output


def test_role_shares_say_which_role_each_strategy_played_and_how_many_grabbers_an_equilibrium_seats(tmp_path):
    chooser = "by-nature"  # a grabber when its citizen is privileged, else a revolutionary
    egta.build("culottes", ["honest-revolutionary", "puppet-grabber", chooser], 3,
               games_per_profile=6, workers=1, folder=tmp_path)
    shares = egta.role_shares(tmp_path, ["honest-revolutionary", "puppet-grabber", chooser])
    assert shares["honest-revolutionary"] == {"revolutionary": 1.0}
    assert shares["puppet-grabber"] == {"grabber": 1.0}
    assert 0 < shares[chooser]["grabber"] < 1  # it chose by its citizen's nature, both happened
    at = egta.roles_at(shares, ["honest-revolutionary", "puppet-grabber", chooser], [0.5, 0.25, 0.25])
    assert at["grabber"] == pytest.approx(0.25 + 0.25 * shares[chooser]["grabber"])
    assert sum(at.values()) == pytest.approx(1.0)
