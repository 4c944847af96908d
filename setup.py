"""Build script: the engine (core, and every game's rules and bots) compiled with mypyc.

The install compiles the engine wherever a C compiler and the Python headers exist;
``TRICOLORE_COMPILE=0`` asks for the pure-Python package instead. The compiled modules are C
extensions built beside their sources; the ``.py`` sources stay and remain the one implementation
(``TRICOLORE_BUILD=pure`` runs them). Where there is no C compiler, or mypyc cannot compile the
sources, the install goes on as pure Python and says so (``pip install -v`` shows the sentence;
``tricolore --version`` says which build runs).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent

GAMES = ("culottes", "culottes_trials", "let_them_eat_cake", "revolution", "bread_and_circuses")

# The modules compiled: the engine's core (random play's loop with it), every game's rules,
# refusals and bots, Revolution!'s bids, Culottes' Book of Public Safety, and the environments'
# codec, episode and structured observations. Interpreted stay the registry (it reads entry
# points), the options (a table reads their field types and docstrings), the errors and the
# scripted chance (subclasses of C-implemented classes: ValueError, random.Random), the
# conformance suite, the terminal renderers and the state field declarations, which run once per
# class rather than per decision.
CORE = ("actions", "deals", "draws", "inputs", "layout", "mechanisms", "model", "playout", "record")
INTEROP = ("codec", "episode", "structured")


def compiled_sources() -> list[str]:
    """The source files mypyc compiles, relative to this directory; each game's copy of its state
    is written out first from the game's declaration of its fields (``tricolore/_copies.py``)."""
    copies = _load("_copies")
    sources = [f"tricolore/core/{name}.py" for name in CORE]
    for game in GAMES:
        sources += [f"tricolore/games/{game}/{part}.py" for part in ("rules", "refusals", "bots")]
        written = copies.write_copying(HERE / "tricolore" / "games" / game / "rules.py",
                                       f"tricolore.games.{game}.rules")
        if written is not None:
            sources.append(written.relative_to(HERE).as_posix())
    sources.append("tricolore/games/revolution/bids.py")  # half of Revolution!'s random play
    sources.append("tricolore/games/culottes/book.py")  # every cake vote and closing of Culottes
    # The environments' hot path: the flat action codec, the episode and the structured
    # observations (the PettingZoo and Gymnasium classes stay interpreted: they subclass theirs).
    sources += [f"tricolore/interop/{name}.py" for name in INTEROP]
    return sources


def _say(message: str) -> None:
    print(f"tricolore: {message}", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure-Python package when the C build fails."""

    def run(self) -> None:
        """Build the extensions, or leave none and say why."""
        try:
            super().run()
        except Exception as error:
            _say(f"the compiled build failed ({str(error).strip() or type(error).__name__}); "
                 "installing the pure-Python build, which runs the same code more slowly")
            for output in super().get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions: list[Extension] = []

    def get_outputs(self) -> list[str]:
        """The built extensions (none after a fallback)."""
        return super().get_outputs() if self.extensions else []

    def get_output_mapping(self) -> dict[str, str]:
        """Where each built extension goes (nowhere after a fallback)."""
        return super().get_output_mapping() if self.extensions else {}


def _compiler_check() -> ModuleType:
    """``tricolore/_compiler.py``, loaded by path: the package is not importable yet."""
    return _load("_compiler")


def _load(name: str) -> ModuleType:
    """``tricolore/<name>.py``, loaded by path (it needs the standard library only)."""
    path = HERE / "tricolore" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_tricolore{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
"""The commands that build the package; the others (metadata, a source archive) skip mypyc, which
would otherwise run once more for each of the steps a ``pip install`` takes."""


def extensions() -> list[Extension]:
    """The mypyc extensions, or none when compiling is switched off or cannot be done here."""
    if not BUILDING & set(sys.argv[1:]):
        return []
    check = _compiler_check()
    if not check.compiling_wanted():
        _say(f"{check.COMPILE_VARIABLE}=0: installing the pure-Python build")
        return []
    missing = check.missing_for_compiling()
    if missing is not None:
        _say(f"{missing}: installing the pure-Python build, which runs the same code more slowly")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: installing the pure-Python build")
        return []
    os.chdir(HERE)  # mypyc wants paths relative to the working directory
    try:
        # The group's shared library is named tricolore._engine__mypyc, so that it lives inside
        # the package (an editable install finds only the package's own modules).
        # Errors in the modules merely imported (a server, an adapter) are theirs to report
        # (mypy in CI does); here they must not stop the engine from compiling. The build runs
        # before the dependencies are installed: numpy and gymnasium, which the environments'
        # modules import, are then unknown to mypyc and handled as untyped objects.
        built = list(mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                               *compiled_sources()],
                              opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                              multi_file=True, group_name="tricolore._engine"))
        for extension in built:  # the group's headers are written under the package's directory
            extension.include_dirs.append(os.path.join("build", "tricolore"))
        return built
    except (Exception, SystemExit) as error:
        _say(f"mypyc could not compile the engine ({error}); installing the pure-Python build")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
