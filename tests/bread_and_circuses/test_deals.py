"""Regulated bribery: deals offered or solicited, accepted, and paid automatically when their
condition is decided.

The book, Optional Rules, Regulated Bribery: "1. Bribes must be in the form of Gold payment or a
promised future in-game action in exchange for an action. 2. Bribes are not to be paid until the
promised action is taken, and once the promised action is taken, the bribe must be paid."
"""

import pytest

from tricolore.core import IllegalAction

ROUND = {0: "circus", 1: "bread", 2: "circus", 3: "abstain"}
NAMES = ["Ann", "Bob", "Cy", "Di"]


def deal(state, act, seat, to, gold, condition="play", tile="bread", when="this", kind="offer_deal"):
    """Offer (or solicit) a deal; returns its id."""
    events = act(state, seat, kind, to=to, gold=gold, condition=condition, tile=tile, when=when)
    return next(e["id"] for e in events if e["kind"] == "deal_offered")


def bribed(start, act, **terms):
    state = start(4, regulated_bribery=True)
    deal(state, act, 0, 1, 3, **terms)
    return state


def settled(state):
    return [e for e in state.events_for(None) if e["kind"] == "deal_settled"]


def test_a_deal_is_honoured_automatically(start, act, play_round):
    state = bribed(start, act)
    events = act(state, 1, "accept_deal", deal=0)
    assert events[0]["kind"] == "deal_accepted"
    play_round(state, ROUND)
    (paid,) = settled(state)
    assert paid["status"] == "paid" and paid["paid"] == 3
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
    play_round(state, ROUND)
    assert state.deals.get(0).paid == 1 and state.deals.get(0).status == "paid"


def test_a_deal_offered_to_a_seat_not_at_the_table_is_refused(start, act):
    state = start(4, regulated_bribery=True)
    before = state.digest()
    with pytest.raises(IllegalAction, match="A deal is made with another player at this table"):
        deal(state, act, 0, 7, 1)
    with pytest.raises(IllegalAction):
        deal(state, act, 0, 0, 1)
    assert state.digest() == before and state.deals.deals == []


@pytest.mark.parametrize("terms, fragment", [
    ({"condition": "honest", "tile": "bread"}, "An honesty deal names no tile, so its tile is null."),
    ({"condition": "play", "tile": None}, "A deal about a tile names bread, circus or abstain."),
    ({"condition": "lie"}, "A deal's condition is 'play' \\(a tile\\), 'any_but'"),
    ({"when": "later"}, "A deal is about this round or the next, so its when is 'this' or 'next'."),
])
def test_a_deal_with_terms_the_rules_cannot_judge_is_refused_with_a_sentence(start, act, terms,
                                                                              fragment):
    state = start(4, regulated_bribery=True)
    before = state.digest()
    for kind in ("offer_deal", "solicit_deal"):
        with pytest.raises(IllegalAction, match=fragment):
            deal(state, act, 0, 1, 2, kind=kind, **terms)
    assert state.digest() == before


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
    deal(state, act, 0, 2, 1, tile="circus")
    with pytest.raises(IllegalAction):
        act(state, 1, "accept_deal", deal=1)  # not offered to seat 1
    act(state, 2, "decline_deal", deal=1)
    assert state.deals.get(1).status == "declined"


def test_unanswered_offers_lapse_when_negotiation_ends(start, act, play_round):
    state = bribed(start, act)
    play_round(state, ROUND)
    assert state.deals.get(0).status == "lapsed" and state.gold[1] == 4 + 2


def test_deals_are_logged_for_everyone(start, act):
    state = bribed(start, act)
    act(state, 1, "accept_deal", deal=0)
    kinds = [e["kind"] for e in state.events_for(3)]
    assert "deal_offered" in kinds and "deal_accepted" in kinds
    assert state.view(3)["deals"][0]["status"] == "accepted"


def test_without_the_option_there_are_no_deals(start, act):
    state = start(4)
    for kind in ("offer_deal", "solicit_deal"):
        with pytest.raises(IllegalAction, match="This table plays without Regulated Bribery, so no "
                                                "deal is binding; Gold may still be given"):
            deal(state, act, 0, 1, 1, kind=kind)


# -- the forms of a bribe ------------------------------------------------------------------------
def test_regulated_bribery_play_any_tile_except_one(start, act, play_round):
    """"Bribes can be open-ended or defined, ranging from "play Bread" to "play any card except
    Abstain" ...": paid for any tile but the one named, not paid for that one."""
    state = bribed(start, act, condition="any_but", tile="abstain")
    act(state, 1, "accept_deal", deal=0)
    assert state.deals.get(0).condition == {"round": 1, "any_but": "abstain"}
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "abstain"})
    assert state.deals.get(0).status == "paid" and state.deals.get(0).paid == 3
    broken = bribed(start, act, condition="any_but", tile="abstain")
    act(broken, 1, "accept_deal", deal=0)
    play_round(broken, {0: "bread", 1: "abstain", 2: "circus", 3: "bread"})
    assert broken.deals.get(0).status == "lapsed" and broken.deals.get(0).paid == 0


@pytest.mark.parametrize("disclosure, paid", [
    (("circus", "circus"), True),     # the tile played is the icon disclosed on
    (("abstain", "circus"), False),   # a dishonest disclosure
    (None, False),                    # no disclosure to be honest about
])
def test_regulated_bribery_be_honest_about_your_disclosure(start, act, play_round, disclosure,
                                                            paid):
    """"... to "be honest about your Disclosure"": paid when the tile played matches the icon it
    was disclosed on; not paid for a dishonest disclosure, nor for none at all."""
    state = bribed(start, act, condition="honest", tile=None)
    act(state, 1, "accept_deal", deal=0)
    assert state.deals.get(0).condition == {"round": 1, "honest": True}
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "abstain"},
               disclose=None if disclosure is None else {1: disclosure})
    assert state.deals.get(0).status == ("paid" if paid else "lapsed")
    assert state.deals.get(0).paid == (3 if paid else 0)


def test_regulated_bribery_honesty_taken_away_by_public_accusation_is_not_paid(start, act,
                                                                                play_round):
    """A disclosure removed by Public Accusation is no disclosure at all: the promise is broken."""
    state = start(4, regulated_bribery=True, hands=[["Public Accusation"], [], [], []])
    deal(state, act, 0, 1, 2, condition="honest", tile=None)
    act(state, 1, "accept_deal", deal=0)
    act(state, 1, "disclose", tile="circus", icon="circus")
    act(state, 0, "play_sabotage", card="Public Accusation", target=1)
    play_round(state, {0: "bread", 1: "circus", 2: "bread", 3: "abstain"})
    assert state.deals.get(0).status == "lapsed"


def test_regulated_bribery_a_promised_future_action_next_rounds_tile(start, act, play_round,
                                                                      pass_window):
    """"Bribes must be in the form of Gold payment or a promised future in-game action": a deal
    about next round's tile stays binding through this round's reveal and is settled at the next
    one."""
    state = bribed(start, act, tile="abstain", when="next")
    act(state, 1, "accept_deal", deal=0)
    assert state.deals.get(0).condition == {"round": 2, "play": "abstain"}
    play_round(state, ROUND)  # seat 1 plays Bread this round: not what the deal is about
    assert state.round == 2 and state.deals.get(0).status == "accepted" and not settled(state)
    assert state.gold[:2] == [4 + 1, 4 + 2]
    play_round(state, {0: "bread", 1: "abstain", 2: "circus", 3: "circus"})
    assert state.deals.get(0).status == "paid" and state.deals.get(0).paid == 3


def test_regulated_bribery_a_future_promise_is_not_paid_when_broken(start, act, play_round):
    state = bribed(start, act, tile="abstain", when="next")
    act(state, 1, "accept_deal", deal=0)
    play_round(state, ROUND)
    play_round(state, ROUND)  # seat 1 plays Bread, not the Abstain it promised
    assert state.deals.get(0).status == "lapsed" and state.deals.get(0).paid == 0


def test_regulated_bribery_a_promise_for_a_round_that_never_comes_lapses_unpaid(start, act,
                                                                                 play_round):
    state = start(4, regulated_bribery=True, gold=[18, 4, 4, 4])
    deal(state, act, 0, 1, 3, when="next")
    act(state, 1, "accept_deal", deal=0)
    play_round(state, {0: "bread", 1: "circus", 2: "circus", 3: "abstain"})
    assert state.is_over()  # seat 0 reached 20 Gold alone
    assert state.deals.get(0).status == "lapsed" and state.deals.get(0).paid == 0
    assert {"kind": "deal_lapsed", "deal": 0, "to": None} in state.events_for(None)


def test_regulated_bribery_either_side_may_propose_a_bribe_by_soliciting(start, act, play_round):
    """Either side may propose a bribe: a player may solicit one, asking to be paid for meeting
    the condition; the player asked pays, and answers the offer."""
    state = start(4, regulated_bribery=True)
    deal(state, act, 1, 0, 2, tile="bread", kind="solicit_deal")
    asked = state.deals.get(0)
    assert (asked.payer, asked.payee, asked.offered_by) == (0, 1, 1)
    assert state.legal_actions(0).kinds == ("disclose", "ready")  # answered as a free action
    assert state.free_actions(0).family("accept_deal") is not None
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, "accept_deal", deal=0)  # the player who asked cannot accept for the payer
    assert refused.value.for_names(NAMES) == (
        "You proposed the deal of 2 Gold from Ann to Bob; Ann accepts or declines it.")
    act(state, 0, "accept_deal", deal=0)
    play_round(state, ROUND)
    assert state.deals.get(0).status == "paid" and state.gold[:2] == [4 - 2 + 1, 4 + 2 + 2]


def test_regulated_bribery_a_solicited_bribe_is_not_paid_when_the_condition_is_broken(
        start, act, play_round):
    state = start(4, regulated_bribery=True)
    deal(state, act, 1, 0, 2, condition="any_but", tile="bread", kind="solicit_deal")
    act(state, 0, "accept_deal", deal=0)
    play_round(state, ROUND)  # seat 1 plays Bread
    assert state.deals.get(0).status == "lapsed" and state.gold[:2] == [4 + 1, 4 + 2]


def test_regulated_bribery_a_solicitation_may_be_withdrawn_by_the_player_who_asked(start, act):
    state = start(4, regulated_bribery=True)
    deal(state, act, 1, 0, 2, kind="solicit_deal")
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, "withdraw_deal", deal=0)
    assert refused.value.for_names(NAMES) == ("Only the offerer may withdraw an offer, and only "
                                              "before it is answered: Bob made the deal of 2 Gold "
                                              "from Ann to Bob.")
    act(state, 1, "withdraw_deal", deal=0)
    assert state.deals.get(0).status == "withdrawn"


def test_regulated_bribery_every_form_of_deal_conserves_gold(start, act, play_round):
    """Settlement moves Gold from payer to payee and creates none: the total before the reveal
    equals the total after the deals are settled, whatever was paid or lapsed."""
    state = start(4, regulated_bribery=True, gold=[4, 4, 4, 1], hands=[["Monopoly"], [], [], []])
    deal(state, act, 0, 1, 3)                                           # paid
    deal(state, act, 1, 2, 2, condition="any_but", tile="bread", kind="solicit_deal")  # lapses
    deal(state, act, 3, 2, 5, condition="honest", tile=None)           # short payer: pays 1
    deal(state, act, 2, 0, 1, condition="play", tile="circus", kind="solicit_deal")  # paid
    act(state, 1, "accept_deal", deal=0)
    act(state, 2, "accept_deal", deal=1)
    act(state, 2, "accept_deal", deal=2)
    act(state, 0, "accept_deal", deal=3)
    act(state, 2, "disclose", tile="circus", icon="circus")
    for seat in range(4):
        if not state.ready[seat]:
            act(state, seat, "ready")
    before = sum(state.gold)
    for seat, tile in {0: "circus", 1: "bread", 3: "abstain"}.items():
        act(state, seat, "play", tile=tile)
    assert state.phase == "after_reveal"  # settled, not yet scored
    outcome = [(d["id"], d["status"], d["paid"]) for d in settled(state)]
    assert outcome == [(0, "paid", 3), (1, "lapsed", 0), (2, "paid", 1), (3, "paid", 1)]
    assert sum(state.gold) == before and state.gold == [4 - 3 - 1, 4 + 3, 4 + 1 + 1, 0]


def test_regulated_bribery_an_honesty_deal_is_settled_before_exposed_lie(start, act, play_round,
                                                                          pass_window):
    """The deal is about the disclosure and the tile played; Exposed Lie, played later, cancels
    the honest bonus but not a deal already paid."""
    state = start(4, regulated_bribery=True, hands=[["Exposed Lie"], [], [], []])
    deal(state, act, 0, 1, 2, condition="honest", tile=None)
    act(state, 1, "accept_deal", deal=0)
    play_round(state, {0: "bread", 2: "bread", 3: "abstain"}, disclose={1: ("circus", "circus")})
    pass_window(state)
    act(state, 0, "play_sabotage", card="Exposed Lie", target=1)
    assert state.history[-1]["payouts"][1]["honest_bonus"] == 0
    assert state.deals.get(0).status == "paid" and state.deals.get(0).paid == 2
