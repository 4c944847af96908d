"""A state's fields declared once: copies and digests follow from the declaration, and the
conformance suite refuses a state that its declaration does not describe."""

from __future__ import annotations

import json
import random
import types
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

import tricolore
from tricolore._copies import GENERATED, copying_source, declared_copies
from tricolore.core import GameDefinition, State
from tricolore.core.conformance import (
    ConformanceError,
    attribute_names,
    check_fields,
    check_game,
    random_action,
)
from tricolore.core.fields import Copy, Field, Seen, adopt_copies, copy_kinds, declare, payload
from tricolore.core.mechanisms import SealedSubmissions
from tricolore.games.bread_and_circuses.data import Phase as BreadPhase
from tricolore.games.culottes.data import Phase as CulottesPhase
from tricolore.games.culottes.rules import INFO, CulottesState
from tricolore.games.culottes_trials.data import Phase as TrialsPhase
from tricolore.games.let_them_eat_cake.data import Phase as CakePhase
from tricolore.games.revolution.data import Phase as RevolutionPhase

PHASES: dict[str, type[StrEnum]] = {
    "culottes": CulottesPhase, "culottes-trials": TrialsPhase, "let-them-eat-cake": CakePhase,
    "revolution": RevolutionPhase, "bread-and-circuses": BreadPhase}
GAMES = [info.name for info in tricolore.list_games()]


def positions(name: str, players: int, seed: int, every: int = 7) -> list[State]:
    """Every ``every``-th position of a random game, and its last."""
    state = tricolore.get_game(name).new(players, seed)
    rng = random.Random(seed)
    out = [state.clone()]
    step = 0
    while not state.is_over():
        state.apply(*random_action(state, rng))
        step += 1
        if step % every == 0 or state.is_over():
            out.append(state.clone())
    return out


def test_every_registered_game_has_its_phase_enum():
    assert sorted(PHASES) == sorted(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_every_attribute_of_every_game_is_declared(name):
    info = tricolore.get_game(name).info
    for seed in range(2):
        for state in positions(name, info.min_players + seed, seed):
            assert attribute_names(state) - State.BASE_FIELDS == set(type(state).FIELDS)
            check_fields(state)


@pytest.mark.parametrize("name", GAMES)
def test_the_phase_is_the_games_enum_and_reads_as_its_text(name):
    info = tricolore.get_game(name).info
    seen = set()
    for state in positions(name, info.min_players, 4, every=1):
        assert type(state.phase) is PHASES[name]
        seen.add(state.phase)
        shown = json.loads(json.dumps(state.view(None)))["phase"]
        assert type(shown) is str
        assert shown == ("over" if state.is_over() else state.phase.value)
    assert len(seen) > 2


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_has_the_original_digest_and_owns_every_mutable_field(name):
    info = tricolore.get_game(name).info
    for state in positions(name, info.max_players, 1):
        copy = state.clone()
        assert copy.digest() == state.digest()
        for field_name, f in type(state).FIELDS.items():
            value = getattr(state, field_name)
            if f.mutable and value is not None:
                assert getattr(copy, field_name) is not value, field_name
            elif not f.mutable:
                assert getattr(copy, field_name) is value, field_name


class Tiny(State):
    """A state of a few fields, to show what the declaration derives."""

    FIELDS = declare(
        label=Field(digest=False),
        score=Field(copy=Copy.SHALLOW),
        tally=Field(copy=Copy.NESTED, digest=lambda tally: sorted(tally.items())),
        notes=Field(copy=Copy.JSON, splice=True),
        sealed=Field(copy=Copy.OWN, digest=payload, seen=Seen.OWNER),
        bonus=Field(digest_if=lambda state: state.score[0] > 0),
    )

    def __init__(self) -> None:
        self._init_base(2, 0)
        self.label = "tiny"
        self.score = [0, 0]
        self.tally = {"b": [1], "a": [2]}
        self.notes = [{"x": [1]}, "y"]
        self.sealed = SealedSubmissions("guess", range(2))
        self.bonus = 5

    def _pending(self) -> Any:
        return {}

    def _legal_actions(self, seat: int) -> Any:
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        return {}

    def determinize(self, seat: int, rng: random.Random) -> Any:
        return self.clone()

    def is_over(self) -> bool:
        return True

    def result(self) -> Any:
        raise NotImplementedError


def test_the_digest_hashes_the_digested_fields_in_declaration_order():
    state = Tiny()
    empty = state.sealed.payload()
    assert state.digest_payload() == [[0, 0], [("a", [2]), ("b", [1])], {"x": [1]}, "y", empty]
    state.score[0] = 1
    assert state.digest_payload()[-1] == 5


def test_a_clone_copies_each_field_as_deep_as_declared():
    state = Tiny()
    copy = state.clone()
    assert copy.label is state.label
    copy.score.append(9)
    copy.tally["a"].append(9)
    copy.notes[0]["x"].append(9)
    copy.sealed.submit(0, {"type": "guess"})
    assert state.score == [0, 0] and state.tally["a"] == [2] and state.notes[0] == {"x": [1]}
    assert state.sealed.submitted(0) is None


@pytest.mark.parametrize("name", GAMES)
def test_the_copy_written_for_the_compiled_build_is_read_from_the_declaration(name):
    state_class = tricolore.get_game(name).state_class
    _, *parts = state_class.__module__.split(".")
    rules = Path(tricolore.__file__).parent.joinpath(*parts).with_suffix(".py")
    assert declared_copies(rules.read_text(encoding="utf-8")) == (
        state_class.__name__, list(copy_kinds(state_class.FIELDS)))
    written = rules.with_name(GENERATED)  # there after a compiled install: then it is the copy used
    if written.exists():
        package = state_class.__module__.rpartition(".")[0]
        assert state_class._plan.copy_fields.__module__ == f"{package}._copying"


def test_a_written_copy_is_adopted_only_for_the_declaration_it_was_written_from(monkeypatch):
    monkeypatch.setattr(Tiny, "_plan", Tiny._plan)  # put back afterwards
    source = copying_source(__name__, "Tiny", list(copy_kinds(Tiny.FIELDS)))
    written = types.ModuleType("tiny_copying")
    exec(compile(source, "tiny_copying.py", "exec"), written.__dict__)  # adopts itself
    assert Tiny._plan.copy_fields is written.copy_fields
    assert Tiny._plan.share_fields is written.share_fields
    test_a_clone_copies_each_field_as_deep_as_declared()  # the same copy as the declaration's
    state = Tiny()
    assert state.clone().digest_payload() == state.digest_payload()
    other = list(copy_kinds(Tiny.FIELDS))
    other[1] = ("score", "shared")  # written from another declaration: not adopted
    assert not adopt_copies(Tiny, tuple(other), written.share_fields, written.share_fields)
    assert Tiny._plan.copy_fields is written.copy_fields


def test_a_game_may_not_declare_a_field_the_base_state_owns():
    with pytest.raises(TypeError, match="'log', which the base state owns"):
        type("Clash", (Tiny,), {"FIELDS": declare(log=Field())})


def test_a_state_without_a_declaration_says_so():
    bare = type("Bare", (State,), {
        "_pending": Tiny._pending, "_legal_actions": Tiny._legal_actions, "view": Tiny.view,
        "determinize": Tiny.determinize, "is_over": Tiny.is_over, "result": Tiny.result})
    state = bare.__new__(bare)
    with pytest.raises(NotImplementedError, match="declares no FIELDS"):
        state.clone()


class UndeclaredCulottes(CulottesState):
    """Keeps an attribute its declaration does not mention."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.mood = "calm"


class GhostCulottes(CulottesState):
    """Declares a field the state does not have."""

    FIELDS = declare(**CulottesState.FIELDS, ghost=Field())


class ShallowCulottes(CulottesState):
    """Declares the holdings (a list of lists) copied one level only."""

    FIELDS = declare(**{**CulottesState.FIELDS, "holdings": Field(copy=Copy.SHALLOW)})


class SharedCulottes(CulottesState):
    """Declares the roles (a list) shared between copies."""

    FIELDS = declare(**{**CulottesState.FIELDS, "roles": Field(seen=Seen.OWNER)})


class ForgetfulCulottes(CulottesState):
    """Hashes every declared field but the last."""

    def digest_payload(self) -> Any:
        return super().digest_payload()[:-1]


class OpenCulottes(CulottesState):
    """Declares the face-down flaps public."""

    FIELDS = declare(**{**CulottesState.FIELDS, "sheets": Field(copy=Copy.SHALLOW)})


@pytest.mark.parametrize("state_class, fragment", [
    (UndeclaredCulottes, "has the attribute 'mood', which FIELDS does not declare"),
    (GhostCulottes, "declares the field 'ghost' in FIELDS, but the state has no such attribute"),
    (ShallowCulottes, "changed the original's field 'holdings': declare it copied deeper"),
    (SharedCulottes, "the field 'roles' is declared shared but holds a list"),
    (ForgetfulCulottes, "the field 'end_reason' is declared digested, but the digest does not"),
    (OpenCulottes, r"determinize\(\d\) changes the field 'sheets', which is declared public"),
])
def test_conformance_catches_a_declaration_that_does_not_describe_the_state(state_class, fragment):
    with pytest.raises(ConformanceError, match=fragment):
        check_game(GameDefinition(INFO, state_class), 4, range(2))


def test_the_declared_culottes_state_passes_the_same_checks():
    assert check_game(GameDefinition(INFO, CulottesState), 4, range(2)).games == 2
