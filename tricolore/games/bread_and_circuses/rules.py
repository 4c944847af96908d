"""Bread and Circuses: the complete game, as a state machine on the core model.

A round: **Negotiation**, in which anyone may disclose a tile face down on the Bread or Circus
icon of their Disclosure card (honestly or not), take it back or change it, play a Negotiation
Sabotage card, give Gold, and, with regulated bribery, offer, solicit and answer deals. A player
who has declared ready may still do all of that (or withdraw their ready); any such change clears
everyone else's ready, and the phase ends when every player is ready at once. **Play**: players
who did not disclose choose a tile at the same time (a simultaneous secret move). **Reveal**: all
tiles are shown, the deals due this round are settled, then the After-Reveal window for Sabotage
cards. **Score**: the riot check, the Scoring window, Gold for every tile, the Abstain penalty,
the honest-disclosure bonus, and the Riot Counter. The game ends at the end of a round in which
someone has five times the number of players in Gold, or the counter is at five; the richest
wins, and a tie plays on until the end of the first round in which one player alone is richest.

Decisions on what the rulebook leaves open are in ``docs/games/bread-and-circuses.md``.
"""

from __future__ import annotations

import functools
import marshal
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Self, cast

from mypy_extensions import mypyc_attr

from tricolore.core import (
    Action,
    ActionFamily,
    ActionSpace,
    Amount,
    Choice,
    GameInfo,
    IllegalAction,
    Prompt,
    ResponseWindow,
    Result,
    SealedSubmissions,
    Seat,
    State,
)
from tricolore.core.actions import NO_ACTIONS, rebuilt, worded
from tricolore.core.deals import Deal, DealBook, DealError, about
from tricolore.core.draws import choice, randrange, shuffle
from tricolore.core.fields import Copy, Field, Seen, declare, payload
from tricolore.core.model import one_prompt, prompt, prompts
from tricolore.games.bread_and_circuses import refusals
from tricolore.games.bread_and_circuses.data import (
    ABSTAIN,
    AFTER_REVEAL,
    BREAD,
    CARDS,
    CIRCUS,
    GOLD_TO_END_PER_PLAYER,
    ICONS,
    NEGOTIATION,
    RIOTS_TO_END,
    SABOTAGE,
    SCORING,
    TILES,
    Phase,
    sabotage_per_player,
)
from tricolore.games.bread_and_circuses.options import BreadOptions

# The phases as module constants, which the compiled build reads directly (``Phase.X`` is a
# lookup on the enum class at each of the many comparisons a decision makes).
AFTER_REVEAL_PHASE: Final = Phase.AFTER_REVEAL
NEGOTIATION_PHASE: Final = Phase.NEGOTIATION
OVER_PHASE: Final = Phase.OVER
PLAY_PHASE: Final = Phase.PLAY
SCORING_PHASE: Final = Phase.SCORING

WINDOW_TIMING = {AFTER_REVEAL_PHASE: AFTER_REVEAL, SCORING_PHASE: SCORING}

DEAL_CONDITIONS: tuple[str, ...] = ("play", "any_but", "honest")
"""What a deal may ask of the player it pays (Regulated Bribery: "play Bread", "play any card
except Abstain", "be honest about your Disclosure")."""
DEAL_ROUNDS: tuple[str, ...] = ("this", "next")
"""When the condition is decided: this round's reveal, or next round's ("a promised future
in-game action")."""

# Action families that depend on nothing are built once and shared (they are immutable).
DISCLOSE = ActionFamily(
    "disclose", {"tile": Choice(TILES), "icon": Choice(ICONS, refusal=(
        "a tile is disclosed on the Bread or Circus icon of your Disclosure card, never on "
        "Abstain"))},
    help="Place a tile face down on an icon of your Disclosure card")
DISCLOSE_FORGED = ActionFamily(
    "disclose", {"tile": Choice(TILES), "icon": Choice((*ICONS, ABSTAIN), refusal=(
        "a tile is disclosed on the Bread or Circus icon, or on Abstain with your Forged "
        "Promise"))},
    help="Place a tile face down on an icon of your Disclosure card")
TAKE_BACK = ActionFamily("take_back", help="Pick your disclosed tile back up")
READY = ActionFamily("ready", help="You are done negotiating this round")
NEGOTIATION_KINDS = tuple(
    (*(kind for kind, offered in (("disclose", may_disclose), ("take_back", disclosed),
                                  ("play_sabotage", holds_sabotage)) if offered), "ready")
    for may_disclose in (False, True) for disclosed in (False, True) for holds_sabotage in (False, True))
"""The kinds a player not yet declared ready is asked in Negotiation, at ``4 * (may disclose) +
2 * (has a disclosed tile) + (holds Sabotage)``."""
READY_SPACE = ActionSpace((READY,))
PLAY_SPACE = ActionSpace((ActionFamily("play", {"tile": Choice(TILES)},
                                       help="Place a tile face down in front of you"),))
PASS = ActionFamily("pass", help="Play nothing now")
PASS_SPACE = ActionSpace((PASS,))


INFO = GameInfo(
    name="bread-and-circuses", title="Bread and Circuses", rules_version="2", min_players=3,
    max_players=8, options=BreadOptions, simultaneous=True, hidden_information=True, chance=True,
    summary="Bluff with Bread, Circus and Abstain tiles: feed and amuse the mob, or profit from it.")


# The moves (:meth:`BreadState.legal_moves`): passing, ready and taking back, then a tile placed,
# a disclosure (a tile on an icon), and a Sabotage card with whom it names. Each stands for the
# same action in every position. The free actions (Gold, deals, ``withdraw_ready`` and a ready
# player's negotiation moves) have no moves: they stay open through ``apply``.
PASS_MOVE: Final = 0
READY_MOVE: Final = 1
TAKE_BACK_MOVE: Final = 2
PLAY_MOVES: Final = 3
"""A tile placed face down: ``PLAY_MOVES + i`` plays ``TILES[i]``."""
DISCLOSE_MOVES: Final = PLAY_MOVES + len(TILES)
"""A disclosure: ``DISCLOSE_MOVES + 3 * i + j`` puts ``TILES[i]`` on the icon ``TILES[j]``
(Abstain, ``j == 2``, only with Forged Promise)."""
SABOTAGE_MOVES: Final = DISCLOSE_MOVES + len(TILES) * len(TILES)
TARGET_SLOTS: Final = INFO.max_players + 1
"""A Sabotage card: ``SABOTAGE_MOVES + TARGET_SLOTS * c + slot`` plays ``SABOTAGE[c]`` naming
nobody (``slot == 0``, target null: a card that names nobody) or seat ``slot - 1``."""
MOVE_COUNT: Final = SABOTAGE_MOVES + TARGET_SLOTS * len(SABOTAGE)
"""Every move is below this (not every number below it is a move)."""

# Whom a card names (``Sabotage.target``), and when it is played, as small ints.
NOBODY_TARGET: Final = 0
DISCLOSED_TARGET: Final = 1
OTHER_GOLD_TARGET: Final = 2
OTHER_BREAD_TARGET: Final = 3
OTHER_CIRCUS_TARGET: Final = 4
HONEST_TARGET: Final = 5
OTHER_TARGET: Final = 6
_TARGET_KINDS: Final[dict[str | None, int]] = {
    None: NOBODY_TARGET, "disclosed": DISCLOSED_TARGET, "other_gold": OTHER_GOLD_TARGET,
    "other_bread": OTHER_BREAD_TARGET, "other_circus": OTHER_CIRCUS_TARGET,
    "honest": HONEST_TARGET, "other": OTHER_TARGET}
NEGOTIATION_TIMING: Final = 0
AFTER_REVEAL_TIMING: Final = 1
SCORING_TIMING: Final = 2
_TIMINGS: Final[dict[str, int]] = {NEGOTIATION: NEGOTIATION_TIMING, AFTER_REVEAL: AFTER_REVEAL_TIMING,
                                   SCORING: SCORING_TIMING}
_CARD_INDEX: Final[dict[str, int]] = {card.name: c for c, card in enumerate(SABOTAGE)}
_CARD_TARGET: Final[list[int]] = [_TARGET_KINDS[card.target] for card in SABOTAGE]
_CARD_TIMING: Final[list[int]] = [_TIMINGS[card.timing] for card in SABOTAGE]


def _move_action(move: int) -> dict[str, Any]:
    """The action of ``move`` (see the moves above)."""
    if move == PASS_MOVE:
        return {"type": "pass"}
    if move == READY_MOVE:
        return {"type": "ready"}
    if move == TAKE_BACK_MOVE:
        return {"type": "take_back"}
    if PLAY_MOVES <= move < DISCLOSE_MOVES:
        return {"type": "play", "tile": TILES[move - PLAY_MOVES]}
    if DISCLOSE_MOVES <= move < SABOTAGE_MOVES:
        tile, icon = divmod(move - DISCLOSE_MOVES, len(TILES))
        return {"type": "disclose", "tile": TILES[tile], "icon": TILES[icon]}
    if SABOTAGE_MOVES <= move < MOVE_COUNT:
        c, slot = divmod(move - SABOTAGE_MOVES, TARGET_SLOTS)
        card = SABOTAGE[c]
        if (card.target is None) == (slot == 0):
            return {"type": "play_sabotage", "card": card.name,
                    "target": None if slot == 0 else slot - 1}
    raise ValueError(f"no such move: {move!r}")


def _negotiation_moves(may_disclose: int, disclosed: bool) -> list[int]:
    """A negotiating player's moves without Sabotage: its disclosures (none, on Bread or Circus,
    or on any icon with Forged Promise), taking back, and ready."""
    icons = (0, len(ICONS), len(TILES))[may_disclose]
    moves = [DISCLOSE_MOVES + len(TILES) * tile + icon
             for tile in range(len(TILES)) for icon in range(icons)]
    if disclosed:
        moves.append(TAKE_BACK_MOVE)
    moves.append(READY_MOVE)
    return moves


_NO_MOVES: Final[list[int]] = []
_READY: Final = [READY_MOVE]
_PASS: Final = [PASS_MOVE]
_PLAYS: Final = [PLAY_MOVES + tile for tile in range(len(TILES))]
_NEGOTIATION: Final = [_negotiation_moves(may_disclose, disclosed)
                       for may_disclose in range(3) for disclosed in (False, True)]
"""Without Sabotage, at ``2 * may_disclose + disclosed``: ``may_disclose`` is 0 for a player
barred by Public Accusation, 2 with Forged Promise, else 1."""
_SEATS_IN: Final = [tuple([s for s in range(INFO.max_players) if mask >> s & 1])
                    for mask in range(1 << INFO.max_players)]
"""The seats of each bitmask ``mask`` of seats, in seat order."""
_MOVE_ACTIONS: Final[dict[int, dict[str, Any]]] = {}
"""Each move's action, made the first time it is asked and shared by every position (a tile
played is kept as the sealed move; no rule changes an action it keeps)."""


@dataclass(frozen=True, slots=True, init=False)
class Payout:
    """One seat's Gold for a round, step by step."""

    tile: str
    counts_as: str
    tile_gold: int
    honest_bonus: int
    riot_penalty: int
    paid: int

    # Written out, not generated, so that the compiled build makes it natively (see
    # tricolore.core.actions.Worded).
    def __init__(self, tile: str, counts_as: str, tile_gold: int, honest_bonus: int, riot_penalty: int,
                 paid: int) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "counts_as", counts_as)
        object.__setattr__(self, "tile_gold", tile_gold)
        object.__setattr__(self, "honest_bonus", honest_bonus)
        object.__setattr__(self, "riot_penalty", riot_penalty)
        object.__setattr__(self, "paid", paid)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def as_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {"tile": self.tile, "counts_as": self.counts_as, "tile_gold": self.tile_gold,
                "honest_bonus": self.honest_bonus, "riot_penalty": self.riot_penalty,
                "paid": self.paid}


def gold_held(gold: int) -> str:
    """The most Gold a player may give, as a refusal says it."""
    return f"you have {gold} Gold"


def tile_gold(counts_as: str, breads: int, circuses: int, riot: bool) -> int:
    """Gold a tile earns: Bread earns the Circuses, Circus the Breads, Abstain both if no riot."""
    if counts_as == BREAD:
        return circuses
    if counts_as == CIRCUS:
        return breads
    return 0 if riot else breads + circuses


def riot_advance(rabble_rouser: bool, appease_the_mob: bool) -> int:
    """How far a riot moves the counter: 1, 2 with Rabble-Rouser, 0 with Appease the Mob; both
    cancel out."""
    if rabble_rouser == appease_the_mob:
        return 1
    return 2 if rabble_rouser else 0


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class BreadState(State):
    """A game of Bread and Circuses. See the module docstring for the shape of a round."""

    info = INFO
    FIELDS = declare(
        options=Field(digest=False),
        round=Field(),
        phase=Field(),
        gold=Field(copy=Copy.SHALLOW),
        riots=Field(),
        hands=Field(copy=Copy.NESTED, seen=Seen.OWNER),
        undealt=Field(copy=Copy.SHALLOW, seen=Seen.NOBODY),
        played=Field(copy=Copy.SHALLOW),
        first_player=Field(),
        deals=Field(copy=Copy.OWN, digest=payload),
        history=Field(copy=Copy.SHALLOW),
        disclosed=Field(copy=Copy.SHALLOW, seen=Seen.OWNER),
        barred=Field(copy=Copy.SHALLOW, digest=sorted),
        forged=Field(copy=Copy.SHALLOW, digest=sorted),
        ready=Field(copy=Copy.SHALLOW),
        declared=Field(copy=Copy.SHALLOW),
        tie_break=Field(copy=Copy.SHALLOW),
        peeks=Field(copy=Copy.NESTED, seen=Seen.OWNER, digest=lambda peeks: sorted(
            (s, sorted(known.items())) for s, known in peeks.items())),
        play=Field(copy=Copy.OWN, digest=payload, seen=Seen.OWNER),
        tiles=Field(copy=Copy.SHALLOW),
        counts_as=Field(copy=Copy.SHALLOW),
        extra=Field(copy=Copy.SHALLOW),
        modifiers=Field(copy=Copy.NESTED,
                        digest=lambda modifiers: {k: sorted(v) for k, v in modifiers.items()}),
        riot_cards=Field(copy=Copy.SHALLOW),
        window=Field(copy=Copy.OWN, digest=payload),
        end_reason=Field(),
    )
    """The state's fields. ``view`` and ``determinize`` are written out: they say which tiles,
    hands and disclosures each seat knows (an Informant's peeks among them)."""

    def __init__(self, players: int, seed: int, options: BreadOptions) -> None:
        self._init_base(players, seed)
        self.options = options
        self.gold = [players] * players
        self.riots = 0
        deck = [card.name for card in SABOTAGE]
        shuffle(self.rng, deck)
        per = sabotage_per_player(players)
        self.hands = [sorted(deck[per * s:per * (s + 1)]) for s in range(players)]
        self.undealt = deck[per * players:]
        self.played: list[dict[str, Any]] = []
        self.first_player = (options.first_player if options.first_player is not None
                             else randrange(self.rng, players))
        self.deals = DealBook(players)
        self.round = 0
        self.history: list[dict[str, Any]] = []
        self.end_reason: str | None = None
        self.tie_break: dict[str, Any] | None = None
        """Set when an end condition was met with the most Gold shared: the round and the
        condition. The game then ends at the end of the first round with one richest player."""
        if self.record_events:
            for s in range(players):
                self.emit("sabotage_dealt", to=[s], seat=s, cards=list(self.hands[s]))
        self._new_round(first=True)

    def _new_round(self, first: bool = False) -> None:
        self.round += 1
        if not first:
            self.first_player = (self.first_player + 1) % self.players
        self.phase = NEGOTIATION_PHASE
        self.disclosed: list[tuple[str, str] | None] = [None] * self.players
        self.barred: set[Seat] = set()
        self.forged: set[Seat] = set()
        self.ready = [False] * self.players
        self.declared = [False] * self.players
        """Who has declared ready at least once this round: they are asked only to confirm it
        again, their other negotiation moves being open to them at any time."""
        self.peeks: dict[Seat, dict[Seat, str]] = {}
        self.play: SealedSubmissions | None = None
        self.tiles: list[str] = []
        self.counts_as: list[str] = []
        self.extra = {BREAD: 0, CIRCUS: 0}
        self.modifiers: dict[str, set[Seat]] = {"exposed": set(), "monopoly": set(),
                                                 "spoiled": set(), "magistrate": set()}
        self.riot_cards = {"Rabble-Rouser": False, "Appease the Mob": False}
        self.window: ResponseWindow | None = None
        if self.record_events:
            self.emit("round_started", round=self.round, first_player=self.first_player,
                      gold=list(self.gold), riots=self.riots)

    # -- public facts ------------------------------------------------------------------------
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is OVER_PHASE

    def counts(self) -> tuple[int, int]:
        """Breads and Circuses counted this round, Sabotage effects included."""
        breads = sum(1 for t in self.counts_as if t == BREAD) + self.extra[BREAD]
        circuses = sum(1 for t in self.counts_as if t == CIRCUS) + self.extra[CIRCUS]
        return breads, circuses

    def riot(self) -> bool:
        """Whether the peasants riot: no Bread, or no Circus."""
        breads, circuses = self.counts()
        return breads == 0 or circuses == 0

    def honest(self, seat: Seat) -> bool:
        """Whether ``seat`` disclosed and played the tile on the icon it disclosed on."""
        disclosure = self.disclosed[seat]
        return disclosure is not None and bool(self.tiles) and self.tiles[seat] == disclosure[1]

    # -- prompts -----------------------------------------------------------------------------
    def _pending(self) -> Mapping[Seat, Prompt]:
        """Who must act now."""
        if self.phase is NEGOTIATION_PHASE:  # kinds from public facts only: hands are secret
            return {s: prompt(s, self._negotiation_kinds(s))
                    for s in range(self.players) if not self.ready[s]}
        if self.phase is PLAY_PHASE:
            assert self.play is not None
            return prompts(self.play.waiting(), ("play",), secret=True)
        if self.window is not None:
            seat = self.window_seat()
            assert seat is not None
            return one_prompt(seat, ("play_sabotage", "pass"), window=self.phase)
        return {}

    def _negotiation_kinds(self, seat: Seat) -> tuple[str, ...]:
        if self.declared[seat]:
            return ("ready",)
        return NEGOTIATION_KINDS[4 * (seat not in self.barred) + 2 * (self.disclosed[seat] is not None)
                                 + bool(self.hands[seat])]

    def window_seat(self) -> Seat | None:
        """The seat the open Sabotage window asks now: the first that has not passed and still
        holds a Sabotage card (whether it can play one now is its secret)."""
        if self.window is None:
            return None
        return next((s for s in self.window.waiting() if self.hands[s]), None)

    def _playable(self, seat: Seat) -> tuple[str, ...]:
        timing = NEGOTIATION if self.phase is NEGOTIATION_PHASE else WINDOW_TIMING.get(self.phase)
        return tuple(c for c in self.hands[seat]
                     if CARDS[c].timing == timing and self._targets(seat, c) is not None)

    def _targets(self, seat: Seat, card: object) -> tuple[Any, ...] | None:
        """Whom ``card`` may name now (``(None,)`` for a card that names nobody); ``None`` if it
        cannot be played at all."""
        if not isinstance(card, str) or card not in CARDS:
            return None
        others = [s for s in range(self.players) if s != seat]
        kind = CARDS[card].target
        if kind is None:
            found: tuple[Any, ...] = (None,)
        elif kind == "disclosed":
            found = tuple(s for s in others if self.disclosed[s] is not None)
        elif kind == "other_gold":
            found = tuple(s for s in others if self.gold[s])
        elif kind in ("other_bread", "other_circus"):
            wanted = BREAD if kind == "other_bread" else CIRCUS
            found = tuple(s for s in others if self.counts_as and self.counts_as[s] == wanted)
        elif kind == "honest":
            found = tuple(s for s in range(self.players)
                          if self.honest(s) and s not in self.modifiers["exposed"])
        else:
            found = tuple(others)
        return found or None

    def _sabotage_family(self, seat: Seat) -> ActionFamily | None:
        cards = self._playable(seat)
        if not cards:
            return None
        return ActionFamily(
            "play_sabotage",
            {"card": Choice(cards), "target": functools.partial(self._target_domain, seat)},
            help="Play a Sabotage card (target: the player it names, or null)")

    def _target_domain(self, seat: Seat, chosen: Mapping[str, Any]) -> Choice:
        """Whom the chosen card may name now; any other target is refused with the card's rule."""
        card = chosen.get("card")
        rule = refusals.target_rule(card) if isinstance(card, str) and card in CARDS else None
        return Choice(self._targets(seat, card) or (), refusal=rule)

    def _negotiation_moves(self, seat: Seat) -> list[ActionFamily]:
        """Disclose, take back, and Negotiation Sabotage cards: open to ``seat`` until the phase
        closes for everyone."""
        families: list[ActionFamily] = []
        if seat not in self.barred:
            families.append(DISCLOSE_FORGED if seat in self.forged else DISCLOSE)
        if self.disclosed[seat] is not None:
            families.append(TAKE_BACK)
        sabotage = self._sabotage_family(seat)
        if sabotage is not None:
            families.append(sabotage)
        return families

    def _legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions ``seat`` may take for its prompt: every negotiation move and ``ready``
        until it first declares ready, then only ``ready`` (to confirm it again after another
        player's change; its moves stay open as free actions)."""
        families: list[ActionFamily] = []
        if self.phase is NEGOTIATION_PHASE and not self.ready[seat]:
            if self.declared[seat]:
                return READY_SPACE
            families += self._negotiation_moves(seat)
            families.append(READY)
        elif self.phase is PLAY_PHASE and self.play is not None and self.play.expects(seat):
            return PLAY_SPACE
        elif self.window is not None and seat == self.window_seat():
            sabotage = self._sabotage_family(seat)
            if sabotage is None:
                return PASS_SPACE
            families += (sabotage, PASS)
        else:
            return NO_ACTIONS
        return ActionSpace(tuple(families))

    def _free_actions(self, seat: Seat) -> ActionSpace:
        """Gold changes hands during Negotiation and Scoring; deals, with regulated bribery,
        during Negotiation. A player who has declared ready keeps every negotiation move (and
        may withdraw their ready) until the phase closes."""
        families: list[ActionFamily] = []
        others = tuple(s for s in range(self.players) if s != seat)
        if self.phase is NEGOTIATION_PHASE and self.declared[seat]:
            families += self._negotiation_moves(seat)
            if self.ready[seat]:
                families.append(ActionFamily("withdraw_ready",
                                             help="You are not done negotiating after all"))
        if self.phase in (NEGOTIATION_PHASE, AFTER_REVEAL_PHASE, SCORING_PHASE) and self.gold[seat]:
            families.append(ActionFamily(
                "give_gold",
                {"to": Choice(others, refusal="Gold is given to another player at this table"),
                 "gold": Amount(1, self.gold[seat], 2, worded(gold_held, self.gold[seat]))},
                help="Give Gold to another player"))
        if self.phase is NEGOTIATION_PHASE and self.options.regulated_bribery:
            top = GOLD_TO_END_PER_PLAYER * self.players
            terms: dict[str, Any] = {
                "to": Choice(others, refusal="a deal is made with another player at this table"),
                "gold": Amount(1, top, 2, f"a deal promises at most {top} Gold, the Gold that "
                                          "ends the game"),
                "condition": Choice(DEAL_CONDITIONS, refusal="a deal's condition is 'play' (a "
                                    "tile), 'any_but' (any tile but one) or 'honest' (an honest "
                                    "disclosure)"),
                "tile": lambda chosen: (
                    Choice((None,), refusal="an honesty deal names no tile, so its tile is null")
                    if chosen.get("condition") == "honest" else
                    Choice(TILES, refusal="a deal about a tile names bread, circus or abstain")),
                "when": Choice(DEAL_ROUNDS, refusal="a deal is about this round or the next, so "
                                                    "its when is 'this' or 'next'")}
            families += [
                ActionFamily("offer_deal", terms,
                             help="Offer Gold to a player if they meet a condition (play a tile, "
                                  "any tile but one, or honestly; this round or next); binding "
                                  "once accepted"),
                ActionFamily("solicit_deal", terms,
                             help="Ask a player for Gold if you meet a condition (play a tile, "
                                  "any tile but one, or honestly; this round or next); binding "
                                  "once accepted")]
            answerable = tuple(d.id for d in self.deals.open_offers(seat))
            if answerable:
                answer = Choice(answerable, refusal=refusals.ANSWER_RULE)
                families += [ActionFamily("accept_deal", {"deal": answer},
                                          help="Accept a deal offered to you"),
                             ActionFamily("decline_deal", {"deal": answer},
                                          help="Decline a deal offered to you")]
            mine = tuple(d.id for d in self.deals.own_offers(seat))
            if mine:
                families.append(ActionFamily("withdraw_deal",
                                             {"deal": Choice(mine, refusal=refusals.WITHDRAW_RULE)},
                                             help="Withdraw an offer not yet answered"))
        return ActionSpace(tuple(families))

    def refusal(self, seat: Seat, action: Action, refused: IllegalAction) -> IllegalAction | None:
        """An action refused in general words ("you cannot take back now", "it is not your turn",
        "the deal must be 0") is refused instead with the rule that refuses it, naming the
        players it concerns (:mod:`.refusals`)."""
        return refusals.refusal(self, seat, action, refused)

    # -- moves -------------------------------------------------------------------------------
    def acting(self) -> tuple[Seat, ...]:
        """The seats asked now, in seat order."""
        phase = self.phase
        if phase is NEGOTIATION_PHASE:
            ready = self.ready
            mask = 0
            for s in range(self.players):
                if not ready[s]:
                    mask |= 1 << s
            return _SEATS_IN[mask]
        if phase is PLAY_PHASE:
            play = self.play
            assert play is not None
            return play.waiting()
        seat = self._window_asks()
        return () if seat < 0 else _SEATS_IN[1 << seat]

    def legal_moves(self, seat: Seat) -> list[int]:
        """The prompt's actions as moves (see the moves above); every one of them is a move."""
        phase = self.phase
        if phase is NEGOTIATION_PHASE and not self.ready[seat]:
            if self.declared[seat]:
                return _READY
            may_disclose = 0 if seat in self.barred else 2 if seat in self.forged else 1
            moves = _NEGOTIATION[2 * may_disclose + (self.disclosed[seat] is not None)]
            if not self.hands[seat]:
                return moves
            sabotage: list[int] = []
            self._sabotage_moves(seat, NEGOTIATION_TIMING, sabotage)
            return moves + sabotage if sabotage else moves
        if phase is PLAY_PHASE:
            play = self.play
            if play is not None and play.expects(seat):
                return _PLAYS
        if self.window is None or seat != self._window_asks():
            return _NO_MOVES
        timing = (AFTER_REVEAL_TIMING if phase is AFTER_REVEAL_PHASE
                  else SCORING_TIMING if phase is SCORING_PHASE else -1)
        found: list[int] = []
        self._sabotage_moves(seat, timing, found)
        if not found:
            return _PASS
        found.append(PASS_MOVE)
        return found

    def move_action(self, move: int) -> dict[str, Any]:
        """The action of ``move``, made once and shared."""
        found = _MOVE_ACTIONS.get(move)
        if found is None:
            found = _MOVE_ACTIONS[move] = _move_action(move)
        return found

    def _window_asks(self) -> Seat:
        """:meth:`window_seat` without making the tuple of seats waiting; -1 for nobody."""
        window = self.window
        if window is None:
            return -1
        hands = self.hands
        for s in window.order:
            if hands[s] and window.waits_for(s):
                return s
        return -1

    def _sabotage_moves(self, seat: Seat, timing: int, moves: list[int]) -> None:
        """Append to ``moves`` each card of ``seat``'s played at ``timing`` with each target it
        may name now (as :meth:`_playable` and :meth:`_targets` say)."""
        players = self.players
        for card in self.hands[seat]:
            c = _CARD_INDEX.get(card, -1)
            if c < 0 or _CARD_TIMING[c] != timing:
                continue
            base = SABOTAGE_MOVES + TARGET_SLOTS * c
            kind = _CARD_TARGET[c]
            if kind == NOBODY_TARGET:
                moves.append(base)
            elif kind == HONEST_TARGET:
                exposed = self.modifiers["exposed"]
                for s in range(players):
                    if self.honest(s) and s not in exposed:
                        moves.append(base + 1 + s)
            else:
                for s in range(players):
                    if s == seat:
                        continue
                    if kind == DISCLOSED_TARGET:
                        named = self.disclosed[s] is not None
                    elif kind == OTHER_GOLD_TARGET:
                        named = self.gold[s] != 0
                    elif kind == OTHER_BREAD_TARGET:
                        named = bool(self.counts_as) and self.counts_as[s] == BREAD
                    elif kind == OTHER_CIRCUS_TARGET:
                        named = bool(self.counts_as) and self.counts_as[s] == CIRCUS
                    else:
                        named = True
                    if named:
                        moves.append(base + 1 + s)

    # -- negotiation -------------------------------------------------------------------------
    def do_disclose(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """A tile face down on the Bread or Circus icon (Abstain only with Forged Promise)."""
        self.disclosed[seat] = (action["tile"], action["icon"])
        self._forget_peeks(seat)
        if self.record_events:
            self.emit("disclosed", seat=seat, icon=action["icon"])
            self.emit("disclosed_tile", to=[seat], seat=seat, tile=action["tile"])
        self._table_changed(seat)

    def do_take_back(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Pick the disclosed tile back up."""
        self.disclosed[seat] = None
        self._forget_peeks(seat)
        if self.record_events:
            self.emit("disclosure_taken_back", seat=seat)
        self._table_changed(seat)

    def _forget_peeks(self, seat: Seat) -> None:
        for known in self.peeks.values():
            known.pop(seat, None)

    def _table_changed(self, seat: Seat) -> None:
        """A change during Negotiation clears everyone else's ready, so that nobody is caught by
        a late change they agreed to nothing about (as trading screens do). Any disclosure counts,
        even one that puts the same tile back: the tile is secret, so the table cannot tell."""
        if self.phase is not NEGOTIATION_PHASE:
            return
        cleared = [s for s in range(self.players) if s != seat and self.ready[s]]
        for s in cleared:
            self.ready[s] = False
        if cleared and self.record_events:
            self.emit("ready_cleared", seats=cleared, by=seat)

    def do_ready(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Done negotiating; when everyone is at once, the undisclosed choose their tiles."""
        self.ready[seat] = True
        self.declared[seat] = True
        if self.record_events:
            self.emit("ready", seat=seat)
        if all(self.ready):
            self._end_negotiation()

    def do_withdraw_ready(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Not done after all: the phase stays open until this player is ready again."""
        self.ready[seat] = False
        if self.record_events:
            self.emit("ready_withdrawn", seat=seat)

    def _end_negotiation(self) -> None:
        for deal in self.deals.lapse():
            if self.record_events:
                self.emit("deal_lapsed", deal=deal.id)
        choosers = [s for s in range(self.players) if self.disclosed[s] is None]
        self.phase = PLAY_PHASE
        self.play = SealedSubmissions("play", choosers, revisable=False)
        if self.record_events:
            self.emit("negotiation_over", disclosed=[s for s in range(self.players)
                                                     if self.disclosed[s] is not None])
        if not choosers:
            self._reveal()

    def do_give_gold(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Gold to another player: a bribe, a payment, a gift."""
        self.gold[seat] -= action["gold"]
        self.gold[action["to"]] += action["gold"]
        if self.record_events:
            self.emit("gold_given", giver=seat, receiver=action["to"], gold=action["gold"])
        self._table_changed(seat)  # Gold moved may change what a deal can pay
        self._settle_window()

    # -- regulated bribery -------------------------------------------------------------------
    def do_offer_deal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """A bribe offered: "N Gold if you play X (any tile but X, honestly), this round or
        next"."""
        self._propose(seat, seat, action["to"], action)

    def do_solicit_deal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """A bribe solicited: "pay me N Gold if I play X (...)"; the other side pays."""
        self._propose(seat, action["to"], seat, action)

    def _propose(self, seat: Seat, payer: Seat, payee: Seat, action: Mapping[str, Any]) -> None:
        """Record the offer; the condition always binds the payee, whoever offered."""
        condition: dict[str, Any] = {"round": self.round + (1 if action["when"] == "next" else 0)}
        if action["condition"] == "honest":
            condition["honest"] = True
        else:
            condition[action["condition"]] = action["tile"]
        try:
            deal = self.deals.offer(seat, payer, payee, action["gold"], condition)
        except DealError as exc:
            raise IllegalAction("bad_deal", str(exc)) from None
        if self.record_events:  # a call with ** is an interpreted one: made only for an event kept
            self.emit("deal_offered", **deal.as_dict())
        self._table_changed(seat)

    def do_accept_deal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Accept: from now on neither side can break the deal."""
        deal = self.deals.accept(seat, action["deal"])
        if self.record_events:
            self.emit("deal_accepted", deal=deal.id, seat=seat)
        self._table_changed(seat)

    def do_decline_deal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Decline an offer."""
        deal = self.deals.decline(seat, action["deal"])
        if self.record_events:
            self.emit("deal_declined", deal=deal.id, seat=seat)
        self._table_changed(seat)

    def do_withdraw_deal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Withdraw an offer nobody has answered."""
        deal = self.deals.withdraw(seat, action["deal"])
        if self.record_events:
            self.emit("deal_withdrawn", deal=deal.id, seat=seat)
        self._table_changed(seat)

    def deal_holds(self, deal: Deal) -> bool:
        """Whether the payee met the deal's condition in the round just revealed: played the
        tile, played any tile but the one named, or disclosed honestly (the tile played is the
        icon it was disclosed on; a player without a disclosure was not honest about one)."""
        condition, seat = deal.condition, deal.payee
        if "play" in condition:
            return self.tiles[seat] == condition["play"]
        if "any_but" in condition:
            return self.tiles[seat] != condition["any_but"]
        return self.honest(seat)

    def _pay(self, payer: Seat, payee: Seat, amount: int) -> int:
        paid = min(amount, self.gold[payer])
        self.gold[payer] -= paid
        self.gold[payee] += paid
        return paid

    # -- Sabotage ----------------------------------------------------------------------------
    def do_play_sabotage(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Play a Sabotage card whose timing allows it now; it is discarded."""
        card, target = action["card"], action["target"]
        self.hands[seat].remove(card)
        self.played.append({"round": self.round, "seat": seat, "card": card, "target": target})
        if self.record_events:
            self.emit("sabotage_played", seat=seat, card=card, target=target)
        getattr(self, "_" + card.lower().replace(" ", "_").replace("-", "_"))(seat, target)
        self._table_changed(seat)
        if self.window is not None:
            self.window.acted(seat)
        self._settle_window()

    def _informant(self, seat: Seat, target: Seat) -> None:
        disclosure = self.disclosed[target]
        assert disclosure is not None
        self.peeks.setdefault(seat, {})[target] = disclosure[0]
        if self.record_events:
            self.emit("informant_report", to=[seat], seat=seat, target=target, tile=disclosure[0])

    def _public_accusation(self, seat: Seat, target: Seat) -> None:
        self.disclosed[target] = None
        self._forget_peeks(target)
        self.barred.add(target)

    def _pickpocket(self, seat: Seat, target: Seat) -> None:
        self.gold[target] -= 1
        self.gold[seat] += 1

    def _forged_promise(self, seat: Seat, target: None) -> None:
        self.forged.add(seat)

    def _grain_hoarding(self, seat: Seat, target: Seat) -> None:
        self.counts_as[target] = ABSTAIN

    def _cancelled_games(self, seat: Seat, target: Seat) -> None:
        self.counts_as[target] = ABSTAIN

    def _secret_granary(self, seat: Seat, target: None) -> None:
        self.counts_as[seat] = BREAD

    def _hired_acrobats(self, seat: Seat, target: None) -> None:
        self.counts_as[seat] = CIRCUS

    def _charity_kitchen(self, seat: Seat, target: None) -> None:
        self.extra[BREAD] += 1

    def _street_players(self, seat: Seat, target: None) -> None:
        self.extra[CIRCUS] += 1

    def _exposed_lie(self, seat: Seat, target: Seat) -> None:
        self.modifiers["exposed"].add(target)

    def _monopoly(self, seat: Seat, target: None) -> None:
        self.modifiers["monopoly"].add(seat)

    def _spoiled_supplies(self, seat: Seat, target: Seat) -> None:
        self.modifiers["spoiled"].add(target)

    def _bribed_magistrate(self, seat: Seat, target: None) -> None:
        self.modifiers["magistrate"].add(seat)

    def _rabble_rouser(self, seat: Seat, target: None) -> None:
        self.riot_cards["Rabble-Rouser"] = True

    def _appease_the_mob(self, seat: Seat, target: None) -> None:
        self.riot_cards["Appease the Mob"] = True

    def do_pass(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Play nothing in this window."""
        assert self.window is not None
        self.window.passed(seat)
        self._settle_window()

    def _open_window(self, name: Phase) -> None:
        self.phase = name
        self.window = ResponseWindow.clockwise(name, self.players, self.first_player)
        self._settle_window()

    def _settle_window(self) -> None:
        """Close Sabotage windows nobody can play in, and move on."""
        while self.window is not None and self.window_seat() is None:
            self.window = None
            if self.phase is AFTER_REVEAL_PHASE:
                if self.record_events:
                    self.emit("riot_check", breads=self.counts()[0], circuses=self.counts()[1],
                              riot=self.riot())
                self._open_window(SCORING_PHASE)
            else:
                self._score()

    # -- play, reveal, score -----------------------------------------------------------------
    def do_play(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Choose a tile face down; when everyone has, all tiles are revealed."""
        assert self.play is not None
        if self.record_events:
            self.emit("has_chosen", seat=seat, move="play")
        if self.play.submit(seat, action):
            self._reveal()

    def _reveal(self) -> None:
        chosen = {} if self.play is None else {s: a["tile"] for s, a in self.play.in_seat_order()}
        self.play = None
        self.tiles = [chosen[s] if self.disclosed[s] is None else self.disclosed[s][0]  # type: ignore[index]
                      for s in range(self.players)]
        self.counts_as = list(self.tiles)
        if self.record_events:
            self.emit("tiles_revealed", tiles=list(self.tiles),
                      honest=[self.honest(s) for s in range(self.players)])
        for deal in self.deals.settle(self.deal_holds, self._pay,
                                      due=about("round", self.round)):
            if self.record_events:  # a call with ** is an interpreted one: made only for an event kept
                self.emit("deal_settled", **deal.as_dict())
        self._open_window(AFTER_REVEAL_PHASE)

    def payouts(self) -> list[Payout]:
        """Each seat's Gold this round, with every Sabotage effect applied."""
        breads, circuses = self.counts()
        riot = breads == 0 or circuses == 0
        out = []
        for s in range(self.players):
            counts_as = self.counts_as[s]
            earned = tile_gold(counts_as, breads, circuses, riot)
            if s in self.modifiers["spoiled"]:
                earned = 0  # doubled and zeroed is zero
            elif s in self.modifiers["monopoly"]:
                earned *= 2
            bonus = int(self.honest(s) and s not in self.modifiers["exposed"])
            penalty = (self.players if riot and counts_as == ABSTAIN
                       and s not in self.modifiers["magistrate"] else 0)
            before = self.gold[s]
            after = max(0, before + earned + bonus - penalty)
            out.append(Payout(self.tiles[s], counts_as, earned, bonus, penalty, after - before))
        return out

    def _score(self) -> None:
        breads, circuses = self.counts()
        riot = self.riot()
        payouts = self.payouts()
        for s, p in enumerate(payouts):
            self.gold[s] += p.paid
        advance = riot_advance(self.riot_cards["Rabble-Rouser"],
                               self.riot_cards["Appease the Mob"]) if riot else 0
        self.riots += advance
        summary: dict[str, Any] = {"round": self.round, "breads": breads, "circuses": circuses, "riot": riot,
                   "riot_advance": advance, "payouts": [p.as_dict() for p in payouts],
                   "gold": list(self.gold)}
        self.history.append(summary)
        if self.record_events:  # a call with ** is an interpreted one: made only for an event kept
            self.emit("round_scored", **summary)
        self._end_round()

    def _end_round(self) -> None:
        """Ending the Game: an end condition met with one richest player ends it; met with a tie,
        "play continues until there is only one player in possession of the greatest amount of
        Gold", so from then on the first round that leaves one player alone richest ends it,
        whether or not an end condition still holds."""
        richest = max(self.gold)
        alone = self.gold.count(richest) == 1
        if self.tie_break is None and (richest >= GOLD_TO_END_PER_PLAYER * self.players
                                       or self.riots >= RIOTS_TO_END):
            reason = "riots" if self.riots >= RIOTS_TO_END else "gold"
            if alone:
                self._game_over(reason)
                return
            self.tie_break = {"round": self.round, "reason": reason}
        elif self.tie_break is not None and alone:
            self._game_over(self.tie_break["reason"])
            return
        if self.tie_break is not None and self.record_events:
            self.emit("tie_plays_on", gold=richest)
        if self.options.max_rounds is not None and self.round >= self.options.max_rounds:
            self._game_over("rounds")
            return
        self._new_round()

    def _game_over(self, reason: str) -> None:
        self.phase = OVER_PHASE
        self.window = None
        self.end_reason = reason
        for deal in self.deals.lapse(accepted=True):  # next round's promises never come due
            if self.record_events:
                self.emit("deal_lapsed", deal=deal.id)
        if self.record_events:
            self.emit("game_over", reason=reason, gold=list(self.gold), riots=self.riots)

    # -- results and views -------------------------------------------------------------------
    def result(self) -> Result:
        """The richest wins (alone, unless the ``max_rounds`` option stopped a tie)."""
        breakdown = [{"gold": self.gold[s],
                      "rounds": [h["payouts"][s]["paid"] for h in self.history],
                      "honest_disclosures": sum(1 for h in self.history
                                                if h["payouts"][s]["honest_bonus"])}
                     for s in range(self.players)]
        metrics = {"rounds": float(self.round), "riots": float(self.riots),
                   "riot_rounds": float(sum(1 for h in self.history if h["riot"])),
                   "deals_paid": float(sum(1 for d in self.deals.deals if d.status == "paid")),
                   "sabotage_played": float(len(self.played))}
        return Result.from_scores([float(g) for g in self.gold], breakdown, metrics)

    def last_round(self) -> dict[str, Any] | None:
        """What the table still shows of the last round scored (``None`` before the first): each
        seat's tile and what it counted as, the Breads and Circuses counted, and the riot."""
        if not self.history:
            return None
        last = self.history[-1]
        return {"round": last["round"], "tiles": [p["tile"] for p in last["payouts"]],
                "counts_as": [p["counts_as"] for p in last["payouts"]],
                "counts": {"breads": last["breads"], "circuses": last["circuses"]},
                "riot": last["riot"], "riot_advance": last["riot_advance"]}

    def public_view(self) -> dict[str, Any]:
        """What every seat sees: disclosed icons but not tiles, hand sizes but not cards."""
        revealed = bool(self.tiles)
        out: dict[str, Any] = {
            "game": self.info.name, "players": self.players, "phase": self.phase,
            "round": self.round, "first_player": self.first_player, "gold": list(self.gold),
            "riots": self.riots, "gold_to_end": GOLD_TO_END_PER_PLAYER * self.players,
            "disclosures": [None if d is None else d[1] for d in self.disclosed],
            "barred": sorted(self.barred), "forged": sorted(self.forged), "ready": list(self.ready),
            "tie_break": None if self.tie_break is None else dict(self.tie_break),
            "play": None if self.play is None else self.play.public(),
            "sabotage_cards": [len(h) for h in self.hands],
            "sabotage_played": [dict(p) for p in self.played],
            "tiles": list(self.tiles) if revealed else None,
            "counts_as": list(self.counts_as) if revealed else None,
            "extra": dict(self.extra),
            "counts": dict(zip(("breads", "circuses"), self.counts(), strict=True)) if revealed else None,
            "riot": self.riot() if self.phase is SCORING_PHASE else None,
            "window": None if self.window is None else {**self.window.public(),
                                                         "asking": self.window_seat()},
            "deals": [d.as_dict() for d in self.deals.deals],
            "last_round": self.last_round(),
            "history": self._history_copy(),
            "pending": [p.as_dict() for p in self.pending().values()],
            "options": self.options.as_dict(),
        }
        if self.phase is OVER_PHASE:
            out["end_reason"] = self.end_reason
            out["result"] = self.result().as_dict()
        return out

    def _history_copy(self) -> list[dict[str, Any]]:
        """A fresh copy of the rounds played, for a view (as :func:`~tricolore.core.copy_json`
        makes, in half the time): read back in C from their marshalled form, kept while no round
        is added (rounds are only appended, and a round's summary is never changed). A container
        written twice would come back as one; each summary is made afresh, so none is."""
        blob = self.kept_while(("history copy",), len(self.history), marshal.dumps, self.history)
        return cast(list[dict[str, Any]], marshal.loads(blob))

    def private_view(self, seat: Seat) -> dict[str, Any]:
        """``seat``'s Sabotage hand, its disclosed and sealed tiles, and what its Informant saw."""
        disclosure = self.disclosed[seat]
        sealed = None if self.play is None else self.play.submitted(seat)
        return {"sabotage": list(self.hands[seat]),
                "disclosed_tile": None if disclosure is None else disclosure[0],
                "sealed_tile": None if sealed is None else sealed["tile"],
                "informant": [self.peeks.get(seat, {}).get(s) for s in range(self.players)]}

    # -- search and replay -------------------------------------------------------------------
    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Resample what ``seat`` does not know: other players' Sabotage hands (from every card it
        has not seen), their disclosed tiles (unless its Informant saw them) and their sealed
        tiles."""
        other = self.reseeded_clone(rng.getrandbits(64), self.log_for(seat))
        if self.phase is OVER_PHASE:
            return other
        others = [s for s in range(self.players) if s != seat]
        unseen = self.undealt + [c for s in others for c in self.hands[s]]
        shuffle(rng, unseen)
        for s in others:
            size = len(self.hands[s])
            other.hands[s], unseen = sorted(unseen[:size]), unseen[size:]
        other.undealt = unseen
        if not self.tiles:
            known = self.peeks.get(seat, {})
            for s in others:
                disclosure = self.disclosed[s]
                if disclosure is not None and s not in known:
                    other.disclosed[s] = (choice(rng, TILES), disclosure[1])
        if other.play is not None:
            for s, _ in list(other.play.in_seat_order()):
                if s != seat:
                    other.play.replace(s, {"type": "play", "tile": choice(rng, TILES)})
        return other
