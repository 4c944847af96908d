"""What every test shares: no test may leave a traceback in the log of the code it drives (the
server, the store, uvicorn), so a fault that the code swallowed and logged still fails its test."""

from __future__ import annotations

import logging
from collections.abc import Iterator

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
    """Every server test fails if the server (uvicorn, the app, the store) logged a traceback."""
    handler = Tracebacks()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "tricolore")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)
    found = {id(r): r for r in handler.found}.values()
    assert not found, "the server logged a traceback:\n" + "\n".join(
        logging.Formatter().format(r) for r in found)
