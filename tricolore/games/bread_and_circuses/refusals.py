"""Why the rules refuse an action, in the players' words.

The core refuses an action outside the legal and free action spaces in general words: "You cannot
take back now", "It is not your turn", "The deal must be 0 or 2". Most such refusals in Bread and
Circuses have a rule behind them that a player wants to hear: "You have no disclosed tile to take
back.", "Your disclosed tile is the tile you play.", "Only the offerer may withdraw an offer, and
only before it is answered: Danton made the deal of 3 Gold from Danton to Marat." :func:`refusal`
finds that rule for an action the core has refused, naming players as ``{0}``, ``{1}`` ... (see
:class:`IllegalAction`); :meth:`State.apply` raises it in place of the general sentence, through
the state's :meth:`~tricolore.core.model.State.refusal`.

It only reads the state. It returns ``None`` when no rule of the game explains the refusal better
than the core's own sentence (a typo, a missing field, a player who must wait their turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from tricolore.core import IllegalAction, Seat
from tricolore.core.actions import shown
from tricolore.core.deals import ACCEPTED, OFFERED, Deal, DealBook
from tricolore.core.errors import listed
from tricolore.core.mechanisms import ResponseWindow, SealedSubmissions
from tricolore.games.bread_and_circuses.data import (
    AFTER_REVEAL,
    CARDS,
    NEGOTIATION,
    SCORING,
    Phase,
)


class TableOptions(Protocol):
    """The option the refusals read."""

    @property
    def regulated_bribery(self) -> bool:
        """Whether deals bind (the Regulated Bribery variant)."""


class Table(Protocol):
    """What the refusals read of a game of Bread and Circuses: its state, never changed here."""

    players: int
    phase: Phase
    gold: list[int]
    hands: list[list[str]]
    deals: DealBook
    disclosed: list[tuple[str, str] | None]
    barred: set[Seat]
    ready: list[bool]
    play: SealedSubmissions | None
    modifiers: dict[str, set[Seat]]
    window: ResponseWindow | None

    @property
    def options(self) -> TableOptions:
        """The table's options."""

    def _targets(self, seat: Seat, card: object) -> tuple[Any, ...] | None: ...

TIMING_WORDS = {NEGOTIATION: "during Negotiation", AFTER_REVEAL: "in the After-Reveal window",
                SCORING: "in the Scoring window"}
"""When a Sabotage card is played, by its timing."""

PHASE_WORDS = {Phase.NEGOTIATION: "during Negotiation", Phase.PLAY: "while tiles are placed",
               Phase.AFTER_REVEAL: "in the After-Reveal window",
               Phase.SCORING: "in the Scoring window"}
"""The moment of each phase, as a player says it."""

NEEDS: Mapping[str | None, str] = {
    "disclosed": "another player with a tile on their Disclosure card",
    "other_gold": "another player who has Gold",
    "other_bread": "another player whose tile counts as Bread",
    "other_circus": "another player whose tile counts as Circus",
    "honest": "a player who disclosed honestly and still has the bonus",
    "other": "another player",
}
"""Whom a Sabotage card names, by its ``target`` kind."""

NEGOTIATION_OVER = "the Negotiation phase is over for this round"
DISCLOSE_ONLY_IN_NEGOTIATION = ("players may only disclose or take back a disclosure during the "
                                "Negotiation phase")
WITHDRAW_RULE = "only the offerer may withdraw an offer, and only before it is answered"
ANSWER_RULE = "only the player an offer is made to may accept or decline it, and only once"
NO_BRIBERY = ("this table plays without Regulated Bribery, so no deal is binding; Gold may still "
              "be given")
DEAL_KINDS = ("offer_deal", "solicit_deal", "accept_deal", "decline_deal", "withdraw_deal")


def target_rule(card: str) -> str:
    """Whom ``card`` may name, as a sentence: the refusal of any other target."""
    kind = CARDS[card].target
    if kind is None:
        return f"{card} names nobody, so its target is null"
    return f"{card} names {NEEDS[kind]}"


def waiting_for(seats: list[Seat]) -> str:
    """"{0}, {1} and {2}" for that many seats."""
    return listed([f"{{{i}}}" for i in range(len(seats))], "and")


def refusal(state: Table, seat: Seat, action: Mapping[str, Any], refused: IllegalAction
            ) -> IllegalAction | None:
    """The rule that refuses ``action`` by ``seat`` (an action the core has ``refused``), or
    ``None`` when the core's own sentence is the best there is."""
    kind = action.get("type")
    if refused.code not in ("not_allowed_now", "not_your_turn", f"bad_{kind}"):
        return None
    if kind in ("disclose", "take_back", "ready", "withdraw_ready"):
        return _negotiation(state, seat, action)
    if kind == "play":
        return _play(state, seat)
    if kind in ("play_sabotage", "pass"):
        return _sabotage(state, seat, action)
    if kind == "give_gold":
        return _gold(state, seat)
    if kind in DEAL_KINDS:
        return _deal(state, seat, action)
    return None


def _negotiation(state: Table, seat: Seat, action: Mapping[str, Any]) -> IllegalAction | None:
    kind = action["type"]
    if state.phase != Phase.NEGOTIATION:
        if kind in ("disclose", "take_back"):  # the book's own words, under Disclosure
            return IllegalAction("negotiation_over", DISCLOSE_ONLY_IN_NEGOTIATION)
        return IllegalAction("negotiation_over", NEGOTIATION_OVER)
    if kind == "disclose" and seat in state.barred:
        return IllegalAction("accused", "Public Accusation bars you from disclosing again this round")
    if kind == "take_back" and state.disclosed[seat] is None:
        return IllegalAction("nothing_disclosed", "you have no disclosed tile to take back")
    if kind == "ready" and state.ready[seat]:
        others = [s for s in range(state.players) if not state.ready[s]]
        return IllegalAction("already_ready", "you are already ready; Negotiation ends when "
                             f"{waiting_for(others)} {'is' if len(others) == 1 else 'are'} ready too",
                             tuple(others))
    if kind == "withdraw_ready" and not state.ready[seat]:
        return IllegalAction("not_ready", "you are not ready, so there is no ready to withdraw")
    return None


def _play(state: Table, seat: Seat) -> IllegalAction | None:
    if state.phase == Phase.NEGOTIATION:
        return IllegalAction("still_negotiating", "tiles are placed once every player is ready; "
                             "during Negotiation you may disclose one")
    if state.phase != Phase.PLAY or state.play is None:
        return IllegalAction("tiles_revealed", "the tiles are revealed; you place a tile again "
                             "next round")
    if state.disclosed[seat] is not None:  # Play: "Players who have not Disclosed each select ..."
        return IllegalAction("disclosed", "your disclosed tile is the tile you play; it is already "
                             "on your Disclosure card")
    if not state.play.expects(seat):
        others = sorted(state.play.waiting())
        return IllegalAction("already_placed", "you have already placed your tile; waiting for "
                             f"{waiting_for(others)}", tuple(others))
    return None


def _sabotage(state: Table, seat: Seat, action: Mapping[str, Any]) -> IllegalAction | None:
    if action["type"] == "pass":
        if state.window is None:
            return IllegalAction("no_window", "passing is for the After-Reveal and Scoring windows "
                                 "of Sabotage cards")
        if not state.hands[seat]:
            return IllegalAction("no_sabotage", "you hold no Sabotage card, so the Sabotage windows "
                                 "do not ask you")
        return None
    card = action.get("card")
    if not isinstance(card, str):
        return None if state.hands[seat] else IllegalAction("no_sabotage", "you hold no Sabotage card")
    if card not in CARDS:
        return IllegalAction("no_such_card", f"there is no Sabotage card {shown(card, as_json=True)}")
    if card not in state.hands[seat]:
        return IllegalAction("card_not_held", f"you do not hold {card}")
    timing = CARDS[card].timing
    if PHASE_WORDS.get(state.phase) != TIMING_WORDS[timing]:
        return IllegalAction("wrong_timing", f"{card} is played {TIMING_WORDS[timing]}, not "
                             f"{PHASE_WORDS.get(state.phase, 'now')}")
    targets = state._targets(seat, card)
    if targets is None:
        return IllegalAction("no_target", f"{card} needs {NEEDS[str(CARDS[card].target)]}, and "
                             "there is none now")
    if "target" not in action:
        return None
    return _target(state, seat, card, action["target"], targets)


def _target(state: Table, seat: Seat, card: str, target: object, targets: tuple[Any, ...]
            ) -> IllegalAction | None:
    kind = CARDS[card].target
    if target in targets and type(target) is type(targets[0]):
        return None
    if kind is None:
        return IllegalAction("bad_target", target_rule(card))
    if type(target) is not int or not 0 <= target < state.players:
        return None  # not a player at all: the card's rule, from its domain, says whom it names
    if target == seat and kind != "honest":
        return IllegalAction("own_seat", f"{card} names another player, not yourself")
    why = {
        "disclosed": "{0} has no tile on their Disclosure card",
        "other_gold": "{0} has no Gold to take",
        "other_bread": "{0}'s tile does not count as Bread",
        "other_circus": "{0}'s tile does not count as Circus",
        "honest": ("{0}'s honest bonus is already cancelled" if target in state.modifiers["exposed"]
                   else "{0} did not disclose honestly"),
    }.get(str(kind))
    return None if why is None else IllegalAction("bad_target", why, (target,))


def _gold(state: Table, seat: Seat) -> IllegalAction | None:
    if state.phase == Phase.PLAY:  # game-facts 3.4.8: Gold passes "during Negotiation and Scoring"
        return IllegalAction("gold_not_now", "Gold changes hands during Negotiation and the "
                             "After-Reveal and Scoring windows, not while tiles are placed")
    if not state.gold[seat]:
        return IllegalAction("no_gold", "you have no Gold to give")
    return None


def _deal(state: Table, seat: Seat, action: Mapping[str, Any]) -> IllegalAction | None:
    if not state.options.regulated_bribery:
        return IllegalAction("no_regulated_bribery", NO_BRIBERY)
    if state.phase != Phase.NEGOTIATION:
        return IllegalAction("negotiation_over", "deals are offered and answered during the "
                             "Negotiation phase, which is over for this round")
    kind = action["type"]
    if kind in ("offer_deal", "solicit_deal"):
        return None
    if "deal" not in action:
        if kind == "withdraw_deal" and not state.deals.own_offers(seat):
            return IllegalAction("no_offer", "you have no unanswered offer to withdraw")
        if kind != "withdraw_deal" and not state.deals.open_offers(seat):
            return IllegalAction("no_offer", "no offer waits for your answer")
        return None
    deal_id = action["deal"]
    if type(deal_id) is not int or not 0 <= deal_id < len(state.deals.deals):
        return IllegalAction("no_such_deal",
                             f"there is no such deal; you sent {shown(deal_id, as_json=True)}")
    deal = state.deals.get(deal_id)
    if kind == "withdraw_deal":
        if seat != deal.offered_by:
            return _about(deal, "not_your_offer", f"{WITHDRAW_RULE}: {{0}} made {{deal}}", deal.offered_by)
        if deal.status != OFFERED:
            return _about(deal, "deal_answered", f"{WITHDRAW_RULE}: {{deal}} is already {deal.status}")
        return None
    if deal.status == ACCEPTED:
        return _about(deal, "deal_answered", "{deal} is already accepted, and binds {0} and {1}",
                      deal.payer, deal.payee)
    if deal.status != OFFERED:
        return _about(deal, "deal_answered", f"{{deal}} is already {deal.status}; {ANSWER_RULE}")
    if seat != deal.other_side():
        if seat == deal.offered_by:
            return _about(deal, "not_offered_to_you", "you proposed {deal}; {0} accepts or declines it",
                          deal.other_side())
        return _about(deal, "not_offered_to_you", f"{ANSWER_RULE}: {{deal}} is for {{0}} to answer",
                      deal.other_side())
    return None


def _about(deal: Deal, code: str, sentence: str, *seats: Seat) -> IllegalAction:
    """A refusal about ``deal``, which ``sentence`` names as ``{deal}``: by what it moves and between
    whom ("the deal of 3 Gold from Ann to Bob"), as the table shows it, never by its number."""
    n = len(seats)
    named = sentence.replace("{deal}", f"the deal of {deal.amount} Gold from {{{n}}} to {{{n + 1}}}")
    return IllegalAction(code, named, (*seats, deal.payer, deal.payee))
