"""The Book of Public Safety: cake votes, trial closings, verdicts and rewards.

:func:`close_trial` is the rulebook's step 5 as a pure function. Given the cake votes of a closing
trial and the voting citizens in seating order from the current player's left, it gives the
verdict, the winning and lost cakes, the Bastille's virtual vote, and what each winner gets back
and wins:

1. The verdict is *sans-culotte* if the sans-culotte scale holds more cakes than the privileged
   scale; a tie or less is *privileged*.
2. Every winning voter gets its winning cakes back. The Bastille "votes" for the winning scale with
   ``winning - lost`` cakes.
3. The lost cakes are shared among the winners and the Bastille in proportion to the cakes each won
   with, ``lost * weight / (winning + bastille_vote)``, rounded to the nearest cake, halves up.
4. Biggest winners are served first; on equal weights the Bastille comes before citizens, and
   citizens closest to the current player's left before the others. Each takes at most what
   remains, so small winners may get nothing.
5. Cakes still unshared after the last winner (shares rounded down) go to the Bastille.

The seed's example: A, B, C vote sans-culotte with 1, 2, 3; D and E privileged with 2 and 2.
The verdict is sans-culotte, the Bastille votes 2, and of the 4 lost cakes C gets 2, the
Bastille 1, B 1 and A none:

>>> votes = [CakeVote(v, c, SANS_CULOTTE) for v, c in zip("ABC", (1, 2, 3))]
>>> votes += [CakeVote(v, 2, PRIVILEGED) for v in "DE"]
>>> closing = close_trial(votes, order="ABCDE")
>>> [(r.voter, r.returned, r.reward) for r in closing.rewards]
[('C', 3, 2), ('Bastille', 0, 1), ('B', 2, 1), ('A', 1, 0)]

:class:`BookOfPublicSafety` is the ledger itself: one row per cake vote, each marked with the
closing that counted it, so no vote is counted twice. The game keeps one, and the paper companion
(``tricolore book``) reads and writes one as CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import gcd
from typing import Any, Final, TypeAlias

from mypy_extensions import mypyc_attr

from tricolore.core.actions import rebuilt

SANS_CULOTTE: Final = "sans_culotte"
PRIVILEGED: Final = "privileged"
SIDES = (SANS_CULOTTE, PRIVILEGED)
BASTILLE: Final = "Bastille"
"""How the Bastille appears among the recipients of a closing."""

Voter: TypeAlias = int | str
"""A voting citizen as the Book names it: a citizen's number in a game, a name on paper."""

# The records below are made at every cake vote and closing of a game: their constructors are
# written out, not generated, so that the compiled build makes them natively (see
# tricolore.core.actions.Worded).


@dataclass(frozen=True, slots=True, init=False)
class CakeVote:
    """Cakes a voting citizen put on one scale of a trial."""

    voter: Voter
    cakes: int
    side: str

    def __init__(self, voter: Voter, cakes: int, side: str) -> None:
        object.__setattr__(self, "voter", voter)
        object.__setattr__(self, "cakes", cakes)
        object.__setattr__(self, "side", side)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True, init=False)
class Reward:
    """What one winner (or the Bastille) takes from a closing: its own cakes back and a reward.

    ``share`` is the exact proportional share before rounding, kept in lowest terms as
    ``share_numerator / share_denominator``.
    """

    voter: Voter
    returned: int
    reward: int
    share_numerator: int = 0
    share_denominator: int = 1

    def __init__(self, voter: Voter, returned: int, reward: int, share_numerator: int = 0,
                 share_denominator: int = 1) -> None:
        object.__setattr__(self, "voter", voter)
        object.__setattr__(self, "returned", returned)
        object.__setattr__(self, "reward", reward)
        object.__setattr__(self, "share_numerator", share_numerator)
        object.__setattr__(self, "share_denominator", share_denominator)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    @property
    def share(self) -> Fraction:
        """The exact proportional share before rounding."""
        return Fraction(self.share_numerator, self.share_denominator)

    @property
    def share_text(self) -> str:
        """The share written as a fraction, as ``str`` writes a ``Fraction``: ``"3/2"``, or
        ``"1"`` for a whole cake."""
        if self.share_denominator == 1:
            return str(self.share_numerator)
        return f"{self.share_numerator}/{self.share_denominator}"


@dataclass(frozen=True, slots=True, init=False)
class TrialClosing:
    """The outcome of a closed trial, in the order the rewards were handed out.

    ``leftover`` counts the lost cakes no winner could take; they are included in the Bastille's
    reward. ``lost`` lists each losing voter's cakes.
    """

    verdict: str
    winning_cakes: int
    lost_cakes: int
    bastille_vote: int
    rewards: tuple[Reward, ...]
    leftover: int
    lost: tuple[tuple[Voter, int], ...]

    def __init__(self, verdict: str, winning_cakes: int, lost_cakes: int, bastille_vote: int,
                 rewards: tuple[Reward, ...], leftover: int, lost: tuple[tuple[Voter, int], ...]) -> None:
        object.__setattr__(self, "verdict", verdict)
        object.__setattr__(self, "winning_cakes", winning_cakes)
        object.__setattr__(self, "lost_cakes", lost_cakes)
        object.__setattr__(self, "bastille_vote", bastille_vote)
        object.__setattr__(self, "rewards", rewards)
        object.__setattr__(self, "leftover", leftover)
        object.__setattr__(self, "lost", lost)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    @property
    def bastille_reward(self) -> int:
        """Cakes the Bastille receives from this closing, leftover included."""
        return sum(r.reward for r in self.rewards if r.voter == BASTILLE)


def round_half_up(x: Fraction) -> int:
    """The nearest whole number, halves rounded up: the rulebook's "half cake is rounded as one"."""
    return _half_up(x.numerator, x.denominator)


def _half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` (``denominator`` above 0) rounded as :func:`round_half_up`."""
    return (2 * numerator + denominator) // (2 * denominator)


def close_trial(votes: Iterable[CakeVote | BookRow], order: Sequence[Voter]) -> TrialClosing:
    """The verdict and rewards of a closing trial (see the module's docstring for the rules).

    ``votes`` are the trial's cake votes, or the Book's rows that hold them. ``order`` lists the
    voting citizens in seating order from the current player's left, the current player's
    citizens last; every voter must appear in it. Raises ``ValueError`` on a vote with a side
    other than sans-culotte or privileged, a cake count below 1, or a voter missing from
    ``order``.
    """
    sans_culotte: dict[Voter, int] = {}
    privileged: dict[Voter, int] = {}
    yes = no = 0
    position = {voter: i for i, voter in enumerate(order)}
    for vote in votes:
        voter, cakes, side = vote.voter, vote.cakes, vote.side
        if side == SANS_CULOTTE:
            scale = sans_culotte
        elif side == PRIVILEGED:
            scale = privileged
        else:
            raise ValueError(f"a cake vote's side must be sans-culotte or privileged, not {side!r}")
        if type(cakes) is not int or cakes < 1:
            raise ValueError(f"a cake vote stakes at least 1 cake; {voter} voted {cakes!r}")
        if voter not in position:
            raise ValueError(f"{voter} voted in this trial but is missing from the seating order")
        scale[voter] = scale.get(voter, 0) + cakes
        if scale is sans_culotte:
            yes += cakes
        else:
            no += cakes
    verdict = SANS_CULOTTE if yes > no else PRIVILEGED
    winning, losing = (sans_culotte, privileged) if verdict == SANS_CULOTTE else (privileged, sans_culotte)
    w, lost = max(yes, no), min(yes, no)
    bastille_vote = w - lost

    recipients: list[tuple[Voter, int]] = list(winning.items())
    if bastille_vote:
        recipients.append((BASTILLE, bastille_vote))
    # The order of rule 4, each recipient ranked by (weight, Bastille first, seat from the left)
    # and its place in recipients: ranks never tie, so no voter is compared.
    ranks = sorted([(-weight, voter != BASTILLE, position.get(voter, -1), i)
                    for i, (voter, weight) in enumerate(recipients)])
    total = w + bastille_vote
    remaining = lost
    rewards: list[Reward] = []
    for rank in ranks:
        voter, weight = recipients[rank[3]]
        # the share lost * weight / total, in lowest terms (a Fraction costs more than the rest)
        numerator, denominator = (lost * weight, total) if total else (0, 1)
        common = gcd(numerator, denominator)
        numerator, denominator = numerator // common, denominator // common
        give = min(_half_up(numerator, denominator), remaining)
        remaining -= give
        rewards.append(Reward(voter, 0 if voter == BASTILLE else weight, give, numerator, denominator))
    if remaining:
        for i, r in enumerate(rewards):
            if r.voter == BASTILLE:
                rewards[i] = replace(r, reward=r.reward + remaining)
                break
        else:
            rewards.append(Reward(BASTILLE, 0, remaining))
    losers = sorted([(position[voter], voter, cakes) for voter, cakes in losing.items()])
    return TrialClosing(verdict, w, lost, bastille_vote, tuple(rewards), remaining,
                        tuple([(voter, cakes) for _, voter, cakes in losers]))


@dataclass(slots=True, init=False)
class BookRow:
    """One cake vote as written in the Book: "Robespierre, Danton, 3, privileged".

    ``closing`` is the number of the closing that counted this row (1, 2, ...) or ``None`` while
    the trial is open; ``turn`` is the game turn it was cast in, when known.
    """

    voter: Voter
    citizen: Voter
    cakes: int
    side: str
    closing: int | None = None
    turn: int | None = None

    def __init__(self, voter: Voter, citizen: Voter, cakes: int, side: str, closing: int | None = None,
                 turn: int | None = None) -> None:
        self.voter = voter
        self.citizen = citizen
        self.cakes = cakes
        self.side = side
        self.closing = closing
        self.turn = turn

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@mypyc_attr(native_class=False)  # a compiled class may not extend ValueError
class BookError(ValueError):
    """A Book of Public Safety that cannot be read or closed as asked."""


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class BookOfPublicSafety:
    """The ledger of cake votes; every closing marks the rows it counted."""

    __slots__ = ("rows", "closings")

    def __init__(self, rows: list[BookRow] | None = None, closings: int = 0) -> None:
        self.rows: list[BookRow] = [] if rows is None else rows
        self.closings = closings

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BookOfPublicSafety):
            return NotImplemented
        return self.rows == other.rows and self.closings == other.closings

    def __repr__(self) -> str:
        return f"BookOfPublicSafety(rows={self.rows!r}, closings={self.closings!r})"

    def write(self, voter: Voter, citizen: Voter, cakes: int, side: str, turn: int | None = None) -> BookRow:
        """Add a cake vote at the end of the Book."""
        if side not in SIDES:
            raise BookError(f"a cake vote's side must be sans-culotte or privileged, not {side!r}")
        if type(cakes) is not int or cakes < 1:
            raise BookError(f"a cake vote stakes at least 1 cake, not {cakes!r}")
        row = BookRow(voter, citizen, cakes, side, None, turn)
        self.rows.append(row)
        return row

    def open_rows(self, citizen: Voter) -> list[BookRow]:
        """The rows of ``citizen``'s open trial."""
        # the closing first: a row's citizen is a number or a name, compared generically
        return [r for r in self.rows if r.closing is None and r.citizen == citizen]

    def is_on_trial(self, citizen: Voter) -> bool:
        """Whether ``citizen`` has an open trial (a justice scale) in the Book."""
        return any(r.closing is None and r.citizen == citizen for r in self.rows)

    def scales(self, citizen: Voter) -> dict[str, int]:
        """Cakes on each scale of ``citizen``'s open trial."""
        totals = {SANS_CULOTTE: 0, PRIVILEGED: 0}
        for r in self.open_rows(citizen):
            totals[r.side] += r.cakes
        return totals

    def close(self, citizen: Voter, order: Sequence[Voter]) -> TrialClosing:
        """Close ``citizen``'s open trial: the verdict and rewards, and its rows marked closed."""
        rows = self.open_rows(citizen)
        if not rows:
            raise BookError(f"{citizen} has no open trial in the Book")
        try:
            closing = close_trial(rows, order)
        except ValueError as exc:
            raise BookError(str(exc)) from None
        self.closings += 1
        for r in rows:
            r.closing = self.closings
        return closing

    def copy(self) -> BookOfPublicSafety:
        """An independent copy."""
        # A closed row never changes again, so only the rows of open trials are copied.
        return BookOfPublicSafety([r if r.closing is not None else BookRow(
            r.voter, r.citizen, r.cakes, r.side, None, r.turn) for r in self.rows], self.closings)

    # -- the paper companion's CSV -----------------------------------------------------------
    CSV_HEADER: Final = ("voter", "citizen", "cakes", "side")

    @classmethod
    def from_csv(cls, text: str, source: str = "the Book") -> BookOfPublicSafety:
        """Read a Book written as CSV: ``voter,citizen,cakes,side`` and an optional ``closed``
        column holding the closing number of rows already counted."""
        rows = _csv_rows(text, source)
        header = [h.strip().lower() for h in next(rows, (1, []))[1]]
        if header[:4] != list(cls.CSV_HEADER) or header[4:] not in ([], ["closed"]):
            raise BookError(f"{source} must start with the header voter,citizen,cakes,side "
                            f"(and optionally closed); found {','.join(header) or 'nothing'}")
        book = BookOfPublicSafety()
        for line, raw in rows:
            if not any(cell.strip() for cell in raw):
                continue
            cells = [c.strip() for c in raw] + [""] * (len(header) - len(raw))
            if len(raw) > len(header):
                raise BookError(f"{source}, line {line}: expected {len(header)} columns, found {len(raw)}")
            voter, citizen, cakes_text, side_text = cells[:4]
            if not voter or not citizen:
                raise BookError(f"{source}, line {line}: the voter and the citizen must be named")
            for name in (voter, citizen):
                if name.casefold() == BASTILLE.casefold():
                    raise BookError(f"{source}, line {line}: no citizen may be called {BASTILLE}")
            try:
                cakes = int(cakes_text)
            except ValueError:
                raise BookError(f"{source}, line {line}: cakes must be a whole number, "
                                f"not {cakes_text!r}") from None
            if cakes < 1:
                raise BookError(f"{source}, line {line}: a cake vote stakes at least 1 cake, "
                                f"not {cakes}")
            side = parse_side(side_text)
            if side is None:
                raise BookError(f"{source}, line {line}: side must be sans-culotte or privileged, "
                                f"not {side_text!r}")
            closing = None
            if len(header) == 5 and cells[4]:
                try:
                    closing = int(cells[4])
                except ValueError:
                    raise BookError(f"{source}, line {line}: closed must be a closing number, "
                                    f"not {cells[4]!r}") from None
                book.closings = max(book.closings, closing)
            book.rows.append(BookRow(voter, citizen, cakes, side, closing))
        return book

    def to_csv(self) -> str:
        """The Book as CSV with the ``closed`` column."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([*self.CSV_HEADER, "closed"])
        for r in self.rows:
            writer.writerow([r.voter, r.citizen, r.cakes, r.side.replace("_", "-"),
                             "" if r.closing is None else r.closing])
        return out.getvalue()


def _csv_rows(text: str, source: str) -> Iterator[tuple[int, list[str]]]:
    """The CSV's rows with their line numbers; a row the csv module cannot read (a field over
    its size limit, a stray quote) raises :class:`BookError` naming the line."""
    reader = csv.reader(io.StringIO(text))
    while True:
        try:
            raw = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            line = reader.line_num
            if "field larger than field limit" in str(exc):
                raise BookError(f"{source}, line {line}: a field is longer than "
                                f"{csv.field_size_limit()} characters") from None
            raise BookError(f"{source}, line {line} is not readable CSV: {exc}") from None
        yield reader.line_num, raw


def parse_side(text: str) -> str | None:
    """``sans-culotte`` / ``sans_culotte`` / ``S`` or ``privileged`` / ``P``, in any case."""
    t = text.strip().lower().replace("-", "_").replace(" ", "_")
    if t in ("sans_culotte", "s", "sansculotte", "sans_cullotte"):
        return SANS_CULOTTE
    if t in ("privileged", "p"):
        return PRIVILEGED
    return None
