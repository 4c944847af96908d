"""The named Let Them Eat Cake strategies play legal, finished games and do what their docs say."""

import random

import tricolore
from tricolore.agents import make_agent
from tricolore.core import ActionFamily, ActionSpace, Choice
from tricolore.games.let_them_eat_cake.data import GENERAL
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


# -- each documented behaviour, on a seat's view -------------------------------------------------
def table_view(seat=0, stashes=(2, 1, 5, 3), **more):
    """The view fields the strategies read: seat 2 has the biggest stash, seat 1 the smallest."""
    view = {"seat": seat, "players": len(stashes), "stash_cards": list(stashes), "gifts": [],
            "medals": [2] * len(stashes), "guillotine": None, "draw": [],
            "generals": [{"pantry": 0, "starter": 1}] * len(stashes), "you": {"received": None}}
    return {**view, **more}


def test_cake_hoarder_spends_a_coup_only_to_escape_being_named_enemy():
    hoarder = make_agent(tricolore.get_game("let-them-eat-cake"), "cake-hoarder")
    view = table_view()
    assert hoarder.coup(view, {"office": "enemy", "candidates": [0, 2, 3]}) == [
        {"type": "coup", "winner": 2}, {"type": "coup", "winner": 3}]
    assert hoarder.coup(view, {"office": "enemy", "candidates": [2, 3]}) == []
    assert hoarder.coup(view, {"office": "operator", "candidates": [0, 2]}) == []


def test_cake_hoarder_alleges_rigging_only_while_it_holds_a_general():
    hoarder = make_agent(tricolore.get_game("let-them-eat-cake"), "cake-hoarder")
    enemy = {"office": "enemy", "winner": 0}
    assert hoarder.contests(table_view(), enemy)
    broke = table_view(generals=[{"pantry": 0, "starter": 0}] * 4)
    assert not hoarder.contests(broke, enemy)
    on_the_guillotine = table_view(guillotine=0)
    assert hoarder.contests(on_the_guillotine, {"office": "operator", "winner": 2})
    assert not hoarder.contests(on_the_guillotine, {"office": "operator", "winner": 1})


def test_cake_hoarder_deals_itself_the_biggest_cake_and_judges_the_batch_by_its_rivals():
    hoarder = make_agent(tricolore.get_game("let-them-eat-cake"), "cake-hoarder")
    draw = [{"card": 0, "value": 3, "to": None}, {"card": 1, "value": 9, "to": None}]
    assert hoarder.deal(table_view(draw=draw)) == [{"type": "deal", "card": 1, "to": 0}]
    dealt = [{"card": 0, "value": 5, "to": 0}, {"card": 1, "value": 7, "to": 2},
             {"card": 2, "value": 9, "to": 1}]
    assert not hoarder.batch_is_safe(table_view(draw=dealt))  # its 5 is below rival 2's 7
    dealt[1]["value"] = 4
    assert hoarder.batch_is_safe(table_view(draw=dealt))  # a friend's 9 does not count
    assert hoarder.donate(table_view()) == [{"type": "pass"}]


def test_kingmaker_serves_its_patron_first():
    kingmaker = make_agent(tricolore.get_game("let-them-eat-cake"), "kingmaker")
    gifts = [{"giver": 3, "receiver": 0, "medals": 0, "generals": 1, "cake_cards": 0},
             {"giver": 2, "receiver": 0, "medals": 1, "generals": 0, "cake_cards": 0}]
    view = table_view(gifts=gifts, guillotine=3)
    assert kingmaker.patron(view) == 3 and kingmaker.rivals(view) == [2, 1]
    assert kingmaker.spares(view) and not kingmaker.spares(table_view(gifts=gifts, guillotine=2))
    draw = [{"card": 0, "value": 3, "to": None}, {"card": 1, "value": 9, "to": None}]
    assert kingmaker.deal(table_view(gifts=gifts, draw=draw)) == [{"type": "deal", "card": 1, "to": 3}]
    assert kingmaker.contests(view, {"office": "enemy", "winner": 3})
    assert not kingmaker.contests(view, {"office": "enemy", "winner": 1})


def test_kingmaker_without_a_patron_backs_the_smallest_stash():
    kingmaker = make_agent(tricolore.get_game("let-them-eat-cake"), "kingmaker")
    assert kingmaker.patron(table_view()) == 1


def test_kingmaker_seizes_only_a_cake_of_ten_or_more():
    kingmaker = make_agent(tricolore.get_game("let-them-eat-cake"), "kingmaker")
    draw = [{"card": 0, "value": 9, "to": None}, {"card": 1, "value": 12, "to": None},
            {"card": 2, "value": 15, "to": 2}]
    assert kingmaker.seize(table_view(draw=draw)) == [{"type": "seize", "card": 1}]
    assert kingmaker.seize(table_view(draw=draw[:1])) == []


def test_kingmaker_judges_the_batch_unsafe_only_when_the_leader_gains_and_it_and_its_patron_do_not():
    kingmaker = make_agent(tricolore.get_game("let-them-eat-cake"), "kingmaker")
    dealt = [{"card": 0, "value": GENERAL, "to": 0}, {"card": 1, "value": 9, "to": 2},
             {"card": 2, "value": GENERAL, "to": 1}]
    assert not kingmaker.batch_is_safe(table_view(draw=dealt))  # seat 2 leads, seat 1 is patron
    dealt[2]["value"] = 4
    assert kingmaker.batch_is_safe(table_view(draw=dealt))


def test_kingmaker_gives_a_medal_to_a_patron_with_the_fewest_and_buys_one_with_a_small_cake():
    kingmaker = make_agent(tricolore.get_game("let-them-eat-cake"), "kingmaker")
    view = table_view(medals=[2, 0, 3, 1], election=None)
    legal = ActionSpace((ActionFamily("give_medals", {"to": Choice((1, 2, 3)),
                                                      "medals": Choice((1, 2))}),))
    assert kingmaker.act(view, legal, random.Random(0)) == {"type": "give_medals", "to": 1, "medals": 1}
    short = table_view(medals=[1, 2, 3, 0], you={"received": {"value": 3}})
    assert kingmaker.donate(short) == [{"type": "donate", "take_from": 2}]  # seat 3 has no Medal
    assert kingmaker.donate(table_view(medals=[2, 2, 3, 0], you={"received": {"value": 3}})) == [
        {"type": "pass"}]
    assert kingmaker.donate(table_view(medals=[1, 2, 3, 0], you={"received": {"value": 5}})) == [
        {"type": "pass"}]
