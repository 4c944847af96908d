"""End to end in headless Chromium: two people create, join and play a whole table with a bot."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.checks import show_forms
from tests.server.conftest import LiveServer

HOSTILE_NAME = '<img src=x onerror="window.pwned=1">'


def take_a_turn(page: Page, turn: int) -> bool:
    """Fill in and send one of the prompt's forms, as a person would; False if none is shown.

    Successive turns rotate through the forms, so a choice the server refuses is not repeated."""
    forms = page.locator("[data-testid=prompt] form.action")
    count = forms.count()
    if count == 0:
        return False
    form = forms.nth(turn % count)
    for select in form.locator("select").all():
        values = [v for v in select.locator("option").evaluate_all("os => os.map(o => o.value)") if v]
        if values:
            select.select_option(values[turn % len(values)])
    for box in form.locator("input[type=text], input:not([type])").all():
        box.fill(f"Vive la nation, take {turn}")
    for fieldset in form.locator("fieldset").all():
        least = re.search(r"\((\d+)–", fieldset.locator("legend").text_content() or "")
        for box in fieldset.locator("input[type=checkbox]").all()[: int(least.group(1)) if least else 0]:
            box.check()
    form.locator("button[type=submit]").click()
    page.wait_for_timeout(100)
    return True


def test_two_people_and_a_bot_play_a_whole_game_in_the_browser(server: LiveServer, browser: Browser,
                                                                 output: Path):
    host = browser.new_context(viewport={"width": 1280, "height": 900})
    guest = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    lobby = host.new_page()
    problems: list[str] = []
    lobby.on("pageerror", lambda e: problems.append(str(e)))
    lobby.goto(server.base + "/")
    lobby.select_option("#game", "culottes-trials")
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    lobby.select_option("select[data-seat='0']", "open")
    lobby.select_option("select[data-seat='1']", "open")
    lobby.select_option("select[data-seat='2']", "random")
    lobby.fill("input[data-option=trials]", "2")
    lobby.fill("#window_seconds", "0")
    lobby.click("[data-testid=create]")
    expect(lobby.locator("[data-testid=invites]")).to_contain_text("See them again on the table's page")
    invites = [lobby.get_attribute(f"[data-invite='{s}']", "href") for s in (0, 1)]
    expect(lobby.locator("[data-testid=waiting]")).to_contain_text("Culottes", timeout=10_000)

    first = lobby
    first.goto(server.base + str(invites[0]))
    first.fill("input[name=name]", "Robespierre")
    first.click("text=Join the table")
    expect(first).to_have_url(re.compile(r"/table/[\w-]+$"))  # the invite leaves the address bar
    second = guest.new_page()
    second.on("pageerror", lambda e: problems.append(str(e)))
    second.goto(server.base + str(invites[1]))
    second.fill("input[name=name]", HOSTILE_NAME)
    second.click("text=Join the table")
    expect(first.locator("ul.seats")).to_contain_text(HOSTILE_NAME)  # shown as text, not markup
    for page in (first, second):  # these two play from the forms
        show_forms(page)

    second.click("[data-testid=chat-toggle]")  # on a phone the chat is a drawer
    second.fill("input[name=text]", "<script>window.pwned=2</script> salut")
    second.click(".chat-form button")
    expect(first.locator("[data-testid=chat]")).to_contain_text("<script>window.pwned=2</script> salut")
    second.click("[data-testid=chat-close]")
    expect(first.locator("[data-testid=secret]")).to_contain_text("Secret")
    first.screenshot(path=output / "board.png", full_page=True)
    second.screenshot(path=output / "board-phone.png", full_page=True)

    for turn in range(600):
        if all(page.locator("[data-testid=end-screen]").count() for page in (first, second)):
            break
        acted = take_a_turn(first, turn) | take_a_turn(second, turn)
        if not acted:
            first.wait_for_timeout(150)
    expect(first.locator("[data-testid=end-screen]")).to_contain_text("Game over")
    expect(second.locator("[data-testid=end-screen]")).to_contain_text("Points")
    first.screenshot(path=output / "end-screen.png", full_page=True)
    second.screenshot(path=output / "end-screen-phone.png", full_page=True)
    assert first.evaluate("window.pwned") is None and second.evaluate("window.pwned") is None

    first.click("text=Watch the replay")
    expect(first.locator("[data-testid=replay-position]")).to_contain_text("Move 0 of")
    first.click("[data-testid=next]")
    expect(first.locator("[data-testid=replay-position]")).to_contain_text("Move 1 of")
    first.screenshot(path=output / "replay.png", full_page=True)
    assert problems == []
    for name in ("board.png", "end-screen.png", "replay.png"):
        assert (output / name).stat().st_size > 10_000
