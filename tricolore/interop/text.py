"""A text environment: a researcher's own agent loop over words, in TextArena's convention.

Every seat is driven by text. :meth:`TextEnv.reset` starts a game and returns the first
``(player_id, observation)``; :meth:`TextEnv.step` takes that player's answer and returns
``(done, info)``; :meth:`TextEnv.get_observation` gives the next ``(player_id, observation)``, and
:meth:`TextEnv.close` the rewards once the game is over::

    env = TextEnv("culottes-trials", 4, seed=1, negotiation_rounds=1)
    player, observation = env.reset()
    done = False
    while not done:
        done, info = env.step(my_agent(player, observation))
        player, observation = env.get_observation()
    rewards, result = env.close()

An observation shows the seat's view of the table (compacted as for language-model players: see
:func:`tricolore.agents.llm.compact`), what happened since that seat last played (the log's
sentences, only what it may see), the messages it may read said since then, and what it is asked.

**Decisions.** The answer holds an optional message line, then the action as JSON, for example::

    [to Danton] I will vote with you on this one.
    [action] {"type": "vote", "guess": true}

The message is ``[to all] text`` (or plain text: everyone hears it) or ``[to <name>] text``
(that player alone). The ``[action]`` marker may be left out: the last JSON object is the action.
The answer ``{"action": {...}, "chat": {"to": ..., "text": ...}}`` of the language-model players is
read too. An answer without a legal action gets its refusal as one sentence at the head of the
next observation and is asked again, up to ``retries`` times; then a default legal action (one the
prompt asks for, drawn from the environment's seeded generator) is played for it, and ``info``
says so. A legal action whose message cannot be sent (an unknown name, only oneself named) stands:
the message is dropped, counted, and why heads the seat's next observation.

**Free actions.** Gifts, disclosures and deals are offered beside what the prompt asks, marked
"any time". After :data:`~tricolore.agents.llm.FREE_IN_A_ROW` of them in a row, or a free action
that changed nothing in the seat's view (that kind is then withdrawn), only what the prompt asks is
offered until the seat answers it, so that no agent can stall a game.

**Negotiation rounds.** With ``negotiation_rounds`` above 0, before a decision that matters (the
first decision of the deciding seat's phase, round, turn or trial with a real choice, or only
before the kinds ``negotiate_before`` names) every seat in turn, starting with the one about to
decide, is asked for one message per round: ``[to all] text``, ``[to <name>] text`` or ``[pass]``.
What they say is part of the others' next observations; a private message reaches its addressee
alone.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricolore.agents import Message
from tricolore.agents.llm import (
    FREE_IN_A_ROW,
    MAX_SAID,
    Refused,
    action_schema,
    chat_line,
    chat_summary,
    compact,
    event_sentence,
    read_answer,
)
from tricolore.core.actions import ActionSpace
from tricolore.core.errors import OptionsError
from tricolore.core.inputs import text_problem
from tricolore.core.registry import get_game
from tricolore.core.terminal import named

ACTION_MARKER = "[action]"
"""What precedes the action's JSON in an answer (optional)."""
PASS_MARKER = "[pass]"
"""A negotiation answer that says nothing."""
MAX_NEGOTIATION_ROUNDS = 10
"""The most negotiation rounds before one decision."""
MAX_RETRIES = 10
"""The most retries an invalid answer may be given."""
MOMENT_FIELDS = ("phase", "round", "turn", "trial")
"""The fields of a view whose change makes the next decision one to negotiate before."""


@dataclass(frozen=True, slots=True)
class Asking:
    """Who is asked what now: ``seat`` must ``decide`` (an action) or send one negotiation message
    (``round`` of ``rounds``, before ``decider`` decides)."""

    seat: int
    decide: bool
    round: int = 0
    rounds: int = 0
    decider: int = 0


class TextEnv:
    """One game of ``game`` for ``players`` seats, each played through text (see the module's
    notes). ``names`` are the seats' names (``seat 0``, ``seat 1``, ... by default)."""

    def __init__(self, game: str, players: int, *, seed: int = 0,
                 options: Mapping[str, Any] | None = None, names: Sequence[str] | None = None,
                 negotiation_rounds: int = 0, negotiate_before: Sequence[str] | None = None,
                 retries: int = 2) -> None:
        self.game = get_game(game)
        if type(negotiation_rounds) is not int or not 0 <= negotiation_rounds <= MAX_NEGOTIATION_ROUNDS:
            raise OptionsError(f"negotiation_rounds must be a whole number from 0 to "
                               f"{MAX_NEGOTIATION_ROUNDS}; it is {negotiation_rounds!r:.40}")
        if type(retries) is not int or not 0 <= retries <= MAX_RETRIES:
            raise OptionsError(f"retries must be a whole number from 0 to {MAX_RETRIES}; "
                               f"it is {retries!r:.40}")
        self.game.new(players, seed, options)  # a bad player count or option gets its sentence now
        if names is not None:
            names = tuple(str(n).strip() for n in names)
            if (len(names) != players or any(not n for n in names)
                    or len({n.casefold() for n in names}) < players):
                raise OptionsError(f"names must give each of the {players} seats its own name")
        self.players = players
        self.seed = seed
        self.options = dict(options or {})
        self.names: tuple[str, ...] = names or tuple(f"seat {s}" for s in range(players))
        self.negotiation_rounds = negotiation_rounds
        self.negotiate_before = tuple(negotiate_before) if negotiate_before is not None else None
        self.retries = retries
        self.reset(seed)

    # -- the loop ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[int, str]:
        """Start the game again (with ``seed``, if given) and return the first player and its
        observation."""
        if seed is not None:
            self.seed = seed
        self.state = self.game.new(self.players, self.seed, self.options)
        self.state.record_events = True
        self.rng = random.Random(f"text:{self.seed}")
        self.chat: list[Message] = []
        self.seen_events = [0] * self.players
        self.seen_chat = [0] * self.players
        self.queue: list[Asking] = []
        self.moment: tuple[object, ...] | None = None
        self.free_in_a_row = [0] * self.players
        self.futile: list[set[str]] = [set() for _ in range(self.players)]
        self.refusal: str | None = None
        self.tries = 0
        self.invalid = [0] * self.players
        self.fallbacks = [0] * self.players
        self.unsent = [0] * self.players
        self.notice = [""] * self.players
        self.asking = self._next()
        return self.get_observation()

    def get_observation(self) -> tuple[int, str]:
        """The player asked now and its observation (``(-1, "")`` once the game is over)."""
        if self.asking is None:
            return -1, ""
        return self.asking.seat, self._observe(self.asking)

    def step(self, text: str) -> tuple[bool, dict[str, Any]]:
        """Play the asked player's answer; return whether the game is over and what happened:
        ``info`` holds ``player_id``, ``said`` (the message kept, or ``None``), ``action`` (the
        action played, or ``None``), ``invalid`` (the refusal's sentence, or ``None``) and
        ``fallback`` (whether a default action was played for it), and ``unsent`` (why the
        message beside a legal action could not be sent, the action standing; or ``None``)."""
        asking = self.asking
        if asking is None:
            raise OptionsError("the game is over: call reset() to play again")
        if not isinstance(text, str):
            raise OptionsError("an answer must be text")
        info: dict[str, Any] = {"player_id": asking.seat, "said": None, "action": None, "invalid": None,
                                "fallback": False, "unsent": None}
        if not asking.decide:
            try:
                said = self._message(text, asking.seat, negotiating=True)
            except Refused as exc:
                said, info["invalid"] = None, str(exc)
                self.invalid[asking.seat] += 1
            if said is not None:
                self.chat.append(said)
                info["said"] = chat_line(said, self.names)
            self.queue.pop(0)
            self.asking = self._next()
            return self.asking is None, info
        legal = self._offered(asking.seat)
        try:
            action, said, unsent = self._answer(text, legal, asking.seat)
        except Refused as exc:
            self.invalid[asking.seat] += 1
            info["invalid"] = str(exc)
            if self.tries < self.retries:
                self.tries += 1
                self.refusal = str(exc)
                return False, info
            action, said, unsent = self._default(asking.seat, legal), None, None
            self.fallbacks[asking.seat] += 1
            info["fallback"] = True
        if unsent is not None:  # the action stands; the message is dropped, counted and told
            self.unsent[asking.seat] += 1
            self.notice[asking.seat] = f"Your last message was not sent: {unsent}"
            info["unsent"] = unsent
        if said is not None:
            self.chat.append(said)
            info["said"] = chat_line(said, self.names)
        self._play(asking.seat, action)
        info["action"] = action
        self.asking = self._next()
        return self.asking is None, info

    def close(self) -> tuple[dict[int, float], dict[str, Any]]:
        """The rewards (1 for each winner, 0 for the others) and the result: ``scores``,
        ``winners``, and per seat the ``invalid`` answers, ``fallbacks`` and ``unsent`` messages.
        Before the game is over the rewards are all 0."""
        if not self.state.is_over():
            return (dict.fromkeys(range(self.players), 0.0),
                    {"over": False, "invalid": list(self.invalid), "fallbacks": list(self.fallbacks),
                     "unsent": list(self.unsent)})
        result = self.state.result()
        rewards = {s: 1.0 if s in result.winners else 0.0 for s in range(self.players)}
        return rewards, {"over": True, "scores": list(result.scores), "winners": sorted(result.winners),
                         "invalid": list(self.invalid), "fallbacks": list(self.fallbacks),
                         "unsent": list(self.unsent)}

    # -- whose turn ------------------------------------------------------------------------------
    def _next(self) -> Asking | None:
        self.refusal, self.tries = None, 0
        if self.queue:
            return self.queue[0]
        if self.state.is_over():
            return None
        seat = min(self.state.pending())
        if self.negotiation_rounds and self._matters(seat):
            order = [(seat + k) % self.players for k in range(self.players)]
            self.queue = [Asking(s, False, r + 1, self.negotiation_rounds, seat)
                          for r in range(self.negotiation_rounds) for s in order]
            return self.queue[0]
        return Asking(seat, True)

    def _matters(self, seat: int) -> bool:
        """Whether the seat's coming decision is one to negotiate before (each moment once)."""
        legal = self.state.legal_actions(seat)
        if self.negotiate_before is not None:
            if not any(k in self.negotiate_before for k in legal.kinds):
                return False
        elif len(legal.kinds) < 2 and not any(f.params for f in legal.families):
            return False  # no real choice
        view = self.state.view(seat)
        moment = (seat if self.negotiate_before is not None else None, legal.kinds,
                  *(view.get(k) for k in MOMENT_FIELDS), len(self.state.log) if self.negotiate_before else 0)
        if moment == self.moment:
            return False
        self.moment = moment
        return True

    # -- what a seat may do ------------------------------------------------------------------------
    def _offered(self, seat: int) -> ActionSpace:
        asked = self.state.legal_actions(seat)
        if self.free_in_a_row[seat] >= FREE_IN_A_ROW:
            return asked
        free = [f for f in self.state.free_actions(seat).families
                if f.kind not in self.futile[seat] and f.kind not in asked.kinds]
        return ActionSpace(asked.families + tuple(free))

    def _answer(self, text: str, legal: ActionSpace, seat: int
                ) -> tuple[dict[str, Any], Message | None, str | None]:
        """The action of ``text``, its message, and why that message cannot be sent (``None`` if
        it can or there is none): a legal action stands even when its message is refused."""
        head, marker, tail = text.partition(ACTION_MARKER)
        if not marker:
            start = _last_object(text)
            if start < 0:
                raise Refused('it holds no action: end it with [action] and the action as JSON, like '
                              '[action] {"type": "pass"}.')
            head, tail = text[:start], text[start:]
        action, chat = read_answer(tail, legal)
        try:
            said = self._message(head, seat, negotiating=False) if head.strip() else None
            if said is None and chat is not None:
                said = self._chat(chat, seat)
        except Refused as exc:
            return action, None, str(exc)
        return action, said, None

    def _chat(self, chat: Any, seat: int) -> Message | None:
        if not isinstance(chat, dict) or not isinstance(chat.get("text"), str):
            raise Refused('the chat must be an object {"to": ..., "text": ...}.')
        to = chat.get("to", "all")
        if to in ("all", None):
            return self._message(chat["text"], seat, negotiating=False)
        named = to if isinstance(to, str) else ", ".join(map(str, to)) if isinstance(to, list) else ""
        return self._message(f"[to {named}] {chat['text']}", seat, negotiating=False)

    def _message(self, text: str, seat: int, *, negotiating: bool) -> Message | None:
        """The message of ``text`` (``[to all] ...``, ``[to <names>] ...`` or plain), or ``None``
        for ``[pass]`` or nothing; :class:`Refused` says why one cannot be sent."""
        text = text.strip()
        if not text or text.casefold() == PASS_MARKER:
            return None
        to: tuple[int, ...] | None = None
        if text.startswith("[to ") and "]" in text:
            named, _, text = text[4:].partition("]")
            text = text.strip()
            if named.strip().casefold() != "all":
                to = self._seats(named, seat)
        why = text_problem(text, "message", MAX_SAID, lines=True)
        if why:
            raise Refused(why + ".")
        if not text:
            raise Refused("the message is empty." if negotiating
                          else "the message before the action is empty.")
        return Message(seat, text, to)

    def _seats(self, named: str, seat: int) -> tuple[int, ...]:
        folded = {n.casefold(): s for s, n in enumerate(self.names)}
        seats: list[int] = []
        for name in named.split(","):
            found = folded.get(name.strip().casefold())
            if found is None:
                raise Refused(f"there is no player named {name.strip()[:40]!r}; the players are "
                              + ", ".join(self.names) + ".")
            if found != seat and found not in seats:
                seats.append(found)
        if not seats:
            raise Refused("a private message must name another player.")
        return tuple(seats)

    def _default(self, seat: int, legal: ActionSpace) -> dict[str, Any]:
        asked = self.state.legal_actions(seat)
        return (asked or legal).sample(self.rng)

    def _play(self, seat: int, action: dict[str, Any]) -> None:
        asked = action["type"] in self.state.legal_actions(seat).kinds
        before = _json(self.state.view(seat)) if not asked else ""
        self.state.apply(seat, action)
        if asked:
            self.free_in_a_row[seat] = 0
            self.futile[seat].clear()
            return
        self.free_in_a_row[seat] += 1
        if _json(self.state.view(seat)) == before:
            self.futile[seat].add(action["type"])

    # -- what a seat is shown --------------------------------------------------------------------
    def _observe(self, asking: Asking) -> str:
        seat = asking.seat
        state = self.state
        view = state.view(seat)
        events = state.events_for(seat, self.seen_events[seat])
        self.seen_events[seat] = len(state.log)
        readable = [m for m in self.chat if m.readable_by(seat)]
        seen = min(self.seen_chat[seat], len(readable))
        self.seen_chat[seat] = len(readable)
        said = ([chat_summary(readable[:seen], self.names, seat)] if seen else [])
        said += [chat_line(m, self.names) for m in readable[seen:]]
        shown = {k: v for k, v in view.items() if k not in ("game",)}
        parts = [f"You are {self.names[seat]} (seat {seat}) in {self.game.info.title}. The players are: "
                 + ", ".join(f"{n} (seat {s})" for s, n in enumerate(self.names)) + ".",
                 "Your view of the table:\n" + _json(compact(shown)),
                 "What happened since you last played (oldest first):\n"
                 + ("\n".join(event_sentence(self.game.info.name, e, named(view, self.names))
                              for e in events) or "(nothing)"),
                 "What was said since you last played (oldest first):\n" + ("\n".join(said) or "(nothing)")]
        if self.refusal:
            parts.insert(0, f"Your last answer was refused: {self.refusal} Answer again.")
        if self.notice[seat]:
            parts.insert(0, self.notice[seat])
            self.notice[seat] = ""
        if asking.decide:
            legal = self._offered(seat)
            parts.append("Your legal actions (JSON schema; an action marked \"any time\" leaves your "
                         "decision open):\n"
                         + _json(action_schema(legal, self.state.legal_actions(seat).kinds)))
            parts.append("Answer with an optional message line ([to all] text, or [to <name>] text for one "
                         "player alone), then [action] and your action as one JSON object.")
        else:
            who = "you" if asking.decider == seat else self.names[asking.decider]
            parts.append(f"Negotiation, round {asking.round} of {asking.rounds}, before {who} "
                         f"decide{'' if who == 'you' else 's'}: send one message, [to all] text or "
                         "[to <name>] text for one player alone, or [pass] to say nothing.")
        return "\n\n".join(parts)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _last_object(text: str) -> int:
    """Where the last top-level JSON object of ``text`` starts (-1: none): the last ``{`` whose
    object closes at the text's last ``}``."""
    end = text.rfind("}")
    depth = 0
    for i in range(end, -1, -1):
        if text[i] == "}":
            depth += 1
        elif text[i] == "{":
            depth -= 1
            if depth == 0:
                return i
    return -1
