"""Let Them Eat Cake, rule by rule, named after the rulebook's sections
(docs/games/let-them-eat-cake.md)."""

import random

import pytest

import tricolore
from tests.let_them_eat_cake.conftest import through_head, to_inspector, to_operator, to_secretary
from tricolore.core import IllegalAction
from tricolore.core.conformance import random_play
from tricolore.games.let_them_eat_cake.data import GENERAL, PANTRY, STARTER_CAKES

PEER, LAUREN, SAM, LOUIS = 0, 1, 2, 3


def medals_total(state):
    return sum(state.medals) + state.centre




# -- Setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, hand", [(3, 4), (4, 6), (5, 4), (6, 5)])
def test_setup_voting_cards_in_every_other_colour(players, hand):
    state = tricolore.make("let-them-eat-cake", players, seed=2)
    copies = 2 if players <= 4 else 1
    for seat in range(players):
        assert len(state.hands[seat]) == hand
        assert seat not in state.hands[seat]
        assert all(state.hands[seat].count(o) == copies for o in range(players) if o != seat)


def test_setup_pawns_medals_starter_cakes_pantry_and_generals():
    state = tricolore.make("let-them-eat-cake", 5, seed=3)
    assert state.pawns == [3] * 5 and state.medals == [3] * 5 and state.centre == 3
    assert all(len(st) == 2 and all(c.starter for c in st) for st in state.stashes)
    dealt = sorted(c.value for st in state.stashes for c in st) + state.removed_starters
    assert sorted(dealt) == sorted(STARTER_CAKES)
    assert sorted(state.deck) == sorted(PANTRY) and len(state.deck) == 55
    assert state.starter_pile == 8 and state.generals(0) == 0


def test_setup_the_owner_gives_the_head_of_committee_token():
    assert tricolore.make("let-them-eat-cake", 4, seed=1, first_head=2).head == 2
    heads = {tricolore.make("let-them-eat-cake", 4, seed=s).head for s in range(20)}
    assert len(heads) > 1


def test_chance_shuffles_the_pantry_then_the_starter_cakes_then_draws_the_first_head():
    deck, starters = sorted(PANTRY, reverse=True), sorted(STARTER_CAKES, reverse=True)
    state = tricolore.make("let-them-eat-cake", 4, seed=1,
                           chance={"shuffle": [deck, starters], "randrange": [2]})
    assert state.deck == deck and state.head == 2
    assert [[c.value for c in st] for st in state.stashes] == [[6, 6], [5, 5], [4, 4], [3, 3]]
    assert state.removed_starters == [2, 2, 1, 1]
    chosen = tricolore.make("let-them-eat-cake", 4, seed=1, first_head=1, chance={"randrange": [2]})
    assert chosen.head == 1 and chosen.rng.remaining() == {"randrange": [2]}  # no draw for the Head


def test_setup_starter_cakes_are_secret_to_their_owner():
    state = tricolore.make("let-them-eat-cake", 4, seed=4)
    assert state.view(0)["you"]["stash"] == [c.value for c in state.stashes[0]]
    assert "you" not in state.view(None)
    assert state.view(1)["stash_cards"] == [2, 2, 2, 2]
    assert not [e for e in state.events_for(1) if e["kind"] == "starter_cakes" and e["seat"] == 0]


# -- Voting --------------------------------------------------------------------------------------
def test_example_vote_a_tie_broken_by_the_head_of_committee(start, vote, act):
    # Peer 2 Pawns, Lauren 2 and Head, Sam 3, Louis 1. Peer and Lauren vote Sam; Sam and Louis
    # vote Peer: (2+2) = (3+1), and Lauren decides.
    state = start(4, head=LAUREN, pawns=[2, 2, 3, 1])
    vote(state, {PEER: SAM, LAUREN: SAM, SAM: PEER, LOUIS: PEER})
    assert state.election.tally == {PEER: 4, LAUREN: 0, SAM: 4, LOUIS: 0}
    assert state.phase == "tie" and list(state.pending()) == [LAUREN]
    assert state.legal_actions(LAUREN).family("break_tie").params["winner"].options == (PEER, SAM)
    act(state, LAUREN, "break_tie", winner=SAM)
    assert state.head == SAM


def test_voting_is_a_simultaneous_secret_move(start, act):
    state = start(4, head=0)
    prompts = state.pending()
    assert set(prompts) == {0, 1, 2, 3} and all(p.secret for p in prompts.values())
    act(state, 0, "vote", candidate=2)
    assert state.view(0)["you"]["sealed_vote"] == 2
    assert state.view(1)["you"]["sealed_vote"] is None
    assert state.view(1)["election"]["ballot"]["chosen"] == [0]
    assert "2" not in str(state.view(1)["election"]["cards"])
    with pytest.raises(IllegalAction):
        act(state, 0, "vote", candidate=1)


def test_vote_weight_is_the_number_of_pawns(start, vote):
    state = start(4, head=0, pawns=[3, 1, 2, 3])
    vote(state, {0: 1, 1: 2, 2: 1, 3: 2})
    assert state.election.tally[1] == 3 + 2 and state.election.tally[2] == 1 + 3


def test_a_voting_card_must_come_from_the_hand_and_never_names_yourself(start, act):
    state = start(5, head=0)
    with pytest.raises(IllegalAction, match="you hold none in your own colour"):
        act(state, 0, "vote", candidate=0)
    state.hands[1], state.used[1] = [0, 2], [3, 4]
    state.changed()
    with pytest.raises(IllegalAction, match="played cards come back only when your hand is empty"):
        act(state, 1, "vote", candidate=3)


def test_used_cards_come_back_only_when_the_whole_hand_is_spent(start, vote, elect, act):
    state = start(5, head=0)
    assert state.hands[0] == [1, 2, 3, 4]
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1, 4: 1})
    assert state.hands[0] == [2, 3, 4] and state.used[0] == [1]
    assert state.view(0)["you"]["used"] == [1] and state.view(2)["used_cards"][0] == 1
    state.hands[0], state.used[0] = [4], [1, 2, 3]
    state.changed()
    act(state, 1, "award_medal", to=2)  # the Head's Medal move; then the Operator's election
    elect(state, 4)
    assert state.hands[0] == [1, 2, 3, 4] and state.used[0] == []


def test_the_head_breaks_ties_and_may_pick_only_a_tied_candidate(start, vote, act):
    state = start(3, head=2)
    vote(state, {0: 1, 1: 0, 2: 1})
    assert state.phase == "head_medal"  # 6 against 3: no tie
    state = start(3, head=2)
    vote(state, {0: 1, 1: 2, 2: 0})
    assert state.election.tied == (0, 1, 2)
    act(state, 2, "break_tie", winner=2)
    assert state.head == 2


# -- Head of Committee ---------------------------------------------------------------------------
def test_head_of_committee_new_head_receives_a_medal_then_awards_one(start, elect, act):
    state = start(4, head=0)
    elect(state, 2)
    assert state.head == 2 and state.medals[2] == 4 and state.centre == 2
    assert set(state.legal_actions(2).kinds) == {"award_medal", "remove_medal"}
    act(state, 2, "award_medal", to=3)
    assert state.medals[3] == 4 and state.centre == 1


def test_head_of_committee_removes_a_medal_to_the_centre_never_keeping_it(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 3])
    elect(state, 2)
    act(state, 2, "remove_medal", **{"from": 1})
    assert state.medals[1] == 2 and state.medals[2] == 4
    assert state.centre == 3


def test_head_of_committee_with_an_empty_centre_can_only_remove(start, elect):
    state = start(4, head=0, centre=0)
    elect(state, 1)
    assert state.medals[1] == 3  # nothing in the centre to receive
    assert state.legal_actions(1).kinds == ("remove_medal",)


def test_head_of_committee_never_awards_himself(start, elect):
    state = start(4, head=0)
    elect(state, 1)
    assert 1 not in state.legal_actions(1).family("award_medal").params["to"].options


def test_first_round_unity_rule_dissenters_lose_a_medal(start, vote):
    state = start(4, head=0)
    vote(state, {0: 1, 1: 0, 2: 1, 3: 2})  # 1 wins with 6; seats 3 and the new Head voted else
    assert state.head == 1
    assert state.medals == [3, 4, 3, 2]  # seat 1 is exempt and gained the Head's Medal
    assert next(e for e in state.events_for(None) if e["kind"] == "unity_rule")["lost_medal"] == [3]


def test_first_round_unity_rule_happens_only_once(start, vote, act, elect):
    state = start(3, head=0, medals=[3, 3, 3])
    vote(state, {0: 1, 1: 2, 2: 1})
    act(state, 1, "award_medal", to=0)
    state.round = 0
    state._start_round()
    state.changed()
    before = list(state.medals)
    vote(state, {0: 2, 1: 0, 2: 1})  # a three-way tie; nobody loses a Medal for dissent
    act(state, state.head, "break_tie", winner=2)
    assert state.medals[0] == before[0] and state.medals[1] == before[1]


def test_first_round_unity_rule_after_a_coup_costs_nobody_a_medal(start, act):
    state = start(4, head=0, generals=[0, 3, 0, 0])
    assert state.phase == "coup" and list(state.pending()) == [1]
    act(state, 1, "coup", winner=3)
    assert state.head == 3 and state.medals == [3, 2, 3, 4]  # the couper's Medal only
    assert not state.unity_rule_pending


# -- Enemy of the Revolution ---------------------------------------------------------------------
def test_enemy_of_the_revolution_is_the_player_with_fewest_medals(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 1, 3], centre=3)
    through_head(state, 0, act, elect, award_to=1)  # the Head's Medal move; seat 2 stays fewest
    assert state.enemy == 2 and state.guillotine == 2
    assert state.election.office == "operator"


def test_enemy_unique_holder_of_most_generals_is_immune(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 1, 2], generals=[0, 0, 1, 0])
    through_head(state, 1, act, elect, award_to=3)
    assert state.enemy != 2
    state = start(4, head=0, medals=[3, 3, 1, 2], generals=[0, 1, 1, 0])
    through_head(state, 1, act, elect, award_to=3)
    assert state.enemy == 2  # most Generals shared: nobody is safe


def test_enemy_tie_decided_by_vote_among_the_tied_other_cards_ignored(start, elect, act, vote):
    state = start(4, head=0, medals=[3, 3, 2, 2])
    through_head(state, 0, act, elect, award_to=1)
    assert state.election.office == "enemy" and state.election.candidates == (2, 3)
    vote(state, {0: 3, 1: 0, 2: 3, 3: 2})  # seat 1's card names a player who is not tied
    assert state.view(0)["last_ballot"]["office"] == "enemy"
    assert state.view(0)["last_ballot"]["tally"] == [None, None, 3, 6]
    assert state.enemy == 3 and state.guillotine == 3


# -- Guillotine Operator -------------------------------------------------------------------------
def test_guillotine_pawn_on_the_guillotine_cannot_vote(start, elect, act, vote):
    state = start(4, head=0, medals=[3, 3, 3, 0])
    to_operator(state, elect, act)
    assert state.guillotine == 3 and state.weight(3) == 2
    vote(state, {0: 1, 1: 2, 2: 1, 3: 2})
    assert state.election.tally[2] == 3 + 2


def test_guillotine_operator_executes_the_owner_regains_three_medals_and_a_general(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0])
    to_operator(state, elect, act)
    elect(state, 1)
    assert state.phase == "guillotine" and list(state.pending()) == [1]
    centre = state.centre
    act(state, 1, "execute")
    assert state.pawns[3] == 2 and state.guillotine is None
    assert state.medals[3] == min(3, centre) and state.starter_generals[3] == 1
    assert state.starter_pile == 7


def test_guillotine_operator_shows_mercy_and_loses_a_medal(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0])
    to_operator(state, elect, act)
    elect(state, 2)
    act(state, 2, "mercy")
    assert state.pawns[3] == 3 and state.guillotine is None and state.medals[2] == 2


def test_guillotine_an_executed_player_gets_no_general_when_the_pile_is_empty(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0])
    state.starter_pile = 0
    to_operator(state, elect, act)
    elect(state, 1)
    act(state, 1, "execute")
    assert state.starter_generals[3] == 0


def test_a_players_death_ends_the_game_at_once(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], pawns=[3, 3, 3, 1],
                  stashes=[[1], [2], [3], [30, 14]])
    to_operator(state, elect, act)
    assert state.weight(3) == 0 and 3 not in state.pending()  # no vote with no Pawn to vote
    elect(state, 1)
    act(state, 1, "execute")
    assert state.is_over() and state.end_reason == "death" and state.dead == 3
    result = state.result()
    assert 3 not in result.winners and result.winners == {2}  # the living player with most cake
    assert state.pending() == {}


# -- Secretary -----------------------------------------------------------------------------------
def test_secretary_draws_one_card_per_player_face_up_and_deals_one_to_each(start, elect, act):
    deck = [5, GENERAL, 9, 2, *range(1, 12)]
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=deck)
    to_secretary(state, elect, act, secretary=2)
    assert state.draw == [5, GENERAL, 9, 2] and len(state.deck) == len(deck) - 4
    assert [c["value"] for c in state.view(0)["draw"]] == [5, GENERAL, 9, 2]
    act(state, 2, "deal", card=2, to=2)
    act(state, 2, "deal", card=0, to=0)
    with pytest.raises(IllegalAction):
        act(state, 2, "deal", card=1, to=0)  # seat 0 already has a card
    act(state, 2, "deal", card=1, to=3)
    assert state.election.office == "inspector"  # the last card went to the last player
    assert [e["receiver"] for e in state.events_for(None) if e["kind"] == "card_dealt"] == [2, 0, 3, 1]


def test_the_pantry_running_out_ends_the_game(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[1, 2, 3])
    to_secretary(state, elect, act, secretary=2)
    assert state.is_over() and state.end_reason == "pantry" and state.draw == []


# -- Food Inspector and donations ----------------------------------------------------------------


def test_food_inspector_unsafe_cake_to_the_bottom_generals_kept_medal_lost(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    stash_before = [len(st) for st in state.stashes]
    state.medals[3] = 1  # the Enemy, shown mercy, had no Medal left to lose
    state.changed()
    act(state, 3, "inspect", safe=False)
    assert state.deck[-3:] == [5, 9, 2] and state.pantry_generals[1] == 1
    assert [len(st) for st in state.stashes] == stash_before and state.medals[3] == 0


def test_food_inspector_safe_everyone_keeps_their_card(start, elect, act, pass_windows):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=True)
    assert state.stashes[0][-1].value == 5 and state.stashes[2][-1].value == 9
    assert state.pantry_generals[1] == 1 and state.phase == "donate"
    pass_windows(state)
    assert state.round == 2


def test_the_secretarys_cards_stay_on_view_until_the_round_ends(start, elect, act, pass_windows):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    assert state.view(0)["you"]["received"] == {"card": 0, "value": 5, "name": "Cake 5",
                                                 "in_stash": False}  # in front of the player
    assert state.view(None)["inspection"] is None
    act(state, 3, "inspect", safe=True)
    for seat in (None, 0, 3):
        view = state.view(seat)
        assert view["inspection"] == "safe"
        assert [(c["name"], c["to"]) for c in view["draw"]] == [
            ("Cake 5", 0), ("General", 1), ("Cake 9", 2), ("Cake 2", 3)]
    assert state.view(0)["you"]["received"]["in_stash"] is True
    assert state.view(1)["you"]["received"] == {"card": 1, "value": GENERAL, "name": "General",
                                                 "in_stash": False}
    pass_windows(state)
    assert state.round == 2 and state.view(0)["draw"] == [] and state.view(0)["inspection"] is None
    assert state.view(0)["you"]["received"] is None


def test_a_donated_or_given_cake_card_is_still_the_card_received_but_no_longer_in_the_stash(
        start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=True)
    act(state, 0, "donate", take_from=2)
    assert state.view(0)["you"]["received"] == {"card": 0, "value": 5, "name": "Cake 5",
                                                 "in_stash": False}
    act(state, 2, "give_cakes", to=1, cards=[len(state.stashes[2]) - 1])
    assert state.view(2)["you"]["received"]["in_stash"] is False
    assert state.legal_actions(2).kinds == ("pass",)  # the donation is offered only while held
    act(state, 1, "give_cakes", to=2, cards=[len(state.stashes[1]) - 1])
    assert state.view(2)["you"]["received"]["in_stash"] is True  # given back: held again
    assert state.legal_actions(2).kinds == ("donate", "pass")


def test_an_unsafe_batch_stays_on_view_when_the_game_ends_with_its_round(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7],
                  max_rounds=1)
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=False)
    view = state.view(0)
    assert state.is_over() and view["inspection"] == "unsafe"
    assert [c["to"] for c in view["draw"]] == [0, 1, 2, 3]
    assert view["you"]["received"]["in_stash"] is False


def test_let_them_eat_cake_a_donation_buys_a_medal_from_another_player(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=True)
    assert list(state.pending()) == [0]  # clockwise from the Head, only those who got Cake
    medals = list(state.medals)
    act(state, 0, "donate", take_from=2)
    assert state.deck[-1] == 5 and [c.value for c in state.stashes[0]].count(5) == 0
    assert state.medals[0] == medals[0] + 1 and state.medals[2] == medals[2] - 1
    assert list(state.pending()) == [2]
    with pytest.raises(IllegalAction):
        act(state, 2, "donate", take_from=2)


def test_let_them_eat_cake_donations_go_clockwise_from_the_head(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, 3, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=True)
    order = []
    while state.phase == "donate":
        (seat,) = state.pending()
        order.append(seat)
        act(state, seat, "pass")
    assert order == [state.head + i for i in range(4)]  # the Head is seat 0


# -- Generals ------------------------------------------------------------------------------------
def test_generals_allege_vote_rigging_a_new_vote_with_fresh_cards(start, vote, act):
    state = start(4, head=0, generals=[0, 1, 0, 0])
    assert state.phase == "ballot"  # nobody can afford a coup
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1})
    assert state.phase == "rigging" and list(state.pending()) == [1]
    act(state, 1, "allege_rigging")
    assert state.generals(1) == 0 and state.medals[1] == 2 and state.deck[-1] == GENERAL
    assert state.phase == "ballot" and state.election.vote_number == 2
    assert state.used[0] == [1] and 1 in state.hands[0]  # the first card stays spent
    vote(state, {0: 2, 1: 2, 2: 1, 3: 2})
    assert state.head == 2


def test_generals_a_vote_rigged_twice_by_two_players(start, vote, act):
    state = start(4, head=0, generals=[0, 1, 1, 0])
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1})
    assert list(state.pending()) == [1]  # clockwise from the Head: seat 1 first
    act(state, 1, "allege_rigging")
    vote(state, {0: 2, 1: 2, 2: 1, 3: 2})
    assert list(state.pending()) == [2]
    act(state, 2, "allege_rigging")
    assert state.election.rigged_by == [1, 2] and state.election.vote_number == 3
    vote(state, {0: 3, 1: 3, 2: 3, 3: 0})
    assert state.head == 3 and state.stats["riggings"] == 2
    assert state.generals(1) == state.generals(2) == 0


def test_generals_seize_cake_after_the_draw(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 14, 2, 7, 7, 7, 7],
                  generals=[0, 0, 0, 0])
    to_operator(state, elect, act)
    elect(state, 1)
    act(state, 1, "mercy")
    state.pantry_generals[3] = 2
    state.changed()
    elect(state, 2)
    assert state.phase == "seize" and list(state.pending()) == [3]
    act(state, 3, "seize", card=2)
    assert state.placed == {2: 3} and state.generals(3) == 0
    assert state.phase == "deal" and 3 not in state.legal_actions(2).family("deal").params["to"].options
    with pytest.raises(IllegalAction):
        act(state, 2, "deal", card=2, to=0)


def test_generals_a_coup_on_the_first_head_election(start, act):
    state = start(5, head=0, generals=[0, 0, 3, 3, 0])
    assert state.phase == "coup" and list(state.pending()) == [2]  # clockwise from the Head
    act(state, 2, "coup", winner=2)
    assert state.head == 2 and state.stats["coups"] == 1 and state.election.coup_by == 2
    assert state.generals(2) == 0 and state.hands[0] == [1, 2, 3, 4]  # nobody voted


def test_generals_spent_go_to_the_bottom_of_their_own_pile(start, vote, act):
    state = start(4, head=0)
    state.pantry_generals[1], state.starter_generals[1], state.starter_pile = 0, 1, 5
    state.changed()
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1})
    act(state, 1, "allege_rigging")
    assert state.starter_pile == 6 and len(state.deck) == 55  # not into the Pantry


def test_generals_each_use_also_costs_a_medal_if_there_is_one(start, vote, act):
    state = start(4, head=0, generals=[0, 1, 0, 0], medals=[3, 0, 3, 3])
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1})
    act(state, 1, "allege_rigging")
    assert state.medals[1] == 0 and state.generals(1) == 0


# -- Trading -------------------------------------------------------------------------------------
def test_trading_medals_generals_and_cake_cards_change_hands(start, act):
    state = start(4, head=0, generals=[2, 0, 0, 0], stashes=[[3, 9], [1], [2], [4]])
    act(state, 0, "give_medals", to=1, medals=2)
    act(state, 0, "give_generals", to=2, generals=1)
    events = act(state, 0, "give_cakes", to=3, cards=[1])
    assert state.medals[:2] == [1, 5] and state.generals(2) == 1
    assert [c.value for c in state.stashes[3]] == [4, 9]
    public = [e for e in events if e["to"] is None]
    assert public[0]["cards"] == 1 and "9" not in str(public)
    assert [e["values"] for e in state.events_for(3) if e["kind"] == "cake_values_given"] == [[9]]
    assert not [e for e in state.events_for(1) if e["kind"] == "cake_values_given"]


def test_trading_pawns_and_voting_cards_never_change_hands(start, act):
    state = start(4, head=0)
    for kind in ("give_pawns", "give_voting_cards"):
        with pytest.raises(IllegalAction, match="Pawns and Voting cards never change hands"):
            act(state, 0, kind, to=1)
    with pytest.raises(IllegalAction):
        act(state, 0, "give_medals", to=1, medals=4)
    with pytest.raises(IllegalAction):
        act(state, 0, "give_cakes", to=0, cards=[0])


# -- The end -------------------------------------------------------------------------------------
def test_the_end_forty_cakes_at_the_end_of_the_round(start, elect, act, pass_windows):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, 3, 9, 2, 7, 7, 7, 7],
                  stashes=[[30], [1], [2], [3]])
    to_inspector(state, elect, act)
    assert not state.is_over()
    act(state, 3, "inspect", safe=True)
    assert not state.is_over()  # 35 cakes, checked only at the end of the round
    state.stashes[1].append(state.stashes[1][0].__class__(999, 39, False, frozenset({1})))
    pass_windows(state)
    assert state.is_over() and state.end_reason == "cake"
    assert state.result().winners == {1}


def test_the_end_ties_go_to_most_pawns_then_most_generals(start):
    state = start(3, head=0, stashes=[[10], [10], [9]], pawns=[2, 2, 3], generals=[1, 0, 5])
    assert state.result().winners == {0}
    state.pawns = [2, 3, 3]
    assert state.result().winners == {1}
    state.pantry_generals = [0, 0, 0]
    state.pawns = [2, 2, 3]
    assert state.result().winners == {0, 1}


# -- Hidden information and memory mode ----------------------------------------------------------
def test_hidden_information_stash_values_and_used_piles_are_secret(start, vote):
    state = start(4, head=0)
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1})
    other = state.view(1)
    assert {k for k in other if "stash" in k or "hand" in k} == {"stash_cards", "hand_cards"}
    assert other["used_cards"] == [1, 1, 1, 1] and other["stash_cards"] == [2, 2, 2, 2]
    assert other["you"]["stash"] == [c.value for c in state.stashes[1]]


def test_memory_mode_hides_the_record_of_past_votes(start, vote):
    state = start(4, head=0, memory_mode=True)
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1})
    revealed = [e for e in state.events_for(None) if e["kind"] == "ballot_revealed"]
    assert "cards" not in revealed[0] and revealed[0]["tally"][1] == 9
    assert state.view(2)["last_ballot"]["cards"] == [1, 2, 1, 1]
    plain = start(4, head=0)
    vote(plain, {0: 1, 1: 2, 2: 1, 3: 1})
    assert next(e for e in plain.events_for(None) if e["kind"] == "ballot_revealed")["cards"]


def test_determinize_keeps_what_the_seat_knows_and_resamples_the_rest(start):
    state = tricolore.make("let-them-eat-cake", 4, seed=5)
    for _ in zip(range(60), random_play(state, random.Random(1), free_rate=0.3), strict=False):
        pass
    rng = random.Random(0)
    stashes = {tuple(tuple(c.value for c in st) for st in state.determinize(0, rng).stashes)
               for _ in range(20)}
    assert len(stashes) > 1
    for twin in (state.determinize(0, rng) for _ in range(5)):
        assert [c.value for c in twin.stashes[0]] == [c.value for c in state.stashes[0]]
        assert sorted(twin.deck) != [] and len(twin.deck) == len(state.deck)


def test_cake_and_medals_are_conserved_over_random_games():
    for seed in range(20):
        state = tricolore.make("let-them-eat-cake", 3 + seed % 4, seed=seed)
        total = medals_total(state)
        for s in random_play(state, random.Random(seed), free_rate=0.3):
            assert medals_total(s) == total
            pantry_cakes = sum(1 for st in s.stashes for c in st if not c.starter)
            undealt = len(s.draw) if s.batch_safe is None else 0  # an inspected batch is dealt
            assert len(s.deck) + undealt + pantry_cakes + sum(s.pantry_generals) == 55
            assert s.starter_pile + sum(s.starter_generals) == 8
            starters = sum(1 for st in s.stashes for c in st if c.starter)
            assert starters + len(s.removed_starters) == 12


def test_let_them_eat_cake_only_the_card_received_this_round(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=True)
    received = len(state.stashes[0]) - 1
    act(state, 0, "give_cakes", to=1, cards=[received])
    assert list(state.pending()) == [0]  # still asked: what it gave away is its own secret
    assert state.legal_actions(0).kinds == ("pass",)


@pytest.mark.slow
def test_conformance_in_memory_mode():
    from tricolore.core.conformance import check_game

    report = check_game(tricolore.get_game("let-them-eat-cake"), 4, range(30), options={"memory_mode": True})
    assert report.games == 30 and report.refusals > 0
