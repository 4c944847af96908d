"""End to end in headless Chromium, on every board: no click loses work. Confirm waits until the
move is complete and looks disabled until then, saying why; a draft survives a reload and a
refusal (whose sentence is shown beside it); a move that cannot be taken back asks once, by
keyboard too, before anything is sent."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

from tests.e2e.checks import assert_no_ids, confirm, settled, summary
from tests.server.conftest import LiveServer

DESKTOP = ViewportSize(width=1280, height=900)
ENABLED_BLUE = "rgb(31, 58, 147)"
"""The colour of an enabled button (the stylesheet's blue)."""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A browser context of its own, closed after the test."""
    made = browser.new_context(viewport=DESKTOP)
    yield made
    made.close()


def sit(server: LiveServer, context: BrowserContext, game: str, seats: list[str],
        options: dict[str, object], name: str) -> tuple[Page, list[str]]:
    """Open the first seat's invite at a new table of ``game`` and take the seat as ``name``."""
    created = server.create(game, seats, options=options, window_seconds=0)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", name)
    page.click("text=Join the table")
    expect(page.locator("[data-testid=status-sentence]")).not_to_be_empty()
    return page, problems


def expect_looks_disabled(button: Locator, why: str) -> None:
    """``button`` is disabled, says so to assistive technology, looks it (grey, a not-allowed
    cursor) and gives ``why`` in its tooltip."""
    expect(button).to_be_disabled()
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(button).to_have_attribute("title", re.compile(re.escape(why)))
    style = button.evaluate("b => { const s = getComputedStyle(b); return [s.cursor, s.backgroundColor]; }")
    assert style[0] == "not-allowed", style
    assert style[1] != ENABLED_BLUE, style


def expect_looks_enabled(button: Locator) -> None:
    expect(button).to_be_enabled()
    expect(button).to_have_attribute("aria-disabled", "false")
    assert button.evaluate("b => getComputedStyle(b).cursor") == "pointer"


def reload(page: Page) -> None:
    """Reload the page and wait until the table is drawn again."""
    page.reload()
    expect(page.locator("[data-testid=status-sentence]")).not_to_be_empty()
    expect(page.locator("[data-testid=board] svg").first).to_be_visible()


def test_culottes_keeps_a_draft_through_a_reload_and_a_refusal_and_asks_before_emigrating(
        server: LiveServer, context: BrowserContext):
    page, problems = sit(server, context, "culottes", ["open", "random", "random"],
                         {"first_player": 0}, "Camille")
    bar = page.locator("[data-testid=decision]")
    # the role is not chosen yet: Confirm waits, and says why
    bar.locator("[data-action=choose_role]").click()
    expect_looks_disabled(page.locator("[data-testid=confirm]"), "Choose the role on the board")
    expect(page.locator("[data-testid=confirm-why]")).to_contain_text("Choose the role on the board")
    page.locator("[data-key=role-revolutionary]").click()
    page.locator("[data-testid=decision] input[name=name]").fill("Camille Desmoulins")
    expect_looks_enabled(page.locator("[data-testid=confirm]"))
    # a reload brings back the whole draft: the card picked and the name typed
    reload(page)
    expect(summary(page)).to_have_text("You play as a Revolutionary.")
    expect(page.locator("[data-testid=decision] input[name=name]")).to_have_value("Camille Desmoulins")
    confirm(page)
    expect(page.locator("[data-testid=secret]")).to_contain_text("Revolutionary")

    # emigrating asks first; going back sends nothing
    expect(bar.locator("[data-action=emigrate]")).to_be_visible(timeout=10_000)
    bar.locator("[data-action=emigrate]").click()
    expect(bar).to_have_attribute("data-ask", "")
    expect(summary(page)).to_contain_text("Camille Desmoulins emigrates")
    expect(summary(page)).to_contain_text("cannot be taken back")
    expect(page.locator("[data-testid=confirm]")).to_be_focused()
    assert_no_ids(page)
    page.keyboard.press("Escape")
    expect(bar.locator("[data-action=emigrate]")).to_be_visible()
    expect(page.locator("[data-testid=log]")).not_to_contain_text("emigrates")
    # a pass asks too, and is answered from the keyboard
    bar.locator("[data-action=pass]").click()
    expect(summary(page)).to_contain_text("Pass: Camille Desmoulins is done for this turn")
    expect(page.locator("[data-testid=log]")).not_to_contain_text("passes")
    page.keyboard.press("Enter")
    settled(page)

    # recruiting under a name already taken: the table refuses, the draft stays with the reason
    expect(bar.locator("[data-action=recruit]")).to_be_visible(timeout=10_000)
    bar.locator("[data-action=recruit]").click()
    page.locator("[data-testid=decision] input[name=name]").fill("Camille Desmoulins")
    page.locator("[data-testid=confirm]").click()
    refusal = page.locator("[data-testid=draft-error]")
    expect(refusal).to_contain_text("already taken")
    expect(bar).to_have_attribute("data-draft", "recruit")
    expect(page.locator("[data-testid=decision] input[name=name]")).to_have_value("Camille Desmoulins")
    assert_no_ids(page)
    # another name (none a bot recruits under) is accepted, and the draft is gone once acknowledged
    page.locator("[data-testid=decision] input[name=name]").fill("Lucile Duplessis")
    confirm(page)
    expect(page.locator("[data-testid=log]")).to_contain_text("Lucile Duplessis")
    # the update that shows the recruit may come before the acknowledgement that drops the draft
    drafts = "Object.keys(sessionStorage).filter((k) => k.startsWith('tricolore:draft:'))"
    page.wait_for_function(f"{drafts}.length === 0", timeout=10_000)
    assert page.evaluate(drafts) == []
    assert problems == []


def test_the_trials_wait_for_a_statement_and_keep_the_truth_through_a_reload(
        server: LiveServer, context: BrowserContext):
    page, problems = sit(server, context, "culottes-trials",
                         ["open", "honest-revolutionary", "skeptic", "bluffing-grabber"],
                         {"first_accused": 0}, "Olympe")
    page.locator("[data-testid=decision] [data-action=designate]").click()
    confirm(page)
    hand = page.locator("[data-testid=trials-table] [data-key=state-false]")
    expect(hand).to_have_attribute("role", "button")
    hand.click()
    # the truth is noted, the statement is empty: Confirm waits for the words
    expect_looks_disabled(page.locator("[data-testid=confirm]"), "Write the statement")
    reload(page)
    expect(hand).to_have_attribute("aria-pressed", "true")
    expect(summary(page)).to_contain_text("false")
    field = page.locator("[data-testid=decision] input[name=statement]")
    field.fill("   ")
    expect(page.locator("[data-testid=confirm]")).to_be_disabled()
    field.fill("I have never seen the sea")
    expect_looks_enabled(page.locator("[data-testid=confirm]"))
    confirm(page)
    expect(page.locator("[data-testid=secret]")).to_contain_text("false")
    assert problems == []


def test_a_half_built_revolution_bid_cannot_be_confirmed_and_survives_a_reload(
        server: LiveServer, context: BrowserContext):
    page, problems = sit(server, context, "revolution", ["open", "printer-first", "area-control"],
                         {"max_rounds": 2}, "Marie-Jeanne")
    chart = page.locator("[data-testid=revolution-chart]")
    chart.locator("[data-key^=plus-][data-choice]").first.click()
    placed = page.locator("[data-testid=bid-summary]").inner_text()
    assert "still to place" in placed
    expect(page.locator("[data-testid=decision]")).to_have_attribute("data-draft", "bid")
    expect_looks_disabled(page.locator("[data-testid=confirm]"), "Place every chip first")
    expect_looks_disabled(page.locator("[data-testid=bid-confirm]"), "place every chip first")
    reload(page)
    expect(page.locator("[data-testid=bid-summary]")).to_have_text(placed)
    expect(page.locator("[data-testid=bid-confirm]")).to_be_disabled()
    assert_no_ids(page)
    assert problems == []


def test_let_them_eat_cake_waits_for_a_voting_card(server: LiveServer, context: BrowserContext):
    page, problems = sit(server, context, "let-them-eat-cake", ["open", "cake-hoarder", "kingmaker"],
                         {"first_head": 0, "max_rounds": 1}, "Olympe")
    bar = page.locator("[data-testid=decision]")
    bar.locator("[data-action=vote]").click()
    expect_looks_disabled(page.locator("[data-testid=confirm]"), "on the board")
    reload(page)
    expect(bar).to_have_attribute("data-draft", "vote")
    card = page.locator("[data-testid=ltec-table] [data-key^=vote-card-][data-choice]").first
    card.click()
    expect_looks_enabled(page.locator("[data-testid=confirm]"))
    assert_no_ids(page)
    assert problems == []


def test_bread_and_circuses_asks_before_ready_and_waits_for_a_complete_disclosure(
        server: LiveServer, context: BrowserContext):
    page, problems = sit(server, context, "bread-and-circuses",
                         ["open", "honest-discloser", "honest-discloser"], {"first_player": 0}, "Marie")
    table = page.locator("[data-testid=bread-table]")
    table.locator("[data-key=my-tile-abstain]").click()
    expect_looks_disabled(page.locator("[data-testid=confirm]"), "icon")
    page.locator("[data-testid=cancel]").click()
    bar = page.locator("[data-testid=decision]")
    bar.locator("[data-action=ready]").click()
    expect(bar).to_have_attribute("data-ask", "")
    expect(summary(page)).to_contain_text("Declare yourself ready")
    page.locator("[data-testid=cancel]").click()
    expect(page.locator("[data-testid=log]")).not_to_contain_text("are ready")
    bar.locator("[data-action=ready]").click()
    confirm(page)
    expect(page.locator("[data-testid=log]")).to_contain_text("are ready")
    assert_no_ids(page)
    assert problems == []
