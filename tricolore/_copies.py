"""The compiled build's copy of each game's state, written from the game's declaration of its fields.

A state's copy is derived from ``FIELDS`` (:mod:`tricolore.core.fields`): the pure build makes the
function that copies the fields when the class is defined. The compiled build writes the same
function out as a module beside the game's rules (``_copying.py``) before mypyc compiles it, so that
a copy reads and writes the state's fields as compiled code does, without a lookup by name: setup.py
calls :func:`write_copying` for every game. The module checks, when imported, that the declaration
it was written from is the one the class has (:func:`tricolore.core.fields.adopt_copies`), so an
edited declaration never runs an old copy.

This file uses the standard library only: setup.py loads it by path, before the package's
dependencies are installed.
"""

from __future__ import annotations

import ast
from pathlib import Path

GENERATED = "_copying.py"
"""The name of the module written beside a game's ``rules.py``."""

KINDS = ("shared", "shallow", "nested", "json", "own")
"""The names of :class:`tricolore.core.fields.Copy`'s members; any other copier is ``"custom"``."""


def declared_copies(source: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The state class of a rules module's ``source`` and how a copy gets each of its fields, in
    declaration order: ``(class name, [(field, kind)])``, the kind one of :data:`KINDS` or
    ``"custom"``; ``None`` if no class declares ``FIELDS = declare(...)``."""
    tree = ast.parse(source)
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == "FIELDS"
                    and isinstance(statement.value, ast.Call)
                    and isinstance(statement.value.func, ast.Name) and statement.value.func.id == "declare"):
                return node.name, [(keyword.arg, _kind(keyword.value))
                                   for keyword in statement.value.keywords if keyword.arg is not None]
    return None


def _kind(field: ast.expr) -> str:
    """How ``Field(...)`` (an expression of the declaration) is copied."""
    if not isinstance(field, ast.Call):
        return "custom"
    for keyword in field.keywords:
        if keyword.arg == "copy":
            value = keyword.value
            if (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                    and value.value.id == "Copy" and value.attr.lower() in KINDS):
                return value.attr.lower()
            return "custom"
    return "shared"


_COPIERS = {
    "shallow": ["    theirs.{name} = None if mine.{name} is None else mine.{name}.copy()"],
    "own": ["    theirs.{name} = None if mine.{name} is None else mine.{name}.copy()"],
    "nested": ["    x = mine.{name}", "    if type(x) is dict:",
               "        x = {{key: item.copy() for key, item in x.items()}}",
               "    elif x is not None:", "        x = [item.copy() for item in x]",
               "    theirs.{name} = x"],
    "json": ["    theirs.{name} = copy_json(mine.{name})"],
}
"""How each kind of field is copied (as :class:`Copy` says); the field's own type, read from the
class, lets the compiled code copy a list or a dict without looking its method up."""


def copying_source(module: str, state: str, fields: list[tuple[str, str]]) -> str:
    """The source of the ``_copying`` module for the state class ``state`` of the rules module
    ``module`` (a dotted name), whose fields are copied as ``fields`` say."""
    made_from = "".join(f"\n    ({name!r}, {kind!r})," for name, kind in fields)
    copied = [(name, kind) for name, kind in fields if kind != "shared"]
    shared = [name for name, kind in fields if kind == "shared"]
    custom = tuple(name for name, kind in copied if kind not in _COPIERS)
    copy_lines = ["    x: Any"] if any(kind == "nested" for _, kind in copied) else []
    if not copied:
        copy_lines.append("    pass")
    for name, kind in copied:
        lines = _COPIERS.get(kind, ["    theirs.{name} = _CUSTOM[{quoted}](mine.{name})"])
        copy_lines += [line.format(name=name, quoted=repr(name)) for line in lines]
    share_lines = [f"    theirs.{name} = mine.{name}" for name in shared] or ["    pass"]
    imports = ["from tricolore.core.fields import adopt_copies"]
    if any(kind == "json" for _, kind in copied):
        imports.append("from tricolore.core.model import copy_json")
    imports.append(f"from {module} import {state}")
    newline = "\n"
    return f'''"""How a copy of {state} gets each field, written by setup.py from its FIELDS for the
compiled build (see tricolore/_copies.py). Do not edit: every build writes it again."""

from __future__ import annotations

from typing import Any

{newline.join(imports)}

MADE_FROM: tuple[tuple[str, str], ...] = ({made_from}
)
"""The declaration this module was written from: each field and how it is copied."""

_CUSTOM_NAMES: tuple[str, ...] = {custom!r}
_CUSTOM: dict[str, Any] = {{name: {state}.FIELDS[name].copy for name in _CUSTOM_NAMES}}
"""The fields copied by a function of their own."""


def copy_fields(mine: {state}, theirs: {state}) -> None:
    """Give ``theirs`` a copy of each of ``mine``'s fields declared mutable."""
{newline.join(copy_lines)}


def share_fields(mine: {state}, theirs: {state}) -> None:
    """Give ``theirs`` each of ``mine``'s fields declared shared."""
{newline.join(share_lines)}


adopt_copies({state}, MADE_FROM, copy_fields, share_fields)
'''


def write_copying(rules: Path, module: str) -> Path | None:
    """Write the ``_copying`` module beside ``rules`` (the file of the rules module ``module``);
    returns its path, or ``None`` if the rules declare no fields."""
    found = declared_copies(rules.read_text(encoding="utf-8"))
    if found is None:
        return None
    state, fields = found
    path = rules.with_name(GENERATED)
    source = copying_source(module, state, fields)
    if not path.exists() or path.read_text(encoding="utf-8") != source:
        path.write_text(source, encoding="utf-8")
    return path
