"""Language-model players: an agent that asks an OpenAI-compatible chat-completions endpoint.

The agent is told the game's rules summary, its seat's view (:func:`compact`), what happened and
what was said since its previous decision (the log's sentences, the chat it may read), and its
legal actions as standard JSON Schema (:func:`action_schema`), in the turn's text or as the
request's structured output or tool (see :data:`OUTPUTS`). It answers with one
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
(events shown at most) and ``output`` (``text``, ``json_schema`` or ``tools``: see
:data:`OUTPUTS`), e.g. ``llm:qwen2.5:7b@timeout=60@temperature=0.7@output=json_schema``.
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
from tricolore.core.registry import terminal_renderer
from tricolore.core.terminal import named

URL_VARIABLE = "TRICOLORE_LLM_URL"
MODEL_VARIABLE = "TRICOLORE_LLM_MODEL"
KEY_VARIABLE = "TRICOLORE_LLM_KEY"
TIMEOUT_VARIABLE = "TRICOLORE_LLM_TIMEOUT"

MAX_SAID = 500
"""The longest chat message the agent may send, in characters (a table's chat limit)."""
MAX_BRANCHES = 32
"""Most variants one kind of action is spelled out into when a parameter's values depend on an
earlier one (beyond that, the dependent parameter is described without bounds)."""
ENVELOPE_LIMIT = 512
"""Most combinations of earlier parameters looked at to bound a parameter that depends on them."""
FREE_IN_A_ROW = 3
"""After this many free actions in a row (gifts, disclosures, deals), the agent is offered only
what its prompt asks, so that a talkative model cannot keep a game from moving on."""

SYSTEM_TEMPLATE = """\
You are playing {title}, a negotiation board game, in seat {seat} as "{name}". The players are: {players}.

The rules:
{rules}

The table's options: {options}

At each decision you are shown your view of the table (JSON: a list of like objects is written \
as {{"columns": [...], "rows": [[...], ...]}}; empty and null fields are left out), what happened \
and what was said since your last decision, and your legal actions as a JSON schema. An action \
marked "any time" leaves your decision open: you will be asked again. Answer with one JSON object \
and nothing else:
{{"action": {{...}}, "chat": {{"to": "all", "text": "..."}}}}
"action" is one action matching the schema; a field whose only value is null may be left out. \
"chat" is optional: "to" is "all" for everyone or a list of player names for a private message, \
and "text" is at most {max_said} characters. Talk to win: negotiate, promise, threaten or bluff. \
Words bind nobody; only actions change the game, and only deals made through actions are kept by \
the game."""
"""The system message: the game, the seat, the rules summary, the table's options and the answer
format. It is the same at every decision of a game, so an endpoint may cache it."""

TURN_TEMPLATE = """\
Your view of the table:
{view}

What happened since your last decision (oldest first):
{events}

What was said since your last decision (oldest first):
{chat}

{actions}"""
"""The user message of each decision."""

ACTIONS_TEMPLATE = """\
Your legal actions (JSON schema; your action must match one of them):
{schema}"""
"""The last part of the turn when the answer is read as text; with structured output or tool
calling (``output=json_schema`` or ``output=tools``) the schema goes in the request instead and
the turn ends with :data:`STRUCTURED_ACTIONS`."""

STRUCTURED_ACTIONS = "Your legal actions are the answer's schema."
"""The last part of the turn when the schema is sent as the response format or the tool."""

RETRY_TEMPLATE = """\
That answer was refused: {reason} Answer again with one JSON object as described."""
"""The message that sends a refused answer back, once."""

REFUSED_FORMAT = (400, 404, 415, 422)
"""The HTTP statuses with which an endpoint is taken to refuse structured output or tools."""
OUTPUTS = ("text", "json_schema", "tools")
"""How the answer is asked for: as text holding JSON (every endpoint), as structured output
(``response_format`` of type ``json_schema``) or as a call of the tool ``act``. An endpoint that
refuses the last two (an HTTP 4xx answer) is asked again as text, for the rest of the game."""


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
    and ``chats_refused`` those dropped (an unknown name, text that cannot be sent); ``invalid``
    the answers refused (no JSON, no legal action).
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
    invalid: int = 0

    def as_dict(self) -> dict[str, float]:
        """The counters as JSON, latency rounded to milliseconds."""
        out: dict[str, float] = asdict(self)
        out["latency"] = round(self.latency, 3)
        return out


@dataclass(frozen=True, slots=True)
class Config:
    """Where and how to ask: the endpoint, the model, the key (``None``: none sent), the seconds
    an answer may take, the sampling temperature (``None``: the endpoint's default), how many
    of the latest events to show at most and how the answer is asked for (one of
    :data:`OUTPUTS`)."""

    url: str
    model: str
    key: str | None = None
    timeout: float = 30.0
    temperature: float | None = None
    memory: int = RECENT_EVENTS
    output: str = "text"

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
        if not equals or key.strip() not in ("timeout", "temperature", "memory", "output"):
            raise OptionsError(f"the llm option {setting!r} is not one of timeout=<seconds>, "
                               "temperature=<0 to 2>, memory=<events> or output=<text, json_schema "
                               "or tools>")
        if key.strip() == "output":
            if value.strip() not in OUTPUTS:
                raise OptionsError(f"the llm option output must be text, json_schema or tools; it is "
                                   f"{value.strip()!r:.40}")
            config = replace(config, output=value.strip())
            continue
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
    return LanguageModelAgent(parse_strategy(strategy), game.info.title, rules_summary(game),
                              game=game.info.name)


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
        return bid_schema(described)
    return {"description": "a value of this domain: " + json.dumps(described, separators=(",", ":"))}


def bid_schema(described: Mapping[str, Any]) -> dict[str, Any]:
    """A bid (every chip placed on spaces) in standard keywords: an object of space name →
    ``{currency: chips}``, each count bounded by the chips held and the space's limit; that every
    chip is placed and how many spaces a bid may use are described, and checked by the engine."""
    chips = {str(c): int(n) for c, n in dict(described.get("chips", {})).items()}
    spaces: dict[str, Any] = {}
    for space in described.get("spaces", ()):
        forbidden = set(space.get("forbidden", ()))
        allowed: dict[str, Any] = {}
        for currency, held in chips.items():
            if currency in forbidden or held <= 0:
                continue
            most = held
            if currency == "gold" and space.get("max_gold") is not None:
                most = min(most, int(space["max_gold"]))
            allowed[currency] = {"type": "integer", "minimum": 0, "maximum": most}
        if allowed:
            spaces[str(space["name"])] = {"type": "object", "properties": allowed,
                                          "additionalProperties": False, "minProperties": 1}
    total = ", ".join(f"{n} {c}" for c, n in chips.items() if n) or "no chips"
    # the spaces that take the same chips share one schema, written once
    counts: dict[str, int] = {}
    for schema in spaces.values():
        counts[_json(schema)] = counts.get(_json(schema), 0) + 1
    common = max(counts, key=counts.__getitem__) if counts else None
    out: dict[str, Any] = {
        "type": "object", "propertyNames": {"enum": list(spaces)},
        "properties": {n: v for n, v in spaces.items() if _json(v) != common},
        "additionalProperties": json.loads(common) if common else False,
        "description": f"every chip you hold placed, as {{space name: {{currency: chips}}}}: {total} in all"}
    if described.get("max_spaces") is not None:
        out["maxProperties"] = int(described["max_spaces"])
        out["description"] += f", on at most {int(described['max_spaces'])} spaces"
    return out


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
            domain = (family.domain(name, chosen) if isinstance(family.params[name], Domain)
                      else _envelope(family, name, chosen))
            if domain is None:
                properties[name] = {"description": "its values depend on the parameters before it"}
                continue
            if _empty(domain):
                viable = False
                break
            properties[name] = domain_schema(domain)
        if not viable:
            continue
        description = family.help or family.kind
        if any_time:
            description += " (any time)"
        required = [n for n in names if n not in family.optional and not _only_null(properties.get(n))]
        out.append({"type": "object", "title": family.kind, "description": description,
                    "properties": properties, "required": ["type", *required],
                    "additionalProperties": False})
    return merge_branches(out)


def merge_branches(schemas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``schemas`` with every two that differ only in one parameter's listed values made one,
    listing both's values (the same actions, in fewer and shorter schemas)."""
    out = list(schemas)
    merged = True
    while merged and len(out) > 1:
        merged = False
        for name in {n for schema in out for n in schema["properties"] if n != "type"}:
            groups: dict[str, list[dict[str, Any]]] = {}
            kept: list[dict[str, Any]] = []
            for schema in out:
                values = _listed(schema["properties"].get(name))
                if values is None:
                    kept.append(schema)
                    continue
                rest = {**schema, "properties": {k: v for k, v in schema["properties"].items() if k != name}}
                groups.setdefault(_json(rest), []).append(schema)
            if all(len(g) == 1 for g in groups.values()):
                continue
            merged = True
            for group in groups.values():
                first = group[0]
                values = _union(v for schema in group for v in _listed(schema["properties"][name]) or ())
                properties = {k: ({"enum": values} if k == name else v)
                              for k, v in first["properties"].items()}
                kept.append({**first, "properties": properties})
            out = kept
    return out


def _listed(schema: Mapping[str, Any] | None) -> list[object] | None:
    """The values a schema of listed values allows (``const`` or a bare ``enum``), else ``None``."""
    if schema is None:
        return None
    if set(schema) == {"const"}:
        return [schema["const"]]
    if set(schema) == {"enum"}:
        return list(schema["enum"])
    return None


def _envelope(family: ActionFamily, name: str, chosen: Mapping[str, Any]) -> Domain | None:
    """The smallest domain of the same sort holding every value ``name`` may take for some legal
    choice of the parameters before it not in ``chosen`` (the engine checks the exact bounds), or
    ``None`` when those are too many or the domains differ in sort."""
    names = list(family.params)
    prefixes: list[dict[str, Any]] = [dict(chosen)]
    for earlier in names[:names.index(name)]:
        if earlier in chosen or earlier in family.optional:
            continue
        grown: list[dict[str, Any]] = []
        for prefix in prefixes:
            values = _values(family, earlier, prefix)
            if values is None:
                return None
            grown.extend({**prefix, earlier: v} for v in values)
            if len(grown) > ENVELOPE_LIMIT:
                return None
        prefixes = grown
    domains = []
    for prefix in prefixes:
        try:
            domains.append(family.domain(name, prefix))
        except Exception:  # a domain that cannot be worked out from these parameters alone
            return None
    if not domains:
        return Choice(())
    if all(isinstance(d, Amount) for d in domains):
        amounts = [d for d in domains if isinstance(d, Amount)]
        return Amount(min(d.low for d in amounts), max(d.high for d in amounts))
    if all(isinstance(d, Choice) for d in domains):
        return Choice(tuple(_union(o for d in domains if isinstance(d, Choice) for o in d.options)))
    if all(isinstance(d, Subset) for d in domains):
        subsets = [d for d in domains if isinstance(d, Subset)]
        return Subset(tuple(_union(o for d in subsets for o in d.options)),
                      max(d.max_size for d in subsets), min(d.min_size for d in subsets))
    if all(isinstance(d, Text) for d in domains):
        return Text(max(d.max_length for d in domains if isinstance(d, Text)))
    return domains[0] if len(domains) == 1 else None


def _union(values: Any) -> list[object]:
    out: list[object] = []
    for value in values:
        if not any(type(value) is type(o) and value == o for o in out):
            out.append(value)
    return out


def _listed_values(domain: Domain) -> Sequence[object] | None:
    """The values of a choice or an amount (cheap to list); ``None`` for any other domain, whose
    values may be many (every bid of Revolution!)."""
    return domain.values() if isinstance(domain, Choice | Amount) else None


def _empty(domain: Domain) -> bool:
    """Whether ``domain`` allows no value, told without listing its values."""
    if isinstance(domain, Choice):
        return not domain.options
    if isinstance(domain, Amount):
        return domain.low > domain.high
    if isinstance(domain, Subset):
        return len(domain.options) < domain.min_size
    return False


def _only_null(schema: Mapping[str, Any] | None) -> bool:
    """Whether ``schema`` allows null alone: such a parameter may be left out of an answer
    (:func:`read_answer` fills it in)."""
    return schema is not None and (schema.get("const", ...) is None or schema.get("enum") == [None])


def fill_nulls(action: dict[str, Any], legal: ActionSpace) -> dict[str, Any]:
    """``action`` with every parameter left out whose only legal value is null set to null (a
    Sabotage card that names nobody need not say ``"target": null``)."""
    kind = action.get("type")
    family = legal.family(kind) if isinstance(kind, str) else None
    if family is None:
        return action
    for name in family.params:
        if name in action or name in family.optional:
            continue
        try:
            values = _listed_values(family.domain(name, action))
        except Exception:  # an earlier parameter is missing or wrong: the engine says which
            return action
        if values is not None and list(values) == [None]:
            action[name] = None
    return action


def _values(family: ActionFamily, name: str, chosen: Mapping[str, Any]) -> Sequence[object] | None:
    try:
        return _listed_values(family.domain(name, chosen))
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
    action = fill_nulls(action, legal)
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


# -- the prompt ------------------------------------------------------------------------------
def compact(value: Any) -> Any:
    """``value`` (JSON) written shorter: a list of two or more objects with the same keys becomes
    ``{"columns": [...], "rows": [[...], ...]}``, and an object's null and empty fields are left
    out (a row keeps its nulls, so that its columns line up).

    >>> compact({"a": None, "b": [{"id": 0, "x": 1}, {"id": 1, "x": None}], "c": []})
    {'b': {'columns': ['id', 'x'], 'rows': [[0, 1], [1, None]]}}
    """
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = compact(item)
            if item is None or (isinstance(item, (list, dict)) and not item):
                continue
            out[key] = item
        return out
    if isinstance(value, list | tuple):
        if len(value) >= 2 and all(isinstance(v, dict) for v in value):
            columns = list(value[0])
            if columns and all(list(v) == columns for v in value):
                return {"columns": columns, "rows": [[compact(v[c]) for c in columns] for v in value]}
        return [compact(v) for v in value]
    return value


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def new_events(previous: Sequence[Mapping[str, Any]], current: Sequence[Mapping[str, Any]]
               ) -> list[Mapping[str, Any]]:
    """The events of ``current`` (the latest of the log) after those already in ``previous``
    (the latest at the last decision): what follows the longest end of ``previous`` that
    ``current`` begins with, or all of ``current`` when they do not overlap."""
    for k in range(min(len(previous), len(current)), 0, -1):
        if list(previous[-k:]) == list(current[:k]):
            return list(current[k:])
    return list(current)


def event_sentence(game: str, event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One event as the log's sentence (the game's terminal renderer), or as compact JSON when
    the game has no sentence for it."""
    if game:
        try:
            renderer = terminal_renderer(game)
            if renderer is not None:
                return renderer.event(event, view)
        except Exception:  # a sentence that cannot be worded against this view: the JSON says it
            pass
    return _json(event)


def chat_summary(earlier: Sequence[Message], names: Sequence[str], seat: int) -> str:
    """One line on the messages before the last decision: how many, and from whom."""
    if not earlier:
        return ""
    senders: dict[str, int] = {}
    for message in earlier:
        who = "you" if message.sender == seat else _name(names, message.sender)
        senders[who] = senders.get(who, 0) + 1
    private = sum(1 for m in earlier if m.to is not None)
    return (f"(before that: {len(earlier)} messages, {private} of them private; from "
            + ", ".join(f"{who} {n}" for who, n in senders.items()) + ")")


# -- the agent ------------------------------------------------------------------------------
@dataclass(slots=True)
class LanguageModelAgent:
    """A player that asks a language model for each decision, and may talk while it plays.

    It sees its seat's view and, through :meth:`listen`, the latest events, the chat and the
    players' names; it is offered its free actions too (``trades``). Each decision costs one
    request, two when the first answer is refused. Its prompt shows what happened and what was
    said since its previous decision only (see :meth:`messages`). What it says is left in ``said``
    for the driver (:func:`tricolore.agents.take_said`); :attr:`counters` adds up the cost.

    Free actions cannot stall a game: after :data:`FREE_IN_A_ROW` of them in a row it is offered
    only what its prompt asks, and a kind of free action that left its view unchanged is not
    offered again until it takes an action its prompt asks for.
    """

    config: Config
    title: str
    rules: str
    counters: Counters = field(default_factory=Counters)
    said: list[Said] = field(default_factory=list)
    heard: Heard | None = None
    free_in_a_row: int = 0
    client: httpx.Client | None = None
    game: str = ""
    shown_events: tuple[dict[str, Any], ...] = ()
    chat_seen: int = 0
    futile: set[str] = field(default_factory=set)
    last_free: tuple[str, str] | None = None
    output: str = ""
    before: tuple[tuple[dict[str, Any], ...], int] = ((), 0)
    answered: bool = False

    name = "llm"
    needs_view = True
    trades = True
    talks = True

    @property
    def memory(self) -> int:
        """How many of the latest events it is shown at most (:func:`tricolore.agents.decide`
        tells it that many)."""
        return self.config.memory

    def listen(self, heard: Heard) -> None:
        """Keep what the driver tells before a decision (see :class:`tricolore.agents.Heard`)."""
        self.heard = heard

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The model's action, or a random legal one when it cannot give one."""
        heard = self.heard or Heard(_seat_of(view), (), (), (), ())
        self.heard = None  # told afresh before every decision
        asked = heard.asked or tuple(legal.kinds)
        legal = self.offered(view, legal, asked)
        messages = self.messages(view, legal, heard)
        action = self._ask(messages, legal, heard, view)
        if action is None:
            if not self.answered:  # the model saw nothing: show it all again next time
                self.shown_events, self.chat_seen = self.before
            self.counters.fallbacks += 1
            prompted = ActionSpace(tuple(f for f in legal.families if f.kind in asked)) or legal
            action = prompted.sample(rng)
        if action["type"] in asked:
            self.free_in_a_row, self.last_free = 0, None
            self.futile.clear()
        else:
            self.free_in_a_row += 1
            self.last_free = (action["type"], _json(view))
        return action

    def offered(self, view: Mapping[str, Any], legal: ActionSpace, asked: Sequence[str]) -> ActionSpace:
        """``legal`` less the free actions it may not take now (see the class's notes)."""
        if self.last_free is not None and self.last_free[1] == _json(view):
            self.futile.add(self.last_free[0])
        if not any(k in asked for k in legal.kinds):
            return legal
        if self.free_in_a_row >= FREE_IN_A_ROW:
            return ActionSpace(tuple(f for f in legal.families if f.kind in asked))
        return ActionSpace(tuple(f for f in legal.families if f.kind in asked or f.kind not in self.futile))

    @property
    def answer_mode(self) -> str:
        """How answers are asked for now: the configured output, or ``text`` once the endpoint
        refused it."""
        return self.output or self.config.output

    def messages(self, view: Mapping[str, Any], legal: ActionSpace, heard: Heard) -> list[dict[str, str]]:
        """The conversation of one decision: the system message and the turn (see
        :data:`SYSTEM_TEMPLATE` and :data:`TURN_TEMPLATE`). The turn shows the view compacted
        (:func:`compact`), the events since the previous decision as the log's sentences (at most
        ``memory``) and the messages said since then, with a one-line count of the earlier ones."""
        names = heard.names or tuple(f"seat {s}" for s in range(int(view.get("players", 0) or 0)))
        seat = heard.seat
        me = _name(names, seat)
        players = ", ".join(f"{n} (seat {s})" for s, n in enumerate(names)) or "unknown"
        recent = heard.events[-self.memory:] if self.memory else ()
        self.before = (self.shown_events, self.chat_seen)
        events = new_events(self.shown_events, recent)
        self.shown_events = tuple(recent)
        chat = heard.chat
        seen = self.chat_seen if self.chat_seen <= len(chat) else 0
        self.chat_seen = len(chat)
        lines = [chat_summary(chat[:seen], names, seat)] if seen else []
        lines.extend(chat_line(m, names) for m in chat[seen:])
        system = SYSTEM_TEMPLATE.format(title=self.title, seat=seat, name=me, players=players,
                                        rules=self.rules, max_said=MAX_SAID,
                                        options=_json(compact(view.get("options", {}))) or "{}")
        shown = {k: v for k, v in view.items() if k not in ("game", "options")}
        actions = (ACTIONS_TEMPLATE.format(schema=_json(action_schema(legal, heard.asked or None)))
                   if self.answer_mode == "text" else STRUCTURED_ACTIONS)
        turn = TURN_TEMPLATE.format(
            view=_json(compact(shown)),
            events="\n".join(event_sentence(self.game, e, named(view, names)) for e in events) or "(nothing)",
            chat="\n".join(lines) or "(nothing)",
            actions=actions)
        return [{"role": "system", "content": system}, {"role": "user", "content": turn}]

    def _ask(self, messages: list[dict[str, str]], legal: ActionSpace, heard: Heard,
             view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first legal action of at most two answers; ``None`` to fall back."""
        schema = answer_schema(legal, heard.names, heard.asked or None)
        self.answered = False
        for attempt in range(2):
            mode = self.answer_mode
            text = self._complete(messages, schema)
            if text is None and mode != self.answer_mode and attempt == 0:
                # the endpoint refused structured output: ask again, as text, with the schema shown
                self.shown_events, self.chat_seen = self.before
                messages = self.messages(view, legal, heard)
                text = self._complete(messages, schema)
            if text is None:
                return None
            self.answered = True
            try:
                action, chat = read_answer(text, legal)
            except Refused as exc:
                self.counters.invalid += 1
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

    def _complete(self, messages: list[dict[str, str]],
                  schema: Mapping[str, Any] | None = None) -> str | None:
        """The model's answer text; ``None`` (counted) on a timeout or a failing endpoint. An
        endpoint that refuses structured output or tools with an HTTP 4xx answer is asked as text
        from then on (``None`` is returned once, uncounted, for the caller to ask again)."""
        mode = self.answer_mode
        body: dict[str, Any] = {"model": self.config.model, "messages": messages}
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        if mode == "json_schema" and schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "answer", "schema": dict(schema)}}
        elif mode == "tools" and schema is not None:
            body["tools"] = [{"type": "function", "function": {
                "name": "act", "description": "Take your action, and say something if you wish.",
                "parameters": dict(schema)}}]
            body["tool_choice"] = {"type": "function", "function": {"name": "act"}}
        headers = {"Authorization": f"Bearer {self.config.key}"} if self.config.key else {}
        if self.client is None:
            self.client = httpx.Client(timeout=self.config.timeout)
        self.counters.calls += 1
        started = time.perf_counter()
        try:
            response = self.client.post(self.config.endpoint, json=body, headers=headers)
            if mode != "text" and response.status_code in REFUSED_FORMAT:
                self.output = "text"
                return None
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
        content = _content(data)
        if isinstance(usage, dict):
            self.counters.prompt_tokens += _whole(usage.get("prompt_tokens"))
            self.counters.completion_tokens += _whole(usage.get("completion_tokens"))
        else:  # an endpoint that does not count: about four characters a token
            self.counters.prompt_tokens += sum(len(m["content"]) for m in messages) // 4
            self.counters.completion_tokens += len(content or "") // 4
        if content is None:
            self.counters.errors += 1
            return None
        return content

    def close(self) -> None:
        """Close the HTTP connection, if one is open."""
        if self.client is not None:
            self.client.close()
            self.client = None


def answer_schema(legal: ActionSpace, names: Sequence[str] = (), asked: Sequence[str] | None = None
                  ) -> dict[str, Any]:
    """The whole answer as one JSON schema object (for ``response_format`` or a tool's
    parameters): ``action`` one of :func:`action_schema`, ``chat`` optional."""
    to: dict[str, Any] = {"anyOf": [{"const": "all"},
                                    {"type": "array", "items": ({"enum": list(names)} if names
                                                                else {"type": "string"}),
                                     "minItems": 1}]}
    return {"type": "object", "properties": {
        "action": action_schema(legal, asked),
        "chat": {"type": "object", "properties": {"to": to, "text": {
            "type": "string", "minLength": 1, "maxLength": MAX_SAID}},
            "required": ["text"], "additionalProperties": False}},
        "required": ["action"], "additionalProperties": False}


def _content(data: Any) -> str | None:
    """The answer's text: the message's content, or the arguments of its first tool call."""
    try:
        message = data["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        return None
    if not isinstance(message, dict):
        return None
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls:
        try:
            arguments = calls[0]["function"]["arguments"]
        except (KeyError, IndexError, TypeError):
            arguments = None
        if isinstance(arguments, str):
            return arguments
        if isinstance(arguments, dict):
            return _json(arguments)
    content = message.get("content")
    return content if isinstance(content, str) else None


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _whole(value: object) -> int:
    return value if type(value) is int and value >= 0 else 0


def _seat_of(view: Mapping[str, Any]) -> int:
    seat = view.get("seat")
    return seat if type(seat) is int else 0


def chat_line(message: Message, names: Sequence[str]) -> str:
    """One message as one line: ``Danton to all: ...`` or ``Danton to Marat: ...``."""
    to = "all" if message.to is None else ", ".join(_name(names, s) for s in message.to)
    return f"{_name(names, message.sender)} to {to}: {message.text}"
