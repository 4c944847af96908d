"""What every test shares: no test may leave a traceback in the log of the code it drives (the
server, the store, uvicorn), so a fault that the code swallowed and logged still fails its test."""

from __future__ import annotations

import ast
import inspect
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


class Tracebacks(logging.Handler):
    """Keeps every log record that carries an exception (a traceback in the server's log)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.exc_text or "Traceback" in record.getMessage():
            self.found.append(record)


@pytest.fixture(autouse=True)
def no_traceback_in_the_server_log() -> Iterator[Tracebacks]:
    """Every test fails if the code it drives (uvicorn, the app, the store) logged a traceback.

    The check sees every record any logger hands to its handlers, not a handler added to chosen
    loggers: uvicorn's logging configuration, applied when a server starts, replaces the handlers
    of its loggers and stops them propagating, which would hide its "Exception in ASGI application".
    """
    handler = Tracebacks()
    hand_over = logging.Logger.callHandlers

    def seen(logger: logging.Logger, record: logging.LogRecord) -> None:
        handler.handle(record)
        hand_over(logger, record)

    logging.Logger.callHandlers = seen
    try:
        yield handler
    finally:
        logging.Logger.callHandlers = hand_over
    assert not handler.found, "the server logged a traceback:\n" + "\n".join(
        logging.Formatter().format(r) for r in handler.found)


def _default(default: ast.expr | None, names: dict[str, Any]) -> Any:
    """A parameter's default from its source, worked out in its module's names."""
    if default is None:
        return inspect.Parameter.empty
    return eval(compile(ast.Expression(default), "<default>", "eval"), names)


def _source_tree(module: Any) -> ast.Module:
    """The parsed source of ``module`` (beside its compiled file in the compiled build)."""
    loaded = Path(module.__file__ or "")
    source = loaded.parent / f"{loaded.name.split('.')[0]}.py"
    return ast.parse(source.read_text(encoding="utf-8"))


def _keywords_in_source(cls: type) -> dict[str, Any]:
    """The keywords of the first ``__init__`` along ``cls``'s classes, read from its source (a
    default is worked out in its module, as Python does when it defines the function)."""
    for klass in cls.__mro__:
        if "__init__" not in vars(klass) or klass is object:
            continue
        for node in ast.walk(_source_tree(sys.modules[klass.__module__])):
            if isinstance(node, ast.ClassDef) and node.name == klass.__name__:
                init = next(f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
                names = vars(sys.modules[klass.__module__])
                args = init.args
                positional = args.args[1:]
                defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
                out = {a.arg: _default(d, names) for a, d in zip(positional, defaults, strict=True)}
                out.update({a.arg: _default(d, names)
                            for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)})
                return out
    return {}


@pytest.fixture
def init_keywords() -> Callable[[type], dict[str, Any]]:
    """The keywords a class's ``__init__`` takes, with their defaults. A compiled ``__init__``
    keeps no signature (``inspect`` sees ``*args, **kwargs``): then they are read from the
    class's source, which both builds ship."""

    def keywords(cls: type) -> dict[str, Any]:
        parameters = inspect.signature(cls.__init__).parameters
        kinds = {p.kind for p in parameters.values()}
        if inspect.Parameter.VAR_POSITIONAL in kinds and inspect.Parameter.VAR_KEYWORD in kinds:
            return _keywords_in_source(cls)
        return {k: p.default for k, p in parameters.items() if k != "self"}

    return keywords


@pytest.fixture
def module_doc() -> Callable[[Any], str]:
    """A module's docstring. The compiled build's modules keep none: it is read from the source,
    which both builds ship."""

    def doc(module: Any) -> str:
        if module.__doc__:
            return str(module.__doc__)
        return ast.get_docstring(_source_tree(module)) or ""

    return doc


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, in their order, then the others in theirs: with the
    workers of ``pytest -n`` the long checks start at once, and the short ones fill in around them
    instead of leaving one worker on a long check at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
