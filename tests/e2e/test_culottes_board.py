"""End to end in headless Chromium: a whole Culottes game played through the drawn board's own
controls (role cards, citizen sheets, the scale's pans, the Bastille, steppers, the status bar's
Confirm), at desktop size and at phone size, with no seat number or internal id ever shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.checks import (
    assert_no_ids,
    confirm,
    decision,
    moment_said,
    play_to_the_end,
    record_moments,
    take,
    watch_the_replay,
)
from tests.server.conftest import LiveServer

DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)


def play_my_turn_step(page: Page, done: set[str]) -> str:
    """Take one decision through the board; returns what was done."""
    offered = decision(page) or ""
    if "choose_role" in offered:
        page.locator("[data-key=role-revolutionary]").click()  # the role card, drawn on the board
        expect(page.locator("[data-testid=summary]")).to_have_text("You play as a Revolutionary.")
        page.locator("[data-testid=decision] input[name=name]").fill("Camille Desmoulins")
        confirm(page)
        return "role"
    if "donate" in offered and "donate" not in done:
        page.locator("[data-testid=culottes-table] [data-key=bastille]").click()
        page.locator("[data-stepper=cakes] button[aria-label^=more]").click()
        expect(page.locator("[data-testid=summary]")).to_contain_text("donates 2 cakes to the Bastille")
        confirm(page)
        done.add("donate")
        return "donate"
    if "cake_vote" in offered and "cake_vote" not in done:
        # another player's citizen sheet, then the privileged pan of its (new) scale, then 2 cakes
        sheets = page.locator("[data-testid=culottes-table] [data-key^=citizen-][data-choice]")
        expect(sheets.first).to_be_visible()
        sheets.last.click()
        pan = page.locator("[data-testid=culottes-table] [data-key$=-privileged][data-choice]").last
        pan.click()
        page.locator("[data-stepper=cakes] button[aria-label^=more]").click()
        expect(page.locator("[data-testid=summary]")).to_contain_text("votes 2 cakes that")
        expect(page.locator("[data-testid=summary]")).to_contain_text("is privileged")
        confirm(page)
        done.add("cake_vote")
        return "cake_vote"
    if "recruit" in offered and "recruit" not in done:
        page.locator("[data-testid=decision] [data-action=recruit]").click()
        # a name outside the citizen names the bots recruit under, which the table would refuse
        page.locator("[data-testid=decision] input[name=name]").fill("Lucile Duplessis")
        confirm(page)
        done.add("recruit")
        return "recruit"
    if "pass" in offered:
        take(page, "pass")
        if "recruit" in offered:  # the turn is over: next turn, every step again
            done.clear()
            done.add("recruit")
        return "pass"
    return ""


def play_a_whole_game(server: LiveServer, browser: Browser, output: Path, size: ViewportSize) -> None:
    created = server.create("culottes", ["open", "honest-revolutionary", "puppet-grabber"],
                            options={"first_player": 0, "max_rounds": 2}, window_seconds=0)
    page = browser.new_context(viewport=size).new_page()
    record_moments(page)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Camille")
    page.click("text=Join the table")
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("choose your role in secret")
    assert_no_ids(page)
    page.screenshot(path=output / "roles.png", full_page=True)

    done: set[str] = set()
    did, _ = play_to_the_end(page, lambda: play_my_turn_step(page, done), output,
                             mid_game=lambda did: "cake_vote" in did,
                             reveal=lambda: moment_said(page, "Verdict"),
                             reveal_full_page=size == PHONE, seconds=50, after_step_ms=80)
    assert {"role", "donate", "cake_vote", "recruit", "pass"} <= set(did), did
    # the log speaks in sentences with names; the raw data is behind each line's toggle
    log = page.locator("[data-testid=log]")
    expect(log).to_contain_text("Camille Desmoulins donates 2 cakes to the Bastille.")
    expect(log).to_contain_text("The die shows")
    expect(log.locator("code").first).to_be_hidden()
    log.locator("summary").first.click()
    expect(log.locator("code").first).to_be_visible()
    expect(page.locator("[data-testid=score-sheet]")).to_contain_text("8. Combined")
    expect(page.locator("[data-key^=flap-]").first).to_contain_text("flap: ")  # every flap turned
    assert (output / "end.png").stat().st_size > 10_000

    watch_the_replay(page, "[data-testid=culottes-table]", output)  # the same board, every secret
    expect(page.locator("body")).to_contain_text("has chosen a role in secret.")
    assert problems == []


def test_a_culottes_game_is_played_to_its_end_on_the_board_at_desktop_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, DESKTOP)


def test_a_culottes_game_is_played_to_its_end_on_the_board_at_phone_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, PHONE)


@pytest.fixture
def culottes_page(server: LiveServer, browser: Browser) -> Page:
    created = server.create("culottes", ["open", "random", "random"], options={"first_player": 0},
                            window_seconds=0)
    page = browser.new_context(viewport=DESKTOP).new_page()
    record_moments(page)
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Camille")
    page.click("text=Join the table")
    expect(page.locator("[data-key=role-grabber]")).to_be_visible()
    return page


def test_a_board_choice_is_reached_by_keyboard_and_picked_with_enter(culottes_page: Page):
    card = culottes_page.locator("[data-key=role-grabber]")
    expect(card).to_have_attribute("role", "button")
    expect(card).to_have_attribute("tabindex", "0")
    card.focus()
    culottes_page.keyboard.press("Enter")
    expect(culottes_page.locator("[data-testid=summary]")).to_have_text("You play as a Grabber.")
    expect(card).to_have_attribute("aria-pressed", "true")


def test_cancel_drops_the_draft_and_sends_nothing(culottes_page: Page):
    culottes_page.locator("[data-key=role-grabber]").click()
    culottes_page.locator("[data-testid=cancel]").click()
    expect(culottes_page.locator("[data-testid=summary]")).to_have_count(0)
    expect(culottes_page.locator("[data-testid=secret]")).to_contain_text("Your role: not chosen yet")


def test_an_open_log_line_stays_open_when_the_table_updates(culottes_page: Page):
    line = culottes_page.locator("[data-testid=log] details").first
    line.locator("summary").click()
    expect(line).to_have_attribute("open", "")
    culottes_page.locator("[data-key=role-grabber]").click()  # a re-render
    confirm(culottes_page)  # an update from the server
    expect(culottes_page.locator("[data-testid=secret]")).to_contain_text("Your role: Grabber")
    expect(line).to_have_attribute("open", "")


def test_rule_text_is_the_tooltip_of_the_bastille_and_shows_on_hover(culottes_page: Page):
    bastille = culottes_page.locator("[data-key=bastille]")
    expect(bastille.locator("title")).to_contain_text("strategic reserve of cakes")
    bastille.hover()
    expect(culottes_page.locator(".kit-tip")).to_contain_text("strategic reserve of cakes")


def my_turn(page: Page) -> None:
    """Choose a role on the board and wait for this seat's first turn."""
    page.locator("[data-key=role-revolutionary]").click()
    confirm(page)
    expect(page.locator("[data-testid=decision] [data-action=donate]")).to_be_visible(timeout=10_000)


def test_an_amount_is_set_with_a_stepper_that_stays_within_its_limits(culottes_page: Page):
    my_turn(culottes_page)
    culottes_page.locator("[data-key=bastille]").click()  # the Bastille starts a donation
    stepper = culottes_page.locator("[data-stepper=cakes]")
    less, more = stepper.locator("button").first, stepper.locator("button").last
    expect(stepper.locator("output")).to_have_text("1")  # the least, to start
    expect(less).to_be_disabled()
    for _ in range(19):
        more.click()
    expect(stepper.locator("output")).to_have_text("20")  # all of the citizen's cakes
    expect(more).to_be_disabled()
    expect(culottes_page.locator("[data-testid=summary]")).to_contain_text("donates 20 cakes to the Bastille")
    less.click()
    expect(culottes_page.locator("[data-testid=summary]")).to_contain_text("donates 19 cakes to the Bastille")
    culottes_page.locator("[data-testid=cancel]").click()
    expect(culottes_page.locator("[data-stepper=cakes]")).to_have_count(0)
    expect(culottes_page.locator("[data-key=bastille] text").first).to_contain_text("0")  # nothing was sent


def test_a_cake_vote_is_built_on_the_board_and_shown_as_a_new_trial_before_it_is_sent(culottes_page: Page):
    my_turn(culottes_page)
    page = culottes_page
    expect(page.locator("[data-testid=summary]")).to_have_count(0)
    page.locator("[data-key^=citizen-][data-choice]").last.click()
    expect(page.locator("[data-testid=culottes-table]")).to_contain_text("a new trial")
    expect(page.locator("[data-testid=confirm]")).to_be_disabled()  # no side yet
    expect(page.locator("[data-testid=decision]")).to_contain_text("Choose the side on the board.")
    page.locator("[data-key$=-sans_culotte][data-choice]").last.click()
    expect(page.locator("[data-testid=summary]")).to_contain_text("votes 1 cake that")
    expect(page.locator("[data-testid=summary]")).to_contain_text("is a sans-culotte")
    pan = page.locator("[data-key$=-sans_culotte][data-choice]").last
    expect(pan).to_have_attribute("aria-pressed", "true")
    confirm(page)
    expect(page.locator("[data-testid=book] li")).to_have_count(1)
    assert_no_ids(page)


def test_without_motion_a_moment_is_a_steady_outline(server: LiveServer, browser: Browser):
    created = server.create("culottes", ["open", "random", "random"], window_seconds=0)
    page = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
    record_moments(page)
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Camille")
    page.click("text=Join the table")
    expect(page.locator("[data-testid=motion]")).not_to_be_checked()  # the system asked for less motion
    # the class is read as the moment starts: a moment lasts at most 1.5 s, and the bots' moves
    # may draw the board again before a later look
    assert moment_classes(page) == ["kit-moment-still"]
    page.locator("[data-testid=motion]").check()  # the player turns movement back on
    assert moment_classes(page) == ["kit-moment"]


def moment_classes(page: Page) -> list[str]:
    """The moment classes the die has just after ``Kit.moment`` highlights it (once the board
    has drawn it: the first drawing may come after the controls)."""
    page.wait_for_selector("[data-key=die]", state="attached")
    return page.evaluate("""() => {
        const die = document.querySelector('[data-key=die]');
        Kit.moment(die, 500);
        return [...die.classList].filter((c) => c.startsWith('kit-moment'));
    }""")


def test_a_cockade_is_bought_from_the_playing_citizen_sheet(culottes_page: Page):
    my_turn(culottes_page)
    cockade = culottes_page.locator("[data-key=cockade]")
    expect(cockade).to_have_attribute("role", "button")
    cockade.click()  # not the sheet around it: that would start a cake vote
    expect(culottes_page.locator("[data-testid=decision]")).to_have_attribute("data-draft", "buy_cockade")
    expect(culottes_page.locator("[data-testid=summary]")).to_contain_text("buys a cockade")
    confirm(culottes_page)
    expect(culottes_page.locator("[data-testid=log]")).to_contain_text("buys a cockade.")
    expect(cockade).to_contain_text("1")


def test_a_spectator_sees_the_board_and_who_is_expected_but_no_decision(server: LiveServer, browser: Browser):
    created = server.create("culottes", ["open", "random", "random"], options={"first_player": 1},
                            window_seconds=0)
    server.join(created["invites"]["0"], "Olympe")
    page = browser.new_context(viewport=PHONE).new_page()
    record_moments(page)
    page.goto(server.base + created["spectate"])
    expect(page.locator("[data-testid=culottes-table]")).to_be_visible()
    expect(page.locator("[data-testid=status]")).to_contain_text("You are watching")
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("Waiting for Olympe")
    expect(page.locator("[data-testid=decision]")).to_have_count(0)
    expect(page.locator("[data-choice]")).to_have_count(0)
    expect(page.locator("ul.seats li.to-act")).to_contain_text("Olympe")
    assert_no_ids(page)
