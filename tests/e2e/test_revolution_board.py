"""End to end in headless Chromium: Revolution! played through its drawn board (the supply's chips,
the Bidding Chart's spaces and their − / +, the board's Confirm, markers in the areas, the status
bar), at desktop size and at phone size, with no seat number or internal id ever shown; and each
decision drawn on the board checked alone: the clicks build the right action."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.checks import (
    assert_no_ids,
    moment_said,
    play_to_the_end,
    record_moments,
    settled,
    take,
    watch_the_replay,
)
from tests.server.conftest import LiveServer
from tricolore.games.revolution.bids import Bid
from tricolore.games.revolution.data import SEED_CHART
from tricolore.games.revolution.rules import RevolutionOptions, RevolutionState

DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)
PREFERRED = {"force": "printer", "blackmail": "priest", "gold": "card"}


def left_to_place(page: Page, currency: str) -> int:
    token = page.locator(f"[data-testid=revolution-supply] [data-key=supply-{currency}]")
    if token.count() == 0:
        return 0
    return int(token.locator("text").nth(1).text_content() or "0")


def build_and_send_a_bid(page: Page) -> str:
    """Tap each currency of the supply, then the + of a space that takes it, until every chip is
    placed; check the summary; confirm on the board. Returns the summary that was sent."""
    board = page.locator("[data-testid=revolution-table]")
    for currency in ("force", "blackmail", "gold"):
        while left_to_place(page, currency) > 0:
            board.locator(f"[data-key=supply-{currency}]").click()
            preferred = board.locator(f"[data-key=plus-{PREFERRED[currency]}][data-choice]")
            anywhere = board.locator("[data-key^=plus-][data-choice]").first
            (preferred if preferred.count() else anywhere).click()
    summary = page.locator("[data-testid=bid-summary]")
    expect(summary).to_contain_text("every chip placed")
    text = summary.inner_text()
    button = page.locator("[data-testid=bid-confirm]")
    expect(button).to_be_enabled()
    button.click()
    settled(page)
    return text


def decide(page: Page) -> str:
    """The Spy, the Apothecary or a Remove card: markers clicked on the board, or Decline."""
    bar = page.locator("[data-testid=decision]")
    actions = bar.locator("[data-action]").evaluate_all("bs => bs.map(b => b.dataset.action)")
    if "remove_influence" in actions or "spy" in actions:
        kind = "remove_influence" if "remove_influence" in actions else "spy"
        page.locator("[data-testid=revolution-areas] [data-marker][data-choice]").first.click()
        expect(page.locator("[data-testid=decision]")).to_have_attribute("data-draft", kind)
        confirm = page.locator("[data-testid=confirm]")
        expect(confirm).to_be_enabled()
        confirm.click()
        settled(page)
        return kind
    if "decline" in actions:
        take(page, "decline")
        return "decline"
    return ""


def play_a_whole_game(server: LiveServer, browser: Browser, output: Path, size: ViewportSize) -> None:
    created = server.create("revolution", ["open", "printer-first", "area-control"],
                            options={"max_rounds": 2}, window_seconds=0)
    page = browser.new_context(viewport=size).new_page()
    record_moments(page)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Marie-Jeanne")
    page.click("text=Join the table")
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("you must place all your chips")
    expect(page.locator("[data-testid=revolution-chart]")).to_be_visible()
    assert_no_ids(page)
    # on every screen the board's words are at least 14 px and its targets at least 44 px
    small = page.evaluate("""() => [...document.querySelectorAll('[data-testid=revolution-table] svg text')]
        .filter((t) => !t.closest('[aria-hidden=true]') && t.getBoundingClientRect().height > 0
                       && parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a < 13.5)
        .map((t) => t.textContent)""")
    assert small == [], small
    tiny = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=revolution-table] [data-choice]')].map((e) => e.getBoundingClientRect())
        .filter((r) => r.width < 43 || r.height < 43).length""")
    assert tiny == 0
    page.screenshot(path=output / "bidding.png", full_page=True)

    def step() -> str:
        busy = page.locator("[data-testid=status][data-busy]").count()
        if page.locator("[data-testid=bid-confirm]").count() and not busy:
            assert "No chip placed" not in build_and_send_a_bid(page)
            return "bid"
        if page.locator("[data-testid=decision] [data-action]").count():
            return decide(page)
        return ""

    did, shots = play_to_the_end(page, step, output, mid_game=lambda did: "bid" in did,
                                 reveal=lambda: moment_said(page, "shields come down"))
    expect(page.locator("[data-testid=score-sheet]")).to_contain_text("Total support")
    assert did.count("bid") == 2, did
    assert "reveal" in shots, "the reveal was never shown as a moment"
    # after the last reveal every bid is on the chart and each space's winner is marked
    expect(page.locator("[data-testid=revolution-chart] [data-key^=bid-]").first).to_be_visible()
    log = page.locator("[data-testid=log]")
    expect(log).to_contain_text("The shields come down: Marie-Jeanne bids")
    expect(log).to_contain_text("You have placed a bid behind the shield.")
    if size == DESKTOP:  # the replay draws the same board, from the public view
        watch_the_replay(page, "[data-testid=revolution-chart]", output)
    assert problems == []


def test_a_revolution_game_is_played_to_its_end_on_the_board_at_desktop_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, DESKTOP)


def test_a_revolution_game_is_played_to_its_end_on_the_board_at_phone_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, PHONE)


# -- each decision alone: the board drawn from a real view, with a small stand-in for the table
# page's decision helpers that records what the clicks pick.
HARNESS = """([first, families, seat]) => {
  let view = first;
  const draft = { type: null, values: {} };
  window.draft = draft;
  const names = ["Camille", "Danton", "Olympe"];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const family = (t) => families.find((f) => f.type === t) || null;
  const start = (t) => { if (draft.type !== t) { draft.type = t; draft.values = {}; } };
  const draw = () => {
    const ctx = { names, seat, view, prompt: null, h, label, renderValue, kit: Kit,
      offered: family,
      picked: (t, p) => (draft.type === t ? draft.values[p] : undefined),
      can: (t, p, v) => {
        const q = family(t) && family(t).params.find((x) => x.name === p);
        if (!q || !q.domain) return false;
        return q.domain.kind === "choice" ? q.domain.options.some((o) => same(o, v)) : true;
      } };
    const pick = (t, p, v) => { start(t); draft.values[p] = v; draw(); };
    ctx.choice = (node, t, p, v, words) => (ctx.can(t, p, v)
      ? Kit.choice(node, { value: v, label: words, onPick: () => pick(t, p, v) }) : node);
    ctx.pickMany = (t, values) => { start(t); Object.assign(draft.values, values); draw(); };
    const board = document.querySelector("[data-testid=board]");
    board.replaceChildren(Tricolore.boards.revolution.render(view, ctx));
  };
  window.redraw = (next) => { view = next; draw(); };
  draw();
}"""


def board_page(server: LiveServer, browser: Browser, view: dict[str, Any],
               families: list[dict[str, Any]]) -> Page:
    page = browser.new_context(viewport=DESKTOP).new_page()
    record_moments(page)
    page.goto(server.base + "/static/table.html")  # the page's styles; its client is not started
    page.evaluate("document.body.innerHTML = "
                  "'<main><section class=board-wrap data-testid=board></section></main>'")
    page.add_script_tag(url=server.base + "/boards/revolution.js")
    page.evaluate(HARNESS, [view, families, 0])
    return page


def state_with_markers() -> RevolutionState:
    state = RevolutionState(3, 7, RevolutionOptions())
    state.board["Tavern"][1] = 2  # Danton
    state.board["Fortress"][0] = 1  # Camille's own
    state.board["Fortress"][2] = 1  # Olympe
    return state


def draft(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("() => JSON.parse(JSON.stringify(window.draft))")
    return result


def bid_family(force: int, blackmail: int, gold: int) -> list[dict[str, Any]]:
    """The prompt's bid for a player holding these chips, as the server describes it."""
    domain = Bid(SEED_CHART, (("force", force), ("blackmail", blackmail), ("gold", gold))).describe()
    return [{"type": "bid", "params": [{"name": "placement", "domain": domain}]}]


def test_a_bid_is_built_by_tapping_chips_onto_spaces_within_the_chart_limits(
        server: LiveServer, browser: Browser):
    state = RevolutionState(3, 7, RevolutionOptions())
    page = board_page(server, browser, state.view(0), bid_family(1, 1, 3))
    # Force is armed first: the General and the Spy forbid it, so they take no Force
    expect(page.locator("[data-key=plus-general][data-choice]")).to_have_count(0)
    expect(page.locator("[data-key=plus-spy][data-choice]")).to_have_count(0)
    page.locator("[data-key=space-printer]").click()  # a tap on the space places one chip
    assert draft(page)["values"]["placement"] == {"Printer": {"force": 1}}
    page.locator("[data-key=supply-gold]").click()
    for _ in range(3):
        page.locator("[data-key=plus-card]").click()
    expect(page.locator("[data-key=plus-card][data-choice]")).to_have_count(0)  # at most 3 Gold on Card
    page.locator("[data-key=minus-card]").click()  # Blackmail is armed now: − takes back the Gold there
    assert draft(page)["values"]["placement"]["Card"] == {"gold": 2}
    page.locator("[data-key=supply-gold]").click()
    page.locator("[data-key=plus-merchant]").click()
    page.locator("[data-key=supply-blackmail]").click()
    page.locator("[data-key=plus-priest]").click()
    assert draft(page)["values"]["placement"] == {
        "Printer": {"force": 1}, "Card": {"gold": 2}, "Merchant": {"gold": 1}, "Priest": {"blackmail": 1}}
    assert Bid(SEED_CHART, (("force", 1), ("blackmail", 1), ("gold", 3))).problem(
        "placement", draft(page)["values"]["placement"]) is None  # the server would take it
    expect(page.locator("[data-testid=bid-summary]")).to_contain_text(
        "Priest 1 Blackmail · Merchant 1 Gold · Printer 1 Force · Card 2 Gold — every chip placed")
    expect(page.locator("[data-testid=bid-confirm]")).to_be_enabled()
    page.locator("[data-key=minus-priest]").click()
    expect(page.locator("[data-testid=bid-summary]")).to_contain_text("still to place: 1 Blackmail")
    expect(page.locator("[data-testid=bid-confirm]")).to_be_disabled()
    assert_no_ids(page)


def test_each_round_the_strongest_chip_is_held_first(server: LiveServer, browser: Browser):
    state = RevolutionState(3, 7, RevolutionOptions())
    page = board_page(server, browser, state.view(0), bid_family(1, 1, 3))
    expect(page.locator("[data-key=supply-force]")).to_have_attribute("aria-pressed", "true")
    page.locator("[data-key=supply-gold]").click()
    expect(page.locator("[data-key=supply-gold]")).to_have_attribute("aria-pressed", "true")
    later = state.view(0)
    later["round"] = 2
    page.evaluate("(view) => window.redraw(view)", later)
    expect(page.locator("[data-key=supply-force]")).to_have_attribute("aria-pressed", "true")


def test_a_bid_never_uses_a_seventh_space(server: LiveServer, browser: Browser):
    state = RevolutionState(3, 7, RevolutionOptions())
    page = board_page(server, browser, state.view(0), bid_family(0, 0, 8))
    for name in ("general", "captain", "priest", "aristocrat", "merchant", "printer"):
        page.locator(f"[data-key=plus-{name}]").click()
    expect(page.locator("[data-key=plus-card][data-choice]")).to_have_count(0)
    expect(page.locator("[data-key=plus-printer][data-choice]")).to_have_count(1)  # a used space takes more


def marker_families(state: RevolutionState, kind: str) -> list[dict[str, Any]]:
    areas = [a for a in ("Tavern", "Fortress") if any(s != 0 and n for s, n in enumerate(state.board[a]))]
    if kind == "swap":
        both = {"kind": "choice", "options": ["Tavern", "Fortress"]}
        return [{"type": "swap", "params": [{"name": "first_area", "domain": both},
                                            {"name": "first_owner", "depends": True, "domain": None},
                                            {"name": "second_area", "depends": True, "domain": None},
                                            {"name": "second_owner", "depends": True, "domain": None}]},
                {"type": "decline", "params": []}]
    return [{"type": kind, "params": [{"name": "area", "domain": {"kind": "choice", "options": areas}},
                                      {"name": "victim", "depends": True, "domain": None}]}]


@pytest.mark.parametrize("kind", ["spy", "remove_influence"])
def test_an_opponents_marker_clicked_in_an_area_picks_the_area_and_the_victim(
        server: LiveServer, browser: Browser, kind: str):
    state = state_with_markers()
    page = board_page(server, browser, state.view(0), marker_families(state, kind))
    mine = page.locator("[data-marker=fortress-0]")
    assert mine.get_attribute("data-choice") is None  # one's own marker is not a victim
    page.locator("[data-marker=fortress-2]").click()
    assert draft(page) == {"type": kind, "values": {"area": "Fortress", "victim": 2}}
    page.locator("[data-marker=tavern-1]").first.click()
    assert draft(page) == {"type": kind, "values": {"area": "Tavern", "victim": 1}}
    assert page.locator("[data-key=area-market][data-choice]").count() == 0  # an empty area is not offered
    assert_no_ids(page)


def test_the_apothecary_swaps_two_markers_of_different_players_clicked_on_the_board(
        server: LiveServer, browser: Browser):
    state = state_with_markers()
    page = board_page(server, browser, state.view(0), marker_families(state, "swap"))
    page.locator("[data-marker=fortress-0]").click()  # the Apothecary may move the chooser's own marker
    page.locator("[data-marker=tavern-1]").first.click()
    assert draft(page) == {"type": "swap", "values": {"first_area": "Fortress", "first_owner": 0,
                                                      "second_area": "Tavern", "second_owner": 1}}
    # the first marker's owner is not a second choice
    assert page.locator("[data-marker=fortress-0][aria-pressed=true]").count() == 1


def test_a_chart_space_tooltip_carries_its_rule(server: LiveServer, browser: Browser):
    state = RevolutionState(3, 7, RevolutionOptions())
    page = board_page(server, browser, state.view(0), [])
    spy = page.locator("[data-key=space-spy]")
    expect(spy.locator("title").first).to_contain_text("never fills an empty space")
    expect(spy.locator("title").first).to_contain_text("Force may not be bid here")
    expect(page.locator("[data-key=area-fortress] > title")).to_contain_text("50 support")
    expect(page.locator("[data-testid=bid-confirm]")).to_have_count(0)  # nothing to decide, nothing to click
    expect(page.locator("[data-choice]")).to_have_count(0)


def test_the_bid_form_is_drawn_by_the_revolution_board_and_sends_a_whole_bid(
        server: LiveServer, browser: Browser):
    """With every action shown as a form, the bid's input comes from the game's own board (one
    space per chip, each currency only where the chart allows it) and sends the bid."""
    from tests.e2e.checks import show_forms

    created = server.create("revolution", ["open", "printer-first", "area-control"],
                            options={"max_rounds": 2}, window_seconds=0)
    page = browser.new_context(viewport=DESKTOP).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + created["invites"]["0"])
    page.fill("input[name=name]", "Marie-Jeanne")
    page.click("text=Join the table")
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("you must place all your chips")
    show_forms(page)
    form = page.locator("[data-testid=forms] form.action[data-kind=bid]")
    selects = form.locator(".bid select[data-currency]")
    expect(selects.first).to_be_visible()
    # the Spy takes no Force: the board's widget leaves it out of a Force chip's spaces
    force = form.locator(".bid select[data-currency=force]").first
    assert "Spy" not in force.locator("option").all_inner_texts()
    form.locator("[data-testid=act-bid]").click()
    expect(form.locator(".error")).to_have_text("place every chip on a space")
    for currency in ("force", "blackmail", "gold"):
        for select in form.locator(f".bid select[data-currency={currency}]").all():
            select.select_option(label=PREFERRED_SPACE[currency])
    form.locator("[data-testid=act-bid]").click()
    # the bid was taken: round 1's bid is no longer asked for (next: a power this bid won, or
    # waiting for the others, or round 2)
    expect(page.locator("[data-testid=status-sentence]")).not_to_contain_text("Round 1:")
    assert problems == []


PREFERRED_SPACE = {"force": "Printer", "blackmail": "Priest", "gold": "Card"}
