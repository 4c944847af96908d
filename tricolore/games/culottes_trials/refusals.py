"""Why the rules refuse an action in the revolutionary trials, in the players' words.

The core refuses an action outside the legal and free action spaces in general words ("You cannot
vote now", "It is not your turn"). :func:`refusal` finds the rule behind such a refusal ("The
accused does not vote."), naming players as ``{0}``, ``{1}`` ... (see :class:`IllegalAction`);
the state's :meth:`~tricolore.core.model.State.refusal` hands it to :meth:`State.apply`. It only
reads the state, and returns ``None`` where the core's own sentence is the best there is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from tricolore.core import IllegalAction, Seat
from tricolore.core.actions import shown
from tricolore.core.errors import listed
from tricolore.core.mechanisms import ResponseWindow, SealedSubmissions
from tricolore.games.culottes_trials.data import Phase


class TableOptions(Protocol):
    """The option the refusals read."""

    @property
    def arguments_per_debate(self) -> int:
        """How many times a player may argue in one debate."""


class Table(Protocol):
    """What the refusals read of a game of trials: its state, never changed here."""

    players: int
    accused: Seat
    phase: Phase
    vote: SealedSubmissions | None
    debate: ResponseWindow | None

    @property
    def options(self) -> TableOptions:
        """The table's options."""


def refusal(state: Table, seat: Seat, action: Mapping[str, Any], refused: IllegalAction,
            grabbers_allowed: int) -> IllegalAction | None:
    """The rule that refuses ``action`` by ``seat`` (an action the core has ``refused``), or
    ``None`` to keep the core's sentence; ``grabbers_allowed`` is how many grabbers, the accused
    included, this table may have."""
    if refused.code in ("not_allowed_now", "not_your_turn"):
        return _rule_against(state, seat, str(action["type"]))
    if refused.code == "bad_designate":
        return _designation_rule(state, action.get("grabbers"), grabbers_allowed)
    return None


def _not_now(rule: str, seats: tuple[Seat, ...] = ()) -> IllegalAction:
    """A refusal of an action the rules do not allow now, naming the rule (and seats as
    ``{0}``...)."""
    return IllegalAction("not_allowed_now", rule, seats)


def _wait(rule: str, waiting: tuple[Seat, ...]) -> IllegalAction:
    """A refusal where waiting is the answer: the rule, then the seats waited for."""
    names = listed([f"{{{i}}}" for i in range(len(waiting))], "and")
    return IllegalAction("not_your_turn", f"{rule}; waiting for {names}", waiting)


def _rule_against(state: Table, seat: Seat, kind: str) -> IllegalAction | None:
    """The rule that refuses ``kind`` to ``seat`` now, when the core refused it as out of
    turn or not allowed now; ``None`` keeps the core's sentence."""
    accused = (state.accused,)
    if kind == "designate":
        if seat != state.accused:
            return _not_now("only the accused, {0}, designates the grabbers", accused)
        return _not_now("you have already designated the grabbers of this trial"
                        + ("; now make your statement" if state.phase == Phase.STATEMENT else ""))
    if kind == "state":
        if seat != state.accused:
            return _not_now("only the accused, {0}, makes the statement", accused)
        if state.phase == Phase.DESIGNATE:
            return _not_now("first designate the other grabbers, then make your statement")
        return _not_now("you have already made your statement in this trial")
    if kind == "vote":
        return _vote_rule_against(state, seat)
    if kind in ("argue", "pass"):
        return _debate_rule_against(state, seat, kind)
    return None


def _vote_rule_against(state: Table, seat: Seat) -> IllegalAction:
    """Why ``seat`` may not vote now."""
    if seat == state.accused:
        return _not_now("the accused does not vote")
    if state.phase in (Phase.DESIGNATE, Phase.STATEMENT):
        return _wait("the vote opens once the accused has made a statement", (state.accused,))
    if state.phase == Phase.DEBATE:
        return _not_now("the debate comes between the two votes; the second vote opens once "
                        "everyone has passed")
    assert state.vote is not None
    return _wait("you have already voted", state.vote.waiting())


def _debate_rule_against(state: Table, seat: Seat, kind: str) -> IllegalAction:
    """Why ``seat`` may not argue or pass now."""
    if state.phase in (Phase.DESIGNATE, Phase.STATEMENT):
        return _wait("the debate opens after the accused's statement and the first vote",
                     (state.accused,))
    if state.phase == Phase.FIRST_VOTE:
        assert state.vote is not None
        if state.vote.expects(seat):
            return _not_now("vote first: the debate opens once everyone has voted a first time")
        return _wait("the debate opens once everyone has voted a first time", state.vote.waiting())
    if state.phase == Phase.SECOND_VOTE:
        return _not_now("the debate is closed; the second vote is under way")
    assert state.debate is not None
    if seat not in state.debate.waiting():
        rule = ("you have passed; you may argue again once someone else argues" if kind == "argue"
                else "you have already passed")
        return _wait(rule, state.debate.waiting())
    allowed = state.options.arguments_per_debate
    if allowed == 0:
        return _not_now("this table allows no arguments in the debate; you may only pass")
    return _not_now(f"you have made your {allowed} argument{'s' if allowed > 1 else ''} in "
                    "this debate; you may only pass")


def _designation_rule(state: Table, grabbers: object, allowed: int) -> IllegalAction | None:
    """The rule a refused designation breaks: the accused named among the others, or more
    grabbers than half the players, or a seat that is not another player's (named by the players'
    names); ``None`` keeps the core's sentence (a seat named twice, a designation that is not a
    list)."""
    if not isinstance(grabbers, list):
        return None
    others = [s for s in range(state.players) if s != state.accused]
    for item in grabbers:
        if type(item) is int and item == state.accused:
            return IllegalAction("bad_designate", "you are the accused and a grabber already; "
                                 "designate other players")
        if type(item) is not int or item not in others:
            named = listed([f"{{{i}}}" for i in range(len(others))], "and")
            return IllegalAction("bad_designate", "the grabbers are chosen among the other players, "
                                 f"{named}; you sent {shown(item)}", tuple(others))
    room = allowed - 1
    if len(set(grabbers)) != len(grabbers) or len(grabbers) <= room:
        return None
    if room == 0:
        return IllegalAction("bad_designate", f"with {state.players} players the accused is "
                             "the only grabber: designate nobody")
    return IllegalAction("bad_designate", "grabbers, the accused included, may be at most half "
                         f"the players, {room + 1} of {state.players}: designate at most {room} "
                         f"other player{'s' if room > 1 else ''}")
