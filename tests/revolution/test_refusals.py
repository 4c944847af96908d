"""The mistakes a player makes at Revolution!, each refused with the rule it breaks, in the
players' words, changing nothing."""

import pytest

from tricolore.core import IllegalAction
from tricolore.games.revolution.bids import ChipByChip
from tricolore.games.revolution.data import REMOVE, SEED_CHART

NAMES = ["Danton", "Marat", "Robespierre"]
ALL_GOLD = [{"gold": 5}, {"gold": 5}, {"gold": 5}]


def refused(state, seat, action):
    """The sentence refusing ``action``, players named; the state must not change."""
    before = state.digest()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert state.digest() == before
    return caught.value.for_names(NAMES)


def a_bid(placement):
    return {"type": "bid", "placement": placement}


# -- Bidding -------------------------------------------------------------------------------------
def test_a_currency_a_space_forbids_is_refused_naming_what_it_takes(start):
    state = start(3)
    assert refused(state, 0, a_bid({"General": {"force": 1, "blackmail": 1, "gold": 3}})) == (
        "Force may not be bid on the General; it takes only Blackmail and Gold.")
    assert refused(state, 0, a_bid({"Card": {"force": 1}, "Printer": {"blackmail": 1, "gold": 3}})) == (
        "Force may not be bid on the Card; it takes only Gold.")


def test_the_spy_forbids_blackmail_in_the_published_edition(start):
    state = start(3, edition="sjg")
    assert refused(state, 0, a_bid({"Spy": {"blackmail": 1}, "Printer": {"force": 1, "gold": 3}})) == (
        "Blackmail may not be bid on the Spy; it takes only Force and Gold.")


def test_more_than_three_gold_on_card_is_refused(start):
    state = start(3)
    assert refused(state, 0, a_bid({"Card": {"gold": 4}, "Printer": {"force": 1, "blackmail": 1}})) \
        == "At most 3 Gold may be placed on the Card, one card for each; you placed 4."


def test_more_chips_than_you_hold_are_refused(start):
    state = start(3)
    assert refused(state, 0, a_bid({"Printer": {"force": 2, "blackmail": 1, "gold": 3}})) == (
        "You placed 2 Force but hold 1: a bid uses only the chips you hold.")
    poor = start(3, chips=ALL_GOLD)
    assert refused(poor, 0, a_bid({"Printer": {"force": 1, "gold": 5}})) == (
        "You placed 1 Force but hold none: a bid uses only the chips you hold.")


def test_every_chip_must_be_placed(start):
    state = start(3)
    assert refused(state, 0, a_bid({"Printer": {"force": 1, "blackmail": 1, "gold": 2}})) == (
        "Every chip must be placed: you hold 3 Gold and placed 2.")


def test_a_bid_uses_at_most_six_spaces(start):
    state = start(3, chips=[{"gold": 7}, {"gold": 5}, {"gold": 5}])
    seven = {name: {"gold": 1} for name in ("Priest", "Aristocrat", "Merchant", "Printer",
                                            "Professor", "Spy", "Apothecary")}
    assert refused(state, 0, a_bid(seven)) == (
        "A bid may use at most 6 spaces of the Bidding Chart; this one uses 7.")


def test_an_area_is_not_a_space_on_the_bidding_chart(start):
    state = start(3, chips=ALL_GOLD)
    assert refused(state, 0, a_bid({"Fortress": {"gold": 5}})) == (
        "The Fortress is an area of the board, not a space on the Bidding Chart; the General "
        "places markers there.")


def test_the_other_editions_character_is_not_on_the_chart(start):
    assert refused(start(3, chips=ALL_GOLD), 0, a_bid({"Rogue": {"gold": 5}})) == (
        "The Rogue is not on this edition's Bidding Chart.")
    assert refused(start(3, chips=ALL_GOLD, edition="sjg"), 0, a_bid({"Card": {"gold": 3},
                                                                      "Printer": {"gold": 2}})) == (
        "The Card is not on this edition's Bidding Chart.")


def test_a_space_that_does_not_exist_is_refused_listing_the_chart(start):
    message = refused(start(3, chips=ALL_GOLD), 0, a_bid({"Guillotine": {"gold": 5}}))
    assert message.startswith("There is no space 'Guillotine' on the Bidding Chart; its spaces are "
                              "General, Captain,")
    assert message.endswith("Apothecary and Card.")


def test_a_bid_that_is_not_chips_on_spaces_is_refused(start):
    state = start(3, chips=ALL_GOLD)
    assert refused(state, 0, a_bid(5)) == (
        'A bid places chips on spaces, like {"Printer": {"gold": 2}}; you sent 5.')
    assert refused(state, 0, a_bid({"Printer": 5})).startswith(
        "The chips on the Printer must give each currency its number of chips")
    assert refused(state, 0, a_bid({"Printer": {"silver": 5}})) == (
        "'silver' is not a currency; the currencies are Force, Blackmail and Gold.")
    assert refused(state, 0, a_bid({"Printer": {"gold": True}})) == (
        "The Gold on the Printer must be a whole number of chips; you sent true.")
    assert refused(state, 0, a_bid({"Printer": {"gold": -1}})) == (
        "The Gold on the Printer must be 0 chips or more; you sent -1.")


def test_a_character_whose_area_is_full_may_still_be_bid_on(start, bid):
    state = start(3, chips=ALL_GOLD, board={"Tavern": [2, 2, 0]})
    bid(state, {0: {"Innkeeper": {"gold": 5}}})
    assert state.bids.submitted(0) is not None


def test_a_second_bid_in_a_round_is_refused_naming_who_is_still_bidding(start, bid):
    state = start(3)
    bid(state, {0: {"Printer": {"force": 1, "blackmail": 1, "gold": 3}}})
    again = a_bid({"Priest": {"force": 1, "blackmail": 1, "gold": 3}})
    assert refused(state, 0, again) == (
        "You have already placed your bid this round; the shields come down when Marat and "
        "Robespierre have bid.")
    bid(state, {1: {"Priest": {"force": 1, "blackmail": 1, "gold": 3}}})
    assert refused(state, 1, again).endswith("the shields come down when Robespierre has bid.")


def test_the_spy_is_not_used_while_players_bid(start):
    state = start(3)
    assert refused(state, 0, {"type": "spy", "area": "Tavern", "victim": 1}) == (
        "You cannot spy now; you may bid.")


# -- The chip-by-chip builder --------------------------------------------------------------------
def test_chip_by_chip_says_which_rule_refuses_a_chip():
    builder = ChipByChip(SEED_CHART, {"force": 1, "blackmail": 0, "gold": 4})
    assert builder.refusal("gold", "Printer") == (
        "the Force is placed before the Gold: chips go Force first, then Blackmail, then Gold")
    assert builder.refusal("force", "Spy") == (
        "Force may not be bid on the Spy; it takes only Blackmail and Gold")
    assert builder.refusal("blackmail", "Printer") == "no Blackmail is left to place"
    builder.place("force", "Printer")
    for _ in range(3):
        builder.place("gold", "Card")
    assert builder.refusal("gold", "Card") == (
        "at most 3 Gold may be placed on the Card, one card for each; you placed 4")
    with pytest.raises(ValueError, match=r"^At most 3 Gold may be placed on the Card"):
        builder.place("gold", "Card")


def test_chip_by_chip_refuses_a_seventh_space():
    builder = ChipByChip(SEED_CHART, {"force": 0, "blackmail": 0, "gold": 7})
    for name in ("Priest", "Aristocrat", "Merchant", "Printer", "Professor", "Spy"):
        builder.place("gold", name)
    assert builder.refusal("gold", "Apothecary") == (
        "a bid may use at most 6 spaces of the Bidding Chart; all 6 are in use")
    assert builder.refusal("gold", "Printer") is None


# -- The Spy -------------------------------------------------------------------------------------
@pytest.fixture(name="spying")
def spying_fixture(start, bid):
    """Seat 0 (Danton) has won the Spy; Marat has two markers in the Cathedral, Danton one in the
    Fortress; the Tavern is empty."""
    state = start(3, chips=ALL_GOLD, board={"Cathedral": [0, 2, 0], "Fortress": [1, 0, 0]})
    bid(state, {0: {"Spy": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Professor": {"gold": 5}}})
    assert state.phase == "spy"
    return state


def test_you_cannot_spy_on_your_own_marker(spying):
    assert refused(spying, 0, {"type": "spy", "area": "Fortress", "victim": 0}) == (
        "You cannot spy on your own marker: every marker in the Fortress is yours.")
    assert refused(spying, 0, {"type": "spy", "area": "Cathedral", "victim": 0}) == (
        "You cannot spy on your own marker.")


def test_the_spy_never_fills_an_empty_space(spying):
    assert refused(spying, 0, {"type": "spy", "area": "Tavern", "victim": 1}) == (
        "There is no marker in the Tavern to replace: the Spy never fills an empty space.")


def test_the_spy_replaces_a_marker_its_owner_has_there(spying):
    assert refused(spying, 0, {"type": "spy", "area": "Cathedral", "victim": 2}) == (
        "That player has no marker in the Cathedral to replace.")
    assert refused(spying, 0, {"type": "spy", "area": "Cathedral", "victim": 7}) == (
        "Choose an opponent who has a marker in the Cathedral.")


def test_an_area_that_does_not_exist_is_refused_listing_the_areas(spying):
    assert refused(spying, 0, {"type": "spy", "area": "Bastille", "victim": 1}) == (
        "There is no such area; the areas are Tavern, Market, Plantation, Cathedral, Harbor, "
        "Town Hall and Fortress.")


def test_only_the_spys_winner_uses_it_others_wait(spying):
    assert refused(spying, 1, {"type": "spy", "area": "Fortress", "victim": 0}) == (
        "It is not your turn; waiting for Danton.")
    assert refused(spying, 0, a_bid({"Printer": {"gold": 5}})) == (
        "You cannot bid now; you may spy or decline.")


# -- The Apothecary ------------------------------------------------------------------------------
@pytest.fixture(name="swapping")
def swapping_fixture(start, bid):
    """Danton has won the Apothecary; he has a marker in the Tavern and two in the Harbor, Marat
    one in the Market."""
    state = start(3, chips=ALL_GOLD, board={"Tavern": [1, 0, 0], "Market": [0, 1, 0],
                                            "Harbor": [2, 0, 0]})
    bid(state, {0: {"Apothecary": {"gold": 5}}, 1: {"Printer": {"gold": 5}},
                2: {"Priest": {"gold": 5}}})
    assert state.phase == "apothecary"
    return state


SWAP = {"type": "swap", "first_area": "Tavern", "first_owner": 0, "second_area": "Market",
        "second_owner": 1}


def test_the_apothecary_swaps_markers_of_two_different_players(swapping):
    assert refused(swapping, 0, {**SWAP, "second_owner": 0}) == (
        "The Apothecary swaps the markers of two different players: choose someone else's.")
    assert refused(swapping, 0, {**SWAP, "second_area": "Harbor", "second_owner": 0}) == (
        "The Apothecary swaps the markers of two different players: every marker in the Harbor "
        "belongs to the player whose marker you chose first.")


def test_the_apothecary_swaps_placed_markers_only(swapping):
    assert refused(swapping, 0, {**SWAP, "first_area": "Fortress"}) == (
        "There is no marker in the Fortress to swap.")
    assert refused(swapping, 0, {**SWAP, "first_owner": 1}) == (
        "That player has no marker in the Tavern to swap.")
    assert refused(swapping, 0, {**SWAP, "second_owner": 2}) == (
        "That player has no marker in the Market to swap.")


# -- Remove 1 Influence --------------------------------------------------------------------------
@pytest.fixture(name="removing")
def removing_fixture(start, bid):
    """Danton drew a Remove 1 Influence card; the Fortress holds markers of all three, the Town
    Hall only Danton's (his Magistrate), the Tavern none."""
    state = start(3, chips=ALL_GOLD, deck=[REMOVE], board={"Fortress": [1, 2, 1]})
    bid(state, {0: {"Card": {"gold": 1}, "Magistrate": {"gold": 4}}, 1: {"Priest": {"gold": 5}},
                2: {"Merchant": {"gold": 5}}})
    assert state.phase == "remove"
    return state


def test_a_remove_card_cannot_be_declined(removing):
    assert refused(removing, 0, {"type": "decline"}) == (
        "A Remove 1 Influence card cannot be declined: choose an opponent's marker to remove.")


def test_a_remove_card_takes_an_opponents_marker(removing):
    assert refused(removing, 0, {"type": "remove_influence", "area": "Fortress", "victim": 0}) == (
        "Remove 1 Influence takes an opponent's marker, not your own.")
    assert refused(removing, 0, {"type": "remove_influence", "area": "Town Hall", "victim": 0}) == (
        "Remove 1 Influence takes an opponent's marker: every marker in the Town Hall is yours.")
    assert refused(removing, 0, {"type": "remove_influence", "area": "Tavern", "victim": 1}) == (
        "There is no marker in the Tavern to remove.")


def test_refusals_keep_machine_readable_codes(removing):
    with pytest.raises(IllegalAction) as caught:
        removing.apply(0, {"type": "decline"})
    assert caught.value.code == "remove_is_not_optional"
    with pytest.raises(IllegalAction) as caught:
        removing.apply(0, {"type": "remove_influence", "area": "Tavern", "victim": 1})
    assert caught.value.code == "bad_remove_influence"
    with pytest.raises(IllegalAction) as caught:
        removing.apply(1, {"type": "remove_influence", "area": "Fortress", "victim": 0})
    assert caught.value.code == "not_your_turn"
