"""Culottes deals: the bribery attack and the alliance defence as promises the engine keeps, with
deposits held in escrow (docs/games/culottes.md, "Deals")."""

import random
import re

import pytest

import tricolore
from tricolore.core import IllegalAction
from tricolore.core.conformance import random_play

PLAYERS = ["Ann", "Bob", "Cy"]
CLOSES = 6


def table(rolls=(), players=3, **options):
    """Robespierre (seat 0) starts, Danton is seat 1's, Marat seat 2's (Fouché seat 3's); the
    die rolls ``rolls`` then never closes a trial."""
    options.setdefault("first_player", 0)
    state = tricolore.make("culottes", players, seed=0, chance={"randint": [*rolls, *[1] * 200]},
                           **options)
    for seat, name in enumerate(["Robespierre", "Danton", "Marat", "Fouché"][:players]):
        state.apply(seat, {"type": "choose_role", "role": "grabber", "name": name})
    return state


def vote(state, citizen, side, cakes):
    state.apply(state.current, {"type": "cake_vote", "citizen": citizen, "side": side, "cakes": cakes})


def end_turn(state):
    seat = state.current
    while state.current == seat and not state.is_over():
        state.apply(seat, {"type": "pass"})


def bribe(state, seat=0, briber=0, trial=0, voter=1, side="sans_culotte", reward=1, cover=3):
    state.apply(seat, {"type": "offer_bribe", "from": briber, "trial": trial, "voter": voter,
                       "side": side, "reward": reward, "cover": cover})
    return len(state.deals.deals) - 1


def total_cakes(state):
    on_scales = sum(r.cakes for r in state.book.rows if r.closing is None)
    return sum(c.cakes for c in state.citizens) + state.bastille.cakes + on_scales + state.escrow.held()


def refusal(state, seat, action):
    before = state.digest()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert state.digest() == before
    return caught.value


# -- the bribery attack ------------------------------------------------------------------------
def test_a_bribe_deposits_reward_and_cover_into_escrow_shown_to_every_seat():
    state = table()
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state, reward=1, cover=3)
    assert state.citizens[0].cakes == 20 - 2 - 4
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert view["escrow"] == {"cakes": 4, "deposits": [
            {"for": "bribe", "id": deal, "depositor": 0, "cakes": 4}]}
        assert view["deals"][0]["status"] == "offered" and view["deals"][0]["voter"] == 1


def test_a_kept_bribe_reimburses_the_lost_cakes_and_pays_the_reward_when_the_side_loses():
    state = table(rolls=[1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state, reward=1, cover=3)
    end_turn(state)
    state.apply(1, {"type": "accept_bribe", "deal": deal})
    vote(state, 0, "sans_culotte", 3)
    end_turn(state)
    vote(state, 0, "privileged", 10)  # Marat's vote closes the trial: privileged
    assert state.deals.get(deal).status == "paid" and state.deals.get(deal).paid == 4
    assert state.citizens[1].cakes == 20 - 3 + 4  # lost 3, reimbursed 3, reward 1
    assert state.escrow.held() == 0
    settled = next(e for e in state.events_for(None) if e["kind"] == "bribe_settled")
    assert (settled["reimbursed"], settled["reward"], settled["returned"]) == (3, 1, 0)
    metrics = state.result().metrics
    assert metrics["bribes_paid"] == 1.0 and metrics["bribe_cakes_paid"] == 4.0
    assert metrics["bribes_lost"] == 1.0 and metrics["bribed_cakes_voted"] == 3.0


def test_reimbursement_stops_at_the_cover_and_the_rest_goes_back_to_the_briber():
    state = table(rolls=[1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state, reward=2, cover=2)
    end_turn(state)
    state.apply(1, {"type": "accept_bribe", "deal": deal})
    vote(state, 0, "sans_culotte", 5)
    end_turn(state)
    before = state.citizens[0].cakes
    vote(state, 0, "privileged", 10)
    assert state.citizens[1].cakes == 20 - 5 + 2 + 2
    assert state.citizens[0].cakes == before  # the deposit was used up, nothing comes back
    assert state.escrow.held() == 0


def test_a_bribe_whose_side_wins_returns_the_whole_deposit_to_the_briber():
    state = table(rolls=[1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state, reward=1, cover=3)
    end_turn(state)
    state.apply(1, {"type": "accept_bribe", "deal": deal})
    vote(state, 0, "sans_culotte", 3)
    end_turn(state)
    before = state.citizens[0].cakes
    vote(state, 0, "privileged", 1)  # closes: sans-culotte wins 5 to 1
    assert state.deals.get(deal).status == "lapsed"
    assert state.citizens[0].cakes - before == 4 + 2 + 0  # deposit back, stake back (reward rounds down)
    assert state.escrow.held() == 0 and state.result().metrics["bribes_won"] == 1.0


def test_votes_written_before_a_bribe_is_accepted_do_not_count_for_it():
    state = table(rolls=[1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 2)
    end_turn(state)
    vote(state, 0, "sans_culotte", 3)  # Danton votes before any bribe
    end_turn(state)
    deal = bribe(state, seat=0, briber=0)  # seat 0 offers out of turn: a free action
    state.apply(1, {"type": "accept_bribe", "deal": deal})
    vote(state, 0, "privileged", 10)
    assert state.deals.get(deal).status == "lapsed" and state.citizens[1].cakes == 17


def test_a_bribed_citizen_who_also_votes_the_other_side_is_not_paid():
    state = table(rolls=[1, 1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state)
    end_turn(state)
    state.apply(1, {"type": "accept_bribe", "deal": deal})
    vote(state, 0, "sans_culotte", 3)
    end_turn(state)
    end_turn(state)
    end_turn(state)
    vote(state, 0, "privileged", 1)  # Danton hedges in its next turn
    end_turn(state)
    vote(state, 0, "privileged", 10)
    assert state.deals.get(deal).status == "lapsed" and state.escrow.held() == 0


def test_unanswered_declined_and_withdrawn_bribes_give_their_deposit_back():
    state = table(rolls=[1, CLOSES])
    vote(state, 0, "sans_culotte", 2)
    declined, withdrawn, _ = bribe(state), bribe(state, voter=2), bribe(state, cover=1)
    assert state.citizens[0].cakes == 18 - 4 - 4 - 2
    state.apply(1, {"type": "decline_bribe", "deal": declined})
    state.apply(0, {"type": "withdraw_bribe", "deal": withdrawn})
    assert state.citizens[0].cakes == 18 - 2 and state.escrow.held() == 2
    end_turn(state)
    vote(state, 0, "privileged", 1)  # Danton closes the trial; the last offer lapses
    assert [d.status for d in state.deals.deals] == ["declined", "withdrawn", "lapsed"]
    assert state.escrow.held() == 0


def test_bribes_of_a_trial_abandoned_at_the_end_lapse_and_give_every_deposit_back():
    state = table(max_rounds=1)
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state)
    state.apply(1, {"type": "accept_bribe", "deal": deal})
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    for _ in range(3):
        end_turn(state)
    assert state.is_over() and state.escrow.held() == 0
    assert [c.cakes for c in state.citizens] == [20, 20, 20]
    kinds = [e["kind"] for e in state.events_for(None)]
    assert "bribe_lapsed" in kinds and "alliance_dissolved" in kinds


# -- the alliance defence ----------------------------------------------------------------------
def test_a_disloyal_member_forfeits_its_deposit_to_the_loyal_ones_first_joined_first():
    state = table(players=4, rolls=[1, 1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 2)
    end_turn(state)
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    state.apply(2, {"type": "join_alliance", "alliance": 0, "citizen": 2})
    state.apply(3, {"type": "join_alliance", "alliance": 0, "citizen": 3})
    assert state.view(None)["escrow"]["cakes"] == 3
    vote(state, 0, "privileged", 1)  # Danton: loyal
    end_turn(state)
    vote(state, 0, "sans_culotte", 1)  # Marat votes like them: disloyal
    end_turn(state)
    end_turn(state)  # Fouché does not vote: its deposit back, no share
    end_turn(state)
    vote(state, 0, "privileged", 5)  # Danton again; closes, privileged wins
    settled = next(e for e in state.events_for(None) if e["kind"] == "alliance_settled")
    assert settled["loyal"] == [1] and settled["disloyal"] == [2] and settled["idle"] == [3]
    assert settled["forfeited"] == 1 and settled["shares"] == [{"citizen": 1, "cakes": 1}]
    assert state.citizens[3].cakes == 20 and state.escrow.held() == 0
    assert state.result().metrics["alliance_deposits_forfeited"] == 1.0


def test_without_a_disloyal_member_nothing_is_forfeited_and_votes_before_joining_do_not_count():
    state = table(players=4, rolls=[1, 1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 1)
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    state.apply(2, {"type": "join_alliance", "alliance": 0, "citizen": 2})
    state.apply(3, {"type": "join_alliance", "alliance": 0, "citizen": 3})
    state.apply(0, {"type": "join_alliance", "alliance": 0, "citizen": 0})
    end_turn(state)
    vote(state, 0, "privileged", 1)
    end_turn(state)
    vote(state, 0, "privileged", 1)
    end_turn(state)
    vote(state, 0, "privileged", 1)
    # Robespierre voted sans-culotte before it joined: that vote does not count; it did not vote
    # since, so it is idle. Nobody is disloyal: no forfeit, every deposit back.
    settled = next(e for e in state.events_for(None) if e["kind"] == "alliance_settled")
    assert settled["loyal"] == [1, 2, 3] and settled["idle"] == [0] and settled["forfeited"] == 0
    assert state.escrow.held() == 0


def test_a_forfeit_that_does_not_divide_evenly_goes_to_the_loyal_member_who_joined_first():
    state = table(players=4, rolls=[1] * 7 + [CLOSES])
    vote(state, 0, "sans_culotte", 1)
    state.apply(0, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 0})
    for seat in (1, 2, 3):
        state.apply(seat, {"type": "join_alliance", "alliance": 0, "citizen": seat})
    end_turn(state)
    vote(state, 0, "privileged", 1)
    end_turn(state)
    vote(state, 0, "privileged", 1)
    end_turn(state)
    vote(state, 0, "privileged", 1)  # Fouché: loyal
    end_turn(state)
    vote(state, 0, "sans_culotte", 1)  # Robespierre: disloyal
    end_turn(state)
    vote(state, 0, "privileged", 1)
    end_turn(state)
    vote(state, 0, "privileged", 1)
    end_turn(state)
    end_turn(state)
    vote(state, 0, "privileged", 1)  # Robespierre's second vote, privileged: still disloyal
    settled = next(e for e in state.events_for(None) if e["kind"] == "alliance_settled")
    assert settled["loyal"] == [1, 2, 3] and settled["disloyal"] == [0]
    assert settled["shares"] == [{"citizen": 1, "cakes": 1}, {"citizen": 2, "cakes": 0},
                                 {"citizen": 3, "cakes": 0}]


def test_with_no_loyal_member_every_deposit_goes_back():
    state = table(rolls=[1, 1, CLOSES])
    vote(state, 0, "sans_culotte", 1)
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    end_turn(state)
    vote(state, 0, "sans_culotte", 1)
    end_turn(state)
    vote(state, 0, "sans_culotte", 1)
    settled = next(e for e in state.events_for(None) if e["kind"] == "alliance_settled")
    assert settled["disloyal"] == [1] and settled["forfeited"] == 0 and settled["returned"] == 1


# -- cakes are conserved -----------------------------------------------------------------------
def test_citizens_bastille_scales_and_escrow_hold_every_cake_through_random_games_with_deals():
    for seed in range(12):
        state = tricolore.make("culottes", 3 + seed % 4, seed=seed, max_rounds=6)
        for _ in random_play(state, random.Random(seed), free_rate=0.5):
            assert total_cakes(state) == 20 * len(state.citizens)
        assert state.escrow.held() == 0


# -- refusals ----------------------------------------------------------------------------------
def test_deals_off_refuses_every_deal_action_with_one_sentence():
    state = table(deals=False)
    vote(state, 0, "sans_culotte", 2)
    for action in ({"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1, "side": "privileged",
                    "reward": 1, "cover": 1},
                   {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 0},
                   {"type": "accept_bribe", "deal": 0}):
        for seat in (0, 1):
            assert refusal(state, seat, action).message == (
                "This table plays without deals (option deals is off), so the engine keeps no "
                "promise; cakes may still be given.")
    assert "offer_bribe" not in state.free_actions(0).kinds


def test_a_deal_needs_an_open_trial():
    state = table()
    assert refusal(state, 0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1,
                              "side": "privileged", "reward": 1, "cover": 1}).message == (
        "No trial is open; a bribe or an alliance is about the trial of a citizen with a justice scale.")
    vote(state, 0, "sans_culotte", 2)
    assert refusal(state, 0, {"type": "offer_bribe", "from": 0, "trial": 2, "voter": 1,
                              "side": "privileged", "reward": 1, "cover": 1}).message == (
        "Marat has no justice scale; the open trials are Robespierre's.")


def test_a_bribe_is_offered_to_another_players_citizen_from_your_own():
    state = table()
    vote(state, 0, "sans_culotte", 2)
    assert refusal(state, 0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 0,
                              "side": "privileged", "reward": 1, "cover": 1}).message == (
        "A bribe is offered to another player's citizen, not to one of your own (Robespierre).")
    assert refusal(state, 0, {"type": "offer_bribe", "from": 1, "trial": 0, "voter": 2,
                              "side": "privileged", "reward": 1, "cover": 1}).message == (
        "The deposit comes from one of your own citizens with at least 2 cakes: Robespierre.")


def test_a_deposit_larger_than_the_sheet_is_refused_naming_the_citizen():
    state = table()
    vote(state, 0, "sans_culotte", 15)
    assert refusal(state, 0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1,
                              "side": "privileged", "reward": 5, "cover": 1}).message == (
        "Robespierre has 5 cakes, and a bribe deposits its reward and at least 1 cake of cover; "
        "you tried 5.")
    assert refusal(state, 0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1,
                              "side": "privileged", "reward": 1, "cover": 5}).message == (
        "Robespierre has 5 cakes, enough to cover at most 4 lost cakes besides the reward of 1; "
        "you tried 5.")


def test_answers_name_the_player_who_may_give_them():
    state = table()
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state)
    refused = refusal(state, 0, {"type": "accept_bribe", "deal": deal})
    assert refused.for_names(PLAYERS) == "No bribe waits for your answer."
    refused = refusal(state, 2, {"type": "withdraw_bribe", "deal": deal})
    assert refused.for_names(PLAYERS) == "You have no bribe waiting for an answer to withdraw."
    other = bribe(state, voter=2)
    assert refusal(state, 2, {"type": "accept_bribe", "deal": deal}).for_names(PLAYERS) == (
        "Robespierre's bribe to Danton is for Bob to answer.")
    assert refusal(state, 1, {"type": "withdraw_bribe", "deal": other}).for_names(PLAYERS) == (
        "You have no bribe waiting for an answer to withdraw.")
    state.apply(1, {"type": "accept_bribe", "deal": deal})
    assert refusal(state, 0, {"type": "withdraw_bribe", "deal": deal}).for_names(PLAYERS) == (
        "Robespierre's bribe to Danton is already accepted, and binds Ann and Bob.")
    for sent, shown in ((9, "9"), (None, "null")):
        assert refusal(state, 2, {"type": "decline_bribe", "deal": sent}).message == (
            f"There is no such bribe; you sent {shown}.")


def test_bribes_and_alliances_are_named_by_their_citizens_never_by_a_number():
    state = table()
    vote(state, 0, "sans_culotte", 2)
    deal = bribe(state)
    bribe(state, seat=2, briber=2, voter=1)
    theirs = refusal(state, 2, {"type": "withdraw_bribe", "deal": deal})
    assert theirs.for_names(PLAYERS) == ("Only the briber may withdraw a bribe, and only before it is "
                                         "answered: Ann offered Robespierre's bribe to Danton.")
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    state.apply(2, {"type": "found_alliance", "trial": 0, "side": "sans_culotte", "from": 2})
    joined = refusal(state, 0, {"type": "join_alliance", "alliance": 7, "citizen": 0})
    assert "the alliance voting privileged on Robespierre" in joined.message
    assert not re.search(r"(?:bribe|alliance) \d", joined.message + theirs.for_names(PLAYERS))


def test_a_citizen_joins_one_alliance_per_trial():
    state = table()
    vote(state, 0, "sans_culotte", 2)
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    assert refusal(state, 1, {"type": "found_alliance", "trial": 0, "side": "sans_culotte",
                              "from": 1}).message == (
        "An alliance deposit is 1 cake: none of your citizens may found or join one, each having "
        "no cakes or an alliance in every open trial.")
    refused = refusal(state, 1, {"type": "join_alliance", "alliance": 0, "citizen": 1})
    assert refused.message == ("There is no alliance your citizens may join: a citizen joins one "
                               "alliance per trial; found one in an open trial.")
