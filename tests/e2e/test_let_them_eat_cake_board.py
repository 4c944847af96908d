"""End to end in headless Chromium: Let Them Eat Cake played through its drawn board's own
controls (Voting cards in the hand, players' panels, the Guillotine's buttons, the Secretary's
cards, the Food Inspector's stamps, the buttons on the Generals, the status bar's Confirm), at
desktop size and at phone size, and each decision drawn on the board checked on its own, with no
seat number or internal id ever shown."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e.checks import (
    assert_no_ids,
    confirm,
    decision,
    moment_said,
    play_to_the_end,
    record_moments,
    settled,
    summary,
    watch_the_replay,
)
from tests.server.conftest import LiveServer, Socket

DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)
TABLE = "[data-testid=ltec-table]"


def log(page: Page) -> Locator:
    return page.locator("[data-testid=log]")


def sentence(page: Page) -> Locator:
    """The status bar's sentence."""
    return page.locator("[data-testid=status-sentence]")


def click_first(page: Page, selector: str) -> None:
    """Click the first clickable board element matching ``selector``."""
    target = page.locator(f"{TABLE} {selector}[data-choice]").first
    expect(target).to_be_visible()
    target.click()


def play_my_step(page: Page, done: set[str]) -> str:
    """Take the decision on offer through the board; returns what was done ("" if nothing)."""
    offered = decision(page)
    kinds = set(offered.split(","))
    if "vote" in kinds:
        click_first(page, "[data-key^=vote-card-]")
        expect(summary(page)).to_contain_text("You play your Voting card for")
        confirm(page)
        return "vote"
    if "allege_rigging" in kinds and "allege_rigging" not in done:
        page.locator(f"{TABLE} [data-key=general-allege_rigging]").click()
        confirm(page)
        done.add("allege_rigging")
        return "allege_rigging"
    if "coup" in kinds and "coup" not in done:
        page.locator(f"{TABLE} [data-key=general-coup]").click()
        click_first(page, "[data-key^=player-]")
        confirm(page)
        done.add("coup")
        return "coup"
    if "seize" in kinds and "seize" not in done:
        page.locator(f"{TABLE} [data-key=general-seize]").click()
        click_first(page, "[data-key^=drawn-]")
        confirm(page)
        done.add("seize")
        return "seize"
    if "break_tie" in kinds:
        click_first(page, "[data-key^=player-]")
        confirm(page)
        return "break_tie"
    if "remove_medal" in kinds or "award_medal" in kinds:
        click_first(page, "[data-key^=remove-]" if "remove_medal" in kinds else "[data-key^=award-]")
        confirm(page)
        return "head_medal"
    if "execute" in kinds:
        page.locator(f"{TABLE} [data-key=execute]").click()
        expect(summary(page)).to_contain_text("You execute")
        confirm(page)
        return "execute"
    if "deal" in kinds:
        click_first(page, "[data-key^=drawn-]")
        click_first(page, "[data-key^=player-]")
        expect(summary(page)).to_contain_text("in front of")
        confirm(page)
        return "deal"
    if "inspect" in kinds:
        page.locator(f"{TABLE} [data-key=inspect-safe]").click()
        expect(summary(page)).to_have_text("You declare the batch safe.")
        confirm(page)
        return "inspect"
    if "donate" in kinds and "donate" not in done:
        page.locator(f"{TABLE} [data-key=donate]").click()
        panels = page.locator(f"{TABLE} [data-key^=player-][data-choice]")
        if panels.count():
            panels.first.click()
        else:
            page.locator(f"{TABLE} [data-key=take-nobody]").click()
        confirm(page)
        done.add("donate")
        return "donate"
    if "pass" in kinds:
        page.locator("[data-testid=decision] [data-action=pass]").click()
        settled(page)
        return "pass"
    return ""


def join(browser: Browser, server: LiveServer, invite: str, size: ViewportSize) -> tuple[Page, list[str]]:
    page = browser.new_context(viewport=size).new_page()
    record_moments(page)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + invite)
    page.fill("input[name=name]", "Lucile")
    page.click("text=Join the table")
    expect(page.locator(TABLE)).to_be_visible()
    return page, problems


def play_a_whole_game(server: LiveServer, browser: Browser, output: Path, size: ViewportSize) -> None:
    created = server.create("let-them-eat-cake", ["open", "cake-hoarder", "kingmaker"],
                            options={"first_head": 0, "max_rounds": 1}, window_seconds=0)
    page, problems = join(browser, server, created["invites"]["0"], size)
    expect(sentence(page)).to_contain_text("Vote for the Head of Committee")
    assert_no_ids(page)
    page.screenshot(path=output / "start.png", full_page=True)

    done: set[str] = set()
    did, shots = play_to_the_end(page, lambda: play_my_step(page, done), output,
                                 mid_game=lambda _: page.locator(f"{TABLE} [data-key^=drawn-]").count() > 0,
                                 reveal=lambda: moment_said(page, "are revealed"),
                                 reveal_full_page=size == PHONE, after_step_ms=60)
    assert did.count("vote") >= 4, did
    expect(log(page)).to_contain_text("The Voting cards for the Head of Committee are revealed")
    expect(log(page)).to_contain_text("is the Secretary")
    sheet = page.locator("[data-testid=score-sheet]")
    expect(sheet).to_contain_text("2. Cake cards")
    expect(sheet).to_contain_text("★")
    expect(page.locator("[data-testid=end-screen]")).to_contain_text("Stash:")  # every stash revealed
    assert "mid-game" in shots, did
    if size == DESKTOP:  # the replay draws the same board, with nothing to click
        watch_the_replay(page, TABLE)
    assert problems == []


def test_a_game_is_played_to_its_end_on_the_board_at_desktop_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, DESKTOP)


def test_a_game_is_played_to_its_end_on_the_board_at_phone_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, PHONE)


# -- each decision drawn on the board, with the other two seats played over the websocket -------

class Table:
    """The browser plays the first seat (Lucile); Olympe and Danton are played by the test."""

    def __init__(self, server: LiveServer, browser: Browser) -> None:
        created = server.create("let-them-eat-cake", ["open", "open", "open"],
                                options={"first_head": 0, "max_rounds": 3}, window_seconds=0)
        table_id = created["table_id"]
        self.others: dict[int, Socket] = {}
        for seat, name in ((1, "Olympe"), (2, "Danton")):
            token = server.join(created["invites"][str(seat)], name)
            self.others[seat] = server.socket(table_id, token)
        self.page, self.problems = join(browser, server, created["invites"]["0"], DESKTOP)
        self.ids = (f"t{n}" for n in itertools.count())

    def act(self, seat: int, action: dict[str, Any]) -> None:
        """Wait until ``seat`` is offered this kind of action, then take it."""
        sock = self.others[seat]
        deadline = time.monotonic() + 10
        def offered() -> list[str]:
            return [f["type"] for f in sock.prompt["actions"] + sock.prompt["free"]] if sock.prompt else []
        while action["type"] not in offered():
            assert time.monotonic() < deadline, f"{action} never offered; prompt: {sock.prompt}"
            sock.recv()
        reply = sock.act(action, next(self.ids))
        assert reply["type"] == "ack", reply

    def vote(self, page_for: int, *, olympe: int, danton: int) -> None:
        """Lucile clicks her card for ``page_for``; Olympe and Danton vote over the socket."""
        self.act(1, {"type": "vote", "candidate": olympe})
        self.act(2, {"type": "vote", "candidate": danton})
        cards = f"{TABLE} [data-key^=vote-card-][data-choice][data-target={NAMES[page_for]}]"
        card = self.page.locator(cards).first
        card.click()
        expect(card).to_have_attribute("aria-pressed", "true")
        confirm(self.page)


NAMES = {0: "Lucile", 1: "Olympe", 2: "Danton"}


@pytest.fixture
def table(server: LiveServer, browser: Browser) -> Iterator[Table]:
    t = Table(server, browser)
    yield t
    for sock in t.others.values():
        sock.close()


def test_a_voting_card_clicked_in_the_hand_is_played_face_down_and_revealed(table: Table):
    page = table.page
    expect(page.locator(f"{TABLE} [data-key^=vote-card-][data-choice]")).to_have_count(4)
    page.locator(f"{TABLE} [data-key^=vote-card-][data-target=Olympe]").first.click()
    expect(summary(page)).to_have_text(
        "You play your Voting card for Olympe, face down, for the Head of Committee.")
    confirm(page)
    expect(page.locator(TABLE)).to_contain_text("Played face down: Olympe")
    table.act(1, {"type": "vote", "candidate": 0})
    table.act(2, {"type": "vote", "candidate": 0})
    expect(log(page)).to_contain_text(
        "The Voting cards for the Head of Committee are revealed: Lucile for Olympe, Olympe for Lucile, "
        "Danton for Lucile.")
    expect(page.locator(f"{TABLE} [data-key=ballot-1]")).to_contain_text("Lucile")
    expect(page.locator(f"{TABLE} [data-key=office-head]")).to_contain_text("Lucile")
    assert_no_ids(page)


def test_the_rule_text_of_an_office_and_of_the_guillotine_shows_on_hover(table: Table):
    page = table.page
    page.locator(f"{TABLE} [data-key=office-enemy]").hover()
    expect(page.locator(".kit-tip")).to_contain_text("the player with the fewest Medals")
    page.locator(f"{TABLE} [data-key=guillotine]").hover()
    expect(page.locator(".kit-tip")).to_contain_text("waits here for the Guillotine Operator")


def break_tie(page: Page, winner: str) -> None:
    """As Head of Committee, click the winner's panel and confirm."""
    expect(sentence(page)).to_contain_text("is tied")
    page.locator(f"{TABLE} [data-key^=player-][data-choice]", has_text=winner).first.click()
    expect(summary(page)).to_contain_text(f"you choose {winner} as the")
    confirm(page)


def lucile_heads_and_danton_goes_to_the_guillotine(table: Table) -> Page:
    """Every vote below is a three-way tie (each player holds two cards for each other player),
    broken by Lucile as Head of Committee; she then sends Danton to the Guillotine."""
    page = table.page
    table.vote(2, olympe=0, danton=1)  # 3 votes each
    break_tie(page, "Lucile")
    expect(page.locator(f"{TABLE} [data-key=office-head]")).to_contain_text("Lucile")
    expect(sentence(page)).to_contain_text("award a Medal")
    page.locator(f"{TABLE} [data-key=remove-2]").click()
    expect(summary(page)).to_have_text("You remove a Medal from Danton to the centre.")
    confirm(page)
    expect(page.locator(f"{TABLE} [data-key=medals-2]")).to_contain_text("1")
    expect(page.locator(f"{TABLE} [data-key=guillotine-pawn]")).to_have_count(1)
    table.vote(2, olympe=0, danton=1)  # Lucile 3, Olympe 2, Danton 3: Danton votes a Pawn short
    break_tie(page, "Lucile")
    expect(page.locator(f"{TABLE} [data-key=office-operator]")).to_contain_text("Lucile")
    return page


def test_the_head_breaks_a_tie_moves_a_medal_and_the_operator_executes_on_the_board(
        table: Table, output: Path):
    page = lucile_heads_and_danton_goes_to_the_guillotine(table)
    expect(sentence(page)).to_contain_text("execute Danton's Pawn or grant mercy")
    page.screenshot(path=output / "guillotine.png", full_page=True)
    page.locator(f"{TABLE} [data-key=execute]").click()
    expect(summary(page)).to_have_text("You execute Danton's Pawn.")
    confirm(page)
    expect(log(page)).to_contain_text("Lucile executes Danton's Pawn; Danton regains")
    expect(page.locator(f"{TABLE} [data-key=guillotine-pawn]")).to_have_count(0)
    expect(page.locator(f"{TABLE} [data-key=pawns-2] .pawn-dead")).to_have_count(1)
    expect(page.locator(f"{TABLE} [data-key=generals-2]")).to_contain_text("1")
    assert_no_ids(page)
    assert table.problems == []


def test_mercy_then_the_secretary_deals_and_the_inspector_stamps_on_the_board(table: Table, output: Path):
    page = lucile_heads_and_danton_goes_to_the_guillotine(table)
    page.locator(f"{TABLE} [data-key=mercy]").click()
    expect(summary(page)).to_have_text("You grant Danton's Pawn mercy and lose a Medal.")
    confirm(page)
    expect(log(page)).to_contain_text("Lucile grants mercy: Danton's Pawn goes back")
    table.vote(1, olympe=2, danton=0)  # Secretary: a tie again
    break_tie(page, "Lucile")
    expect(page.locator(f"{TABLE} [data-key^=drawn-]")).to_have_count(3)
    expect(sentence(page)).to_contain_text("click a card, then the player")
    page.locator(f"{TABLE} [data-key^=drawn-][data-choice]").first.click()
    page.locator(f"{TABLE} [data-key=player-2]").click()
    expect(summary(page)).to_contain_text("in front of Danton.")
    confirm(page)
    expect(page.locator(f"{TABLE} [data-key^=drawn-]").first).to_contain_text("Danton")
    page.locator(f"{TABLE} [data-key^=drawn-][data-choice]").first.click()
    page.locator(f"{TABLE} [data-key=player-0]").click()
    confirm(page)  # the last card goes to Olympe by itself
    table.vote(1, olympe=2, danton=0)  # Food Inspector: a tie again
    break_tie(page, "Lucile")
    page.locator(f"{TABLE} [data-key=inspect-unsafe]").click()
    expect(summary(page)).to_have_text("You declare the batch unsafe.")
    page.locator(f"{TABLE} [data-key=inspect-safe]").click()
    expect(summary(page)).to_have_text("You declare the batch safe.")
    confirm(page)
    # the stamp lies on the table until the round ends, which may come at once: the log keeps it
    expect(log(page)).to_contain_text("The Food Inspector, Lucile, declares the batch safe")
    assert_no_ids(page)
    page.screenshot(path=output / "batch.png", full_page=True)
    assert table.problems == []


def test_allege_rigging_is_a_button_on_your_generals(table: Table):
    page = lucile_heads_and_danton_goes_to_the_guillotine(table)
    page.locator(f"{TABLE} [data-key=execute]").click()
    confirm(page)
    # Danton gives his starter General to Lucile, who is then asked first after the next vote
    table.act(2, {"type": "give_generals", "to": 0, "generals": 1})
    expect(page.locator(f"{TABLE} [data-key=generals-0]")).to_contain_text("1")
    table.vote(1, olympe=2, danton=0)  # Lucile 2, Olympe 3, Danton 3
    break_tie(page, "Olympe")
    rig = page.locator(f"{TABLE} [data-key=general-allege_rigging]")
    expect(rig).to_be_visible()
    rig.click()
    expect(summary(page)).to_contain_text("the vote for the Secretary is ignored and held again")
    confirm(page)
    expect(log(page)).to_contain_text("Lucile alleges the vote for the Secretary was rigged")
    expect(page.locator(f"{TABLE} [data-key=round-line]")).to_contain_text("vote 2")
    assert_no_ids(page)
