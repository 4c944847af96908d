"""The game model: what every game provides and what everything above relies on.

A game is a deterministic state machine. :class:`State` is the base every game's state extends:
it owns the seeded random generator, the event log and the generic half of :meth:`State.apply`
(whose turn it is, which kinds are allowed, exact validation against the action space); the game
writes only its rules, as one ``do_<kind>`` method per kind of action, and words its own refusals
through :meth:`State.refusal`.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import json
import random
import struct
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Final, Protocol, Self, TypeVar, cast

from mypy_extensions import mypyc_attr

from tricolore.core.actions import Action, ActionSpace, rebuilt, shown
from tricolore.core.chance import Script, ScriptedChance, check_script
from tricolore.core.errors import IllegalAction, OptionsError, listed, spoken
from tricolore.core.fields import Field, Plan, adopt_generated_copies, compile_fields
from tricolore.core.options import Options

T = TypeVar("T")
_MISSING: Final = object()
NOT_KEPT: Final = object()
"""What :meth:`State.kept_for` answers when nothing is kept for a key and source."""
KEPT_LIMIT = 4096
"""At most this many results are kept by :meth:`State.kept` (then it starts again)."""

Seat = int
"""A seat number, ``0 .. players-1`` in seating (clockwise) order."""

_CHANCE: contextvars.ContextVar[Script | None] = contextvars.ContextVar("chance", default=None)
"""The script of chance for the state being made by :meth:`GameDefinition.new`, if any."""

_ATOMS = frozenset({str, int, float, bool, type(None)})

_DIGEST_JSON: Final = json.JSONEncoder(separators=(",", ":"), sort_keys=True, check_circular=False)
"""How :meth:`State.digest` writes a state's payload (made once: ``json.dumps`` with these
arguments builds an encoder at every call)."""
_PACKED_WORDS: Final[list[tuple[Any, bytes]]] = [((), b"")]
"""The generator state whose words were packed last (a snapshot tuple) with their bytes, as one
pair replaced whole (so a thread never reads one state's bytes for another): a digest taken
again with no draw in between hashes the same bytes without packing them again."""


def copy_json(value: Any) -> Any:
    """A copy of JSON-like data that shares no container with ``value``: every dict (or other
    mapping) becomes a new dict and every list a new list, recursively; tuples keep their type
    with their items copied; anything else is returned as it is.

    It is how the engine keeps its own copy of an action and hands out snapshots of its data, so
    it is written for speed: far cheaper than ``copy.deepcopy`` or a JSON round trip.
    """
    cls = type(value)
    if cls is dict:
        out = value.copy()
        for key, item in value.items():
            if type(item) not in _ATOMS:
                out[key] = copy_json(item)
        return out
    if cls is list:
        out = value.copy()
        for i, item in enumerate(value):
            if type(item) not in _ATOMS:
                out[i] = copy_json(item)
        return out
    if cls in _ATOMS:
        return value
    if cls is tuple:
        return tuple(copy_json(item) for item in value)
    if isinstance(value, Mapping):
        return copy_json(dict(value))
    if isinstance(value, list):
        return copy_json(list(value))
    return value


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's metadata, as data that tools and docs can introspect."""

    name: str
    title: str
    rules_version: str
    min_players: int
    max_players: int
    options: type[Options]
    simultaneous: bool
    hidden_information: bool
    chance: bool
    summary: str = ""

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True, init=False)
class Prompt:
    """What one seat is asked to decide now.

    ``secret`` marks a simultaneous secret move: other seats see only that this seat has chosen.
    ``window`` names a response window; passing is always allowed in one.
    """

    seat: Seat
    kinds: tuple[str, ...]
    secret: bool = False
    window: str | None = None

    # Written out, not generated, so that the compiled build makes it natively (see
    # tricolore.core.actions.Worded).
    def __init__(self, seat: Seat, kinds: tuple[str, ...], secret: bool = False,
                 window: str | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "secret", secret)
        object.__setattr__(self, "window", window)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def as_dict(self) -> dict[str, Any]:
        """The prompt as JSON."""
        return {"seat": self.seat, "kinds": list(self.kinds), "secret": self.secret,
                "window": self.window}


ALONE: Final = [(seat,) for seat in range(64)]
"""``(seat,)`` for each seat, made once: what :meth:`State.acting` answers when one seat is asked,
as it is at most decisions (more seats than any table seats)."""


def prompt(seat: Seat, kinds: tuple[str, ...], secret: bool = False, window: str | None = None
           ) -> Prompt:
    """``Prompt(seat, kinds, secret, window)``. Made afresh: a prompt's constructor is compiled
    code, cheaper than looking up a shared prompt by its arguments (mappings of prompts are
    shared: :func:`one_prompt`, :func:`prompts`)."""
    return Prompt(seat, kinds, secret, window)


def prompts(seats: tuple[Seat, ...], kinds: tuple[str, ...], secret: bool = False,
            window: str | None = None) -> Mapping[Seat, Prompt]:
    """The pending mapping of a position where every seat of ``seats`` is asked the same
    ``kinds`` (a sealed choice, a vote): read-only and shared, as :func:`one_prompt`."""
    return _shared_prompts(seats, kinds, secret, window)


def one_prompt(seat: Seat, kinds: tuple[str, ...], secret: bool = False, window: str | None = None
               ) -> Mapping[Seat, Prompt]:
    """The pending mapping of a position where only ``seat`` is asked: read-only and shared."""
    return _shared_prompt(seat, kinds, secret, window)


# The caches behind the two, called with every argument by position (a cache's key is dearer to
# make from keywords).
@functools.lru_cache(maxsize=4096)
def _shared_prompts(seats: tuple[Seat, ...], kinds: tuple[str, ...], secret: bool, window: str | None
                    ) -> Mapping[Seat, Prompt]:
    return MappingProxyType({seat: Prompt(seat, kinds, secret, window) for seat in seats})


@functools.lru_cache(maxsize=4096)
def _shared_prompt(seat: Seat, kinds: tuple[str, ...], secret: bool, window: str | None
                   ) -> Mapping[Seat, Prompt]:
    return MappingProxyType({seat: Prompt(seat, kinds, secret, window)})


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened. ``to`` is ``None`` for a public event, else the seats that see it."""

    kind: str
    data: Mapping[str, Any]
    to: frozenset[Seat] | None = None

    # Written out, not generated, so that the compiled build makes it natively (see
    # tricolore.core.actions.Worded).
    def __init__(self, kind: str, data: Mapping[str, Any], to: frozenset[Seat] | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "to", to)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def as_dict(self) -> dict[str, Any]:
        """The event as JSON, with its audience: a copy that shares nothing with the log."""
        return {"kind": self.kind, **copy_json(self.data),
                "to": None if self.to is None else sorted(self.to)}


def project(events: typing.Iterable[Event], seat: Seat | None) -> list[dict[str, Any]]:
    """The events ``seat`` may see, as JSON: the one projection every log channel goes through."""
    return [e.as_dict() for e in events if e.visible_to(seat)]


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game's outcome.

    ``scores`` per seat; ``breakdown`` per seat explains each score in the rulebook's steps;
    ``ranking`` lists seats best first; ``winners`` are the seats sharing the best score;
    ``metrics`` holds game-specific figures that simulations aggregate.
    """

    scores: tuple[float, ...]
    breakdown: tuple[Mapping[str, Any], ...]
    ranking: tuple[Seat, ...]
    winners: frozenset[Seat]
    metrics: Mapping[str, float] = field(default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    @classmethod
    def from_scores(cls, scores: typing.Sequence[float], breakdown: typing.Sequence[Mapping[str, Any]],
                    metrics: Mapping[str, float] | None = None) -> Result:
        """A result whose ranking and winners follow from the scores (ties share the win)."""
        ranking = tuple(sorted(range(len(scores)), key=lambda s: (-scores[s], s)))
        best = max(scores)
        return cls(tuple(scores), tuple(breakdown), ranking,
                   frozenset(s for s, v in enumerate(scores) if v == best), dict(metrics or {}))

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON: a copy that shares nothing with the result."""
        return {"scores": list(self.scores), "breakdown": [copy_json(b) for b in self.breakdown],
                "ranking": list(self.ranking), "winners": sorted(self.winners),
                "metrics": dict(self.metrics)}


_DECISIONS: Final[dict[type, dict[str, Callable[..., object]]]] = {}
"""Each state class's method for each kind of action, looked up once (:func:`decision`)."""


_LAST_DECISIONS: Final[list[tuple[type, dict[str, Callable[..., object]]]]] = [(type(None), {})]
"""The class :func:`decision` was last asked about and its methods, as one pair (replaced whole,
so that a thread never reads one class's methods for another): a run of games asks about one
class, which this finds without a lookup."""


def decision(state: State, kind: str) -> Callable[..., object]:
    """The method of ``state``'s class that carries out an action of ``kind`` (its
    ``do_<kind>``), called with the state, the seat and the action; looked up once per class and
    kind rather than on the state at every action. ``AttributeError`` if the game has no such
    action."""
    cls = type(state)
    last = _LAST_DECISIONS[0]
    if last[0] is cls:
        methods = last[1]
    else:
        found_methods = _DECISIONS.get(cls)
        if found_methods is None:
            found_methods = _DECISIONS[cls] = {}
        methods = found_methods
        _LAST_DECISIONS[0] = (cls, methods)
    found = methods.get(kind)
    if found is None:
        found = methods[kind] = getattr(type(state), "do_" + kind)
    return found


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class State(ABC):
    """Base of every game's state.

    Subclasses implement the abstract methods and one ``do_<kind>`` method per kind of action.
    ``do_`` methods run only after the action has been checked against :meth:`legal_actions`
    (or :meth:`free_actions`), so they may assume it is legal; any further check they make must
    raise :class:`IllegalAction` before changing anything.
    """

    info: ClassVar[GameInfo]
    players: int
    seed: int
    log: list[Event]
    record_events: bool
    _rng: random.Random | None
    _rng_state: tuple[Any, ...] | int | None

    BASE_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"players", "seed", "rng", "_rng", "_rng_state", "log", "record_events", "_memo", "_legal_seat",
         "_legal_space", "_logs_seen", "_kept"})
    """Attributes the base class owns and copies; a game declares the others in ``FIELDS``."""

    FIELDS: ClassVar[Mapping[str, Field]] = MappingProxyType({})
    """Every attribute the game's state owns, declared once (see :mod:`tricolore.core.fields`),
    in digest order: :meth:`clone` and :meth:`digest_payload` follow from it."""
    _plan: ClassVar[Plan | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "FIELDS" in vars(cls):
            cls._plan = compile_fields(cls.__name__, cls.FIELDS, State.BASE_FIELDS)

    def _init_base(self, players: int, seed: int) -> None:
        self.players = players
        self.seed = seed
        script = _CHANCE.get()
        self._rng = random.Random(seed) if script is None else ScriptedChance(seed, script)
        self._rng_state = None
        self.log = []
        self.record_events = True
        self._memo: dict[tuple[str, Seat], Any] = {}
        self._legal_seat: Seat = -1
        """The seat whose legal actions at this position are ``_legal_space`` (-1: none yet):
        the one asked most often, kept without a key made and a dictionary filled for it."""
        self._legal_space: ActionSpace | None = None
        self._logs_seen: dict[int, tuple[list[Event], int, list[Event]]] = {}
        """Per seat (-1: a spectator), the log it saw, as far as :meth:`log_for` has read it: the
        log read, how many of its events, and those the seat may see."""
        self._kept: dict[tuple[Any, ...], Any] = {}
        """What the game worked out in one position and may use again in a later one, keyed by
        everything it was worked out from (:meth:`kept`); a copy starts without it."""

    @property
    def rng(self) -> random.Random:
        """The state's seeded random generator: every draw of chance comes from it."""
        rng = self._rng
        if rng is None:
            # A copy shares its original's generator state (or a new seed, after reseed) until
            # it first draws from it.
            state = self._rng_state
            if type(state) is int:
                rng = random.Random(state)
            else:
                rng = random.Random.__new__(random.Random)
                rng.setstate(state)  # type: ignore[arg-type]
            self._rng = rng
        # Whoever holds the generator may draw from it: a clone must take the state afresh.
        self._rng_state = None
        return rng

    def reseed(self, seed: int) -> None:
        """Draw chance from now on from ``random.Random(seed)`` (as ``determinize`` does for the
        future it resamples); the generator is made when first drawn from."""
        self._rng, self._rng_state = None, seed

    def changed(self) -> None:
        """Forget what was worked out for this position (the legal actions, the prompts). Every
        action calls it; call it after changing a state by hand (a test setting up a position)."""
        self._memo.clear()
        self._legal_seat = -1
        self._legal_space = None

    def release(self) -> None:
        """Forget everything worked out and kept for this state (:meth:`changed`, and the parts
        :meth:`kept` and :meth:`kept_while` hold). Those refer back to the state (a family of
        actions reads it when asked), so a state dropped without this is freed only by the garbage
        collector's next full pass, which a long run of games makes dear; call it when done with a
        state. The state stays whole: what it forgot is worked out again if asked."""
        self.changed()
        self._kept.clear()

    # -- the protocol -------------------------------------------------------------------------
    def pending(self) -> Mapping[Seat, Prompt]:
        """Who must act now, and which kinds of action each may take.

        Worked out once per position by the game's :meth:`_pending`, and read-only.
        """
        prompts = self._memo.get(("pending", -1))
        if prompts is None:
            found = self._pending()
            prompts = self._memo["pending", -1] = (
                found if type(found) is MappingProxyType else MappingProxyType(dict(found)))
        return prompts

    @abstractmethod
    def _pending(self) -> Mapping[Seat, Prompt]:
        """The game's rule for :meth:`pending`. A read-only mapping (``MappingProxyType``) is
        handed out as it is, so a game may share one between positions (:func:`one_prompt`)."""

    def legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions ``seat`` may take for its prompt (empty when it is not asked anything).

        Worked out once per position by the game's :meth:`_legal_actions`.
        """
        if seat == self._legal_seat:
            return cast(ActionSpace, self._legal_space)
        if self._legal_seat == -1:
            space = self._legal_space = self._legal_actions(seat)
            self._legal_seat = seat
            return space
        found: ActionSpace | None = self._memo.get(("legal", seat))
        if found is None:
            found = self._memo["legal", seat] = self._legal_actions(seat)
        return found

    def kept(self, key: tuple[Any, ...], make: Callable[..., T], *args: Any) -> T:
        """``make(*args)``, worked out once while the state lives for ``key``, which must hold
        everything the result depends on that may change from one position to the next (a
        family of actions whose parameters read the state when asked may be kept: its domains
        are worked out anew each time). A copy starts without what was kept."""
        kept = self._kept
        found = kept.get(key, _MISSING)
        if found is _MISSING:
            if len(kept) >= KEPT_LIMIT:
                kept.clear()
            found = kept[key] = make(*args)
        return found

    def kept_while(self, key: tuple[Any, ...], source: object, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)``, worked out again only when ``source`` (what the result shows) is no
        longer the one it was made from for ``key`` (the same object, or equal to it): a part of
        a view that is handed out again while it did not change. Its keys are those of
        :meth:`kept` too, so the two are given different ones. A copy starts without it.
        :meth:`kept_for` and :meth:`keep` are the same in two calls, for a hot path that makes
        the result itself."""
        found = self.kept_for(key, source)
        if found is NOT_KEPT:
            return self.keep(key, source, make(*args))
        return cast(T, found)

    def kept_for(self, key: tuple[Any, ...], source: object) -> Any:
        """What :meth:`keep` kept for ``key`` while ``source`` is the one it was made from (the
        same object, or equal to it), else :data:`NOT_KEPT`."""
        got = self._kept.get(key)
        if got is None:
            return NOT_KEPT
        found = cast(tuple[object, object], got)  # read as a pair natively, where Any is generic
        kept_from = found[0]
        if kept_from is source or kept_from == source:
            return found[1]
        return NOT_KEPT

    def keep(self, key: tuple[Any, ...], source: object, made: T) -> T:
        """Keep ``made``, made from ``source``, for ``key`` (see :meth:`kept_for`); returns it."""
        kept = self._kept
        if len(kept) >= KEPT_LIMIT:
            kept.clear()
        kept[key] = (source, made)
        return made

    def at_this_position(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, worked out once per position and forgotten after every action (and on
        :meth:`changed`), as the legal actions are: what several rules read at one position
        (the open alliances, say) and an action may change. Names differ from ``"pending"``,
        ``"legal"`` and ``"free"``, which the protocol uses."""
        found = self._memo.get((name, -1), _MISSING)
        if found is _MISSING:
            found = self._memo[name, -1] = make()
        return found

    def free_actions(self, seat: Seat) -> ActionSpace:
        """Actions the rules allow ``seat`` at any time, prompt or not (transfers, agreements)."""
        space = self._memo.get(("free", seat))
        if space is None:
            space = self._memo["free", seat] = self._free_actions(seat)
        return space

    @abstractmethod
    def _legal_actions(self, seat: Seat) -> ActionSpace:
        """The game's rule for :meth:`legal_actions`."""

    def _free_actions(self, seat: Seat) -> ActionSpace:
        """The game's rule for :meth:`free_actions`; none by default."""
        return ActionSpace(())

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator), as JSON: :meth:`public_view`, the
        ``seat``, and the seat's secrets (:meth:`private_view`) under ``you``.

        A game whose view does not split so may override this instead of the two; the
        environments then build each seat's view whole."""
        out = self.public_view()
        out["seat"] = seat
        if seat is not None:
            you = self.private_view(seat)
            if you is not None:
                out["you"] = you
        return out

    def public_view(self) -> dict[str, Any]:
        """What every seat and a spectator see, as a fresh JSON object (no ``seat`` or ``you``)."""
        raise NotImplementedError(f"{type(self).__name__} gives neither public_view nor view")

    def read_only_public_view(self) -> dict[str, Any]:
        """:meth:`public_view` for a reader that never changes it (an environment's observer): a
        game may share parts of it with the views of earlier positions. By default the same."""
        return self.public_view()

    def private_view(self, seat: Seat) -> dict[str, Any] | None:
        """What only ``seat`` knows, as a fresh JSON object (``None``: nothing)."""
        return None

    def read_only_private_view(self, seat: Seat) -> dict[str, Any] | None:
        """:meth:`private_view` for a reader that never changes it: a game may hand out again the
        one of an earlier position while the seat's secrets are the same. By default the same."""
        return self.private_view(seat)

    @classmethod
    def views_split(cls) -> bool:
        """Whether :meth:`view` is :meth:`public_view` plus :meth:`private_view` (the game does
        not override it), so the public part may be made once for every seat."""
        return cls.view is State.view

    @abstractmethod
    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """A full state consistent with all ``seat`` knows, every other secret resampled."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self) -> Result:
        """Scores, per-seat breakdown, ranking and winners of a finished game."""

    def clone(self) -> Self:
        """An independent copy: nothing done to one changes the other.

        Derived from ``FIELDS``: the copy shares the fields declared shared and owns a copy of
        the others."""
        return self._clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A deep copy is a :meth:`clone` (what was worked out for the position is not copied)."""
        return self.clone()

    def reseeded_clone(self, seed: int, log: list[Event] | None = None) -> Self:
        """A :meth:`clone` that draws chance from ``random.Random(seed)`` from now on, as
        ``determinize`` needs for the future it resamples: the generator is neither copied from
        this state nor made before the copy first draws (either costs more than the rest of a
        clone). ``log``, if given, is the copy's log instead of a copy of this one's (a
        determinized copy keeps what its seat saw: ``log_for(seat)``)."""
        return self._clone(seed, log)

    def _clone(self, rng: random.Random | int | None = None, log: list[Event] | None = None) -> Self:
        """:meth:`clone`, with ``rng``, if given, as the copy's random generator, or its seed, and
        ``log``, if given, as its log."""
        plan = self._declared()
        other = self._shallow_copy(rng, log)
        plan.copy_fields(self, other)
        return other

    def digest_payload(self) -> Any:
        """The full state as JSON-safe data, which :meth:`digest` hashes: the digested fields of
        ``FIELDS`` in declaration order."""
        out: list[Any] = []
        for name, form, splice, when in self._declared().digested:
            if when is not None and not when(self):
                continue
            value = getattr(self, name) if form is None else form(getattr(self, name))
            if splice:
                out.extend(value)
            else:
                out.append(value)
        return out

    def _declared(self) -> Plan:
        plan = type(self)._plan
        if plan is None:
            raise NotImplementedError(f"{type(self).__name__} declares no FIELDS: declare them, or "
                                      "write clone and digest_payload")
        return plan

    # -- generic behaviour --------------------------------------------------------------------
    def digest(self) -> str:
        """A hash of the full state, the random generator included, for replay verification."""
        h = hashlib.blake2b(_DIGEST_JSON.encode(self.digest_payload()).encode(), digest_size=16)
        state = self._rng_state
        if not isinstance(state, tuple):  # no snapshot kept: ask the generator
            rng = self.rng
            state = rng.getstate()
            if type(rng) is random.Random:
                # kept while nobody draws, as a copy keeps it (the rng property forgets it)
                self._rng_state = state
        last = _PACKED_WORDS[0]
        if last[0] is state:
            packed = last[1]
        else:
            words = state[1]
            packed = struct.pack(f"<{len(words)}Q", *words)  # little-endian: the same on every machine
            _PACKED_WORDS[0] = (state, packed)
        h.update(packed)
        if isinstance(self._rng, ScriptedChance):
            h.update(json.dumps(self._rng.remaining(), sort_keys=True).encode())
        return h.hexdigest()

    def chance_script(self) -> dict[str, list[Any]] | None:
        """The script of chance this game started with (see :mod:`tricolore.core.chance`), if any."""
        return self.rng.script if isinstance(self.rng, ScriptedChance) else None

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Check ``action`` for ``seat``, carry it out, and return the events it caused.

        Raises :class:`IllegalAction` with a code and a sentence; the state is then unchanged.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction("no_such_seat", f"there is no seat {seat!r} at this table")
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction("malformed", "an action must be a JSON object with a \"type\" field")
        # The state keeps (in sealed moves, records of play) the very action it checks: its own
        # copy, so that nothing the caller does to its dict afterwards can reach the state.
        action = copy_json(action)
        kind = action["type"]
        if self.is_over():
            raise IllegalAction("game_over", "the game is over")
        try:
            self._check(seat, kind, action)
        except IllegalAction as refused:
            better = self.refusal(seat, action, refused)
            if better is None:
                raise
            better.__suppress_context__ = True  # as "from None" says (which compiled code does not)
            raise better from None
        start = len(self.log)
        try:
            decision(self, kind)(self, seat, action)
        finally:
            self.changed()
        return self.log[start:]

    def _check(self, seat: Seat, kind: str, action: Action) -> None:
        """Raise the generic refusal unless ``action`` is in ``seat``'s legal or free actions."""
        prompt = self.pending().get(seat)
        if prompt is not None and kind in prompt.kinds:
            legal = self.legal_actions(seat)
            if not legal.contains(action):
                free = self.free_actions(seat)  # a kind may be both prompted and free (agree_end)
                if not (kind in free.kinds and free.contains(action)):
                    legal.check(action)
            return
        free = self.free_actions(seat)
        if kind in free.kinds:
            free.check(action)
        elif not callable(getattr(self, "do_" + kind, None)):  # no such decision: waiting won't help
            allowed = listed([spoken(k) for k in (prompt.kinds if prompt else ()) + free.kinds])
            raise IllegalAction("not_allowed_now", f"this game has no action {shown(kind, as_json=True)}"
                                + (f"; you may {allowed}" if allowed else ""))
        elif prompt is None:
            waiting = tuple(sorted(self.pending()))
            names = listed([f"{{{i}}}" for i in range(len(waiting))], "and")
            raise IllegalAction("not_your_turn", f"it is not your turn; waiting for {names}", waiting)
        else:
            allowed = listed([spoken(k) for k in prompt.kinds + free.kinds])
            raise IllegalAction("not_allowed_now", f"you cannot {spoken(kind)} now; you may {allowed}")

    def refusal(self, seat: Seat, action: Action, refused: IllegalAction) -> IllegalAction | None:
        """The game's own sentence for a refusal, or ``None`` to keep the generic one.

        :meth:`apply` asks it when ``action`` (a JSON object with a ``type``, from a seat at the
        table, in a game not over) is outside ``seat``'s legal and free actions: ``refused`` is the
        generic refusal, coded ``not_your_turn``, ``not_allowed_now`` or ``bad_<kind>``, in general
        words ("You cannot take back now."). A game answers with the rule that refuses it
        ("You have no disclosed tile to take back."), keeping its sentences in its
        ``refusals.py``. It only reads the state.
        """
        return None

    def apply_trusted(self, seat: Seat, action: Action) -> list[Event]:
        """Carry out an action the engine itself drew for ``seat`` in this very position (from
        :meth:`legal_actions` or :meth:`free_actions`, e.g. with ``sample``), without checking it
        again: the trusted entry point of simulations and searches.

        It is :meth:`apply` without the checks and without the defensive copy, and the conformance
        suite proves the two equivalent on every game. Anything else (an action from a person, a
        client, a bot's own reasoning) goes through :meth:`apply`. The state may keep ``action``:
        do not change it afterwards.
        """
        start = len(self.log)
        self.play_trusted(seat, action)
        return self.log[start:]

    def play_trusted(self, seat: Seat, action: Action) -> None:
        """:meth:`apply_trusted` for a caller that reads no events (random play, a search's
        rollouts): the same action carried out, the events it logs left in :attr:`log`."""
        # a plain dict's key is read natively; any other mapping through the generic protocol
        kind = cast(dict[str, Any], action)["type"] if type(action) is dict else action["type"]
        try:
            decision(self, kind)(self, seat, action)
        finally:
            self.changed()

    def play_drawn(self, seat: Seat, rng: random.Random) -> None:
        """Play for ``seat`` the action ``legal_actions(seat).sample(rng)`` draws, trusted, as
        random play does when it keeps no record of the actions. A game may override it to carry
        out what it draws without writing the action out, drawing the same numbers and reaching
        the same state (the conformance suite checks that it does)."""
        self.play_trusted(seat, self.legal_actions(seat).sample(rng))

    # -- moves: the actions as whole numbers, for the hot path of simulations and searches ------
    @classmethod
    def numbers_moves(cls) -> bool:
        """Whether the game numbers its actions as moves (gives :meth:`legal_moves`)."""
        return cls.legal_moves is not State.legal_moves

    def acting(self) -> tuple[Seat, ...]:
        """The seats :meth:`pending` asks, in seat order. A game that numbers its moves works
        this out without making the prompts."""
        return tuple(sorted(self.pending()))

    def legal_moves(self, seat: Seat) -> list[int]:
        """The actions ``seat`` may take for its prompt, as moves: each a whole number that
        stands for one whole action (:meth:`move_action`), the same action in every position.
        Empty when ``seat`` is not asked. The moves are the prompt's actions a player draws from:
        every kind is there, a text parameter takes the domain's examples and an amount is capped
        where the game's documentation says so; any other legal action stays open through
        :meth:`apply`. The list may be shared: do not change it.

        A game that numbers its moves overrides this, :meth:`move_action` and :meth:`acting`;
        the conformance suite checks every move against :meth:`legal_actions` and
        :meth:`apply_move` against :meth:`apply_trusted`."""
        raise NotImplementedError(f"{type(self).__name__} does not number its moves")

    def move_action(self, move: int) -> dict[str, Any]:
        """The action ``move`` stands for, as JSON: the public edge of the moves. The dict is
        the game's own, shared by every position: copy it before changing it."""
        raise NotImplementedError(f"{type(self).__name__} does not number its moves")

    def apply_move(self, seat: Seat, move: int) -> None:
        """Carry out ``move``, one of :meth:`legal_moves` for ``seat`` in this very position:
        :meth:`apply_trusted` of :meth:`move_action`, the events only logged."""
        action = self.move_action(move)
        try:
            decision(self, action["type"])(self, seat, action)
        finally:
            self.changed()

    def emit(self, kind: str, to: typing.Iterable[Seat] | None = None, **data: Any) -> None:
        """Log an event; ``to`` limits it to those seats (``None``: public).

        ``kind`` and ``to`` are the event's own keys in its JSON form, so data may not use them.
        """
        if self.record_events:
            self.log.append(Event(kind, data, None if to is None else frozenset(to)))

    def events_for(self, seat: Seat | None, since: int = 0) -> list[dict[str, Any]]:
        """The log as ``seat`` may see it, from event number ``since``."""
        return project(self.log[since:], seat)

    def log_for(self, seat: Seat | None) -> list[Event]:
        """The events ``seat`` may see (``determinize`` keeps only these), in a fresh list.

        Kept as the log grows: each call reads only the events told since the last one (a search
        determinizes the position it is asked about, then the next, in the same game)."""
        log = self.log
        key = -1 if seat is None else seat
        kept = self._logs_seen.get(key)
        if kept is not None and kept[0] is log and kept[1] <= len(log):
            _, read, seen = kept
        else:
            read, seen = 0, []
        if read < len(log):
            seen.extend([e for e in log[read:] if e.to is None or (seat is not None and seat in e.to)])
            self._logs_seen[key] = (log, len(log), seen)
        return list(seen)

    def _shallow_copy(self, rng: random.Random | int | None = None,
                      log: list[Event] | None = None) -> Self:
        """A new state sharing every game attribute with this one and owning fresh base fields;
        :meth:`clone` starts here, then copies the fields declared mutable. ``rng``, if given,
        replaces the copy of the random generator: a generator, or the seed of one made when the
        copy first draws."""
        cls = type(self)
        other = cls.__new__(cls)
        if not hasattr(cls, "__mypyc_attrs__"):  # the pure build: every attribute is in __dict__
            other.__dict__.update(self.__dict__)  # base fields replaced below
        else:  # the compiled build: the fields are the compiled class's own
            self._declared().share_fields(self, other)
            # Only a state subclassed in Python has a __dict__ (asking a compiled one for it
            # raises and catches an AttributeError, a fifth of a small copy).
            if "__mypyc_attrs__" not in cls.__dict__:
                for name, value in getattr(self, "__dict__", {}).items():
                    setattr(other, name, value)
        self._copy_base(other, rng, log)
        return other

    def _copy_base(self, other: State, rng: random.Random | int | None = None,
                   log: list[Event] | None = None) -> None:
        other.players = self.players
        other.seed = self.seed
        own = self._rng
        if isinstance(rng, int):
            other._rng, other._rng_state = None, rng
        elif rng is not None:
            other._rng, other._rng_state = rng, None
        elif isinstance(own, ScriptedChance):
            other._rng, other._rng_state = own.copy(), None
        else:
            # Copying the Mersenne Twister's 625 words is the dearest part of a copy: the state
            # is taken once (and kept while nobody draws), and the copy rebuilds a generator
            # from it only when it first draws.
            state = self._rng_state
            if state is None:
                state = self._rng_state = own.getstate()  # type: ignore[union-attr]
            other._rng, other._rng_state = None, state
        other.log = list(self.log) if log is None else log
        other.record_events = self.record_events
        other._memo = {}
        other._legal_seat = -1
        other._legal_space = None
        other._logs_seen = {}
        other._kept = {}


class Game(Protocol):
    """What the registry holds for each game."""

    info: GameInfo

    def new(self, players: int, seed: int = 0, options: Options | Mapping[str, Any] | None = None,
            chance: Script | None = None) -> State:
        """A new game at its start, with ``chance`` scripted (see :mod:`tricolore.core.chance`)."""
        ...

    @property
    def strategies(self) -> Mapping[str, typing.Callable[[], Any]]:
        """Named bot strategies for this game (``random`` is always available besides these)."""
        ...


@dataclass(frozen=True, slots=True)
class GameDefinition:
    """The usual way to declare a game: its info, its state class and its named strategies."""

    info: GameInfo
    state_class: type
    strategies: Mapping[str, typing.Callable[[], Any]] = field(default_factory=dict)
    _defaults: dict[int, Options] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The rulebook's options, checked for each number of players once (options are frozen, so
    every game of that size shares them)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def __post_init__(self) -> None:
        adopt_generated_copies(self.state_class)  # the compiled build's copy, where it was written

    def new(self, players: int, seed: int = 0, options: Options | Mapping[str, Any] | None = None,
            chance: Script | None = None) -> State:
        """A new game at its start; options may be given as a mapping of names to values.

        ``chance`` scripts outcomes of chance (a die roll, a deck's order) before the seed takes
        over: see :mod:`tricolore.core.chance`.
        """
        if type(players) is not int:
            raise OptionsError("the number of players must be a whole number")
        if not self.info.min_players <= players <= self.info.max_players:
            raise OptionsError(f"{self.info.title} is for {self.info.min_players} to "
                               f"{self.info.max_players} players; you asked for {players}")
        chosen = self._defaults.get(players) if options is None else None
        if chosen is None:
            if isinstance(options, self.info.options):
                chosen = options
            elif options is None or isinstance(options, Mapping):
                chosen = self.info.options.from_mapping(options)
            else:
                raise OptionsError(f"options must be {self.info.options.__name__} or a mapping of "
                                   "names to values")
            chosen.validate(players)
            if options is None:
                self._defaults[players] = chosen
        if chance is None:
            return self.state_class(players, seed, chosen)
        token = _CHANCE.set(check_script(chance))
        try:
            return self.state_class(players, seed, chosen)
        finally:
            _CHANCE.reset(token)
