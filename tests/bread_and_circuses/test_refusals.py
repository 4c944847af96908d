"""The mistakes players make, each refused with the rule that refuses it, in the players' words,
naming players by name (never by seat number), and leaving the table as it was."""

import pytest

from tricolore.core import IllegalAction

NAMES = ["Ann", "Bob", "Cy", "Di"]


def refused(state, seat, kind, **fields):
    """The refusal of one action, as its code and the sentence the players read; the table is
    unchanged and the sentence names nobody by seat number."""
    before = state.digest()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, {"type": kind, **fields})
    assert state.digest() == before
    sentence = caught.value.for_names(NAMES)
    assert "seat" not in sentence and "{" not in sentence, sentence
    return caught.value.code, sentence


def everyone_ready(state, act):
    for seat in range(state.players):
        if not state.ready[seat]:
            act(state, seat, "ready")


def deal(state, act, seat, to, kind="offer_deal", gold=2, tile="bread"):
    events = act(state, seat, kind, to=to, gold=gold, condition="play", tile=tile, when="this")
    return next(e["id"] for e in events if e["kind"] == "deal_offered")


# -- Negotiation ---------------------------------------------------------------------------------
def test_a_ready_player_is_told_whom_the_negotiation_waits_for(start, act):
    state = start(4)
    act(state, 2, "ready")
    assert refused(state, 2, "ready") == (
        "already_ready", "You are already ready; Negotiation ends when Ann, Bob and Di are ready too.")
    for seat in (0, 1):
        act(state, seat, "ready")
    assert refused(state, 2, "ready") == (
        "already_ready", "You are already ready; Negotiation ends when Di is ready too.")


def test_only_a_ready_player_may_withdraw_their_ready(start):
    state = start(4)
    assert refused(state, 1, "withdraw_ready") == (
        "not_ready", "You are not ready, so there is no ready to withdraw.")


def test_disclosure_never_on_the_abstain_icon(start):
    state = start(4)
    _, sentence = refused(state, 0, "disclose", tile="abstain", icon="abstain")
    assert sentence == ("A tile is disclosed on the Bread or Circus icon of your Disclosure card, "
                        "never on Abstain.")


def test_disclosure_on_abstain_only_with_forged_promise(start, act):
    state = start(4, hands=[["Forged Promise"], [], [], []])
    act(state, 0, "play_sabotage", card="Forged Promise", target=None)
    _, sentence = refused(state, 0, "disclose", tile="abstain", icon="riot")
    assert sentence == ("A tile is disclosed on the Bread or Circus icon, or on Abstain with your "
                        "Forged Promise.")
    act(state, 0, "disclose", tile="abstain", icon="abstain")


def test_a_disclosure_is_a_tile_a_player_owns(start):
    state = start(4)
    _, sentence = refused(state, 0, "disclose", tile="cake", icon="bread")
    assert sentence == "The tile must be 'bread', 'circus' or 'abstain'; you sent 'cake'."


def test_public_accusation_bars_another_disclosure_this_round(start, act):
    state = start(4, hands=[["Public Accusation"], [], [], []])
    act(state, 1, "disclose", tile="bread", icon="bread")
    act(state, 0, "play_sabotage", card="Public Accusation", target=1)
    assert refused(state, 1, "disclose", tile="bread", icon="bread") == (
        "accused", "Public Accusation bars you from disclosing again this round.")


def test_only_a_disclosed_tile_can_be_taken_back(start):
    state = start(4)
    assert refused(state, 0, "take_back") == (
        "nothing_disclosed", "You have no disclosed tile to take back.")


def test_players_may_only_disclose_or_take_back_during_negotiation(start, act):
    state = start(4)
    act(state, 0, "disclose", tile="bread", icon="bread")
    everyone_ready(state, act)
    rule = "Players may only disclose or take back a disclosure during the Negotiation phase."
    assert refused(state, 0, "take_back") == ("negotiation_over", rule)
    assert refused(state, 1, "disclose", tile="bread", icon="bread") == ("negotiation_over", rule)
    assert refused(state, 1, "ready")[1] == "The Negotiation phase is over for this round."


# -- Play ----------------------------------------------------------------------------------------
def test_tiles_are_placed_only_once_everyone_is_ready(start):
    state = start(4)
    assert refused(state, 0, "play", tile="bread") == (
        "still_negotiating",
        "Tiles are placed once every player is ready; during Negotiation you may disclose one.")


def test_a_disclosed_tile_is_the_tile_played(start, act):
    state = start(4)
    act(state, 0, "disclose", tile="circus", icon="bread")
    everyone_ready(state, act)
    assert refused(state, 0, "play", tile="bread") == (
        "disclosed",
        "Your disclosed tile is the tile you play; it is already on your Disclosure card.")


def test_a_placed_tile_stays_placed(start, act):
    state = start(4)
    everyone_ready(state, act)
    act(state, 0, "play", tile="bread")
    act(state, 2, "play", tile="circus")
    assert refused(state, 0, "play", tile="circus") == (
        "already_placed", "You have already placed your tile; waiting for Bob and Di.")


def test_tiles_are_not_placed_again_after_the_reveal(start, play_round):
    state = start(4, hands=[["Monopoly"], [], [], []])
    play_round(state, {0: "bread", 1: "circus", 2: "circus", 3: "abstain"})
    assert state.phase == "after_reveal"
    assert refused(state, 1, "play", tile="bread") == (
        "tiles_revealed", "The tiles are revealed; you place a tile again next round.")


# -- Sabotage cards ------------------------------------------------------------------------------
def test_a_sabotage_card_must_be_in_the_players_hand(start):
    state = start(4, hands=[["Pickpocket"], [], [], []])
    assert refused(state, 0, "play_sabotage", card="Informant", target=1) == (
        "card_not_held", "You do not hold Informant.")
    assert refused(state, 1, "play_sabotage", card="Pickpocket", target=0) == (
        "card_not_held", "You do not hold Pickpocket.")
    assert refused(state, 0, "play_sabotage", card="Guillotine", target=1) == (
        "no_such_card", 'There is no Sabotage card "Guillotine".')
    assert refused(state, 1, "play_sabotage", target=0) == (
        "no_sabotage", "You hold no Sabotage card.")


def test_a_sabotage_card_is_played_at_its_timing(start, play_round):
    state = start(4, hands=[["Exposed Lie", "Grain Hoarding"], [], [], []])
    assert refused(state, 0, "play_sabotage", card="Exposed Lie", target=1) == (
        "wrong_timing", "Exposed Lie is played in the Scoring window, not during Negotiation.")
    play_round(state, {0: "bread", 1: "bread", 2: "circus", 3: "abstain"})
    assert state.phase == "after_reveal"
    assert refused(state, 0, "play_sabotage", card="Exposed Lie", target=1)[1] == (
        "Exposed Lie is played in the Scoring window, not in the After-Reveal window.")


def test_a_sabotage_card_needs_a_player_its_effect_can_name(start):
    state = start(4, hands=[["Informant"], [], [], []])
    assert refused(state, 0, "play_sabotage", card="Informant", target=1) == (
        "no_target", "Informant needs another player with a tile on their Disclosure card, and "
                     "there is none now.")


def test_pickpocket_takes_gold_from_another_player_who_has_some(start):
    state = start(4, hands=[["Pickpocket"], [], [], []], gold=[4, 0, 4, 4])
    assert refused(state, 0, "play_sabotage", card="Pickpocket", target=0) == (
        "own_seat", "Pickpocket names another player, not yourself.")
    assert refused(state, 0, "play_sabotage", card="Pickpocket", target=1) == (
        "bad_target", "Bob has no Gold to take.")
    assert refused(state, 0, "play_sabotage", card="Pickpocket", target=9)[1] == (
        "Pickpocket names another player who has Gold.")


def test_informant_looks_only_at_a_disclosed_tile(start, act):
    state = start(4, hands=[["Informant"], [], [], []])
    act(state, 1, "disclose", tile="bread", icon="circus")
    assert refused(state, 0, "play_sabotage", card="Informant", target=2)[1] == (
        "Cy has no tile on their Disclosure card.")


def test_a_card_that_names_nobody_has_a_null_target(start):
    state = start(4, hands=[["Forged Promise"], [], [], []])
    assert refused(state, 0, "play_sabotage", card="Forged Promise", target=1)[1] == (
        "Forged Promise names nobody, so its target is null.")


def test_grain_hoarding_names_a_tile_counting_as_bread(start, play_round):
    state = start(4, hands=[["Grain Hoarding"], [], [], []])
    play_round(state, {0: "bread", 1: "bread", 2: "circus", 3: "abstain"})
    assert refused(state, 0, "play_sabotage", card="Grain Hoarding", target=2)[1] == (
        "Cy's tile does not count as Bread.")


def test_exposed_lie_names_an_honest_discloser(start, act, play_round, pass_window):
    state = start(4, hands=[["Exposed Lie"], [], [], []])
    play_round(state, {0: "bread", 1: "bread", 3: "abstain"}, disclose={2: ("circus", "circus")})
    assert state.phase == "after_reveal"
    pass_window(state)
    assert refused(state, 0, "play_sabotage", card="Exposed Lie", target=1)[1] == (
        "Bob did not disclose honestly.")


def test_sabotage_windows_ask_one_player_at_a_time(start, play_round):
    state = start(4, hands=[["Monopoly"], ["Secret Granary"], [], []])
    play_round(state, {0: "bread", 1: "bread", 2: "circus", 3: "abstain"})
    assert refused(state, 1, "play_sabotage", card="Secret Granary", target=None) == (
        "not_your_turn", "It is not your turn; waiting for Ann.")
    assert refused(state, 1, "pass") == ("not_your_turn", "It is not your turn; waiting for Ann.")


def test_a_player_without_sabotage_cards_is_not_asked_in_the_windows(start, play_round):
    state = start(4, hands=[["Monopoly"], [], [], []])
    play_round(state, {0: "bread", 1: "bread", 2: "circus", 3: "abstain"})
    assert refused(state, 2, "pass") == (
        "no_sabotage", "You hold no Sabotage card, so the Sabotage windows do not ask you.")


def test_passing_is_only_for_the_sabotage_windows(start):
    state = start(4)
    assert refused(state, 0, "pass") == (
        "no_window", "Passing is for the After-Reveal and Scoring windows of Sabotage cards.")


# -- Gold ----------------------------------------------------------------------------------------
def test_gold_given_is_gold_the_giver_has(start):
    state = start(4, gold=[4, 0, 4, 4])
    assert refused(state, 0, "give_gold", to=1, gold=5)[1] == "You have 4 Gold; you tried 5."
    assert refused(state, 1, "give_gold", to=0, gold=1) == ("no_gold", "You have no Gold to give.")


def test_gold_is_given_to_another_player(start):
    state = start(4)
    assert refused(state, 0, "give_gold", to=0, gold=1)[1] == (
        "Gold is given to another player at this table.")


def test_gold_changes_hands_in_negotiation_and_the_windows_only(start, act):
    state = start(4)
    everyone_ready(state, act)
    assert refused(state, 0, "give_gold", to=1, gold=1) == (
        "gold_not_now", "Gold changes hands during Negotiation and the After-Reveal and Scoring "
                        "windows, not while tiles are placed.")


# -- Regulated bribery ---------------------------------------------------------------------------
def test_deals_bind_only_with_regulated_bribery(start):
    state = start(4)
    for kind, fields in (("offer_deal", {"to": 1, "gold": 1, "condition": "play", "tile": "bread",
                                         "when": "this"}),
                         ("accept_deal", {"deal": 0})):
        assert refused(state, 0, kind, **fields) == (
            "no_regulated_bribery", "This table plays without Regulated Bribery, so no deal is "
                                    "binding; Gold may still be given.")


def test_deals_are_made_during_negotiation(start, act):
    state = start(4, regulated_bribery=True)
    deal(state, act, 0, 1)
    everyone_ready(state, act)
    assert refused(state, 1, "accept_deal", deal=0) == (
        "negotiation_over", "Deals are offered and answered during the Negotiation phase, which is "
                            "over for this round.")


def test_a_deal_is_made_with_another_player_for_at_most_the_gold_that_ends_the_game(start):
    state = start(4, regulated_bribery=True)
    terms = {"condition": "play", "tile": "bread", "when": "this"}
    assert refused(state, 0, "offer_deal", to=0, gold=1, **terms)[1] == (
        "A deal is made with another player at this table.")
    assert refused(state, 0, "solicit_deal", to=1, gold=21, **terms)[1] == (
        "A deal promises at most 20 Gold, the Gold that ends the game; you tried 21.")


def test_a_deal_answer_names_a_deal_on_the_table(start, act):
    state = start(4, regulated_bribery=True)
    assert refused(state, 1, "accept_deal", deal=0) == ("no_such_deal", "There is no such deal; you sent 0.")
    assert refused(state, 1, "accept_deal") == ("no_offer", "No offer waits for your answer.")
    assert refused(state, 1, "withdraw_deal") == (
        "no_offer", "You have no unanswered offer to withdraw.")
    deal(state, act, 0, 1)
    assert refused(state, 1, "decline_deal", deal=7) == ("no_such_deal", "There is no such deal; you sent 7.")
    assert refused(state, 1, "decline_deal", deal="first")[1] == 'There is no such deal; you sent "first".'


def test_only_the_player_an_offer_is_made_to_may_answer_it(start, act):
    state = start(4, regulated_bribery=True)
    deal(state, act, 0, 1)
    deal(state, act, 3, 2)  # Cy may answer an offer, just not this one
    for seat in (2, 3):
        assert refused(state, seat, "accept_deal", deal=0) == (
            "not_offered_to_you", "Only the player an offer is made to may accept or decline it, "
                                  "and only once: the deal of 2 Gold from Ann to Bob is for Bob to answer.")
    assert refused(state, 0, "decline_deal", deal=0) == (
        "not_offered_to_you", "You proposed the deal of 2 Gold from Ann to Bob; Bob accepts or declines it.")


def test_a_solicited_bribe_is_answered_by_the_player_asked_to_pay(start, act):
    state = start(4, regulated_bribery=True)
    deal(state, act, 2, 0, kind="solicit_deal")
    assert refused(state, 2, "accept_deal", deal=0)[1] == (
        "You proposed the deal of 2 Gold from Ann to Cy; Ann accepts or declines it.")


def test_an_offer_is_answered_only_once(start, act):
    state = start(4, regulated_bribery=True)
    deal(state, act, 0, 1)
    deal(state, act, 0, 2)
    act(state, 1, "accept_deal", deal=0)
    act(state, 2, "decline_deal", deal=1)
    assert refused(state, 1, "decline_deal", deal=0) == (
        "deal_answered", "The deal of 2 Gold from Ann to Bob is already accepted, and binds Ann and Bob.")
    assert refused(state, 2, "accept_deal", deal=1) == (
        "deal_answered", "The deal of 2 Gold from Ann to Cy is already declined; only the player an "
                         "offer is made to may accept or decline it, and only once.")


def test_only_the_offerer_may_withdraw_an_offer_and_only_before_it_is_answered(start, act):
    state = start(4, regulated_bribery=True)
    deal(state, act, 0, 1)
    deal(state, act, 2, 3)  # Cy may withdraw an offer, just not Ann's
    for seat in (1, 2):
        assert refused(state, seat, "withdraw_deal", deal=0) == (
            "not_your_offer", "Only the offerer may withdraw an offer, and only before it is "
                              "answered: Ann made the deal of 2 Gold from Ann to Bob.")
    act(state, 1, "accept_deal", deal=0)
    assert refused(state, 0, "withdraw_deal", deal=0) == (
        "deal_answered", "Only the offerer may withdraw an offer, and only before it is answered: "
                         "the deal of 2 Gold from Ann to Bob is already accepted.")


def test_a_refusal_without_names_still_reads_as_a_sentence(start):
    """The core's ``message`` (no names given) writes the players as seats; the codes stay
    machine-readable."""
    state = start(4, regulated_bribery=True)
    state.apply(0, {"type": "offer_deal", "to": 1, "gold": 2, "condition": "play",
                    "tile": "bread", "when": "this"})
    with pytest.raises(IllegalAction) as caught:
        state.apply(2, {"type": "withdraw_deal", "deal": 0})
    assert caught.value.message.endswith("answered: seat 0 made the deal of 2 Gold from seat 0 to seat 1.")
    assert caught.value.as_dict()["code"] == "not_your_offer"
