"""End to end in headless Chromium: the end screen says who played for whom and reveals each
secret once; the replay reads move by move in the game's sentences, on a phone too; the trials'
accused is shown as not voting."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.checks import assert_no_ids
from tests.server.conftest import LiveServer

PHONE: ViewportSize = {"width": 390, "height": 844}


def watch_errors(page: Page, problems: list[str]) -> Page:
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page


def wait_over(server: LiveServer, table: str, seconds: float = 40) -> None:
    live = server.store.live[table]
    deadline = time.monotonic() + seconds
    while live.status != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)


def no_sideways_scroll(page: Page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide} px"


def test_a_seat_a_bot_took_over_and_each_secret_once_then_the_replay_on_a_phone(
        server: LiveServer, browser: Browser, output: Path):
    problems: list[str] = []
    created = server.create("culottes", ["open", "random", "random"], window_seconds=0,
                            options={"max_rounds": 2})
    table = created["table_id"]
    token = server.join(created["invites"]["0"], "Marianne")
    live = server.store.live[table]
    turn = live.state.view(None)["turn"]
    assert server.http.post("/api/leave", json={"token": token}).status_code == 200
    wait_over(server, table)
    bots = [seat["name"] for seat in live.seats[1:]]

    page = watch_errors(browser.new_context().new_page(), problems)
    page.goto(server.base + created["spectate"])
    end = page.locator("[data-testid=end-screen]")
    expect(end).to_contain_text("Game over")
    stories = page.locator("[data-testid=who-played]")
    expect(stories).to_contain_text(f"A bot played for Marianne from turn {turn}.")
    for bot in bots:
        expect(stories).to_contain_text(f"{bot} is a bot (random).")
    expect(page.locator("body")).not_to_contain_text("(bot:")
    # every seat's role is shown once, in the end screen, and nowhere else
    expect(page.locator("[data-testid=secret]")).to_have_count(3)
    expect(end.locator("[data-testid=secret]")).to_have_count(3)
    for name in ["Marianne", *bots]:
        expect(end.locator("[data-testid=secret]", has_text=f"{name}'s secrets")).to_have_count(1)
    expect(page.locator("body")).not_to_contain_text("nothing secret")
    assert_no_ids(page)
    page.screenshot(path=output / "end.png", full_page=True)

    phone = watch_errors(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page(),
                         problems)
    phone.goto(server.base + f"/replay/{table}")
    position = phone.locator("[data-testid=replay-position]")
    expect(position).to_contain_text("Move 0 of")
    total = len(live.actions)
    expect(phone.locator("[data-testid=this-move]")).to_contain_text("The table is set.")
    for number in range(1, 4):
        phone.locator("[data-testid=next]").tap()
        expect(position).to_have_text(f"Move {number} of {total}")
        moved = live.seats[live.actions[number - 1][0]]["name"]
        expect(phone.locator("[data-testid=this-move] .sentence")).to_contain_text(f"{moved}'s move")
        expect(phone.locator("[data-testid=this-move] li").first).to_be_visible()  # the game's sentences
        expect(phone.locator("[data-testid=culottes-table]")).to_be_visible()
        text = phone.locator("body").inner_text()
        assert '{"type"' not in text and '{"' not in text, text
        no_sideways_scroll(phone)
        assert_no_ids(phone)
    # the controls stay within reach: on the first screen, each at least 44 px tall
    for control in ("previous", "play", "next"):
        box = phone.locator(f"[data-testid={control}]").bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"] and box["height"] >= 44
    phone.screenshot(path=output / "replay-phone.png", full_page=True)
    phone.locator("[aria-label='last move']").tap()
    expect(position).to_have_text(f"Move {total} of {total}")
    expect(phone.locator("[data-testid=end-screen]")).to_contain_text("A bot played for Marianne")
    expect(phone.locator("[data-testid=secret]")).to_have_count(3)  # revealed once, at the end
    assert '{"type"' not in phone.locator("body").inner_text()
    no_sideways_scroll(phone)
    assert_no_ids(phone)
    assert problems == []


def test_a_game_without_secrets_at_its_end_says_nothing_of_them(server: LiveServer, browser: Browser):
    problems: list[str] = []
    created = server.create("revolution", ["random", "random", "random"], window_seconds=0)
    wait_over(server, created["table_id"])
    page = watch_errors(browser.new_context().new_page(), problems)
    page.goto(server.base + created["spectate"])
    expect(page.locator("[data-testid=end-screen]")).to_contain_text("Game over")
    expect(page.locator("[data-testid=secret]")).to_have_count(0)
    expect(page.locator("[data-testid=end-screen]")).not_to_contain_text("Every secret revealed")
    expect(page.locator("body")).not_to_contain_text("nothing secret")
    assert problems == []


def test_the_accused_is_shown_as_not_voting(server: LiveServer, browser: Browser, output: Path):
    problems: list[str] = []
    created = accused_elsewhere(server)  # the person in the first seat votes
    page = watch_errors(browser.new_context().new_page(), problems)
    page.goto(server.base + f"/table/{created[0]}#invite={created[1]}")
    page.fill("input[name=name]", "Marianne")
    page.click("text=Join the table")
    live = server.store.live[created[0]]
    accused = live.state.view(None)["accused"]
    panels = page.locator("[data-testid=players]")
    voter = panels.locator(f"li[data-seat='{next(s for s in (1, 2, 3) if s != accused)}']")
    expect(panels.locator(f"li[data-seat='{accused}']")).to_contain_text("does not vote", timeout=15_000)
    expect(panels.locator(f"li[data-seat='{accused}']")).not_to_contain_text("has chosen")
    expect(panels.locator("li[data-seat='0']")).to_contain_text("choosing")
    expect(voter).not_to_contain_text("does not vote")
    assert_no_ids(page)
    page.screenshot(path=output / "accused.png", full_page=True)
    assert problems == []


def accused_elsewhere(server: LiveServer) -> tuple[str, str]:
    """A trials table with a person in the first seat and bots elsewhere, whose first accused is a bot."""
    for seed in range(50):
        made = server.store.create("culottes-trials", 4, ["open", "random", "random", "random"], seed=seed,
                                   window_seconds=0)
        if server.store.live[made.table_id].state.view(None)["accused"] != 0:
            return made.table_id, made.invites[0]
    raise AssertionError("every seed accuses the first seat")
