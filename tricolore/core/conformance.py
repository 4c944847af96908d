"""The conformance suite every registered game runs, public so third-party games can run it too.

:func:`check_game` plays random games of many seeds and checks, at every step:

- the game asks someone while it is not over, every pending seat has a legal action, and a sampled
  action is accepted;
- views of the seats checked and of a spectator are JSON; every event, and at sampled steps
  (every ``isolate_every``-th) every view, survive JSON unchanged
  (``view == json.loads(json.dumps(view))``: no integer keys, no tuples), and so do the final
  views and the result;
- **a view is a snapshot**: at sampled steps every container of one seat's view (a spectator's
  and each seat's in turn) is changed in place, and every other view, a fresh view of that seat
  and the digest stay as they were; so do the prompts and the legal actions' description.
  Likewise the action: changing its dict after ``apply`` leaves the digest alone; and the
  result at the end;
- **the leak test**: ``view(seat)`` equals ``view(seat)`` of ``determinize(seat, rng)``, so no
  field of a view depends on a secret that seat does not know; ``determinize`` leaves the real
  state untouched. Every seat is checked at every ``every_seat_every``-th step and one seat in
  rotation at the steps between (so a long game costs a few views per step, not two per seat);
  at the steps where every seat is checked, views are compared as JSON text (which tells ``1``
  from ``1.0`` and ``true``) and shown to be JSON, and as values at the steps between (the same
  comparison, many times faster, alike for those three);
- random malformed or illegal actions, and actions from seats not asked, are refused with
  :class:`IllegalAction` and leave the digest unchanged;
- ``clone()`` is independent of the original (its digest and, at sampled steps, its view);
- **the declaration covers the state** (at sampled steps, see :func:`check_fields`): every
  attribute is declared in ``FIELDS`` and every declared field is an attribute; no field declared
  shared holds a list, dict or set; changing every mutable field of a clone (as deep as it is
  declared copied) leaves the original's digest alone; changing any digested field changes the
  digest; and ``determinize`` leaves every public field as it was;
- **the moves** of a game that numbers them (:func:`check_moves`, every ``every_seat_every``-th
  step): ``acting()`` is the seats asked, each asked seat's moves are distinct legal actions of
  every kind of its prompt, a seat not asked has none, and ``apply_move`` of one leaves the state
  ``apply_trusted`` of its action leaves;
- **random play's shortcut** (:func:`check_drawn`, every ``every_seat_every``-th step):
  ``play_drawn`` draws the same numbers as the legal actions' ``sample`` and leaves the state,
  and logs the events, that playing the action drawn does;

Play mixes free actions (transfers, agreements) by any seat into the prompted ones. At the end it
checks that the game ended within a bound, and that the record survives JSON and replays
to every digest.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from tricolore.core.errors import IllegalAction
from tricolore.core.fields import Copy, Field, Seen, digest_value
from tricolore.core.model import Game, State, copy_json
from tricolore.core.record import Record, verify

_JUNK: tuple[Any, ...] = (None, -1, 0, 10**9, 2.5, "", "x" * 500, [], {}, True, [-1], "sans_culotte")
_MUTATED = "mutated by the conformance suite"


class ConformanceError(AssertionError):
    """A game broke the contract of the core model; the message says where and how."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a conformance run covered."""

    games: int
    actions: int
    refusals: int
    leak_checks: int


_TEXT: Final = json.JSONEncoder(sort_keys=True, allow_nan=False)
"""How views are written to be compared as text (made once, not at every ``json.dumps``)."""


def _json(data: object, what: str) -> str:
    try:
        return _TEXT.encode(data)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{what} is not JSON: {exc}") from None


def _round_trip(data: object, what: str) -> str:
    """``data`` as JSON text, checked to come back from JSON equal to itself."""
    text = _json(data, what)
    if json.loads(text) != data:
        raise ConformanceError(f"{what} does not survive JSON: {_not_json(data, what)}")
    return text


def _not_json(value: object, path: str) -> str:
    """Where and why ``value`` changes on a JSON round trip."""
    if isinstance(value, tuple):
        return f"{path} is a tuple (JSON makes it a list)"
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                return (f"{path} has the key {key!r}, which JSON makes text: per-seat data is a "
                        "list indexed by seat, per-id data a list or an object with text keys")
            found = _not_json(item, f"{path}.{key}")
            if found:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _not_json(item, f"{path}[{i}]")
            if found:
                return found
    return ""


def _mutate(value: object) -> None:
    """Change every container in ``value`` in place: each list's items replaced and one appended,
    each dict's values replaced and a key added (inner containers first)."""
    if isinstance(value, dict):
        for item in value.values():
            _mutate(item)
        for key in list(value):
            value[key] = _MUTATED
        value[_MUTATED] = _MUTATED
    elif isinstance(value, list):
        for item in value:
            _mutate(item)
        value[:] = [_MUTATED] * (len(value) + 1)


def _changed(before: str, after: object) -> str:
    """The top-level fields of a view that differ from its JSON text ``before``."""
    old = json.loads(before)
    if not isinstance(old, dict) or not isinstance(after, dict):
        return "the whole value"
    keys = sorted(k for k in old.keys() | after.keys() if old.get(k) != after.get(k))
    return ", ".join(keys) or "nothing visible"


_DEPTHS = {Copy.SHALLOW: 0, Copy.OWN: 0, Copy.NESTED: 1, Copy.JSON: 64}
"""How deep a clone's copy of a field goes, by how it is declared copied (a copier of its own: 1)."""


def _disturb(value: object, depth: int) -> None:
    """Change ``value`` in place: add an item to each list, dict and set down to ``depth`` levels
    of containers, and rebind every attribute of an object (a copy that shares it would show)."""
    if isinstance(value, list):
        if depth:
            for item in value:
                _disturb(item, depth - 1)
        value.append(_MUTATED)
    elif isinstance(value, dict):
        if depth:
            for item in value.values():
                _disturb(item, depth - 1)
        value[_MUTATED] = _MUTATED
    elif isinstance(value, set):
        value.add(_MUTATED)
    elif value is not None and not isinstance(value, (str, int, float, tuple, frozenset)):
        for name in attribute_names(value):
            _rebind(value, name, setter=object.__setattr__)


def attribute_names(value: object) -> set[str]:
    """The attributes ``value`` holds: those of its ``__dict__``, its slots, and, in the compiled
    build, the fields of its compiled class that are set."""
    names = set(getattr(value, "__dict__", ()))
    names.update(n for k in type(value).__mro__ for n in getattr(k, "__slots__", ()))
    names.update(n for n in getattr(type(value), "__mypyc_attrs__", ()) if hasattr(value, n))
    return names - {"__dict__", "__weakref__"}


def _unlike(value: object) -> list[object]:
    """Values unlike ``value`` to rebind an attribute to, the first of its own type (a compiled
    class checks the type of what its fields are given)."""
    found: list[object] = []
    if isinstance(value, bool):
        found.append(not value)
    elif isinstance(value, Enum):
        found += [m for m in type(value) if m is not value][:1]
    elif isinstance(value, (int, float)):
        found.append(value + 1)
    elif isinstance(value, str):
        found.append(value + " (mutated)")
    elif isinstance(value, (list, tuple)):
        found.append(type(value)([*value, _MUTATED]))
    elif isinstance(value, dict):
        found.append({**value, _MUTATED: _MUTATED})
    elif isinstance(value, (set, frozenset)):
        found.append(type(value)([*value, _MUTATED]))
    return [*found, _MUTATED, True, 1, [_MUTATED], {_MUTATED: _MUTATED}]


def _rebind(owner: object, name: str, setter: Any = setattr) -> bool:
    """Give ``owner.name`` a value unlike its own, of a type its class accepts (for an object of
    a compiled class, a copy of it changed in place); whether it could. A compiled class refuses
    what is not of its field's type, so an empty field of a compiled class's type (``None``) and a
    frozen field keep their value."""
    value = getattr(owner, name, None)
    for other in _unlike(value):
        try:
            setter(owner, name, other)
            return True
        except (TypeError, AttributeError):  # a compiled field's type; a frozen field
            continue
    if value is None:
        return False
    try:
        changed = copy.deepcopy(value)  # a compiled frozen record cannot be rebuilt so
        _disturb(changed, 1)
        setter(owner, name, changed)
    except (TypeError, AttributeError):
        return False
    return True


def _differs(state: State, before: str) -> bool:
    """Whether ``state``'s digest differs from ``before`` (a digest that fails differs)."""
    try:
        return state.digest() != before
    except Exception:  # the digest read the changed field and could not make sense of it
        return True


def check_fields(state: State) -> None:
    """The state's ``FIELDS`` declare it exactly: every attribute (besides the base class's) is
    declared and every declared field is an attribute; no field declared shared holds a list,
    dict or set; changing every mutable field of a clone, as deep as it is declared copied,
    leaves the original's digest alone; and changing any field declared digested (while it is)
    changes the digest."""
    fields: Mapping[str, Field] = type(state).FIELDS
    name_of = type(state).__name__
    if not fields:
        raise ConformanceError(f"{name_of} declares no FIELDS")
    attributes = attribute_names(state) - State.BASE_FIELDS
    undeclared = sorted(attributes - set(fields))
    if undeclared:
        raise ConformanceError(f"{name_of} has the attribute {undeclared[0]!r}, which FIELDS does "
                               "not declare: declare how it is copied, digested and seen")
    absent = sorted(set(fields) - attributes)
    if absent:
        raise ConformanceError(f"{name_of} declares the field {absent[0]!r} in FIELDS, but the "
                               "state has no such attribute")
    for name, f in fields.items():
        if not f.mutable and isinstance(getattr(state, name), (list, dict, set)):
            raise ConformanceError(f"the field {name!r} is declared shared but holds a "
                                   f"{type(getattr(state, name)).__name__}: copies would share it")
    before = state.digest()
    twin = state.clone()
    for name, f in fields.items():
        if f.mutable:
            _disturb(getattr(twin, name), _DEPTHS[f.copy] if isinstance(f.copy, Copy) else 1)
            if _differs(state, before):
                raise ConformanceError(f"changing the field {name!r} of a clone changed the "
                                       "original: declare it copied deeper")
    twin = state.clone()
    for name, f in fields.items():
        if f.digest is False or (f.digest_if is not None and not f.digest_if(state)):
            continue
        kept = getattr(twin, name)
        if not _rebind(twin, name):
            continue  # nothing of its type to give it here (the compiled build, an empty field)
        reached = _differs(twin, before)
        setattr(twin, name, kept)
        if not reached:
            raise ConformanceError(f"the field {name!r} is declared digested, but the digest does "
                                   "not change with it")


def _field_texts(state: State) -> dict[str, str]:
    """The JSON text of the form the digest hashes of each digested field of ``state``."""
    return {name: json.dumps(digest_value(f, getattr(state, name)), sort_keys=True, default=repr)
            for name, f in type(state).FIELDS.items() if f.digest is not False}


def _shared_fields(state: State, twin: State) -> list[str]:
    """The fields of ``state`` whose value holds a list, dict or set that ``twin`` (a copy of it)
    holds too: copied too shallow, so a change to one copy is a change to the other."""
    def shares(mine: object, theirs: object) -> bool:
        if isinstance(mine, (list, dict, set)) and mine is theirs:
            return True
        if isinstance(mine, (list, tuple)) and isinstance(theirs, (list, tuple)):
            return any(shares(a, b) for a, b in zip(mine, theirs, strict=False))
        if isinstance(mine, dict) and isinstance(theirs, dict):
            return any(shares(v, theirs[k]) for k, v in mine.items() if k in theirs)
        return False

    return [name for name, f in type(state).FIELDS.items()
            if f.copy is not Copy.OWN and shares(getattr(state, name), getattr(twin, name, None))]


def _check_public(state: State, twin: State, seat: int) -> None:
    """``determinize(seat)`` leaves every public field as it was."""
    for name, f in type(state).FIELDS.items():
        if f.seen is not Seen.PUBLIC:
            continue
        mine, theirs = getattr(state, name), getattr(twin, name)
        if mine is theirs or mine == theirs:
            continue
        if f.digest is False or digest_value(f, mine) != digest_value(f, theirs):
            raise ConformanceError(f"determinize({seat}) changes the field {name!r}, which is "
                                   "declared public: declare who may see it")


def check_isolation(state: State, seat: int | None,
                    views: Mapping[int | None, str] | None = None) -> None:
    """Change every container of ``view(seat)`` in place; then every seat's and a spectator's
    view, a fresh ``view(seat)`` and the digest must be unchanged. Likewise the prompts and the
    legal actions' description: a view is a snapshot, not the state's own data.

    ``views`` holds the JSON texts of views already made (and checked); the others are made
    here and checked to survive JSON.
    """
    views = dict(views or {})
    for other in [None, *range(state.players)]:
        if other not in views:
            views[other] = _round_trip(state.view(other), f"view({other})")
    before = state.digest()
    mine = state.view(seat)
    _mutate(mine)
    for other, text in views.items():
        which = f"a fresh view({other})" if other == seat else f"view({other})"
        try:
            now = state.view(other)
        except Exception as exc:  # the state itself was changed into nonsense
            raise ConformanceError(
                f"changing view({seat}) broke {which} ({type(exc).__name__}: {exc}): a view "
                "shares a list or dict with the state or with module data (hand out a copy)"
            ) from None
        if _json(now, f"view({other})") != text:
            raise ConformanceError(
                f"changing view({seat}) changed {which} in {_changed(text, now)}: a view "
                "shares a list or dict with the state or with module data (hand out a copy)")
    if state.digest() != before:
        raise ConformanceError(f"changing view({seat}) changed the state: a view shares a list or "
                               "dict with the state (hand out a copy)")
    pending = state.pending()
    prompts = {s: p.as_dict() for s, p in pending.items()}
    steps = {s: _json(state.legal_actions(s).steps(), "the legal actions") for s in pending}
    for s in pending:
        _mutate(state.legal_actions(s).steps())
    if isinstance(pending, dict):
        pending.clear()
    if {s: p.as_dict() for s, p in state.pending().items()} != prompts:
        raise ConformanceError("changing what pending() returned changed the prompts")
    for s, text in steps.items():
        if _json(state.legal_actions(s).steps(), "the legal actions") != text:
            raise ConformanceError(f"changing legal_actions({s}).steps() changed the legal actions")
    if state.digest() != before:
        raise ConformanceError("changing the prompts or legal actions changed the state")


def _bad_actions(state: State, seat: int, good: Mapping[str, Any], rng: random.Random
                 ) -> Iterable[tuple[int, object]]:
    yield seat, "not an object"
    yield seat, {"cakes": 1}
    yield seat, {"type": "no_such_action"}
    yield seat, {**good, "unexpected_field": 1}
    for key in [k for k in good if k != "type"]:
        for junk in rng.sample(_JUNK, 3):
            yield seat, {**good, key: junk}
        yield seat, {k: v for k, v in good.items() if k != key}
    others = [s for s in range(state.players) if s not in state.pending()]
    if others:
        yield rng.choice(others), good
    yield state.players, good
    yield -1, good


def check_step(state: State, rng: random.Random, log_since: int = 0,
               seats: Iterable[int] | None = None, isolate: bool = False,
               isolated_seat: int | None = None) -> tuple[int, int]:
    """Check one position (views, leaks, refusals, clone); returns (refusals, leak checks).

    ``seats`` are leak-checked (default: all). The log is checked from event ``log_since`` on
    (earlier events were checked before). With ``isolate``, the view of ``isolated_seat``
    (``None``: a spectator) is changed in place to show that views are snapshots (see
    :func:`check_isolation`), and the clone's independence is checked on a view too.
    """
    pending = state.pending()
    if not pending:
        raise ConformanceError("the game is not over but nobody is asked to act")
    checked = list(range(state.players) if seats is None else seats)
    # Views are compared as JSON text (which tells 1 from 1.0 and true) when every seat is checked
    # and when a view is isolated, and as values at the steps between, which is many times faster.
    strict = isolate or seats is None
    audience = [None, *range(state.players)] if isolate else [None, *checked]
    shown = {seat: state.view(seat) for seat in audience}
    if isolate:  # every view, checked to survive JSON
        views = {seat: _round_trip(view, f"view({seat})") for seat, view in shown.items()}
    elif strict:
        views = {seat: _json(view, f"view({seat})") for seat, view in shown.items()}
    else:
        views = {}
    _round_trip([e.as_dict() for e in state.log[log_since:]], "the log")
    if isolate:
        check_fields(state)
        check_isolation(state, isolated_seat, views)
    before = state.digest()
    for seat in checked:
        twin = state.determinize(seat, random.Random(rng.random()))
        seen = twin.view(seat)
        if strict or seen != shown[seat]:
            mine = views[seat] if strict else _json(shown[seat], f"view({seat})")
            theirs = _json(seen, f"view({seat}) of a determinized state")
        else:
            mine = theirs = ""
        if mine != theirs:
            raise ConformanceError(f"view({seat}) differs after determinize({seat}): a secret leaks "
                                   f"into the view, or determinize changes what the seat knows.\n"
                                   f"  real:         {_first_difference(mine, theirs)}")
        if twin.pending().keys() != pending.keys():
            raise ConformanceError(f"determinize({seat}) changes who is asked to act")
        _check_public(state, twin, seat)
    if state.digest() != before:
        raise ConformanceError("determinize changed the real state")
    refused: list[tuple[int, object]] = []
    seat = min(pending)
    legal = state.legal_actions(seat)
    if not legal:
        raise ConformanceError(f"seat {seat} is pending but has no legal action")
    good = legal.sample(rng)
    for bad_seat, bad in _bad_actions(state, seat, good, rng):
        allowed = (isinstance(bad, Mapping) and 0 <= bad_seat < state.players
                   and ((bad_seat in pending and state.legal_actions(bad_seat).contains(bad))
                        or state.free_actions(bad_seat).contains(bad)))
        if allowed:
            continue
        try:
            state.apply(bad_seat, bad)  # type: ignore[arg-type]
        except IllegalAction as exc:
            if not exc.message or not exc.code:
                raise ConformanceError(f"a refusal of {bad!r} has no code or message") from None
        else:
            raise ConformanceError(f"seat {bad_seat}'s illegal action {bad!r} was accepted")
        refused.append((bad_seat, bad))
    if state.digest() != before:  # one digest for all refusals, then find the culprit
        raise ConformanceError(f"refusing {_culprit(state, refused)} changed the state")
    fields = _field_texts(state) if isolate else {}  # to name a field a clone shares
    twin = state.clone()
    trusted = state.clone()
    drawn_seat, drawn = random_action(state, rng)
    events = twin.apply(drawn_seat, drawn)
    if state.digest() != before:
        now = _field_texts(state)
        changed = [name for name, text in fields.items() if now.get(name) != text] or _shared_fields(
            state, twin)
        raise ConformanceError("applying an action to a clone changed the original" + (
            f"'s field {changed[0]!r}: declare it copied deeper" if changed else ""))
    check_trusted(twin, trusted, drawn_seat, copy_json(drawn), events, strict)
    if isolate and _json(state.view(None), "view(None)") != views[None]:
        raise ConformanceError("applying an action to a clone changed the original's view in "
                               f"{_changed(views[None], state.view(None))}")
    return len(refused), len(checked)


def check_trusted(applied: State, trusted: State, seat: int, action: dict[str, Any],
                  events: list[Any], strict: bool = True) -> None:
    """``apply_trusted`` (the trusted entry point) does exactly what ``apply`` did: ``applied`` is a clone
    that took ``action`` through ``apply`` (causing ``events``), ``trusted`` another clone of the
    same position, which takes it through ``apply_trusted``. The digests, the events, who is asked next and
    every seat's view must agree (the views as JSON text, or with ``strict`` false as values:
    ``1``, ``1.0`` and ``true`` are then alike)."""
    played = trusted.apply_trusted(seat, action)
    if [e.as_dict() for e in played] != [e.as_dict() for e in events]:
        raise ConformanceError(f"apply_trusted({seat}, {action!r}) logs other events than apply")
    if trusted.digest() != applied.digest():
        raise ConformanceError(f"apply_trusted({seat}, {action!r}) leaves another state than apply")
    if {s: p.as_dict() for s, p in trusted.pending().items()} != {
            s: p.as_dict() for s, p in applied.pending().items()}:
        raise ConformanceError(f"apply_trusted({seat}, {action!r}) asks other seats than apply")
    for who in [None, *range(applied.players)]:
        theirs, mine = trusted.view(who), applied.view(who)
        if (_json(theirs, "view") != _json(mine, "view")) if strict else theirs != mine:
            raise ConformanceError(f"apply_trusted({seat}, {action!r}) shows seat {who} another view "
                                   "than apply")


def check_moves(state: State, rng: random.Random) -> None:
    """A game that numbers its moves (:meth:`State.legal_moves`) numbers exactly its prompt's
    actions: :meth:`State.acting` is the seats :meth:`State.pending` asks; a seat not asked has
    no move; an asked seat's moves are distinct, every one's action is legal, and they offer every
    kind of its prompt; and :meth:`State.apply_move` of one of them, drawn at random, leaves the
    state :meth:`State.apply_trusted` of its action leaves, without changing the action."""
    if not state.numbers_moves():
        return
    asked = tuple(sorted(state.pending()))
    if state.acting() != asked:
        raise ConformanceError(f"acting() says {state.acting()}, pending() asks {asked}")
    for seat in range(state.players):
        moves = state.legal_moves(seat)
        if seat not in asked:
            if moves:
                raise ConformanceError(f"seat {seat} is not asked but has moves {moves[:8]}")
            continue
        if len(set(moves)) != len(moves):
            raise ConformanceError(f"seat {seat}'s moves repeat: {moves}")
        legal = state.legal_actions(seat)
        kinds = set()
        for move in moves:
            action = state.move_action(move)
            if not legal.contains(action):
                raise ConformanceError(f"seat {seat}'s move {move} is {action!r}, which is not legal")
            kinds.add(action["type"])
        if kinds != set(legal.kinds):
            raise ConformanceError(f"seat {seat}'s moves offer {sorted(kinds)}, its prompt "
                                   f"{sorted(legal.kinds)}")
    if not asked:
        return
    seat = asked[0]
    move = rng.choice(state.legal_moves(seat))
    action = state.move_action(move)
    before = json.dumps(action, sort_keys=True)
    fields, digest = _field_texts(state), state.digest()  # to name a field a clone shares
    moved, trusted = state.clone(), state.clone()
    moved.apply_move(seat, move)
    trusted.apply_trusted(seat, copy_json(action))
    if state.digest() != digest:
        now = _field_texts(state)
        changed = [name for name, text in fields.items() if now.get(name) != text]
        raise ConformanceError("applying a move to a clone changed the original" + (
            f"'s field {changed[0]!r}: declare it copied deeper" if changed else ""))
    if moved.digest() != trusted.digest():
        raise ConformanceError(f"apply_move({seat}, {move}) leaves another state than "
                               f"apply_trusted of its action {action!r}")
    if json.dumps(state.move_action(move), sort_keys=True) != before:
        raise ConformanceError(f"playing move {move} changed its action {before}")


def check_drawn(state: State, rng: random.Random) -> None:
    """:meth:`State.play_drawn` plays what random play on the legal actions plays: on two clones,
    the first seat asked plays the action ``legal_actions(seat).sample`` draws, and
    ``play_drawn`` with a generator in the same state; both leave the same state and log the same
    events, both generators end alike (the same numbers drawn), and the original is untouched."""
    asked = state.acting() if state.numbers_moves() else tuple(sorted(state.pending()))
    if not asked:
        return
    seat = asked[0]
    seed = rng.getrandbits(64)
    before = state.digest()
    sampled, drawn = state.clone(), state.clone()
    start = len(sampled.log)
    first, second = random.Random(seed), random.Random(seed)
    sampled.play_trusted(seat, sampled.legal_actions(seat).sample(first))
    drawn.play_drawn(seat, second)
    if state.digest() != before:
        raise ConformanceError(f"play_drawn({seat}) on a clone changed the original")
    if first.getstate() != second.getstate():
        raise ConformanceError(f"play_drawn({seat}) draws other numbers than its legal actions' sample")
    if [e.as_dict() for e in drawn.log[start:]] != [e.as_dict() for e in sampled.log[start:]]:
        raise ConformanceError(f"play_drawn({seat}) logs other events than playing the action drawn")
    if drawn.digest() != sampled.digest():
        raise ConformanceError(f"play_drawn({seat}) leaves another state than playing the action drawn")


def check_moves_throughout(state: State, rng: random.Random) -> int:
    """:func:`check_moves` at every position of :func:`random_play` of ``state`` to its end, the
    first included; at the end nobody is asked and no seat has a move. Returns the positions
    checked."""
    check_moves(state, rng)
    checked = 1
    for position in random_play(state, rng):
        if not position.is_over():
            check_moves(position, rng)
            checked += 1
    if state.acting() or any(state.legal_moves(seat) for seat in range(state.players)):
        raise ConformanceError("the game is over but a seat is still asked or has moves")
    return checked


def play_on_moves(state: State, rng: random.Random, max_moves: int = 20_000) -> list[tuple[int, int]]:
    """Play ``state`` to its end on moves alone: the first seat asked draws uniformly among its
    legal moves. Returns the (seat, move) pairs played; :class:`ConformanceError` if the game has
    not ended after ``max_moves``."""
    played: list[tuple[int, int]] = []
    while not state.is_over():
        if len(played) >= max_moves:
            raise ConformanceError(f"the game has not ended after {max_moves} moves")
        seat = state.acting()[0]
        moves = state.legal_moves(seat)
        move = moves[rng.randrange(len(moves))]
        state.apply_move(seat, move)
        played.append((seat, move))
    return played


def _culprit(state: State, refused: list[tuple[int, object]]) -> str:
    """Which refused action changes a state: replayed one by one on clones of ``state`` (which
    is already changed, so a culprit that changes it again is found; else all are named)."""
    for bad_seat, bad in refused:
        twin = state.clone()
        before = twin.digest()
        with contextlib.suppress(IllegalAction):
            twin.apply(bad_seat, bad)  # type: ignore[arg-type]
        if twin.digest() != before:
            return f"{bad!r} from seat {bad_seat}"
    return "one of " + ", ".join(f"{bad!r} from seat {s}" for s, bad in refused)


def random_action(state: State, rng: random.Random, free_rate: float = 0.1
                  ) -> tuple[int, dict[str, Any]]:
    """A random legal action: usually the first pending seat's, sometimes (``free_rate``) a free
    action (a transfer, an agreement) by any seat that has one."""
    if rng.random() < free_rate:
        seats = [s for s in range(state.players) if state.free_actions(s)]
        if seats:
            seat = rng.choice(seats)
            return seat, state.free_actions(seat).sample(rng)
    seat = min(state.pending())
    return seat, state.legal_actions(seat).sample(rng)


def random_play(state: State, rng: random.Random, free_rate: float = 0.1) -> Iterator[State]:
    """Play ``state`` to its end with :func:`random_action`, yielding it after every action."""
    while not state.is_over():
        state.apply(*random_action(state, rng, free_rate))
        yield state


def _check_action_kept(state: State, action: dict[str, Any], record: Record) -> None:
    """Changing the action's dict after ``apply`` must not reach the state."""
    assert record.digests is not None
    shown = repr(action)
    _mutate(action)
    if state.digest() != record.digests[-1]:
        raise ConformanceError(f"changing the action {shown} after apply changed the state: the "
                               "state keeps the caller's dict instead of its own copy")


def _check_result_kept(state: State) -> None:
    """Changing ``result().as_dict()`` must not reach the state or a fresh result."""
    before = state.digest()
    text = _json(state.result().as_dict(), "the result")
    _mutate(state.result().as_dict())
    if state.digest() != before or _json(state.result().as_dict(), "the result") != text:
        raise ConformanceError("changing result().as_dict() changed the state or the result")


def _first_difference(a: str, b: str) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"...{a[max(0, i - 80):i + 80]}...\n  determinized: ...{b[max(0, i - 80):i + 80]}..."


def check_game(game: Game, players: int, seeds: Iterable[int], *, options: Any = None,
               max_actions: int = 20_000, every_seat_every: int = 4, isolate_every: int = 16
               ) -> Report:
    """Run the conformance suite for ``game`` with ``players`` over ``seeds``.

    Every ``isolate_every``-th step changes one view in place (a spectator's and each seat's in
    turn) and the action just applied, to show that neither reaches the state.
    Raises :class:`ConformanceError` naming the seed and step of the first failure.
    """
    games = actions = refusals = leaks = 0
    for seed in seeds:
        state = game.new(players, seed, options)
        step = log_checked = 0
        try:
            check_fields(state)
            record = Record.start(state)
            rng = random.Random(f"conformance:{seed}")
            move_rng = random.Random(f"moves:{seed}")  # the play stays the same with moves or not
            audience: list[int | None] = [None, *range(players)]
            while not state.is_over():
                if step >= max_actions:
                    raise ConformanceError(f"the game has not ended after {max_actions} actions")
                seats = None if step % every_seat_every == 0 else [step % players]
                isolating = step % isolate_every == 0
                r, lk = check_step(state, rng, log_checked, seats, isolating,
                                   audience[step // isolate_every % len(audience)])
                log_checked = len(state.log)
                refusals += r
                leaks += lk
                if step % every_seat_every == 0:
                    check_moves(state, move_rng)
                    check_drawn(state, move_rng)
                seat, action = random_action(state, rng)
                state.apply(seat, action)
                record.add(seat, action, state)
                if isolating:
                    _check_action_kept(state, action, record)
                step += 1
            result = state.result()
            _round_trip(result.as_dict(), "the result")
            _round_trip([e.as_dict() for e in state.log[log_checked:]], "the log")
            if len(result.scores) != players or not result.winners:
                raise ConformanceError("the result must score every seat and name a winner")
            final = {seat: _round_trip(state.view(seat), f"final view({seat})")
                     for seat in audience}
            check_isolation(state, audience[seed % len(audience)], final)
            _check_result_kept(state)
            copy = Record.from_dict(json.loads(record.dumps()))
            mismatches = verify(copy)
            if mismatches:
                raise ConformanceError(f"replay differs at action {mismatches[0].index}")
        except ConformanceError as exc:
            raise ConformanceError(f"{game.info.name}, {players} players, seed {seed}, "
                                   f"step {step}: {exc}") from None
        games += 1
        actions += step
    return Report(games, actions, refusals, leaks)
