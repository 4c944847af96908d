"""Best responses: the cross-entropy search, play against a mixture on common random numbers,
the paired gain, and the loop on rock-paper-scissors."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats as scipy_stats
from typer.testing import CliRunner

from tricolore.agents.params import Parameter
from tricolore.core.errors import OptionsError
from tricolore.sim import egta
from tricolore.sim.psro import (
    Outcome,
    Settings,
    Tables,
    mixture_payoffs,
    paired_gain,
    report_page,
    run_loop,
    support,
    versus_mixture,
)
from tricolore.sim.search_strategies import Family, Space, cross_entropy

# --- the cross-entropy method ------------------------------------------------------------------

DIAL = Family("dial", {
    "x": Parameter(2.0, 0, 10, "a number"),
    "n": Parameter(1, 1, 9, "a whole number"),
    "colour": Parameter("red", doc="a choice", choices=("red", "green", "blue")),
    "flip": Parameter(False, doc="a switch"),
})
FLAT = Family("flat")


def dial_score(text: str) -> float:
    """A known landscape: best at x=7.3, n=6, blue, flip; the flat family scores far below."""
    name, _, rest = text.partition(":")
    if name == "flat":
        return -50.0
    values = dict(item.split("=") for item in rest.split(",")) if rest else {}
    x = float(values.get("x", 2.0))
    n = int(values.get("n", 1))
    return (-(x - 7.3) ** 2 - (n - 6) ** 2 + 3 * (values.get("colour", "red") == "blue")
            + 2 * (values.get("flip", "false") == "true"))


def test_cross_entropy_finds_the_best_parameters_of_a_known_landscape() -> None:
    space = Space((FLAT, DIAL))
    calls: list[list[str]] = []

    def score(texts: Sequence[str]) -> list[float]:
        calls.append(list(texts))
        return [dial_score(t) for t in texts]

    found = cross_entropy(space, score, population=24, generations=10, seed=3)
    assert found.best is not None
    name, _, rest = found.best.partition(":")
    values = dict(item.split("=") for item in rest.split(","))
    assert name == "dial"
    assert abs(float(values["x"]) - 7.3) < 0.6
    assert values["n"] == "6" and values["colour"] == "blue" and values["flip"] == "true"
    # whole numbers stay whole, every candidate is scored once, the defaults come first
    assert all("n=" not in t or t.split("n=")[1].split(",")[0].isdigit() for t in found.scores)
    seen = [t for batch in calls for t in batch]
    assert len(seen) == len(set(seen))
    assert calls[0][:2] == ["flat", "dial"]
    assert found.generations[-1].distribution["dial"]["probability"] > 0.9
    again = cross_entropy(space, lambda ts: [dial_score(t) for t in ts], population=24, generations=10,
                          seed=3)
    assert again.scores == found.scores


def test_cross_entropy_never_returns_an_excluded_strategy() -> None:
    space = Space((DIAL,))
    found = cross_entropy(space, lambda ts: [10.0 if t == "dial" else 0.0 for t in ts], population=4,
                          generations=2, exclude=["dial"])
    assert found.scores["dial"] == 10.0 and found.best != "dial"


def test_cross_entropy_refuses_a_population_of_one() -> None:
    with pytest.raises(OptionsError, match="population"):
        cross_entropy(Space((DIAL,)), lambda ts: [0.0] * len(ts), population=1)


# --- against a mixture -------------------------------------------------------------------------


def test_tables_seat_the_candidate_in_every_seat_equally_and_draw_from_the_mixture() -> None:
    tables = Tables.draw({"a": 0.8, "b": 0.2}, 4, 4000, seed=7)
    assert Counter(tables.seats) == {0: 1000, 1: 1000, 2: 1000, 3: 1000}
    lineups = tables.lineups("c")
    assert all(line[seat] == "c" and line.count("c") == 1
               for line, seat in zip(lineups, tables.seats, strict=True))
    drawn = Counter(s for o in tables.others for s in o)
    assert abs(drawn["a"] / 12000 - 0.8) < 0.02
    # the first games do not depend on how many are drawn, and the seed fixes the draw
    assert Tables.draw({"a": 0.8, "b": 0.2}, 4, 10, seed=7).others == tables.others[:10]
    assert Tables.draw({"a": 0.8, "b": 0.2}, 4, 10, seed=8).others != tables.others[:10]


def test_support_drops_crumbs_and_refuses_a_mixture_that_does_not_fit() -> None:
    assert support(["a", "b", "c"], [0.5, 0.5, 1e-5]) == {"a": 0.5, "b": 0.5}
    with pytest.raises(OptionsError, match="3 weights for 2 strategies"):
        support(["a", "b"], [0.2, 0.3, 0.5])
    with pytest.raises(OptionsError, match="not negative"):
        support(["a", "b"], [-0.5, 1.5])


def test_versus_mixture_is_the_same_for_the_same_candidate_on_the_same_seed() -> None:
    pool = ["honest-revolutionary", "skeptic"]
    mixture = np.array([0.5, 0.5])
    kwargs: dict[str, Any] = {"games": 9, "seed": 11, "workers": 1}
    first = versus_mixture("culottes-trials", "bluffing-grabber", pool, mixture, 3, **kwargs)
    second = versus_mixture("culottes-trials", "bluffing-grabber", pool, mixture, 3, **kwargs)
    assert first.shape == (9,) and np.array_equal(first, second)
    assert set(np.unique(first)) <= {0.0, 1.0, 0.5, 1 / 3}
    other_seed = versus_mixture("culottes-trials", "bluffing-grabber", pool, mixture, 3, games=9, seed=12,
                                workers=1)
    scores = versus_mixture("culottes-trials", "bluffing-grabber", pool, mixture, 3, payoff="score", **kwargs)
    assert not np.array_equal(first, other_seed) or not np.array_equal(first, scores)


def test_versus_mixture_refuses_a_payoff_it_does_not_know() -> None:
    with pytest.raises(OptionsError, match="payoff"):
        versus_mixture("culottes-trials", "skeptic", ["skeptic"], [1.0], 3, games=3, payoff="cakes")


# --- the paired gain -----------------------------------------------------------------------------


def test_paired_gain_is_the_t_interval_of_the_differences_and_a_one_sided_test() -> None:
    candidate = np.array([1.0, 0.5, 1.0, 0.0, 1.0, 1.0, 0.5, 1.0])
    mixture = np.array([0.5, 0.5, 0.25, 0.5, 0.5, 0.25, 0.5, 0.5])
    diffs = candidate - mixture
    g = paired_gain(candidate, mixture)
    half = scipy_stats.t.ppf(0.975, 7) * diffs.std(ddof=1) / math.sqrt(8)
    assert g.gain == pytest.approx(diffs.mean())
    assert (g.low, g.high) == pytest.approx((diffs.mean() - half, diffs.mean() + half))
    assert g.p == pytest.approx(scipy_stats.ttest_rel(candidate, mixture, alternative="greater").pvalue)
    assert g.games == 8 and g.candidate == pytest.approx(candidate.mean())
    assert paired_gain(np.ones(5), np.zeros(5)).p == 0.0
    assert paired_gain(np.zeros(5), np.zeros(5)).p == 1.0


# --- the loop on rock-paper-scissors -------------------------------------------------------------

THROWS = ("rock", "paper", "scissors")
HAND = Family("hand", {"throw": Parameter("rock", doc="what it throws", choices=THROWS),
                       "lazy": Parameter(False, doc="throws rock whatever it is told")})
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


def throw_of(strategy: str) -> str:
    if strategy == "psychic":
        return "psychic"
    _, _, rest = strategy.partition(":")
    values = dict(item.split("=") for item in rest.split(",")) if rest else {}
    return "rock" if values.get("lazy") == "true" else values.get("throw", "rock")


def share(mine: str, theirs: str) -> float:
    """Share of the win of a two-player throw: 1 to the winner, a half each on a tie."""
    if mine == theirs:
        return 0.5
    if mine == "psychic":
        return 1.0
    if theirs == "psychic":
        return 0.0
    return 1.0 if BEATS[mine] == theirs else 0.0


class Hands:
    """Rock-paper-scissors as an arena: the empirical game known exactly, opponents drawn from
    the mixture by the loop's own tables."""

    def __init__(self) -> None:
        self.played: list[tuple[str, int, int]] = []

    def _game(self, strategies: Sequence[str]) -> egta.EmpiricalGame:
        def payoff(profile: tuple[int, ...]) -> list[float]:
            present = [s for s, c in zip(strategies, profile, strict=True) for _ in range(c)]
            a, b = (throw_of(s) for s in present)
            pay = {present[0]: share(a, b), present[1]: share(b, a)}
            return [pay.get(s, 0.0) for s in strategies]

        return egta.EmpiricalGame.from_function(list(strategies), 2, payoff)

    def start(self, strategies: Sequence[str]) -> egta.EmpiricalGame:
        return self._game(strategies)

    def add(self, empirical: egta.EmpiricalGame, strategy: str) -> egta.EmpiricalGame:
        return self._game([*empirical.strategies, strategy])

    def solve(self, empirical: egta.EmpiricalGame) -> np.ndarray:
        return egta.equilibrium(empirical)

    def versus(self, candidate: str, pool: Sequence[str], mixture: np.ndarray, games: int,
               seed: int) -> np.ndarray:
        self.played.append((candidate, games, seed))
        tables = Tables.draw(support(pool, mixture), 2, games, seed)
        return np.array([share(throw_of(candidate), throw_of(o[0])) for o in tables.others])


def test_the_loop_adds_paper_then_scissors_and_exploitability_falls_to_nothing() -> None:
    settings = Settings(iterations=5, games=200, population=8, generations=3, validation_games=2000,
                        search=None)
    iterations, pool, mixture, stopped = run_loop(Hands(), ["hand"], 2, Space((HAND,)), settings, seed=1)
    assert pool == ["hand", "hand:throw=paper", "hand:throw=scissors"]
    assert [it.added for it in iterations] == [True, True, False]
    assert stopped == "converged"
    assert iterations[0].mixture == {"hand": 1.0}
    assert iterations[1].mixture == pytest.approx({"hand:throw=paper": 1.0})  # rock is dominated
    gains = [it.gain for it in iterations]
    assert gains[0] is not None and gains[0].gain == pytest.approx(0.5)
    assert gains[1] is not None and gains[1].gain == pytest.approx(0.5)
    last = gains[2]
    assert last is not None and last.low < 0 < last.high and abs(last.gain) < 0.03 and last.p >= 0.05
    assert mixture == pytest.approx(dict.fromkeys(pool, 1 / 3), abs=1e-4)
    assert iterations[2].regret is not None and iterations[2].regret < 1e-6


def test_the_loop_judges_candidates_on_fresh_games_and_the_mixture_on_the_same_ones() -> None:
    arena = Hands()
    settings = Settings(iterations=1, games=20, population=4, generations=1, validation_games=50, search=None)
    iterations, *_ = run_loop(arena, ["hand"], 2, Space((HAND,)), settings, seed=0)
    selection = {seed for _, n, seed in arena.played if n == 20}
    judged = [(c, seed) for c, n, seed in arena.played if n == 50]
    assert {c for c, _ in judged} == {iterations[0].best, "hand"}  # the candidate, and the mixture's support
    assert len(selection) == 1 and len({seed for _, seed in judged}) == 1
    assert judged[0][1] not in selection


def test_the_search_agent_is_judged_on_its_own_number_of_fresh_games_when_it_is_best() -> None:
    settings = Settings(iterations=1, games=20, population=4, generations=1, validation_games=50,
                        search="psychic", search_games=10, search_validation_games=30)
    iterations, pool, _, _ = run_loop(Hands(), ["hand"], 2, Space((HAND,)), settings, seed=0)
    it = iterations[0]
    assert it.search_gain == pytest.approx(0.5) and it.best == "psychic"
    assert it.gain is not None and it.gain.games == 30 and it.added and pool[-1] == "psychic"


def test_mixture_payoffs_weight_each_strategy_of_the_support() -> None:
    arena = Hands()
    mixture = np.array([0.25, 0.75])
    pool = ["hand", "hand:throw=paper"]
    got = mixture_payoffs(arena.versus, pool, mixture, 40, 3)
    rock = arena.versus("hand", pool, mixture, 40, 3)
    paper = arena.versus("hand:throw=paper", pool, mixture, 40, 3)
    assert got == pytest.approx(0.25 * rock + 0.75 * paper)


def test_the_report_says_what_was_found_and_draws_the_curve() -> None:
    settings = Settings(iterations=5, games=60, population=6, generations=2, validation_games=600,
                        search=None)
    iterations, pool, mixture, stopped = run_loop(Hands(), ["hand"], 2, Space((HAND,)), settings, seed=1)
    result = Outcome("rock-paper-scissors", 2, ["hand"], pool, mixture, iterations, stopped, settings)
    sentences = result.sentences()
    assert sentences[0].startswith("Found hand:throw=paper, which beats the pool's equilibrium mixture")
    assert "one-sided paired t-test" in sentences[0] and "600 games" in sentences[0]
    assert sentences[-1].startswith("No strategy beating the mixture significantly was found")
    page = report_page(result)
    assert page.count("<svg") == 2 and "hand:throw=scissors" in page
    data = result.as_json()
    assert data["found"] == ["hand:throw=paper", "hand:throw=scissors"]
    assert [e["gain"] for e in data["exploitability"]][:2] == [0.5, 0.5]
    json.dumps(data)


# --- the command ---------------------------------------------------------------------------------


def test_the_command_quick_writes_its_files(tmp_path: Path) -> None:
    from tricolore.cli.main import app

    out = tmp_path / "psro"
    result = CliRunner().invoke(app, ["psro", "culottes-trials", "--players", "3", "--quick",
                                      "--strategies", "honest-revolutionary,skeptic", "--out", str(out),
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "psro.json").read_text())
    assert data["start_pool"] == ["honest-revolutionary", "skeptic"]
    assert data["iterations"] and data["sentences"]
    assert data["command"].startswith("tricolore psro culottes-trials")
    page = (out / "report.html").read_text()
    assert "<svg" in page and data["sentences"][-1].split(" (")[0] in page


def test_the_command_refuses_a_bad_table_in_one_sentence(tmp_path: Path) -> None:
    from tricolore.cli.main import app

    result = CliRunner().invoke(app, ["psro", "culottes-trials", "--players", "40", "--quick",
                                      "--strategies", "skeptic", "--out", str(tmp_path / "x")])
    assert result.exit_code == 1
    assert "players" in result.output and "Traceback" not in result.output
