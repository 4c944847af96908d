"""Scripted chance: start a game from a chosen position (a given deal, a given die roll).

Teachers, tests and researchers want a die to roll a 5 or a deck to come out in a given order. A
:class:`ScriptedChance` is the state's random generator with a script of outcomes in front of it:
each kind of draw (``randint`` for a die, ``shuffle`` for a deck, ``choice``, ``randrange``,
``sample``) takes its outcomes from its own list, in order, and falls back to the seeded generator
when the list runs out. Every scripted outcome must be one the draw could have made (a roll within
the die, an order that is a permutation of the deck), or :class:`ChanceError` says why.

A game is given a script with ``tricolore.make(name, players, seed, chance={...})`` (or
``GameDefinition.new(..., chance=...)``); the script is kept in the game's record, so a game that
started from a chosen position still replays and verifies.

>>> import tricolore
>>> state = tricolore.make("culottes", 3, seed=1, chance={"randint": [5, 6]}, first_player=0)
>>> isinstance(state.rng, ScriptedChance) and state.rng.randint(1, 6) == 5
True
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any

DRAWS = ("randint", "randrange", "choice", "shuffle", "sample")
"""The kinds of draw a script may fix."""

Script = Mapping[str, Sequence[Any]]
"""Outcomes per kind of draw, in the order the game draws them."""


class ChanceError(ValueError):
    """A script of chance that cannot be used; the message says which outcome and why."""


def check_script(script: object) -> dict[str, list[Any]]:
    """The script as plain JSON data, or :class:`ChanceError` if it is not a mapping of known
    draws to lists of outcomes."""
    if not isinstance(script, Mapping):
        raise ChanceError("a script of chance maps kinds of draw to lists of outcomes")
    out: dict[str, list[Any]] = {}
    for kind, outcomes in script.items():
        if kind not in DRAWS:
            raise ChanceError(f"a script of chance may fix {', '.join(DRAWS)}; not {kind!r}")
        if not isinstance(outcomes, Sequence) or isinstance(outcomes, str):
            raise ChanceError(f"the scripted {kind} outcomes must be a list")
        out[kind] = json.loads(json.dumps(list(outcomes)))
    return out


def _key(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


class ScriptedChance(random.Random):
    """A seeded generator that hands out scripted outcomes first (see the module's docs)."""

    def __init__(self, seed: int, script: Script) -> None:
        super().__init__(seed)
        self.script = check_script(script)
        self.used = dict.fromkeys(self.script, 0)
        self.drawn: dict[str, list[Any]] = {}
        """Every outcome drawn so far, scripted or seeded, per kind: a script that repeats them."""

    def _next(self, kind: str) -> tuple[bool, Any]:
        outcomes = self.script.get(kind)
        if not outcomes or self.used[kind] >= len(outcomes):
            return False, None
        self.used[kind] += 1
        return True, outcomes[self.used[kind] - 1]

    def remaining(self) -> dict[str, list[Any]]:
        """The outcomes not yet drawn, per kind (part of the state's digest)."""
        return {k: v[self.used[k]:] for k, v in self.script.items() if self.used[k] < len(v)}

    def copy(self) -> ScriptedChance:
        """An independent copy, at the same point of its script and of its seeded generator."""
        other = ScriptedChance.__new__(ScriptedChance)
        random.Random.__init__(other)
        other.setstate(self.getstate())
        other.script = self.script
        other.used = dict(self.used)
        other.drawn = {k: list(v) for k, v in self.drawn.items()}
        return other

    def _drew(self, kind: str, value: Any) -> Any:
        self.drawn.setdefault(kind, []).append(json.loads(json.dumps(value, default=repr)))
        return value

    # -- the draws games make ---------------------------------------------------------------------
    def randint(self, a: int, b: int) -> int:
        """A scripted roll from ``a`` to ``b``, else a seeded one."""
        scripted, value = self._next("randint")
        if not scripted:
            return self._drew("randint", super().randint(a, b))
        if type(value) is not int or not a <= value <= b:
            raise ChanceError(f"the scripted roll {value!r} is not a whole number from {a} to {b}")
        return self._drew("randint", value)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """A scripted number of ``range(start, stop, step)``, else a seeded one."""
        scripted, value = self._next("randrange")
        if not scripted:
            return self._drew("randrange", super().randrange(start, stop, step))
        allowed = range(start) if stop is None else range(start, stop, step)
        if type(value) is not int or value not in allowed:
            raise ChanceError(f"the scripted number {value!r} is not one of {list(allowed)[:12]}")
        return self._drew("randrange", value)

    def choice(self, seq: Sequence[Any]) -> Any:  # type: ignore[override]
        """A scripted pick from ``seq``, else a seeded one."""
        scripted, value = self._next("choice")
        if not scripted:
            return self._drew("choice", super().choice(seq))
        for item in seq:
            if _key(item) == _key(value):
                return self._drew("choice", item)
        raise ChanceError(f"the scripted choice {value!r} is not one of {list(seq)!r}")

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """``x`` put in the scripted order, else shuffled by the seeded generator."""
        scripted, value = self._next("shuffle")
        if not scripted:
            super().shuffle(x)
            self._drew("shuffle", list(x))
            return
        if not isinstance(value, list) or Counter(map(_key, value)) != Counter(map(_key, x)):
            raise ChanceError(f"the scripted order {value!r} is not an order of {list(x)!r}")
        by_key: dict[str, list[Any]] = {}
        for item in x:
            by_key.setdefault(_key(item), []).append(item)
        x[:] = [by_key[_key(v)].pop() for v in value]
        self._drew("shuffle", list(x))

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        """A scripted draw of ``k`` items from ``population``, else a seeded one."""
        scripted, value = self._next("sample")
        if not scripted:
            return self._drew("sample", super().sample(population, k, counts=counts))
        pool = Counter(map(_key, population))
        if not isinstance(value, list) or len(value) != k or Counter(map(_key, value)) - pool:
            raise ChanceError(f"the scripted draw {value!r} is not {k} items of {list(population)!r}")
        return self._drew("sample", [next(p for p in population if _key(p) == _key(v)) for v in value])
