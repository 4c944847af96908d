"""The named Bread and Circuses strategies play legal, finished games and do what their docs say."""

import random

import tricolore
from tricolore.agents import make_agent, offered_actions
from tricolore.games.bread_and_circuses.bots import FreeRider, HonestDiscloser
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


def test_named_strategies_say_ready_again_after_another_players_change():
    game = tricolore.get_game("bread-and-circuses")
    for name in ("honest-discloser", "free-rider"):
        state = game.new(4, 1, {"first_player": 0, "regulated_bribery": True})
        bot = make_agent(game, name)
        for _ in range(5):  # its negotiation moves, then ready
            if not state.ready[0]:
                state.apply(0, bot.act(state.view(0), offered_actions(state, 0, bot), random.Random(0)))
        assert state.ready[0]
        state.apply(1, {"type": "disclose", "tile": "circus", "icon": "bread"})
        assert not state.ready[0] and state.pending()[0].kinds == ("ready",)
        action = bot.act(state.view(0), offered_actions(state, 0, bot), random.Random(0))
        assert action == {"type": "ready"}, name


def test_free_rider_solicits_pay_for_the_missing_tile_and_the_honest_discloser_pays_it():
    state = play(2, ["free-rider", "honest-discloser", "honest-discloser", "honest-discloser"],
                 regulated_bribery=True)
    solicited = [d for d in state.deals.deals if d.offered_by == d.payee == 0]
    assert solicited and any(d.status == "paid" for d in solicited)
    assert all(d.payer != 0 for d in state.deals.deals if d.status == "paid")  # never pays


def test_honest_discloser_takes_a_bribe_to_be_honest_and_earns_it():
    game = tricolore.get_game("bread-and-circuses")
    state = game.new(4, 5, {"first_player": 0, "regulated_bribery": True})
    state.apply(1, {"type": "offer_deal", "to": 0, "gold": 2, "condition": "honest", "tile": None,
                    "when": "this"})
    played = play_game(state, [make_agent(game, s) for s in
                               ("honest-discloser", "random", "random", "random")]).state
    assert played.deals.get(0).status == "paid" and played.deals.get(0).payee == 0


def test_honest_discloser_plays_its_sabotage_cards_against_riots_and_monopoly_last():
    def cards(counts, riot):
        return [w["card"] for w in HonestDiscloser().sabotage({"counts": counts, "riot": riot})]

    assert cards({"breads": 0, "circuses": 2}, False) == ["Charity Kitchen", "Monopoly"]
    assert cards({"breads": 1, "circuses": 0}, True) == ["Street Players", "Appease the Mob", "Monopoly"]
    assert cards({"breads": 1, "circuses": 1}, False) == ["Monopoly"]


def test_free_rider_pickpockets_the_richest_and_escapes_a_riot_it_abstained_in():
    view = {"seat": 0, "players": 4, "gold": [9, 3, 7, 7], "deals": [], "round": 1,
            "options": {"regulated_bribery": False}, "disclosures": [None] * 4}
    assert FreeRider().negotiate(view) == [
        {"type": "play_sabotage", "card": "Pickpocket", "target": 2}, {"type": "ready"}]
    caught = {"seat": 0, "riot": True, "counts_as": ["abstain", "bread", "circus", "bread"]}
    assert FreeRider().sabotage(caught)[0]["card"] == "Bribed Magistrate"
    assert [w["card"] for w in FreeRider().sabotage({**caught, "riot": False})] == ["Monopoly"]
