"""The named Bread and Circuses strategies play legal, finished games and do what their docs say."""

import random

import tricolore
from tricolore.agents import make_agent
from tricolore.sim.runner import play_game


def play(seed, seats, **options):
    game = tricolore.get_game("bread-and-circuses")
    return play_game(game.new(len(seats), seed, options), [make_agent(game, s) for s in seats]).state


def test_named_strategies_finish_games_with_and_without_regulated_bribery():
    for seed in range(10):
        for bribery in (False, True):
            state = play(seed, ["honest-discloser", "free-rider", "random", "honest-discloser"],
                         regulated_bribery=bribery)
            assert state.is_over()


def test_honest_discloser_always_discloses_honestly():
    state = play(3, ["honest-discloser", "random", "random", "random"])
    for round_ in state.history:
        assert round_["payouts"][0]["honest_bonus"] == 1 or round_["payouts"][0]["tile"] != "abstain"
    assert all(e.data["seat"] != 0 for e in state.log if e.kind == "disclosed_tile"
               and e.data["tile"] == "abstain")


def test_free_rider_abstains_when_the_others_cover_both_needs():
    game = tricolore.get_game("bread-and-circuses")
    state = game.new(4, 1, {"first_player": 0})
    state.apply(0, {"type": "disclose", "tile": "bread", "icon": "bread"})
    state.apply(1, {"type": "disclose", "tile": "circus", "icon": "circus"})
    for seat in range(4):
        state.apply(seat, {"type": "ready"})
    rider = make_agent(game, "free-rider")
    tiles = [rider.act(state.view(2), state.legal_actions(2), random.Random(s))["tile"] for s in range(50)]
    assert tiles.count("abstain") > 35


def test_honest_discloser_pays_for_what_the_table_lacks_with_regulated_bribery():
    state = play(2, ["honest-discloser", "free-rider", "free-rider", "free-rider"], regulated_bribery=True)
    assert any(d.payer == 0 for d in state.deals.deals)


def test_free_rider_beats_random_play():
    wins = {"named": 0.0, "random": 0.0}
    seats = ["free-rider", "random", "honest-discloser", "random"]
    for seed in range(60):
        state = play(seed, seats)
        for w in state.result().winners:
            wins["random" if seats[w] == "random" else "named"] += 1 / len(state.result().winners)
    assert wins["named"] > 3 * wins["random"]
