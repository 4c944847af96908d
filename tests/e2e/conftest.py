"""Fixtures for the tests in headless Chromium: a live server, the browser, an output folder."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.server.conftest import LiveServer, serve
from tricolore.server.db import sqlite_url

CHROMIUM = "/usr/bin/chromium"
# Debian's Chromium, quiet: no connections of its own on a machine without internet access.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def output(request: pytest.FixtureRequest) -> Path:
    """This test's output folder, where its screenshots are kept."""
    folder = Path(request.config.rootpath) / "test-results" / re.sub(r"\W+", "-", request.node.name)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server on a loopback port whose bots wait a little before they play."""
    yield from serve(sqlite_url(tmp_path / "tables.db"), bot_delay=0.05)


@pytest.fixture
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is not installed: .ci/run installs Debian's chromium package")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()
