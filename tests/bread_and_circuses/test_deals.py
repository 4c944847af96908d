"""Regulated bribery: deals offered, accepted and paid automatically when the play is revealed."""

import pytest

from tricolore.core import IllegalAction


def bribed(start, act):
    state = start(4, regulated_bribery=True)
    act(state, 0, "offer_deal", to=1, gold=3, play="bread")
    return state


def test_a_deal_is_honoured_automatically(start, act, play_round):
    state = bribed(start, act)
    events = act(state, 1, "accept_deal", deal=0)
    assert events[0]["kind"] == "deal_accepted"
    play_round(state, {0: "circus", 1: "bread", 2: "circus", 3: "abstain"})
    settled = next(e for e in state.events_for(None) if e["kind"] == "deal_settled")
    assert settled["status"] == "paid" and settled["paid"] == 3
    # paid at the reveal, then scored: seat 0 4 - 3 + 1 Bread; seat 1 4 + 3 + 2 Circuses
    assert state.gold[:2] == [4 - 3 + 1, 4 + 3 + 2]


def test_a_deal_whose_condition_fails_pays_nothing(start, act, play_round):
    state = bribed(start, act)
    act(state, 1, "accept_deal", deal=0)
    play_round(state, {0: "circus", 1: "abstain", 2: "circus", 3: "bread"})
    assert state.deals.get(0).status == "lapsed" and state.deals.get(0).paid == 0
    assert state.gold[0] == 4 + 1


def test_a_payer_without_enough_gold_pays_what_they_have(start, act, play_round):
    state = bribed(start, act)
    act(state, 1, "accept_deal", deal=0)
    act(state, 0, "give_gold", to=2, gold=3)  # keeps 1 of the promised 3
    play_round(state, {0: "circus", 1: "bread", 2: "circus", 3: "abstain"})
    assert state.deals.get(0).paid == 1 and state.deals.get(0).status == "paid"


def test_a_deal_offered_to_a_seat_not_at_the_table_is_refused(start, act):
    state = start(4, regulated_bribery=True)
    before = state.digest()
    with pytest.raises(IllegalAction, match="To must be one of 1, 2, 3; you sent 7"):
        act(state, 0, "offer_deal", to=7, gold=1, play="bread")
    with pytest.raises(IllegalAction):
        act(state, 0, "offer_deal", to=0, gold=1, play="bread")
    assert state.digest() == before and state.deals.deals == []


def test_an_accepted_deal_cannot_be_broken_by_either_side(start, act):
    state = bribed(start, act)
    act(state, 1, "accept_deal", deal=0)
    for seat, kind in ((0, "withdraw_deal"), (1, "decline_deal"), (1, "accept_deal")):
        with pytest.raises(IllegalAction):
            act(state, seat, kind, deal=0)
    assert state.deals.get(0).status == "accepted"


def test_an_offer_may_be_withdrawn_or_declined_until_accepted(start, act):
    state = bribed(start, act)
    act(state, 0, "withdraw_deal", deal=0)
    assert state.deals.get(0).status == "withdrawn"
    act(state, 0, "offer_deal", to=2, gold=1, play="circus")
    with pytest.raises(IllegalAction):
        act(state, 1, "accept_deal", deal=1)  # not offered to seat 1
    act(state, 2, "decline_deal", deal=1)
    assert state.deals.get(1).status == "declined"


def test_unanswered_offers_lapse_when_negotiation_ends(start, act, play_round):
    state = bribed(start, act)
    play_round(state, {0: "circus", 1: "bread", 2: "circus", 3: "abstain"})
    assert state.deals.get(0).status == "lapsed" and state.gold[1] == 4 + 2


def test_deals_are_logged_for_everyone(start, act):
    state = bribed(start, act)
    act(state, 1, "accept_deal", deal=0)
    kinds = [e["kind"] for e in state.events_for(3)]
    assert "deal_offered" in kinds and "deal_accepted" in kinds
    assert state.view(3)["deals"][0]["status"] == "accepted"


def test_without_the_option_there_are_no_deals(start, act):
    state = start(4)
    with pytest.raises(IllegalAction, match="cannot offer_deal now"):
        act(state, 0, "offer_deal", to=1, gold=1, play="bread")
