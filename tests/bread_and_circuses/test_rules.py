"""Bread and Circuses, rule by rule, named after the rulebook's sections
(docs/games/bread-and-circuses.md)."""

import random

import pytest

import tricolore
from tricolore.core import IllegalAction
from tricolore.core.conformance import check_game, random_play
from tricolore.games.bread_and_circuses.data import SABOTAGE
from tricolore.games.bread_and_circuses.rules import riot_advance, tile_gold


# -- Setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, cards", [(3, 3), (4, 3), (5, 3), (6, 2), (8, 2)])
def test_setup_gold_equal_to_players_and_sabotage_dealt(players, cards):
    state = tricolore.make("bread-and-circuses", players, seed=2)
    assert state.gold == [players] * players and state.riots == 0
    assert all(len(h) == cards for h in state.hands)
    dealt = [c for h in state.hands for c in h]
    assert len(set(dealt)) == len(dealt) and len(dealt) + len(state.undealt) == 16
    assert state.view(1)["sabotage_cards"] == [cards] * players
    assert state.view(1)["you"]["sabotage"] == state.hands[1]


def test_setup_chance_the_deal_and_the_first_player_may_be_scripted():
    """The game's draws, in order (the doc's "Chance"): ``shuffle`` of the sixteen Sabotage cards,
    dealt in blocks seat by seat with the rest set aside, then ``randrange`` for the first player
    when the options do not set one."""
    order = [card.name for card in reversed(SABOTAGE)]
    state = tricolore.make("bread-and-circuses", 4, seed=1,
                           chance={"shuffle": [order], "randrange": [2]})
    assert state.hands == [sorted(order[3 * s:3 * s + 3]) for s in range(4)]
    assert state.undealt == order[12:] and state.first_player == 2
    assert state.rng.drawn == {"shuffle": [order], "randrange": [2]}
    fixed = tricolore.make("bread-and-circuses", 4, seed=1, chance={"shuffle": [order]},
                           options={"first_player": 3})
    assert fixed.first_player == 3 and "randrange" not in fixed.rng.drawn


def test_setup_sixteen_designed_sabotage_cards():
    assert len(SABOTAGE) == 16 and len({c.name for c in SABOTAGE}) == 16


# -- Negotiation ---------------------------------------------------------------------------------
def test_negotiation_disclose_on_the_bread_or_circus_icon_never_abstain(start, act):
    state = start(4)
    with pytest.raises(IllegalAction, match="A tile is disclosed on the Bread or Circus icon of your "
                                            "Disclosure card, never on Abstain"):
        act(state, 0, "disclose", tile="abstain", icon="abstain")
    act(state, 0, "disclose", tile="abstain", icon="bread")  # a dishonest disclosure is allowed
    assert state.view(2)["disclosures"] == ["bread", None, None, None]


def test_negotiation_the_icon_is_public_the_tile_is_not(start, act):
    state = start(4)
    events = act(state, 1, "disclose", tile="circus", icon="bread")
    public = [e for e in events if e["to"] is None]
    assert public == [{"kind": "disclosed", "seat": 1, "icon": "bread", "to": None}]
    assert state.view(1)["you"]["disclosed_tile"] == "circus"
    assert state.view(0)["you"]["disclosed_tile"] is None


def test_negotiation_a_disclosure_may_be_taken_back_or_changed(start, act):
    state = start(4)
    act(state, 0, "disclose", tile="bread", icon="bread")
    act(state, 0, "disclose", tile="circus", icon="circus")
    assert state.disclosed[0] == ("circus", "circus")
    act(state, 0, "take_back")
    assert state.disclosed[0] is None
    with pytest.raises(IllegalAction):
        act(state, 0, "take_back")


def test_negotiation_gold_may_be_given(start, act):
    state = start(4)
    act(state, 2, "give_gold", to=3, gold=3)
    assert state.gold == [4, 4, 1, 7]
    with pytest.raises(IllegalAction, match="You have 1 Gold; you tried 2"):
        act(state, 2, "give_gold", to=3, gold=2)


def test_negotiation_ends_when_every_player_is_ready(start, act):
    state = start(4)
    for seat in range(3):
        act(state, seat, "ready")
        assert state.phase == "negotiation"
    assert set(state.pending()) == {3}
    act(state, 3, "ready")
    assert state.phase == "play"


def ready_all_but(state, act, last):
    for seat in range(state.players):
        if seat != last and not state.ready[seat]:
            act(state, seat, "ready")


def test_negotiation_a_ready_player_may_still_take_back_or_change_their_disclosure(start, act):
    """"At any point during the Negotiation Phase, a player may choose to take back their
    disclosure and pick his or her tile up off the Disclosure Card." Saying ready does not end a
    player's Negotiation: only the end of the phase does."""
    state = start(4)
    act(state, 0, "disclose", tile="bread", icon="bread")
    act(state, 0, "ready")
    assert 0 not in state.pending() and state.legal_actions(0).kinds == ()
    assert {"disclose", "take_back", "withdraw_ready"} <= set(state.free_actions(0).kinds)
    act(state, 0, "disclose", tile="circus", icon="circus")
    assert state.disclosed[0] == ("circus", "circus") and state.ready[0]
    act(state, 0, "take_back")
    assert state.disclosed[0] is None and state.phase == "negotiation"


def test_negotiation_a_ready_player_may_still_play_a_negotiation_sabotage_card(start, act):
    state = start(4, hands=[["Pickpocket"], [], [], []])
    act(state, 0, "ready")
    act(state, 0, "play_sabotage", card="Pickpocket", target=1)
    assert state.gold[:2] == [5, 3] and state.hands[0] == []


def test_negotiation_a_ready_player_may_still_make_and_answer_offers(start, act):
    state = start(4, regulated_bribery=True)
    act(state, 1, "ready")
    act(state, 0, "offer_deal", to=1, gold=2, condition="play", tile="bread", when="this")
    act(state, 1, "accept_deal", deal=0)
    act(state, 1, "ready")
    act(state, 1, "solicit_deal", to=2, gold=1, condition="honest", tile=None, when="this")
    assert [d.status for d in state.deals.deals] == ["accepted", "offered"]


def test_negotiation_a_ready_player_may_withdraw_their_ready(start, act):
    state = start(4)
    act(state, 0, "ready")
    events = act(state, 0, "withdraw_ready")
    assert events == [{"kind": "ready_withdrawn", "seat": 0, "to": None}]
    assert not state.ready[0] and 0 in state.pending()
    ready_all_but(state, act, 0)
    assert state.phase == "negotiation"  # the phase waits for seat 0 again
    act(state, 0, "ready")
    assert state.phase == "play"


@pytest.mark.parametrize("change", [
    ("disclose", {"tile": "bread", "icon": "bread"}),
    ("play_sabotage", {"card": "Forged Promise", "target": None}),
    ("give_gold", {"to": 3, "gold": 1}),
    ("offer_deal", {"to": 3, "gold": 1, "condition": "play", "tile": "bread", "when": "this"}),
    ("solicit_deal", {"to": 3, "gold": 1, "condition": "any_but", "tile": "abstain",
                      "when": "next"}),
])
def test_negotiation_a_change_clears_everyone_elses_ready(start, act, change):
    """Decided (trading screens do the same): any change to the table during Negotiation (a
    disclosure made, changed or taken back, a Sabotage card, Gold given, a deal offered, solicited
    or answered) clears every other player's ready, so nobody is caught by a late change. The
    player who made the change stays ready if they were."""
    state = start(4, hands=[[], [], ["Forged Promise"], []], regulated_bribery=True)
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 2, "ready")
    kind, fields = change
    events = act(state, 2, kind, **fields)
    assert {"kind": "ready_cleared", "seats": [0, 1], "by": 2, "to": None} in events
    assert state.ready == [False, False, True, False]
    act(state, 3, "ready")
    assert state.phase == "negotiation" and set(state.pending()) == {0, 1}


def test_negotiation_answering_or_withdrawing_a_deal_clears_the_others_ready(start, act):
    state = start(4, regulated_bribery=True)
    act(state, 0, "offer_deal", to=1, gold=1, condition="play", tile="bread", when="this")
    act(state, 0, "offer_deal", to=2, gold=1, condition="play", tile="circus", when="this")
    for kind, seat, deal in (("accept_deal", 1, 0), ("withdraw_deal", 0, 1)):
        ready_all_but(state, act, seat)
        act(state, seat, kind, deal=deal)
        assert all(not state.ready[s] for s in range(4) if s != seat)


def test_negotiation_ends_only_when_every_player_is_ready_at_once(start, act):
    """The phase ends when everyone is ready at the same moment; a player cleared by a change
    is asked only to confirm ready again (its other moves stay open as free actions)."""
    state = start(4)
    for seat in range(3):
        act(state, seat, "ready")
    act(state, 3, "disclose", tile="abstain", icon="circus")
    assert set(state.pending()) == {0, 1, 2, 3}
    assert state.pending()[0].kinds == ("ready",) and state.legal_actions(0).kinds == ("ready",)
    assert "disclose" in state.free_actions(0).kinds
    assert state.pending()[3].kinds == ("disclose", "take_back", "ready")
    for seat in (3, 0, 1):
        act(state, seat, "ready")
    act(state, 1, "disclose", tile="bread", icon="bread")  # ready, and still free to change
    assert state.ready == [False, True, False, False]  # seat 1's change cleared 0 and 3 again
    for seat in (0, 2, 3):
        act(state, seat, "ready")
    assert state.phase == "play" and state.disclosed[1] == ("bread", "bread")


def test_negotiation_ready_is_asked_afresh_each_round(start, act, play_round):
    state = start(4)
    act(state, 0, "ready")
    act(state, 1, "disclose", tile="bread", icon="bread")  # seat 0 is asked to confirm
    play_round(state, {0: "circus", 2: "circus", 3: "abstain"})
    assert state.round == 2 and state.ready == [False] * 4
    assert state.pending()[0].kinds == ("disclose", "ready")


def test_negotiation_random_play_still_ends_with_eight_players():
    """Changes that clear ready must not keep random players negotiating for ever."""
    game = tricolore.get_game("bread-and-circuses")
    for seed in range(15):
        state = game.new(8, seed, {"regulated_bribery": seed % 2 == 1})
        steps = sum(1 for _ in random_play(state, random.Random(seed)))
        assert state.is_over() and steps < 5000


# -- Play and Reveal -----------------------------------------------------------------------------
def test_play_those_who_did_not_disclose_choose_at_the_same_time(start, act, play_round):
    state = start(4)
    act(state, 0, "disclose", tile="bread", icon="bread")
    for seat in range(4):
        act(state, seat, "ready")
    prompts = state.pending()
    assert set(prompts) == {1, 2, 3} and all(p.secret for p in prompts.values())
    act(state, 1, "play", tile="circus")
    assert state.view(2)["play"]["chosen"] == [1] and state.view(2)["you"]["sealed_tile"] is None
    assert state.view(1)["you"]["sealed_tile"] == "circus"
    act(state, 2, "play", tile="abstain")
    act(state, 3, "play", tile="bread")
    revealed = next(e for e in state.events_for(None) if e["kind"] == "tiles_revealed")
    assert revealed["tiles"] == ["bread", "circus", "abstain", "bread"]


def test_reveal_a_disclosed_tile_is_the_one_played(start, play_round):
    state = start(4)
    play_round(state, {1: "bread", 2: "bread", 3: "bread"}, disclose={0: ("abstain", "circus")})
    assert state.history[-1]["payouts"][0]["tile"] == "abstain"


# -- Score ---------------------------------------------------------------------------------------
def test_score_no_riot(start, play_round):
    state = start(4)
    play_round(state, {0: "bread", 1: "circus", 2: "abstain", 3: "bread"})
    last = state.history[-1]
    assert (last["breads"], last["circuses"], last["riot"]) == (2, 1, False)
    assert state.gold == [4 + 1, 4 + 2, 4 + 3, 4 + 1] and state.riots == 0


def test_score_riot_with_no_bread(start, play_round):
    state = start(4, gold=[4, 4, 6, 2])
    play_round(state, {0: "circus", 1: "circus", 2: "abstain", 3: "abstain"})
    assert state.history[-1]["riot"] and state.riots == 1
    assert state.gold == [4, 4, 6 - 4, 0]  # Circus earns no Bread; Abstain loses 4, never below 0


def test_score_riot_with_no_circus(start, play_round):
    state = start(4)
    play_round(state, {0: "bread", 1: "bread", 2: "abstain", 3: "bread"})
    assert state.history[-1]["riot"] and state.riots == 1
    assert state.gold == [4, 4, 0, 4]


def test_score_honest_disclosure_earns_one_gold(start, play_round):
    state = start(4)
    play_round(state, {2: "abstain", 3: "circus"},
               disclose={0: ("bread", "bread"), 1: ("abstain", "circus")})
    payouts = state.history[-1]["payouts"]
    assert [p["honest_bonus"] for p in payouts] == [1, 0, 0, 0]
    assert state.gold[0] == 4 + 1 + 1  # one Circus, plus the honest bonus


def test_score_tile_gold_and_riot_advance_rules():
    assert tile_gold("bread", 2, 3, False) == 3 and tile_gold("circus", 2, 3, False) == 2
    assert tile_gold("abstain", 2, 3, False) == 5 and tile_gold("abstain", 0, 3, True) == 0
    assert (riot_advance(False, False), riot_advance(True, False), riot_advance(False, True),
            riot_advance(True, True)) == (1, 2, 0, 1)


# -- Ending the game -----------------------------------------------------------------------------
def test_ending_the_game_five_times_the_players_in_gold(start, play_round):
    state = start(4, gold=[18, 4, 4, 4])
    play_round(state, {0: "bread", 1: "circus", 2: "circus", 3: "abstain"})
    assert state.gold[0] == 20 and state.is_over() and state.end_reason == "gold"
    assert state.result().winners == {0}


def test_ending_the_game_five_riots(start, play_round):
    state = start(4, gold=[5, 4, 4, 4])
    state.riots = 4
    play_round(state, {0: "bread", 1: "bread", 2: "bread", 3: "abstain"})
    assert state.riots == 5 and state.is_over() and state.end_reason == "riots"


def test_ending_the_game_a_tie_plays_on_until_one_player_alone_is_richest(start, play_round):
    state = start(4, gold=[18, 18, 4, 4])
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "circus"})
    assert state.gold[:2] == [20, 20] and not state.is_over() and state.round == 2
    assert any(e["kind"] == "tie_plays_on" for e in state.events_for(None))
    assert state.view(None)["tie_break"] == {"round": 1, "reason": "gold"}
    play_round(state, {0: "bread", 1: "abstain", 2: "circus", 3: "circus"})
    assert state.gold[0] == 22 and state.gold[1] == 23 and state.is_over()
    assert state.result().winners == {1}


def test_ending_the_game_a_broken_tie_ends_the_game(start, act, play_round):
    """"If there are two or more players tied, play continues until there is only one player in
    possession of the greatest amount of Gold." Once a tie has kept the game going, the first
    round that ends with one player alone richest ends it, even though no end condition holds
    any more."""
    state = start(4, gold=[18, 18, 4, 4])
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "circus"})
    assert state.gold == [20, 20, 6, 6] and state.round == 2
    act(state, 0, "give_gold", to=2, gold=3)
    act(state, 1, "give_gold", to=3, gold=4)
    play_round(state, {0: "bread", 1: "bread", 2: "bread", 3: "bread"})  # a riot, nobody paid
    assert state.gold == [17, 16, 9, 10] and state.riots == 1  # 17 < 20 and 1 < 5
    assert state.is_over() and state.end_reason == "gold" and state.round == 2
    assert state.result().winners == {0}


def test_ending_the_game_a_tie_that_lasts_keeps_playing_whatever_the_end_conditions(
        start, act, play_round):
    state = start(4, gold=[18, 18, 4, 4])
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "circus"})
    act(state, 0, "give_gold", to=2, gold=5)
    act(state, 1, "give_gold", to=3, gold=5)
    play_round(state, {0: "bread", 1: "bread", 2: "bread", 3: "bread"})
    assert state.gold == [15, 15, 11, 11] and not state.is_over() and state.round == 3
    assert [e["gold"] for e in state.events_for(None) if e["kind"] == "tie_plays_on"] == [20, 15]
    play_round(state, {0: "circus", 1: "bread", 2: "abstain", 3: "abstain"})
    assert state.gold == [16, 16, 13, 13] and not state.is_over()
    play_round(state, {0: "circus", 1: "abstain", 2: "bread", 3: "abstain"})
    assert state.gold == [17, 18, 14, 15] and state.is_over() and state.result().winners == {1}


# -- Sabotage windows ----------------------------------------------------------------------------
def test_sabotage_windows_go_clockwise_from_a_first_player_who_moves_each_round(start, play_round):
    state = start(4, hands=[["Monopoly"], ["Exposed Lie"], [], ["Street Players"]])
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "circus"})
    assert state.phase == "after_reveal" and list(state.pending()) == [0]  # asked, though it
    # holds no After-Reveal card: what it holds is secret
    assert state.legal_actions(0).kinds == ("pass",)
    order = []
    while state.phase == "after_reveal":
        (seat,) = state.pending()
        order.append(seat)
        state.apply(seat, {"type": "pass"})
    assert order == [0, 1, 3]
    while state.phase == "scoring":
        (seat,) = state.pending()
        state.apply(seat, {"type": "pass"})
    assert state.round == 2 and state.first_player == 1


def test_sabotage_cards_are_discarded_when_played(start, act):
    state = start(4, hands=[["Pickpocket", "Monopoly"], [], [], []])
    act(state, 0, "play_sabotage", card="Pickpocket", target=1)
    assert state.hands[0] == ["Monopoly"] and state.view(2)["sabotage_cards"][0] == 1
    assert state.played[-1] == {"round": 1, "seat": 0, "card": "Pickpocket", "target": 1}


def test_sabotage_a_card_only_in_its_timing(start, act):
    state = start(4, hands=[["Monopoly"], [], [], []])
    with pytest.raises(IllegalAction):
        act(state, 0, "play_sabotage", card="Monopoly", target=None)


# -- The sixteen Sabotage cards ------------------------------------------------------------------
def test_sabotage_informant(start, act):
    state = start(4, hands=[["Informant"], [], [], []])
    act(state, 1, "disclose", tile="circus", icon="bread")
    events = act(state, 0, "play_sabotage", card="Informant", target=1)
    report = [e for e in events if e["kind"] == "informant_report"]
    assert report == [{"kind": "informant_report", "seat": 0, "target": 1, "tile": "circus", "to": [0]}]
    assert state.view(0)["you"]["informant"] == [None, "circus", None, None]
    assert not [e for e in state.events_for(2) if e["kind"] == "informant_report"]


def test_sabotage_public_accusation(start, act):
    state = start(4, hands=[["Public Accusation"], [], [], []])
    act(state, 1, "disclose", tile="bread", icon="bread")
    act(state, 0, "play_sabotage", card="Public Accusation", target=1)
    assert state.disclosed[1] is None and state.barred == {1}
    with pytest.raises(IllegalAction):
        act(state, 1, "disclose", tile="bread", icon="bread")


def test_sabotage_pickpocket(start, act):
    state = start(4, hands=[["Pickpocket"], [], [], []])
    act(state, 0, "play_sabotage", card="Pickpocket", target=2)
    assert state.gold == [5, 4, 3, 4]


def test_sabotage_forged_promise(start, act, play_round):
    state = start(4, hands=[["Forged Promise"], [], [], []])
    with pytest.raises(IllegalAction):
        act(state, 0, "disclose", tile="abstain", icon="abstain")
    act(state, 0, "play_sabotage", card="Forged Promise", target=None)
    play_round(state, {1: "bread", 2: "circus", 3: "bread"}, disclose={0: ("abstain", "abstain")})
    payout = state.history[-1]["payouts"][0]
    assert payout["honest_bonus"] == 1 and payout["tile_gold"] == 3


def test_sabotage_grain_hoarding(start, play_round, act, pass_window):
    state = start(4, hands=[["Grain Hoarding"], [], [], []])
    play_round(state, {0: "circus", 1: "bread", 2: "circus", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Grain Hoarding", target=1)
    pass_window(state)
    last = state.history[-1]
    assert last["breads"] == 0 and last["riot"]
    assert last["payouts"][1]["counts_as"] == "abstain" and last["payouts"][1]["riot_penalty"] == 4


def test_sabotage_cancelled_games(start, play_round, act, pass_window):
    state = start(4, hands=[["Cancelled Games"], [], [], []])
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Cancelled Games", target=1)
    pass_window(state)
    assert state.history[-1]["circuses"] == 0 and state.riots == 1


def test_sabotage_secret_granary(start, play_round, act, pass_window):
    state = start(4, hands=[["Secret Granary"], [], [], []])
    play_round(state, {0: "abstain", 1: "circus", 2: "circus", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Secret Granary", target=None)
    pass_window(state)
    last = state.history[-1]
    assert last["breads"] == 1 and not last["riot"] and last["payouts"][0]["tile_gold"] == 2


def test_sabotage_hired_acrobats(start, play_round, act, pass_window):
    state = start(4, hands=[["Hired Acrobats"], [], [], []])
    play_round(state, {0: "abstain", 1: "bread", 2: "bread", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Hired Acrobats", target=None)
    pass_window(state)
    assert state.history[-1]["circuses"] == 1 and state.gold[0] == 4 + 2


def test_sabotage_charity_kitchen(start, play_round, act, pass_window):
    state = start(4, hands=[["Charity Kitchen"], [], [], []])
    play_round(state, {0: "abstain", 1: "circus", 2: "circus", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Charity Kitchen", target=None)
    pass_window(state)
    last = state.history[-1]
    assert (last["breads"], last["riot"]) == (1, False)
    assert state.gold == [4 + 3, 4 + 1, 4 + 1, 4 + 3]  # nobody is paid for the ownerless Bread


def test_sabotage_street_players(start, play_round, act, pass_window):
    state = start(4, hands=[["Street Players"], [], [], []])
    play_round(state, {0: "bread", 1: "bread", 2: "abstain", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Street Players", target=None)
    pass_window(state)
    assert state.history[-1]["circuses"] == 1 and state.gold == [5, 5, 7, 7]


def to_scoring(state, play_round, pass_window, tiles, disclose=None):
    play_round(state, tiles, disclose=disclose)
    if state.phase == "after_reveal":
        pass_window(state)
    assert state.phase == "scoring"


def test_sabotage_exposed_lie(start, play_round, act, pass_window):
    state = start(4, hands=[["Exposed Lie"], [], [], []])
    to_scoring(state, play_round, pass_window, {0: "bread", 2: "bread", 3: "abstain"},
               disclose={1: ("circus", "circus")})
    act(state, 0, "play_sabotage", card="Exposed Lie", target=1)
    assert state.history[-1]["payouts"][1]["honest_bonus"] == 0


def test_sabotage_monopoly(start, play_round, act, pass_window):
    state = start(4, hands=[["Monopoly"], [], [], []])
    to_scoring(state, play_round, pass_window, {0: "bread", 1: "circus", 2: "circus", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Monopoly", target=None)
    assert state.history[-1]["payouts"][0]["tile_gold"] == 4


def test_sabotage_spoiled_supplies(start, play_round, act, pass_window):
    state = start(4, hands=[["Spoiled Supplies"], [], [], []])
    to_scoring(state, play_round, pass_window, {0: "bread", 2: "bread", 3: "abstain"},
               disclose={1: ("circus", "circus")})
    act(state, 0, "play_sabotage", card="Spoiled Supplies", target=1)
    payout = state.history[-1]["payouts"][1]
    assert payout["tile_gold"] == 0 and payout["honest_bonus"] == 1


def test_sabotage_bribed_magistrate(start, play_round, act, pass_window):
    state = start(4, hands=[["Bribed Magistrate"], [], [], []])
    to_scoring(state, play_round, pass_window, {0: "abstain", 1: "bread", 2: "bread", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Bribed Magistrate", target=None)
    assert state.gold[0] == 4 and state.gold[3] == 0


def test_sabotage_rabble_rouser(start, play_round, act, pass_window):
    state = start(4, hands=[["Rabble-Rouser"], [], [], []])
    to_scoring(state, play_round, pass_window, {0: "bread", 1: "bread", 2: "bread", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Rabble-Rouser", target=None)
    assert state.riots == 2


def test_sabotage_appease_the_mob(start, play_round, act, pass_window):
    state = start(4, hands=[["Appease the Mob"], ["Rabble-Rouser"], [], []])
    to_scoring(state, play_round, pass_window, {0: "bread", 1: "bread", 2: "bread", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Appease the Mob", target=None)
    assert list(state.pending()) == [1]
    act(state, 1, "play_sabotage", card="Rabble-Rouser", target=None)  # they cancel out
    assert state.riots == 1
    alone = start(4, hands=[["Appease the Mob"], [], [], []])
    to_scoring(alone, play_round, pass_window, {0: "bread", 1: "bread", 2: "bread", 3: "abstain"})
    act(alone, 0, "play_sabotage", card="Appease the Mob", target=None)
    assert alone.riots == 0 and alone.gold[3] == 0  # every other riot effect still applies


def test_sabotage_counts_as_effects_the_last_one_played_wins(start, play_round, act, pass_window):
    state = start(4, hands=[["Secret Granary"], ["Grain Hoarding"], [], []])
    play_round(state, {0: "abstain", 1: "circus", 2: "circus", 3: "bread"})
    act(state, 0, "play_sabotage", card="Secret Granary", target=None)
    act(state, 1, "play_sabotage", card="Grain Hoarding", target=0)
    pass_window(state)
    assert state.history[-1]["payouts"][0]["counts_as"] == "abstain"


def test_sabotage_doubled_and_zeroed_is_zero(start, play_round, act, pass_window):
    state = start(4, hands=[["Monopoly"], ["Spoiled Supplies"], [], []])
    to_scoring(state, play_round, pass_window, {0: "bread", 1: "circus", 2: "circus", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Monopoly", target=None)
    act(state, 1, "play_sabotage", card="Spoiled Supplies", target=0)
    assert state.history[-1]["payouts"][0]["tile_gold"] == 0


# -- What stays on the table ---------------------------------------------------------------------
def _containers(value, found):
    if isinstance(value, (dict, list)):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    return found


def test_every_view_shows_the_rounds_played_as_a_copy_of_its_own():
    state = tricolore.get_game("bread-and-circuses").new(5, 4)
    for _ in random_play(state, random.Random(4)):
        if len(state.history) >= 3:
            break
    shown = [state.view(seat)["history"] for seat in (None, 0, 0, 3)]
    assert all(history == state.history for history in shown) and len(state.history) >= 3
    held = {id(c) for c in _containers(state.history, [])}
    for history in shown:
        copied = _containers(history, [])
        assert len({id(c) for c in copied}) == len(copied) and not held & {id(c) for c in copied}
    shown[0][0]["payouts"][0]["paid"] = 99  # one view changed in place: nothing else changes
    shown[0].append({"round": 0})
    assert state.view(0)["history"] == state.history == shown[1] != shown[0]
    round_count = len(state.history)
    for _ in random_play(state, random.Random(5)):
        if len(state.history) > round_count:
            break
    assert state.view(None)["history"] == state.history


def test_view_keeps_last_rounds_tiles_and_counts_through_the_next_round(start, act, play_round,
                                                                       pass_window):
    state = start(4, hands=[["Grain Hoarding"], [], [], []])
    assert state.view(None)["last_round"] is None
    play_round(state, {0: "circus", 1: "bread", 2: "bread", 3: "abstain"})
    act(state, 0, "play_sabotage", card="Grain Hoarding", target=1)
    pass_window(state)
    assert state.round == 2 and state.view(None)["tiles"] is None
    expected = {"round": 1, "tiles": ["circus", "bread", "bread", "abstain"],
                "counts_as": ["circus", "abstain", "bread", "abstain"],
                "counts": {"breads": 1, "circuses": 1}, "riot": False, "riot_advance": 0}
    for seat in (None, 0, 3):
        assert state.view(seat)["last_round"] == expected
    play_round(state, {0: "bread", 1: "bread", 2: "bread", 3: "abstain"})
    assert state.view(2)["last_round"]["round"] == 2 and state.view(2)["last_round"]["riot"]


# -- Secrets -------------------------------------------------------------------------------------
def test_secrets_determinize_keeps_what_the_seat_saw(start, act):
    state = start(4, hands=[["Informant"], ["Pickpocket"], ["Monopoly"], ["Exposed Lie"]])
    act(state, 1, "disclose", tile="circus", icon="bread")
    act(state, 2, "disclose", tile="abstain", icon="circus")
    act(state, 0, "play_sabotage", card="Informant", target=1)
    rng = random.Random(0)
    twins = [state.determinize(0, rng) for _ in range(20)]
    assert all(t.disclosed[1] == ("circus", "bread") for t in twins)
    assert len({t.disclosed[2] for t in twins}) > 1 and all(t.disclosed[2][1] == "circus" for t in twins)
    assert len({tuple(t.hands[1]) for t in twins}) > 1 and all(t.hands[0] == [] for t in twins)


@pytest.mark.slow
@pytest.mark.parametrize("start", [0, 20, 40])  # sixty seeds, in chunks that run in parallel
def test_conformance_with_regulated_bribery(start):
    game = tricolore.get_game("bread-and-circuses")
    report = check_game(game, 5, range(start, start + 20), options={"regulated_bribery": True})
    assert report.games == 20 and report.refusals > 0
