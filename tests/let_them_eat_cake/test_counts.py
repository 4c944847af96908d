"""Known counts of legal actions in fixed positions: a regression test of the action spaces."""

from hypothesis import given
from hypothesis import strategies as st

from tricolore.games.let_them_eat_cake.rules import _cards_in


def test_a_ballot_offers_one_vote_per_distinct_card_in_hand(start):
    assert len(start(5, head=0).legal_actions(0)) == 4
    assert len(start(4, head=0).legal_actions(0)) == 3  # six cards, three colours


def test_the_heads_medal_move_offers_every_award_and_every_removal(start, elect):
    state = start(4, head=0)
    elect(state, 2)
    assert len(state.legal_actions(2)) == 3 + 3


def test_the_secretary_deals_any_card_to_any_player_without_one(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, 0, 9, 2, 7, 7, 7, 7])
    elect(state, 1)
    act(state, 1, "award_medal", to=0)
    elect(state, 1)
    act(state, 1, "mercy")
    elect(state, 2)
    assert state.phase == "deal" and len(state.legal_actions(2)) == 4 * 4
    act(state, 2, "deal", card=0, to=3)
    assert len(state.legal_actions(2)) == 3 * 3


def test_trading_counts_for_three_medals_no_general_and_two_cake_cards(start):
    state = start(4, head=0)
    # give_medals: 3 receivers x 1..3 Medals; give_cakes: 3 receivers x 3 non-empty sets of 2 cards
    assert len(state.free_actions(0)) == 9 + 9
    state.pantry_generals[0] = 2
    state.changed()
    assert len(state.free_actions(0)) == 9 + 3 * 2 + 9


@given(st.lists(st.integers(0, 5), min_size=1, max_size=12))
def test_a_ballot_offers_each_distinct_card_in_hand_once_in_colour_order(hand):
    assert _cards_in(sorted(hand)) == tuple(sorted(set(hand)))
    assert _cards_in(hand) == tuple(sorted(set(hand)))  # a hand out of order is sorted first
