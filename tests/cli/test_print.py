"""``tricolore print``: the paper material of Culottes and its trials, read back from the PDF."""

import io
import math
import re
from collections import Counter
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.games.culottes.book import BookOfPublicSafety
from tricolore.games.culottes.paper import (
    FLAP_WORDS,
    SCORING_STEPS,
    TURN_STEPS,
    book_rows,
    culottes_pdf,
    shuffled_natures,
    trials_pdf,
)

runner = CliRunner()
SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def run(*args: str):
    return runner.invoke(app, ["print", *args])


def printed(tmp_path: Path, *args: str) -> PdfReader:
    out = tmp_path / "sheets.pdf"
    result = run(*args, "--out", str(out))
    assert result.exit_code == 0, result.output
    return PdfReader(out)


def texts(reader: PdfReader) -> list[str]:
    return [page.extract_text() for page in reader.pages]


def flap_natures(reader: PdfReader) -> list[str]:
    """The nature on each page's flap, in page order, for the pages that have one."""
    found = []
    for text in texts(reader):
        words = [nature for nature, word in FLAP_WORDS.items() if word in text]
        assert len(words) <= 1, text
        found.extend(words)
    return found


def size_of(page) -> tuple[float, float]:
    return round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)


@pytest.mark.parametrize("players", [3, 5, 12])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_culottes_has_two_sheets_per_player_the_bastille_the_book_and_a_card_per_player(
        tmp_path, players, paper):
    reader = printed(tmp_path, "culottes", "--players", str(players), "--paper", paper, "--seed", "4")
    pages = texts(reader)
    assert len(pages) == 2 * players + 1 + 2 + math.ceil(players / 2)
    assert {size_of(page) for page in reader.pages} == {SIZES[paper]}
    assert sum("Citizen sheet" in text for text in pages) == 2 * players
    assert len(flap_natures(reader)) == 2 * players
    assert [i for i, text in enumerate(pages) if "The Bastille fortress" in text] == [2 * players]
    assert sum("Book of Public Safety" in text and "page " in text for text in pages) == 2
    assert sum(text.count("Calculate your score\n") for text in pages) == players


def test_the_summary_line_names_where_each_part_is(tmp_path):
    out = tmp_path / "table.pdf"
    result = run("culottes", "--players", "4", "--seed", "1", "--out", str(out))
    assert result.exit_code == 0
    assert "13 pages on A4 for 4 players (citizen sheets 1-8; Bastille 9; Book of Public Safety 10-11; " \
           "reminder cards 12-13)" in result.output.replace("\n", "")


@pytest.mark.parametrize("players, sheets", [(4, 2), (5, 2), (3, 3), (7, 5)])
def test_half_the_flaps_say_sans_culotte_and_an_odd_stack_draws_its_last_one(tmp_path, players, sheets):
    counts = Counter(flap_natures(printed(tmp_path, "culottes", "--players", str(players), "--seed", "9",
                                          "--sheets-per-player", str(sheets))))
    size = players * sheets
    assert sum(counts.values()) == size
    assert min(counts.values(), default=0) == size // 2
    assert max(counts.values()) == size - size // 2


def test_the_odd_sheet_is_either_nature_and_the_seed_fixes_the_order():
    majorities = {Counter(shuffled_natures(3, 3, seed)).most_common(1)[0][0] for seed in range(40)}
    assert majorities == {"sans_culotte", "privileged"}
    assert shuffled_natures(6, 2, 11) == shuffled_natures(6, 2, 11)
    assert len({tuple(shuffled_natures(6, 2, seed)) for seed in range(20)}) > 10
    first, _ = culottes_pdf(6, "a4", 11)
    again, _ = culottes_pdf(6, "a4", 11)
    assert first == again


def test_the_pdf_shows_the_flaps_in_the_shuffled_order(tmp_path):
    reader = printed(tmp_path, "culottes", "--players", "6", "--seed", "23")
    assert flap_natures(reader) == shuffled_natures(6, 2, 23)


def positions(page) -> list[tuple[str, float]]:
    """Each piece of text on the page with the height of its baseline."""
    found: list[tuple[str, float]] = []
    page.extract_text(visitor_text=lambda text, cm, tm, font, size:
                      found.append((text.strip(), cm[5] + tm[5])) if text.strip() else None)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_flap_lies_below_the_fold_and_folding_it_backward_hides_it(paper):
    data, _ = culottes_pdf(3, paper, 2)
    page = PdfReader(io.BytesIO(data)).pages[0]
    placed = positions(page)
    fold = next(y for text, y in placed if text.startswith("fold backward along this line"))
    nature = next(y for text, y in placed if text in FLAP_WORDS.values())
    role = next(y for text, y in placed if text == "Role")
    name = next(y for text, y in placed if text == "Name of this citizen")
    assert nature < fold and role < fold < name
    # folded backward, the flap fits behind the public part of the sheet
    assert fold < float(page.mediabox.height) - fold
    public = [text for text, y in placed if y > fold]
    assert not any(word in text for text in public for word in FLAP_WORDS.values())


def test_the_reminder_card_has_the_ten_steps_of_a_turn_and_the_eight_of_scoring(tmp_path):
    reader = printed(tmp_path, "culottes", "--players", "3", "--seed", "1")
    card = " ".join(texts(reader)[-2].split())
    assert card.count("Your turn Calculate your score Step 1") == 2
    for number, (heading, _) in enumerate(TURN_STEPS, start=1):
        assert card.count(f"Step {number} : {heading}") == 2
    for number, step in enumerate(SCORING_STEPS, start=1):
        assert card.count(f"{number}. {' '.join(step.split()[:6])}") == 2
    assert "Step 11" not in card
    assert len(TURN_STEPS) == 10 and len(SCORING_STEPS) == 8


def test_the_book_has_the_columns_tricolore_book_reads_and_numbers_its_rows_across_pages(tmp_path):
    reader = printed(tmp_path, "culottes", "--players", "3", "--seed", "1", "--book-pages", "3")
    pages = [text for text in texts(reader) if "Book of Public Safety\n" in text and "page " in text]
    assert [re.search(r"page (\d) of 3", text).group(1) for text in pages] == ["1", "2", "3"]
    header = re.search(r"#\s*voter\s*citizen\s*cakes\s*side\s*S / P\s*die\s*closed", pages[0])
    assert header is not None
    rows = book_rows(SIZES["a4"][1])
    numbers = [int(n) for n in re.findall(r"^\s*(\d+)\s*$", pages[2], re.M)]
    assert numbers == list(range(2 * rows + 1, 3 * rows + 1))
    # the columns as printed, copied into a CSV, are what the Book reads
    book = BookOfPublicSafety.from_csv("voter,citizen,cakes,side,closed\nRobespierre,Danton,3,P,\n")
    assert book.rows[0].side == "privileged" and book.rows[0].closing is None


def test_the_bastille_sheet_gives_the_reward_rule_and_the_worked_example(tmp_path):
    reader = printed(tmp_path, "culottes", "--players", "3", "--seed", "1")
    bastille = " ".join(texts(reader)[6].split())
    assert "Only citizens wearing the Phrygian cap are allowed to receive Bastille cakes." in bastille
    assert "Of the 4 lost cakes C gets 2, the Bastille 1, B 1 and A none." in bastille
    assert "Step 9 : Distribute Bastille cakes" in bastille


@pytest.mark.parametrize("players, grabbers", [(3, 0), (4, 1), (6, 2), (9, 3), (12, 5)])
def test_trials_have_a_rules_card_per_player_role_cards_and_a_record(tmp_path, players, grabbers):
    reader = printed(tmp_path, "culottes-trials", "--players", str(players), "--paper", "letter")
    pages = texts(reader)
    cards = math.ceil(players / 2)
    role_pages = math.ceil((players - 1 + grabbers) / 8)
    assert len(pages) == cards + role_pages + 1
    assert sum(text.count(f"Revolutionary trials · {players} players") for text in pages) == players
    roles = " ".join(pages[cards:cards + role_pages])
    assert roles.count("REVOLUTIONARY") == players - 1
    assert roles.count("GRABBER") == grabbers
    record = pages[-1]
    assert "the record" in record and f"P{players}" in record and f"P{players + 1}" not in record
    assert size_of(reader.pages[-1]) == SIZES["letter"][::-1]
    assert {size_of(page) for page in reader.pages[:-1]} == {SIZES["letter"]}
    designate = "nobody else" if grabbers == 0 else f"at most {grabbers} other player"
    assert designate in " ".join(pages[0].split())


def test_every_page_renders_with_ink_on_it():
    for data in (culottes_pdf(5, "a4", 3)[0], trials_pdf(5, "letter")[0]):
        document = pypdfium2.PdfDocument(data)
        for page in document:
            image = page.render(scale=0.5).to_pil().convert("L")
            width, height = image.size
            assert abs(width / height - page.get_width() / page.get_height()) < 0.01
            dark = sum(image.histogram()[:128])
            assert dark > 0.002 * width * height


@pytest.mark.parametrize("args, sentence", [
    (["culottes", "--players", "13"], "Culottes is played by 3 to 12 players, not 13"),
    (["culottes-trials", "--players", "2"], "is played by 3 to 12 players, not 2"),
    (["culottes", "--paper", "a3"], "--paper must be a4 or letter, not 'a3'"),
    (["culottes", "--sheets-per-player", "1"], "--sheets-per-player must be from 2"),
    (["culottes", "--book-pages", "0"], "--book-pages must be from 1 to 20, not 0"),
    (["revolution"], "there is paper material for culottes and culottes-trials only"),
])
def test_bad_input_gets_one_sentence(tmp_path, args, sentence):
    out = tmp_path / "sheets.pdf"
    result = run(*args, "--out", str(out))
    assert result.exit_code == 1
    assert sentence in result.output and "Traceback" not in result.output
    assert result.output.count("\n") == 1
    assert not out.exists()


def test_an_unwritable_path_gets_one_sentence(tmp_path):
    for out, why in ((tmp_path, "it is a folder"), (tmp_path / "missing" / "x.pdf", "no such file")):
        result = run("culottes", "--players", "4", "--out", str(out))
        assert result.exit_code == 1
        assert f"error: cannot use {out}: {why}" in result.output.replace("\n", "")
        assert "Traceback" not in result.output


def test_a_file_name_that_is_not_utf8_is_written_and_named_escaped(tmp_path):
    out = tmp_path / "sheets\udcff.pdf"
    result = run("culottes-trials", "--players", "4", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.exists() and len(PdfReader(out).pages) == 2 + 1 + 1
    assert "sheets\\udcff.pdf: 4 pages on A4 for 4 players" in result.output
