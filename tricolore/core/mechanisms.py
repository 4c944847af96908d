"""Mechanisms every game reuses: sealed simultaneous submissions and response windows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mypy_extensions import mypyc_attr

from tricolore.core.model import Seat


def seated(seats: tuple[Seat, ...], seat: Seat) -> bool:
    """Whether ``seat`` is one of ``seats`` (in seat order): read at its place when the seats are
    the table's from 0, as they nearly always are (a search of the tuple compares every seat
    through the generic protocol in the compiled build)."""
    if 0 <= seat < len(seats) and seats[seat] == seat:
        return True
    return seat in seats


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class SealedSubmissions:
    """Collects one sealed action per seat for a simultaneous secret move.

    Only *who* has submitted is public (:meth:`public`). A seat may change its choice until the
    last one arrives when ``revisable`` is true. Once complete, :meth:`in_seat_order` hands the set
    to the game's resolution in seat order, so the outcome cannot depend on arrival order.
    """

    __slots__ = ("name", "seats", "revisable", "_sealed", "_waiting")

    def __init__(self, name: str, seats: Iterable[Seat], revisable: bool = True) -> None:
        self.name = name
        # a range counting up is in order already (most tables pass range(players))
        self.seats: tuple[Seat, ...] = (tuple(seats) if type(seats) is range and seats.step > 0
                                        else tuple(sorted(seats)))
        self.revisable = revisable
        self._sealed: dict[Seat, Mapping[str, Any]] = {}
        self._waiting = self.seats
        """:meth:`waiting`, kept as seats submit (a state asks who acts at every decision)."""

    def expects(self, seat: Seat) -> bool:
        """Whether ``seat`` may (still) submit."""
        if not seated(self.seats, seat):
            return False
        return self.revisable or seat not in self._sealed

    def submit(self, seat: Seat, action: Mapping[str, Any]) -> bool:
        """Seal ``action`` for ``seat``; returns ``True`` when every seat has now submitted."""
        if not self.expects(seat):
            raise ValueError(f"seat {seat} does not take part in {self.name} or has already chosen")
        self._seal(seat, action)
        return self.complete

    def _seal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        sealed = self._sealed
        if seat not in sealed:
            waiting = self._waiting
            self._waiting = waiting[1:] if waiting and waiting[0] == seat else tuple(
                [s for s in waiting if s != seat])
        sealed[seat] = action

    @property
    def complete(self) -> bool:
        """Whether every seat has submitted."""
        return len(self._sealed) == len(self.seats)

    def waiting(self) -> tuple[Seat, ...]:
        """Seats that have not submitted yet, in seat order."""
        return self._waiting

    def waits_for(self, seat: Seat) -> bool:
        """Whether ``seat`` is one of :meth:`waiting` (without making the tuple)."""
        return seated(self.seats, seat) and seat not in self._sealed

    def submitted(self, seat: Seat) -> Mapping[str, Any] | None:
        """``seat``'s sealed action (the state's secret; never put it in another seat's view)."""
        return self._sealed.get(seat)

    def in_seat_order(self) -> list[tuple[Seat, Mapping[str, Any]]]:
        """Every sealed action, in seat order (a list: the compiled build makes a generator at a
        cost several times a short list's)."""
        sealed = self._sealed
        out = []
        for s in self.seats:
            action = sealed.get(s)
            if action is not None:
                out.append((s, action))
        return out

    def replace(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Overwrite a sealed action (used by ``determinize`` to resample other seats' secrets)."""
        self._seal(seat, action)

    def public(self) -> dict[str, Any]:
        """What everyone may see: the move's name, who takes part, who has chosen."""
        return {"name": self.name, "seats": list(self.seats),
                "chosen": [s for s in self.seats if s in self._sealed]}

    def copy(self) -> SealedSubmissions:
        """An independent copy (sealed actions are immutable mappings and are shared)."""
        other = SealedSubmissions(self.name, (), self.revisable)
        other.seats = self.seats
        other._sealed = dict(self._sealed)
        other._waiting = self._waiting
        return other

    def payload(self) -> Any:
        """The full contents, for digests."""
        return [self.name, list(self.seats), self.revisable,
                [[s, dict(a)] for s, a in self.in_seat_order()]]


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class ResponseWindow:
    """A named window for "at any time" rules: eligible seats act or pass until all have passed.

    Seats are asked in a fixed order (clockwise from a given seat). An action by any seat reopens
    the round of passes: the window closes when every eligible seat has passed since the last
    action. The server passes for a seat whose timer runs out; bots pass explicitly.
    """

    __slots__ = ("name", "order", "_by_seat", "_passed", "_waiting_by_seat")

    def __init__(self, name: str, order: Iterable[Seat]) -> None:
        self.name = name
        self.order: tuple[Seat, ...] = tuple(order)
        self._by_seat = tuple(sorted(self.order))
        """The eligible seats in seat order."""
        self._passed: set[Seat] = set()
        self._waiting_by_seat = self._by_seat
        """:meth:`waiting_by_seat`, kept as seats pass (a state asks who acts at every decision)."""

    @classmethod
    def clockwise(cls, name: str, players: int, start: Seat, eligible: Iterable[Seat] | None = None
                  ) -> ResponseWindow:
        """A window whose order runs clockwise from ``start`` over the ``eligible`` seats."""
        allowed = set(range(players) if eligible is None else eligible)
        return cls(name, [(start + i) % players for i in range(players)
                          if (start + i) % players in allowed])

    def waiting(self) -> tuple[Seat, ...]:
        """Eligible seats that have not passed since the last action, in the window's order."""
        return tuple([s for s in self.order if s not in self._passed])

    def waiting_by_seat(self) -> tuple[Seat, ...]:
        """:meth:`waiting` in seat order (as a state's ``acting`` lists the seats asked)."""
        return self._waiting_by_seat

    def waits_for(self, seat: Seat) -> bool:
        """Whether ``seat`` is eligible and has not passed since the last action (it is in
        :meth:`waiting`)."""
        return seated(self._by_seat, seat) and seat not in self._passed

    def acted(self, seat: Seat) -> None:
        """``seat`` did something in the window: every seat, the actor too, must pass again."""
        if seat not in self.order:
            raise ValueError(f"seat {seat} is not eligible in the {self.name} window")
        self._passed = set()
        self._waiting_by_seat = self._by_seat

    def passed(self, seat: Seat) -> bool:
        """``seat`` passes; returns ``True`` when the window is now closed."""
        if seat not in self.order:
            raise ValueError(f"seat {seat} is not eligible in the {self.name} window")
        self._passed.add(seat)
        self._waiting_by_seat = tuple([s for s in self._waiting_by_seat if s != seat])
        return self.closed

    @property
    def closed(self) -> bool:
        """Whether every eligible seat has passed since the last action."""
        return len(self._passed) >= len(self.order)

    def public(self) -> dict[str, Any]:
        """The window as everyone sees it."""
        return {"name": self.name, "order": list(self.order), "waiting": list(self.waiting())}

    def copy(self) -> ResponseWindow:
        """An independent copy."""
        other = ResponseWindow(self.name, self.order)
        other._passed = set(self._passed)
        other._waiting_by_seat = self._waiting_by_seat
        return other

    def payload(self) -> Any:
        """The full contents, for digests."""
        return [self.name, list(self.order), sorted(self._passed)]
