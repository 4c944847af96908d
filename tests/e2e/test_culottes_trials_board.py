"""End to end in headless Chromium: the revolutionary trials played to the end through the drawn
board's own controls (the players' places to designate grabbers, the hands to note the truth and
to vote, the status bar's words, Pass and Confirm), at desktop size and at phone size, with no seat
number or internal id ever shown; and each decision drawn on the board."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.checks import (
    assert_no_ids,
    confirm,
    decision,
    name_of,
    play_to_the_end,
    summary,
    take,
    watch_the_replay,
)
from tests.server.conftest import LiveServer

DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)
GAME = "culottes-trials"
BOTS = ["honest-revolutionary", "skeptic", "bluffing-grabber"]
STATEMENT = "There is a duck on my phone's picture"


def join(server: LiveServer, browser: Browser, size: ViewportSize,
         options: dict[str, object]) -> tuple[Page, list[str]]:
    created = server.create(GAME, ["open", *BOTS], options=options, window_seconds=0)
    page = browser.new_context(viewport=size).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Olympe")
    page.click("text=Join the table")
    expect(page.locator("[data-testid=trials-table]")).to_be_visible()
    return page, problems


def on_board(key: str) -> str:
    return f"[data-testid=trials-table] [data-key={key}]"


def play_step(page: Page, done: set[str]) -> str:
    """Take one decision through the board; returns what was done."""
    offered = decision(page)
    if "designate" in offered:
        page.locator(on_board("place-2")).click()
        expect(summary(page)).to_contain_text(f"You name {name_of(page, 2)} grabber")
        confirm(page)
        return "designate"
    if "state" in offered:
        page.locator(on_board("state-false")).click()
        page.locator("[data-testid=decision] input[name=statement]").fill(STATEMENT)
        expect(summary(page)).to_contain_text("note in secret that they are false")
        confirm(page)
        return "state"
    if "vote" in offered:
        guess = "true" if "first" not in done else "false"
        page.locator(on_board(f"vote-{guess}")).click()
        expect(summary(page)).to_contain_text(f"You vote {guess}")
        confirm(page)
        done.add("first" if "first" not in done else "second")
        return f"vote {guess}"
    if "argue" in offered and "argue" not in done:
        page.locator("[data-testid=decision] [data-action=argue]").click()
        page.locator("[data-testid=decision] input[name=text]").fill("The accused hesitated: I doubt it.")
        confirm(page)
        done.add("argue")
        return "argue"
    if "pass" in offered:
        take(page, "pass")
        return "pass"
    return ""


def play_a_whole_game(server: LiveServer, browser: Browser, output: Path, size: ViewportSize) -> None:
    page, problems = join(server, browser, size, {"first_accused": 0, "trials": 2, "arguments_per_debate": 1})
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("You are the accused")
    assert_no_ids(page)
    page.screenshot(path=output / "start.png", full_page=True)
    done: set[str] = set()

    def step() -> str:
        taken = play_step(page, done)
        if taken == "pass":
            done.discard("argue")  # a new debate next trial
        return taken

    did, _ = play_to_the_end(page, step, output, mid_game=lambda did: "argue" in did,
                             reveal=lambda: page.locator(on_board("verdict")).count() > 0,
                             over="The tutorial is over")
    assert {"designate", "state", "vote true", "vote false", "argue"} <= set(did), did
    log = page.locator("[data-testid=log]")
    expect(log).to_contain_text(f"Olympe says: “{STATEMENT}”")
    expect(log).to_contain_text("Olympe argues: “The accused hesitated: I doubt it.”")
    expect(log).to_contain_text("Verdict of trial 1: Olympe's statement was false")
    expect(log).to_contain_text("First vote (it does not count):")
    sheet = page.locator("[data-testid=score-sheet]")
    expect(sheet).to_contain_text("Trial 2:")
    expect(sheet.locator("th.winner").first).to_contain_text("★")
    expect(page.locator(on_board("verdict"))).to_contain_text("Trial 2: the statement was")
    watch_the_replay(page, "[data-testid=trials-table]")
    assert problems == []


def test_the_trials_are_played_to_their_end_on_the_board_at_desktop_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, DESKTOP)


def test_the_trials_are_played_to_their_end_on_the_board_at_phone_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, PHONE)


@pytest.fixture
def accused_page(server: LiveServer, browser: Browser) -> Page:
    """The first seat, accused in the first trial, asked to designate the grabbers."""
    page, _ = join(server, browser, DESKTOP, {"first_accused": 0})
    expect(page.locator(on_board("place-1"))).to_have_attribute("role", "button")
    return page


def test_grabbers_are_designated_by_clicking_places_which_toggle(accused_page: Page):
    page = accused_page
    first, second = page.locator(on_board("place-1")), page.locator(on_board("place-2"))
    expect(page.locator(on_board("place-0"))).not_to_have_attribute("role", "button")  # not the accused
    first.click()
    expect(first).to_have_attribute("aria-pressed", "true")
    first.click()  # a second click takes the name back
    expect(summary(page)).to_have_text(
        "You name no other grabber: everyone else is whispered revolutionary.")
    second.click()
    expect(summary(page)).to_have_text(
        f"You name {name_of(page, 2)} grabber; everyone else is whispered revolutionary.")
    confirm(page)
    expect(page.locator("[data-testid=secret]")).to_contain_text(
        f"The grabbers you named: {name_of(page, 2)}.")
    expect(page.locator(on_board("place-2"))).to_contain_text("Grabber, named by you")
    assert_no_ids(page)


def test_the_truth_is_noted_by_clicking_a_hand_and_the_words_go_in_the_bar(accused_page: Page):
    page = accused_page
    page.locator("[data-testid=decision] [data-action=designate]").click()
    confirm(page)
    expect(page.locator(on_board("state-true"))).to_have_attribute("role", "button")
    page.locator(on_board("state-true")).click()
    page.locator("[data-testid=decision] input[name=statement]").fill("My battery is above half")
    expect(page.locator("[data-testid=confirm]")).to_be_enabled()
    confirm(page)
    expect(page.locator(on_board("statement"))).to_contain_text("“My battery is above half”")
    expect(page.locator("[data-testid=secret]")).to_contain_text("Your statement is true.")


def test_a_vote_is_a_click_on_a_closed_fist_or_an_open_hand(server: LiveServer, browser: Browser):
    page, _ = join(server, browser, PHONE, {"first_accused": 1})
    fist = page.locator(on_board("vote-true"))
    expect(fist).to_be_visible(timeout=10_000)
    expect(fist.locator("title").first).to_contain_text("closed fist")
    page.locator(on_board("vote-false")).click()
    accused = name_of(page, 1)
    expect(summary(page)).to_have_text(
        f"You vote false (open hand) on {accused}'s statement.")
    confirm(page)
    expect(page.locator("[data-testid=log]")).to_contain_text("You have voted in secret.")
    expect(page.locator(on_board("vote1-0"))).to_be_visible()
    assert_no_ids(page)
