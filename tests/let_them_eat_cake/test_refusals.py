"""Let Them Eat Cake: the common mistakes a player makes are refused with the rule that refuses
them, in the players' words, naming players rather than seat numbers or field names; and a refusal
changes nothing."""

import pytest

from tricolore.core import IllegalAction
from tricolore.games.let_them_eat_cake.data import GENERAL

NAMES = ["Danton", "Marat", "Robespierre", "Desmoulins", "Saint-Just"]
DECK = [5, GENERAL, 14, 2, 7, 7, 7, 7]


def refused(state, seat, kind, **fields):
    """The refusal of an action, read with the players' names; the state must not change."""
    before = state.digest()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, {"type": kind, **fields})
    assert state.digest() == before
    return caught.value.code, caught.value.for_names(NAMES)


@pytest.fixture(name="to_operator")
def to_operator_fixture(elect, act):
    """From the start: Head seat 0 (a Medal to seat 1); seat 3, with no Medal, is the Enemy."""
    def run(state):
        elect(state, 0)
        act(state, 0, "award_medal", to=1)
        assert state.guillotine == 3 and state.election.office == "operator"
    return run


@pytest.fixture(name="to_deal")
def to_deal_fixture(to_operator, elect, act):
    """On to the Secretary, seat 2, who has drawn ``DECK[:4]``; seat 1 showed mercy."""
    def run(state):
        to_operator(state)
        elect(state, 1)
        act(state, 1, "mercy")
        elect(state, 2)
    return run


@pytest.fixture(name="to_donations")
def to_donations_fixture(to_deal, elect, act, pass_windows):
    """Card i to seat i (seat 1 a General), the Food Inspector seat 3 declares the batch safe."""
    def run(state):
        to_deal(state)
        pass_windows(state, ("seize",))
        for card in range(3):
            if state.phase == "deal":
                act(state, 2, "deal", card=card, to=card)
        elect(state, 3)
        act(state, 3, "inspect", safe=True)
        assert state.phase == "donate"
    return run


# -- whose turn it is ----------------------------------------------------------------------------
def test_a_window_asks_clockwise_from_the_head_so_the_next_seat_waits_for_its_turn(start):
    state = start(4, head=0, generals=[0, 3, 3, 0])
    assert refused(state, 2, "coup", winner=2) == (
        "not_your_turn", "It is not your turn; the window asks one player at a time, clockwise "
                         "from the Head of Committee: waiting for Marat.")


def test_an_action_of_another_phase_names_what_the_table_is_doing_now(start):
    state = start(4, head=0)
    assert refused(state, 0, "execute") == (
        "not_now", "No Pawn awaits the Guillotine Operator's decision: the players are voting for "
                   "the Head of Committee.")
    assert refused(state, 1, "deal", card=0, to=1)[1].startswith("There are no drawn cards to deal")
    assert refused(state, 1, "inspect", safe=True)[1].startswith("There is no batch to inspect")
    assert refused(state, 1, "break_tie", winner=2)[1].startswith("There is no tied vote to break")
    assert refused(state, 1, "donate")[1].startswith(
        "Cake is donated only after a safe batch, at the end of the round")


def test_the_vote_waits_for_the_coup_window_and_ends_with_the_rigging_window(start, vote):
    state = start(4, head=0, generals=[0, 3, 0, 0])
    assert refused(state, 0, "vote", candidate=1) == (
        "vote_not_begun", "The vote has not begun: Marat may stage a coup before the vote for the "
                          "Head of Committee.")
    state.apply(1, {"type": "pass"})
    vote(state, {0: 1, 1: 2, 2: 1, 3: 1})
    assert refused(state, 0, "vote", candidate=2) == (
        "no_vote_now", "There is no vote now: Marat may allege that the vote for the Head of "
                       "Committee was rigged.")


# -- voting --------------------------------------------------------------------------------------
def test_a_player_votes_once_and_the_cards_are_revealed_together(start, act):
    state = start(4, head=0)
    act(state, 0, "vote", candidate=1)
    assert refused(state, 0, "vote", candidate=2) == (
        "already_voted", "You have already played your Voting card in this vote; the cards are "
                         "revealed when everyone has.")


def test_a_vote_cannot_be_passed(start):
    state = start(4, head=0)
    assert refused(state, 0, "pass") == (
        "must_vote", "Every player with a vote plays a Voting card; a vote cannot be passed.")


def test_you_hold_no_voting_card_in_your_own_colour(start):
    state = start(4, head=0)
    assert refused(state, 0, "vote", candidate=0) == (
        "bad_vote", "Your hand holds Voting cards for blue, green and yellow only; you hold none in "
                    "your own colour.")


def test_played_voting_cards_come_back_only_when_the_hand_is_empty(start):
    state = start(5, head=0)
    state.hands[0], state.used[0] = [3, 4], [1, 2]
    state.changed()
    assert refused(state, 0, "vote", candidate=1)[1] == (
        "Your hand holds Voting cards for yellow and purple only: played cards come back only when "
        "your hand is empty, and you hold none in your own colour.")


def test_a_player_whose_only_pawn_is_on_the_guillotine_has_no_vote(start, to_operator):
    state = start(4, head=0, medals=[3, 3, 3, 0], pawns=[3, 3, 3, 1])
    to_operator(state)
    assert refused(state, 3, "vote", candidate=0) == (
        "no_vote", "Your only Pawn is on the Guillotine, so you have no vote.")


# -- the Generals --------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, fields, sentence", [
    ("coup", {"winner": 1}, "A coup costs 3 Generals; you have 2 Generals."),
    ("seize", {"card": 0}, "Seizing cake costs 2 Generals; you have 1 General."),
    ("allege_rigging", {}, "Alleging vote rigging costs 1 General; you have no Generals."),
])
def test_each_use_of_the_generals_names_its_cost(start, kind, fields, sentence):
    state = start(4, head=0, generals=[0, {"coup": 2, "seize": 1, "allege_rigging": 0}[kind], 0, 0])
    assert refused(state, 1, kind, **fields) == ("too_few_generals", sentence)


def test_each_use_of_the_generals_names_when_it_comes(start):
    state = start(4, head=0, generals=[3, 0, 0, 0])
    state.apply(0, {"type": "pass"})  # the coup window closes: the vote begins
    assert refused(state, 0, "coup", winner=1)[1] == (
        "A coup comes just before a vote: the players are voting for the Head of Committee.")
    assert refused(state, 0, "allege_rigging")[1].startswith(
        "Vote rigging is alleged just after a vote: ")
    assert refused(state, 0, "seize", card=0)[1].startswith(
        "Cake is seized just after the Secretary's draw, before the cards are dealt: ")


def test_a_player_who_passed_in_the_coup_window_has_let_it_go_by(start, act):
    state = start(4, head=0, generals=[0, 3, 3, 0])
    act(state, 1, "pass")
    assert refused(state, 1, "coup", winner=1) == (
        "already_passed", "You have let the coup window go by for this vote.")


def test_a_window_asks_only_the_players_who_can_pay(start):
    state = start(4, head=0, generals=[0, 3, 0, 0])
    assert refused(state, 2, "pass") == (
        "not_asked", "Only players with 3 Generals are asked in the coup window.")


def test_a_coup_on_the_enemy_vote_names_one_of_the_players_tied_for_fewest_medals(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 2, 2], generals=[0, 3, 0, 0])
    elect(state, 0)
    act(state, 0, "award_medal", to=1)
    assert state.election.office == "enemy" and list(state.pending()) == [1]
    assert refused(state, 1, "coup", winner=0) == (
        "bad_coup", "Only the players tied for the fewest Medals can be named Enemy of the "
                    "Revolution: green or yellow.")


def test_a_card_is_seized_once_per_round_and_only_while_nobody_has_it(start, to_deal, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK, generals=[0, 0, 0, 0])
    state.pantry_generals[0] = state.pantry_generals[3] = 2
    state.changed()
    to_deal(state)
    assert state.phase == "seize" and list(state.pending()) == [0]
    act(state, 0, "seize", card=2)
    assert refused(state, 3, "seize", card=2) == (
        "bad_seize", "You may seize only a card nobody has seized yet: card 0 (Cake 5), card 1 "
                     "(General) or card 3 (Cake 2).")
    assert refused(state, 0, "seize", card=0) == (
        "already_seized", "You have already seized a card this round.")


# -- the officers --------------------------------------------------------------------------------
def test_only_the_head_of_committee_breaks_a_tie_and_only_among_the_tied(start, vote):
    state = start(4, head=1, pawns=[2, 2, 3, 1])
    vote(state, {0: 2, 1: 2, 2: 0, 3: 0})
    assert state.phase == "tie"
    assert refused(state, 0, "break_tie", winner=0) == (
        "not_yours", "Only the Head of Committee, Marat, breaks a tie.")
    assert refused(state, 1, "break_tie", winner=3) == (
        "bad_break_tie", "The Head of Committee chooses among the tied candidates only: red or "
                         "green.")


def test_only_the_new_head_moves_a_medal_and_never_to_themself(start, elect):
    state = start(4, head=0)
    elect(state, 1)
    assert refused(state, 0, "award_medal", to=2) == (
        "not_yours", "Only the new Head of Committee, Marat, moves a Medal.")
    assert refused(state, 1, "award_medal", to=1) == (
        "bad_award_medal", "The Head of Committee awards the Medal to another player: red, green or "
                           "yellow.")


def test_the_head_removes_a_medal_only_from_a_player_who_has_one(start, elect):
    state = start(4, head=0, medals=[3, 3, 0, 3])
    elect(state, 1)
    assert refused(state, 1, "remove_medal", **{"from": 2})[1] == (
        "The Head of Committee removes a Medal from another player who has one: red or yellow.")


def test_the_head_awards_a_medal_only_while_the_centre_has_one(start, elect):
    state = start(4, head=0, centre=0)
    elect(state, 1)
    assert refused(state, 1, "award_medal", to=2) == (
        "centre_empty", "The centre has no Medal to award; remove one from another player instead.")


def test_the_head_removes_a_medal_only_when_another_player_has_one(start, elect):
    state = start(3, head=0, medals=[0, 0, 0])
    elect(state, 1)
    assert refused(state, 1, "remove_medal", **{"from": 0}) == (
        "no_medal_to_remove", "No other player has a Medal to remove; award one from the centre "
                              "instead.")


def test_only_the_guillotine_operator_decides_the_fate_of_the_pawn(start, to_operator, elect):
    state = start(4, head=0, medals=[3, 3, 3, 0])
    to_operator(state)
    elect(state, 2)
    assert refused(state, 3, "mercy") == (
        "not_yours", "Only the Guillotine Operator, Robespierre, executes the Pawn or shows mercy.")
    assert refused(state, 3, "pass") == (
        "nothing_to_pass", "There is nothing to pass now: the Guillotine Operator, Robespierre, is "
                           "deciding the fate of the Pawn on the Guillotine.")


def test_the_secretary_deals_each_card_once_and_one_card_to_every_player(start, to_deal, act,
                                                                        pass_windows):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK)
    to_deal(state)
    pass_windows(state, ("seize",))
    assert refused(state, 1, "deal", card=0, to=1) == (
        "not_yours", "Only the Secretary, Robespierre, deals the drawn cards.")
    act(state, 2, "deal", card=0, to=0)
    assert refused(state, 2, "deal", card=0, to=1) == (
        "bad_deal", "You may deal only a card still on the table: card 1 (General), card 2 "
                    "(Cake 14) or card 3 (Cake 2).")
    assert refused(state, 2, "deal", card=1, to=0) == (
        "bad_deal", "Every player receives exactly one card, and only blue, green and yellow are "
                    "still without one.")


def test_only_the_food_inspector_declares_the_batch_safe_or_unsafe(start, to_deal, act, elect,
                                                                  pass_windows):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK)
    to_deal(state)
    pass_windows(state, ("seize",))
    for card in range(3):
        act(state, 2, "deal", card=card, to=card)
    elect(state, 3)
    assert refused(state, 0, "inspect", safe=False) == (
        "not_yours", "Only the Food Inspector, Desmoulins, declares the batch safe or unsafe.")
    assert refused(state, 3, "inspect", safe="yes") == (
        "bad_inspect", "Declare the batch safe (true) or unsafe (false).")


# -- donations -----------------------------------------------------------------------------------
def test_only_a_player_who_received_cake_this_round_may_donate(start, to_donations):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK)
    to_donations(state)
    assert refused(state, 1, "donate") == (
        "no_cake_received", "You received no Cake card this round, so you have none to donate.")


def test_donations_go_clockwise_from_the_head(start, to_donations):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK)
    to_donations(state)
    assert refused(state, 2, "donate", take_from=0) == (
        "not_your_turn", "It is not your turn; the window asks one player at a time, clockwise from "
                         "the Head of Committee: waiting for Danton.")


def test_a_donor_takes_a_medal_only_from_another_player_who_has_one(start, to_donations):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK)
    to_donations(state)
    assert refused(state, 0, "donate", take_from=3) == (
        "bad_donate", "You may take a Medal only from another player who has one (blue or green), "
                      "or from nobody.")


def test_a_donation_with_no_medal_to_take_names_nobody(start, to_donations, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK)
    to_donations(state)
    for seat in (1, 2):
        act(state, seat, "give_medals", to=0, medals=state.medals[seat])
    assert refused(state, 0, "donate", take_from=1) == (
        "bad_donate", "No other player has a Medal for you to take.")
    act(state, 0, "donate", take_from=None)
    assert state.donors == {0}


def test_only_the_cake_card_still_held_may_be_donated_and_only_once(start, to_donations, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=DECK)
    to_donations(state)
    act(state, 0, "donate", take_from=None)
    assert refused(state, 0, "donate", take_from=None) == (
        "already_donated", "You have already donated this round's Cake card.")
    received = len(state.stashes[2]) - 1
    act(state, 2, "give_cakes", to=1, cards=[received])
    assert refused(state, 2, "donate", take_from=None) == (
        "cake_given_away", "You no longer hold the Cake card you received this round.")


# -- trading -------------------------------------------------------------------------------------
def test_gifts_go_to_another_player(start):
    state = start(4, head=0)
    assert refused(state, 0, "give_medals", to=0, medals=1) == (
        "bad_give_medals", "A gift goes to another player: blue, green or yellow.")


def test_a_gift_is_limited_to_what_you_have(start):
    state = start(4, head=0, medals=[1, 3, 3, 3], stashes=[[4, 9], [1], [2], [3]])
    assert refused(state, 0, "give_medals", to=1, medals=2) == (
        "bad_give_medals", "You have 1 Medal; you tried 2.")
    assert refused(state, 0, "give_generals", to=1, generals=1) == (
        "nothing_to_give", "You have no Generals to give.")
    assert refused(state, 0, "give_cakes", to=1, cards=[2]) == (
        "bad_give_cakes", "Name Cake cards by their position in your stash, 0 to 1.")


def test_pawns_and_voting_cards_never_change_hands(start):
    state = start(4, head=0)
    assert refused(state, 0, "give_pawns", to=1) == (
        "never_traded", "Pawns and Voting cards never change hands.")
