"""The scoring pages for tables counting by hand (``/score/<game>``) on a phone: steppers per
player, the engine's ranking and winners shown."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import LiveServer


def open_page(server: LiveServer, browser: Browser, game: str) -> tuple[Page, list[str]]:
    page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{server.base}/score/{game}")
    expect(page.locator("[data-player]").first).to_be_visible()
    return page, problems


def step(page: Page, player: int, reading: str, times: int) -> None:
    for _ in range(times):
        page.locator(f"[data-player='{player}'] [data-reading='{reading}'] button").last.tap()


def test_bread_and_circuses_shows_the_richest_and_a_tie_plays_on(server: LiveServer, browser: Browser):
    page, problems = open_page(server, browser, "bread-and-circuses")
    expect(page.locator("#players")).to_have_text("3")
    step(page, 1, "gold", 4)
    expect(page.locator("#winners")).to_have_text("Player 2 wins.")
    step(page, 2, "gold", 4)
    expect(page.locator("#winners")).to_contain_text("Player 2 and Player 3 tie for the most Gold")
    expect(page.locator("#result tr.winner")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not problems


def test_let_them_eat_cake_breaks_a_tie_on_cake_with_pawns_and_spares_nobody_guillotined(
        server: LiveServer, browser: Browser):
    page, problems = open_page(server, browser, "let-them-eat-cake")
    for player in range(3):
        step(page, player, "cakes", 5)
    step(page, 0, "pawns", 2)
    step(page, 2, "pawns", 2)
    step(page, 2, "generals", 1)
    expect(page.locator("#winners")).to_have_attribute("data-winners", "2")
    assert page.eval_on_selector_all("#result tr", "rows => rows.map(r => r.dataset.seat)") == ["2", "0", "1"]
    page.select_option("select[data-table=dead]", "2")
    expect(page.locator("#winners")).to_have_attribute("data-winners", "0")
    expect(page.locator("#result tr[data-seat='2']")).to_contain_text("guillotined")
    assert not problems


def test_revolution_counts_areas_and_the_published_editions_chips(server: LiveServer, browser: Browser):
    page, problems = open_page(server, browser, "revolution")
    page.fill("[data-player='0'] [data-reading='support'] input", "3")
    page.dispatch_event("[data-player='0'] [data-reading='support'] input", "change")
    step(page, 1, "areas.Tavern", 2)
    expect(page.locator("#result tr[data-seat='1']")).to_have_attribute("data-score", "20")
    expect(page.locator("[data-reading='chips.force']")).to_have_count(0)
    page.select_option("select[data-table=edition]", "sjg")
    step(page, 0, "chips.force", 4)
    expect(page.locator("#result tr[data-seat='0']")).to_have_attribute("data-score", "23")
    expect(page.locator("#winners")).to_have_text("Player 1 wins.")
    step(page, 0, "areas.Tavern", 5)  # four spaces only: the stepper stops at 4
    expect(page.locator("[data-player='0'] [data-reading='areas.Tavern'] input")).to_have_value("4")
    expect(page.locator("#score-error")).to_contain_text("Tavern has 4 spaces")
    assert not problems
