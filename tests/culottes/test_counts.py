"""Known counts of legal actions from fixed positions (regression tests, as chess engines' perft)."""

import tricolore


def count(state, seat):
    return len(state.legal_actions(seat))


def test_count_secret_role_choice():
    state = tricolore.make("culottes", 5, seed=1)
    assert count(state, 0) == 2  # revolutionary or grabber (the name is optional)


def test_count_first_citizen_at_step_1(start):
    # buy_cockade 1 + donate 20 + cake_vote 5 citizens x 2 sides x 20 cakes
    # + emigrate 1 + pass 1 + agree_end 1
    state = start(players=5)
    assert count(state, 0) == 1 + 20 + 200 + 1 + 1 + 1


def test_count_after_a_vote(start):
    state = start(players=5)
    state.apply(0, {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 4})
    assert state.legal_actions(0).kinds == ("emigrate", "pass", "agree_end")


def test_count_donation_shrinks_the_vote(start):
    state = start(players=4)
    state.apply(0, {"type": "donate", "cakes": 15})
    assert count(state, 0) == 4 * 2 * 5 + 1 + 1 + 1


def test_count_emigrated_citizen(start, finish_turn):
    state = start(players=3)
    state.apply(0, {"type": "emigrate"})
    for _ in range(3):  # seat 0 declines to recruit, then seats 1 and 2 pass
        finish_turn(state)
    assert state.legal_actions(0).kinds == ("vive_la_revolution", "pass", "agree_end")


def test_count_trials_designation():
    assert count(tricolore.make("culottes-trials", 5, seed=0, first_accused=0), 0) == 1 + 4
    assert count(tricolore.make("culottes-trials", 6, seed=0, first_accused=0), 0) == 1 + 5 + 10
    assert count(tricolore.make("culottes-trials", 3, seed=0, first_accused=0), 0) == 1
