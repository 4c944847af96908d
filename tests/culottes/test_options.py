"""Culottes' options: each has an upper bound a real table could want, so that no option
can make a game slow or large (docs/games/culottes.md lists the ranges)."""

import json
import random
import time

import pytest

import tricolore
from tricolore.core import OptionsError
from tricolore.core.conformance import random_action

GAME = tricolore.get_game("culottes")
LARGEST = {"starting_cakes": 1000, "die_faces": 20, "closing_faces": list(range(1, 21)),
           "cockade_price_sans_culotte": 100, "cockade_price_privileged": 100,
           "citizen_sheets_per_player": 10, "max_rounds": 1000, "first_player": 11}


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
    ("starting_cakes", 1001, 1, 1000), ("starting_cakes", 0, 1, 1000),
    ("die_faces", 21, 2, 20), ("cockade_price_sans_culotte", 101, 0, 100),
    ("cockade_price_privileged", 101, 0, 100), ("citizen_sheets_per_player", 11, 2, 10),
    ("citizen_sheets_per_player", 1_000_000, 2, 10), ("max_rounds", 1001, 1, 1000),
])
def test_an_option_past_its_bound_is_refused_with_a_sentence(option, value, low, high):
    with pytest.raises(OptionsError) as refused:
        GAME.new(GAME.info.max_players, 1, {option: value})
    assert str(refused.value) == f"the option {option} must be from {low} to {high}; got {value}"


def test_closing_faces_no_longer_than_the_die_is_refused_with_a_sentence():
    with pytest.raises(OptionsError,
                       match=r"^the option closing_faces must list at least 1 and at most 6 faces "
                                           r"\(the die's\); it lists 7$"):
        GAME.new(4, 1, {"closing_faces": [1, 2, 3, 4, 5, 6, 6]})
    with pytest.raises(OptionsError, match="it lists 0"):
        GAME.new(4, 1, {"closing_faces": []})
