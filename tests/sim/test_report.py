"""The HTML report of a results file, and the ``report`` command's refusals."""

import re

import pytest
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.sim.batch import GameRow
from tricolore.sim.report import (
    ReportError,
    Section,
    Table,
    rates_figure,
    render_page,
    results_page,
    results_sections,
    svg,
)
from tricolore.sim.results import write

runner = CliRunner()

JOB = {"game": "culottes", "players": 3, "seats": ["grabby", "honest", "random"], "pool": False,
       "rotate": True, "seed": 0, "options": {}, "games": 12}


def culottes_rows(n=12):
    """Hand-made Culottes-like games: grabby always wins, three seats, roles and metrics."""
    names = ("grabby", "honest", "random")
    rows = []
    for i in range(n):
        turn = i % 3
        seats = tuple(names[(s + turn) % 3] for s in range(3))
        scores = tuple({"grabby": 20.0, "honest": 10.0 + i % 2, "random": -3.0}[s] for s in seats)
        roles = tuple("grabber" if s == "grabby" else "revolutionary" for s in seats)
        rows.append(GameRow(i, seats, scores, (seats.index("grabby"),), 100 + i,
                            {"rounds": 5.0 + i % 3, "turns": 20.0 + i, "riots": float(i % 4)}, roles))
    return rows


def headings(page):
    return re.findall(r"<h2>(.*?)</h2>", page)


def test_the_report_has_a_figure_and_a_table_in_every_section_and_names_its_games():
    page = results_page(culottes_rows(), JOB, "x.parquet")
    assert headings(page) == ["Job", "Win rate per strategy", "Seat advantage", "Scores per strategy",
                              "Game length", "Game metrics", "By role", "Ratings", "Head to head"]
    assert page.count("<svg") == 8  # every section but the job has its figure
    assert page.count("<table") == 9
    assert page.count("(12 games)") >= 8  # every figure's title names the games behind it
    assert "riots" in page and "grabber" in page and "fair share" in page


def test_the_report_refers_to_no_other_file():
    page = results_page(culottes_rows(), JOB)
    assert "http" not in page
    assert not re.search(r"<(script|link|img|iframe)\b", page)
    # only links to its own sections, and pictures carried in the page itself
    assert not re.search(r"\b(src|href)=\"(?!#|data:image/png;base64,)", page)
    assert "@import" not in page and "url(" not in re.sub(r"url\(#[\w-]+\)", "", page)


def test_figures_on_one_page_never_share_an_id():
    page = results_page(culottes_rows(), JOB)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    for ref in re.findall(r'(?:href="#|url\(#)([\w.-]+)', page):
        assert ref in ids


def test_the_same_rows_give_the_same_page():
    assert results_page(culottes_rows(), JOB) == results_page(culottes_rows(), JOB)


def test_a_game_without_roles_or_metrics_has_no_role_or_metric_section():
    rows = [GameRow(i, ("a", "b"), (float(i % 2), 1.0 - i % 2), (i % 2 ^ 1,), 10, {}) for i in range(6)]
    page = results_page(rows, None)
    assert "By role" not in headings(page) and "Game metrics" not in headings(page)
    assert "Ratings" in headings(page)


def test_a_single_strategy_has_no_ratings_or_head_to_head():
    rows = [GameRow(i, ("a", "a"), (1.0, 2.0), (1,), 10, {}) for i in range(4)]
    names = [s.heading for s in results_sections(rows, None)]
    assert "Ratings" not in names and "Head to head" not in names


def test_text_from_a_results_file_is_escaped_and_shown_as_written():
    rows = [GameRow(i, ("<script>x</script>", "$a^b$"), (1.0, 0.0), (0,), 10, {}) for i in range(3)]
    page = results_page(rows, {"game": "<b>g</b>"})
    assert "<script>" not in page and "<b>g" not in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page and "$a^b$" in page


def test_a_page_is_built_from_sections_of_text_figures_and_tables():
    figure = rates_figure(["a & b"], [0.5], [(0.3, 0.7)], title="Rates", games=7, fair=0.5)
    page = render_page("A <study>", ["First & foremost."], [
        Section("One", ["Some text."], [figure], [Table(["x", "y"], [[1, "<2>"]])]),
        Section("Two", tables=[Table(["z"], [[3]], caption="the end")]),
    ])
    assert "<title>A &lt;study&gt;</title>" in page and "First &amp; foremost." in page
    assert headings(page) == ["One", "Two"] and page.count("<svg") == 1
    assert "<td>&lt;2&gt;</td>" in page and "<caption>the end</caption>" in page
    assert "Rates (7 games)" in figure and "a &amp; b" in figure
    assert '<a href="#one">' in page and '<section id="two">' in page


def test_svg_is_an_inline_element_with_text_kept_as_text():
    from matplotlib.figure import Figure

    fig = Figure()
    fig.add_subplot().set_title("hello")
    out = svg(fig)
    assert out.startswith("<svg") and out.endswith("</svg>")
    assert "<?xml" not in out and "DOCTYPE" not in out and ">hello<" in out


@pytest.mark.parametrize(("row", "why"), [
    (GameRow(0, ("a", "b"), (1.0,), (0,), 1, {}), "1 scores for 2 seats"),
    (GameRow(0, ("a", "b"), (1.0, 2.0), (5,), 1, {}), "winner that is not one of its 2 seats"),
    (GameRow(0, ("a", "b"), (1.0, float("nan")), (0,), 1, {}), "not a finite number"),
    (GameRow(0, ("a", "b"), (1.0, 2.0), (0,), 1, {}, ("grabber",)), "1 roles for 2 seats"),
])
def test_rows_that_do_not_agree_are_refused_with_a_sentence(row, why):
    with pytest.raises(ReportError, match=why):
        results_page([row], None)


def run(*args):
    return runner.invoke(app, list(args))


def test_report_writes_the_page_beside_the_results_file(tmp_path):
    results = tmp_path / "run.parquet"
    write(results, culottes_rows(), "culottes", JOB)
    result = run("report", str(results))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "run.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 8 and "12 games" in result.output


@pytest.mark.parametrize(("make", "out", "why"), [
    (None, None, "there is no results file"),
    ("text", None, "is not a results file written by tricolore"),
    ("empty", None, "is not a results file written by tricolore"),
    ("no games", None, "it holds no games"),
    ("good", "folder", "is a folder"),
    ("good", "same", "would overwrite the results file"),
    ("folder", None, "is a folder, not a results file"),
])
def test_bad_input_to_report_is_refused_with_a_sentence(tmp_path, make, out, why):
    results = tmp_path / "run.parquet"
    if make == "text":
        results.write_text("game,seed\nculottes,1\n")
    elif make == "empty":
        results.write_bytes(b"")
    elif make == "no games":
        write(results, [], "culottes", JOB)
    elif make == "good":
        write(results, culottes_rows(3), "culottes", JOB)
    elif make == "folder":
        results.mkdir()
    args = ["report", str(results)]
    if out == "folder":
        args += ["--out", str(tmp_path)]
    elif out == "same":
        args += ["--out", str(results)]
    result = run(*args)
    assert result.exit_code == 1
    assert why in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) <= 2  # one sentence, however the terminal wraps
    assert not (tmp_path / "run.html").exists()
