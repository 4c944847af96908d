"""Checks shared by the browser tests: what a player reads must name people and citizens, never
seat numbers or internal ids."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

SEAT_NUMBER = re.compile(r"\b(?:seat|player|citizen|deal|bribe|alliance)\s*#?\d+\b", re.IGNORECASE)
"""A seat or an internal id read out: "seat 2", "player 1", "bribe 0", "citizen #3"."""
BARE_NUMBER = re.compile(r"^\s*#?\d+\s*$")


def assert_no_ids(page: Page) -> None:
    """Fail if the visible text of ``page`` names a seat by its number or shows an internal id.

    Looks at the page's rendered text (closed <details>, such as a log line's raw data, are not
    read) and at every choice a player may make: clickable board elements (``data-choice``), the
    status bar's buttons and the options of the forms' menus, none of which may be a bare number.
    """
    text = page.locator("body").inner_text()
    found = SEAT_NUMBER.search(text)
    if found is not None:
        context = text[max(0, found.start() - 80):found.end() + 80]
        raise AssertionError(f"the page reads {found.group(0)!r}: …{context}…")
    choices = page.evaluate("""() => {
        const picks = [...document.querySelectorAll('[data-choice]')];
        const buttons = [...document.querySelectorAll('[data-testid=decision] button, select option')];
        return [...picks.map((e) => e.getAttribute('aria-label') || ''), ...picks.map((e) => e.textContent),
                ...buttons.map((e) => e.textContent)];
    }""")
    bare = [c for c in choices if BARE_NUMBER.match(c or "")]
    assert not bare, f"choices read as bare numbers: {bare}"


# Moments are said for well under a second when several follow each other; a test that polls the
# page may look between them. The page itself keeps every sentence said, for the test to read.
_RECORD_MOMENTS = """
window.__moments = [];
new MutationObserver(() => {
  for (const el of document.querySelectorAll("[data-testid=moment]")) {
    const text = el.textContent;
    if (text && window.__moments[window.__moments.length - 1] !== text) window.__moments.push(text);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def record_moments(page: Page) -> None:
    """Keep, in the page, every sentence its moments say (call before the page is opened)."""
    page.add_init_script(_RECORD_MOMENTS)


def moment_said(page: Page, words: str) -> bool:
    """Whether a moment has said ``words`` since the page was opened."""
    said: list[str] = page.evaluate("window.__moments || []")
    return any(words in text for text in said)


# -- people at a table -----------------------------------------------------------------------------
def sit(base: str, browser: Browser, address: str, name: str, size: ViewportSize,
        problems: list[str] | None = None) -> tuple[Page, list[str]]:
    """A person joining the table of ``address`` (its invite link) under ``name`` in a fresh
    browser of ``size``, with its moments recorded; returns the page and the list its page errors
    go to (``problems`` if given)."""
    page = browser.new_context(viewport=size).new_page()
    record_moments(page)
    errors: list[str] = [] if problems is None else problems
    page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
    page.goto(base + address)
    page.fill("input[name=name]", name)
    page.click("text=Join the table")
    expect(page.locator("ul.seats")).to_contain_text(name)
    return page, errors


# -- the forms ------------------------------------------------------------------------------------
def show_forms(page: Page) -> None:
    """Turn on "Show every action as a form" (off by default; this browser remembers it)."""
    switch = page.locator("[data-testid=forms-switch]")
    switch.check()
    expect(page.locator("[data-testid=forms]")).to_be_visible()


# -- the status bar ---------------------------------------------------------------------------------
def decision(page: Page) -> str:
    """What the status bar offers now: the kind being drafted, or the kinds on offer ("" if none)."""
    bar = page.locator("[data-testid=decision]")
    if bar.count() == 0:
        return ""
    drafted = bar.get_attribute("data-draft")
    if drafted:
        return drafted
    return ",".join(bar.locator("[data-action]").evaluate_all("bs => bs.map(b => b.dataset.action)"))


def summary(page: Page) -> Locator:
    """The status bar's sentence of the decision being drafted, above Confirm."""
    return page.locator("[data-testid=summary]")


def settled(page: Page) -> None:
    """Wait until the table has applied what the status bar sent (it says "Sending…" until then)."""
    expect(page.locator("[data-testid=status][data-busy]")).to_have_count(0)


def confirm(page: Page) -> None:
    """Press Confirm once it is enabled and wait until the table has applied the decision."""
    button = page.locator("[data-testid=confirm]")
    expect(button).to_be_enabled()
    button.click()
    settled(page)


def take(page: Page, kind: str) -> None:
    """Press the status bar's button of ``kind`` (a move of no parameter), answer yes if the bar
    asks first (a move that cannot be taken back), and wait until the table has applied it."""
    page.locator(f"[data-testid=decision] [data-action={kind}]").click()
    if page.locator("[data-testid=decision][data-ask]").count():
        confirm(page)
    settled(page)


def name_of(page: Page, seat: int) -> str:
    """The seat's name as the player panels show it (beside its mark)."""
    panel = page.locator(f"[data-testid=players] li[data-seat='{seat}'] .kit-who")
    return str(panel.evaluate("e => e.lastChild.textContent"))


# -- a whole game -----------------------------------------------------------------------------------
def play_to_the_end(page: Page, step: Callable[[], str], output: Path, *,
                    mid_game: Callable[[list[str]], bool], reveal: Callable[[], bool],
                    reveal_full_page: bool = True, seconds: float = 40,
                    over: str = "The game is over", after_step_ms: int = 0) -> tuple[list[str], set[str]]:
    """Take ``step`` (one decision on the board, or "" when there is nothing to do yet) until the
    end screen shows, checking after every step that no seat number or id is on the page.

    Screenshots land in ``output``: ``mid-game.png`` once ``mid_game(steps so far)`` holds,
    ``reveal.png`` once ``reveal()`` does, and ``end.png`` under the end screen, whose status line
    must say ``over``. Returns the steps taken and the screenshots taken on the way."""
    did: list[str] = []
    shots: set[str] = set()
    deadline = time.monotonic() + seconds
    while page.locator("[data-testid=end-screen]").count() == 0:
        if time.monotonic() >= deadline:
            page.screenshot(path=output / "stalled.png", full_page=True)
            status = page.locator("[data-testid=status]").inner_text()
            raise AssertionError(f"the game did not end; steps: {did}; the bar offers "
                                 f"{decision(page)!r}; the status bar reads {status!r}")
        taken = step()
        if taken:
            did.append(taken)
            if after_step_ms:
                page.wait_for_timeout(after_step_ms)
        else:
            page.wait_for_timeout(100)
        assert_no_ids(page)
        if "mid-game" not in shots and mid_game(did):
            page.screenshot(path=output / "mid-game.png", full_page=True)
            shots.add("mid-game")
        if "reveal" not in shots and reveal():
            page.screenshot(path=output / "reveal.png", full_page=reveal_full_page)
            shots.add("reveal")
    expect(page.locator("[data-testid=end-screen]")).to_contain_text("Game over")
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text(over)
    assert_no_ids(page)
    page.screenshot(path=output / "end.png", full_page=True)
    return did, shots


def watch_the_replay(page: Page, board: str, output: Path | None = None) -> None:
    """From the end screen, open the replay and step once: the same board (``board``, a selector)
    is drawn with nothing to click, and no id shows. With ``output``, screenshot it there."""
    page.click("text=Watch the replay")
    expect(page.locator("[data-testid=replay-position]")).to_contain_text("Move 0 of")
    page.click("[data-testid=next]")
    expect(page.locator("[data-testid=replay-position]")).to_contain_text("Move 1 of")
    expect(page.locator(board)).to_be_visible()
    expect(page.locator(f"{board} [data-choice]")).to_have_count(0)
    assert_no_ids(page)
    if output is not None:
        page.screenshot(path=output / "replay.png", full_page=True)
