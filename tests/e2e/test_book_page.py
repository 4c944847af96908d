"""The Book of Public Safety on a phone (``/book``): its arithmetic equals book.py's on every
worked case and on random Books, a five-player game through three trials, CSV both ways, undo,
reload and offline use."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.server.conftest import LiveServer
from tricolore.games.culottes.book import (
    BASTILLE,
    PRIVILEGED,
    SANS_CULOTTE,
    BookOfPublicSafety,
    CakeVote,
    TrialClosing,
    close_trial,
)

PHONE: ViewportSize = {"width": 390, "height": 844}
SC, PR = SANS_CULOTTE, PRIVILEGED

# Every worked case of tests/culottes/test_book.py and tests/cli/test_cli.py: (votes, order).
WORKED_CASES: list[tuple[list[tuple[str, int, str]], list[str]]] = [
    ([("A", 1, SC), ("B", 2, SC), ("C", 3, SC), ("D", 2, PR), ("E", 2, PR)], list("ABCDE")),
    ([("A", 1, SC), ("B", 3, PR)], list("AB")),
    ([("A", 3, SC), ("B", 3, PR)], list("AB")),
    ([("A", 4, SC), ("B", 4, SC), ("D", 4, PR)], list("ABD")),
    ([("A", 1, SC), ("B", 1, SC), ("C", 1, PR)], ["B", "C", "A"]),
    ([("A", 1, SC), ("A", 2, SC), ("B", 2, PR)], list("AB")),
    ([("A", 3, SC), ("A", 1, PR)], ["A"]),
    ([("Robespierre", 3, PR), ("Marat", 1, SC)], ["Marat", "Robespierre"]),
    ([("A", 5, PR)], ["A"]),
    ([("A", 1, SC)], ["A"]),
]


def as_json(closing: TrialClosing) -> dict[str, Any]:
    """A closing as the page gives it, for comparison."""
    return {"verdict": closing.verdict, "winning_cakes": closing.winning_cakes,
            "lost_cakes": closing.lost_cakes, "bastille_vote": closing.bastille_vote,
            "leftover": closing.leftover,
            "rewards": [[r.voter, r.returned, r.reward] for r in closing.rewards],
            "lost": [[v, n] for v, n in closing.lost]}


JS_CLOSING = """c => ({verdict: c.verdict, winning_cakes: c.winning_cakes, lost_cakes: c.lost_cakes,
  bastille_vote: c.bastille_vote, leftover: c.leftover,
  rewards: c.rewards.map(r => [r.voter, r.returned, r.reward]), lost: c.lost.map(l => [l.voter, l.cakes])})"""


def phone(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)


def open_book(context: BrowserContext, server: LiveServer) -> tuple[Page, list[str]]:
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + "/book")
    page.wait_for_function("window.TricoloreBook !== undefined")
    return page, problems


def seating_order(seating: list[str], voter: str) -> list[str]:
    """Citizens from the left of the voter's player, the voter last (one citizen per player)."""
    i = seating.index(voter)
    return seating[i + 1:] + seating[:i + 1]


def test_the_page_closes_every_worked_case_as_book_py(server: LiveServer, browser: Browser):
    page, problems = open_book(phone(browser), server)
    for votes, order in WORKED_CASES:
        expected = as_json(close_trial([CakeVote(v, c, s) for v, c, s in votes], order))
        got = page.evaluate(f"([votes, order]) => ({JS_CLOSING})(TricoloreBook.closeTrial("
                            "votes.map(([voter, cakes, side]) => ({voter, cakes, side})), order))",
                            [votes, order])
        assert got == expected, (votes, order)
    assert not problems


def random_lines(rng: random.Random, seating: list[str], count: int) -> list[dict[str, Any]]:
    """A random Book's lines: cake votes, each followed by a die roll; a 5 or 6 closes the trial
    with the order from the voter's left."""
    lines: list[dict[str, Any]] = []
    for _ in range(count):
        voter, citizen = rng.choice(seating), rng.choice(seating)
        lines.append({"kind": "vote", "voter": voter, "citizen": citizen,
                      "cakes": rng.choice([1, 1, 2, 3, 4, 5, 7, 12, rng.randint(1, 60)]),
                      "side": rng.choice([SC, PR])})
        die = rng.randint(1, 6)
        lines.append({"kind": "roll", "die": die,
                      "order": seating_order(seating, voter) if die >= 5 else None})
    return lines


def book_py(lines: list[dict[str, Any]]) -> tuple[BookOfPublicSafety, list[dict[str, Any]]]:
    """The same lines written into book.py's Book: the Book and every closing."""
    book: BookOfPublicSafety = BookOfPublicSafety()
    closings = []
    last = None
    for line in lines:
        if line["kind"] == "vote":
            last = line
            book.write(line["voter"], line["citizen"], line["cakes"], line["side"])
        elif line["order"] is not None:
            assert last is not None
            closing = book.close(last["citizen"], line["order"])
            closings.append({"citizen": last["citizen"], **as_json(closing)})
    return book, closings


@pytest.mark.parametrize("seed", range(3))
def test_random_books_give_the_verdicts_and_csv_of_book_py(server: LiveServer, browser: Browser, seed: int):
    page, problems = open_book(phone(browser), server)
    rng = random.Random(seed)
    for trial in range(40):
        seating = rng.sample(["Robespierre", "Danton", "Marat", "Desmoulins", "Saint-Just", "Hébert",
                              'Couthon "le paralytique"', "Roland, Manon", "Fouché"], rng.randint(3, 9))
        lines = random_lines(rng, seating, rng.randint(1, 40))
        book, closings = book_py(lines)
        got = page.evaluate(f"""lines => {{
            const b = TricoloreBook.replay(lines);
            return {{closings: b.closings.map(c => ({{citizen: c.citizen, ...({JS_CLOSING})(c)}})),
                     csv: TricoloreBook.toCsv(b.rows)}};
        }}""", lines)
        assert got["closings"] == closings, (seed, trial)
        assert got["csv"] == book.to_csv()
        # the page reads book.py's CSV back to the same rows
        read = page.evaluate("text => TricoloreBook.toCsv(TricoloreBook.parseCsv(text))", book.to_csv())
        assert read == book.to_csv()
    assert not problems


@pytest.mark.parametrize("text", [
    "voter,citizen,cakes,side\nA,B,-2,privileged\n",
    "voter,citizen,cakes,side\nA,B,lots,privileged\n",
    "voter,citizen,cakes,side\nA,B,2,royalist\n",
    "who,what\n",
    "",
    "voter,citizen,cakes,side\nA,Bastille,2,privileged\n",
    "voter,citizen,cakes,side\nA,B,2,privileged,1,9\n",
    "voter,citizen,cakes,side,closed\nA,B,2,privileged,one\n",
    "Voter , Citizen,cakes,SIDE\n\n A ,B, 3 ,S\n\"C,D\",\"E\"\"F\",+4,p\n",
    "voter,citizen,cakes,side,closed\r\nA,B,2,P,3\r\nC,B,1,sans culotte,\r\n",
])
def test_csv_is_read_and_refused_as_book_py_does(server: LiveServer, browser: Browser, text: str):
    page, _ = open_book(phone(browser), server)
    try:
        expected: dict[str, str] = {"csv": BookOfPublicSafety.from_csv(text).to_csv()}
    except ValueError as exc:
        expected = {"error": str(exc)}
    got = page.evaluate("""text => { try { return {csv: TricoloreBook.toCsv(TricoloreBook.parseCsv(text))}; }
                                     catch (e) { return {error: e.message}; } }""", text)
    assert got == expected


# A five-player game: each line is (voter, citizen, cakes, side, die).
GAME = [
    ("Robespierre", "Danton", 3, PR, 2),
    ("Marat", "Danton", 1, SC, 4),
    ("Desmoulins", "Danton", 2, SC, 1),
    ("Saint-Just", "Danton", 2, PR, 6),      # Danton's trial closes: 5 against 3, privileged
    ("Danton", "Marat", 4, SC, 3),
    ("Robespierre", "Marat", 1, PR, 2),
    ("Marat", "Marat", 2, SC, 5),            # Marat's trial closes: 6 against 1, sans-culotte
    ("Desmoulins", "Robespierre", 2, SC, 1),
    ("Saint-Just", "Robespierre", 2, PR, 3),
    ("Danton", "Robespierre", 1, PR, 4),
    ("Marat", "Robespierre", 3, SC, 5),      # Robespierre's trial closes: 5 against 3
    ("Robespierre", "Danton", 1, SC, 2),     # a new trial for Danton, still open
]
SEATING = ["Robespierre", "Marat", "Desmoulins", "Saint-Just", "Danton"]


def choose(page: Page, which: str, name: str) -> None:
    chip = page.locator(f"#{which}-names [data-name='{name}']")
    if chip.count():
        chip.tap()
    else:
        page.fill(f"#{which}", name)


def write_vote(page: Page, voter: str, citizen: str, cakes: int, side: str) -> None:
    choose(page, "voter", voter)
    choose(page, "citizen", citizen)
    shown = int(page.text_content("#cakes") or "1")
    for _ in range(abs(cakes - shown)):
        page.tap("#cakes-plus" if cakes > shown else "#cakes-minus")
    expect(page.locator("#cakes")).to_have_text(str(cakes))
    page.tap(f"[data-side={side}]")
    page.tap("#write")


def page_closings(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("""() => [...document.querySelectorAll('article.closing')].reverse().map(a => ({
        citizen: a.dataset.citizen, verdict: a.dataset.verdict, winning_cakes: +a.dataset.winning,
        lost_cakes: +a.dataset.lost, bastille_vote: +a.dataset.bastilleVote, leftover: +a.dataset.leftover,
        rewards: [...a.querySelectorAll('[data-voter]')]
          .map(r => [r.dataset.voter, +r.dataset.returned, +r.dataset.reward]),
        lost: [...a.querySelectorAll('[data-lost-voter]')]
          .map(l => [l.dataset.lostVoter, +l.dataset.cakes])}))""")


def test_a_five_player_game_through_three_trials_on_a_phone(server: LiveServer, browser: Browser, output):
    context = phone(browser)
    page, problems = open_book(context, server)
    lines: list[dict[str, Any]] = []
    for i, (voter, citizen, cakes, side, die) in enumerate(GAME):
        write_vote(page, voter, citizen, cakes, side)
        expect(page.locator("#dice")).to_be_visible()
        if i == 3:  # every citizen is at the table: Danton sits last, on Robespierre's right
            for _ in range(3):
                page.tap("[aria-label='Move Danton down']")
        page.tap(f"[data-die='{die}']")
        lines.append({"kind": "vote", "voter": voter, "citizen": citizen, "cakes": cakes, "side": side})
        order = seating_order(SEATING, voter) if die >= 5 else None
        lines.append({"kind": "roll", "die": die, "order": order})
    expect(page.locator("#seating li")).to_have_count(5)
    assert page.eval_on_selector_all("#seating li", "els => els.map(e => e.dataset.seat)") == SEATING
    book, closings = book_py(lines)
    assert [c["citizen"] for c in closings] == ["Danton", "Marat", "Robespierre"]
    assert page_closings(page) == closings
    # every touch target is large enough for a finger
    for box in page.eval_on_selector_all(
            "#write, [data-side], [data-die], #cakes-plus, #cakes-minus, #voter-names button",
            "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().height)"):
        assert box >= 44
    # the rulebook's words
    danton = page.locator("article.closing[data-citizen='Danton']")
    expect(danton.locator(".verdict")).to_contain_text("Verdict: privileged")
    expect(danton.locator(".verdict")).to_contain_text("is said to be a privileged")
    marat = page.locator("article.closing[data-citizen='Marat']")
    expect(marat.locator(".verdict")).to_contain_text("Marat is given a Phrygian cap")
    expect(marat).to_contain_text(
        "the Bastille is considered to have voted sans-culotte with 6 − 1 = 5 cakes")
    # closed trials are marked; Danton's new trial is open
    expect(page.locator("tr[data-closed]")).to_have_count(11)
    expect(page.locator("tr[data-row='12'][data-closed]")).to_have_count(0)
    expect(page.locator("[data-open-trial]")).to_have_count(1)
    expect(page.locator("[data-open-trial='Danton']")).to_contain_text("1 sans-culotte, 0 privileged")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(output / "book.png"), full_page=True)

    # the exported CSV is book.py's, and `tricolore book` reads it
    with page.expect_download() as download:
        page.tap("#export")
    exported = download.value.path().read_text(encoding="utf-8")
    assert exported == book.to_csv()
    assert BookOfPublicSafety.from_csv(exported).closings == 3

    # a reload keeps the Book
    page.reload()
    page.wait_for_function("window.TricoloreBook !== undefined")
    assert page_closings(page) == closings
    expect(page.locator("#book-rows tr")).to_have_count(12)

    # undo the last line twice: the roll, then the vote that opened Danton's second trial
    page.tap("#undo")
    expect(page.locator("#dice")).to_be_visible()
    page.tap("#undo")
    expect(page.locator("#book-rows tr")).to_have_count(11)
    expect(page.locator("[data-open-trial]")).to_have_count(0)
    page.tap("#undo")  # the roll that closed Robespierre's trial: it opens again
    expect(page.locator("article.closing")).to_have_count(2)
    expect(page.locator("[data-open-trial='Robespierre']")).to_contain_text("5 sans-culotte, 3 privileged")
    assert not problems


def test_a_citizens_player_is_rewarded_last_and_the_order_is_kept(server: LiveServer, browser: Browser):
    page, problems = open_book(phone(browser), server)
    # Marat and Hébert belong to one player; Marat's vote closes the trial, so that player's
    # citizens come last: on equal weights Danton, then Hébert, then Marat.
    for voter in ("Danton", "Hébert", "Marat"):
        write_vote(page, voter, "Roland", 2, SC)
        page.tap("[data-die='1']")
    page.fill("[data-player-of='Hébert']", "Paris")
    page.dispatch_event("[data-player-of='Hébert']", "change")
    page.fill("[data-player-of='Marat']", "Paris")
    page.dispatch_event("[data-player-of='Marat']", "change")
    write_vote(page, "Danton", "Roland", 1, PR)
    page.tap("[data-die='2']")
    write_vote(page, "Marat", "Roland", 1, PR)
    page.tap("[data-die='6']")
    order = page.evaluate("JSON.parse(localStorage.getItem('tricolore-book')).lines.at(-1).order")
    assert order == ["Danton", "Roland", "Hébert", "Marat"]
    book: BookOfPublicSafety = BookOfPublicSafety()
    for v, c, s in [("Danton", 2, SC), ("Hébert", 2, SC), ("Marat", 2, SC), ("Danton", 1, PR),
                    ("Marat", 1, PR)]:
        book.write(v, "Roland", c, s)
    expected = as_json(book.close("Roland", order))
    assert [r[0] for r in expected["rewards"]] == [BASTILLE, "Danton", "Hébert", "Marat"]
    assert [{k: v for k, v in c.items() if k != "citizen"} for c in page_closings(page)] == [expected]
    assert not problems


def test_import_of_a_book_py_csv_and_its_errors(server: LiveServer, browser: Browser, tmp_path):
    page, problems = open_book(phone(browser), server)
    book: BookOfPublicSafety = BookOfPublicSafety()
    book.write("Robespierre", "Danton", 3, PR)
    book.write("Marat", "Danton", 1, SC)
    book.close("Danton", ["Marat", "Robespierre"])
    book.write("Marat", "Robespierre", 2, SC)
    path = tmp_path / "book.csv"
    path.write_text(book.to_csv(), encoding="utf-8")
    page.set_input_files("#import-file", str(path))
    expect(page.locator("#message")).to_contain_text("Read 3 rows from book.csv")
    expect(page.locator("tr[data-closed='1']")).to_have_count(2)
    expect(page.locator("[data-open-trial='Robespierre']")).to_contain_text("2 sans-culotte")
    # the next closing is numbered after the imported ones, as book.py numbers them
    write_vote(page, "Danton", "Robespierre", 1, PR)
    page.tap("[data-die='5']")
    expect(page.locator("article.closing[data-closing='2']")).to_have_attribute("data-verdict", SC)
    page.fill("#csv", "voter,citizen,cakes,side\nA,B,lots,privileged\n")
    page.tap("#import-text")
    expect(page.locator("#message")).to_have_text(
        "The pasted Book, line 2: cakes must be a whole number, not 'lots'.")
    expect(page.locator("#book-rows tr")).to_have_count(4)  # a refused file changes nothing
    assert not problems


def test_the_page_works_offline_after_the_first_load(server: LiveServer, browser: Browser):
    context = phone(browser)
    page, problems = open_book(context, server)
    registered = page.evaluate("""Promise.race([navigator.serviceWorker.ready.then(() => 'ready'),
        new Promise(done => setTimeout(() => done('none'), 10000))])""")
    assert registered == "ready"
    write_vote(page, "Robespierre", "Danton", 3, PR)
    page.tap("[data-die='1']")
    # once the worker controls the page, everything it needs is cached
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    assert page.evaluate("fetch('/api/games').then(() => 'online', () => 'offline')") == "offline"
    page.reload()
    page.wait_for_function("window.TricoloreBook !== undefined")
    expect(page.locator("#book-rows tr")).to_have_count(1)
    write_vote(page, "Marat", "Danton", 4, SC)
    page.tap("[data-die='6']")
    expect(page.locator("article.closing[data-citizen='Danton']")).to_have_attribute("data-verdict", SC)
    other = context.new_page()
    other.goto(server.base + "/book")
    expect(other.locator("#book-rows tr[data-closed='1']")).to_have_count(2)
    context.set_offline(False)
    assert not problems
    assert json.loads(page.evaluate("localStorage.getItem('tricolore-book')"))["lines"][-1]["die"] == 6
