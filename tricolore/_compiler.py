"""Whether this machine can build the compiled engine: a C compiler and the Python headers.

Used by ``setup.py`` (which loads this file by its path, before the package is installed) to
decide between the compiled and the pure-Python build, and by the tests to know which build an
install should have made. Standard library only.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sysconfig

COMPILE_VARIABLE = "TRICOLORE_COMPILE"
"""At install: ``0`` installs the pure-Python build; unset or ``1`` compiles where it can."""


def missing_for_compiling() -> str | None:
    """What this machine lacks to compile the engine, in a few words, or None when nothing is."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(compiler)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({words[0] if words else 'cc'}) was found"
    include = sysconfig.get_paths().get("include", "")
    if not os.path.exists(os.path.join(include, "Python.h")):
        return f"the Python headers (Python.h) are not in {include}"
    return None


def compiling_wanted() -> bool:
    """Whether the install was asked to compile: it is, unless ``TRICOLORE_COMPILE=0``."""
    return os.environ.get(COMPILE_VARIABLE, "1").strip() != "0"
