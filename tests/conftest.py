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
