"""The Book of Public Safety (rulebook step 5) and its worked examples."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tricolore.games.culottes.book import (
    BASTILLE,
    PRIVILEGED,
    SANS_CULOTTE,
    BookError,
    BookOfPublicSafety,
    CakeVote,
    close_trial,
    round_half_up,
)


def votes(sans_culotte: dict, privileged: dict) -> list[CakeVote]:
    return ([CakeVote(v, c, SANS_CULOTTE) for v, c in sans_culotte.items()]
            + [CakeVote(v, c, PRIVILEGED) for v, c in privileged.items()])


def paid(closing) -> list[tuple]:
    return [(r.voter, r.returned, r.reward) for r in closing.rewards]


def test_seed_worked_example_c_gets_2_bastille_1_b_1_a_none():
    closing = close_trial(votes({"A": 1, "B": 2, "C": 3}, {"D": 2, "E": 2}), "ABCDE")
    assert closing.verdict == SANS_CULOTTE
    assert (closing.winning_cakes, closing.lost_cakes, closing.bastille_vote) == (6, 4, 2)
    assert paid(closing) == [("C", 3, 2), (BASTILLE, 0, 1), ("B", 2, 1), ("A", 1, 0)]
    assert [r.share for r in closing.rewards] == [Fraction(3, 2), 1, 1, Fraction(1, 2)]
    assert closing.lost == (("D", 2), ("E", 2))


def test_seed_bastille_example_privileged_3_against_1_bastille_votes_2():
    closing = close_trial(votes({"A": 1}, {"B": 3}), "AB")
    assert closing.verdict == PRIVILEGED
    assert closing.bastille_vote == 2
    assert paid(closing) == [("B", 3, 1), (BASTILLE, 0, 0)]


def test_verdict_tie_is_privileged():
    closing = close_trial(votes({"A": 3}, {"B": 3}), "AB")
    assert closing.verdict == PRIVILEGED
    assert closing.bastille_vote == 0
    assert paid(closing) == [("B", 3, 3)]


def test_leftover_after_rounding_down_goes_to_the_bastille():
    closing = close_trial(votes({"A": 4, "B": 4}, {"D": 4}), "ABD")
    assert paid(closing) == [(BASTILLE, 0, 2), ("A", 4, 1), ("B", 4, 1)]
    assert closing.leftover == 1
    assert closing.bastille_reward == 2


def test_equal_winners_closest_to_the_current_players_left_first():
    closing = close_trial(votes({"A": 1, "B": 1}, {"C": 1}), ["B", "C", "A"])
    assert [r.voter for r in closing.rewards] == [BASTILLE, "B", "A"]


def test_several_votes_of_one_citizen_on_one_scale_add_up():
    closing = close_trial([CakeVote("A", 1, SANS_CULOTTE), CakeVote("A", 2, SANS_CULOTTE),
                           CakeVote("B", 2, PRIVILEGED)], "AB")
    assert paid(closing) == [("A", 3, 2), (BASTILLE, 0, 0)]


def test_a_citizen_on_both_scales_wins_one_and_loses_the_other():
    closing = close_trial([CakeVote("A", 3, SANS_CULOTTE), CakeVote("A", 1, PRIVILEGED)], "A")
    assert paid(closing) == [("A", 3, 1), (BASTILLE, 0, 0)]
    assert closing.lost == (("A", 1),)


def test_round_half_up():
    assert [round_half_up(Fraction(n, 2)) for n in range(5)] == [0, 1, 1, 2, 2]


def test_voter_missing_from_order_is_an_error():
    with pytest.raises(ValueError, match="missing from the seating order"):
        close_trial(votes({"A": 1}, {"B": 1}), ["A"])


@given(st.dictionaries(st.sampled_from("ABCDEF"), st.integers(1, 30), max_size=6),
       st.dictionaries(st.sampled_from("GHIJKL"), st.integers(1, 30), max_size=6))
def test_no_cake_is_created_or_destroyed(yes, no):
    if not yes and not no:
        return
    closing = close_trial(votes(yes, no), "ABCDEFGHIJKL")
    handed = sum(r.returned + r.reward for r in closing.rewards)
    assert handed == sum(yes.values()) + sum(no.values())
    assert closing.verdict == (SANS_CULOTTE if sum(yes.values()) > sum(no.values()) else PRIVILEGED)
    weights = [r.returned if r.voter != BASTILLE else closing.bastille_vote for r in closing.rewards]
    assert weights == sorted(weights, reverse=True)


@given(st.dictionaries(st.sampled_from("ABCDEF"), st.integers(1, 30), min_size=1, max_size=6),
       st.dictionaries(st.sampled_from("GHIJKL"), st.integers(1, 30), max_size=6))
def test_each_share_is_lost_cakes_times_weight_over_the_winning_weight_rounded_half_up(yes, no):
    """Step 5's proportional share, exact, and the reward it rounds to (before the leftover)."""
    closing = close_trial(votes(yes, no), "ABCDEFGHIJKL")
    total = closing.winning_cakes + closing.bastille_vote
    remaining = closing.lost_cakes
    for r in closing.rewards[:len(closing.rewards) - (closing.leftover and closing.bastille_vote == 0)]:
        weight = closing.bastille_vote if r.voter == BASTILLE else r.returned
        assert r.share == (Fraction(closing.lost_cakes * weight, total) if total else 0)
        assert r.share_text == str(r.share)
        given_now = min(round_half_up(r.share), remaining)
        assert r.reward == given_now + (closing.leftover if r.voter == BASTILLE else 0)
        remaining -= given_now


def test_book_marks_closed_rows_so_votes_are_never_counted_twice():
    book = BookOfPublicSafety()
    book.write("Robespierre", "Danton", 3, PRIVILEGED)
    book.write("Marat", "Danton", 1, SANS_CULOTTE)
    book.close("Danton", ["Marat", "Robespierre"])
    assert not book.is_on_trial("Danton")
    with pytest.raises(BookError, match="no open trial"):
        book.close("Danton", ["Marat", "Robespierre"])
    book.write("Marat", "Danton", 2, SANS_CULOTTE)
    assert book.scales("Danton") == {SANS_CULOTTE: 2, PRIVILEGED: 0}


def test_book_csv_round_trip_keeps_the_closed_marks():
    book = BookOfPublicSafety.from_csv("voter,citizen,cakes,side\nRobespierre,Danton,3,privileged\n"
                                       "Marat,Danton,2,sans-culotte\n")
    book.close("Danton", ["Marat", "Robespierre"])
    again = BookOfPublicSafety.from_csv(book.to_csv())
    assert [r.closing for r in again.rows] == [1, 1]
    assert again.closings == 1


@pytest.mark.parametrize("text, fragment", [
    ("voter,citizen,cakes,side\nA,B,-2,privileged\n", "line 2: a cake vote stakes at least 1 cake"),
    ("voter,citizen,cakes,side\nA,B,lots,privileged\n", "line 2: cakes must be a whole number"),
    ("voter,citizen,cakes,side\nA,B,2,royalist\n", "side must be sans-culotte or privileged"),
    ("who,what\n", "must start with the header"),
    ("voter,citizen,cakes,side\nA,Bastille,2,privileged\n", "no citizen may be called Bastille"),
    ("voter,citizen,cakes,side\nA,B,2,privileged,1,9\n", "columns"),
    ("voter,citizen,cakes,side\n" + "A" * 140_000 + ",B,2,privileged\n",
     "line 2: a field is longer than 131072 characters"),
])
def test_book_csv_errors_name_the_line(text, fragment):
    with pytest.raises(BookError, match=fragment):
        BookOfPublicSafety.from_csv(text)
