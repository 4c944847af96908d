"""The paper material of Culottes and its revolutionary trials, drawn as a PDF (``tricolore print``).

Culottes is played on paper: "print them from our Google spreadsheets, at least 2 sheets per
player". :func:`culottes_pdf` draws, for a table of ``players``:

- the citizen sheets, ``sheets_per_player`` per player, shuffled: half say *sans-culotte* on
  the first row of their secret bottom flap and half *privileged* (an odd stack gets its last
  nature drawn 50/50, as the engine does, see :func:`shuffled_natures`). Each sheet has a name
  line, the place for its cakes and its cap or scale, tallies for cockades (step 2) and Bastille
  cakes (step 9), and the scoring lines; the flap (nature, the R / G role box) folds backward
  along a dashed line so it lies hidden underneath;
- the Bastille, with the verdict and reward rule of step 5 and its worked example;
- the Book of Public Safety, pages of rows to fill by hand in the columns ``tricolore book``
  reads (voter, citizen, cakes, side, closed) and the die roll;
- one reminder card per player: the ten steps of a turn and the eight steps of scoring.

:func:`trials_pdf` draws what the tutorial needs: one card of its rules per player, role cards the
accused may hand out instead of whispering, and a trial record to keep the points.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from io import BytesIO
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject
from reportlab.platypus import Paragraph

from tricolore.core import OptionsError, get_game
from tricolore.games.culottes.book import PRIVILEGED, SANS_CULOTTE
from tricolore.games.culottes.data import NATURES
from tricolore.games.culottes_trials.rules import EXAMPLE_STATEMENTS, max_grabbers

PAPERS = {"a4": A4, "letter": LETTER}
"""Paper sizes by the name ``--paper`` takes."""
GAMES = ("culottes", "culottes-trials")
"""The games with paper material."""
MIN_SHEETS, MAX_SHEETS = 2, 10
"""Citizen sheets per player: the rulebook's "at least 2", and the engine's upper bound."""
MAX_BOOK_PAGES = 20
STARTING_CAKES = 20
COCKADE_BOXES = 12
BASTILLE_BOXES = 60
BOOK_ROW_HEIGHT = 19.0
TRIAL_ROWS = 16
ROLE_CARDS_PER_PAGE = 8

BLUE = colors.HexColor("#0055A4")
RED = colors.HexColor("#EF4135")
GREY = colors.HexColor("#777777")
LIGHT = colors.HexColor("#EEEEEE")
MARGIN = 14 * mm

DrawCard = Callable[[Canvas, float, float, float, float], None]
"""Draws a card in the box (x, y, width, height)."""

FLAP_WORDS = {SANS_CULOTTE: "SANS-CULOTTE (S)", PRIVILEGED: "PRIVILEGED (P)"}
"""The first row of a secret bottom flap, by nature."""

TURN_STEPS = (
    ("Pick your next citizen",
     "Move your pike-pencil to the next citizen sheet and play with it. Emigrated? Say "
     "\u201cVive la revolution\u201d to bring it back, or pass its turn. Or just say \u201cI pass\u201d "
     "and jump to step 7."),
    ("Buy cockades",
     "You can buy one cockade if you want to: \u201cI buy a cockade.\u201d Paid at the end: 1 point "
     "for sans-culottes, 3 for privileged."),
    ("Donate cakes to the Bastille",
     "Pick any number of cakes from your current citizen sheet and put them into the Bastille."),
    ("Cake-vote !",
     "Pick the citizen you want to cake vote about; bring them a justice scale (a Phrygian cap "
     "upside down serves as one); put cakes on the sans-culotte or the privileged scale; note the "
     "row in the Book of Public Safety; roll the dice. A 5 or a 6 closes the trial."),
    ("Verdict and rewards",
     "More cakes on the sans-culotte scale: a Phrygian cap. Equal or fewer: privileged. The Bastille "
     "votes the difference for the winning scale; winners get their cakes back and share the lost "
     "cakes in proportion, rounded, biggest winners first. Mark the trial closed in the Book."),
    ("Emigrate", "Just say \u201cI emigrate.\u201d"),
    ("Any citizen left ?",
     "Play your next citizen from step 1. Once you played all your citizen sheets, go to step 8."),
    ("Recruit a new citizen",
     "Say \u201cI recruit a new citizen\u201d, randomly pick an additional citizen sheet, secretly "
     "write R or G on its flap and give it a name."),
    ("Distribute Bastille cakes",
     "From the first citizen of the player on your left: each citizen with a Phrygian cap (not a "
     "justice scale) gets one cake from the Bastille. Update their sheet."),
    ("End of turn", "Your turn is now over. The player on your left plays their turn."),
)
"""The ten steps of a turn, the rulebook's titles and its words, shortened."""

SCORING_STEPS = (
    "you and all players reveal the true nature of their citizens by unfolding the secret bottom "
    "flap of their citizen sheet : revolutionary or grabber ? sans-culottes or privileged ?",
    "for each grabber : how many cakes do their citizens own at the end of the game ? substract 20 "
    "per citizen (their initial number of cakes) from that number: that\u2019s how many cakes this "
    "grabber earned during the game. Add that number to the score of this grabber.",
    "how many cakes were distributed from the Bastille to sans-culottes ? add this number to the "
    "score of every revolutionary.",
    "how many cakes were distributed from the Bastille to privileged ? substract this number from "
    "the score of every revolutionary.",
    "for each revolutionary : how many citizens did you recruit ? substract this number from your "
    "score",
    "for each sans-culottes : how many cockades did this sans-culottes buy ? substract that number "
    "to the score of this citizen.",
    "for each privileged : how many cockades did this privileged buy ? multiply that number by 3 "
    "then substract this from the score of this citizen.",
    "for each player : sum the score of your citizens if you are a grabber or pick the best score "
    "of your citizens if you are a revolutionary",
)
"""The eight steps of scoring, in the rulebook's words."""


@dataclass(slots=True)
class PrintedSet:
    """What a PDF holds: its pages by part (1-based, inclusive ranges) and the flaps' natures in
    the order of the citizen sheets."""

    game: str
    players: int
    paper: str
    pages: int = 0
    parts: list[tuple[str, int, int]] = field(default_factory=list)
    natures: list[str] = field(default_factory=list)

    def summary(self, out: Path) -> str:
        """One line naming the file, its pages and where each part is."""
        parts = "; ".join(f"{name} {a}" if a == b else f"{name} {a}-{b}" for name, a, b in self.parts)
        return f"{out}: {self.pages} pages on {self.paper.upper()} for {self.players} players ({parts})"


def shuffled_natures(players: int, sheets_per_player: int, seed: int) -> list[str]:
    """The flaps of the stack of citizen sheets, shuffled: "take half of the sheets and write
    Sans-culotte ... take the other half and write Privileged". An odd stack cannot be halved;
    its last sheet's nature is drawn 50/50 before the shuffle, as the engine does."""
    size = players * sheets_per_player
    rng = random.Random(seed)
    natures = [SANS_CULOTTE, PRIVILEGED] * (size // 2)
    if size % 2:
        natures.append(rng.choice(NATURES))
    rng.shuffle(natures)
    return natures


def check_players(game: str, players: int) -> None:
    """Refuse a game without paper material, or a player count the game does not allow."""
    if game not in GAMES:
        raise OptionsError(f"there is paper material for {' and '.join(GAMES)} only, not {game!r:.40}")
    info = get_game(game).info
    if not info.min_players <= players <= info.max_players:
        raise OptionsError(f"{info.title} is played by {info.min_players} to {info.max_players} players, "
                           f"not {players}")


def page_size(paper: str) -> tuple[float, float]:
    """The page size of ``a4`` or ``letter``."""
    if paper not in PAPERS:
        raise OptionsError(f"--paper must be a4 or letter, not {paper!r:.40}")
    return PAPERS[paper]


# -- drawing helpers ---------------------------------------------------------------------------

def style(size: float, bold: bool = False, leading: float | None = None,
          color: colors.Color = colors.black) -> ParagraphStyle:
    """A paragraph style in Helvetica."""
    return ParagraphStyle("p", fontName="Helvetica-Bold" if bold else "Helvetica", fontSize=size,
                          leading=leading or size * 1.22, textColor=color)


def paragraph(c: Canvas, markup: str, x: float, top: float, width: float, st: ParagraphStyle) -> float:
    """Draw a wrapped paragraph whose top is at ``top``; return the y of its bottom."""
    p = Paragraph(markup, st)
    _, height = p.wrap(width, 10_000)
    p.drawOn(c, x, top - height)
    return top - height


def title(c: Canvas, text: str, x: float, y: float, size: float = 20) -> None:
    """A heading in Times, with the tricolour rule under it."""
    c.setFont("Times-Bold", size)
    c.setFillColor(colors.black)
    c.drawString(x, y, text)
    width = c.stringWidth(text, "Times-Bold", size)
    third = width / 3
    for i, color in enumerate((BLUE, colors.white, RED)):
        c.setFillColor(color)
        c.setStrokeColor(GREY)
        c.setLineWidth(0.3)
        c.rect(x + i * third, y - 5, third, 2.4, stroke=1 if color == colors.white else 0, fill=1)
    c.setFillColor(colors.black)


def line_field(c: Canvas, label: str, x: float, y: float, width: float, size: float = 11) -> None:
    """A label followed by a line to write on."""
    c.setFont("Helvetica-Bold", size)
    c.drawString(x, y, label)
    start = x + c.stringWidth(label, "Helvetica-Bold", size) + 4
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.6)
    c.line(start, y - 2, x + width, y - 2)


def boxes(c: Canvas, x: float, y: float, count: int, size: float, per_row: int) -> float:
    """Tick boxes in rows from (x, y) downward; return the y under the last row."""
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.5)
    rows = math.ceil(count / per_row)
    for i in range(count):
        row, col = divmod(i, per_row)
        c.rect(x + col * (size + 2), y - (row + 1) * (size + 2), size, size)
    return y - rows * (size + 2)


def dashed(c: Canvas, x1: float, y: float, x2: float) -> None:
    """A dashed fold or cut line."""
    c.setDash(4, 3)
    c.setLineWidth(0.8)
    c.setStrokeColor(colors.black)
    c.line(x1, y, x2, y)
    c.setDash()


def footer(c: Canvas, width: float, text: str) -> None:
    """A small grey line at the bottom of the page."""
    c.setFont("Helvetica", 7)
    c.setFillColor(GREY)
    c.drawCentredString(width / 2, 6 * mm, text)
    c.setFillColor(colors.black)


# -- Culottes -----------------------------------------------------------------------------------

def citizen_sheet(c: Canvas, width: float, height: float, nature: str) -> None:
    """One citizen sheet: the public part above the fold, the secret flap below it."""
    inner = width - 2 * MARGIN
    flap_height = 62 * mm
    fold = MARGIN + flap_height
    top = height - MARGIN
    title(c, "Citizen sheet", MARGIN, top - 18)
    c.setFont("Helvetica", 8)
    c.setFillColor(GREY)
    c.drawRightString(width - MARGIN, top - 12,
                      "Culottes \u00b7 keep your pike-pencil on the citizen you play")
    c.setFillColor(colors.black)
    y = top - 50
    line_field(c, "Name of this citizen", MARGIN, y, inner, 14)
    y -= 24
    line_field(c, "Player", MARGIN, y, inner * 0.6, 11)
    c.setFont("Helvetica", 10)
    c.rect(MARGIN + inner * 0.66, y - 3, 10, 10)
    c.drawString(MARGIN + inner * 0.66 + 14, y - 1, "recruited (step 8)")

    # the cakes' place and the cap's
    y -= 16
    box_h = 62 * mm + 80 + (height - A4[1])  # a longer page gives its spare height to the cakes
    cakes_w = inner * 0.64
    c.setStrokeColor(BLUE)
    c.setLineWidth(1.2)
    c.roundRect(MARGIN, y - box_h, cakes_w, box_h, 8)
    paragraph(c, f"<b>Cakes</b> \u2014 put this citizen\u2019s cakes here: {STARTING_CAKES} to start. "
                 "Cake votes take them to a justice scale; donations take them to the Bastille.",
              MARGIN + 8, y - 6, cakes_w - 16, style(9, color=GREY))
    c.setStrokeColor(RED)
    cap_x = MARGIN + cakes_w + 8
    cap_w = inner - cakes_w - 8
    c.roundRect(cap_x, y - box_h, cap_w, box_h, 8)
    paragraph(c, "<b>Phrygian cap or justice scale</b><br/>A sans-culotte verdict puts a cap here; "
                 "a trial puts a scale here (the cap upside down).",
              cap_x + 8, y - 6, cap_w - 16, style(9, color=GREY))
    c.setStrokeColor(colors.black)
    y -= box_h + 18

    # tallies
    c.setFont("Helvetica-Bold", 10)
    c.drawString(MARGIN, y, "Cockades bought (step 2): tick one box per cockade")
    y = boxes(c, MARGIN, y - 3, COCKADE_BOXES, 10, COCKADE_BOXES) - 12
    c.setFont("Helvetica-Bold", 10)
    c.drawString(MARGIN, y, "Cakes received from the Bastille (step 9): tick one box per cake")
    per_row = 30
    y = boxes(c, MARGIN, y - 3, BASTILLE_BOXES, 10, per_row) - 12
    c.setFont("Helvetica-Bold", 10)
    c.drawString(MARGIN, y, "Emigrated (step 6):")
    c.setFont("Helvetica", 9)
    c.drawString(MARGIN + 100, y, "write E in pencil; erase it at \u201cVive la revolution\u201d")
    c.rect(MARGIN + 330, y - 3, 12, 12)

    # the score, filled once the flaps are unfolded
    y -= 22
    c.setFont("Helvetica-Bold", 10)
    c.drawString(MARGIN, y, "Calculate your score (after unfolding the flap)")
    lines = (
        f"2. grabber: cakes now ______ \u2212 {STARTING_CAKES} = ______",
        "3. revolutionary: + Bastille cakes to sans-culottes ______",
        "4. revolutionary: \u2212 Bastille cakes to privileged ______",
        "5. revolutionary (first sheet): \u2212 citizens recruited ______",
        "6.\u20137. cockades ____ \u00d7 1 (sans-culotte) or \u00d7 3 (privileged) = \u2212 ______",
        "score of this citizen ______     "
        "8. player (first sheet): sum (grabber) / best (revolutionary) ______",
    )
    c.setFont("Helvetica", 9)
    for text in lines:
        y -= 13
        c.drawString(MARGIN + 6, y, text)

    # the fold and the flap
    dashed(c, 0, fold, width)
    c.setFont("Helvetica-Bold", 8)
    label = "\u25bc fold backward along this line: the flap goes underneath, hidden until scoring \u25bc"
    c.setFillColor(colors.white)
    label_w = c.stringWidth(label, "Helvetica-Bold", 8) + 10
    c.rect(width / 2 - label_w / 2, fold - 5, label_w, 10, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.drawCentredString(width / 2, fold - 3, label)
    c.setFillColor(LIGHT)
    c.rect(MARGIN, MARGIN, inner, flap_height - 12, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont("Helvetica", 8)
    c.drawString(MARGIN + 8, fold - 24, "Secret bottom flap \u2014 this citizen is a")
    c.setFont("Times-Bold", 30)
    # both natures in the same ink, so that neither shows through the folded paper more
    c.setFillColor(colors.black)
    c.drawString(MARGIN + 8, fold - 56, FLAP_WORDS[nature])
    c.setFillColor(colors.black)
    role_y = MARGIN + 14
    c.setFont("Helvetica-Bold", 11)
    c.drawString(MARGIN + 8, role_y + 14, "Role")
    c.setFont("Helvetica", 9)
    c.drawString(MARGIN + 40, role_y + 14, "write R (Revolutionary) or G (Grabber) on your first "
                                           "sheet and on each sheet you recruit")
    c.setLineWidth(1)
    c.rect(MARGIN + 8, role_y - 14, 24, 24)
    c.setFont("Helvetica", 8)
    c.drawString(MARGIN + 40, role_y - 6,
                 "A grabber\u2019s recruits are puppets: their nature is the first sheet\u2019s, "
                 "this one is ignored.")
    footer(c, width, "Fold every flap before anyone reads it, then shuffle the stack of citizen sheets.")


def crenellate(path: PDFPathObject, x0: float, x1: float, top: float, notches: int, depth: float) -> None:
    """Walk the top of a wall from x0 to x1 at height ``top``, cutting ``notches`` embrasures."""
    step = (x1 - x0) / (2 * notches + 1)
    for i in range(notches):
        left = x0 + (2 * i + 1) * step
        path.lineTo(left, top)
        path.lineTo(left, top - depth)
        path.lineTo(left + step, top - depth)
        path.lineTo(left + step, top)
    path.lineTo(x1, top)


def fortress(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The Bastille: a wall between two towers, all crenellated, with an arched gate."""
    c.setStrokeColor(colors.black)
    c.setLineWidth(1.4)
    c.setFillColor(colors.HexColor("#F4EFE4"))
    tower_w = w * 0.16
    wall_top = y + h * 0.8
    depth = h * 0.05
    path = c.beginPath()
    path.moveTo(x, y)
    path.lineTo(x, y + h)
    crenellate(path, x, x + tower_w, y + h, 2, depth)
    path.lineTo(x + tower_w, wall_top)
    crenellate(path, x + tower_w, x + w - tower_w, wall_top, 7, depth)
    path.lineTo(x + w - tower_w, y + h)
    crenellate(path, x + w - tower_w, x + w, y + h, 2, depth)
    path.lineTo(x + w, y)
    path.close()
    c.drawPath(path, stroke=1, fill=1)
    c.line(x + tower_w, y, x + tower_w, wall_top)
    c.line(x + w - tower_w, y, x + w - tower_w, wall_top)
    gate_w, gate_h = w * 0.12, h * 0.2
    gx = x + w / 2 - gate_w / 2
    gate = c.beginPath()
    gate.moveTo(gx, y)
    gate.lineTo(gx, y + gate_h)
    gate.arcTo(gx, y + gate_h - gate_w / 2, gx + gate_w, y + gate_h + gate_w / 2, startAng=180, extent=-180)
    gate.lineTo(gx + gate_w, y)
    gate.close()
    c.setFillColor(colors.HexColor("#5A4A3A"))
    c.drawPath(gate, stroke=1, fill=1)
    c.setFillColor(colors.black)


def bastille_page(c: Canvas, width: float, height: float) -> None:
    """The Bastille sheet: the fortress holding the cakes, and the rule of its rewards."""
    inner = width - 2 * MARGIN
    top = height - MARGIN
    title(c, "The Bastille fortress", MARGIN, top - 22, 26)
    y = paragraph(c, "The Bastille fortress was stormed by revolutionaries. It now holds the strategic "
                     "reserve of cakes. <b>Only citizens wearing the Phrygian cap are allowed to receive "
                     "Bastille cakes.</b>", MARGIN, top - 40, inner, style(11))
    fort_h = height * 0.42
    fortress(c, MARGIN + inner * 0.05, y - 12 - fort_h, inner * 0.9, fort_h)
    c.setFont("Times-Bold", 16)
    c.drawCentredString(width / 2, y - 12 - fort_h * 0.45, "The strategic reserve of cakes")
    c.setFont("Helvetica", 9)
    c.drawCentredString(width / 2, y - 12 - fort_h * 0.45 - 14,
                        "put the Bastille\u2019s cakes inside the walls")
    y -= fort_h + 30
    sections = (
        ("Step 3 : Donate cakes to the Bastille",
         "You can donate cakes to the Bastille fortress if you want to. Pick any number of cakes from "
         "your current citizen sheet and put them into the Bastille for sans-culottes (or grabbers !) "
         "to be fed."),
        ("Step 5 : Verdict and rewards",
         "The Bastille always supports the winning scale. You must pretend the Bastille voted for the "
         "winning scale with as many cakes as the difference between the number of winning cakes and "
         "the number of lost cakes. Voting citizens get their winning cakes back. The lost cakes are "
         "distributed to the winners and to the Bastille proportionately to the number of cakes they "
         "won with: each share is <i>lost \u00d7 own winning cakes \u00f7 (winning cakes + Bastille "
         "vote)</i>, rounded to the nearest cake (a half cake is rounded as one). Biggest winners get "
         "their reward first; the Bastille before citizens with an equal share, then citizens closest "
         "to the left of the current player. Smaller winners are rewarded last with the remaining "
         "cakes, so they might get no reward. <b>For instance</b>: A, B and C vote sans-culotte with 1, "
         "2 and 3 cakes, D and E privileged with 2 each. Sans-culotte wins 6 to 4; the Bastille votes "
         "2. Of the 4 lost cakes C gets 2, the Bastille 1, B 1 and A none."),
        ("Step 9 : Distribute Bastille cakes",
         "Look at each citizen, starting from the first one of the player on your left. If a citizen "
         "has a Phrygian cap (not a justice scale), pick a cake from the Bastille and put it on the "
         "citizen sheet, and update the sheet. If there are no cakes left in the Bastille, then\u2026 "
         "too bad for them."),
    )
    for heading, text in sections:
        c.setFont("Helvetica-Bold", 11)
        c.drawString(MARGIN, y, heading)
        y = paragraph(c, text, MARGIN, y - 5, inner, style(10.5)) - 18
    footer(c, width, "Culottes \u00b7 the Bastille")


BOOK_COLUMNS = (("#", 0.05), ("voter", 0.25), ("citizen", 0.25), ("cakes", 0.09),
                ("side  S / P", 0.13), ("die", 0.08), ("closed", 0.15))
"""The Book's columns and their share of the page's width: voter, citizen, cakes and side as
``tricolore book`` reads them, the die roll, and the closing that counted the row."""


def book_rows(height: float) -> int:
    """Rows of cake votes on a page of the Book: as many as the page holds under its heading."""
    return int((height - 2 * MARGIN - BOOK_HEADING - 14) // BOOK_ROW_HEIGHT) - 1


BOOK_HEADING = 92.0
"""Height of a Book page's title and instructions."""


def book_page(c: Canvas, width: float, height: float, number: int, total: int) -> None:
    """A page of the Book of Public Safety: numbered rows of cake votes to fill by hand."""
    inner = width - 2 * MARGIN
    top = height - MARGIN
    title(c, "Book of Public Safety", MARGIN, top - 20, 22)
    c.setFont("Helvetica", 9)
    c.drawRightString(width - MARGIN, top - 14, f"page {number} of {total}")
    paragraph(
        c, "One row per cake vote, at the end of the Book (step 4): \u201cRobespierre, Danton, 3, "
           "privileged\u201d means the Robespierre citizen voted 3 cakes that Danton is a privileged. "
           "Write the die roll: a 5 or a 6 closes the trial. Then write the closing\u2019s number in "
           "<i>closed</i> on every open row about that citizen, so that cake votes are not counted "
           "twice. <font face='Courier'>tricolore book</font> reads the columns voter, citizen, cakes, "
           "side and closed as CSV and computes the verdict and rewards.",
        MARGIN, top - 32, inner, style(9))
    y = top - BOOK_HEADING
    row_h = BOOK_ROW_HEIGHT
    rows = book_rows(height)
    xs = [MARGIN]
    for _, share in BOOK_COLUMNS:
        xs.append(xs[-1] + share * inner)
    c.setFillColor(LIGHT)
    c.rect(MARGIN, y - row_h, inner, row_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont("Helvetica-Bold", 10)
    for (name, _), x in zip(BOOK_COLUMNS, xs, strict=False):
        c.drawString(x + 4, y - row_h + 5, name)
    c.setLineWidth(0.5)
    bottom = y - row_h * (rows + 1)
    for i in range(rows + 2):
        c.line(MARGIN, y - i * row_h, MARGIN + inner, y - i * row_h)
    for x in xs:
        c.line(x, y, x, bottom)
    c.setFont("Helvetica", 8)
    c.setFillColor(GREY)
    for i in range(rows):
        c.drawRightString(xs[1] - 3, y - (i + 2) * row_h + 5, str((number - 1) * rows + i + 1))
    c.setFillColor(colors.black)
    footer(c, width, "Culottes \u00b7 the Book of Public Safety is public: anyone may read it")


def reminder_card(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """A reminder card: the ten steps of a turn beside the eight steps of scoring."""
    c.setLineWidth(0.8)
    c.setStrokeColor(BLUE)
    c.roundRect(x, y, w, h, 8)
    c.setStrokeColor(colors.black)
    pad = 8
    col_gap = 10
    left_w = (w - 2 * pad - col_gap) * 0.56
    right_w = (w - 2 * pad - col_gap) - left_w
    top = y + h - pad
    c.setFont("Times-Bold", 13)
    c.drawString(x + pad, top - 11, "Your turn")
    rx = x + pad + left_w + col_gap
    c.setFont("Times-Bold", 13)
    c.drawString(rx, top - 11, "Calculate your score")
    turn = [f"<b>Step {i} : {escape(heading)}</b> {escape(text)}"
            for i, (heading, text) in enumerate(TURN_STEPS, start=1)]
    scoring = [f"<b>{i}.</b> {escape(text)}" for i, text in enumerate(SCORING_STEPS, start=1)]
    room = h - 2 * pad - 16
    size = 10.0
    while size > 5 and max(column_height(turn, left_w, style(size)),
                           column_height(scoring, right_w, style(size))) > room:
        size -= 0.2
    for column, cx, cw in ((turn, x + pad, left_w), (scoring, rx, right_w)):
        cy = top - 16
        for markup in column:
            cy = paragraph(c, markup, cx, cy, cw, style(size)) - size * 0.3


def column_height(markups: list[str], width: float, st: ParagraphStyle) -> float:
    """The height of paragraphs stacked as :func:`reminder_card` stacks them."""
    return sum(Paragraph(m, st).wrap(width, 10_000)[1] + st.fontSize * 0.3 for m in markups)


def two_to_a_page(c: Canvas, width: float, height: float, count: int, draw: DrawCard) -> int:
    """Cards two to a page (top and bottom halves, a dashed cut line between); return the pages."""
    pages = math.ceil(count / 2)
    half = (height - 2 * MARGIN) / 2
    for page in range(pages):
        for slot in range(2):
            if page * 2 + slot >= count:
                break
            y = MARGIN + (1 - slot) * half
            draw(c, MARGIN, y + 4, width - 2 * MARGIN, half - 8)
        dashed(c, MARGIN / 2, height / 2, width - MARGIN / 2)
        footer(c, width, "cut along the dashed line: one card per player")
        c.showPage()
    return pages


def culottes_pdf(players: int, paper: str = "a4", seed: int = 0, sheets_per_player: int = 2,
                 book_pages: int = 2) -> tuple[bytes, PrintedSet]:
    """The PDF of a Culottes table on paper, and what it holds (see the module's docstring)."""
    check_players("culottes", players)
    size = page_size(paper)
    if not MIN_SHEETS <= sheets_per_player <= MAX_SHEETS:
        raise OptionsError(f"--sheets-per-player must be from {MIN_SHEETS} (the rulebook asks for at "
                           f"least 2 sheets per player) to {MAX_SHEETS}, not {sheets_per_player}")
    if not 1 <= book_pages <= MAX_BOOK_PAGES:
        raise OptionsError(f"--book-pages must be from 1 to {MAX_BOOK_PAGES}, not {book_pages}")
    natures = shuffled_natures(players, sheets_per_player, seed)
    buffer = BytesIO()
    c = Canvas(buffer, pagesize=size, invariant=True)
    c.setTitle(f"Culottes for {players} players")
    width, height = size
    printed = PrintedSet("culottes", players, paper, natures=natures)
    page = 0

    def part(name: str, count: int) -> None:
        nonlocal page
        printed.parts.append((name, page + 1, page + count))
        page += count

    for nature in natures:
        citizen_sheet(c, width, height, nature)
        c.showPage()
    part("citizen sheets", len(natures))
    bastille_page(c, width, height)
    c.showPage()
    part("Bastille", 1)
    for number in range(1, book_pages + 1):
        book_page(c, width, height, number, book_pages)
        c.showPage()
    part("Book of Public Safety", book_pages)
    part("reminder cards", two_to_a_page(c, width, height, players, reminder_card))
    c.save()
    printed.pages = page
    return buffer.getvalue(), printed


# -- the revolutionary trials ---------------------------------------------------------------------

def trials_rules(players: int) -> tuple[tuple[str, str], ...]:
    """The tutorial's rules for ``players``, in the rulebook's words, shortened."""
    most = max_grabbers(players) - 1
    designate = ("nobody else: with 3 players the accused is the only grabber" if most == 0
                 else f"at most {most} other player{'s' if most > 1 else ''}")
    return (
        ("The accused", "The oldest player plays the role of a grabber being trialed; then the citizen "
                        "to the left of the one just judged."),
        ("Designate", f"The trialed grabber secretly designates other grabbers ({designate}: no more "
                      "than half of the players are grabbers) by whispering \u201cgrabber\u201d or "
                      "\u201crevolutionary\u201d to each player\u2019s ear, or handing each a folded "
                      "role card."),
        ("State", "The trialed grabber says something that is difficult to guess but easy to check "
                  "after the votes, for example: \u201c" + escape(EXAMPLE_STATEMENTS[0]) + "\u201d. "
                  "Citizens all agree it will be verifiable."),
        ("First round", "Hands behind the back; \u201cshi-fu-mi\u201d: at \u201c-mi\u201d a closed fist "
                        "(a brioche) votes <b>true</b>, an open palm votes <b>false</b>. It does not "
                        "count; the trialed grabber does not vote."),
        ("Debate", "Everyone can expose their arguments to convince others or change their own mind."),
        ("Second round", "Vote again, for good. The majority decides; in case of a tie, \u201ctrue\u201d "
                         "wins. The trialed grabber reveals the truth; check it if need be."),
        ("Points", "Majority right: each revolutionary earns 1 point. Majority wrong: the trialed "
                   "grabber wins 2 points and the other grabbers 1 each."),
        ("End", "The tutorial stops whenever citizens want. The most points wins."),
    )


def trials_card(players: int, c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """A card of the tutorial's rules for ``players``."""
    c.setLineWidth(0.8)
    c.setStrokeColor(BLUE)
    c.roundRect(x, y, w, h, 8)
    c.setStrokeColor(colors.black)
    pad = 10
    top = y + h - pad
    c.setFont("Times-Bold", 15)
    c.drawString(x + pad, top - 13, f"Revolutionary trials \u00b7 {players} players")
    rules = ["The grabbers win if the majority is wrong. The Revolutionaries win if the majority "
             "guesses right.",
             *(f"<b>{escape(heading)}.</b> {text}" for heading, text in trials_rules(players))]
    size = 12.0
    while size > 5 and column_height(rules, w - 2 * pad, style(size)) > h - 2 * pad - 20:
        size -= 0.2
    ty = top - 20
    for markup in rules:
        ty = paragraph(c, markup, x + pad, ty, w - 2 * pad, style(size)) - size * 0.3


def role_card(c: Canvas, x: float, y: float, w: float, h: float, role: str) -> None:
    """A role card: folded in two along the dashed line, the role inside."""
    c.setLineWidth(0.4)
    c.setStrokeColor(GREY)
    c.rect(x, y, w, h)
    dashed(c, x + 6, y + h / 2, x + w - 6)
    c.setFont("Helvetica", 7)
    c.setFillColor(GREY)
    c.drawCentredString(x + w / 2, y + h / 2 + 4, "fold here, the role inside")
    c.drawCentredString(x + w / 2, y + h - 14, "Revolutionary trials \u00b7 your role in this trial")
    c.setFillColor(colors.black)  # the same ink for both roles: neither shows through more
    c.setFont("Times-Bold", 24)
    c.drawCentredString(x + w / 2, y + h / 4 - 4, role.upper())
    c.setFont("Helvetica", 7.5)
    c.setFillColor(colors.black)
    wins = ("you win if the majority is wrong" if role == "Grabber"
            else "you win if the majority guesses right")
    c.drawCentredString(x + w / 2, y + 10, wins)


def trial_record(c: Canvas, width: float, height: float, players: int) -> None:
    """The trial record (landscape): one row per trial, the points of each player."""
    inner = width - 2 * MARGIN
    top = height - MARGIN
    title(c, "Revolutionary trials: the record", MARGIN, top - 20, 20)
    c.setFont("Helvetica", 9)
    c.drawString(MARGIN, top - 40, "Write the players\u2019 names under P1, P2\u2026 Per trial: the accused, "
                                   "the statement, the truth and the second round\u2019s majority "
                                   "(T or F; a tie is T), then each player\u2019s points.")
    statement = 0.25 - 0.01 * max(0, players - 6)  # narrower at a big table, for the names
    fixed = (("#", 0.03), ("accused", 0.11), ("statement", statement), ("truth", 0.05), ("majority", 0.07))
    rest = 1 - sum(s for _, s in fixed)
    columns = [*fixed, *((f"P{i}", rest / players) for i in range(1, players + 1))]
    y = top - 48
    row_h = (y - MARGIN - 10) / (TRIAL_ROWS + 3)
    xs = [MARGIN]
    for _, share in columns:
        xs.append(xs[-1] + share * inner)
    c.setFillColor(LIGHT)
    c.rect(MARGIN, y - 2 * row_h, inner, 2 * row_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for (name, _), x in zip(columns, xs, strict=False):
        c.setFont("Helvetica-Bold", 9)
        c.drawString(x + 3, y - row_h + 5, name)
    c.setLineWidth(0.5)
    rows = TRIAL_ROWS + 3
    bottom = y - rows * row_h
    for i in (0, *range(2, rows + 1)):
        c.line(MARGIN, y - i * row_h, MARGIN + inner, y - i * row_h)
    for x in xs:
        c.line(x, y, x, bottom)
    c.setFont("Helvetica", 8)
    for i in range(TRIAL_ROWS):
        c.drawRightString(xs[1] - 3, y - (i + 3) * row_h + 5, str(i + 1))
    c.setFont("Helvetica-Bold", 9)
    c.drawString(xs[2] + 3, bottom + 5, "total points")
    c.setLineWidth(1.2)
    c.line(MARGIN, bottom + row_h, MARGIN + inner, bottom + row_h)
    footer(c, width, "Culottes \u00b7 revolutionary trials")


def trials_pdf(players: int, paper: str = "a4") -> tuple[bytes, PrintedSet]:
    """The PDF of the revolutionary trials on paper, and what it holds (see the module's docstring).

    Role cards: every player but the accused may be a revolutionary, and at most half the players,
    the accused included, are grabbers, so a set holds ``players - 1`` revolutionary cards and
    ``players // 2 - 1`` grabber cards; the accused hands one to each other player, face down.
    """
    check_players("culottes-trials", players)
    size = page_size(paper)
    buffer = BytesIO()
    c = Canvas(buffer, pagesize=size, invariant=True)
    c.setTitle(f"Culottes: revolutionary trials for {players} players")
    width, height = size
    printed = PrintedSet("culottes-trials", players, paper)
    cards = two_to_a_page(c, width, height, players, partial(trials_card, players))
    printed.parts.append(("rules cards", 1, cards))
    roles = ["Revolutionary"] * (players - 1) + ["Grabber"] * (max_grabbers(players) - 1)
    role_pages = math.ceil(len(roles) / ROLE_CARDS_PER_PAGE)
    cw = (width - 2 * MARGIN) / 2
    ch = (height - 2 * MARGIN) / (ROLE_CARDS_PER_PAGE / 2)
    for p in range(role_pages):
        for slot, role in enumerate(roles[p * ROLE_CARDS_PER_PAGE:(p + 1) * ROLE_CARDS_PER_PAGE]):
            row, col = divmod(slot, 2)
            role_card(c, MARGIN + col * cw, height - MARGIN - (row + 1) * ch, cw, ch, role)
        footer(c, width, "cut the role cards out along their edges")
        c.showPage()
    printed.parts.append(("role cards", cards + 1, cards + role_pages))
    c.setPageSize(landscape(size))
    trial_record(c, landscape(size)[0], landscape(size)[1], players)
    c.showPage()
    printed.pages = cards + role_pages + 1
    printed.parts.append(("trial record", printed.pages, printed.pages))
    c.save()
    return buffer.getvalue(), printed
