"""Culottes, rule by rule, named after the rulebook's steps (docs/games/culottes.md)."""

import random

import pytest

import tricolore
from tricolore.core import IllegalAction
from tricolore.core.conformance import random_play
from tricolore.games.culottes.book import BASTILLE, PRIVILEGED, SANS_CULOTTE
from tricolore.games.culottes.data import CITIZEN_NAMES

SC, PR = SANS_CULOTTE, PRIVILEGED
REV, GRAB = "revolutionary", "grabber"


def vote(state, citizen, side, cakes):
    state.apply(state.current, {"type": "cake_vote", "citizen": citizen, "side": side, "cakes": cakes})


# -- How to start ---------------------------------------------------------------------------------
def test_setup_citizen_sheets_half_sans_culotte_half_privileged_at_least_two_per_player():
    state = tricolore.make("culottes", 5, seed=11)
    assert len(state.sheets) == 10
    assert state.sheets.count(SC) == state.sheets.count(PR) == 5
    assert [len(h) for h in state.holdings] == [1] * 5


def test_setup_each_first_citizen_has_20_cakes_and_a_name():
    state = tricolore.make("culottes", 4, seed=2)
    assert [c.cakes for c in state.citizens] == [20] * 4
    assert len({c.name for c in state.citizens}) == 4


def test_setup_secret_role_choice_is_simultaneous_and_hidden(start):
    state = tricolore.make("culottes", 3, seed=0)
    assert sorted(state.pending()) == [0, 1, 2]
    assert all(p.secret for p in state.pending().values())
    state.apply(1, {"type": "choose_role", "role": GRAB, "name": "Danton"})
    assert state.view(0)["role_choice"]["chosen"] == [1]
    assert "grabber" not in str(state.view(0)) and "Danton" not in str(state.view(0))
    assert state.view(1)["you"]["role"] == GRAB
    assert state.view(1)["you"]["sealed_name"] == "Danton" and state.view(0)["you"]["sealed_name"] is None
    with pytest.raises(IllegalAction, match="already chosen your role"):
        state.apply(1, {"type": "choose_role", "role": REV})


def test_setup_citizen_names_must_differ():
    state = tricolore.make("culottes", 3, seed=0)
    state.apply(0, {"type": "choose_role", "role": REV, "name": "Danton"})
    with pytest.raises(IllegalAction, match="already taken"):
        state.apply(1, {"type": "choose_role", "role": REV, "name": "danton"})


def test_setup_start_player_by_option_or_drawn():
    assert tricolore.make("culottes", 4, seed=0, first_player=2).current == 2
    assert {tricolore.make("culottes", 4, seed=s).first_player for s in range(40)} == {0, 1, 2, 3}


def test_chance_is_drawn_in_the_order_the_doc_gives():
    stack = [PR, SC, PR, SC, SC, PR]
    names = [n for n in CITIZEN_NAMES if n != "Danton"] + ["Danton"]
    state = tricolore.make("culottes", 3, seed=0, chance={"shuffle": [stack, names], "randrange": [2],
                                                          "randint": [6]})
    assert state.sheets == stack and state.citizens[0].name == "Danton" and state.first_player == 2
    odd = tricolore.make("culottes", 3, seed=0, citizen_sheets_per_player=3, chance={"choice": [PR]})
    assert (odd.sheets.count(PR), odd.sheets.count(SC)) == (5, 4)
    for seat in range(3):
        state.apply(seat, {"type": "choose_role", "role": REV})
    vote(state, 0, SC, 1)
    assert state.last_roll == 6 and state.citizens[0].cap


# -- Turn steps -----------------------------------------------------------------------------------
def test_step1_pass_skips_the_citizen(start):
    state = start()
    state.apply(0, {"type": "pass"})
    assert state.phase == "recruit"


def test_step1_emigrated_citizen_may_say_vive_la_revolution(start, finish_turn):
    state = start()
    state.apply(0, {"type": "emigrate"})
    finish_turn(state)
    for _ in range(2):
        finish_turn(state)
    assert state.current == 0
    assert state.legal_actions(0).kinds[:2] == ("vive_la_revolution", "pass")
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "buy_cockade"})
    state.apply(0, {"type": "vive_la_revolution"})
    assert not state.citizens[0].emigrated
    state.apply(0, {"type": "buy_cockade"})
    assert state.citizens[0].cockades == 1


def test_step2_buy_at_most_one_cockade_per_citizen_per_turn(start):
    state = start()
    state.apply(0, {"type": "buy_cockade"})
    with pytest.raises(IllegalAction, match="already bought a cockade this turn"):
        state.apply(0, {"type": "buy_cockade"})


def test_step3_donate_cakes_to_the_bastille(start):
    state = start()
    state.apply(0, {"type": "donate", "cakes": 7})
    assert (state.citizens[0].cakes, state.bastille.cakes, state.bastille.donated) == (13, 7, 7)
    with pytest.raises(IllegalAction, match="already donated this turn"):
        state.apply(0, {"type": "donate", "cakes": 1})


def test_steps_are_taken_in_order(start):
    state = start()
    state.apply(0, {"type": "donate", "cakes": 1})
    with pytest.raises(IllegalAction, match="cockades are bought before that, at step 2"):
        state.apply(0, {"type": "buy_cockade"})


def test_step4_cake_vote_places_a_scale_and_writes_the_book(start):
    state = start()
    vote(state, 1, PR, 3)
    assert state.citizens[1].status == "scale"
    assert state.citizens[0].cakes == 17
    assert state.view(None)["book"] == [{"row": 1, "voter": 0, "citizen": 1, "cakes": 3,
                                         "side": PR, "turn": 1, "closing": None}]
    assert state.view(None)["citizens"][1]["scales"] == {SC: 0, PR: 3}


def test_step4_cannot_vote_more_cakes_than_the_citizen_has(start):
    state = start()
    name = state.citizens[0].name
    with pytest.raises(IllegalAction) as exc:
        vote(state, 1, PR, 25)
    assert exc.value.message == f"{name} has 20 cakes; you tried 25."
    assert state.citizens[0].cakes == 20


def test_step4_die_5_or_6_closes_the_trial(start):
    for roll, closes in [(4, False), (5, True), (6, True)]:
        state = start(rolls=[roll])
        vote(state, 1, SC, 2)
        assert state.last_roll == roll
        assert (state.citizens[1].status == "cap") == closes


def test_step4_cap_is_turned_into_a_scale(start, finish_turn):
    state = start(rolls=[6])
    vote(state, 1, SC, 2)
    assert state.citizens[1].status == "cap"
    finish_turn(state)
    vote(state, 1, PR, 1)
    assert state.citizens[1].status == "scale"
    assert state.book.scales(1) == {SC: 0, PR: 1}


def test_step4_a_citizen_may_vote_on_itself(start):
    state = start(rolls=[5])
    vote(state, 0, SC, 4)
    assert state.citizens[0].status == "cap"
    assert state.citizens[0].cakes == 20


def test_step5_verdict_and_rewards_through_the_book(start, finish_turn):
    # Seat 2 votes sans-culotte 1, seat 0 privileged 2, then seat 1 privileged 1 and rolls a 6.
    state = start(rolls=[1, 1, 6])
    state.current = 2
    state._start_turn()
    state.changed()
    vote(state, 1, SC, 1)
    finish_turn(state)
    vote(state, 1, PR, 2)
    finish_turn(state)
    vote(state, 1, PR, 1)
    assert state.citizens[1].status == "none"
    # W = 3 privileged, L = 1, the Bastille votes 2. Weights: Bastille 2 and seat 0 2 (the Bastille
    # first on a tie), seat 1 1. Shares 0.4, 0.4, 0.2 all round to 0: the lost cake is a leftover.
    closing = state.closings[-1]
    assert closing["verdict"] == PR and closing["bastille_vote"] == 2
    assert [(r["voter"], r["returned"], r["reward"]) for r in closing["rewards"]] == [
        (BASTILLE, 0, 1), (0, 2, 0), (1, 1, 0)]
    assert (state.citizens[0].cakes, state.citizens[1].cakes, state.citizens[2].cakes) == (20, 20, 19)
    assert state.bastille.ledger() == {"cakes": 1, "donated": 0, "from_verdicts": 1, "distributed": 0}


def test_step6_emigrate_ends_the_citizens_turn(start):
    state = start()
    state.apply(0, {"type": "emigrate"})
    assert state.citizens[0].emigrated and state.phase == "recruit"


def test_step7_each_citizen_in_sheet_order(start, finish_turn):
    state = start()
    state.apply(0, {"type": "pass"})
    state.apply(0, {"type": "recruit"})
    finish_turn(state)
    finish_turn(state)
    assert state.current == 0 and state.view(0)["current_citizen"] == 0
    state.apply(0, {"type": "pass"})
    assert state.view(0)["current_citizen"] == 3


def test_step8_recruit_gets_starting_cakes_and_first_plays_next_turn(start):
    state = start()
    state.apply(0, {"type": "pass"})
    state.apply(0, {"type": "recruit", "name": "Gracchus Babeuf"})
    recruit = state.citizens[3]
    assert (recruit.name, recruit.cakes, recruit.owner, recruit.recruited) == ("Gracchus Babeuf", 20, 0, True)
    assert state.current == 1


def test_step8_revolutionary_recruit_has_the_nature_on_its_flap(start):
    state = start(roles=[REV, REV, REV], natures=[SC, SC, SC])
    state.apply(0, {"type": "pass"})
    state.sheets[state.next_sheet] = PR
    state.apply(0, {"type": "recruit"})
    assert state.view(0)["you"]["citizens"]["3"] == {"nature": PR, "puppet": False}


def test_step8_grabber_recruit_is_a_puppet_of_the_first_sheets_nature(start):
    state = start(roles=[GRAB, REV, REV], natures=[PR, SC, SC])
    state.apply(0, {"type": "pass"})
    state.sheets[state.next_sheet] = SC
    state.apply(0, {"type": "recruit"})
    assert state.view(0)["you"]["citizens"]["3"] == {"nature": PR, "puppet": True}
    assert "puppet" not in str(state.view(1)["citizens"][3])
    assert "3" not in state.view(1)["you"]["citizens"]


def test_step8_at_most_one_recruit_per_turn(start):
    state = start()
    state.apply(0, {"type": "pass"})
    state.apply(0, {"type": "recruit"})
    assert state.current == 1


def test_step9_bastille_cakes_one_per_capped_citizen_from_the_players_left(start, finish_turn):
    state = start(players=4)
    for c in (0, 2, 3):
        state.citizens[c].cap = True
    state.bastille.receive_donation(2)
    finish_turn(state)
    # Seat 0's turn: distribution starts with seat 1 (no cap), then seat 2, seat 3; seat 0 is last.
    assert [c.bastille_cakes for c in state.citizens] == [0, 0, 1, 1]
    assert state.bastille.cakes == 0 and state.bastille.distributed == 2


def test_step9_citizen_on_trial_gets_no_bastille_cake(start, finish_turn):
    state = start()
    state.citizens[1].cap = True
    state.bastille.receive_donation(5)
    vote(state, 1, SC, 1)
    finish_turn(state)
    assert state.citizens[1].bastille_cakes == 0 and state.bastille.cakes == 5


def test_step9_emigrants_option(start, finish_turn):
    for allowed, expected in [(True, 1), (False, 0)]:
        state = start(emigrants_get_bastille_cakes=allowed)
        state.citizens[1].cap = True
        state.citizens[1].emigrated = True
        state.bastille.receive_donation(1)
        finish_turn(state)
        assert state.citizens[1].bastille_cakes == expected


def test_step10_the_player_on_the_left_plays_next(start, finish_turn):
    state = start()
    finish_turn(state)
    assert state.current == 1 and state.view(None)["turn"] == 2


# -- Game end -------------------------------------------------------------------------------------
def test_game_end_when_the_last_citizen_emigrates(start):
    state = start()
    for _ in range(3):
        state.apply(state.current, {"type": "emigrate"})
        if not state.is_over():
            state.apply(state.current, {"type": "pass"})
    assert state.is_over()
    assert state.end_reason == "every citizen has emigrated"


def test_game_end_all_agree_then_each_plays_one_last_turn(start, finish_turn):
    state = start()
    state.apply(1, {"type": "agree_end", "agree": True})
    state.apply(2, {"type": "agree_end", "agree": True})
    state.apply(0, {"type": "agree_end", "agree": True})
    assert state.end_agreed
    finish_turn(state)  # the turn in progress
    for _ in range(2):
        finish_turn(state)
        assert not state.is_over()
    finish_turn(state)
    assert state.is_over()


def test_agreement_can_be_withdrawn_until_everyone_agrees(start):
    state = start()
    state.apply(1, {"type": "agree_end", "agree": True})
    state.apply(1, {"type": "agree_end", "agree": False})
    state.apply(2, {"type": "agree_end", "agree": True})
    state.apply(0, {"type": "agree_end", "agree": True})
    assert not state.end_agreed


def test_max_rounds_option_ends_the_game(start, finish_turn):
    state = start(max_rounds=2)
    for _ in range(6):
        finish_turn(state)
    assert state.is_over() and state.rounds_completed == 2


def test_open_scales_go_back_to_their_voters_at_the_end(start):
    state = start(max_rounds=1)
    vote(state, 1, PR, 5)
    while not state.is_over():
        state.apply(state.current, {"type": "pass"})
    assert state.citizens[0].cakes == 20
    assert state.citizens[1].status == "none"


def test_final_verdicts_option_closes_open_trials(start):
    state = start(max_rounds=1, final_verdicts=True)
    vote(state, 1, PR, 5)
    while not state.is_over():
        state.apply(state.current, {"type": "pass"})
    assert state.closings[-1]["verdict"] == PR
    assert state.citizens[0].cakes == 20


# -- Scoring --------------------------------------------------------------------------------------
def test_scoring_grabber_earns_cakes_minus_20_per_citizen_summed(start):
    state = start(roles=[GRAB, REV, REV], natures=[SC, SC, PR], max_rounds=1)
    state.citizens[0].cakes = 27
    state.apply(0, {"type": "pass"})
    state.apply(0, {"type": "recruit"})
    state.citizens[3].cakes = 18
    while not state.is_over():
        state.apply(state.current, {"type": "pass"})
    b = state.result().breakdown[0]
    assert [c["cakes_earned"] for c in b["citizens"]] == [7, -2]
    assert b["score"] == 5 and b["recruit_cost"] == 0


def test_scoring_revolutionary_counts_bastille_cakes_to_true_natures(start):
    state = start(roles=[REV, GRAB, REV], natures=[SC, SC, PR], max_rounds=1)
    state.citizens[0].bastille_cakes, state.citizens[1].bastille_cakes = 4, 3
    state.citizens[2].bastille_cakes = 2
    while not state.is_over():
        state.apply(state.current, {"type": "pass"})
    r = state.result()
    assert r.breakdown[0]["bastille_to_sans_culottes"] == 7
    assert r.breakdown[0]["bastille_to_privileged"] == 2
    assert r.scores[0] == 5 and r.scores[2] == 5


def test_scoring_revolutionary_best_citizen_minus_recruits(start):
    state = start(roles=[REV, REV, REV], natures=[SC, SC, SC], max_rounds=2)
    state.apply(0, {"type": "buy_cockade"})
    state.apply(0, {"type": "pass"})
    state.sheets[state.next_sheet] = PR
    state.apply(0, {"type": "recruit"})
    while not state.is_over():
        state.apply(state.current, {"type": "pass"})
    b = state.result().breakdown[0]
    assert [c["score"] for c in b["citizens"]] == [-1, 0]
    assert b["combined"] == "best" and b["recruit_cost"] == 1 and b["score"] == -1


def test_scoring_cockades_cost_1_for_sans_culottes_3_for_privileged(start, finish_turn):
    state = start(roles=[GRAB, GRAB, REV], natures=[SC, PR, SC], max_rounds=1)
    state.apply(0, {"type": "buy_cockade"})
    finish_turn(state)
    state.apply(1, {"type": "buy_cockade"})
    while not state.is_over():
        state.apply(state.current, {"type": "pass"})
    r = state.result()
    assert (r.scores[0], r.scores[1]) == (-1, -3)


def test_scoring_highest_score_wins_and_ties_share(start):
    state = start(max_rounds=1)
    while not state.is_over():
        state.apply(state.current, {"type": "pass"})
    assert state.result().winners == {0, 1, 2}


# -- At any time ----------------------------------------------------------------------------------
def test_cake_transfers_between_citizens_at_any_time_are_logged(start):
    state = start()
    events = state.apply(2, {"type": "give_cakes", "from": 2, "to": 0, "cakes": 4})
    assert (state.citizens[2].cakes, state.citizens[0].cakes) == (16, 24)
    assert events[0].kind == "cakes_given" and events[0].to is None


def test_cake_transfers_only_from_own_citizens_to_other_players(start):
    state = start()
    with pytest.raises(IllegalAction):
        state.apply(2, {"type": "give_cakes", "from": 0, "to": 1, "cakes": 1})
    with pytest.raises(IllegalAction, match="has 20 cakes; you tried 21"):
        state.apply(2, {"type": "give_cakes", "from": 2, "to": 1, "cakes": 21})


def test_actions_out_of_turn_are_refused_and_change_nothing(start):
    state = start()
    before = state.digest()
    with pytest.raises(IllegalAction) as exc:
        state.apply(1, {"type": "pass"})
    assert exc.value.code == "not_your_turn"
    assert state.digest() == before


# -- Secrets --------------------------------------------------------------------------------------
def test_secrets_natures_roles_and_puppets_stay_out_of_public_views_and_events():
    state = tricolore.make("culottes", 4, seed=5)
    for _ in random_play(state, random.Random(5)):
        public = str(state.view(None)) + str(state.events_for(None))
        if not state.is_over():
            assert "nature" not in public and "puppet" not in public
            assert "revolutionary" not in public and "grabber" not in public
    assert "grabber" in str(state.view(None)["reveal"]) or "revolutionary" in str(state.view(None)["reveal"])


def test_the_end_reveals_everything_with_a_breakdown():
    state = tricolore.make("culottes", 3, seed=1, max_rounds=1)
    for _ in random_play(state, random.Random(1)):
        pass
    view = state.view(None)
    assert view["reveal"]["citizens"] == [{"nature": state.nature(c), "puppet": state.is_puppet(c)}
                                          for c in state.citizens]
    assert len(view["result"]["breakdown"]) == 3


def test_no_cake_is_created_or_lost_during_a_game():
    for seed in range(30):
        state = tricolore.make("culottes", 3 + seed % 5, seed=seed)
        for _ in random_play(state, random.Random(seed), free_rate=0.2):
            on_scales = sum(r.cakes for r in state.book.rows if r.closing is None)
            total = (sum(c.cakes for c in state.citizens) + state.bastille.cakes + on_scales
                     + state.escrow.held())
            assert total == 20 * len(state.citizens)
        assert state.escrow.held() == 0


def test_step_8_a_recruit_takes_a_name_no_citizen_has_even_one_recruited_since_the_space_was_asked():
    state = tricolore.make("culottes", 3, seed=4)
    rng = random.Random(4)
    recruited = 0
    while not state.is_over() and recruited < 2:
        seat = state.acting()[0]
        legal = state.legal_actions(seat)
        if "recruit" not in legal.kinds:
            state.apply(seat, legal.sample(rng))
            continue
        if recruited == 0:
            state.apply(seat, {"type": "recruit", "name": "Marat"})
        else:
            with pytest.raises(IllegalAction, match="'marat' is already taken"):
                state.apply(seat, {"type": "recruit", "name": "marat"})
            state.apply(seat, {"type": "recruit", "name": "Robespierre"})
            assert {c.name for c in state.citizens} >= {"Marat", "Robespierre"}
        recruited += 1
    assert recruited == 2
