"""Revolution!'s options: each has an upper bound a real table could want, so that no option
can make a game slow or large (docs/games/revolution.md lists the ranges)."""

import json
import random
import time

import pytest

import tricolore
from tricolore.core import OptionsError
from tricolore.core.conformance import random_action

GAME = tricolore.get_game("revolution")
LARGEST = {"edition": "sjg", "max_rounds": 1000}


def test_the_largest_options_make_a_game_quickly():
    begun = time.perf_counter()
    state = GAME.new(GAME.info.max_players, 1, LARGEST)
    rng = random.Random(1)
    for _ in range(40):
        if state.is_over():
            break
        state.apply(*random_action(state, rng))
    state.view(0)
    state.digest()
    assert time.perf_counter() - begun < 1.0
    assert len(json.dumps(state.digest_payload())) < 50_000  # the whole state stays small


@pytest.mark.parametrize("option, value, low, high", [
    ("max_rounds", 1001, 1, 1000), ("max_rounds", 0, 1, 1000),
])
def test_an_option_past_its_bound_is_refused_with_a_sentence(option, value, low, high):
    with pytest.raises(OptionsError) as refused:
        GAME.new(GAME.info.max_players, 1, {option: value})
    assert str(refused.value) == f"the option {option} must be from {low} to {high}; got {value}"
