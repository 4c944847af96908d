"""The Culottes study: the rulebook's own questions.

"The research purpose of this board game is to identify winning strategies for grabbers and
revolutionaries." The rulebook asks who eats the Bastille's cakes, who wins between the grabber
and the revolutionary, which role a player should choose given the nature of their citizen, names
the P+epsilon bribery attack and the alliance defence, asks whether revolutionaries gain by bribing
for the truth, whether cockades work as a false signal and whether the vote finds the truth, and
leaves the die's closing faces and the price of cockades as the rules' levers.

Most experiments change one seat's strategy (or the others') against a fixed line-up: every arm
of a study plays the same seeds with its seats turned alike, so the changed seat sits in the same
place of the same game in every arm and each comparison is taken game by game on the seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tricolore.agents import canonical_strategy
from tricolore.core.registry import get_game
from tricolore.games.culottes.data import GRABBER, REVOLUTIONARY
from tricolore.sim import figures
from tricolore.sim.batch import GameRow
from tricolore.sim.report import Table
from tricolore.sim.stats import (
    Claim,
    Estimate,
    binomial_test,
    games,
    mean,
    one_sample_test,
    paired_difference,
    rate,
)
from tricolore.sim.studies.common import (
    PAIRED,
    WIN_SHARE_NOTE,
    GameStudy,
    SeatMeasure,
    Setup,
    by_seed,
    cannot_show,
    estimate_table,
    fair_share_claim,
    metric,
    no_difference,
    paired,
    played_by,
    same_play,
    seat_measure,
    standard,
    win_shares,
)
from tricolore.sim.study import Arm, Experiment, Finding, Rows, Study

GAME = "culottes"
HONEST = "honest-revolutionary"
BRIBER, DEFENDER, PUPPET = "p-epsilon-briber", "alliance-defender", "puppet-grabber"
COCKADER, TRUTH_BRIBER, BY_NATURE, WEIGHER = "cockade-grabber", "truth-briber", "by-nature", "weighing-voter"
GRABBERS = (PUPPET, BRIBER, COCKADER)
"""The named strategies that play the grabber's side (the first is the one the others are
compared with)."""
CLOSING_FACES = ((6,), (5, 6), (4, 5, 6), (3, 4, 5, 6))
COCKADE_PRICES = (1, 3, 6)
"""Settings the die-and-cockades experiment tries (the rulebook's are (5, 6) and 3)."""
ROLE_BACKGROUND = (HONEST, DEFENDER, PUPPET, BRIBER)
"""The four seats the role-choice experiment plays against (cycled to fill other table sizes)."""
ROLE_CASES = (
    (REVOLUTIONARY, REVOLUTIONARY),
    (GRABBER, REVOLUTIONARY),
    (REVOLUTIONARY, GRABBER),
    (GRABBER, GRABBER),
)
"""The rulebook's four cases: the role chosen for a sans-culotte citizen, then for a privileged."""
TRUTH_BACKGROUND = (PUPPET, BRIBER, HONEST, HONEST)
"""The four seats the truth-bribery experiment plays against."""
REWARDS = (1, 3)
COVERS = (1, 3, 6)
"""The P+epsilon attack's rewards and covers the bribe sweep tries (the strategy's defaults are 1
and 3)."""
REFUSING = f"{DEFENDER}:alliances=false"
ALLYING = f"{DEFENDER}:refuse_bribes=false"
"""The alliance defence's two ablations: refusing bribes alone, alliances alone."""


def strategy(text: str) -> str:
    """A Culottes strategy written the one way (so a line-up written twice is one arm)."""
    return canonical_strategy(get_game(GAME), text)


def background(seats: Sequence[str], players: int) -> list[str]:
    """``seats`` repeated (or cut) to fill every seat of the table but one."""
    return [seats[i % len(seats)] for i in range(players - 1)]


def counted(seats: Sequence[str]) -> str:
    """A line-up in words: "2 honest-revolutionary, puppet-grabber"."""
    names = list(dict.fromkeys(seats))
    return ", ".join(f"{seats.count(n)} {n}" if seats.count(n) > 1 else n for n in names)


@dataclass(frozen=True, slots=True)
class Pair:
    """The games of one seed in two arms, and the seat whose strategy the arms change."""

    changed: GameRow
    control: GameRow
    seat: int


def focal_pairs(changed: Sequence[GameRow], control: Sequence[GameRow], focal: str) -> list[Pair]:
    """The games of two arms paired on the seed, with the seat ``focal`` holds in the changed arm's
    game. Both arms turn the same base line-up the same way on each seed, so that seat holds the
    control's strategy in the control's game."""
    return [Pair(x, y, x.strategies.index(focal)) for x, y in by_seed(changed, control)]


def score_and_share_charts(
    score_title: str, score_gaps: Mapping[str, Estimate], share_title: str, share_gaps: Mapping[str, Estimate]
) -> list[str]:
    """The two forest charts an attack or a defence is judged by: the paired differences in score
    and in win share, one row per comparison."""
    return [
        figures.forest_chart(score_title, list(score_gaps), list(score_gaps.values()), axis="points a game"),
        figures.forest_chart(share_title, list(share_gaps), list(share_gaps.values()),
                             axis="difference in win share", percent=True),
    ]


def attacker_changes(
    claims: list[Claim],
    subject: str,
    changed_score: Sequence[float],
    control_score: Sequence[float],
    changed_share: Sequence[float],
    control_share: Sequence[float],
) -> tuple[Estimate, Estimate]:
    """Claim what a change does to the attacker's score and win share, paired on the seed (added
    to ``claims``); the two paired differences."""
    claim, score_gap = change_claim(subject, "the attacker's score", changed_score, control_score,
                                    unit="points")
    claims.append(claim)
    claim, share_gap = change_claim(subject, "the attacker's win share", changed_share, control_share)
    claims.append(claim)
    return score_gap, share_gap


def played_alike(a: Sequence[GameRow], b: Sequence[GameRow]) -> bool:
    """Whether two arms' games came out the same on every seed: the same number of decisions, the
    same sides, scores and winners (what strategies that differ only in a setting nobody acted on
    produce; escrow counts may differ)."""
    pairs = by_seed(a, b)
    return len(pairs) == len(a) == len(b) and all(
        x.actions == y.actions and x.roles == y.roles and x.scores == y.scores and x.winners == y.winners
        for x, y in pairs
    )


def share_at(row: GameRow, seat: int) -> float:
    """The seat's win share in the game."""
    return win_shares(row)[seat]


def score_at(row: GameRow, seat: int) -> float:
    """The seat's score."""
    return row.scores[seat]


def truth_share(row: GameRow) -> float | None:
    """The share of the game's closed trials whose verdict is the citizen's true nature (none
    when no trial closed)."""
    closed = row.metrics.get("trials_closed", 0.0)
    return row.metrics.get("verdicts_true", 0.0) / closed if closed else None


def truth_shares(rows: Sequence[GameRow]) -> list[float]:
    """The share of true verdicts of every game that closed a trial."""
    return [t for t in map(truth_share, rows) if t is not None]


def change_claim(
    subject: str,
    what: str,
    changed: Sequence[float],
    control: Sequence[float],
    *,
    unit: str = "",
    among: str = "",
) -> tuple[Claim, Estimate]:
    """The claim that ``subject`` raises or lowers ``what``: the paired difference ``changed -
    control`` (a share in points when ``unit`` is empty, otherwise a mean in ``unit``) over the
    games ``among`` names (every game when empty), tested with the paired t-test."""
    gap, p = paired(changed, control)
    n = len(changed)
    before, after = mean(control), mean(changed)
    if unit:
        amount, levels = f"{gap.number(2)} {unit}", f"{before.number(2)} → {after.number(2)}"
    else:
        amount, levels = gap.points(), f"{100 * before.value:.1f}% → {100 * after.value:.1f}%"
    per = f" per game{among}"
    claim = Claim(
        f"{subject} {'raises' if gap.value > 0 else 'lowers'} {what}: {amount}{per} ({levels})",
        n,
        gap,
        test=PAIRED + " (paired on the seed)",
        p=p,
        not_shown=f"{subject}: " + no_difference(what, gap, n, not unit, f"games{among}") + f" ({levels})",
    )
    return claim, gap


def estimate_claim(subject: str, what: str, gap: Estimate, unit: str, where: str) -> Claim:
    """A paired difference stated with its interval only, its test being another experiment's
    (``where``), so that one comparison is not tested twice in the study's family."""
    amount = gap.points() if not unit else f"{gap.number(2)} {unit}"
    return Claim(
        f"{subject} changes {what} by {amount} per game (the same comparison is tested in {where})",
        gap.n,
        gap,
    )


def bastille_gap(rows: Sequence[GameRow]) -> Estimate:
    """Bastille cakes to genuine sans-culottes minus those to the privileged: the mean of the
    per-game differences, with its paired interval."""
    return paired_difference(
        metric(rows, "bastille_to_sans_culottes"), metric(rows, "bastille_to_privileged")
    )


def is_grabber(row: GameRow, seat: int) -> bool:
    """Whether the seat played the grabber's side (its secret role, or its strategy where the
    rows lack roles)."""
    return row.roles[seat] == GRABBER if row.roles else row.strategies[seat] in GRABBERS


def grabber_share(rows: Sequence[GameRow]) -> SeatMeasure:
    """The win share of each grabber seat, per seat-game."""
    return seat_measure(rows, is_grabber)


def bastille_experiment(arm: Arm) -> Experiment:
    """The rulebook's first question: do genuine sans-culottes eat more Bastille cakes than the
    privileged."""

    def analyse(rows: Rows) -> Finding:
        played = rows[arm.key]
        n = len(played)
        to_sans, to_privileged = (
            metric(played, "bastille_to_sans_culottes"),
            metric(played, "bastille_to_privileged"),
        )
        gap, p = paired(to_sans, to_privileged)
        more = sum(s > q for s, q in zip(to_sans, to_privileged, strict=True))
        less = sum(s < q for s, q in zip(to_sans, to_privileged, strict=True))
        side = "genuine sans-culottes" if gap.value > 0 else "the privileged"
        claims = [
            Claim(
                f"Genuine sans-culottes receive {mean(to_sans).number(1)} Bastille cakes a game and the "
                f"privileged {mean(to_privileged).number(1)}",
                n,
                mean(to_sans),
            ),
            Claim(
                f"The Bastille favours {side}: sans-culottes minus privileged is "
                f"{gap.number(1)} cakes a game",
                n,
                gap,
                test=PAIRED,
                p=p,
                not_shown="Neither nature is shown to eat more: "
                + no_difference("Bastille cakes", gap, n, False),
            ),
            Claim(
                f"The sans-culottes eat more than the privileged in {rate(more, n).percent()} of games "
                f"and fewer in {rate(less, n).percent()}",
                n,
                rate(more, n),
                test="exact binomial sign test on the games that were not a tie",
                p=binomial_test(more, more + less, 0.5),
                not_shown=f"The sans-culottes eat more in {rate(more, n).percent()} of games and fewer "
                f"in {rate(less, n).percent()}: neither is shown to happen more often",
            ),
        ]
        labels = ["to sans-culottes", "to privileged"]
        means = [mean(to_sans), mean(to_privileged)]
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"Bastille cakes per game ({games(n)})",
                    labels,
                    means,
                    axis="cakes per game",
                    percent=False,
                ),
                figures.forest_chart(
                    f"Sans-culottes minus privileged, per game ({games(n)})",
                    ["Bastille cakes"],
                    [gap],
                    axis="cakes per game",
                ),
            ],
            [
                estimate_table(
                    "Bastille cakes",
                    {**dict(zip(labels, means, strict=True)), "sans-culottes minus privileged": gap},
                    "per game",
                )
            ],
            [
                "The mixed table: every Culottes strategy and random, turned through the seats. "
                "The sheet stack is half sans-culotte and half privileged, so totals compare alike. "
                "Both totals come from the same games, so their difference is taken game by game."
            ],
        )

    return Experiment(
        "bastille",
        "Who eats the Bastille's cakes",
        "Do genuine sans-culottes eat more Bastille cakes than the privileged?",
        (arm,),
        analyse,
    )


def grabber_arms(setup: Setup) -> list[tuple[str, int, Arm]]:
    """Each grabber strategy, 1 to ``players - 2`` of them, against honest revolutionaries."""
    out = []
    for grabber in GRABBERS:
        for k in range(1, setup.players - 1):
            seats = [grabber] * k + [HONEST] * (setup.players - k)
            out.append(
                (
                    grabber,
                    k,
                    setup.arm(
                        f"{grabber}-x{k}", f"{k} {grabber} against {setup.players - k} {HONEST}", seats
                    ),
                )
            )
    return out


def grabber_gap(
    rows_a: Sequence[GameRow], rows_b: Sequence[GameRow], first: str, second: str, k: int
) -> tuple[Claim, Estimate]:
    """Whether ``first``'s grabber seats take more of the win than ``second``'s with ``k`` of them
    at the table: the per-game mean grabber-seat share, paired on the seed."""
    a_share, b_share = grabber_share(rows_a), grabber_share(rows_b)
    b_by_seed = dict(zip(b_share.seeds, b_share.per_game, strict=True))
    both = [(v, b_by_seed[s]) for s, v in zip(a_share.seeds, a_share.per_game, strict=True) if s in b_by_seed]
    gap, p = paired([x for x, _ in both], [y for _, y in both])
    grabbers = f"{k} grabber{'s' if k > 1 else ''}"
    return (
        Claim(
            f"With {grabbers}, a {first} seat takes {'more' if gap.value > 0 else 'less'} of the win "
            f"than a {second} seat, {gap.points()} per seat-game",
            len(both),
            gap,
            test=PAIRED + " (the two batches paired on the seed)",
            p=p,
            not_shown=f"With {grabbers}, {first} against {second}: "
            + no_difference("win share per grabber seat", gap, len(both), True),
        ),
        gap,
    )


def grabbers_experiment(setup: Setup) -> Experiment:
    """The rulebook's second question: when does a grabber beat the revolution. Each grabber seat's
    win share against the fair share, per number of grabbers at the table."""
    arms = grabber_arms(setup)
    fair = 1 / setup.players

    def analyse(rows: Rows) -> Finding:
        claims: list[Claim] = []
        lines: dict[str, list[Estimate]] = {}
        cells: list[list[str]] = []
        counts = sorted({k for _, k, _ in arms})
        for grabber in GRABBERS:
            lines[grabber] = []
            for g, k, a in arms:
                if g != grabber:
                    continue
                m = grabber_share(rows[a.key])
                lines[grabber].append(m.estimate)
                claims.append(
                    fair_share_claim(
                        f"With {k} {grabber} against {setup.players - k} {HONEST}, each grabber seat",
                        m,
                        fair,
                        single_seats=k == 1,
                    )
                )
                cells.append(
                    [
                        grabber,
                        str(k),
                        m.estimate.percent(),
                        f"{100 * fair:.1f}%",
                        f"{m.seat_games:,}",
                        f"{m.games:,}",
                    ]
                )
        gaps: dict[str, Estimate] = {}
        second = GRABBERS[0]
        for first in GRABBERS[1:]:
            for k in counts:
                arm_a = next(a for g, kk, a in arms if g == first and kk == k)
                arm_b = next(a for g, kk, a in arms if g == second and kk == k)
                claim, gap = grabber_gap(rows[arm_a.key], rows[arm_b.key], first, second, k)
                gaps[f"{first}, {k} grabber{'s' if k > 1 else ''}"] = gap
                claims.append(claim)
        n = len(rows[arms[0][2].key])
        table = Table(
            [
                "grabber",
                "grabbers at the table",
                "win share per grabber seat",
                "fair share",
                "seat-games",
                "games",
            ],
            cells,
        )
        return Finding(
            claims,
            [
                figures.sweep_chart(
                    f"Win share per grabber seat ({games(n)} per point)",
                    [str(k) for k in counts],
                    lines,
                    axis="win share per grabber seat",
                    setting_axis="grabbers at the table",
                    percent=True,
                    reference=fair,
                ),
                figures.forest_chart(
                    f"Each grabber minus {second}, win share per grabber seat, paired on the seed "
                    f"({games(n)} each)",
                    list(gaps),
                    list(gaps.values()),
                    axis="difference in win share",
                    percent=True,
                ),
            ],
            [table],
            [
                f"Grabber strategies against {HONEST} players, seats turned from game to game: "
                f"{PUPPET} farms the Bastille with puppets, {BRIBER} adds the P+epsilon attack and "
                f"{COCKADER} buys a cockade for each citizen whatever its nature; each is compared "
                f"with {PUPPET} at the same number of grabbers, game by game on the seed. Each "
                "grabber seat is counted on its own: " + WIN_SHARE_NOTE + " A grabber beats the "
                "revolution when its seats take more than the fair share (the dashed line). With one "
                "grabber and no shared win the test is the exact binomial test; otherwise a one-sample "
                "t-test of each game's mean grabber-seat share, so that the grabbers of one game are "
                "not counted as separate games."
            ],
        )

    return Experiment(
        "grabbers",
        "When the grabber beats the revolution",
        "When does the best grabber beat the revolution?",
        tuple(a for _, _, a in arms),
        analyse,
    )


def one_against(setup: Setup, focal: str, others: str = HONEST, key: str = "") -> Arm:
    """One ``focal`` against ``others`` in every other seat, its rows kept under ``key`` (by
    default named after the two). With honest revolutionaries it is the one-grabber arm of the
    grabbers experiment (the same key and line-up, so it is played once)."""
    n = setup.players - 1
    key = key or (f"{focal}-x1" if others == HONEST else f"{focal}-vs-{others}")
    return setup.arm(key, f"1 {focal} against {n} {others}", [focal] + [others] * n)


def defended_arm(setup: Setup) -> Arm:
    """One p-epsilon-briber against alliance defenders."""
    return one_against(setup, BRIBER, DEFENDER)


def bribery_experiment(setup: Setup) -> Experiment:
    """What a P+epsilon attack gains, and how much the alliance defence takes back, compared game by
    game on the seed (the attacker sits in the same seat of the same seed in every batch)."""
    plain, attack, defended = one_against(setup, PUPPET), one_against(setup, BRIBER), defended_arm(setup)

    def analyse(rows: Rows) -> Finding:
        def attacker(arm: Arm, name: str) -> dict[int, tuple[float, float]]:
            """Per seed, the attacker's score and win share."""
            out = {}
            for r in rows[arm.key]:
                seat = r.strategies.index(name)
                out[r.seed] = (r.scores[seat], win_shares(r)[seat])
            return out

        base, bribed, guarded = attacker(plain, PUPPET), attacker(attack, BRIBER), attacker(defended, BRIBER)
        seeds = sorted(set(base) & set(bribed) & set(guarded))
        n = len(seeds)

        def column(d: dict[int, tuple[float, float]], i: int) -> list[float]:
            return [d[s][i] for s in seeds]

        claims: list[Claim] = []
        score_gaps: dict[str, Estimate] = {}
        share_gaps: dict[str, Estimate] = {}
        for label, x, y in (
            ("the attack (briber minus the same grabber without bribes)", bribed, base),
            ("the defence (briber against defenders minus against honest players)", guarded, bribed),
        ):
            gap, p = paired(column(x, 0), column(y, 0))
            share, p_share = paired(column(x, 1), column(y, 1))
            score_gaps[label] = gap
            share_gaps[label] = share
            claims.append(
                Claim(
                    f"{label[0].upper() + label[1:]} changes the attacker's score by {gap.number(2)} points "
                    f"a game ({mean(column(y, 0)).number(2)} → {mean(column(x, 0)).number(2)})",
                    n,
                    gap,
                    test=PAIRED + " (paired on the seed)",
                    p=p,
                    not_shown=f"{label[0].upper() + label[1:]}: "
                    + no_difference("the attacker's score", gap, n, False),
                )
            )
            claims.append(
                Claim(
                    f"{label[0].upper() + label[1:]} changes the attacker's win share by {share.points()} "
                    f"({100 * mean(column(y, 1)).value:.1f}% → {100 * mean(column(x, 1)).value:.1f}%)",
                    n,
                    share,
                    test=PAIRED + " (paired on the seed)",
                    p=p_share,
                    not_shown=f"{label[0].upper() + label[1:]}: "
                    + no_difference("the attacker's win share", share, n, True),
                )
            )
        accepted, paid = (
            metric(rows[attack.key], "bribes_accepted"),
            metric(rows[attack.key], "bribe_cakes_paid"),
        )
        forfeits = metric(rows[defended.key], "alliance_deposits_forfeited")
        claims.append(
            Claim(
                f"Per game, {mean(accepted).number(2)} bribes are accepted and "
                f"{mean(paid).number(2)} cakes paid "
                f"out of escrow; against the alliance, {mean(forfeits).number(2)} deposits are forfeited",
                n,
                mean(accepted),
            )
        )
        labels = [plain.label, attack.label, defended.label]
        scores = [mean(column(base, 0)), mean(column(bribed, 0)), mean(column(guarded, 0))]
        wins = [mean(column(base, 1)), mean(column(bribed, 1)), mean(column(guarded, 1))]
        return Finding(
            claims,
            [
                *score_and_share_charts(
                    f"Changes in the attacker's score, paired on the seed ({games(n)} each)",
                    score_gaps,
                    f"Changes in the attacker's win share, paired on the seed ({games(n)} each)",
                    share_gaps,
                ),
                figures.estimates_chart(
                    f"The attacker's score ({games(n)} each)",
                    labels,
                    scores,
                    axis="mean score",
                    percent=False,
                ),
            ],
            [
                estimate_table("table", dict(zip(labels, scores, strict=True)), "attacker's score"),
                Table(
                    ["table", "attacker's win share", "games"],
                    [[label, w.percent(), f"{w.n:,}"] for label, w in zip(labels, wins, strict=True)],
                ),
            ],
            [
                "Deals are kept by the engine: deposits held in escrow and settled when the trial closes "
                "(see the game's doc).",
                "The three batches play the same seeds with the attacker in the same seat, so each "
                "comparison is taken game by game on the seed. " + WIN_SHARE_NOTE,
            ],
        )

    return Experiment(
        "bribery",
        "The P+epsilon attack and the alliance defence",
        "What does a P+epsilon attack gain, and how much of it does the alliance defence take back?",
        (plain, attack, defended),
        analyse,
    )


def role_arms(setup: Setup) -> dict[tuple[str, str], tuple[str, Arm]]:
    """For each of the rulebook's four cases (the role for a sans-culotte, then for a privileged),
    the by-nature strategy that plays it and its arm against the fixed background."""
    others = background(ROLE_BACKGROUND, setup.players)
    out = {}
    for for_sans, for_privileged in ROLE_CASES:
        focal = strategy(f"{BY_NATURE}:sans_culotte={for_sans},privileged={for_privileged}")
        arm = setup.arm(
            f"{BY_NATURE}-{for_sans}-{for_privileged}",
            f"{for_sans} for a sans-culotte, {for_privileged} for a privileged",
            [focal, *others],
        )
        out[(for_sans, for_privileged)] = (focal, arm)
    return out


def roles_experiment(setup: Setup) -> Experiment:
    """Which role a player should choose given the nature of their citizen: one seat chooses by
    nature in each of the four ways against a fixed background; the choice for one nature is
    compared game by game on the games where the citizen is of that nature."""
    arms = role_arms(setup)
    fair = 1 / setup.players
    others = background(ROLE_BACKGROUND, setup.players)

    def analyse(rows: Rows) -> Finding:
        claims: list[Claim] = []
        measures: dict[str, SeatMeasure] = {}
        scores: dict[str, SeatMeasure] = {}
        for (for_sans, for_privileged), (focal, arm) in arms.items():
            played = rows[arm.key]
            measures[arm.label] = seat_measure(played, played_by(focal))
            scores[arm.label] = seat_measure(played, played_by(focal), score_at)
            claims.append(
                fair_share_claim(
                    f"Choosing {for_sans} for a sans-culotte and {for_privileged} for a privileged, the seat",
                    measures[arm.label],
                    fair,
                    single_seats=True,
                )
            )
        gaps: dict[str, Estimate] = {}
        notes: list[str] = []
        _, control = arms[(REVOLUTIONARY, REVOLUTIONARY)]
        for nature, case in (
            ("sans-culotte", (GRABBER, REVOLUTIONARY)),
            ("privileged", (REVOLUTIONARY, GRABBER)),
        ):
            focal, arm = arms[case]
            pairs = focal_pairs(rows[arm.key], rows[control.key], focal)
            # The changed arm's focal seat is a grabber exactly where its first citizen has this nature.
            chosen = [q for q in pairs if q.changed.roles[q.seat] == GRABBER]
            alike = sum(
                q.changed.scores == q.control.scores and q.changed.actions == q.control.actions
                for q in pairs
                if q.changed.roles[q.seat] != GRABBER
            )
            among = f" where the citizen is a {nature}"
            claim, gap = change_claim(
                f"Choosing grabber rather than revolutionary when one's first citizen is a {nature}",
                "the seat's win share",
                [share_at(q.changed, q.seat) for q in chosen],
                [share_at(q.control, q.seat) for q in chosen],
                among=among,
            )
            claims.append(claim)
            gaps[f"grabber rather than revolutionary, for a {nature}"] = gap
            notes.append(
                f"For a {nature}: {games(len(chosen))} of {len(pairs):,} had the citizen a {nature}; "
                f"of the other {len(pairs) - len(chosen):,}, where both batches chose revolutionary, "
                f"{alike:,} were played exactly alike in both."
            )
        labels = list(measures)
        n = len(rows[control.key])
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"The choosing seat's win share per case ({games(n)} each)",
                    labels,
                    [measures[x].estimate for x in labels],
                    axis="win share",
                    reference=fair,
                    reference_label="fair share",
                ),
                figures.forest_chart(
                    "Grabber rather than revolutionary, win share per game where the citizen has that "
                    "nature, paired on the seed",
                    list(gaps),
                    list(gaps.values()),
                    axis="difference in win share",
                    percent=True,
                ),
            ],
            [
                Table(
                    ["role chosen", "win share", "95% interval", "mean score", "games"],
                    [
                        [
                            x,
                            f"{100 * measures[x].estimate.value:.1f}%",
                            f"{100 * measures[x].estimate.low:.1f}–{100 * measures[x].estimate.high:.1f}%",
                            scores[x].estimate.number(2),
                            f"{measures[x].games:,}",
                        ]
                        for x in labels
                    ],
                ),
                Table(
                    ["choice", "difference in win share", "95% interval", "games"],
                    [
                        [
                            name,
                            f"{100 * g.value:+.1f} points",
                            f"{100 * g.low:.1f}–{100 * g.high:.1f}",
                            f"{g.n:,}",
                        ]
                        for name, g in gaps.items()
                    ],
                ),
            ],
            [
                f"One seat plays {BY_NATURE}, which chooses its role by the nature of its first "
                "citizen (the only flap it sees at the role choice) and then plays honest-revolutionary "
                f"or puppet-grabber; the other seats are {counted(others)}, the same in every case. "
                + WIN_SHARE_NOTE,
                "The four cases play the same seeds with the choosing seat in the same place, so on "
                "each seed its first citizen has the same nature in all four. Revolutionary for both "
                "natures is the control: choosing grabber for a sans-culotte changes only the games "
                "where the citizen is a sans-culotte, so that choice is compared on those games alone "
                "(the difference is per game where the citizen is a sans-culotte, not diluted over "
                "every game); likewise for a privileged. Grabber for both repeats, game by game, one of "
                "the two single choices, and is shown for its win share only.",
                *notes,
                "This answers the question against one background. Which choice is best when every "
                "other player also chooses well is the question of the equilibrium, which the "
                f"empirical game answers (tricolore empirical {GAME}).",
            ],
        )

    return Experiment(
        "roles",
        "Which role to choose",
        "Which role should a player choose, given the nature of their citizen?",
        tuple(arm for _, arm in arms.values()),
        analyse,
    )


def sweep_arms(setup: Setup) -> dict[tuple[int, int], tuple[str, Arm]]:
    """For each reward and cover, the p-epsilon-briber that plays it and its arm against honest
    revolutionaries (the defaults are the bribery experiment's attack, under its key)."""
    out = {}
    for reward in REWARDS:
        for cover in COVERS:
            focal = strategy(f"{BRIBER}:reward={reward},cover={cover}")
            key = "" if focal == BRIBER else f"{BRIBER}-reward-{reward}-cover-{cover}"
            out[(reward, cover)] = (focal, one_against(setup, focal, key=key))
    return out


def sweep_experiment(setup: Setup) -> Experiment:
    """What the P+epsilon attack gains across its rewards and covers: each setting against the same
    grabber without bribes, game by game on the seed."""
    plain = one_against(setup, PUPPET)
    arms = sweep_arms(setup)
    default = one_against(setup, BRIBER)

    def analyse(rows: Rows) -> Finding:
        claims: list[Claim] = []
        score_gaps: dict[str, Estimate] = {}
        share_gaps: dict[str, Estimate] = {}
        cells: list[list[str]] = []
        for (reward, cover), (focal, arm) in arms.items():
            pairs = focal_pairs(rows[arm.key], rows[plain.key], focal)
            label = f"reward {reward}, cover {cover}"
            subject = f"The attack with {label}"
            changed_score = [score_at(q.changed, q.seat) for q in pairs]
            control_score = [score_at(q.control, q.seat) for q in pairs]
            changed_share = [share_at(q.changed, q.seat) for q in pairs]
            control_share = [share_at(q.control, q.seat) for q in pairs]
            _, first = arms[(REWARDS[0], cover)]
            if arm.key == default.key:
                score_gap = paired_difference(changed_score, control_score)
                share_gap = paired_difference(changed_share, control_share)
                where = "the P+epsilon experiment"
                claims.append(estimate_claim(subject, "the attacker's score", score_gap, "points", where))
                claims.append(estimate_claim(subject, "the attacker's win share", share_gap, "", where))
            elif first.key != arm.key and played_alike(rows[arm.key], rows[first.key]):
                score_gap = paired_difference(changed_score, control_score)
                share_gap = paired_difference(changed_share, control_share)
                paid = sum(metric(rows[first.key], "bribe_rewards_paid"))
                claims.append(
                    Claim(
                        f"At cover {cover}, a reward of {reward} rather than {REWARDS[0]} changed no game: "
                        "every game had the same decisions, scores and winners, so the attack gains the "
                        f"same, {score_gap.number(2)} points and {share_gap.points()} of the win per game "
                        f"(rewards paid at reward {REWARDS[0]}: {paid:,.0f} cakes in all)",
                        len(pairs),
                        score_gap,
                    )
                )
            else:
                score_gap, share_gap = attacker_changes(
                    claims, subject, changed_score, control_score, changed_share, control_share
                )
            score_gaps[label] = score_gap
            share_gaps[label] = share_gap
            played = rows[arm.key]
            cells.append(
                [
                    label,
                    score_gap.number(2),
                    share_gap.points(),
                    mean(metric(played, "bribes_offered")).number(2),
                    mean(metric(played, "bribes_accepted")).number(2),
                    mean(metric(played, "bribe_cakes_paid")).number(2),
                    mean(metric(played, "bribe_rewards_paid")).number(2),
                    f"{len(pairs):,}",
                ]
            )
        n = len(rows[plain.key])
        return Finding(
            claims,
            [
                *score_and_share_charts(
                    f"The attacker's score minus the same grabber's without bribes, paired on the seed "
                    f"({games(n)} each)",
                    score_gaps,
                    f"The attacker's win share minus the same grabber's without bribes, paired on the "
                    f"seed ({games(n)} each)",
                    share_gaps,
                ),
                figures.sweep_chart(
                    f"What the attack gains in score, by cover ({games(n)} per point)",
                    [str(c) for c in COVERS],
                    {f"reward {r}": [score_gaps[f"reward {r}, cover {c}"] for c in COVERS] for r in REWARDS},
                    axis="points a game",
                    setting_axis="cover (the most lost cakes reimbursed)",
                    reference=0,
                ),
            ],
            [
                Table(
                    [
                        "bribe",
                        "score gained (paired)",
                        "win share gained (paired)",
                        "bribes offered",
                        "bribes accepted",
                        "cakes paid",
                        "rewards paid",
                        "games",
                    ],
                    cells,
                )
            ],
            [
                f"One {BRIBER} with each reward (the epsilon paid above the reimbursement if its side "
                f"loses) and cover (the most lost cakes it reimburses) against {setup.players - 1} "
                f"{HONEST}, each compared game by game on the seed with the {PUPPET} batch: the same "
                "grabber without bribes, in the same seat. The bribe counts are means per game.",
                f"Reward {REWARDS[0]} and cover 3 are the strategy's defaults, the attack of the "
                "P+epsilon experiment: its difference is shown here with its interval and tested "
                "there, so the one comparison is not tested twice. A higher reward whose every game "
                "came out as at the lowest reward (the same decisions, scores and winners on every seed) "
                "is said to change nothing rather than tested again. " + WIN_SHARE_NOTE,
            ],
        )

    return Experiment(
        "bribe-sweep",
        "The P+epsilon attack's rewards and covers",
        "What does the P+epsilon attack gain across rewards and covers?",
        (plain, *(arm for _, arm in arms.values())),
        analyse,
    )


def defence_experiment(setup: Setup) -> Experiment:
    """How the alliance defence works: one p-epsilon-briber against revolutionaries who refuse
    bribes, found alliances, do both or neither, compared game by game with the last."""
    honest = one_against(setup, BRIBER)
    refusing = one_against(setup, BRIBER, strategy(REFUSING), key=f"{BRIBER}-vs-{DEFENDER}-refusing-only")
    allying = one_against(setup, BRIBER, strategy(ALLYING), key=f"{BRIBER}-vs-{DEFENDER}-alliances-only")
    both = defended_arm(setup)
    defences = (
        ("refusing bribes alone", refusing),
        ("alliances alone", allying),
        ("refusing bribes and alliances", both),
    )

    def analyse(rows: Rows) -> Finding:
        claims: list[Claim] = []
        score_gaps: dict[str, Estimate] = {}
        share_gaps: dict[str, Estimate] = {}
        per_arm: dict[str, list[float]] = {}
        for name, arm in defences:
            pairs = focal_pairs(rows[arm.key], rows[honest.key], BRIBER)
            subject = f"The defence by {name}"
            changed_score = [score_at(q.changed, q.seat) for q in pairs]
            control_score = [score_at(q.control, q.seat) for q in pairs]
            changed_share = [share_at(q.changed, q.seat) for q in pairs]
            control_share = [share_at(q.control, q.seat) for q in pairs]
            if arm.key == both.key:
                where = "the P+epsilon experiment"
                score_gap = paired_difference(changed_score, control_score)
                share_gap = paired_difference(changed_share, control_share)
                claims.append(estimate_claim(subject, "the attacker's score", score_gap, "points", where))
                claims.append(estimate_claim(subject, "the attacker's win share", share_gap, "", where))
            else:
                score_gap, share_gap = attacker_changes(
                    claims, subject, changed_score, control_score, changed_share, control_share
                )
            score_gaps[name] = score_gap
            share_gaps[name] = share_gap
            claims.append(
                change_claim(
                    subject,
                    "the bribes accepted",
                    [q.changed.metrics.get("bribes_accepted", 0.0) for q in pairs],
                    [q.control.metrics.get("bribes_accepted", 0.0) for q in pairs],
                    unit="bribes",
                )[0]
            )
        for alone, arm in defences[:2]:
            pairs = focal_pairs(rows[both.key], rows[arm.key], BRIBER)
            claim, _ = change_claim(
                f"Adding the other half of the defence to {alone}",
                "the attacker's score",
                [score_at(q.changed, q.seat) for q in pairs],
                [score_at(q.control, q.seat) for q in pairs],
                unit="points",
            )
            claims.append(claim)
        cells: list[list[str]] = []
        for name, arm in (("neither", honest), *defences):
            played = rows[arm.key]
            accepted, forfeited = (
                metric(played, "bribes_accepted"),
                metric(played, "alliance_deposits_forfeited"),
            )
            per_arm[name] = accepted
            cells.append(
                [
                    name,
                    mean(metric(played, "bribes_offered")).number(2),
                    mean(accepted).number(2),
                    mean(metric(played, "alliances_founded")).number(2),
                    mean(forfeited).number(2),
                    f"{len(played):,}",
                ]
            )
            claims.append(
                Claim(
                    f"Against {name}, {mean(accepted).number(2)} bribes are accepted and "
                    f"{mean(forfeited).number(2)} alliance deposits forfeited per game",
                    len(played),
                    mean(accepted),
                )
            )
        n = len(rows[honest.key])
        return Finding(
            claims,
            [
                *score_and_share_charts(
                    f"The attacker's score against each defence minus against {HONEST}, paired on the "
                    f"seed ({games(n)} each)",
                    score_gaps,
                    f"The attacker's win share against each defence minus against {HONEST}, paired on "
                    f"the seed ({games(n)} each)",
                    share_gaps,
                ),
                figures.estimates_chart(
                    f"Bribes accepted per game ({games(n)} each)",
                    list(per_arm),
                    [mean(v) for v in per_arm.values()],
                    axis="bribes accepted per game",
                    percent=False,
                ),
            ],
            [
                Table(
                    [
                        "defence",
                        "bribes offered",
                        "bribes accepted",
                        "alliances founded",
                        "deposits forfeited",
                        "games",
                    ],
                    cells,
                ),
                estimate_table("defence", score_gaps, "attacker's score, minus against no defence"),
            ],
            [
                f"One {BRIBER} against {setup.players - 1} revolutionaries of one kind: {HONEST} "
                f"(neither defence), {strategy(REFUSING)} (refusing bribes alone), {strategy(ALLYING)} "
                f"(alliances alone: it accepts, as the {HONEST} does, a bribe to vote what it believes) "
                f"and {DEFENDER} (both). Every batch plays the same seeds with the attacker in the same "
                "seat, so each defence is compared with no defence game by game on the seed, and both "
                "halves together with each half alone. Counts are means per game.",
                "Both halves against no defence is the bribery experiment's defence, against the same "
                "batch: its difference is shown here with its interval and tested there. " + WIN_SHARE_NOTE,
            ],
        )

    return Experiment(
        "defence",
        "The alliance defence, half by half",
        "How does the alliance defence work: refusing bribes alone, alliances alone, or both?",
        (honest, refusing, allying, both),
        analyse,
    )


def truth_bribery_experiment(setup: Setup) -> Experiment:
    """Whether a revolutionary gains by bribing for the truth: a truth-briber and an honest
    revolutionary in the same seat against the same table."""
    others = background(TRUTH_BACKGROUND, setup.players)
    bribing = setup.arm(
        f"{TRUTH_BRIBER}-table", f"{TRUTH_BRIBER} with {counted(others)}", [TRUTH_BRIBER, *others]
    )
    honest = setup.arm(f"{HONEST}-table", f"{HONEST} with {counted(others)}", [HONEST, *others])

    def analyse(rows: Rows) -> Finding:
        pairs = focal_pairs(rows[bribing.key], rows[honest.key], TRUTH_BRIBER)
        subject = f"Bribing for the truth ({TRUTH_BRIBER} rather than {HONEST})"
        share, share_gap = change_claim(
            subject,
            "the seat's win share",
            [share_at(q.changed, q.seat) for q in pairs],
            [share_at(q.control, q.seat) for q in pairs],
        )
        closed = [
            (t, u)
            for q in pairs
            if (t := truth_share(q.changed)) is not None and (u := truth_share(q.control)) is not None
        ]
        truth, truth_gap = change_claim(
            subject,
            "the share of closed trials whose verdict is true",
            [t for t, _ in closed],
            [u for _, u in closed],
            among=" that closed a trial in both batches",
        )
        score_gap = paired_difference(
            [score_at(q.changed, q.seat) for q in pairs], [score_at(q.control, q.seat) for q in pairs]
        )
        claims = [
            share,
            truth,
            Claim(
                f"{subject} changes the seat's score by {score_gap.number(2)} points per game",
                score_gap.n,
                score_gap,
            ),
        ]
        n = len(pairs)
        rows_table = []
        for arm in (honest, bribing):
            played = rows[arm.key]
            focal = TRUTH_BRIBER if arm is bribing else None
            seat_share = mean([share_at(q.changed if focal else q.control, q.seat) for q in pairs])
            rows_table.append(
                [
                    arm.label,
                    seat_share.percent(),
                    mean(truth_shares(played)).percent(),
                    mean(metric(played, "bribes_offered")).number(2),
                    mean(metric(played, "bribes_accepted")).number(2),
                    f"{len(played):,}",
                ]
            )
        return Finding(
            claims,
            [
                figures.forest_chart(
                    f"{TRUTH_BRIBER} minus {HONEST} in the same seat, paired on the seed ({games(n)})",
                    ["the seat's win share", "share of true verdicts"],
                    [share_gap, truth_gap],
                    axis="difference (percentage points)",
                    percent=True,
                )
            ],
            [
                Table(
                    [
                        "batch",
                        "the seat's win share",
                        "true verdicts per game",
                        "bribes offered",
                        "bribes accepted",
                        "games",
                    ],
                    rows_table,
                )
            ],
            [
                f"One seat plays {TRUTH_BRIBER} or {HONEST}; the others are {counted(others)}, the same "
                "in both batches, which play the same seeds with that seat in the same place. The seat's "
                "win share and the share of true verdicts (verdicts_true over trials_closed, per game) "
                "are compared game by game on the seed; games that closed no trial in either batch have "
                f"no share and are left out. Bribe counts include the {BRIBER}'s. " + WIN_SHARE_NOTE,
            ],
        )

    return Experiment(
        "truth-bribery",
        "Bribing for the truth",
        "Do revolutionaries gain by bribing for the truth?",
        (honest, bribing),
        analyse,
    )


def cockade_arms(setup: Setup) -> dict[str, tuple[Arm, Arm]]:
    """For each kind of voter, the cockade-grabber's arm and the puppet-grabber's against them."""
    return {
        voters: (one_against(setup, COCKADER, voters), one_against(setup, PUPPET, voters))
        for voters in (HONEST, WEIGHER)
    }


def weighing_alike(rows: Rows, arms: dict[str, tuple[Arm, Arm]]) -> bool:
    """Whether both grabbers' games against weighing voters came out exactly as against honest
    revolutionaries."""
    return all(played_alike(rows[arms[HONEST][i].key], rows[arms[WEIGHER][i].key]) for i in range(2))


def weighing_alike_claim(n: int) -> Claim:
    """The claim that the weighing voters changed no vote, so nothing can be said about them."""
    return Claim(
        f"Against {WEIGHER} this cannot show anything beyond the {HONEST} batches: with either grabber, "
        f"every game came out as against {HONEST} (the same decisions, scores and winners), so the "
        "weighing of cockades with the scales and the owner's votes changed no vote at this table",
        n,
        test="the games of the two kinds of voter compared seed by seed",
        cannot=True,
    )


def cockades_experiment(setup: Setup) -> Experiment:
    """Whether cockades work as a false signal: a grabber buying cockades against the same grabber
    buying none, before voters who trust cockades and before voters who weigh them with the scales."""
    arms = cockade_arms(setup)

    def analyse(rows: Rows) -> Finding:
        claims: list[Claim] = []
        score_gaps: dict[str, Estimate] = {}
        share_gaps: dict[str, Estimate] = {}
        cake_gaps: dict[str, Estimate] = {}
        share_diffs: dict[str, dict[int, float]] = {}
        cells: list[list[str]] = []
        alike = weighing_alike(rows, arms)
        for voters, (cockades, plain) in arms.items():
            if voters == WEIGHER and alike:
                claims.append(weighing_alike_claim(len(rows[cockades.key])))
                continue
            pairs = focal_pairs(rows[cockades.key], rows[plain.key], COCKADER)
            subject = f"Against {voters}, buying cockades ({COCKADER} rather than {PUPPET})"
            claim, score_gaps[voters] = change_claim(
                subject,
                "the grabber's score",
                [score_at(q.changed, q.seat) for q in pairs],
                [score_at(q.control, q.seat) for q in pairs],
                unit="points",
            )
            claims.append(claim)
            claim, share_gaps[voters] = change_claim(
                subject,
                "the grabber's win share",
                [share_at(q.changed, q.seat) for q in pairs],
                [share_at(q.control, q.seat) for q in pairs],
            )
            claims.append(claim)
            claim, cake_gaps[voters] = change_claim(
                subject,
                "the Bastille cakes to the privileged",
                [q.changed.metrics.get("bastille_to_privileged", 0.0) for q in pairs],
                [q.control.metrics.get("bastille_to_privileged", 0.0) for q in pairs],
                unit="cakes",
            )
            claims.append(claim)
            share_diffs[voters] = {
                q.changed.seed: share_at(q.changed, q.seat) - share_at(q.control, q.seat) for q in pairs
            }
        for cockades, plain in arms.values():
            for arm in (plain, cockades):
                played = rows[arm.key]
                focal = COCKADER if arm is cockades else PUPPET
                cells.append(
                    [
                        arm.label,
                        seat_measure(played, played_by(focal), score_at).estimate.number(2),
                        seat_measure(played, played_by(focal)).estimate.percent(),
                        mean(metric(played, "bastille_to_privileged")).number(2),
                        f"{len(played):,}",
                    ]
                )
        n = len(rows[arms[HONEST][0].key])
        share_labels = [f"against {v}" for v in share_gaps]
        share_values = list(share_gaps.values())
        if not alike:
            trusting, weighing = share_diffs[HONEST], share_diffs[WEIGHER]
            seeds = sorted(set(trusting) & set(weighing))
            claim, blunted = change_claim(
                f"Voters who weigh cockades with the scales ({WEIGHER} rather than {HONEST})",
                "what cockades gain in the grabber's win share",
                [weighing[s] for s in seeds],
                [trusting[s] for s in seeds],
            )
            claims.append(claim)
            share_labels.append(f"{WEIGHER} minus {HONEST} (difference of differences)")
            share_values.append(blunted)
        labels = [
            f"against {v}: {what}"
            for v in score_gaps
            for what in ("score (points)", "Bastille cakes to the privileged")
        ]
        values = [e for v in score_gaps for e in (score_gaps[v], cake_gaps[v])]
        return Finding(
            claims,
            [
                figures.forest_chart(
                    f"{COCKADER} minus {PUPPET}, paired on the seed ({games(n)} each)",
                    labels,
                    values,
                    axis="difference per game",
                ),
                figures.forest_chart(
                    f"{COCKADER} minus {PUPPET}, win share, paired on the seed ({games(n)} each)",
                    share_labels,
                    share_values,
                    axis="difference in win share",
                    percent=True,
                ),
            ],
            [
                Table(
                    [
                        "batch",
                        "the grabber's score",
                        "its win share",
                        "Bastille cakes to the privileged",
                        "games",
                    ],
                    cells,
                )
            ],
            [
                f"One grabber against {setup.players - 1} voters of one kind: {HONEST}, who trust "
                f"cockades (a citizen wearing one is voted sans-culotte), or {WEIGHER}, who weigh "
                "cockades with the scales and the owner's votes. The grabber is a "
                f"{COCKADER} (each citizen buys one cockade from its first turn, whatever its nature) or "
                f"the same grabber buying cockades only for true sans-culottes ({PUPPET}). All four "
                "batches play the same seeds with the grabber in the same seat, so each difference is "
                "taken game by game, and so is the difference between the two kinds of voter. "
                + WIN_SHARE_NOTE,
                f"When the {WEIGHER} batches came out exactly as the {HONEST} batches on every seed "
                "(the same decisions, scores and winners), the weighing changed no vote: the experiment "
                "says so and tests nothing about them.",
            ],
        )

    return Experiment(
        "cockades",
        "Cockades as a false signal",
        "Do cockades work as a false signal?",
        tuple(a for pair in arms.values() for a in pair),
        analyse,
    )


def truth_experiment(setup: Setup, mixed: Arm) -> Experiment:
    """Whether the vote finds the truth: the share of closed trials whose verdict is the citizen's
    true nature, at the mixed table against a coin, and in the role and cockade batches."""
    cockades = cockade_arms(setup)
    roles = role_arms(setup)
    compared: list[Arm] = [
        *(a for pair in cockades.values() for a in pair),
        *(arm for _, arm in roles.values()),
    ]

    def analyse(rows: Rows) -> Finding:
        played = rows[mixed.key]
        shares = truth_shares(played)
        share = mean(shares)
        closed = sum(metric(played, "trials_closed"))
        claims = [
            Claim(
                f"At the mixed table the vote finds the truth in {share.percent()} of a game's closed "
                f"trials, {'more' if share.value > 0.5 else 'less'} often than a coin would (50%)",
                len(shares),
                share,
                test="one-sample t-test of the per-game share of true verdicts against 0.5",
                p=one_sample_test(shares, 0.5),
                not_shown=f"At the mixed table the vote finds the truth in {share.percent()} of a game's "
                "closed trials: "
                + no_difference(
                    "the share from a coin's 50%",
                    Estimate(share.value - 0.5, share.low - 0.5, share.high - 0.5, share.n),
                    len(shares),
                    True,
                ),
            )
        ]
        gaps: dict[str, Estimate] = {}
        alike = weighing_alike(rows, cockades)
        for voters, (with_cockades, plain) in cockades.items():
            if voters == WEIGHER and alike:
                claims.append(weighing_alike_claim(len(rows[with_cockades.key])))
                continue
            both = [
                (t, u)
                for x, y in by_seed(rows[with_cockades.key], rows[plain.key])
                if (t := truth_share(x)) is not None and (u := truth_share(y)) is not None
            ]
            claim, gaps[f"against {voters}"] = change_claim(
                f"Against {voters}, a {COCKADER} rather than a {PUPPET}",
                "the share of closed trials whose verdict is true",
                [t for t, _ in both],
                [u for _, u in both],
                among=" that closed a trial in both batches",
            )
            claims.append(claim)
        estimates = {mixed.label: share, **{a.label: mean(truth_shares(rows[a.key])) for a in compared}}
        counts = {mixed.label: len(played), **{a.label: len(rows[a.key]) for a in compared}}
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"Share of a game's closed trials whose verdict is true ({games(len(played))} each)",
                    list(estimates),
                    list(estimates.values()),
                    axis="true verdicts",
                    reference=0.5,
                    reference_label="a coin",
                ),
                figures.forest_chart(
                    f"{COCKADER} minus {PUPPET}, share of true verdicts, paired on the seed",
                    list(gaps),
                    list(gaps.values()),
                    axis="difference in the share of true verdicts",
                    percent=True,
                ),
            ],
            [
                Table(
                    ["batch", "true verdicts per game", "games with a closed trial", "games"],
                    [
                        [label, e.percent(), f"{e.n:,}", f"{counts[label]:,}"]
                        for label, e in estimates.items()
                    ],
                )
            ],
            [
                "A trial's verdict is true when it names the citizen's true nature (the metric "
                "verdicts_true over trials_closed). The share is taken per game, so that a long game "
                "does not weigh more than a short one, over the games that closed a trial "
                f"({len(shares):,} of {games(len(played))} at the mixed table, {closed:,.0f} trials in "
                "all); a coin deciding each verdict would be right half the time.",
                "The role and cockade batches are shown for comparison, with their intervals only; the "
                "cockade batches are also compared game by game, since a false signal is meant to "
                "mislead the vote.",
            ],
        )

    return Experiment(
        "truth",
        "Whether the vote finds the truth",
        "Does the vote find the truth?",
        (mixed, *compared),
        analyse,
    )


def levers_experiment(setup: Setup, mixed: Arm) -> Experiment:
    """How the die's closing faces and the price of cockades move the answers above, each setting
    compared game by game with the rulebook's."""
    faces = [
        (
            f,
            mixed
            if f == (5, 6)
            else setup.mixed(
                f"closing-{'-'.join(map(str, f))}",
                f"closing faces {', '.join(map(str, f))}",
                closing_faces=list(f),
            ),
        )
        for f in CLOSING_FACES
    ]
    prices = [
        (
            p,
            mixed
            if p == 3
            else setup.mixed(f"cockade-{p}", f"privileged cockade {p} points", cockade_price_privileged=p),
        )
        for p in COCKADE_PRICES
    ]

    def analyse(rows: Rows) -> Finding:
        claims: list[Claim] = []
        figs: list[str] = []
        tables: list[Table] = []
        control = rows[mixed.key]
        fair = 1 / setup.players
        for name, settings in (
            ("closing faces", [("/".join(map(str, f)), a) for f, a in faces]),
            ("privileged cockade price", [(str(p), a) for p, a in prices]),
        ):
            gaps = [bastille_gap(rows[a.key]) for _, a in settings]
            shares = [grabber_share(rows[a.key]).estimate for _, a in settings]
            n = len(control)
            labels = [label for label, _ in settings]
            moved_gap: dict[str, Estimate] = {}
            moved_share: dict[str, Estimate] = {}
            for label, a in settings:
                if a.key == mixed.key:
                    continue
                changed = rows[a.key]
                if same_play(control, changed):
                    claims.append(cannot_show(f"the {name}", control, changed))
                    continue
                pairs = by_seed(control, changed)
                before = [
                    s - q
                    for s, q in zip(
                        metric([x for x, _ in pairs], "bastille_to_sans_culottes"),
                        metric([x for x, _ in pairs], "bastille_to_privileged"),
                        strict=True,
                    )
                ]
                after = [
                    s - q
                    for s, q in zip(
                        metric([y for _, y in pairs], "bastille_to_sans_culottes"),
                        metric([y for _, y in pairs], "bastille_to_privileged"),
                        strict=True,
                    )
                ]
                gap, p = paired(after, before)
                moved_gap[label] = gap
                claims.append(
                    Claim(
                        f"With the {name} at {label}, the sans-culottes' lead in Bastille cakes "
                        f"{'grows' if gap.value > 0 else 'shrinks'} by {gap.number(1)} cakes a game against "
                        "the rulebook's setting",
                        len(pairs),
                        gap,
                        test=PAIRED + " (paired on the seed)",
                        p=p,
                        not_shown=f"With the {name} at {label}: "
                        + no_difference("the sans-culottes' lead in Bastille cakes", gap, len(pairs), False),
                    )
                )
                x_share, y_share = grabber_share(control), grabber_share(changed)
                y_by_seed = dict(zip(y_share.seeds, y_share.per_game, strict=True))
                both = [
                    (y_by_seed[s], v)
                    for s, v in zip(x_share.seeds, x_share.per_game, strict=True)
                    if s in y_by_seed
                ]
                share, p_share = paired([u for u, _ in both], [v for _, v in both])
                moved_share[label] = share
                claims.append(
                    Claim(
                        f"With the {name} at {label}, each grabber seat's win share "
                        f"{'rises' if share.value > 0 else 'falls'} by {share.points()} against the "
                        "rulebook's setting",
                        len(both),
                        share,
                        test=PAIRED + " (paired on the seed, games with a grabber in both)",
                        p=p_share,
                        not_shown=f"With the {name} at {label}: "
                        + no_difference("win share per grabber seat", share, len(both), True),
                    )
                )
            figs.append(
                figures.sweep_chart(
                    f"Bastille cakes, sans-culottes minus privileged ({games(n)} per point)",
                    labels,
                    {"cakes per game": gaps},
                    axis="cakes per game",
                    setting_axis=name,
                    reference=0,
                )
            )
            figs.append(
                figures.sweep_chart(
                    f"Win share per grabber seat ({games(n)} per point)",
                    labels,
                    {"win share per grabber seat": shares},
                    axis="win share",
                    setting_axis=name,
                    percent=True,
                    reference=fair,
                )
            )
            if moved_gap:
                figs.append(
                    figures.forest_chart(
                        f"Change against the rulebook's {name}, paired on the seed ({games(n)} each)",
                        [f"{label}: Bastille cakes" for label in moved_gap]
                        + [f"{label}: grabber win share (points)" for label in moved_share],
                        [
                            *moved_gap.values(),
                            *(
                                Estimate(100 * e.value, 100 * e.low, 100 * e.high, e.n)
                                for e in moved_share.values()
                            ),
                        ],
                        axis="difference",
                    )
                )
            tables.append(
                Table(
                    [name, "sans-culottes minus privileged (paired)", "win share per grabber seat", "games"],
                    [
                        [label, g.number(2), w.percent(), f"{g.n:,}"]
                        for label, g, w in zip(labels, gaps, shares, strict=True)
                    ],
                )
            )
        return Finding(
            claims,
            figs,
            tables,
            [
                "The mixed table under each setting; every other rule as the book has it (closing faces "
                "5/6 and a privileged cockade at 3 points are the mixed table itself). Every setting "
                "plays the same seeds and line-ups, so each is compared with the rulebook's game by game.",
                "The cockade price arms are kept: their games are checked seed by seed, and when no "
                "strategy reads the price the experiment says it cannot show anything, rather than "
                "reporting a finding about the rule.",
            ],
        )

    arms = tuple({a.key: a for _, a in faces + prices}.values())
    return Experiment(
        "levers",
        "The die and the cockades",
        "How do the die's closing faces and the price of cockades move these answers?",
        arms,
        analyse,
    )


def study(setup: Setup) -> Study:
    """The Culottes study."""
    mixed, common = standard(setup)
    return Study(
        "culottes",
        "Culottes: who wins, and what the rules' levers change",
        (
            bastille_experiment(mixed),
            grabbers_experiment(setup),
            roles_experiment(setup),
            bribery_experiment(setup),
            sweep_experiment(setup),
            defence_experiment(setup),
            truth_bribery_experiment(setup),
            cockades_experiment(setup),
            truth_experiment(setup, mixed),
            levers_experiment(setup, mixed),
            *common,
        ),
    )


STUDY = GameStudy(study, players=5, games=2000)
"""Culottes plays 2,000 games per arm: its study has 31 distinct arms (the role choice, the bribe
sweep, the defence's halves and the cockade tables each add arms) at about 20 ms of one core a
game, some 62,000 games or 10 to 25 minutes on two cores depending on their load; paired on the
seed, 2,000 games still give win-share differences to within about 1.5 points."""
