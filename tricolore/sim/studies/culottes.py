"""The Culottes study: the rulebook's own questions.

"The research purpose of this board game is to identify winning strategies for grabbers and
revolutionaries." The rulebook asks who eats the Bastille's cakes, who wins between the grabber
and the revolutionary, names the P+epsilon bribery attack and the alliance defence, and leaves the
die's closing faces and the price of cockades as the rules' levers.
"""

from __future__ import annotations

from collections.abc import Sequence

from tricolore.games.culottes.data import GRABBER
from tricolore.sim import figures
from tricolore.sim.batch import GameRow
from tricolore.sim.report import Table
from tricolore.sim.stats import Claim, Estimate, binomial_test, games, mean, paired_difference, rate
from tricolore.sim.studies.common import (
    PAIRED,
    WIN_SHARE_NOTE,
    SeatMeasure,
    Setup,
    by_seed,
    cannot_show,
    estimate_table,
    fair_share_claim,
    metric,
    no_difference,
    paired,
    same_play,
    seat_measure,
    standard,
    win_shares,
)
from tricolore.sim.study import Arm, Experiment, Finding, Rows, Study

HONEST = "honest-revolutionary"
GRABBERS = ("puppet-grabber", "p-epsilon-briber")
"""The named strategies that play the grabber's side."""
BRIBER, DEFENDER, PUPPET = "p-epsilon-briber", "alliance-defender", "puppet-grabber"
CLOSING_FACES = ((6,), (5, 6), (4, 5, 6), (3, 4, 5, 6))
COCKADE_PRICES = (1, 3, 6)
"""Settings the die-and-cockades experiment tries (the rulebook's are (5, 6) and 3)."""


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
        first, second = GRABBERS[1], GRABBERS[0]
        for k in counts:
            arm_a = next(a for g, kk, a in arms if g == first and kk == k)
            arm_b = next(a for g, kk, a in arms if g == second and kk == k)
            a_share, b_share = grabber_share(rows[arm_a.key]), grabber_share(rows[arm_b.key])
            b_by_seed = dict(zip(b_share.seeds, b_share.per_game, strict=True))
            both = [
                (v, b_by_seed[s])
                for s, v in zip(a_share.seeds, a_share.per_game, strict=True)
                if s in b_by_seed
            ]
            gap, p = paired([x for x, _ in both], [y for _, y in both])
            gaps[f"{k} grabber{'s' if k > 1 else ''}"] = gap
            claims.append(
                Claim(
                    f"With {k} grabber{'s' if k > 1 else ''}, a {first} seat takes "
                    f"{'more' if gap.value > 0 else 'less'} of the win than a {second} seat, "
                    f"{gap.points()} per seat-game",
                    len(both),
                    gap,
                    test=PAIRED + " (the two batches paired on the seed)",
                    p=p,
                    not_shown=f"With {k} grabber{'s' if k > 1 else ''}, {first} against {second}: "
                    + no_difference("win share per grabber seat", gap, len(both), True),
                )
            )
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
                    f"{first} minus {second}, win share per grabber seat, paired on the seed "
                    f"({games(n)} each)",
                    list(gaps),
                    list(gaps.values()),
                    axis="difference in win share",
                    percent=True,
                ),
            ],
            [table],
            [
                f"Grabber strategies against {HONEST} players, seats turned from game to game. Each "
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


def bribery_experiment(setup: Setup) -> Experiment:
    """What a P+epsilon attack gains, and how much the alliance defence takes back, compared game by
    game on the seed (the attacker sits in the same seat of the same seed in every batch)."""
    others = setup.players - 1
    plain = setup.arm(f"{PUPPET}-x1", f"1 {PUPPET} against {others} {HONEST}", [PUPPET] + [HONEST] * others)
    attack = setup.arm(f"{BRIBER}-x1", f"1 {BRIBER} against {others} {HONEST}", [BRIBER] + [HONEST] * others)
    defended = setup.arm(
        f"{BRIBER}-vs-{DEFENDER}", f"1 {BRIBER} against {others} {DEFENDER}", [BRIBER] + [DEFENDER] * others
    )

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
                figures.forest_chart(
                    f"Changes in the attacker's score, paired on the seed ({games(n)} each)",
                    list(score_gaps),
                    list(score_gaps.values()),
                    axis="points a game",
                ),
                figures.forest_chart(
                    f"Changes in the attacker's win share, paired on the seed ({games(n)} each)",
                    list(share_gaps),
                    list(share_gaps.values()),
                    axis="win share",
                    percent=True,
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
            bribery_experiment(setup),
            levers_experiment(setup, mixed),
            *common,
        ),
    )
