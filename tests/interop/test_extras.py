"""Without the rl extra, an environment module says in one sentence what to install."""

import importlib
import sys

import pytest


@pytest.mark.parametrize("module, library", [
    ("tricolore.interop.pettingzoo", "pettingzoo"),
    ("tricolore.interop.gymnasium", "gymnasium"),
    ("tricolore.interop.openspiel", "pyspiel"),
])
def test_an_environment_without_its_library_names_the_rl_extra(monkeypatch, module, library):
    monkeypatch.setitem(sys.modules, library, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError, match=r"install the rl extra: pip install 'tricolore\[rl\]'"):
        importlib.import_module(module)
