"""Random play's own loop (``tricolore.core.playout``) plays the very decisions the loops it
replaced played: in the benchmark, in a simulation of random players and in a search's rollouts."""

from __future__ import annotations

import random

import pytest

from tricolore.agents import RandomAgent
from tricolore.core import get_game, list_games
from tricolore.core.draws import pick
from tricolore.core.model import State
from tricolore.core.playout import play_at_random, play_moves_at_random
from tricolore.sim.runner import EndlessGame, play_game

GAMES = [info.name for info in list_games()]


def _table(name: str) -> int:
    info = get_game(name).info
    return min(max(info.min_players, 4), info.max_players)


def _by_hand(state: State, rng: random.Random) -> list[tuple[int, object]]:
    played = []
    while not state.is_over():
        seat = state.acting()[0]
        action = state.legal_actions(seat).sample(rng)
        state.apply_trusted(seat, action)
        played.append((seat, action))
    return played


@pytest.mark.parametrize("name", GAMES)
def test_random_play_in_the_engines_loop_makes_the_decisions_of_the_loop_by_hand(name: str) -> None:
    game = get_game(name)
    for seed in range(3):
        mine, theirs = game.new(_table(name), seed), game.new(_table(name), seed)
        played = _by_hand(theirs, random.Random(seed))
        assert play_at_random(mine, [random.Random(seed)]) == len(played)
        assert mine.is_over() and mine.digest() == theirs.digest()


@pytest.mark.parametrize("name", GAMES)
def test_random_play_stops_after_its_limit(name: str) -> None:
    game = get_game(name)
    mine, theirs = game.new(_table(name), 5), game.new(_table(name), 5)
    assert play_at_random(mine, [random.Random(5)], limit=7) == 7
    rng = random.Random(5)
    for _ in range(7):
        seat = theirs.acting()[0]
        theirs.apply_trusted(seat, theirs.legal_actions(seat).sample(rng))
    assert mine.digest() == theirs.digest() and not mine.is_over()
    assert play_at_random(mine, [random.Random(5)], limit=0) == 0


class _Generic(RandomAgent):
    """A random agent the runner does not recognise as one: played through its generic loop."""


@pytest.mark.parametrize("name", GAMES)
def test_a_simulation_of_random_players_records_what_the_generic_loop_records(name: str) -> None:
    game = get_game(name)
    players = _table(name)
    fast = play_game(game.new(players, 11), [RandomAgent() for _ in range(players)])
    slow = play_game(game.new(players, 11), [_Generic() for _ in range(players)])
    assert fast.actions == slow.actions and fast.record.actions == slow.record.actions
    assert fast.state.digest() == slow.state.digest()


def test_a_simulation_of_random_players_that_does_not_end_says_so() -> None:
    game = get_game("culottes")
    with pytest.raises(EndlessGame, match="did not end in 5 actions"):
        play_game(game.new(4, 1), [RandomAgent() for _ in range(4)], max_actions=5)


@pytest.mark.parametrize("name", [n for n in GAMES if get_game(n).new(_table(n), 0).numbers_moves()])
def test_random_play_on_moves_makes_the_decisions_of_the_loop_by_hand(name: str) -> None:
    game = get_game(name)
    mine, theirs = game.new(_table(name), 2), game.new(_table(name), 2)
    rng = random.Random(2)
    count = 0
    while not theirs.is_over():
        seat = theirs.acting()[0]
        moves = theirs.legal_moves(seat)
        theirs.apply_move(seat, moves[pick(rng, len(moves))])
        count += 1
    assert play_moves_at_random(mine, random.Random(2)) == count
    assert mine.digest() == theirs.digest()


@pytest.mark.parametrize("name", GAMES)
def test_an_action_trusted_as_any_mapping_is_carried_out_as_the_same_dict(name: str) -> None:
    """``play_trusted`` reads a plain dict's kind natively and any other mapping's generically:
    both carry out the same rule, and ``apply_trusted`` returns the events ``play_trusted`` logs."""
    from types import MappingProxyType

    game = get_game(name)
    plain, proxied = game.new(_table(name), 5), game.new(_table(name), 5)
    rng = random.Random(5)
    for _ in range(40):
        if plain.is_over():
            break
        seat = plain.acting()[0]
        action = plain.legal_actions(seat).sample(rng)
        start = len(plain.log)
        events = plain.apply_trusted(seat, action)
        assert events == plain.log[start:]
        proxied.play_trusted(seat, MappingProxyType(dict(action)))
        assert proxied.digest() == plain.digest()
