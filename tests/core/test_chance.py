"""Positions on demand: scripted chance, usable with every game, kept in the record."""

from __future__ import annotations

import json
import random

import pytest

import tricolore
from tricolore.core.chance import ChanceError, ScriptedChance
from tricolore.core.conformance import random_action
from tricolore.core.record import Record, replay, verify
from tricolore.core.registry import list_games

GAMES = [info.name for info in list_games()]


def test_scripted_outcomes_come_first_then_the_seed_takes_over():
    scripted = ScriptedChance(7, {"randint": [6, 6, 2]})
    seeded = random.Random(7)
    assert [scripted.randint(1, 6) for _ in range(3)] == [6, 6, 2]
    assert [scripted.randint(1, 6) for _ in range(5)] == [seeded.randint(1, 6) for _ in range(5)]


def test_a_scripted_shuffle_puts_the_deck_in_the_chosen_order():
    chance = ScriptedChance(0, {"shuffle": [["c", "a", "b"]], "choice": ["b"], "sample": [["a", "c"]]})
    deck = ["a", "b", "c"]
    chance.shuffle(deck)
    assert deck == ["c", "a", "b"]
    assert chance.choice(deck) == "b" and chance.sample(deck, 2) == ["a", "c"]


@pytest.mark.parametrize(("script", "draw", "says"), [
    ({"randint": [7]}, lambda c: c.randint(1, 6), "not a whole number from 1 to 6"),
    ({"shuffle": [["a", "a"]]}, lambda c: c.shuffle(["a", "b"]), "not an order of"),
    ({"choice": ["z"]}, lambda c: c.choice(["a", "b"]), "not one of"),
    ({"randrange": [3]}, lambda c: c.randrange(3), "not one of"),
])
def test_an_outcome_the_draw_could_not_make_is_refused_with_a_sentence(script, draw, says):
    with pytest.raises(ChanceError, match=says):
        draw(ScriptedChance(0, script))


def test_a_script_names_only_known_draws():
    with pytest.raises(ChanceError, match="may fix randint"):
        tricolore.make("culottes", 3, chance={"dice": [6]})


def test_a_scripted_die_roll_decides_whether_the_trial_closes():
    """Culottes: "If the die shows 5 or 6, the trial is closed" — with the roll chosen, not searched."""
    for roll, closes in [(4, False), (5, True)]:
        state = tricolore.make("culottes", 3, seed=0, chance={"randint": [roll]}, first_player=0)
        for seat in range(3):
            state.apply(seat, {"type": "choose_role", "role": "revolutionary"})
        rng = random.Random(1)
        while state.last_roll is None:
            seat = min(state.pending())
            space = state.legal_actions(seat)
            vote = space.family("cake_vote")
            state.apply(seat, vote.sample(rng) if vote is not None else space.sample(rng))
        assert state.last_roll == roll
        assert bool(state.closings) == closes


@pytest.mark.parametrize("game", GAMES)
def test_every_game_starts_from_a_scripted_position(game):
    """The draws one seed made, scripted into a game with another seed, deal the same table."""
    players = max(tricolore.get_game(game).info.min_players, 4)
    first = tricolore.make(game, players, seed=1, chance={})
    assert isinstance(first.rng, ScriptedChance)
    other = tricolore.make(game, players, seed=2, chance=first.rng.drawn)
    for seat in [None, *range(players)]:
        assert other.view(seat) == first.view(seat)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_with_scripted_chance_replays_and_verifies_from_its_record(game):
    players = max(tricolore.get_game(game).info.min_players, 4)
    setup = tricolore.make(game, players, seed=5, chance={}).rng.drawn
    state = tricolore.make(game, players, seed=9, chance=setup)
    record = Record.start(state)
    assert record.chance == setup
    rng = random.Random(3)
    while not state.is_over() and len(record.actions) < 300:
        seat, action = random_action(state, rng)
        state.apply(seat, action)
        record.add(seat, action, state)
        twin = state.clone()
        assert twin.digest() == state.digest()
    copy = Record.from_dict(json.loads(record.dumps()))
    assert copy.chance == setup and verify(copy) == []
    assert replay(copy).digest() == state.digest()
