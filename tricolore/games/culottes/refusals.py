"""Why the rules refuse an action in Culottes, in the players' words.

The core refuses an action outside the legal and free action spaces in general words ("You cannot
donate now", "It is not your turn", "The deal must be 0"). :func:`refusal` finds the rule that
forbids it ("Danton has already cake-voted this turn; ..."), under the same code
(``not_allowed_now``, or ``not_your_turn`` where waiting is the answer), and for a refused deal
names the bribe or trial concerned, players as ``{0}``, ``{1}`` ... (see :class:`IllegalAction`);
the state's :meth:`~tricolore.core.model.State.refusal` hands it to :meth:`State.apply`. It only
reads the state, and returns ``None`` where the core's own sentence is the best there is (an
unknown kind, or another player's turn, where waiting is the answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from tricolore.core import Choice, IllegalAction, Seat
from tricolore.core.actions import shown
from tricolore.core.deals import ACCEPTED, OFFERED, DealBook
from tricolore.core.errors import listed
from tricolore.core.mechanisms import SealedSubmissions
from tricolore.games.culottes.data import CITIZEN_STEPS, DEAL_KINDS, KINDS, Phase

AGREE_REFUSAL = "agree to end the game with true, or withdraw your agreement with false"
"""Why an ``agree`` other than true or false is refused."""
DONE_AT_STEP = {3: "bought a cockade", 4: "donated to the Bastille", 6: "cake-voted"}
"""What the current citizen did last this turn, by the step it has reached."""


def trials_named(trials: Sequence[str]) -> str:
    """The trials of the citizens named ``trials``, as players say them: "Danton's or Marat's"."""
    return listed([f"{name}'s" for name in trials])


def open_trials_only(trials: tuple[str, ...]) -> str:
    """Why a deal about anything but an open trial is refused (``trials``: the citizens on
    trial)."""
    return "a deal is about an open trial: " + trials_named(trials)


def not_to_your_own(lead: str, own: tuple[str, ...]) -> str:
    """Why a deal or gift to one of the sender's own citizens is refused, naming them."""
    return f"{lead}, not to one of your own ({listed(list(own), 'and')})"


def members_who_may(lead: str, able: tuple[str, ...], may: str, none: str) -> str:
    """Why a citizen is refused a place in an alliance: ``lead``, then the citizens ``able`` to
    take it and what they ``may`` do, or ``none`` when no citizen may."""
    return f"{lead}: " + (f"{listed(list(able))} {may}" if able else none)


class Sheet(Protocol):
    """What the refusals read of a citizen sheet."""

    name: str
    owner: Seat
    cakes: int
    emigrated: bool


class TableOptions(Protocol):
    """The option the refusals read."""

    @property
    def deals(self) -> bool:
        """Whether the engine keeps bribes and alliances."""


class Table(Protocol):
    """What the refusals read of a game of Culottes: its state, never changed here."""

    phase: Phase
    step: int
    current: Seat
    role_choice: SealedSubmissions | None
    holdings: list[list[int]]
    deals: DealBook

    @property
    def options(self) -> TableOptions:
        """The table's options."""

    @property
    def citizens(self) -> Sequence[Sheet]:
        """Every citizen sheet, by number."""

    def current_citizen(self) -> Sheet | None:
        """The citizen whose steps are under way, if any."""

    def trials_open(self) -> list[int]:
        """The citizens on trial, in the order they are judged."""

    def _trial_names(self) -> str: ...

    def _bribe_name(self, deal_id: int) -> str: ...

    def _founders(self, seat: Seat, trial: object) -> Choice: ...


def refusal(state: Table, seat: Seat, action: Mapping[str, Any], refused: IllegalAction
            ) -> IllegalAction | None:
    """The rule that refuses ``action`` by ``seat`` (an action the core has ``refused``), or
    ``None`` to keep the core's sentence."""
    kind = str(action["type"])
    if kind in DEAL_KINDS and refused.code == f"bad_{kind}":
        return _deal_value_refusal(state, seat, action)
    if refused.code not in ("not_allowed_now", "not_your_turn"):
        return None
    return _rule_against(state, seat, kind)


def _not_now(rule: str) -> IllegalAction:
    """A refusal of a kind of action the rules do not allow now, naming the rule."""
    return IllegalAction("not_allowed_now", rule)


def _wait(rule: str, waiting: tuple[Seat, ...]) -> IllegalAction:
    """A refusal where waiting is the answer: the rule, then the seats waited for."""
    names = listed([f"{{{i}}}" for i in range(len(waiting))], "and")
    return IllegalAction("not_your_turn", f"{rule}; waiting for {names}", waiting)


def _rule_against(state: Table, seat: Seat, kind: str) -> IllegalAction | None:
    """The rule that refuses ``kind`` to ``seat`` now, when the core refused it as out of
    turn or not allowed now; ``None`` keeps the core's sentence (an unknown kind, or another
    player's turn, where waiting is the answer)."""
    if kind not in KINDS:
        return None
    if state.phase == Phase.ROLES:
        assert state.role_choice is not None
        waiting = state.role_choice.waiting()
        if kind == "choose_role":
            return _wait("you have already chosen your role", waiting)
        if state.role_choice.expects(seat):
            return _not_now("play begins once every player has secretly chosen a role; "
                            "choose yours first")
        return _wait("play begins once every player has chosen a role", waiting)
    if kind == "choose_role":
        return _not_now("every player chose a role at the start of the game, and a role is "
                        "never changed")
    if kind == "agree_end":
        return _not_now("every player has already agreed to end the game; each plays one "
                        "last turn")
    if kind == "give_cakes":
        return _not_now("none of your citizens has any cakes to give")
    if kind in DEAL_KINDS:
        return _deal_rule_against(state, seat, kind)
    if seat != state.current:
        return None
    if state.phase == Phase.RECRUIT:
        if kind in CITIZEN_STEPS:
            return _not_now("your citizens have all played this turn; now recruit a new "
                            "citizen or pass (step 8)")
        return None
    citizen = state.current_citizen()
    assert citizen is not None
    return _citizen_rule_against(state, citizen, kind)


def _citizen_rule_against(state: Table, citizen: Sheet, kind: str) -> IllegalAction | None:
    """Why the current citizen may not take ``kind`` at its step (steps 1 to 7)."""
    name = citizen.name
    if kind == "recruit":
        return _not_now(f"recruiting is step 8, once each of your citizens has played; pass "
                        f"to finish with {name}")
    if kind == "vive_la_revolution":
        if state.step == 2:
            return _not_now(f"{name} is already back from emigration")
        return _not_now(f"{name} has not emigrated; vive la révolution brings back an "
                        "emigrated citizen")
    if citizen.emigrated:
        return _not_now(f"{name} has emigrated: say vive la révolution first, or pass")
    done = DONE_AT_STEP.get(state.step)
    if kind == "buy_cockade" and done is not None:
        if state.step == 3:
            return _not_now(f"{name} has already bought a cockade this turn; a citizen buys "
                            "at most one a turn")
        return _not_now(f"{name} has already {done} this turn; cockades are bought before "
                        "that, at step 2")
    if kind == "donate":
        if state.step == 4:
            return _not_now(f"{name} has already donated this turn; a citizen donates once a turn")
        if state.step == 6:
            return _not_now(f"{name} has already cake-voted this turn; donations come before "
                            "the cake vote, at step 3")
        return _not_now(f"{name} has no cakes to donate")
    if kind == "cake_vote":
        if state.step == 6:
            return _not_now(f"{name} has already cake-voted this turn; a citizen cake-votes "
                            "once a turn")
        return _not_now(f"{name} has no cakes to vote with")
    return None


def _deal_rule_against(state: Table, seat: Seat, kind: str) -> IllegalAction:
    """Why a deal action of ``kind`` is not allowed now at all."""
    if not state.options.deals:
        return _not_now("this table plays without deals (option deals is off), so the engine "
                        "keeps no promise; cakes may still be given")
    if not state.trials_open():
        return _not_now("no trial is open; a bribe or an alliance is about the trial of a "
                        "citizen with a justice scale")
    if kind == "offer_bribe":
        if all(c.owner == seat for c in state.citizens):
            return _not_now("a bribe is offered to another player's citizen")
        return _not_now("a bribe deposits its reward and at least 1 cake of cover; none of "
                        "your citizens has 2 cakes")
    if kind in ("accept_bribe", "decline_bribe"):
        return _not_now("no bribe waits for your answer")
    if kind == "withdraw_bribe":
        return _not_now("you have no bribe waiting for an answer to withdraw")
    if kind == "join_alliance" and any(state.citizens[i].cakes for i in state.holdings[seat]):
        return _not_now("there is no alliance your citizens may join: a citizen joins one "
                        "alliance per trial; found one in an open trial")
    return _not_now("an alliance deposit is 1 cake: none of your citizens may found or join "
                    "one, each having no cakes or an alliance in every open trial")


def _deal_value_refusal(state: Table, seat: Seat, action: Mapping[str, Any]) -> IllegalAction | None:
    """A refusal naming the bribe or trial concerned, for a deal action whose value the
    action space refused; ``None`` keeps the space's sentence."""
    kind = action["type"]
    code = f"bad_{kind}"
    trial = action.get("trial")
    if (kind in ("offer_bribe", "found_alliance") and "trial" in action
            and trial not in state.trials_open()):
        if type(trial) is int and 0 <= trial < len(state.citizens):
            return IllegalAction(code, f"{state.citizens[trial].name} has no justice scale; the "
                                       f"open trials are {state._trial_names()}")
        return None
    if kind == "found_alliance" and type(trial) is int and not state._founders(seat, trial).options:
        return IllegalAction(code, f"none of your citizens may found an alliance in "
                                   f"{state.citizens[trial].name}'s trial: each has no cakes or is "
                                   "in an alliance of it already")
    if kind not in ("accept_bribe", "decline_bribe", "withdraw_bribe") or "deal" not in action:
        return None
    deal_id = action["deal"]
    if type(deal_id) is not int or not 0 <= deal_id < len(state.deals.deals):
        return IllegalAction(code, f"there is no such bribe; you sent {shown(deal_id)}")
    deal = state.deals.deals[deal_id]
    if deal.status == ACCEPTED:
        return IllegalAction(code, f"{state._bribe_name(deal_id)} is already accepted, and binds {{0}} "
                                   "and {1}",
                             (deal.payer, deal.payee))
    if deal.status != OFFERED:
        return IllegalAction(code, f"{state._bribe_name(deal_id)} is {deal.status}; an offer is "
                                   "answered only once")
    if kind == "withdraw_bribe":
        return IllegalAction(code, "only the briber may withdraw a bribe, and only before it is "
                                   f"answered: {{0}} offered {state._bribe_name(deal_id)}", (deal.payer,))
    if seat == deal.payer:
        return IllegalAction(code, f"you offered {state._bribe_name(deal_id)}; {{0}} accepts or "
                                   "declines it",
                             (deal.payee,))
    return IllegalAction(code, f"{state._bribe_name(deal_id)} is for {{0}} to answer", (deal.payee,))
