"""Layers point down: the core and the games import nothing from the layers built on them."""

import ast
from pathlib import Path

import pytest

import tricolore

PACKAGE = Path(tricolore.__file__).parent
ABOVE = ("tricolore.cli", "tricolore.server", "tricolore.sim", "tricolore.interop")
"""The layers built on the games: the command line, the server, simulations and the adapters."""


def imported(source: str, package: str) -> set[str]:
    """Every module (and imported name) a source imports, at module level or inside a function,
    relative imports resolved against ``package``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def imports_of(path: Path) -> set[str]:
    """The modules the file at ``path``, under the ``tricolore`` package, imports."""
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    return imported(path.read_text(encoding="utf-8"), package)


def sources(*parts: str) -> list[Path]:
    return sorted(PACKAGE.joinpath(*parts).rglob("*.py"))


def within(name: str, layers: tuple[str, ...]) -> bool:
    return any(name == layer or name.startswith(layer + ".") for layer in layers)


@pytest.mark.parametrize("path", sources("core") + sources("games"),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_and_the_games_import_nothing_from_the_layers_above(path: Path):
    above = sorted(n for n in imports_of(path) if within(n, ABOVE))
    assert not above, f"{path.relative_to(PACKAGE)} imports {', '.join(above)}"


@pytest.mark.parametrize("path", sources("core"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_imports_no_game(path: Path):
    games = sorted(n for n in imports_of(path) if within(n, ("tricolore.games",)))
    assert not games, f"{path.relative_to(PACKAGE)} imports {', '.join(games)}"


def test_the_walk_finds_imports_in_every_form():
    source = ("import tricolore.sim.stats as stats\n"
              "from . import refusals\n"
              "from ..core import model\n"
              "def later():\n"
              "    from tricolore.cli.render import renderer\n")
    assert imported(source, "tricolore.games.culottes") == {
        "tricolore.sim.stats", "tricolore.games.culottes", "tricolore.games.culottes.refusals",
        "tricolore.games.core", "tricolore.games.core.model", "tricolore.cli.render",
        "tricolore.cli.render.renderer"}
    assert "tricolore.core.terminal.Renderer" in imports_of(PACKAGE / "games" / "culottes" / "terminal.py")
    assert within("tricolore.cli.render", ABOVE) and within("tricolore.cli", ABOVE)
    assert not within("tricolore.client", ABOVE)


@pytest.mark.parametrize("path", sorted(PACKAGE.joinpath("games").glob("*/refusals.py")),
                         ids=lambda p: p.parent.name)
def test_a_games_refusals_read_its_state_without_importing_its_rules(path: Path):
    rules = f"tricolore.games.{path.parent.name}.rules"
    assert not any(within(n, (rules,)) for n in imports_of(path))
