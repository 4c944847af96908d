"""Action spaces: what a seat may send now, checked exactly and sampled cheaply.

An action is a small JSON object whose ``type`` names a kind of decision from the rulebook, for
example ``{"type": "cake_vote", "citizen": 3, "side": "sans_culotte", "cakes": 2}``.

A state describes the legal actions of a seat as an :class:`ActionSpace`: a tuple of
:class:`ActionFamily`, one per kind, each a product of parameter domains. A domain may depend on
the parameters before it (the cakes a citizen may give depend on which citizen gives), so a family
is also its own decomposition into small steps: choose the kind, then each parameter in order.
That decomposition (:meth:`ActionSpace.steps`) is what RL adapters and tree search walk.
"""

from __future__ import annotations

import json
import random
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import combinations
from types import MappingProxyType
from typing import Any

from mypy_extensions import mypyc_attr

from tricolore.core.draws import randint, randrange
from tricolore.core.errors import IllegalAction, listed, spoken
from tricolore.core.inputs import text_problem

Action = Mapping[str, Any]
"""A JSON object with a ``type`` key and the fields of that kind of action."""


def _same(value: object, allowed: object) -> bool:
    # JSON true must not pass for the integer 1, nor 1 for true.
    return type(value) is type(allowed) and value == allowed


@mypyc_attr(allow_interpreted_subclasses=True)
class Domain:
    """The values one parameter of an action may take.

    Its subclasses are frozen dataclasses: a plain base, not an ``ABC``, since a compiled
    dataclass cannot extend an abstract base class.
    """

    @abstractmethod
    def problem(self, name: str, value: object) -> str | None:
        """Why ``value`` is refused for the parameter ``name``, or ``None`` if it is allowed."""

    @abstractmethod
    def sample(self, rng: random.Random) -> object:
        """A value drawn from the domain (a "sensible" one where the range is wide)."""

    def values(self) -> Sequence[object] | None:
        """Every allowed value when the domain is small and finite, else ``None``."""
        return None

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """The domain as JSON, for clients, docs and RL adapters."""

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)  # each subclass is a frozen dataclass


@dataclass(frozen=True, slots=True)
class Worded:
    """A refusal's sentence worded only when a value is refused: ``rule(*args)``, made by
    :func:`worded`. An action space is built far more often than it refuses anything, so a
    domain whose refusal names what is allowed ("...: Danton or Marat") keeps the rule and its
    plain arguments rather than the sentence."""

    rule: Callable[..., str]
    args: tuple[object, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def __str__(self) -> str:
        return self.rule(*self.args)


def worded(rule: Callable[..., str], *args: object) -> Worded:
    """A refusal worded as ``rule(*args)`` when, and only when, a value is refused. ``rule`` is a
    module-level function and ``args`` plain values (names, numbers), so that spaces compare and
    pickle by what they say."""
    return Worded(rule, args)


def names_listed(lead: str, names: tuple[str, ...], last: str = "or") -> str:
    """``lead`` followed by ``names`` listed ("you may give cakes from: Danton or Marat")."""
    return lead + listed(list(names), last)


@dataclass(frozen=True, slots=True)
class Choice(Domain):
    """One of a few listed values."""

    options: tuple[object, ...]
    labels: tuple[str, ...] | None = None
    refusal: str | Worded | None = None
    """The rule, in the players' words, that rules out any other value ("You cannot spy on your
    own marker"), or a :class:`Worded` one; without it the refusal lists the allowed values."""

    def problem(self, name: str, value: object) -> str | None:
        if any(_same(value, o) for o in self.options):
            return None
        if self.refusal is not None:
            return str(self.refusal)
        names = self.labels if self.labels is not None else tuple(map(shown, self.options))
        more = len(names) - 12
        choices = (listed(list(names)) if more <= 0
                   else f"{', '.join(names[:12])} or one of {more} other{'s' if more > 1 else ''}")
        return f"the {spoken(name)} must be {choices}; you sent {shown(value)}"

    def sample(self, rng: random.Random) -> object:
        return self.options[randrange(rng, len(self.options))]

    def values(self) -> Sequence[object]:
        return self.options

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "choice", "options": list(self.options)}
        if self.labels is not None:
            out["labels"] = list(self.labels)
        return out


@dataclass(frozen=True, slots=True)
class Amount(Domain):
    """A whole number from ``low`` to ``high``.

    ``typical`` caps what :meth:`sample` draws, so a random player stakes a sensible handful of
    cakes rather than its whole sheet. ``limit`` explains the upper bound in the rules' words
    ("Danton has 3 cakes").
    """

    low: int
    high: int
    typical: int | None = None
    limit: str | None = None

    def problem(self, name: str, value: object) -> str | None:
        if type(value) is not int:
            return f"the {spoken(name)} must be a whole number; you sent {shown(value)}"
        if value < self.low:
            return f"the {spoken(name)} must be at least {self.low}; you sent {value}"
        if value > self.high:
            if self.limit:
                return f"{self.limit}; you tried {value}"
            return f"the {spoken(name)} must be at most {self.high}; you sent {value}"
        return None

    def sample(self, rng: random.Random) -> int:
        top = self.high if self.typical is None else max(self.low, min(self.high, self.typical))
        return randint(rng, self.low, top)

    def values(self) -> Sequence[object]:
        return range(self.low, self.high + 1)

    def describe(self) -> dict[str, Any]:
        return {"kind": "amount", "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class Text(Domain):
    """Free text of at most ``max_length`` characters, not blank, none of ``taken``. Refusals call
    it ``label`` (default: the parameter's name), as players would: "the argument must be text"."""

    max_length: int = 40
    taken: frozenset[str] = frozenset()
    examples: tuple[str, ...] = ("text",)
    label: str = ""

    def problem(self, name: str, value: object) -> str | None:
        what = self.label or spoken(name)
        if not isinstance(value, str):
            return f"the {what} must be text; you sent {shown(value)}"
        if not value.strip():
            return f"the {what} must not be blank"
        if len(value) > self.max_length:
            return f"the {what} must be at most {self.max_length} characters; you sent {len(value)}"
        why = text_problem(value, what, self.max_length)
        if why:
            return why
        if value.strip().casefold() in {t.casefold() for t in self.taken}:
            return f"the {what} {value.strip()!r} is already taken"
        return None

    def sample(self, rng: random.Random) -> str:
        free = [e for e in self.examples if e.casefold() not in {t.casefold() for t in self.taken}]
        if free:
            return free[randrange(rng, len(free))]
        return f"{self.examples[0]} {rng.randrange(10**6)}"

    def describe(self) -> dict[str, Any]:
        return {"kind": "text", "max_length": self.max_length}


@dataclass(frozen=True, slots=True)
class Subset(Domain):
    """A list of distinct values from ``options``, between ``min_size`` and ``max_size`` long."""

    options: tuple[object, ...]
    max_size: int
    min_size: int = 0
    refusal: str | Worded | None = None
    """The rule, in the players' words, that rules out any other item (or a :class:`Worded`
    one); without it the refusal lists the allowed items."""

    def problem(self, name: str, value: object) -> str | None:
        if not isinstance(value, list):
            return f"the {spoken(name)} must be a list; you sent {shown(value)}"
        for item in value:
            if not any(_same(item, o) for o in self.options):
                if self.refusal is not None:
                    return str(self.refusal)
                allowed = listed(list(map(shown, self.options)))
                return f"the {spoken(name)} may only hold {allowed}; you sent {shown(item)}"
        if len({shown(v) for v in value}) != len(value):
            return f"the {spoken(name)} list the same one twice"
        if len(value) > self.max_size:
            return f"the {spoken(name)} may hold at most {self.max_size}; you sent {len(value)}"
        if len(value) < self.min_size:
            return f"the {spoken(name)} must hold at least {self.min_size}; you sent {len(value)}"
        return None

    def sample(self, rng: random.Random) -> list[object]:
        size = randint(rng, self.min_size, min(self.max_size, len(self.options)))
        return sorted(rng.sample(self.options, size), key=self.options.index)

    def values(self) -> Sequence[object]:
        return [
            list(c)
            for size in range(self.min_size, min(self.max_size, len(self.options)) + 1)
            for c in combinations(self.options, size)
        ]

    def describe(self) -> dict[str, Any]:
        return {"kind": "subset", "options": list(self.options), "min_size": self.min_size,
                "max_size": self.max_size}


ParamSpec = Domain | Callable[[Mapping[str, Any]], Domain]
"""A domain, or a function of the parameters chosen before it that returns the domain."""


def rebuilt(record: Any) -> tuple[Any, tuple[Any, ...]]:
    """How pickle and ``copy`` make a frozen record again: a call to its class with its fields (a
    compiled frozen record cannot be written field by field after it is made)."""
    return type(record), tuple(getattr(record, f.name) for f in fields(record) if f.init)


def restored(obj: object, *args: object) -> tuple[Any, tuple[Any, ...]]:
    """How pickle and ``copy`` make a mutable object again: its class called with ``args``, then
    given back every attribute it held (a compiled class keeps its attributes in slots, which the
    default pickling does not read, and cannot be made without its constructor)."""
    cls = type(obj)
    names: Sequence[str] | None = getattr(cls, "__mypyc_attrs__", None)
    if names is None:
        values = dict(vars(obj))
    else:
        values = {n: getattr(obj, n) for n in names if not n.startswith("__") and hasattr(obj, n)}
    return _made_again, (cls, args, values)


def _made_again(cls: Any, args: tuple[object, ...], values: dict[str, Any]) -> object:
    obj = cls(*args)
    for name, value in values.items():
        setattr(obj, name, value)
    return obj


class Chosen:
    """In :func:`depends`, the value chosen for the parameter ``name`` (``None`` before it is)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


@dataclass(frozen=True, slots=True, eq=False)
class Depends:
    """A parameter's domain worked out from the parameters chosen before it: ``rule(*args)``, each
    :class:`Chosen` argument replaced by the value chosen for that parameter (made by
    :func:`depends`)."""

    rule: Callable[..., Domain]
    args: tuple[object, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def __call__(self, chosen: Mapping[str, Any]) -> Domain:
        return self.rule(*[chosen.get(a.name) if isinstance(a, Chosen) else a for a in self.args])

    @property
    def reads(self) -> frozenset[str]:
        """The names of the earlier parameters the domain is worked out from."""
        return frozenset(a.name for a in self.args if isinstance(a, Chosen))


def depends(rule: Callable[..., Domain], *args: object) -> Depends:
    """A parameter's domain worked out from the parameters chosen before it: ``rule(*args)``, each
    :class:`Chosen` argument replaced by the value chosen for that parameter.

    It is what ``lambda chosen: rule(..., chosen.get(name), ...)`` says, written so that a state's
    method building an action space holds no closure (which the compiled build cannot make in a
    state's methods), and so that what the domain reads can be asked (:attr:`Depends.reads`).
    """
    return Depends(rule, args)


@dataclass(frozen=True, slots=True)
class ActionFamily:
    """All actions of one ``kind``: a product of parameter domains, chosen in order.

    ``optional`` names parameters that may be left out (a citizen's name, which defaults).
    ``help`` is the one-line description shown to players.
    """

    kind: str
    params: Mapping[str, ParamSpec] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()
    help: str = ""

    _required: tuple[tuple[str, Domain | None, ParamSpec], ...] = field(
        init=False, repr=False, compare=False)
    """The parameters :meth:`sample` fills, in order, each with its domain when it is fixed."""

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def __post_init__(self) -> None:
        # Read-only: a legal action space is worked out once per position and handed out.
        params = self.params
        if type(params) is not MappingProxyType:
            params = MappingProxyType(dict(params))
            object.__setattr__(self, "params", params)
        required = []
        if params:
            optional = self.optional
            for name, spec in params.items():
                if name not in optional:
                    required.append((name, spec if isinstance(spec, Domain) else None, spec))
        object.__setattr__(self, "_required", tuple(required))

    def domain(self, name: str, chosen: Mapping[str, Any]) -> Domain:
        """The domain of ``name`` once the parameters before it are ``chosen``."""
        spec = self.params[name]
        return spec if isinstance(spec, Domain) else spec(chosen)

    def problem(self, action: Action) -> str | None:
        """Why ``action`` (of this kind) is refused, or ``None``."""
        for key in action:
            if key != "type" and key not in self.params:
                return f"{_a(spoken(self.kind))} has no {spoken(str(key))}"
        for name in self.params:
            if name not in action:
                if name in self.optional:
                    continue
                return f"{_a(spoken(self.kind))} needs its {spoken(name)}"
            why = self.domain(name, action).problem(name, action[name])
            if why:
                return why
        return None

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """A random action of this kind; optional parameters are left out."""
        action: dict[str, Any] = {"type": self.kind}
        for name, domain, spec in self._required:
            action[name] = (spec(action) if domain is None else domain).sample(rng)  # type: ignore[operator]
        return action

    def __iter__(self) -> Iterator[dict[str, Any]]:
        names = [n for n in self.params if n not in self.optional]

        def walk(i: int, partial: dict[str, Any]) -> Iterator[dict[str, Any]]:
            if i == len(names):
                yield dict(partial)
                return
            values = self.domain(names[i], partial).values()
            if values is None:
                raise TypeError(f"{self.kind}.{names[i]} cannot be enumerated")
            for v in values:
                partial[names[i]] = v
                yield from walk(i + 1, partial)
            del partial[names[i]]

        yield from walk(0, {"type": self.kind})


@dataclass(frozen=True, slots=True)
class ActionSpace:
    """The legal actions of one seat now, as families of parametric actions."""

    families: tuple[ActionFamily, ...]
    _kinds: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_kinds", tuple([f.kind for f in self.families]))

    @property
    def kinds(self) -> tuple[str, ...]:
        """The action types in this space, in the order the game lists them."""
        return self._kinds

    def family(self, kind: str) -> ActionFamily | None:
        """The family of ``kind``, or ``None``."""
        for f in self.families:
            if f.kind == kind:
                return f
        return None

    def check(self, action: object) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is in this space."""
        if not isinstance(action, Mapping):
            raise IllegalAction("malformed", "an action must be a JSON object with a \"type\" field")
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalAction("malformed", "an action must have a \"type\" field naming what to do")
        fam = self.family(kind)
        if fam is None:
            allowed = listed([spoken(k) for k in self.kinds]) or "do nothing"
            raise IllegalAction("not_allowed_now", f"you cannot {spoken(kind)} now; you may {allowed}")
        why = fam.problem(action)
        if why:
            raise IllegalAction("bad_" + kind, why)

    def contains(self, action: object) -> bool:
        """Whether ``action`` is legal."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """A random legal action: a kind uniformly, then each parameter from its domain."""
        families = self.families
        return families[randrange(rng, len(families))].sample(rng)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for f in self.families:
            yield from f

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return bool(self.families)

    def steps(self) -> list[dict[str, Any]]:
        """The decomposition into small choices: the kind first, then each parameter in order.

        A parameter whose domain depends on earlier ones is listed with ``"depends": true``; its
        domain is found with :meth:`ActionFamily.domain` once those are chosen.
        """
        out = []
        for f in self.families:
            params = []
            for name, spec in f.params.items():
                entry: dict[str, Any] = {"name": name, "optional": name in f.optional}
                if isinstance(spec, Domain):
                    entry["domain"] = spec.describe()
                else:
                    entry["depends"] = True
                params.append(entry)
            out.append({"type": f.kind, "help": f.help, "params": params})
        return out


NO_ACTIONS = ActionSpace(())
"""The empty action space (a seat asked nothing), shared: spaces are immutable."""


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "a cake vote", "an offer bribe"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def shown(value: object, *, as_json: bool = False) -> str:
    """A value as the sender wrote it, for a refusal's "you sent …": text quoted (``'king'``, or
    with ``as_json`` as JSON quotes it, ``"king"``), anything else as JSON (``null``, ``true``),
    cut to 40 characters; cut text keeps its closing quote.

    >>> shown("king"), shown("king", as_json=True), shown(None), shown([1, True])
    ("'king'", '"king"', 'null', '[1, true]')
    """
    quoted = isinstance(value, str)
    text = (repr(value) if quoted and not as_json
            else json.dumps(value, ensure_ascii=False, default=repr))
    if len(text) <= 40:
        return text
    return text[:36] + "..." + text[-1] if quoted else text[:37] + "..."
