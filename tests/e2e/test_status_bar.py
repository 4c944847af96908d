"""End to end in headless Chromium: a game without a board of its own (its board script is not
served) is played from the status bar alone — its buttons, the choices it offers as buttons, its
text fields and Confirm."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import LiveServer


def decide_from_the_bar(page: Page, turn: int) -> bool:
    bar = page.locator("[data-testid=decision]")
    if bar.count() == 0:
        return False
    if bar.get_attribute("data-draft") is None:
        buttons = bar.locator("[data-action]")
        kinds = buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")
        chosen = [k for k in kinds if k != "pass"] or kinds
        bar.locator(f"[data-action={chosen[turn % len(chosen)]}]").click()
        expect(page.locator("[data-testid=status][data-busy]")).to_have_count(0)
        return True
    confirm = bar.locator("[data-testid=confirm]")
    for _ in range(50):  # a parameter that depends on another is asked of the server once that is set
        for row in bar.locator(".option-row").all():
            options = row.locator("button")
            if re.search(r"\(\d+–0\)", row.inner_text()):  # a set of at most nothing: leave it empty
                continue
            if options.count() and row.locator("button[aria-pressed=true]").count() == 0:
                options.nth(turn % options.count()).click()
        for field in bar.locator("input[type=text]").all():
            if not field.input_value():
                field.fill(f"Vive la nation, take {turn}")
        if confirm.count() == 0 or confirm.is_enabled():
            break
        page.wait_for_timeout(100)
    if confirm.count() == 0:  # what this seat may do changed meanwhile
        return False
    assert confirm.is_enabled(), bar.inner_html()
    confirm.click()
    expect(page.locator("[data-testid=status][data-busy]")).to_have_count(0)
    return True


def test_a_game_without_a_board_is_played_to_its_end_from_the_status_bar(
        server: LiveServer, browser: Browser, output: Path):
    created = server.create("culottes-trials", ["open", "random", "random"], options={"trials": 1},
                            window_seconds=0)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.route("**/boards/culottes-trials.js", lambda route: route.abort())  # a game with no board yet
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Olympe")
    page.click("text=Join the table")
    deadline = time.monotonic() + 40
    turn = 0
    while page.locator("[data-testid=end-screen]").count() == 0:
        assert time.monotonic() < deadline, "the game did not end"
        if decide_from_the_bar(page, turn):
            turn += 1
        else:
            page.wait_for_timeout(120)
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("The game is over")
    expect(page.locator("[data-testid=log]")).to_contain_text("Vive la nation")
    page.screenshot(path=output / "end.png", full_page=True)
    assert turn >= 2 and problems == []
