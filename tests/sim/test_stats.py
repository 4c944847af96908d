"""The statistics behind a study's claims, checked against scipy and against values worked by hand."""


import numpy
import pytest
from scipy import stats as scipy_stats

from tricolore.sim.stats import (
    Claim,
    Estimate,
    Family,
    binomial_test,
    bootstrap,
    chi_square_uniform,
    difference,
    excluded_effect,
    holm,
    mean,
    one_sample_test,
    paired_difference,
)

A = [12.0, 15.0, 11.0, 19.0, 14.0, 16.0, 13.0, 18.0]
B = [10.0, 14.0, 12.0, 15.0, 11.0, 15.0, 10.0, 16.0]


def test_a_paired_difference_is_the_t_interval_of_the_per_pair_differences():
    gap = paired_difference(A, B)
    diffs = numpy.array(A) - numpy.array(B)
    low, high = scipy_stats.ttest_rel(A, B).confidence_interval()
    assert gap.value == pytest.approx(diffs.mean())
    assert (gap.low, gap.high) == (pytest.approx(low), pytest.approx(high))
    assert gap.n == len(A)


def test_pairing_narrows_the_interval_of_correlated_samples():
    paired = paired_difference(A, B)
    independent = difference(A, B)
    assert paired.value == pytest.approx(independent.value)
    assert paired.high - paired.low < independent.high - independent.low


def test_a_paired_difference_refuses_samples_of_different_lengths():
    with pytest.raises(ValueError, match="same length"):
        paired_difference([1.0, 2.0], [1.0])


def test_difference_is_welchs_interval():
    a, b = [3.1, 4.2, 5.0, 2.8, 3.9], [6.0, 7.5, 5.2, 8.8, 6.1, 9.0, 7.7]
    low, high = scipy_stats.ttest_ind(a, b, equal_var=False).confidence_interval()
    gap = difference(a, b)
    assert gap.value == pytest.approx(numpy.mean(a) - numpy.mean(b))
    assert (gap.low, gap.high) == (pytest.approx(low), pytest.approx(high))


def test_a_mean_has_its_t_interval():
    low, high = scipy_stats.ttest_1samp(A, 0).confidence_interval()
    e = mean(A)
    assert (e.low, e.high) == (pytest.approx(low), pytest.approx(high))


def test_the_one_sample_test_is_scipys_and_constant_data_is_exact():
    assert one_sample_test(A, 14.0) == pytest.approx(scipy_stats.ttest_1samp(A, 14.0).pvalue)
    assert one_sample_test([0.2] * 10, 0.2) == 1.0
    assert one_sample_test([0.0] * 10, 0.2) == 0.0
    assert one_sample_test([], 0.2) == 1.0


def test_the_binomial_test_is_exact():
    # 9 successes in 10 at p = 1/2: P(X >= 9) + P(X <= 1) = 2 * 11 / 1024
    assert binomial_test(9, 10, 0.5) == pytest.approx(22 / 1024)
    assert binomial_test(3, 20, 0.2) == pytest.approx(scipy_stats.binomtest(3, 20, 0.2).pvalue)


def test_the_chi_square_test_of_uniformity():
    counts = [30, 20, 25, 25]
    # statistic by hand: (25 + 25 + 0 + 0) / 25 = 2 on 3 degrees of freedom
    assert chi_square_uniform(counts) == pytest.approx(scipy_stats.chi2.sf(2.0, 3))
    assert chi_square_uniform([10, 10, 10]) == pytest.approx(1.0)


def test_holm_matches_the_textbook_step_down():
    # m = 4: sorted 0.01, 0.02, 0.03, 0.04 -> 4 * 0.01, 3 * 0.02, max(0.06, 2 * 0.03), max(0.06, 0.04)
    out = holm({"a": 0.03, "b": 0.01, "c": 0.04, "d": 0.02})
    assert out["b"] == (pytest.approx(0.04), True)
    assert out["d"] == (pytest.approx(0.06), False)
    assert out["a"] == (pytest.approx(0.06), False)
    assert out["c"] == (pytest.approx(0.06), False)
    assert list(out) == ["a", "b", "c", "d"]


def test_holm_caps_adjusted_values_at_one_and_keeps_them_monotone():
    out = holm({"x": 0.5, "y": 0.001, "z": 0.6})
    assert out["y"] == (pytest.approx(0.003), True)
    assert out["x"][0] == pytest.approx(1.0) and out["z"][0] == pytest.approx(1.0)


def test_a_bootstrap_is_deterministic_for_a_seed_and_brackets_the_statistic():
    rows = list(numpy.random.default_rng(3).normal(10, 2, 200))
    first = bootstrap(rows, lambda r: float(numpy.median(r)), resamples=400, seed=7)
    again = bootstrap(rows, lambda r: float(numpy.median(r)), resamples=400, seed=7)
    other = bootstrap(rows, lambda r: float(numpy.median(r)), resamples=400, seed=8)
    assert first == again and first != other
    assert first.low < first.value < first.high and first.n == 200
    # the mean's percentile interval is close to its t interval
    spread = bootstrap(numpy.array(rows), lambda r: float(r.mean()), resamples=2000)
    t = mean(rows)
    assert spread.low == pytest.approx(t.low, abs=0.1) and spread.high == pytest.approx(t.high, abs=0.1)


def test_the_excluded_effect_is_the_larger_bound():
    assert excluded_effect(Estimate(0.1, -0.3, 0.5, 10)) == 0.5
    assert excluded_effect(Estimate(-0.2, -0.7, 0.1, 10)) == 0.7


def test_a_family_words_claims_that_do_not_survive_correction_as_not_shown():
    strong = Claim("A beats B", 100, test="paired t-test", p=0.001, not_shown="A is not shown to beat B")
    weak = Claim("C beats D", 100, test="paired t-test", p=0.03, not_shown="C is not shown to beat D")
    third = Claim("E beats F", 100, test="paired t-test", p=0.2, not_shown="E is not shown to beat F")
    follows = Claim("A dominates", 100, requires=(strong, weak), not_shown="A does not dominate")
    figure = Claim("A game lasts 7 rounds", 100, Estimate(7.0, 6.5, 7.5, 100))
    family = Family()
    for c in (strong, weak, third, follows, figure):
        family.register(c)
    family.settle()
    # 0.03 alone would pass at 5%, but not after correction for three tests (2 * 0.03 = 0.06)
    assert strong.holds and strong.adjusted == pytest.approx(0.003)
    assert not weak.holds and weak.adjusted == pytest.approx(0.06)
    assert not follows.holds and follows.status == "not shown"
    assert figure.holds and figure.status == "shown" and figure.p is None
    assert weak.sentence().startswith("C is not shown to beat D")
    assert "not significant after correction" in weak.sentence()
    assert "Holm-adjusted p = 0.003" in strong.sentence() and "100 games" in strong.sentence()
    record = weak.record()
    assert record["status"] == "not shown" and record["holds"] is False and record["p"] == 0.03
    assert record["adjusted_p"] == pytest.approx(0.06) and record["unit"] == "games" and record["n"] == 100
    assert "3 claims" in family.method()


def test_a_claim_that_depends_on_a_rejected_test_does_not_hold_even_when_its_own_does():
    whole = Claim("seats differ", 50, test="chi-square", p=0.5, not_shown="no seat advantage")
    seat = Claim("seat 1 wins more", 50, test="t", p=1e-9, requires=(whole,), not_shown="seat 1 not shown")
    family = Family(claims=[whole, seat])
    family.settle()
    assert seat.adjusted is not None and seat.adjusted < 0.05
    assert not seat.holds and "depends on did not hold" in seat.sentence()


def test_a_claim_that_cannot_show_anything_says_so_and_is_left_out_of_the_correction():
    blind = Claim("this experiment cannot show anything", 40, cannot=True)
    tested = Claim("x", 40, test="t", p=0.02)
    family = Family(claims=[blind, tested])
    family.settle()
    assert blind.status == "cannot show" and tested.adjusted == pytest.approx(0.02)
    assert family.tested() == [tested]
