"""Why the rules refuse an action in Let Them Eat Cake, in the players' words.

The core refuses an action outside the legal and free action spaces in general words ("You cannot
vote now", "It is not your turn"). :func:`refusal` finds the rule that refuses a kind of action
this seat may not take now (who decides, what it costs, when it comes), naming players as
``{0}`` (see :class:`IllegalAction`), and says "not your turn" only where waiting would help;
the state's :meth:`~tricolore.core.model.State.refusal` hands it to :meth:`State.apply`. It only
reads the state, and returns ``None`` where the core's own sentence is the best there is (a kind
the game does not know).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Protocol

from tricolore.core import IllegalAction, Seat
from tricolore.core.mechanisms import ResponseWindow, SealedSubmissions
from tricolore.games.let_them_eat_cake.data import (
    COUP_COST,
    OFFICE_TITLES,
    RIGGING_COST,
    SEIZE_COST,
    Phase,
)


class Vote(Protocol):
    """What the refusals read of an election."""

    office: str
    ballot: SealedSubmissions | None


class Table(Protocol):
    """What the refusals read of a game of Let Them Eat Cake: its state, never changed here."""

    phase: Phase
    head: Seat
    offices: dict[str, Seat]
    window: ResponseWindow | None
    seized: dict[Seat, int]
    received: dict[Seat, int]
    donors: set[Seat]

    @property
    def election(self) -> Vote | None:
        """The election under way, if any."""

    def generals(self, seat: Seat) -> int:
        """How many Generals ``seat`` holds."""

    def window_seat(self) -> Seat | None:
        """The seat the open window asks now, if it asks one at a time."""

    def _can_act_in_window(self, seat: Seat) -> bool: ...

    def _received_card(self, seat: Seat) -> object | None: ...

    def _decider(self) -> Seat: ...


def count(number: int, thing: str) -> str:
    """"1 Medal", "3 Medals", "no Generals"."""
    if number == 0:
        return f"no {thing}s"
    return f"{number} {thing}" + ("" if number == 1 else "s")


_NOTHING_TO_GIVE: Mapping[str, str] = MappingProxyType({
    "give_medals": "you have no Medals of Honour to give",
    "give_generals": "you have no Generals to give",
    "give_cakes": "your stash has no Cake cards to give"})
"""Why a free action is missing: nothing of the kind to give."""

_GENERALS_USES: Mapping[str, tuple[str, int, str, str]] = MappingProxyType({
    "coup": ("coup", COUP_COST, "a coup", "a coup comes just before a vote"),
    "allege_rigging": ("rigging", RIGGING_COST, "alleging vote rigging",
                       "vote rigging is alleged just after a vote"),
    "seize": ("seize", SEIZE_COST, "seizing cake",
              "cake is seized just after the Secretary's draw, before the cards are dealt")})
"""For each use of the Generals: its window, its cost, its name in a sentence and when it comes."""

_ASKED: Mapping[str, str] = MappingProxyType({
    "coup": f"only players with {COUP_COST} Generals are asked in the coup window",
    "rigging": "only players with a General are asked whether the vote was rigged",
    "seize": f"only players with {SEIZE_COST} Generals who have not seized a card this round are "
             "asked in the seize window",
    "donate": "only players who received a Cake card this round and have not donated it are asked "
              "about donations"})
"""Who a window asks, for a seat it does not ask."""

_PASSED: Mapping[str, str] = MappingProxyType({
    "coup": "you have let the coup window go by for this vote",
    "rigging": "you have already accepted the result of this vote",
    "seize": "you have passed; the seize window asks you again only if someone seizes a card",
    "donate": "you have passed; the donation window asks you again only if someone donates"})
"""For a seat that has passed in the open window."""

_DECIDERS: Mapping[str, tuple[str, str, str]] = MappingProxyType({
    "break_tie": ("tie", "only the Head of Committee, {0}, breaks a tie",
                  "there is no tied vote to break"),
    "award_medal": ("head_medal", "only the new Head of Committee, {0}, moves a Medal",
                    "the Head of Committee moves a Medal only just after being elected"),
    "remove_medal": ("head_medal", "only the new Head of Committee, {0}, moves a Medal",
                     "the Head of Committee moves a Medal only just after being elected"),
    "execute": ("guillotine", "only the Guillotine Operator, {0}, executes the Pawn or shows mercy",
                "no Pawn awaits the Guillotine Operator's decision"),
    "mercy": ("guillotine", "only the Guillotine Operator, {0}, executes the Pawn or shows mercy",
              "no Pawn awaits the Guillotine Operator's decision"),
    "deal": ("deal", "only the Secretary, {0}, deals the drawn cards",
             "there are no drawn cards to deal"),
    "inspect": ("inspect", "only the Food Inspector, {0}, declares the batch safe or unsafe",
                "there is no batch to inspect")})
"""For each decision of one officer: its phase, the rule for anyone else, and for another time."""


def _now(state: Table) -> tuple[str, Seat | None]:
    """What the table is waiting for, as a phrase that names at most one seat, as ``{0}``."""
    title = "" if state.election is None else OFFICE_TITLES[state.election.office]
    asking = state.window_seat()
    phrases: dict[str, tuple[str, Seat | None]] = {
        "ballot": (f"the players are voting for the {title}", None),
        "coup": (f"{{0}} may stage a coup before the vote for the {title}", asking),
        "rigging": (f"{{0}} may allege that the vote for the {title} was rigged", asking),
        "tie": (f"the Head of Committee, {{0}}, is breaking the tied vote for the {title}",
                state.head),
        "head_medal": ("the new Head of Committee, {0}, is moving a Medal", state.head),
        "seize": ("{0} may seize one of the Secretary's cards", asking),
        "donate": ("{0} may donate this round's Cake card", asking),
    }
    for phase, office, doing in (
            ("guillotine", "operator", "is deciding the fate of the Pawn on the Guillotine"),
            ("deal", "secretary", "is dealing the drawn cards"),
            ("inspect", "inspector", "is inspecting the batch")):
        if office in state.offices:
            phrases[phase] = (f"the {OFFICE_TITLES[office]}, {{0}}, {doing}",
                              state.offices[office])
    phrase, seat = phrases.get(state.phase, ("the round goes on", None))
    return (phrase, seat) if seat is not None or "{0}" not in phrase else ("the round goes on", None)


def refusal(state: Table, seat: Seat, kind: str) -> IllegalAction | None:
    """The rule that refuses ``kind`` to ``seat`` now, or ``None`` to let the generic sentence
    speak (a kind the game does not know)."""
    phase = state.phase
    now, now_seat = _now(state)

    def not_now(code: str, rule: str) -> IllegalAction:
        return IllegalAction(code, f"{rule}: {now}", () if now_seat is None else (now_seat,))

    if kind in ("give_pawns", "give_voting_cards"):
        return IllegalAction("never_traded", "Pawns and Voting cards never change hands")
    if kind in _NOTHING_TO_GIVE:
        return IllegalAction("nothing_to_give", _NOTHING_TO_GIVE[kind])
    if kind == "vote":
        if phase == Phase.BALLOT:
            assert state.election is not None and state.election.ballot is not None
            if state.election.ballot.submitted(seat) is not None:
                return IllegalAction("already_voted", "you have already played your Voting "
                                     "card in this vote; the cards are revealed when everyone has")
            return IllegalAction("no_vote", "your only Pawn is on the Guillotine, so you have "
                                 "no vote")
        if phase == Phase.COUP:
            return not_now("vote_not_begun", "the vote has not begun")
        return not_now("no_vote_now", "there is no vote now")
    if kind in _GENERALS_USES:
        window, cost, doing, when = _GENERALS_USES[kind]
        if kind == "seize" and seat in state.seized:
            return IllegalAction("already_seized", "you have already seized a card this round")
        if state.generals(seat) < cost:
            return IllegalAction("too_few_generals", f"{doing} costs {count(cost, 'General')}; "
                                 f"you have {count(state.generals(seat), 'General')}")
        if phase != window:
            return not_now("not_now", when)
        return _window_turn(state, seat)
    if kind == "pass":
        if phase == Phase.BALLOT:
            return IllegalAction("must_vote", "every player with a vote plays a Voting card; "
                                 "a vote cannot be passed")
        if state.window is None:
            return not_now("nothing_to_pass", "there is nothing to pass now")
        if not state._can_act_in_window(seat):
            return IllegalAction("not_asked", _ASKED[phase])
        return _window_turn(state, seat)
    if kind == "donate":
        if phase != Phase.DONATE:
            return not_now("not_now", "Cake is donated only after a safe batch, at the end of "
                                      "the round")
        if seat not in state.received:
            return IllegalAction("no_cake_received", "you received no Cake card this round, so "
                                 "you have none to donate")
        if seat in state.donors:
            return IllegalAction("already_donated", "you have already donated this round's "
                                 "Cake card")
        if state._received_card(seat) is None:
            return IllegalAction("cake_given_away", "you no longer hold the Cake card you "
                                 "received this round")
        return _window_turn(state, seat)
    if kind in ("award_medal", "remove_medal") and phase == Phase.HEAD_MEDAL and seat == state.head:
        if kind == "award_medal":
            return IllegalAction("centre_empty", "the centre has no Medal to award; remove "
                                 "one from another player instead")
        return IllegalAction("no_medal_to_remove", "no other player has a Medal to remove; "
                             "award one from the centre instead")
    if kind in _DECIDERS:
        decision, only, otherwise = _DECIDERS[kind]
        if phase == decision:
            decider = state._decider()
            if seat != decider:
                return IllegalAction("not_yours", only, (decider,))
            return None
        return not_now("not_now", otherwise)
    return None


def _window_turn(state: Table, seat: Seat) -> IllegalAction | None:
    """Why ``seat``, who could act in the open window, may not act in it now."""
    assert state.window is not None
    if seat not in state.window.waiting():
        return IllegalAction("already_passed", _PASSED[state.phase])
    asking = state.window_seat()
    if asking is None or asking == seat:
        return None
    return IllegalAction("not_your_turn", "it is not your turn; the window asks one player at "
                         "a time, clockwise from the Head of Committee: waiting for {0}",
                         (asking,))
