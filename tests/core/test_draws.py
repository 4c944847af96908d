"""The engine's draws give the outcomes of :mod:`random`'s own methods, drawing the same bits, so
that seeds, records and digests do not change with them."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tricolore.core.chance import ScriptedChance
from tricolore.core.draws import choice, randint, randrange, shuffle


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
