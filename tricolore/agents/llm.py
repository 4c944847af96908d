"""Language-model players: an agent that asks an OpenAI-compatible chat-completions endpoint.

The agent is told the game's rules summary, its seat's view, the latest events and the chat it
may read, and its legal actions as a JSON schema (:func:`action_schema`). It answers with one
JSON object, ``{"action": {...}, "chat": {"to": "all" | [names], "text": "..."}}`` (the chat is
optional), so it may negotiate, promise and bluff in words while the engine keeps the deals.

An answer that is not JSON, or whose action is not legal, is sent back once with the refusal's
sentence; a second bad answer, a timeout or a failing endpoint is replaced by a random legal
action (a *fallback*). :class:`Counters` counts the calls, retries, fallbacks, tokens (from the
endpoint's ``usage``) and latency.

Configuration (:func:`make`): ``TRICOLORE_LLM_URL`` (the endpoint's base URL, such as
``http://localhost:11434/v1``, or its full ``/chat/completions`` URL), ``TRICOLORE_LLM_MODEL`` and
``TRICOLORE_LLM_KEY`` (sent as a bearer token, if set); the strategy ``llm:<model>`` names the
model, and ``@name=value`` suffixes set ``timeout`` (seconds), ``temperature`` and ``memory``
(events shown), e.g. ``llm:qwen2.5:7b@timeout=60@temperature=0.7``.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from importlib import resources
from typing import Any

import httpx

from tricolore.agents import RECENT_EVENTS, Heard, Message, Said
from tricolore.core.actions import ActionFamily, ActionSpace, Amount, Choice, Domain, Subset, Text
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.inputs import InputError, loads, text_problem
from tricolore.core.model import Game

URL_VARIABLE = "TRICOLORE_LLM_URL"
MODEL_VARIABLE = "TRICOLORE_LLM_MODEL"
KEY_VARIABLE = "TRICOLORE_LLM_KEY"
TIMEOUT_VARIABLE = "TRICOLORE_LLM_TIMEOUT"

MAX_SAID = 500
"""The longest chat message the agent may send, in characters (a table's chat limit)."""
MAX_BRANCHES = 32
"""Most variants one kind of action is spelled out into when a parameter's values depend on an
earlier one (beyond that, the dependent parameter is described without bounds)."""
FREE_IN_A_ROW = 3
"""After this many free actions in a row (gifts, disclosures, deals), the agent is offered only
what its prompt asks, so that a talkative model cannot keep a game from moving on."""

SYSTEM_TEMPLATE = """\
You are playing {title}, a negotiation board game, in seat {seat} as "{name}". The players are: {players}.

The rules:
{rules}

At each decision you are shown your view of the table, the latest events, the chat you can read \
and your legal actions as a JSON schema. Answer with one JSON object and nothing else:
{{"action": {{...}}, "chat": {{"to": "all", "text": "..."}}}}
"action" is one action matching the schema. "chat" is optional: "to" is "all" for everyone or a \
list of player names for a private message, and "text" is at most {max_said} characters. Talk to \
win: negotiate, promise, threaten or bluff. Words bind nobody; only actions change the game, and \
only deals made through actions are kept by the game."""
"""The system message: the game, the seat, the rules summary and the answer format."""

TURN_TEMPLATE = """\
Your view of the table (JSON):
{view}

The latest events (JSON, oldest first):
{events}

The chat you can read (oldest first):
{chat}

Your legal actions (JSON schema; your action must match one of them):
{schema}

An action marked "any time" leaves your decision open: you will be asked again. Answer with one \
JSON object: {{"action": {{...}}, "chat": {{"to": "all" or [names], "text": "..."}}}} (chat optional)."""
"""The user message of each decision."""

RETRY_TEMPLATE = """\
That answer was refused: {reason} Answer again with one JSON object as described."""
"""The message that sends a refused answer back, once."""


class Refused(ValueError):
    """An answer the agent cannot use; the message is one sentence saying why."""


@dataclass(slots=True)
class Counters:
    """What a language-model player has cost and how often it failed.

    ``calls`` are requests sent; ``retries`` answers sent back once with their refusal;
    ``fallbacks`` decisions replaced by a random legal action (after two bad answers, a timeout
    or a failing endpoint), of which ``timeouts`` ran out of time and ``errors`` failed at the
    endpoint; ``prompt_tokens`` and ``completion_tokens`` add up the endpoint's ``usage``;
    ``latency`` is the seconds spent waiting for answers; ``chats`` the messages the agent said
    and ``chats_refused`` those dropped (an unknown name, text that cannot be sent).
    """

    calls: int = 0
    retries: int = 0
    fallbacks: int = 0
    timeouts: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency: float = 0.0
    chats: int = 0
    chats_refused: int = 0

    def as_dict(self) -> dict[str, float]:
        """The counters as JSON, latency rounded to milliseconds."""
        out: dict[str, float] = asdict(self)
        out["latency"] = round(self.latency, 3)
        return out


@dataclass(frozen=True, slots=True)
class Config:
    """Where and how to ask: the endpoint, the model, the key (``None``: none sent), the seconds
    an answer may take, the sampling temperature (``None``: the endpoint's default) and how many
    of the latest events to show."""

    url: str
    model: str
    key: str | None = None
    timeout: float = 30.0
    temperature: float | None = None
    memory: int = RECENT_EVENTS

    @property
    def endpoint(self) -> str:
        """The chat-completions URL."""
        url = self.url.rstrip("/")
        return url if url.endswith("/chat/completions") else url + "/chat/completions"


def configured() -> bool:
    """Whether the environment names an endpoint and a model, so ``llm`` may be offered."""
    return bool(os.environ.get(URL_VARIABLE, "").strip() and os.environ.get(MODEL_VARIABLE, "").strip())


def parse_strategy(strategy: str, environ: Mapping[str, str] | None = None) -> Config:
    """The :class:`Config` of ``llm``, ``llm:<model>`` or either with ``@name=value`` options,
    the rest from ``environ`` (the process's environment by default).

    Raises :class:`OptionsError` with one sentence for a missing endpoint or model or a bad
    option.

    >>> parse_strategy("llm:qwen2.5:7b@timeout=5", {"TRICOLORE_LLM_URL": "http://h/v1"}).model
    'qwen2.5:7b'
    """
    env = os.environ if environ is None else environ
    head, *settings = strategy.strip().split("@")
    name, colon, model = head.partition(":")
    if name != "llm":
        raise OptionsError(f"{strategy!r} is not a language-model strategy; write llm or llm:<model>")
    url = env.get(URL_VARIABLE, "").strip()
    if not url:
        raise OptionsError(f"the llm strategy needs an endpoint: set {URL_VARIABLE} to an OpenAI-compatible "
                           "chat-completions URL, such as http://localhost:11434/v1")
    if not url.startswith(("http://", "https://")):
        raise OptionsError(f"{URL_VARIABLE} must be an http:// or https:// URL")
    model = model.strip() if colon else env.get(MODEL_VARIABLE, "").strip()
    if not model:
        raise OptionsError(f"the llm strategy needs a model: write llm:<model> or set {MODEL_VARIABLE}")
    config = Config(url, model, env.get(KEY_VARIABLE, "").strip() or None)
    timeout = env.get(TIMEOUT_VARIABLE, "").strip()
    if timeout:
        config = _set(config, "timeout", timeout, f"{TIMEOUT_VARIABLE}")
    for setting in settings:
        key, equals, value = setting.partition("=")
        if not equals or key.strip() not in ("timeout", "temperature", "memory"):
            raise OptionsError(f"the llm option {setting!r} is not one of timeout=<seconds>, "
                               "temperature=<0 to 2> or memory=<events>")
        config = _set(config, key.strip(), value.strip(), f"the llm option {key.strip()}")
    return config


def _set(config: Config, key: str, value: str, what: str) -> Config:
    try:
        number = float(value) if key != "memory" else int(value)
    except ValueError:
        raise OptionsError(f"{what} must be a number; it is {value!r:.40}") from None
    bounds = {"timeout": (0.1, 600.0), "temperature": (0.0, 2.0), "memory": (0, 500)}[key]
    if not bounds[0] <= number <= bounds[1]:
        raise OptionsError(f"{what} must be from {bounds[0]:g} to {bounds[1]:g}; it is {value}")
    changes: dict[str, Any] = {key: number}
    return replace(config, **changes)


def rules_summary(game: Game) -> str:
    """The rules summary a model reads: ``summary.md`` beside the game's rules, else the game's
    one-line summary."""
    module = getattr(getattr(game, "state_class", None), "__module__", "")
    package = module.rpartition(".")[0]
    if package:
        try:
            return resources.files(package).joinpath("summary.md").read_text(encoding="utf-8").strip()
        except (FileNotFoundError, ModuleNotFoundError, OSError):
            pass
    return game.info.summary or game.info.title


def make(game: Game, strategy: str) -> LanguageModelAgent:
    """A language-model player for ``game`` from a strategy name (see :func:`parse_strategy`)."""
    return LanguageModelAgent(parse_strategy(strategy), game.info.title, rules_summary(game))


# -- the legal actions as JSON schema -----------------------------------------------------------
def domain_schema(domain: Domain) -> dict[str, Any]:
    """One parameter's domain as JSON schema."""
    if isinstance(domain, Choice):
        out: dict[str, Any] = {"enum": list(domain.options)}
        if domain.labels is not None:
            out["description"] = "; ".join(f"{json.dumps(o)}: {label}"
                                           for o, label in zip(domain.options, domain.labels, strict=True))
        return out
    if isinstance(domain, Amount):
        return {"type": "integer", "minimum": domain.low, "maximum": domain.high}
    if isinstance(domain, Text):
        return {"type": "string", "minLength": 1, "maxLength": domain.max_length}
    if isinstance(domain, Subset):
        return {"type": "array", "items": {"enum": list(domain.options)}, "uniqueItems": True,
                "minItems": domain.min_size, "maxItems": min(domain.max_size, len(domain.options))}
    described = domain.describe()
    if described.get("kind") == "bid":
        return {"type": "object", "x-domain": described,
                "description": "every chip placed, as {space name: {currency: chips}}; x-domain lists "
                               "the chips and each space's limits"}
    return {"x-domain": described, "description": "a value of the domain described in x-domain"}


def family_schemas(family: ActionFamily, any_time: bool = False) -> list[dict[str, Any]]:
    """The schemas of one kind of action: one object schema, or one per combination of the
    earlier parameters a later one depends on (at most :data:`MAX_BRANCHES`)."""
    names = list(family.params)
    dependent = [n for n in names if not isinstance(family.params[n], Domain)]
    branches: list[dict[str, Any]] = [{}]
    if dependent:
        last = names.index(dependent[-1])
        for name in names[:last]:
            if name in family.optional:
                continue
            grown: list[dict[str, Any]] = []
            for chosen in branches:
                values = _values(family, name, chosen)
                if values is None:
                    grown = []
                    break
                grown.extend({**chosen, name: v} for v in values)
            if not grown or len(grown) > MAX_BRANCHES:
                branches = [{}]
                break
            branches = grown
    out = []
    for chosen in branches:
        properties: dict[str, Any] = {"type": {"const": family.kind}}
        viable = True
        for name in names:
            if name in chosen:
                properties[name] = {"const": chosen[name]}
                continue
            try:
                domain = family.domain(name, chosen)
            except Exception:  # a domain that needs a parameter not chosen here
                properties[name] = {"description": "its values depend on the parameters before it"}
                continue
            if (values := domain.values()) is not None and len(values) == 0:
                viable = False
                break
            properties[name] = domain_schema(domain)
        if not viable:
            continue
        description = family.help or family.kind
        if any_time:
            description += " (any time: your decision stays open)"
        out.append({"type": "object", "title": family.kind, "description": description,
                    "properties": properties,
                    "required": ["type", *[n for n in names if n not in family.optional]],
                    "additionalProperties": False})
    return out


def _values(family: ActionFamily, name: str, chosen: Mapping[str, Any]) -> Sequence[object] | None:
    try:
        return family.domain(name, chosen).values()
    except Exception:  # a domain that cannot be worked out from these parameters alone
        return None


def action_schema(legal: ActionSpace, asked: Sequence[str] | None = None) -> dict[str, Any]:
    """``legal`` as one JSON schema: ``anyOf`` the object schema of each kind of action (see
    :func:`family_schemas`). Kinds not in ``asked`` (when given) are marked "any time".

    >>> from tricolore.core.actions import ActionFamily, ActionSpace, Choice
    >>> action_schema(ActionSpace((ActionFamily("vote", {"side": Choice((True, False))}),)))["anyOf"][0][
    ...     "properties"]
    {'type': {'const': 'vote'}, 'side': {'enum': [True, False]}}
    """
    schemas = []
    for family in legal.families:
        schemas.extend(family_schemas(family, asked is not None and family.kind not in asked))
    return {"anyOf": schemas}


# -- reading answers ------------------------------------------------------------------------
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def read_answer(text: str, legal: ActionSpace) -> tuple[dict[str, Any], Any]:
    """The action of an answer and its ``chat`` part (unchecked, ``None`` if absent).

    Raises :class:`Refused` with one sentence when the answer is not a JSON object holding a
    legal action. A bare action (an object with a ``type``) is taken as the action.
    """
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise Refused("it holds no JSON object.")
    try:
        answer = loads(body[start:end + 1])
    except InputError as exc:
        raise Refused(f"it is not valid JSON ({exc}).") from None
    if not isinstance(answer, dict):
        raise Refused("it must be a JSON object.")
    if "action" not in answer and "type" in answer:
        answer = {"action": answer}
    action = answer.get("action")
    if not isinstance(action, dict):
        raise Refused('it needs an "action" object with a "type" field.')
    try:
        legal.check(action)
    except IllegalAction as exc:
        raise Refused(exc.message) from None
    return action, answer.get("chat")


def read_chat(chat: Any, names: Sequence[str], seat: int) -> Said:
    """The message of an answer's ``chat`` part; :class:`Refused` says why it cannot be sent."""
    if not isinstance(chat, dict):
        raise Refused('the chat must be an object {"to": ..., "text": ...}.')
    text = chat.get("text")
    why = text_problem(text, "chat message", MAX_SAID, lines=True)
    if why:
        raise Refused(why + ".")
    assert isinstance(text, str)
    if not text.strip():
        raise Refused("the chat message is empty.")
    to = chat.get("to", "all")
    if to in ("all", None):
        return Said(text.strip(), None)
    if isinstance(to, str):
        to = [to]
    if not isinstance(to, list) or not to:
        raise Refused('the chat\'s "to" must be "all" or a list of player names.')
    folded = {n.casefold(): s for s, n in enumerate(names)}
    seats = []
    for name in to:
        found = folded.get(name.strip().casefold()) if isinstance(name, str) else None
        if found is None:
            raise Refused(f"there is no player named {str(name)[:40]!r}.")
        if found != seat and found not in seats:
            seats.append(found)
    if not seats:
        raise Refused("a private message must name another player.")
    return Said(text.strip(), tuple(seats))


# -- the agent ------------------------------------------------------------------------------
@dataclass(slots=True)
class LanguageModelAgent:
    """A player that asks a language model for each decision, and may talk while it plays.

    It sees its seat's view and, through :meth:`listen`, the latest events, the chat and the
    players' names; it is offered its free actions too (``trades``). Each decision costs one
    request, two when the first answer is refused. What it says is left in ``said`` for the
    driver (:func:`tricolore.agents.take_said`); :attr:`counters` adds up the cost.
    """

    config: Config
    title: str
    rules: str
    counters: Counters = field(default_factory=Counters)
    said: list[Said] = field(default_factory=list)
    heard: Heard | None = None
    free_in_a_row: int = 0
    client: httpx.Client | None = None

    name = "llm"
    needs_view = True
    trades = True
    talks = True

    @property
    def memory(self) -> int:
        """How many of the latest events it is shown (:func:`tricolore.agents.decide` tells it
        that many)."""
        return self.config.memory

    def listen(self, heard: Heard) -> None:
        """Keep what the driver tells before a decision (see :class:`tricolore.agents.Heard`)."""
        self.heard = heard

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The model's action, or a random legal one when it cannot give one."""
        heard = self.heard or Heard(_seat_of(view), (), (), (), ())
        self.heard = None  # told afresh before every decision
        asked = heard.asked or tuple(legal.kinds)
        if self.free_in_a_row >= FREE_IN_A_ROW and any(k in asked for k in legal.kinds):
            legal = ActionSpace(tuple(f for f in legal.families if f.kind in asked))
        messages = self.messages(view, legal, heard)
        action = self._ask(messages, legal, heard)
        if action is None:
            self.counters.fallbacks += 1
            prompted = ActionSpace(tuple(f for f in legal.families if f.kind in asked)) or legal
            action = prompted.sample(rng)
        self.free_in_a_row = 0 if action["type"] in asked else self.free_in_a_row + 1
        return action

    def messages(self, view: Mapping[str, Any], legal: ActionSpace, heard: Heard) -> list[dict[str, str]]:
        """The conversation of one decision: the system message and the turn (see
        :data:`SYSTEM_TEMPLATE` and :data:`TURN_TEMPLATE`)."""
        names = heard.names or tuple(f"seat {s}" for s in range(int(view.get("players", 0) or 0)))
        seat = heard.seat
        me = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
        players = ", ".join(f"{n} (seat {s})" for s, n in enumerate(names)) or "unknown"
        events = heard.events[-self.memory:] if self.memory else ()
        system = SYSTEM_TEMPLATE.format(title=self.title, seat=seat, name=me, players=players,
                                        rules=self.rules, max_said=MAX_SAID)
        turn = TURN_TEMPLATE.format(
            view=json.dumps(view, separators=(",", ":"), ensure_ascii=False),
            events="\n".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in events)
            or "(none)",
            chat="\n".join(_chat_line(m, names) for m in heard.chat) or "(none)",
            schema=json.dumps(action_schema(legal, heard.asked or None), separators=(",", ":"),
                              ensure_ascii=False))
        return [{"role": "system", "content": system}, {"role": "user", "content": turn}]

    def _ask(self, messages: list[dict[str, str]], legal: ActionSpace, heard: Heard) -> dict[str, Any] | None:
        """The first legal action of at most two answers; ``None`` to fall back."""
        for attempt in range(2):
            text = self._complete(messages)
            if text is None:
                return None
            try:
                action, chat = read_answer(text, legal)
            except Refused as exc:
                if attempt == 0:
                    self.counters.retries += 1
                    messages = [*messages, {"role": "assistant", "content": text},
                                {"role": "user", "content": RETRY_TEMPLATE.format(reason=str(exc))}]
                continue
            if chat is not None:
                self._say(chat, heard)
            return action
        return None

    def _say(self, chat: Any, heard: Heard) -> None:
        try:
            self.said.append(read_chat(chat, heard.names, heard.seat))
            self.counters.chats += 1
        except Refused:
            self.counters.chats_refused += 1

    def _complete(self, messages: list[dict[str, str]]) -> str | None:
        """The model's answer text; ``None`` (counted) on a timeout or a failing endpoint."""
        body: dict[str, Any] = {"model": self.config.model, "messages": messages}
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        headers = {"Authorization": f"Bearer {self.config.key}"} if self.config.key else {}
        if self.client is None:
            self.client = httpx.Client(timeout=self.config.timeout)
        self.counters.calls += 1
        started = time.perf_counter()
        try:
            response = self.client.post(self.config.endpoint, json=body, headers=headers)
            response.raise_for_status()
            data = response.json()
        except httpx.TimeoutException:
            self.counters.timeouts += 1
            return None
        except (httpx.HTTPError, ValueError):
            self.counters.errors += 1
            return None
        finally:
            self.counters.latency += time.perf_counter() - started
        usage = data.get("usage") if isinstance(data, dict) else None
        if isinstance(usage, dict):
            self.counters.prompt_tokens += _whole(usage.get("prompt_tokens"))
            self.counters.completion_tokens += _whole(usage.get("completion_tokens"))
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            content = None
        if not isinstance(content, str):
            self.counters.errors += 1
            return None
        return content

    def close(self) -> None:
        """Close the HTTP connection, if one is open."""
        if self.client is not None:
            self.client.close()
            self.client = None


def _whole(value: object) -> int:
    return value if type(value) is int and value >= 0 else 0


def _seat_of(view: Mapping[str, Any]) -> int:
    seat = view.get("seat")
    return seat if type(seat) is int else 0


def _chat_line(message: Message, names: Sequence[str]) -> str:
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    to = "all" if message.to is None else ", ".join(name(s) for s in message.to)
    return f"{name(message.sender)} to {to}: {message.text}"
