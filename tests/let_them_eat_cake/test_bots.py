"""The named Let Them Eat Cake strategies play legal, finished games and do what their docs say."""

import random

import tricolore
from tricolore.agents import make_agent
from tricolore.sim.runner import play_game


def play(seed, seats):
    game = tricolore.get_game("let-them-eat-cake")
    return play_game(game.new(len(seats), seed), [make_agent(game, s) for s in seats]).state


def test_named_strategies_finish_games_with_legal_actions_only():
    seats = ["cake-hoarder", "kingmaker", "random", "cake-hoarder", "kingmaker"]
    for seed in range(20):
        state = play(seed, seats[:3 + seed % 3])
        assert state.is_over()


def test_cake_hoarder_never_donates_nor_gives():
    for seed in range(10):
        state = play(seed, ["cake-hoarder", "random", "random", "random"])
        assert all(e.data.get("giver") != 0 for e in state.log if e.kind.endswith("_given"))
        assert all(e.data["seat"] != 0 for e in state.log if e.kind == "let_them_eat_cake")


def test_kingmaker_backs_its_patron_with_votes_after_a_gift():
    game = tricolore.get_game("let-them-eat-cake")
    state = game.new(4, 5, {"first_head": 0})
    state.apply(2, {"type": "give_cakes", "to": 1, "cards": [0]})  # seat 2 becomes seat 1's patron
    kingmaker = make_agent(game, "kingmaker")
    action = kingmaker.act(state.view(1), state.legal_actions(1), random.Random(0))
    assert action == {"type": "vote", "candidate": 2}


def test_named_strategies_beat_random_play():
    wins = {"named": 0.0, "random": 0.0}
    seats = ["cake-hoarder", "random", "kingmaker", "random"]
    for seed in range(60):
        state = play(seed, seats)
        for w in state.result().winners:
            wins["random" if seats[w] == "random" else "named"] += 1 / len(state.result().winners)
    assert wins["named"] > 3 * wins["random"]
