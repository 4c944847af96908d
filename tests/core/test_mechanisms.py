import itertools

import pytest

from tricolore.core import ResponseWindow, SealedSubmissions


def test_sealed_submissions_show_only_who_has_chosen():
    sealed = SealedSubmissions("bid", [0, 1, 2], revisable=False)
    sealed.submit(1, {"type": "vote", "guess": True})
    assert sealed.public() == {"name": "bid", "seats": [0, 1, 2], "chosen": [1]}
    assert "guess" not in str(sealed.public())
    assert sealed.waiting() == (0, 2)


def test_sealed_submissions_wait_for_exactly_the_seats_they_list_as_waiting():
    sealed = SealedSubmissions("vote", [3, 0, 2], revisable=False)
    assert [s for s in range(5) if sealed.waits_for(s)] == list(sealed.waiting()) == [0, 2, 3]
    sealed.submit(2, {"type": "vote", "candidate": 0})
    assert [s for s in range(5) if sealed.waits_for(s)] == list(sealed.waiting()) == [0, 3]
    sealed.submit(0, {"type": "vote", "candidate": 3})
    sealed.submit(3, {"type": "vote", "candidate": 0})
    assert not any(sealed.waits_for(s) for s in range(5)) and sealed.waiting() == ()


@pytest.mark.parametrize("order", list(itertools.permutations([4, 0, 2])))
def test_sealed_submissions_list_the_seats_still_waiting_as_they_submit_and_in_copies(order):
    sealed = SealedSubmissions("vote", [2, 4, 0], revisable=True)
    for i, seat in enumerate(order):
        sealed.submit(seat, {"v": i})
        sealed.submit(seat, {"v": i + 10})  # a revised choice changes nobody's turn
        copy = sealed.copy()
        expected = tuple(s for s in (0, 2, 4) if s not in order[:i + 1])
        assert sealed.waiting() == copy.waiting() == expected
        if expected:
            copy.submit(expected[0], {"v": 0})  # a copy is independent
            assert sealed.waiting() == expected
    replaced = SealedSubmissions("bid", [0, 1], revisable=False)
    replaced.replace(1, {"v": 3})
    assert replaced.waiting() == (0,) and replaced.submitted(1) == {"v": 3}


def test_sealed_submissions_resolve_in_seat_order_whatever_the_arrival_order():
    outcomes = set()
    for order in itertools.permutations([0, 1, 2]):
        sealed = SealedSubmissions("bid", [0, 1, 2])
        for seat in order:
            done = sealed.submit(seat, {"seat": seat})
        assert done
        outcomes.add(tuple(s for s, _ in sealed.in_seat_order()))
    assert outcomes == {(0, 1, 2)}


def test_sealed_submission_revisable_until_complete():
    sealed = SealedSubmissions("bid", [0, 1], revisable=True)
    sealed.submit(0, {"v": 1})
    sealed.submit(0, {"v": 2})
    assert sealed.submitted(0) == {"v": 2}
    fixed = SealedSubmissions("bid", [0, 1], revisable=False)
    fixed.submit(0, {"v": 1})
    with pytest.raises(ValueError):
        fixed.submit(0, {"v": 2})


def test_response_window_closes_when_all_have_passed_since_the_last_action():
    w = ResponseWindow.clockwise("debate", 4, start=2)
    assert w.order == (2, 3, 0, 1)
    w.passed(2)
    w.passed(3)
    w.acted(0)
    assert w.waiting() == (2, 3, 0, 1)
    for s in (2, 3, 0):
        assert not w.passed(s)
    assert w.passed(1)
    assert w.closed


def test_a_response_window_waits_for_exactly_the_seats_it_lists_as_waiting():
    w = ResponseWindow.clockwise("generals", 5, start=3, eligible=[0, 2, 4])
    w.passed(4)
    assert [s for s in range(5) if w.waits_for(s)] == sorted(w.waiting()) == [0, 2]
    w.acted(0)  # every seat must pass again
    assert [s for s in range(5) if w.waits_for(s)] == [0, 2, 4]
    w.passed(0)
    w.passed(2)
    assert [s for s in range(5) if w.waits_for(s)] == list(w.waiting()) == [4]


@pytest.mark.parametrize("steps", list(itertools.product(("pass", "act"), [0, 2, 3, 4], repeat=3)))
def test_a_response_window_lists_its_waiting_seats_in_seat_order_as_they_pass_and_act(steps):
    w = ResponseWindow.clockwise("generals", 5, start=3, eligible=[0, 2, 3, 4])
    for what, seat in zip(steps[::2], steps[1::2], strict=True):
        if what == "pass":
            w.passed(seat)
        else:
            w.acted(seat)
        copy = w.copy()
        assert w.waiting_by_seat() == copy.waiting_by_seat() == tuple(sorted(w.waiting()))
        copy.acted(seat)  # a copy is independent
        assert w.waiting_by_seat() == tuple(sorted(w.waiting()))


def test_response_window_only_for_eligible_seats():
    w = ResponseWindow.clockwise("generals", 5, start=3, eligible=[0, 4])
    assert w.order == (4, 0)
    with pytest.raises(ValueError):
        w.passed(1)


def test_copies_are_independent():
    w = ResponseWindow("w", [0, 1])
    c = w.copy()
    c.passed(0)
    assert w.waiting() == (0, 1)
    s = SealedSubmissions("s", [0, 1])
    t = s.copy()
    t.submit(0, {})
    assert s.waiting() == (0, 1)
