"""Revolution!, rule by rule, named after the rulebook's sections (docs/games/revolution.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tricolore
from tricolore.core import IllegalAction
from tricolore.games.revolution.data import AREAS, CARD_DECK, REMOVE, SEED_CHART, SJG_CHART
from tricolore.games.revolution.rules import area_winner, contest, strength

FULL_BUT_TAVERN = {"Tavern": [1, 1, 1], "Market": [2, 2, 1], "Plantation": [2, 2, 2],
                   "Cathedral": [2, 2, 3], "Harbor": [2, 2, 2], "Town Hall": [3, 2, 2],
                   "Fortress": [3, 3, 2]}


# -- Setup ---------------------------------------------------------------------------------------
def test_setup_one_force_one_blackmail_three_gold_each():
    state = tricolore.make("revolution", 4, seed=1)
    assert [state.holding(s) for s in range(4)] == [{"force": 1, "blackmail": 1, "gold": 3}] * 4
    assert state.support == [0] * 4 and all(sum(m) == 0 for m in state.board.values())
    assert len(state.deck) == 28 and state.deck.count(REMOVE) == 4


def test_setup_the_chart_and_the_areas_as_data():
    assert SEED_CHART[0].name == "General" and SEED_CHART[-1].name == "Card"
    assert SJG_CHART[-1].name == "Mercenary" and len(SEED_CHART) == len(SJG_CHART) == 12
    assert sum(a.spaces for a in AREAS) == 43
    assert next(a for a in AREAS if a.name == "Cathedral").support == 35


# -- Bidding -------------------------------------------------------------------------------------
def test_bidding_every_chip_must_be_placed(start):
    state = start(3)
    with pytest.raises(IllegalAction, match="Every chip must be placed: you hold 3 Gold and placed 2"):
        state.apply(0, {"type": "bid", "placement": {"Printer": {"force": 1, "blackmail": 1,
                                                                 "gold": 2}}})


def test_bidding_at_most_six_spaces(start):
    state = start(3, chips=[{"gold": 7}, {"gold": 5}, {"gold": 5}])
    seven = {name: {"gold": 1} for name in ("Priest", "Aristocrat", "Merchant", "Printer",
                                            "Professor", "Spy", "Apothecary")}
    with pytest.raises(IllegalAction, match="at most 6 spaces of the Bidding Chart; this one uses 7"):
        state.apply(0, {"type": "bid", "placement": seven})


def test_bidding_forbidden_currencies_are_refused_with_a_clear_message(start):
    state = start(3)
    with pytest.raises(IllegalAction, match="Force may not be bid on the Spy"):
        state.apply(0, {"type": "bid", "placement": {"Spy": {"force": 1},
                                                     "Printer": {"blackmail": 1, "gold": 3}}})
    with pytest.raises(IllegalAction, match="Force may not be bid on the General"):
        state.apply(0, {"type": "bid", "placement": {"General": {"force": 1},
                                                     "Printer": {"blackmail": 1, "gold": 3}}})
    sjg = start(3, edition="sjg")
    with pytest.raises(IllegalAction, match="Blackmail may not be bid on the Spy"):
        sjg.apply(0, {"type": "bid", "placement": {"Spy": {"blackmail": 1},
                                                   "Printer": {"force": 1, "gold": 3}}})
    assert state.digest() == start(3).digest()


def test_bidding_at_most_three_gold_on_card_and_only_gold(start):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}])
    with pytest.raises(IllegalAction, match="At most 3 Gold may be placed on the Card"):
        state.apply(0, {"type": "bid", "placement": {"Card": {"gold": 4}, "Printer": {"gold": 1}}})
    state = start(3)
    with pytest.raises(IllegalAction, match="Blackmail may not be bid on the Card"):
        state.apply(0, {"type": "bid", "placement": {"Card": {"blackmail": 1, "gold": 3},
                                                     "Printer": {"force": 1}}})


def test_bidding_is_a_simultaneous_secret_move_revealed_together(start, bid):
    state = start(3)
    prompts = state.pending()
    assert set(prompts) == {0, 1, 2} and all(p.secret for p in prompts.values())
    bid(state, {0: {"Printer": {"force": 1, "blackmail": 1, "gold": 3}}})
    assert state.view(0)["you"]["sealed_bid"] == {"Printer": {"blackmail": 1, "force": 1, "gold": 3}}
    assert state.view(1)["you"]["sealed_bid"] is None
    assert "Printer" not in str(state.view(1)["revealed"]) and state.view(1)["bids"]["chosen"] == [0]
    bid(state, {1: {"Priest": {"force": 1, "blackmail": 1, "gold": 3}},
                2: {"Merchant": {"force": 1, "blackmail": 1, "gold": 3}}})
    revealed = [e for e in state.events_for(None) if e["kind"] == "bids_revealed"]
    assert [list(placement) for placement in revealed[0]["bids"]] == [["Printer"], ["Priest"],
                                                                      ["Merchant"]]
    assert state.view(1)["revealed"][2] == {"Merchant": {"blackmail": 1, "force": 1, "gold": 3}}


# -- Determining control -------------------------------------------------------------------------
def test_determining_control_one_force_and_one_gold_beat_one_force(start, bid):
    state = start(3, chips=[{"force": 1, "gold": 1}, {"force": 1}, {"gold": 1}])
    bid(state, {0: {"Printer": {"force": 1, "gold": 1}}, 1: {"Printer": {"force": 1}},
                2: {"Priest": {"gold": 1}}})
    printer = next(r for r in state.view(0)["resolved"] if r["space"] == "Printer")
    assert printer["winner"] == 0 and state.support[0] == 10


def test_determining_control_force_beats_any_blackmail_and_gold():
    assert contest({0: {"force": 1}, 1: {"blackmail": 5, "gold": 9}}) == 0
    assert contest({0: {"blackmail": 1}, 1: {"gold": 9}}) == 0
    assert contest({0: {"gold": 3}, 1: {"gold": 2}}) == 0
    assert contest({0: {"force": 1, "blackmail": 1}, 1: {"force": 1, "gold": 3}}) == 0
    assert contest({0: {"gold": 3 << 20}, 1: {"blackmail": 1}}) == 1  # however much Gold


def test_determining_control_a_full_tie_gives_the_space_to_nobody(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}])
    bid(state, {0: {"Printer": {"gold": 2}, "Priest": {"gold": 3}},
                1: {"Printer": {"gold": 2}, "Merchant": {"gold": 3}},
                2: {"Aristocrat": {"gold": 5}}})
    printer = next(r for r in state.view(0)["resolved"] if r["space"] == "Printer")
    assert printer["winner"] is None and state.support[0] == 6 and state.support[1] == 3


def test_winning_chips_are_paid_and_the_others_return_in_the_seed_edition(start, bid):
    state = start(3, chips=[{"force": 1, "gold": 1}, {"force": 1, "gold": 1}, {"gold": 2}])
    bid(state, {0: {"Printer": {"force": 1, "gold": 1}}, 1: {"Printer": {"force": 1},
                                                             "Professor": {"gold": 1}},
                2: {"Professor": {"gold": 2}}})
    # next round: seat 1's Force came back (and 4 Gold tops it up); seat 0 paid everything
    assert state.holding(1) == {"force": 1, "blackmail": 0, "gold": 4}
    assert state.holding(0) == {"force": 0, "blackmail": 0, "gold": 5}
    assert state.holding(2) == {"force": 0, "blackmail": 2, "gold": 3}  # the Professor's reward


def test_losing_chips_are_lost_in_the_published_edition(start, bid):
    state = start(3, chips=[{"force": 1, "gold": 1}, {"force": 1}, {"gold": 2}], edition="sjg")
    bid(state, {0: {"Printer": {"force": 1, "gold": 1}}, 1: {"Printer": {"force": 1}},
                2: {"Priest": {"gold": 2}}})
    assert state.holding(1) == {"force": 0, "blackmail": 0, "gold": 5}


# -- Resolving actions ---------------------------------------------------------------------------
def test_resolving_in_chart_order_support_chips_and_influence(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}])
    bid(state, {0: {"Aristocrat": {"gold": 5}}, 1: {"Merchant": {"gold": 5}},
                2: {"Innkeeper": {"gold": 5}}})
    assert [r["space"] for r in state.view(0)["resolved"]] == [s.name for s in SEED_CHART]
    assert state.support == [5, 3, 3]
    assert state.board["Plantation"] == [1, 0, 0] and state.board["Market"] == [0, 1, 0]
    assert state.board["Tavern"] == [0, 0, 1]
    assert state.holding(0)["gold"] == 5 and state.holding(1)["gold"] == 5  # 3 and 5 won, topped up
    assert state.holding(2) == {"force": 0, "blackmail": 1, "gold": 4}


def test_influence_in_a_full_area_places_nothing_but_keeps_every_other_benefit(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], board={"Tavern": [2, 2, 0]})
    bid(state, {0: {"Printer": {"gold": 5}}, 1: {"Priest": {"gold": 5}},
                2: {"Innkeeper": {"gold": 5}}})
    assert state.board["Tavern"] == [2, 2, 0] and state.support[2] == 3
    assert state.holding(2)["blackmail"] == 1
    assert any(e["kind"] == "area_full" for e in state.events_for(None))


def test_spy_replaces_an_opponents_marker_never_an_empty_space(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], board={"Cathedral": [0, 2, 0]})
    bid(state, {0: {"Spy": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Professor": {"gold": 5}}})
    assert state.phase == "spy" and list(state.pending()) == [0]
    assert state.legal_actions(0).family("spy").params["area"].options == ("Cathedral",)
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "spy", "area": "Tavern", "victim": 1})
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "spy", "area": "Cathedral", "victim": 2})
    state.apply(0, {"type": "spy", "area": "Cathedral", "victim": 1})
    assert state.board["Cathedral"] == [1, 1, 0]


def test_spy_with_no_opponent_marker_on_the_board_does_nothing(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}])
    bid(state, {0: {"Spy": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Professor": {"gold": 5}}})
    assert state.phase == "bid" and state.round == 2


def test_apothecary_swaps_two_placed_markers(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}],
                  board={"Tavern": [1, 0, 0], "Market": [0, 1, 0]})
    bid(state, {0: {"Apothecary": {"gold": 5}}, 1: {"Printer": {"gold": 5}},
                2: {"Priest": {"gold": 5}}})
    assert state.phase == "apothecary"
    with pytest.raises(IllegalAction):  # two markers of the same player
        state.apply(0, {"type": "swap", "first_area": "Tavern", "first_owner": 0,
                        "second_area": "Tavern", "second_owner": 0})
    state.apply(0, {"type": "swap", "first_area": "Tavern", "first_owner": 0,
                    "second_area": "Market", "second_owner": 1})
    assert state.board["Tavern"] == [0, 1, 0] and state.board["Market"] == [1, 0, 0]


def test_apothecary_may_be_declined(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}],
                  board={"Tavern": [1, 0, 0], "Market": [0, 1, 0]})
    bid(state, {0: {"Apothecary": {"gold": 5}}, 1: {"Printer": {"gold": 5}},
                2: {"Priest": {"gold": 5}}})
    state.apply(0, {"type": "decline"})
    assert state.board["Tavern"] == [1, 0, 0] and state.round == 2


# -- Cards ---------------------------------------------------------------------------------------
def test_cards_one_card_per_gold_support_and_currency(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}],
                  deck=["support_1", "force_1", "gold_4", "support_5"])
    bid(state, {0: {"Card": {"gold": 3}, "Printer": {"gold": 2}}, 1: {"Priest": {"gold": 5}},
                2: {"Merchant": {"gold": 5}}})
    assert [d["card"] for d in state.drawn] == ["support_5", "gold_4", "force_1"]
    assert state.support[0] == 10 + 5 and state.holding(0) == {"force": 1, "blackmail": 0, "gold": 4}
    assert state.discard == ["support_5", "gold_4", "force_1"]


def test_cards_the_deck_is_reshuffled_when_empty(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], deck=["support_1"])
    state.discard = ["support_3", "support_3"]
    bid(state, {0: {"Card": {"gold": 2}, "Printer": {"gold": 3}}, 1: {"Priest": {"gold": 5}},
                2: {"Merchant": {"gold": 5}}})
    assert [d["card"] for d in state.drawn] == ["support_1", "support_3"]
    assert any(e["kind"] == "deck_reshuffled" for e in state.events_for(None))


def test_cards_remove_1_influence_the_drawer_chooses(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], deck=[REMOVE],
                  board={"Fortress": [0, 2, 1]})
    bid(state, {0: {"Card": {"gold": 1}, "Magistrate": {"gold": 4}}, 1: {"Priest": {"gold": 5}},
                2: {"Merchant": {"gold": 5}}})
    assert state.phase == "remove" and list(state.pending()) == [0]
    assert state.legal_actions(0).kinds == ("remove_influence",)  # not optional
    state.apply(0, {"type": "remove_influence", "area": "Fortress", "victim": 2})
    assert state.board["Fortress"] == [0, 2, 0] and state.board["Town Hall"] == [1, 0, 0]


def test_cards_are_drawn_in_turn_from_a_first_player_who_moves_each_round(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}],
                  deck=["support_1"] * 3 + ["support_3"] * 3)
    bid(state, {s: {"Card": {"gold": 1}, "Printer": {"gold": 4}} for s in range(3)})
    assert [d["seat"] for d in state.drawn] == [0, 1, 2]
    bid(state, {s: {"Card": {"gold": 1}, "Printer": {"gold": 4}} for s in range(3)})
    assert [d["seat"] for d in state.drawn] == [1, 2, 0]


# -- Starting a new round ------------------------------------------------------------------------
def test_starting_a_new_round_chips_are_shown_then_topped_up_to_five_with_gold(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}])
    bid(state, {0: {"Merchant": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Priest": {"gold": 5}}})
    round_two = [e for e in state.events_for(None) if e["kind"] == "round_started"][-1]
    assert round_two["chips"][0] == {"force": 0, "blackmail": 0, "gold": 5}  # the Merchant's 5 Gold
    assert round_two["chips"][1] == {"force": 0, "blackmail": 0, "gold": 0}
    assert state.holding(1) == {"force": 0, "blackmail": 0, "gold": 5}
    topped = [e for e in state.events_for(None) if e["kind"] == "topped_up"]
    assert {e["seat"] for e in topped[-2:]} == {1, 2}


# -- Ending the game -----------------------------------------------------------------------------
def test_ending_the_game_when_every_influence_space_is_filled(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], board=FULL_BUT_TAVERN,
                  deck=["support_1"] * 3)
    bid(state, {0: {"Innkeeper": {"gold": 2}, "Card": {"gold": 3}}, 1: {"Printer": {"gold": 5}},
                2: {"Priest": {"gold": 5}}})
    assert state.is_over() and state.end_reason == "board_full"
    assert len(state.drawn) == 3  # resolved all the way down to Card first


def test_ending_the_game_a_remove_card_drawn_in_the_last_round_keeps_it_going(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], board=FULL_BUT_TAVERN,
                  deck=["support_1", "support_1", REMOVE])
    bid(state, {0: {"Innkeeper": {"gold": 2}, "Card": {"gold": 3}}, 1: {"Printer": {"gold": 5}},
                2: {"Priest": {"gold": 5}}})
    state.apply(0, {"type": "remove_influence", "area": "Fortress", "victim": 1})
    assert not state.is_over() and state.round == 2 and state.phase == "bid"


def test_ending_the_game_blue_with_three_markers_wins_the_cathedral():
    red, green, blue = 0, 1, 2
    assert area_winner({red: 2, green: 2, blue: 3}) == blue
    assert area_winner({red: 2, green: 2, blue: 1}) is None  # a tie for most awards nobody


def test_ending_the_game_area_support_is_added_to_the_track(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], board=FULL_BUT_TAVERN,
                  deck=["support_1"] * 3)
    bid(state, {0: {"Innkeeper": {"gold": 2}, "Card": {"gold": 3}}, 1: {"Printer": {"gold": 5}},
                2: {"Priest": {"gold": 5}}})
    result = state.result()
    # Tavern 2-1-1 (seat 0: 20), Market 2-2-1 tied, Plantation and Harbor tied, Cathedral seat 2
    # (35), Town Hall seat 0 (45), Fortress 3-3-2 tied
    assert result.breakdown[0]["areas"] == {"Tavern": 20, "Town Hall": 45}
    assert result.breakdown[2]["areas"] == {"Cathedral": 35}
    assert result.scores == (3 + 3 + 65, 10, 6 + 35)
    assert result.winners == {0}


def test_ending_the_game_equal_support_shares_the_win(start):
    state = start(3)
    state.support = [7, 7, 3]
    assert state.result().winners == {0, 1}


# -- The published edition -----------------------------------------------------------------------
def test_published_edition_has_rogue_and_mercenary_and_no_cards(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], edition="sjg")
    assert state.deck == [] and "Card" not in [s["name"] for s in state.view(0)["chart"]]
    bid(state, {0: {"Rogue": {"gold": 5}}, 1: {"Mercenary": {"gold": 5}}, 2: {"Priest": {"gold": 5}}})
    assert state.holding(0) == {"force": 0, "blackmail": 2, "gold": 3}
    assert state.holding(1) == {"force": 1, "blackmail": 0, "gold": 4} and state.support[1] == 3


def test_published_edition_scores_leftover_chips_five_three_one(start):
    state = start(3, edition="sjg")
    state.set_holding(0, {"force": 1, "blackmail": 2, "gold": 3})
    assert state.result().breakdown[0]["leftover_chips"] == 5 + 6 + 3
    assert start(3).result().breakdown[0]["leftover_chips"] == 0


def test_published_edition_bank_limits_rewards(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], edition="sjg")
    state.bank["force"] = 0
    bid(state, {0: {"General": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Priest": {"gold": 5}}})
    assert state.holding(0)["force"] == 0 and state.board["Fortress"][0] == 1


def test_published_edition_twenty_five_markers_per_player(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], edition="sjg")
    state.markers_left[0] = 0
    bid(state, {0: {"General": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Priest": {"gold": 5}}})
    assert state.board["Fortress"][0] == 0 and state.holding(0)["force"] == 1


def test_two_players_may_play(start, bid):
    state = start(2, chips=[{"gold": 5}, {"gold": 5}])
    bid(state, {0: {"Printer": {"gold": 5}}, 1: {"Priest": {"gold": 5}}})
    assert state.support == [10, 6]


def test_determinize_resamples_other_players_sealed_bids_and_the_deck(start, bid):
    import random

    state = start(3)
    bid(state, {0: {"Printer": {"force": 1, "blackmail": 1, "gold": 3}},
                1: {"Priest": {"force": 1, "blackmail": 1, "gold": 3}}})
    rng = random.Random(0)
    twins = [state.determinize(0, rng) for _ in range(10)]
    assert all(t.bids.submitted(0) == state.bids.submitted(0) for t in twins)
    assert len({repr(t.bids.submitted(1)) for t in twins}) > 1
    assert len({tuple(t.deck) for t in twins}) > 1
    assert all(sorted(t.deck) == sorted(state.deck) for t in twins)


@pytest.mark.slow
def test_conformance_of_the_published_edition():
    from tricolore.core.conformance import check_game

    report = check_game(tricolore.get_game("revolution"), 4, range(100), options={"edition": "sjg"})
    assert report.games == 100 and report.refusals > 0


# -- What stays on the table ---------------------------------------------------------------------
def test_the_view_keeps_the_winners_of_past_rounds(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}], deck=["support_1", "support_3"])
    bid(state, {0: {"Printer": {"gold": 5}}, 1: {"Priest": {"gold": 5}},
                2: {"Merchant": {"gold": 3}, "Card": {"gold": 2}}})
    bid(state, {0: {"Priest": {"gold": 5}}, 1: {"Printer": {"gold": 5}},
                2: {"Merchant": {"gold": 5}}})
    past = state.view(1)["past_rounds"]
    names = [s.name for s in SEED_CHART]
    assert [r["round"] for r in past] == [1, 2]
    first = dict(zip(names, past[0]["winners"], strict=True))
    assert (first["Printer"], first["Priest"], first["Merchant"], first["General"]) == (0, 1, 2, None)
    assert past[0]["cards"] == [{"seat": 2, "card": "support_3"}, {"seat": 2, "card": "support_1"}]
    second = dict(zip(names, past[1]["winners"], strict=True))
    assert (second["Printer"], second["Priest"]) == (1, 0) and past[1]["cards"] == []
    assert state.view(None)["past_rounds"] == past  # public: every seat and spectators see it


def test_the_winners_of_past_rounds_survive_the_next_reveal(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}])
    bid(state, {0: {"Printer": {"gold": 5}}, 1: {"Priest": {"gold": 5}}, 2: {"Merchant": {"gold": 5}}})
    bid(state, {0: {"Priest": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Merchant": {"gold": 5}}})
    bid(state, {0: {"General": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Merchant": {"gold": 5}}})
    printer = [s.name for s in SEED_CHART].index("Printer")
    assert [r["winners"][printer] for r in state.view(2)["past_rounds"]] == [0, 1, 1]


# -- Chance --------------------------------------------------------------------------------------
def test_chance_a_scripted_shuffle_orders_the_deck_and_cards_are_drawn_from_its_end():
    order = sorted(CARD_DECK)
    for face in ("gold_4", "support_3", "support_1"):  # the last three, drawn last to first
        order.remove(face)
        order.append(face)
    state = tricolore.make("revolution", 3, seed=1, chance={"shuffle": [order]})
    assert state.deck == order
    for seat in range(3):
        state.apply(seat, {"type": "bid", "placement": {"Card": {"gold": 1}, "Printer": {
            "force": 1, "blackmail": 1, "gold": 2}}})
    assert state.past_rounds[0]["cards"] == [{"seat": 0, "card": "support_1"},
                                             {"seat": 1, "card": "support_3"},
                                             {"seat": 2, "card": "gold_4"}]


def test_chance_the_published_edition_draws_nothing():
    state = tricolore.make("revolution", 3, seed=1, chance={"shuffle": []}, options={"edition": "sjg"})
    assert state.rng.drawn == {}


@given(st.dictionaries(st.integers(0, 5), st.fixed_dictionaries({}, optional={
    c: st.integers(0, 40) | st.integers(0, 1 << 22) for c in ("force", "blackmail", "gold")}),
    min_size=1, max_size=6))
def test_determining_control_the_strongest_bid_by_force_then_blackmail_then_gold_wins(bids):
    ranked = sorted(((strength(chips), seat) for seat, chips in bids.items()), reverse=True)
    best = ranked[0][0]
    tied = [seat for value, seat in ranked if value == best]
    expected = tied[0] if len(tied) == 1 else None
    assert contest(bids) == expected
