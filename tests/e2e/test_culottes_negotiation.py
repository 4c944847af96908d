"""End to end in headless Chromium: a Culottes bribe made by two people (one at a desktop, one on a
phone) through the drawn controls only: offered from the other player's panel with the trial's pan
and the steppers, countered and offered again on the offer cards, accepted, held in escrow on the
trial's scale and settled when the trial closes; an alliance founded on a pan and joined from its
card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e.checks import assert_no_ids, confirm, moment_said, sit, summary, take
from tests.server.conftest import LiveServer, Socket
from tricolore.games.culottes.rules import CulottesState

SEED = 1
"""With this seed the dice of the first three cake votes roll 3, 3 and 5: the trial the first vote
opens stays open through the second and closes at the third."""
PLAYERS = ["Camille", "Lucile", "Georges"]
CITIZENS = ["Robespierre", "Danton", "Marat"]
SIZES = [ViewportSize(width=1280, height=900), ViewportSize(width=390, height=844)]  # a phone
OFFER = ("Robespierre bribes Danton to vote privileged on Marat: if privileged loses, Danton gets back "
         "up to 5 lost cakes and 2 more. Robespierre puts 7 cakes in escrow now.")
COUNTER = ("Lucile counters Robespierre's bribe to Danton: Danton votes privileged on Marat if, when "
           "privileged loses, Danton gets back up to 6 lost cakes and 3 more (9 cakes in escrow). "
           "The bribe offered now (up to 5 lost cakes and 2 more) is declined.")
OFFERED_AGAIN = OFFER.replace("5 lost cakes and 2", "6 lost cakes and 3").replace("7 cakes", "9 cakes")
OFFER_CARD = OFFER.replace(" Robespierre puts 7 cakes in escrow now.", " 7 cakes held in escrow.")
COUNTER_CARD = COUNTER.replace("Lucile counters", "").replace("The bribe offered now", "The first offer")
ESCROW = "escrow (cakes the engine holds until the trial closes, then pays out by the deal's terms)"
BRIBE = ("bribes (a P+ε bribe (P plus epsilon): if the bribed citizen votes the briber's side and that "
         "side loses, the briber makes good its lost cakes and adds a reward)")
FOUNDED = "Danton founds an alliance voting privileged on Marat and puts a 1-cake deposit in escrow."
JOINS = "Robespierre joins the alliance voting privileged on Marat and puts a 1-cake deposit in escrow."
SETTLED = ("Robespierre's bribe to Danton is settled: it voted as promised, paid 1 back and 3 more; "
           "5 cakes back to the briber.")


def card(page: Page, key: str) -> Locator:
    return page.locator(f"[data-testid=offers] [data-testid=offer][data-key={key}]")


def on_board(page: Page, key: str) -> Locator:
    return page.locator(f"[data-testid=culottes-table] [data-key={key}]")


def panel_button(page: Page, seat: int, kind: str) -> Locator:
    return page.locator(f"[data-testid=players] li[data-seat='{seat}'] [data-testid=deal-{kind}]")


def step_to(page: Page, param: str, to: int) -> None:
    """Step the draft's amount ``param`` to ``to`` with the status bar's − and + buttons."""
    stepper = page.locator(f"[data-testid=decision] [data-stepper={param}]")
    expect(stepper).to_be_visible()
    while (now := int(stepper.locator("output").inner_text())) != to:
        stepper.locator(f"button[aria-label^={'more' if now < to else 'fewer'}]").click()


def check(pages: list[Page], output: Path, shot: str) -> None:
    for page, suffix in zip(pages, ("", "-phone"), strict=True):
        assert_no_ids(page)
        page.screenshot(path=output / f"{shot}{suffix}.png", full_page=True)


def test_a_bribe_is_offered_countered_accepted_and_settled_and_an_alliance_joined_on_both_boards(
        server: LiveServer, browser: Browser, output: Path):
    created = server.store.create("culottes", 3, ["open"] * 3, {"first_player": 0}, seed=SEED)
    table = created.table_id
    seated = [sit(server.base, browser, f"/table/{table}#invite={created.invites[s]}", PLAYERS[s], SIZES[s])
              for s in range(2)]
    pages = [page for page, _ in seated]
    camille, lucile = pages
    server.join(f"#invite={created.invites[2]}", PLAYERS[2])

    # The opening moves over a second connection per seat: roles (naming the citizens), then
    # Robespierre's cake vote opens Marat's trial and Camille's turn ends; Lucile plays Danton.
    devices = [page.evaluate("localStorage.getItem('tricolore:device')") for page in pages] + [None]
    socks: list[Socket] = [server.socket(table, created.invites[s], devices[s]) for s in range(3)]
    for seat, citizen in enumerate(CITIZENS):
        assert socks[seat].act({"type": "choose_role", "role": "revolutionary", "name": citizen},
                               f"role-{seat}")["type"] == "ack"
    opening: list[dict[str, Any]] = [{"type": "cake_vote", "citizen": 2, "side": "privileged", "cakes": 2},
                                     {"type": "pass"}, {"type": "pass"}]
    for n, action in enumerate(opening):
        assert socks[0].act(action, f"opening-{n}")["type"] == "ack"
    state = server.store.live[table].state
    assert isinstance(state, CulottesState)
    assert state.trials_open() == [2], "the seed no longer leaves the first trial open"
    for sock in socks[:2]:
        sock.close()

    # Camille bribes Danton from Lucile's panel: the trial and side on Marat's privileged pan,
    # the reward and the lost cakes paid back on the steppers.
    panel_button(camille, 1, "offer_bribe").click()
    expect(camille.locator("[data-testid=decision]")).to_have_attribute("data-draft", "offer_bribe")
    expect(camille.locator("[data-testid=confirm]")).to_be_disabled()  # no trial yet
    on_board(camille, "pan-2-privileged").click()
    expect(on_board(camille, "pan-2-privileged")).to_have_attribute("aria-pressed", "true")
    step_to(camille, "reward", 2)
    step_to(camille, "cover", 5)
    expect(summary(camille)).to_have_text(OFFER)
    expect(summary(camille).locator("abbr.term", has_text="escrow")).to_have_attribute("aria-label", ESCROW)
    expect(summary(camille).locator("abbr.term", has_text="bribes")).to_have_attribute("aria-label", BRIBE)
    check(pages, output, "1-bribe-drafted")
    confirm(camille)

    # Lucile reads it as a card, with its escrow on Marat's scale, and counters it.
    offered = card(lucile, "bribe-0")
    expect(offered).to_contain_text(OFFER_CARD)
    expect(offered.locator("[data-testid=offer-status]")).to_have_text("for you to answer")
    expect(lucile.locator("[data-testid=offers-awaiting]")).to_have_text("1 to answer")
    expect(card(camille, "bribe-0").locator("[data-testid=withdraw-bribe]")).to_be_visible()
    for page in pages:
        expect(on_board(page, "escrow-bribe-0")).to_contain_text("Robespierre → Danton (offered)")
        expect(on_board(page, "escrow-cakes")).to_have_text("7")
    check(pages, output, "2-bribe-offered")
    offered.locator("[data-testid=counter-bribe]").click()
    expect(lucile.locator("[data-testid=decision]")).to_have_attribute("data-draft", "counter_bribe")
    step_to(lucile, "reward", 3)
    step_to(lucile, "cover", 6)
    expect(summary(lucile)).to_have_text(COUNTER)
    check(pages, output, "3-counter-drafted")
    confirm(lucile)

    # Camille sees the counter-offer (her first offer declined by it) and offers its terms.
    countered = camille.locator("[data-testid=offers] [data-testid=offer][data-key^=proposal-]")
    expect(countered).to_contain_text(COUNTER_CARD)
    expect(card(camille, "bribe-0").locator("[data-testid=offer-status]")).to_have_text(
        "declined: the deposit went back")
    expect(on_board(camille, "escrow-bribe-0")).to_have_count(0)
    countered.locator("[data-testid=offer-these-terms]").click()
    expect(camille.locator("[data-testid=decision]")).to_have_attribute("data-draft", "offer_bribe")
    expect(summary(camille)).to_have_text(OFFERED_AGAIN)
    confirm(camille)
    expect(countered.locator("[data-testid=offer-status]")).to_have_text("you offered these terms")

    # Lucile accepts the new offer on its card: the bribe is marked on Danton's sheet.
    again = card(lucile, "bribe-1")
    expect(again.locator("[data-testid=offer-status]")).to_have_text("for you to answer")
    again.locator("[data-testid=accept-bribe]").click()
    for page in pages:
        expect(card(page, "bribe-1").locator("[data-testid=offer-status]")).to_have_text(
            "accepted: it binds both until the trial closes")
        expect(on_board(page, "bribed-1")).to_contain_text("bribed")
        expect(on_board(page, "escrow-bribe-1")).to_contain_text("9Robespierre → Danton (accepted)")
        expect(page.locator("[data-testid=log]")).to_contain_text("Danton accepts Robespierre's bribe.")
    check(pages, output, "4-bribe-accepted")

    # Lucile founds an alliance from Camille's panel on Marat's privileged pan; Camille joins it
    # from its card.
    panel_button(lucile, 0, "found_alliance").click()
    expect(lucile.locator("[data-testid=decision]")).to_have_attribute("data-draft", "found_alliance")
    on_board(lucile, "pan-2-privileged").click()
    expect(summary(lucile)).to_have_text(FOUNDED)
    confirm(lucile)
    joining = card(camille, "alliance-0")
    joining.locator("[data-testid=join-alliance]").click()
    expect(camille.locator("[data-testid=decision]")).to_have_attribute("data-draft", "join_alliance")
    expect(summary(camille)).to_have_text(JOINS)
    confirm(camille)
    for page in pages:
        expect(on_board(page, "alliance-0")).to_contain_text("2Alliance privileged: Danton, Robespierre")
        expect(on_board(page, "escrow-cakes")).to_have_text("11")
    check(pages, output, "5-alliance-joined")

    # Danton keeps the promise on the board: one cake on Marat's privileged pan (the die rolls 3).
    on_board(lucile, "pan-2-privileged").click()
    expect(lucile.locator("[data-testid=decision]")).to_have_attribute("data-draft", "cake_vote")
    confirm(lucile)
    expect(lucile.locator("[data-testid=log]")).to_contain_text(
        "Danton votes 1 cake that Marat is privileged.")
    take(lucile, "pass")  # Danton's steps
    take(lucile, "pass")  # no recruit: Georges plays Marat
    assert state.trials_open() == [2]

    # Marat votes six cakes sans-culotte on its own trial: the die rolls 5, the trial closes,
    # privileged loses and escrow pays Danton its lost cake and the reward.
    closing = {"type": "cake_vote", "citizen": 2, "side": "sans_culotte", "cakes": 6}
    assert socks[2].act(closing, "close")["type"] == "ack"
    socks[2].close()
    for page in pages:
        expect(page.locator("[data-testid=log]")).to_contain_text(SETTLED)
        expect(page.locator("[data-testid=log]")).to_contain_text(
            "The alliance voting privileged on Marat is settled: loyal Danton; 0 cakes forfeited.")
        expect(page.locator("[data-testid=culottes-table] [data-key^=escrow-bribe-]")).to_have_count(0)
        expect(on_board(page, "scale-2")).to_have_count(0)
        expect(on_board(page, "escrow-cakes")).to_have_text("0")
        expect(on_board(page, "bribed-1")).to_have_count(0)
        expect(card(page, "bribe-1").locator("[data-testid=offer-status]")).to_have_text(
            "settled: Danton was paid 4 cakes, the rest went back")
        page.wait_for_function("(w) => (window.__moments || []).some((t) => t.includes(w))",
                               arg="is settled", timeout=5000)
        assert moment_said(page, "is settled")
    check(pages, output, "6-settled")
    deals = state.view(None)["deals"]
    assert [(d["status"], d["reward"], d["cover"], d["paid"]) for d in deals] == [
        ("declined", 2, 5, 0), ("paid", 3, 6, 4)]
    assert [problems for _, problems in seated] == [[], []]
