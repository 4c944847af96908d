"""End to end in headless Chromium: the board and the status bar are the one way to act, the forms
of every action wait behind a switch this browser remembers, and on a phone a new decision brings
what it asks for into view."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.checks import assert_no_ids, show_forms
from tests.server.conftest import LiveServer

DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)
TABLE = "[data-testid=ltec-table]"
HAND = f"{TABLE} [data-key^=vote-card-][data-choice]"


def join(server: LiveServer, browser: Browser, size: ViewportSize) -> tuple[Page, list[str]]:
    """Lucile takes the first seat of a Let Them Eat Cake table whose first decision is a vote."""
    created = server.create("let-them-eat-cake", ["open", "cake-hoarder", "kingmaker"],
                            options={"first_head": 0, "max_rounds": 1}, window_seconds=0)
    page = browser.new_context(viewport=size).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Lucile")
    page.click("text=Join the table")
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("Vote for the Head of Committee")
    return page, problems


def test_the_forms_are_hidden_until_the_switch_shows_them_and_the_browser_remembers_it(
        server: LiveServer, browser: Browser):
    page, problems = join(server, browser, DESKTOP)
    expect(page.locator(HAND).first).to_be_visible()
    switch = page.locator("[data-testid=forms-switch]")
    expect(switch).not_to_be_checked()
    expect(page.locator(".forms-switch")).to_have_text("Show every action as a form")
    forms = page.locator("[data-testid=forms]")
    expect(forms).to_be_hidden()
    expect(page.locator("form.action").first).to_be_hidden()

    show_forms(page)
    expect(forms.locator("[data-testid=prompt] form.action[data-kind=vote]")).to_be_visible()
    assert_no_ids(page)

    page.reload()
    expect(page.locator(HAND).first).to_be_visible()
    expect(switch).to_be_checked()
    expect(forms.locator("form.action[data-kind=vote]")).to_be_visible()

    switch.uncheck()
    expect(forms).to_be_hidden()
    page.reload()
    expect(page.locator(HAND).first).to_be_visible()
    expect(switch).not_to_be_checked()
    expect(forms).to_be_hidden()
    assert problems == []


def test_on_a_phone_the_hand_a_vote_asks_for_is_brought_into_view_below_the_status_bar(
        server: LiveServer, browser: Browser, output: Path):
    page, problems = join(server, browser, PHONE)
    hand = page.locator(HAND)
    expect(hand.first).to_be_in_viewport()
    # the order of the page: the decision, the board it needs, then the players
    tops = page.evaluate("""() => ["[data-testid=status]", "[data-testid=ltec-table]",
        "[data-testid=players]"].map((s) => document.querySelector(s).getBoundingClientRect().top)""")
    assert tops == sorted(tops), tops
    assert_no_ids(page)
    page.screenshot(path=output / "phone-vote.png")
    assert problems == []
