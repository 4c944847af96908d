"""Every game's options have an upper bound a real table could want, so that no option can make
a game slow or large (each game's doc lists the ranges): the largest allowed values make a game
quickly, and one past each bound is refused with a sentence naming the option."""

import json
import random
import time

import pytest

import tricolore
from tricolore.core import OptionsError
from tricolore.core.conformance import random_action

LARGEST = {
    "culottes": {"starting_cakes": 1000, "die_faces": 20, "closing_faces": list(range(1, 21)),
                 "cockade_price_sans_culotte": 100, "cockade_price_privileged": 100,
                 "citizen_sheets_per_player": 10, "max_rounds": 1000, "first_player": 11},
    "culottes-trials": {"trials": 100, "arguments_per_debate": 20, "first_accused": 11},
    "let-them-eat-cake": {"winning_cakes": 1000, "max_rounds": 1000, "first_head": 5, "memory_mode": True},
    "revolution": {"edition": "sjg", "max_rounds": 1000},
    "bread-and-circuses": {"max_rounds": 1000, "first_player": 7, "regulated_bribery": True},
}
"""Per game, every option at the largest value a table may ask for."""

PAST_THE_BOUND = [
    ("culottes", "starting_cakes", 1001, 1, 1000), ("culottes", "starting_cakes", 0, 1, 1000),
    ("culottes", "die_faces", 21, 2, 20), ("culottes", "cockade_price_sans_culotte", 101, 0, 100),
    ("culottes", "cockade_price_privileged", 101, 0, 100),
    ("culottes", "citizen_sheets_per_player", 11, 2, 10),
    ("culottes", "citizen_sheets_per_player", 1_000_000, 2, 10), ("culottes", "max_rounds", 1001, 1, 1000),
    ("culottes-trials", "trials", 101, 1, 100), ("culottes-trials", "trials", 0, 1, 100),
    ("culottes-trials", "arguments_per_debate", 21, 0, 20),
    ("let-them-eat-cake", "winning_cakes", 1001, 1, 1000), ("let-them-eat-cake", "winning_cakes", 0, 1, 1000),
    ("let-them-eat-cake", "max_rounds", 1001, 1, 1000),
    ("revolution", "max_rounds", 1001, 1, 1000), ("revolution", "max_rounds", 0, 1, 1000),
    ("bread-and-circuses", "max_rounds", 1001, 1, 1000), ("bread-and-circuses", "max_rounds", 0, 1, 1000),
]


def test_every_game_and_every_bounded_option_is_covered():
    assert set(LARGEST) == {info.name for info in tricolore.list_games()}


@pytest.mark.parametrize("game", sorted(LARGEST))
def test_the_largest_options_make_a_game_quickly(game):
    definition = tricolore.get_game(game)
    begun = time.perf_counter()
    state = definition.new(definition.info.max_players, 1, LARGEST[game])
    rng = random.Random(1)
    for _ in range(40):
        if state.is_over():
            break
        state.apply(*random_action(state, rng))
    state.view(0)
    state.digest()
    assert time.perf_counter() - begun < 1.0
    assert len(json.dumps(state.digest_payload())) < 50_000  # the whole state stays small


@pytest.mark.parametrize(("game", "option", "value", "low", "high"), PAST_THE_BOUND)
def test_an_option_past_its_bound_is_refused_with_a_sentence(game, option, value, low, high):
    definition = tricolore.get_game(game)
    with pytest.raises(OptionsError) as refused:
        definition.new(definition.info.max_players, 1, {option: value})
    assert str(refused.value) == f"the option {option} must be from {low} to {high}; got {value}"


def test_closing_faces_no_longer_than_the_die_is_refused_with_a_sentence():
    culottes = tricolore.get_game("culottes")
    with pytest.raises(OptionsError, match=r"^the option closing_faces must list at least 1 and at most 6 "
                                           r"faces \(the die's\); it lists 7$"):
        culottes.new(4, 1, {"closing_faces": [1, 2, 3, 4, 5, 6, 6]})
    with pytest.raises(OptionsError, match="it lists 0"):
        culottes.new(4, 1, {"closing_faces": []})
