"""The records the hot path makes many times a position (a domain, a family of actions, an event,
a partial action) are frozen dataclasses whose constructor is written out rather than generated,
so that the compiled build makes them natively. Each written-out constructor must stay true to its
dataclass's fields: every field taken, by name and in order, with the declared default."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import importlib.machinery
import pickle
import pkgutil
import sys
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from tricolore.core.actions import ActionFamily, ActionSpace, Amount, Choice


def _rule(*args: object) -> str:
    return "a rule"


SAMPLES: dict[str, dict[str, Any]] = {
    "ActionFamily": {"kind": "vote", "params": {"count": Amount(0, 3)}, "optional": frozenset({"count"}),
                     "help": "Vote"},
    "Amount": {"low": 1, "high": 9, "typical": 3, "limit": "Danton has 9 cakes"},
    "Choice": {"options": (1, 2), "labels": ("one", "two"), "refusal": "not that one"},
    "Depends": {"rule": Amount, "args": (0, 4)},
    "Subset": {"options": ("a", "b", "c"), "max_size": 2, "min_size": 1, "refusal": "not those"},
    "Text": {"max_length": 12, "taken": frozenset({"Danton"}), "examples": ("Marat",), "label": "name"},
    "Worded": {"rule": _rule, "args": ("Danton",)},
    "Deal": {"id": 4, "payer": 1, "payee": 2, "amount": 3, "condition": {"trial": 5}, "offered_by": 2,
             "status": "accepted", "paid": 3},
    "Event": {"kind": "cake_vote", "data": {"cakes": 2}, "to": frozenset({1})},
    "Prompt": {"seat": 2, "kinds": ("cake_vote", "pass"), "secret": True, "window": "reaction"},
    "CakeCard": {"id": 7, "value": 3, "starter": True, "known": frozenset({0, 2})},
    "Payout": {"tile": "bread", "counts_as": "circus", "tile_gold": 3, "honest_bonus": 1,
               "riot_penalty": 2, "paid": 2},
    "RuledChoice": {"options": ("a", "b"), "labels": ("A", "B"), "refusal": "not that",
                    "reasons": (("c", "the Printer is taken"),)},
    "Partial": {"kind": "cake_vote", "chosen": (("citizen", 3),), "items": ("x",),
                "chips": (("gold", "bank"),), "path": (0, 5)},
    "CakeVote": {"voter": 3, "cakes": 2, "side": "privileged"},
    "Reward": {"voter": "Danton", "returned": 2, "reward": 1, "share_numerator": 4, "share_denominator": 3},
    "TrialClosing": {"verdict": "privileged", "winning_cakes": 5, "lost_cakes": 3, "bastille_vote": 2,
                     "rewards": (), "leftover": 1, "lost": (("Marat", 3),)},
    "BookRow": {"voter": "Marat", "citizen": "Danton", "cakes": 3, "side": "privileged", "closing": 2,
                "turn": 7},
    "_Offered": {"pairs": [(5, 3)], "by_index": {5: 3}, "mask": np.zeros(3, dtype=np.int8)},
}
"""A value unlike any default for every field, per record (the compiled build checks the types of
what a record is given, so each is of its field's type)."""


def _modules() -> list[str]:
    names = []
    for package in ("tricolore.core", "tricolore.interop", "tricolore.games"):
        module = importlib.import_module(package)
        names += [info.name for info in pkgutil.walk_packages(module.__path__, package + ".")
                  if not info.name.endswith((".terminal", ".cli", ".paper"))]
    return names


def written_out() -> list[type]:
    """Every dataclass of the engine and the environments with a constructor of its own."""
    found: dict[str, type] = {}
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra's adapter (OpenSpiel) without the extra
            continue
        for value in vars(module).values():
            if (isinstance(value, type) and dataclasses.is_dataclass(value)
                    and value.__module__ == name and not value.__dataclass_params__.init  # type: ignore[attr-defined]
                    and any(f.init for f in dataclasses.fields(value))):
                found[f"{name}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


RECORDS = written_out()


def test_the_records_the_hot_path_makes_have_their_own_constructors() -> None:
    names = {cls.__name__ for cls in RECORDS}
    assert {"ActionFamily", "Amount", "Choice", "Subset", "Worded", "Depends", "Event",
            "Prompt", "Partial", "Deal", "CakeCard", "RuledChoice"} <= names
    assert names <= set(SAMPLES), f"give {sorted(names - set(SAMPLES))} sample values in SAMPLES"


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__qualname__)
def test_a_written_out_constructor_takes_every_field_by_name(cls: type) -> None:
    given = {f.name: SAMPLES[cls.__name__][f.name] for f in dataclasses.fields(cls) if f.init}
    for record in (cls(**given), cls(*given.values())):  # by name, then in the fields' order
        for name, value in given.items():
            assert _same(getattr(record, name), value), f"{cls.__qualname__}.{name}"
    with pytest.raises(dataclasses.FrozenInstanceError if cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
                       else TypeError):
        if cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            setattr(record, next(iter(given)), None)
        else:
            cls(**given, unknown=1)


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__qualname__)
def test_a_written_out_constructor_has_the_declared_defaults(cls: type) -> None:
    fields = [f for f in dataclasses.fields(cls) if f.init]
    required = {f.name: SAMPLES[cls.__name__][f.name] for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    record = cls(**required)
    for f in fields:
        if f.name not in required:
            declared = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
            assert _same(getattr(record, f.name), declared), f"{cls.__qualname__}.{f.name}"


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__qualname__)
def test_a_record_is_copied_and_pickled_whole(cls: type) -> None:
    given = {f.name: SAMPLES[cls.__name__][f.name] for f in dataclasses.fields(cls) if f.init}
    record = cls(**given)
    for again in (copy.deepcopy(record), pickle.loads(pickle.dumps(record))):
        assert type(again) is cls
        for name, value in given.items():
            kept = getattr(again, name)
            if isinstance(value, np.ndarray):
                assert np.array_equal(kept, value)
            elif not callable(value):
                assert kept == value, f"{cls.__qualname__}.{name}"


def test_an_action_family_is_read_only_and_lists_its_required_parameters() -> None:
    params = {"citizen": Choice((1, 2)), "name": Amount(0, 1)}
    family = ActionFamily("recruit", params, frozenset({"name"}))
    with pytest.raises(TypeError):
        family.params["name"] = Amount(0, 2)  # type: ignore[index]
    assert [name for name, _, _ in family.required()] == ["citizen"]
    assert family.required() is family.required()  # worked out once
    assert ActionSpace((family, ActionFamily("pass"))).kinds == ("recruit", "pass")
    # a plain dict is kept as given (the rules pass a new one); any other mapping is copied
    given = MappingProxyType(dict(params))
    copied = ActionFamily("recruit", given)
    assert copied.params == given and type(copied.params) is MappingProxyType
    assert [name for name, _, _ in copied.required()] == ["citizen", "name"]


def test_the_constructors_run_as_written() -> None:
    """From a compiled module, made natively (not by a function the dataclass generated); from a
    source module, by the function written there."""
    for cls in RECORDS:
        init = cls.__init__
        loader = sys.modules[cls.__module__].__spec__.loader  # type: ignore[union-attr]
        if isinstance(loader, importlib.machinery.ExtensionFileLoader):
            assert type(init).__name__ != "function", f"{cls.__qualname__} is built by interpreted code"
        else:
            assert init.__code__.co_filename.endswith(".py"), f"{cls.__qualname__}'s constructor is generated"


def _same(kept: object, given: object) -> bool:
    """The value given, or one equal to it (a family keeps a read-only copy of its parameters)."""
    return kept is given or (not isinstance(given, np.ndarray) and kept == given)
