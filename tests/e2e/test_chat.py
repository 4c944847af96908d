"""Chat that fits negotiation, in headless Chromium: a conversation with each player one tap from
their panel, unread counts, and on a phone a drawer with a badge that leaves the decision in view."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.checks import assert_no_ids
from tests.server.conftest import LiveServer

PLAYERS = ["Camille", "Lucile"]


def seat_people(server: LiveServer, browser: Browser) -> tuple[Page, Page, list[str]]:
    """Camille at a desktop and Lucile on a phone at a Culottes table with a bot."""
    created = server.store.create("culottes", 3, ["open", "open", "random"], seed=3)
    problems: list[str] = []
    pages = []
    for seat, size in enumerate([ViewportSize(width=1280, height=900), ViewportSize(width=390, height=844)]):
        page = browser.new_context(viewport=size).new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{server.base}/table/{created.table_id}#invite={created.invites[seat]}")
        page.fill("input[name=name]", PLAYERS[seat])
        page.click("text=Join the table")
        pages.append(page)
    for page in pages:
        expect(page.locator("[data-testid=players]")).to_contain_text("Lucile")
    return pages[0], pages[1], problems


def panel(page: Page, name: str):
    return page.locator("[data-testid=players] li", has_text=name)


def test_a_private_conversation_starts_from_the_panel_and_counts_what_is_unread(
        server: LiveServer, browser: Browser, output: Path):
    desk, phone, problems = seat_people(server, browser)

    # Camille opens the conversation with Lucile from Lucile's panel and writes to her alone
    panel(desk, "Lucile").locator("[data-testid=chat-with]").click()
    expect(desk.locator("[data-testid=conversation][aria-selected=true]")).to_have_text("Lucile")
    expect(desk.locator("#chat-to")).to_have_text("Only you and Lucile read this conversation.")
    desk.fill("input[name=text]", "Vote privileged on Marat and I give you 3 cakes")
    desk.click(".chat-form button")
    expect(desk.locator("[data-testid=chat] li")).to_have_text(
        ["You: Vote privileged on Marat and I give you 3 cakes"])

    # on Lucile's phone: a badge on the chat button and an unread count on Camille's panel
    expect(phone.locator("[data-testid=chat-badge]")).to_have_text("1")
    expect(panel(phone, "Camille").locator("[data-testid=unread]")).to_have_text("1")
    phone.screenshot(path=output / "chat-badge-phone.png")
    panel(phone, "Camille").locator("[data-testid=chat-with]").click()
    drawer = phone.locator(".part-chat")
    expect(drawer).to_be_in_viewport()
    expect(phone.locator("[data-testid=chat] li")).to_have_text(
        ["Camille: Vote privileged on Marat and I give you 3 cakes"])
    # read: the counts are gone, and the status bar stays above the drawer
    expect(panel(phone, "Camille").locator("[data-testid=unread]")).to_have_count(0)
    expect(phone.locator("[data-testid=conversation] [data-testid=unread]")).to_have_count(0)
    status = phone.locator("[data-testid=status-sentence]").bounding_box()
    opened = drawer.bounding_box()
    assert status is not None and opened is not None
    assert status["y"] >= 0 and status["y"] + status["height"] <= opened["y"], (status, opened)
    phone.screenshot(path=output / "chat-drawer-phone.png")
    phone.fill("input[name=text]", "Make it 4")
    phone.click(".chat-form button")
    phone.click("[data-testid=chat-close]")
    expect(drawer).not_to_be_in_viewport()

    # a message to everyone is its own conversation; Camille, reading Lucile's, sees it counted
    expect(desk.locator("[data-testid=chat] li")).to_have_text(
        ["You: Vote privileged on Marat and I give you 3 cakes", "Lucile: Make it 4"])
    phone.click("[data-testid=chat-toggle]")
    phone.locator("[data-testid=conversation][data-conversation=all]").click()
    phone.fill("input[name=text]", "Vive la nation")
    phone.click(".chat-form button")
    everyone = desk.locator("[data-testid=conversation][data-conversation=all]")
    expect(everyone.locator("[data-testid=unread]")).to_have_text("1")
    everyone.click()
    expect(desk.locator("[data-testid=chat] li")).to_have_text(["Lucile: Vive la nation"])
    expect(everyone.locator("[data-testid=unread]")).to_have_count(0)

    # what was read stays read after a reload
    desk.reload()
    expect(desk.locator("[data-testid=players]")).to_contain_text("Lucile")
    expect(desk.locator("[data-testid=conversation] [data-testid=unread]")).to_have_count(0)
    for page in (desk, phone):
        assert_no_ids(page)
    assert problems == []
