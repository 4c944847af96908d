"""The engine's draws give the outcomes of :mod:`random`'s own methods, drawing the same bits, so
that seeds, records and digests do not change with them."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tricolore.core.chance import ScriptedChance
from tricolore.core.draws import choice, pick, pick_between, randint, randrange, shuffle


@given(st.integers(0, 2**32), st.integers(0, 200))
def test_a_shuffle_puts_the_items_in_the_order_random_does(seed, size):
    mine, theirs = list(range(size)), list(range(size))
    ours, reference = random.Random(seed), random.Random(seed)
    shuffle(ours, mine)
    reference.shuffle(theirs)
    assert mine == theirs
    assert ours.getstate() == reference.getstate()  # and leaves the generator where random does


@given(st.integers(0, 2**32), st.lists(st.integers(1, 10**9), min_size=1, max_size=30))
def test_randrange_randint_and_choice_draw_what_random_draws(seed, sizes):
    ours, reference = random.Random(seed), random.Random(seed)
    for n in sizes:
        assert randrange(ours, n) == reference.randrange(n)
        assert randint(ours, -5, n) == reference.randint(-5, n)
        items = list(range(n % 50 + 1))
        assert choice(ours, items) == reference.choice(items)
    assert ours.random() == reference.random()


def test_a_script_of_chance_draws_its_own_way():
    rng = ScriptedChance(1, {"shuffle": [[3, 1, 2]], "randrange": [4], "choice": ["b"]})
    deck = [1, 2, 3]
    shuffle(rng, deck)
    assert deck == [3, 1, 2]
    assert randrange(rng, 10) == 4
    assert choice(rng, ["a", "b"]) == "b"


@pytest.mark.parametrize("draw", [lambda rng: randrange(rng, 0), lambda rng: randint(rng, 3, 2),
                                  lambda rng: choice(rng, [])])
def test_an_empty_range_is_refused_as_random_refuses_it(draw):
    with pytest.raises((ValueError, IndexError)):
        draw(random.Random(0))


@given(st.integers(0, 2**32), st.one_of(st.integers(2, 16), st.integers(17, 2**31)))
def test_a_pick_is_the_high_part_of_one_word_times_n_unless_its_low_part_is_short(seed, n):
    rng, reference = random.Random(seed), random.Random(seed)
    bits = 8 if n <= 16 else 32  # a byte of the word for a short range
    short = 2**bits % n
    while True:  # Lemire's method, written out with the plain generator
        product = reference.getrandbits(bits) * n
        if product % 2**bits >= short:
            break
    assert pick(rng, n) == product >> bits
    assert rng.getstate() == reference.getstate()


def test_a_pick_of_one_draws_nothing():
    rng = random.Random(3)
    before = rng.getstate()
    assert pick(rng, 1) == 0
    assert pick_between(rng, 4, 4) == 4
    assert rng.getstate() == before


def test_picks_are_uniform():
    """Every number equally often: chi-squared over 60,000 picks among 7 and among 12 (with 6 and 11
    degrees of freedom, 22.5 and 31.3 are exceeded once in a thousand runs)."""
    rng = random.Random(11)
    for n, bound in ((7, 22.5), (12, 31.3)):
        counts = [0] * n
        for _ in range(60_000):
            counts[pick(rng, n)] += 1
        expected = 60_000 / n
        assert sum((c - expected) ** 2 / expected for c in counts) < bound
    assert {pick_between(rng, -2, 2) for _ in range(200)} == {-2, -1, 0, 1, 2}


def test_a_pick_from_a_script_of_chance_is_its_randrange_and_an_empty_range_is_refused():
    assert pick(ScriptedChance(1, {"randrange": [4]}), 10) == 4
    with pytest.raises(ValueError):
        pick(random.Random(0), 0)
    with pytest.raises(ValueError):
        pick_between(random.Random(0), 3, 2)
