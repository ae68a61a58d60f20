"""The Game chapter: win rate by players x strategy against the published anchors, cards-left
histograms, and the variant recommendation per player count."""

from __future__ import annotations

import polars as pl

from cardsim.analysis.thegame import anchor_check, cards_left_counts, summary_table
from cardsim.analysis.tuning import Candidate, rank_candidates, thegame_candidates
from cardsim.reports.content import (
    Block,
    Paragraph,
    Plot,
    interval_text,
    percent,
    table_from_frame,
    text_column,
)
from cardsim.reports.findings import Finding, from_row, pick_findings, run_of
from cardsim.reports.plots.common import interval_bars
from cardsim.reports.plots.thegame import cards_left_histogram, win_rate_plot
from cardsim.reports.sections.common import (
    pick_group,
    pick_group_table,
    recommendation_columns,
    recommendation_frame,
    tuning_tables,
)
from cardsim.reports.suite import Experiment, Outcomes, Profile
from cardsim.sims.thegame.config import STRATEGIES, STRATEGY_NAMES
from cardsim.sims.thegame.simulator import SIMULATOR

GAME = "thegame"
TITLE = "The Game"
QUESTION = (
    "How often can a team play all 98 cards of The Game, by number of players and by how well "
    "the team plays? Strategies form a ladder from random legal plays to a lookahead search that "
    "uses only legal information, plus an 'omniscient' player that sees every hand and the "
    "draw order and improves on the search's play deal by deal (a bound on what hidden "
    "information costs the search, not the best possible perfect-information play). We compare the best legal strategy with the best published win rates, and tune "
    "the variant knobs (cards per turn, hand size, backwards trick) to a target win rate."
)
PLAYERS: tuple[int, ...] = (1, 2, 3, 4, 5)
FOCUS_PLAYERS = 3
TUNE_STRATEGY = "signals"
TARGET = 0.3
# "Pick your group": how well a team plays, as the strategy that plays like it; the variants
# offered keep the rules' hand size and vary the cards a turn must play and the backwards trick.
EXPERIENCE: tuple[tuple[str, str], ...] = (("casual", "planner"), ("experienced", "signals"), ("expert", "search"))
PLAYS: dict[str, str] = {
    "planner": "plans each turn, no hints",
    "signals": "plans each turn and uses the allowed 'good for pile N' hints",
    "search": "looks ahead over the unplayed cards, with the hints",
}


def pick_variants(players: int) -> list[Candidate]:
    """The variants of "pick your group": :func:`thegame_candidates` at the rules' hand size,
    labelled in a player's words."""
    variants = []
    for candidate in thegame_candidates(players):
        config = candidate.config
        if config["hand_size"] is not None:
            continue
        words = (
            [f"play at least {config['min_cards']} card{'s' if config['min_cards'] > 1 else ''} a turn"]
            if config["min_cards"] != 2
            else []
        )
        words += [] if config["backwards_trick"] else ["no backwards trick"]
        variants.append(Candidate(", ".join(words) or "the rules as printed", config))
    return variants


def rerun(profile: Profile) -> str:
    first = min(SIMULATOR.chunk_size, profile.max_n)
    return (
        f"cardsim thegame run --players {FOCUS_PLAYERS} --strategy signals --n {first} "
        f"--precision {profile.precision} --max-n {profile.max_n}"
    )


# The ladder's strongest legal rungs: the headline quotes the best legal strategy per player
# count, which is one of these.
HEADLINE_STRATEGIES: tuple[str, ...] = ("signals", "search")
# Rough cost of a game against a random one's, for the scheduler's order only (a lookahead
# looks at many continuations; the omniscient player improves on the search deal by deal).
WEIGHT: dict[str, float] = {
    "random": 0.5,
    "greedy": 1.5,
    "planner": 6.0,
    "signals": 6.5,
    "search": 22.0,
    "omniscient": 50.0,
}


def plan(profile: Profile) -> list[Experiment]:
    """Every strategy at every player count, then the tuning grid, then "pick your group"'s
    variants per player count and experience (all at the profile's precision: even the
    lookahead strategies play over a thousand games a second).

    Tiers (:meth:`Profile.tier`): the ladder's HEADLINE_STRATEGIES at the headline precision,
    its other rows at the table precision; the "pick your group" runs and the tuning
    candidates they share a config with (the rules' hand size) at the tuning precision, the
    other candidates at the sweep's."""
    base = {"part": "", "players": 0, "strategy": "", "candidate": ""}
    plans: list[Experiment] = []
    for strategy in STRATEGY_NAMES:
        for players in PLAYERS:
            labels = {**base, "part": "ladder", "players": players, "strategy": strategy}
            config = {"players": players, "strategy": strategy}
            tier = "headline" if strategy in HEADLINE_STRATEGIES else "table"
            plans.append(
                profile.experiment(
                    f"{players}p-{strategy}", config, labels, tier=tier, weight=WEIGHT.get(strategy, 1.0)
                )
            )
    for players in PLAYERS:
        for candidate in thegame_candidates(players):
            shared = candidate.config["hand_size"] is None  # also a "pick your group" variant
            plans.append(
                profile.experiment(
                    f"tune-{players}p-{candidate.label}",
                    {"players": players, "strategy": TUNE_STRATEGY, **candidate.config},
                    {
                        **base,
                        "part": "tune",
                        "players": players,
                        "strategy": TUNE_STRATEGY,
                        "candidate": candidate.label,
                    },
                    tier="tuning" if shared else "sweep",
                    weight=WEIGHT[TUNE_STRATEGY],
                )
            )
    for _, strategy in EXPERIENCE:
        for players in PLAYERS:
            for candidate in pick_variants(players):
                plans.append(
                    profile.experiment(
                        f"pick-{players}p-{strategy}-{candidate.label}",
                        {"players": players, "strategy": strategy, **candidate.config},
                        {
                            **base,
                            "part": "pick",
                            "players": players,
                            "strategy": strategy,
                            "candidate": candidate.label,
                        },
                        tuning=True,
                        weight=WEIGHT.get(strategy, 1.0),
                    )
                )
    return plans


def models(profile: Profile) -> list[tuple[str, str]]:
    return [(name, STRATEGIES[name][1]) for name in STRATEGY_NAMES]


def _ladder(outcomes: Outcomes) -> pl.DataFrame:
    return outcomes.combined(lambda e: e.labels["part"] == "ladder")


def results(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    episodes = _ladder(outcomes)
    summary = summary_table(episodes)
    order = {name: i for i, name in enumerate(STRATEGY_NAMES)}
    summary = summary.sort([pl.col("players"), pl.col("strategy").replace_strict(order)])
    counts = cards_left_counts(episodes)
    blocks: list[Block] = [
        table_from_frame(
            summary,
            title="Win rate, excellent rate (10 or fewer cards left) and mean cards left",
            columns=[
                text_column("players", "players"),
                text_column("strategy", "strategy"),
                ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
                ("win rate", "win", lambda r: percent(r["win"]), lambda r: float(r["win"])),
                (
                    "95% interval",
                    "win_lo",
                    lambda r: interval_text(r["win_lo"], r["win_hi"]),
                    lambda r: float(r["win_lo"]),
                ),
                (
                    "excellent",
                    "excellent",
                    lambda r: f"{percent(r['excellent'])} ({interval_text(r['excellent_lo'], r['excellent_hi'])})",
                    lambda r: float(r["excellent"]),
                ),
                ("cards left", "cards_left", lambda r: f"{r['cards_left']:.1f}", lambda r: float(r["cards_left"])),
            ],
            note="Rates with 95% Wilson intervals; cards left is a mean over games.",
        ),
        Plot(
            "thegame-win-rate",
            "Win rate by number of players, one line per strategy, with 95% intervals.",
            lambda t=summary: win_rate_plot(t),
        ),
    ]
    legal = summary.filter(pl.col("strategy") != "omniscient")
    best = legal.sort(["players", "win"], descending=[False, True]).group_by("players", maintain_order=True).first()
    check = anchor_check(best)
    blocks.append(
        table_from_frame(
            check,
            title="Best legal strategy against the best published win rate",
            columns=[
                text_column("players", "players"),
                text_column("best legal strategy", "strategy"),
                ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
                ("win rate", "win", lambda r: percent(r["win"]), lambda r: float(r["win"])),
                (
                    "95% interval",
                    "win_lo",
                    lambda r: interval_text(r["win_lo"], r["win_hi"]),
                    lambda r: float(r["win_lo"]),
                ),
                (
                    "published",
                    "anchor",
                    lambda r: percent(r["anchor"]) if r["anchor"] is not None else "-",
                    lambda r: float(r["anchor"] or 0.0),
                ),
                (
                    "interval above it",
                    "beats_anchor",
                    lambda r: "yes" if r["beats_anchor"] else "no",
                    lambda r: str(r["beats_anchor"]),
                ),
            ],
            note="Published: the best win rate of published analyses at that player count (10,000 games "
            "each). 'Yes' only when the whole 95% interval lies above it.",
        )
    )
    for players in (1, FOCUS_PLAYERS, 5):
        blocks.append(
            Plot(
                f"thegame-cards-left-{players}",
                f"Share of games by cards left at the end, {players} player(s): one panel per strategy, wins (0 left) dark, median dotted.",
                lambda c=counts, p=players: cards_left_histogram(c, p),
            )
        )
    return tuple(blocks)


def _rate(answer) -> str:
    return f"{percent(answer.p, 0)} (95% interval {interval_text(answer.lo, answer.hi)}, n={answer.n:,} games)"


def key_result(picks: dict) -> str:
    """The chapter's key result: which variant gives a team of FOCUS_PLAYERS about a TARGET
    win rate, by experience, naming the strategies it holds for."""
    shown = [(name, s) for name, s in EXPERIENCE if (FOCUS_PLAYERS, s) in picks]
    if not shown:
        return ""
    name, strategy = next(((n, s) for n, s in shown if s == TUNE_STRATEGY), shown[0])
    answer = picks[(FOCUS_PLAYERS, strategy)]
    who = (
        f"For a team of {FOCUS_PLAYERS} that plays like the '{strategy}' strategy ({PLAYS[strategy]}; "
        f"the report's {name} players)"
    )
    aim = f"a {percent(TARGET, 0)} win rate"
    if answer.reach == "above":
        first = f"{who}, every variant stays below {aim}; the easiest is {answer.label}, {_rate(answer)}."
    elif answer.reach == "below":
        first = f"{who}, even {answer.label} is won more often than {aim}, {_rate(answer)}."
    else:
        first = f"{who}, of the variants {answer.label} is the one closest to {aim}: the strategy wins {_rate(answer)}."
    others = [
        f"{n} ('{s}') {picks[(FOCUS_PLAYERS, s)].label}, {_rate(picks[(FOCUS_PLAYERS, s)])}"
        for n, s in shown
        if s != strategy
    ]
    second = (
        (
            f"Closest for other teams of {FOCUS_PLAYERS}: "
            + "; ".join(others)
            + "; other player counts are in the 'pick your group' table."
        )
        if others
        else "Other player counts are in the 'pick your group' table."
    )
    return f"{first} {second}"


def recommendations(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    tables = tuning_tables(outcomes, PLAYERS, "won", "strategy", TUNE_STRATEGY)
    table = recommendation_frame(tables, TARGET)
    focus = table.filter(pl.col("players") == FOCUS_PLAYERS).row(0, named=True)
    aims = f"easier aims at {percent(TARGET + (1 - TARGET) / 2, 0)}, harder at {percent(TARGET / 2, 0)}"
    ranked = rank_candidates(tables[FOCUS_PLAYERS], TARGET)
    picks = pick_group(outcomes, PLAYERS, EXPERIENCE, "strategy", "won", TARGET)
    return (
        *([Paragraph(key)] if (key := key_result(picks)) else []),
        pick_group_table(
            picks,
            PLAYERS,
            EXPERIENCE,
            title=f"Pick your group: the variant closest to a {percent(TARGET, 0)} win rate",
            unit="games",
            note="Experience is played by a strategy: casual = 'planner', experienced = 'signals', "
            "expert = 'search'. Variants keep the rules' hand size and vary the cards a turn "
            "must play (rules: 2) and the backwards trick (rules: on); for the "
            f"'{TUNE_STRATEGY}' strategy the hand size varies too (the recommendation table's "
            "candidates): every cell is the closest of all the variants the chapter shows "
            "for that group.",
        ),
        Paragraph(
            f"Among every variant knob, including the hand size, for {FOCUS_PLAYERS} experienced "
            f"players (the '{TUNE_STRATEGY}' strategy) aiming at a "
            f"{percent(TARGET, 0)} win rate, play {focus['play']}: {percent(focus['p'])} (95% interval "
            f"{interval_text(focus['lo'], focus['hi'])}, n={focus['n']:,} games)."
        ),
        table_from_frame(
            table,
            title=f"Recommended variant per player count for a {percent(TARGET, 0)} win rate "
            f"('{TUNE_STRATEGY}' strategy)",
            columns=recommendation_columns(TARGET, "easier", "harder"),
            note=f"Knobs: cards a turn must play (rules 2), hand size (rules: 8/7/6 by player count), "
            f"backwards trick (rules: on). Ladder: {aims}, among variants clearly easier or harder. "
            "The play column is the 'pick your group' table's experienced cell.",
        ),
        Plot(
            "thegame-tuning",
            f"Win rate of every variant at {FOCUS_PLAYERS} players ('{TUNE_STRATEGY}' "
            f"strategy), with 95% intervals; dashed: the {percent(TARGET, 0)} target.",
            lambda t=ranked.sort("p", descending=True): interval_bars(
                t,
                label="label",
                title=f"The Game, {FOCUS_PLAYERS} players: win rate per variant",
                reference=TARGET,
                reference_label="target",
            ),
        ),
    )


def findings(outcomes: Outcomes, profile: Profile) -> list[Finding]:
    """Every figure of the win-rate table, one per setting (n counts games: the team wins or
    loses together; the headline: the best legal strategy per player count, in the rules
    game); then the "pick your group" cells."""
    summary = summary_table(_ladder(outcomes))
    order = {name: i for i, name in enumerate(STRATEGY_NAMES)}
    legal = summary.filter(pl.col("strategy") != "omniscient")
    best = {
        (r["players"], r["strategy"])
        for r in legal.sort(["players", "win"], descending=[False, True])
        .group_by("players", maintain_order=True)
        .first()
        .iter_rows(named=True)
    }
    rows = sorted(
        summary.iter_rows(named=True),
        key=lambda r: ((r["players"], r["strategy"]) not in best, r["players"], order.get(r["strategy"], 99)),
    )
    found = [
        from_row(
            GAME,
            "win rate, best legal strategy" if (row["players"], row["strategy"]) in best else "win rate",
            row,
            model=row["strategy"],
            setting="rules game",
            unit="games",
            p="win",
            lo="win_lo",
            hi="win_hi",
            key=f"win:{row['players']}p:{row['strategy']}",
            group="headline" if (row["players"], row["strategy"]) in best else "table",
            run=run_of(outcomes, part="ladder", players=row["players"], strategy=row["strategy"]),
        )
        for row in rows
    ]
    picks = pick_group(outcomes, PLAYERS, EXPERIENCE, "strategy", "won", TARGET)
    return found + pick_findings(GAME, picks, EXPERIENCE, TARGET, "variant")
