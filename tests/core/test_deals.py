"""The deal book: offers, answers, settlement, and what it refuses."""

import pytest

from tricolore.core.deals import DealBook, DealError, Escrow


def test_an_offer_is_answered_by_the_other_side_and_binds_once_accepted():
    book = DealBook(3)
    deal = book.offer(by=1, payer=0, payee=1, amount=2, condition={"vote": "privileged"})
    assert deal.other_side() == 0 and book.open_offers(0) == [deal] and book.open_offers(1) == []
    with pytest.raises(DealError, match="not offered to you"):
        book.accept(1, deal.id)
    book.accept(0, deal.id)
    with pytest.raises(DealError, match="already accepted"):
        book.withdraw(1, deal.id)
    assert [d.id for d in book.binding()] == [0]


def test_settlement_pays_what_holds_and_lapses_the_rest():
    book = DealBook(3)
    a = book.offer(0, 0, 1, 5, {"play": "bread"})
    b = book.offer(2, 2, 1, 1, {"play": "circus"})
    book.accept(1, a.id)
    book.accept(1, b.id)
    paid = []
    settled = book.settle(lambda d: d.condition["play"] == "bread",
                          lambda payer, payee, amount: paid.append((payer, payee)) or 3)
    assert [(d.status, d.paid) for d in settled] == [("paid", 3), ("lapsed", 0)]
    assert paid == [(0, 1)] and book.binding() == []


@pytest.mark.parametrize("args, fragment", [
    ((0, 0, 9, 1), "no seat 9"),
    ((0, 0, 0, 1), "two different players"),
    ((2, 0, 1, 1), "only the payer or the payee"),
    ((0, 0, 1, 0), "at least 1"),
])
def test_bad_offers_are_refused_with_a_sentence(args, fragment):
    book = DealBook(3)
    with pytest.raises(DealError, match=fragment):
        book.offer(*args, condition={})
    assert book.deals == []


def test_copies_are_independent_and_unanswered_offers_lapse():
    book = DealBook(2)
    book.offer(0, 0, 1, 1, {})
    twin = book.copy()
    assert [d.status for d in book.lapse()] == ["lapsed"]
    assert twin.deals[0].status == "offered"


def test_a_deal_not_yet_due_stays_binding_through_a_settlement():
    book = DealBook(3)
    now = book.offer(0, 0, 1, 2, {"round": 1})
    later = book.offer(2, 1, 2, 1, {"round": 2})  # solicited by its payee
    book.accept(1, now.id)
    book.accept(1, later.id)
    settled = book.settle(lambda d: True, lambda payer, payee, amount: amount,
                          due=lambda d: d.condition["round"] == 1)
    assert [d.id for d in settled] == [0] and [d.id for d in book.binding()] == [1]
    settled = book.settle(lambda d: False, lambda payer, payee, amount: amount,
                          due=lambda d: d.condition["round"] == 2)
    assert [(d.id, d.status, d.paid) for d in settled] == [(1, "lapsed", 0)]


def test_lapsing_accepted_deals_too_when_their_moment_never_comes():
    book = DealBook(2)
    book.offer(0, 0, 1, 1, {})
    book.offer(1, 0, 1, 2, {})
    book.accept(0, 1)
    assert [d.id for d in book.lapse()] == [0] and book.get(1).status == "accepted"
    assert [(d.id, d.status, d.paid) for d in book.lapse(accepted=True)] == [(1, "lapsed", 0)]


def test_resolve_settles_one_accepted_deal_by_the_games_own_arithmetic():
    book = DealBook(2)
    deal = book.offer(by=0, payer=0, payee=1, amount=5, condition={"trial": 3})
    with pytest.raises(DealError, match="only an accepted deal is settled"):
        book.resolve(deal.id, 2)
    book.accept(1, deal.id)
    assert book.resolve(deal.id, 3).status == "paid" and book.get(deal.id).paid == 3
    with pytest.raises(DealError, match="is paid"):
        book.resolve(deal.id, None)
    other = book.offer(by=0, payer=0, payee=1, amount=1, condition={})
    book.accept(1, other.id)
    assert book.resolve(other.id, None).status == "lapsed"


def test_escrow_holds_deposits_by_account_and_gives_back_exactly_what_came_in():
    escrow = Escrow()
    escrow.deposit(("deal", 0), 4, 5)
    escrow.deposit(("alliance", 0), 1, 1)
    escrow.deposit(("alliance", 0), 2, 1)
    escrow.deposit(("deal", 0), 4, 2)
    assert escrow.held() == 9 and escrow.held(("deal", 0)) == 7 and escrow.held(depositor=2) == 1
    assert escrow.accounts() == [("deal", 0), ("alliance", 0)]
    assert escrow.take(("deal", 0), 4, 3) == 3 and escrow.held(("deal", 0)) == 4
    assert escrow.take(("deal", 0), 4, 10) == 4 and escrow.held(("deal", 0)) == 0
    assert escrow.take(("deal", 0), 4) == 0
    assert escrow.release(("alliance", 0)) == [(1, 1), (2, 1)]
    assert not escrow and escrow.held() == 0 and escrow.payload() == []


def test_escrow_copies_are_independent_and_refuse_empty_deposits():
    escrow = Escrow()
    escrow.deposit(("deal", 1), 0, 2)
    copy = escrow.copy()
    copy.take(("deal", 1), 0)
    assert escrow.entries() == [(("deal", 1), 0, 2)] and copy.entries() == []
    assert escrow.payload() == [["deal", 1, 0, 2]]
    with pytest.raises(DealError, match="at least 1"):
        escrow.deposit(("deal", 1), 0, 0)
