"""Deals: conditional transfers the engine keeps, so that an agreed bribe is honoured.

A deal is "``payer`` gives ``payee`` ``amount`` if ``condition``". The condition is game data (for
Bread and Circuses ``{"play": "bread"}``; for Culottes it could be ``{"vote": "privileged",
"citizen": 3}``). One side offers, the other accepts or declines; the offerer may withdraw it until
then. The offerer may be either side: the payer offers a bribe, the payee solicits one (asks to
be paid for meeting the condition). Once accepted, neither side can break it: when the game
decides the condition, it calls :meth:`DealBook.settle` with a judge and a payment function, and
every accepted deal that is due is paid (the payer paying what they have, if short) or lapses.
A deal may be about a later moment (next round's play): it stays binding until it is due. Offers
never accepted, and deals whose moment never comes, lapse when the game says so
(:meth:`DealBook.lapse`).

A game that settles a deal by its own arithmetic (paid from a deposit, say) calls
:meth:`DealBook.resolve` for that deal instead.

:class:`Escrow` is the engine as a trusted third party: a ledger, belonging to no player, of goods
deposited for a deal or an alliance until the game settles it. It only counts; the game moves the
goods in and out, so what the players hold plus what the escrow holds is constant.

The book holds data only; the game logs the events, checks that a seat may offer at all, and
moves the goods. See ``docs/deals.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from mypy_extensions import mypyc_attr

from tricolore.core.actions import rebuilt
from tricolore.core.model import Seat

OFFERED, ACCEPTED, DECLINED, WITHDRAWN, PAID, LAPSED = (
    "offered", "accepted", "declined", "withdrawn", "paid", "lapsed")


def about(key: str, value: object) -> Callable[[Deal], bool]:
    """Whether a deal's condition has ``value`` under ``key`` (the deals about one trial, say):
    a filter for :meth:`DealBook.settle` and :meth:`DealBook.lapse`."""
    def holds(deal: Deal) -> bool:
        return bool(deal.condition[key] == value)
    return holds


@mypyc_attr(native_class=False)  # a compiled class may not extend ValueError
class DealError(ValueError):
    """A deal that cannot be made or answered; the message is a sentence for the player."""


@dataclass(frozen=True, slots=True, init=False)
class Deal:
    """One deal. ``offered_by`` is the payer or the payee; ``paid`` is what changed hands."""

    id: int
    payer: Seat
    payee: Seat
    amount: int
    condition: Mapping[str, Any]
    offered_by: Seat
    status: str = OFFERED
    paid: int = 0

    # Written out, not generated, so that the compiled build makes it natively (see
    # tricolore.core.actions.Worded).
    def __init__(self, id: int, payer: Seat, payee: Seat, amount: int, condition: Mapping[str, Any],
                 offered_by: Seat, status: str = OFFERED, paid: int = 0) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "payer", payer)
        object.__setattr__(self, "payee", payee)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "condition", condition)
        object.__setattr__(self, "offered_by", offered_by)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "paid", paid)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def other_side(self) -> Seat:
        """The seat that answers the offer."""
        return self.payee if self.offered_by == self.payer else self.payer

    def as_dict(self) -> dict[str, Any]:
        """The deal as JSON."""
        return {"id": self.id, "payer": self.payer, "payee": self.payee, "amount": self.amount,
                "condition": dict(self.condition), "offered_by": self.offered_by,
                "status": self.status, "paid": self.paid}


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class DealBook:
    """Every deal of a game, in the order offered."""

    __slots__ = ("deals", "players")

    def __init__(self, players: int) -> None:
        self.players = players
        self.deals: list[Deal] = []

    def offer(self, by: Seat, payer: Seat, payee: Seat, amount: int,
              condition: Mapping[str, Any]) -> Deal:
        """Record an offer by ``by`` (the payer or the payee); raises :class:`DealError`."""
        for seat in (payer, payee):
            if type(seat) is not int or not 0 <= seat < self.players:
                raise DealError(f"there is no seat {seat!r} at this table")
        if payer == payee:
            raise DealError("a deal needs two different players")
        if by not in (payer, payee):
            raise DealError("only the payer or the payee can offer a deal")
        if type(amount) is not int or amount < 1:
            raise DealError("a deal must promise at least 1")
        deal = Deal(len(self.deals), payer, payee, amount, dict(condition), by)
        self.deals.append(deal)
        return deal

    def get(self, deal_id: object) -> Deal:
        """The deal with this id; raises :class:`DealError`."""
        if type(deal_id) is not int or not 0 <= deal_id < len(self.deals):
            raise DealError(f"there is no deal {deal_id!r}")
        return self.deals[deal_id]

    def _answer(self, seat: Seat, deal_id: object, status: str) -> Deal:
        deal = self.get(deal_id)
        if deal.status != OFFERED:
            raise DealError(f"deal {deal.id} is already {deal.status}; an offer is answered only once")
        if status == WITHDRAWN and seat != deal.offered_by:
            raise DealError("only the offerer may withdraw an offer, and only before it is answered")
        if status in (ACCEPTED, DECLINED) and seat != deal.other_side():
            raise DealError(f"deal {deal.id} is not offered to you; only the player an offer is made to "
                            "may accept or decline it")
        self.deals[deal.id] = replace(deal, status=status)
        return self.deals[deal.id]

    def accept(self, seat: Seat, deal_id: object) -> Deal:
        """The other side accepts: the deal now binds both."""
        return self._answer(seat, deal_id, ACCEPTED)

    def decline(self, seat: Seat, deal_id: object) -> Deal:
        """The other side declines."""
        return self._answer(seat, deal_id, DECLINED)

    def withdraw(self, seat: Seat, deal_id: object) -> Deal:
        """The offerer takes an unanswered offer back (an accepted deal cannot be)."""
        return self._answer(seat, deal_id, WITHDRAWN)

    def open_offers(self, seat: Seat | None = None) -> list[Deal]:
        """Offers waiting for an answer (for ``seat``: those it may answer)."""
        return [d for d in self.deals if d.status == OFFERED
                and (seat is None or d.other_side() == seat)]

    def own_offers(self, seat: Seat) -> list[Deal]:
        """Unanswered offers ``seat`` made (and may withdraw)."""
        return [d for d in self.deals if d.status == OFFERED and d.offered_by == seat]

    def binding(self) -> list[Deal]:
        """Accepted deals not yet settled."""
        return [d for d in self.deals if d.status == ACCEPTED]

    def settle(self, holds: Callable[[Deal], bool], pay: Callable[[Seat, Seat, int], int],
               due: Callable[[Deal], bool] | None = None) -> list[Deal]:
        """Settle every accepted deal that is ``due`` (all of them by default): where
        ``holds(deal)``, ``pay(payer, payee, amount)`` moves the goods and returns what was
        actually paid; otherwise the deal lapses unpaid. Deals not yet due stay binding. Returns
        the settled deals, in the order they were offered."""
        settled = []
        for deal in self.binding():
            if due is not None and not due(deal):
                continue
            done = (replace(deal, status=PAID, paid=pay(deal.payer, deal.payee, deal.amount))
                    if holds(deal) else replace(deal, status=LAPSED))
            self.deals[deal.id] = done
            settled.append(done)
        return settled

    def resolve(self, deal_id: object, paid: int | None) -> Deal:
        """Settle one accepted deal by the game's own arithmetic: ``paid`` is what changed hands
        (the deal is ``paid``), or ``None`` when its condition did not hold (it ``lapsed``)."""
        deal = self.get(deal_id)
        if deal.status != ACCEPTED:
            raise DealError(f"deal {deal.id} is {deal.status}; only an accepted deal is settled")
        done = (replace(deal, status=LAPSED) if paid is None
                else replace(deal, status=PAID, paid=paid))
        self.deals[deal.id] = done
        return done

    def lapse(self, accepted: bool = False, which: Callable[[Deal], bool] | None = None) -> list[Deal]:
        """Every unanswered offer lapses (the moment to accept has passed); with ``accepted``,
        every accepted deal not yet settled lapses too, unpaid (its condition will never be
        decided, say because the game is over). ``which(deal)`` limits it to some deals (those
        about one trial, say)."""
        lapsed = []
        for deal in [d for d in self.deals if (d.status == OFFERED or (accepted and d.status == ACCEPTED))
                     and (which is None or which(d))]:
            self.deals[deal.id] = replace(deal, status=LAPSED)
            lapsed.append(self.deals[deal.id])
        return lapsed

    def copy(self) -> DealBook:
        """An independent copy (deals are immutable and shared)."""
        other = DealBook(self.players)
        other.deals = list(self.deals)
        return other

    def payload(self) -> list[Any]:
        """Every deal, for digests."""
        return [d.as_dict() for d in self.deals]


Account = tuple[str, int]
"""What a deposit is held for: a kind and a number, such as ``("deal", 3)`` or ``("alliance", 0)``."""


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class Escrow:
    """Deposits held by the engine for deals and alliances, by account and depositor.

    The depositor is whatever holds goods in the game (a seat, a citizen). Deposits only come in
    through :meth:`deposit` and go out through :meth:`take` and :meth:`release`, each returning
    what left the ledger for the game to hand over, so nothing is created or destroyed here.
    """

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: dict[tuple[Account, int], int] = {}

    def deposit(self, account: Account, depositor: int, amount: int) -> None:
        """``depositor`` puts ``amount`` (at least 1) into escrow for ``account``."""
        if type(amount) is not int or amount < 1:
            raise DealError("a deposit is at least 1")
        key = (account, depositor)
        self._held[key] = self._held.get(key, 0) + amount

    def held(self, account: Account | None = None, depositor: int | None = None) -> int:
        """What the escrow holds (for ``account``, from ``depositor``, or in all)."""
        return sum(n for (a, d), n in self._held.items()
                   if (account is None or a == account) and (depositor is None or d == depositor))

    def take(self, account: Account, depositor: int, amount: int | None = None) -> int:
        """Take up to ``amount`` (everything by default) of ``depositor``'s deposit for
        ``account`` out of escrow; returns what was taken, for the game to hand over."""
        key = (account, depositor)
        have = self._held.get(key, 0)
        taken = have if amount is None else max(0, min(amount, have))
        if taken == have:
            self._held.pop(key, None)
        else:
            self._held[key] = have - taken
        return taken

    def release(self, account: Account) -> list[tuple[int, int]]:
        """Empty ``account``: every ``(depositor, amount)`` still held for it, in the order
        deposited, for the game to give back."""
        out = [(d, n) for (a, d), n in self._held.items() if a == account]
        for depositor, _ in out:
            del self._held[account, depositor]
        return out

    def accounts(self) -> list[Account]:
        """The accounts holding anything, in the order first deposited."""
        return list(dict.fromkeys(a for a, _ in self._held))

    def entries(self) -> list[tuple[Account, int, int]]:
        """Every ``(account, depositor, amount)`` held, in the order deposited."""
        return [(a, d, n) for (a, d), n in self._held.items()]

    def snapshot(self) -> tuple[tuple[tuple[Account, int], int], ...]:
        """Every ``((account, depositor), amount)`` held, in the order deposited: equal for two
        escrows exactly when they hold the same deposits in the same order."""
        return tuple(self._held.items())

    def __bool__(self) -> bool:
        return bool(self._held)

    def copy(self) -> Escrow:
        """An independent copy."""
        other = Escrow()
        other._held = dict(self._held)
        return other

    def payload(self) -> list[Any]:
        """Every deposit, for digests."""
        return [[a[0], a[1], d, n] for (a, d), n in self._held.items()]
