"""Cash'n Guns chapter: the focal-vs-table payoff matrix, the symmetric equilibrium, best responses.

Every table profile (multiset of strategies) of a fixed strategy list is one experiment of fixed
size; the analysis (:mod:`cardsim.analysis.cashnguns`) turns the pooled seats into the payoff
matrix, the symmetric mixed equilibrium and best responses. The runs are the same as
``cardsim cashnguns payoff`` with the same strategies, n and seed, so each reuses the other's store.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import polars as pl

from cardsim.analysis.cashnguns import (
    DEFAULT_TOLERANCE,
    DISCOVER_METHOD,
    DISCOVER_METHOD_1,
    READINGS,
    TARGET_POINTS,
    Equilibrium,
    OutsideCheck,
    best_responses,
    cashnguns_fingerprint,
    check_command_line,
    check_equilibrium,
    converged_entry,
    discover_command_line,
    equilibrium_table,
    load_libraries,
    mix_text,
    outside_figures,
    payoff_matrix,
    pooled_intervals,
    pooled_seats,
    reading_label,
    reading_status,
    status_text,
    stored_entries,
    symmetric_equilibrium,
    symmetric_game,
    table_profiles,
)
from cardsim.errors import UserError
from cardsim.reports.content import (
    Block,
    Paragraph,
    Plot,
    interval_text,
    percent,
    table_from_frame,
    text_column,
)
from cardsim.reports.findings import Finding
from cardsim.reports.plots.cashnguns import equilibrium_bars, payoff_heatmap
from cardsim.reports.sections.cashnguns_field import field_blocks, field_findings, field_side_tasks
from cardsim.reports.suite import Experiment, Outcomes, Profile, SideTask
from cardsim.sims.cashnguns import SHIPPED_LIBRARIES
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS
from cardsim.sims.cashnguns.strategies import (
    BULLET_POLICIES,
    NAMED_STRATEGIES,
    TARGET_POLICIES,
    Strategy,
    parse_strategy,
)

GAME = "cashnguns"
TITLE = "Cash'n Guns"
QUESTION = (
    "Which way of playing Cash'n Guns wins most often, against which tables, and what mix of "
    "strategies would a table of self-interested players settle on? For every table of named "
    "strategies we simulate whole games (8 rounds, seed rules), then read off a player's win "
    "probability when the other players all use one strategy (the payoff matrix), the best reply "
    "to each such table, and the named strategies' symmetric mix: the mix no single named "
    "strategy beats, with its regret (how much the best named deviation would gain). That mix "
    "answers the question among the named strategies only; it is not shown to be an equilibrium "
    "of the game. "
    "Because a library of hand-written strategies can be beaten by one nobody wrote, a "
    "best-response search then grows the library until no searched strategy gains "
    "significantly, under each reading of the scoring rules."
)

STRATEGIES: dict[str, tuple[str, ...]] = {
    "default": ("random", "stubborn", "coward", "patient", "hunter", "calculator", "vulture"),
    "quick": ("random", "stubborn", "coward", "calculator"),
}
PLAYERS: dict[str, tuple[int, ...]] = {"default": (4, 5, 6), "quick": (5,)}
GAMES_PER_PROFILE: dict[str, int] = {"default": 2_000, "quick": 200}


# --- the readings in words ---------------------------------------------------------------------

FEATURES: tuple[tuple[str, Callable[[Strategy], str]], ...] = (
    (
        "card order",
        lambda s: (
            "holds its loaded cards back"
            if s.bullet in ("late", "bigpot", "safe")
            else "plays loaded cards early or at random"
        ),
    ),
    ("target", lambda s: "picks its target from the public record" if s.target != "random" else "aims at random"),
    ("lying down", lambda s: "never lies down" if s.lie == "never" else "lies down when threatened"),
    (
        "card counting",
        lambda s: (
            "counts revealed cards"
            if (s.bullet == "safe" or s.target == "clicks" or (s.lie in ("threshold", "risk") and s.count == 1))
            else "does not count cards"
        ),
    ),
    ("bullet policy", lambda s: f"bullet={s.bullet}"),
    ("target policy", lambda s: f"target={s.target}"),
    ("lie-down policy", lambda s: f"lie={s.lie}"),
)


def _equilibrium_specs(entry: dict) -> dict[str, float]:
    """A library entry's equilibrium as {spec: share}."""
    by_name = {item["name"]: item["spec"] for item in entry["library"]}
    return {by_name[name]: share for name, share in entry["equilibrium"].items()}


def equilibrium_features(entry: dict) -> dict[str, dict[str, float]]:
    """Share of an entry's equilibrium mix giving each answer to each question of ``FEATURES``."""
    features: dict[str, dict[str, float]] = {question: {} for question, _ in FEATURES}
    for spec, share in _equilibrium_specs(entry).items():
        strategy = parse_strategy(spec)
        for question, answer in FEATURES:
            value = answer(strategy)
            features[question][value] = features[question].get(value, 0.0) + share
    return features


#: What every exploitability figure is measured against: the searched strategy space only.
SEARCHED_SPACE = (
    "the searched strategy space only (five fixed card orders: random, big pot, "
    "early, late, safe; targets and lie-down rules from the public record)"
)
#: The same with the schedule sweep (a check with ``sweep`` on).
SWEPT_SPACE = (
    "the searched strategy space with the schedule sweep (the five card orders of the "
    "search plus each of the 168 card orders and opponent reading on top of every mix "
    "member; targets and lie-down rules from the public record)"
)


def _card_rounds(order: str, letter: str) -> list[int]:
    """The rounds (1-8) in which a card order plays ``letter`` (C, B or X)."""
    return [k + 1 for k, card in enumerate(order) if card == letter]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def advice_sentences(entries: dict[tuple[int, str, int], dict]) -> str:
    """The chapter's key result in words a player can act on, from the main reading's entries
    (win probability, shame -$5,000), one clause per player count, each from
    :func:`~cardsim.analysis.cashnguns.reading_status`: where the mix does not hold, it is
    "not converged" and its best known reply is said as what the player does (a card-order
    reply: when it fires its Bang!Bang!Bang! and Bangs, whom it aims at, when it lies down),
    with its gain and 95% interval; where it holds, that no reply tried gains more than the
    highest recorded 95% bound. Scoped to the shipped mixes: a reply to them is not a way to
    play against any table. Empty when the main reading has no entry."""
    parts, counts, held = [], [], []
    for (players, metric, shame_value), entry in sorted(entries.items()):
        if (metric, shame_value) != ("win", DEFAULT_SHAME_DOLLARS):
            continue
        status = reading_status(entry)
        reply = status["reply"]
        if not status["holds"]:
            counts.append(str(players))
            if reply is not None:
                spec = reply["spec"] if (reply["spec"] or "").startswith("custom:") else None
                what = f"one {_reply_text(parse_strategy(spec))}" if spec else reply["what"].split(" (")[0]
                if (reply["spec"] or "").startswith("search"):  # the search player (the oracle)
                    what = f"the search player, which {what}"
                parts.append(f"at {players} players {what} ({_gain_text(reply)})")
        elif entry.get("refuted") or entry.get("outside_checks"):  # nothing tried from outside: nothing to say
            bound = outside_figures(entry, {})["exploitability_hi"]
            held.append(f"{100 * bound:.1f} points at {players} players")
    if not counts and not held:
        return ""
    scope = (
        "Against the shipped mixes only (win probability, a tie counting as a win for every tied player; shame -$5,000)"
    )
    if not counts:
        return (
            f"{scope}, converged within the searched space only: no reply tried (every card order included) "
            f"gains more than {', '.join(held)} (95% upper bound); that is all it shows, not that the mix "
            "is how to play."
        )
    first = f"{scope}, the {'mix is' if len(counts) == 1 else 'mixes are'} not converged at {_join(counts)} players"
    first += ", and a player who alone plays differently wins more often: " + "; ".join(parts) + "." if parts else "."
    second = (
        "These are replies to those mixes, not a way to play: they are not shown to hold at a table "
        "where others play them too"
    )
    if held:
        second += (
            f", and no reply tried (every card order included) gains more than {', '.join(held)} (95% upper bound)"
        )
    return f"{first} {second}."


def _gain_text(record: dict) -> str:
    """``+14 points, 95% interval 13.6 to 14.6`` (the interval when recorded, else the 95% upper
    bound when known)."""
    text = f"+{100 * record['gain']:.0f} points"
    if record.get("interval"):
        low, high = record["interval"]
        text += f", 95% interval {100 * low:.1f} to {100 * high:.1f}"
    elif record.get("hi") is not None:
        text += f", 95% upper bound {100 * record['hi']:.1f}"
    return text


def _reply_text(reply: Strategy) -> str:
    """A reply in a player's words: its card order, whom it aims at, when it lies down."""
    lie = reply.describe().split("; ")[1 if reply.read else -1]
    if reply.bullet == "schedule":
        cards = (
            f"fires Bang!Bang!Bang! in round {_card_rounds(reply.order, 'X')[0]} and Bangs in rounds "
            f"{' and '.join(map(str, _card_rounds(reply.order, 'B')))}, Clicks otherwise,"
        )
    else:
        cards = f"plays {BULLET_POLICIES[reply.bullet][1].split(';')[0]}"
    reading = ", reading an opponent who has shown only Clicks as holding Clicks," if reply.read else ""
    return f"who {cards}{reading} aiming at {TARGET_POLICIES[reply.target][1]}, and {lie}"


def entry_status(entry: dict) -> str:
    """A library entry's status in plain words
    (:func:`~cardsim.analysis.cashnguns.status_text`: converged within the searched space, or
    not converged with why, and the best known reply with its gain, 95% interval and source)
    and, for a run that stopped at its round limit, which of its rounds is shipped."""
    text = status_text(entry)
    if not entry["converged"] and entry.get("method") != DISCOVER_METHOD_1:
        text += f"; shipped: round {entry.get('reported_round', '?')}'s mix of {entry['rounds']}, the least exploitable"
    return text


def readings_table(entries: dict[tuple[int, str, int], dict], checks: dict[tuple[int, str, int], dict]) -> pl.DataFrame:
    """One row per (players, reading): where the equilibrium comes from (a stored discover run,
    or the shipped library), the discover run's rounds, whether it holds as converged
    (:func:`converged_entry`: a refuted or outside-beaten run does not) and its status
    (:func:`entry_status`), the
    equilibrium (name share, ...), discover's own exploitability bound, and the outside
    measure (:func:`outside_figures`: the outside check's gain with its 95% upper bound, or a
    recorded refutation's or other outside check's where that bound is higher, ``refuted`` and
    ``recorded_check`` saying which), in points of win probability or dollars. A reading with
    none has no gain (NaN)."""
    rows = []
    for key, entry in sorted(entries.items()):
        players, metric, shame_value = key
        scale = 100.0 if metric == "win" else 1.0
        check = checks.get(key, {})
        outside = outside_figures(entry, check)
        mix = mix_text(entry["equilibrium"])
        rows.append(
            {
                "players": players,
                "reading": reading_label(metric, shame_value),
                "metric": metric,
                "source": entry.get("source", "shipped library"),
                "rounds": entry["rounds"],
                "converged": converged_entry(entry),
                "status": entry_status(entry),
                "equilibrium": mix,
                "discover_hi": entry["exploitability_hi"] * scale,
                "exploitability": outside["gain"] * scale,
                "exploitability_hi": outside["exploitability_hi"] * scale,
                "refuted": outside["refuted"],
                "recorded_check": outside["command"] or "",
                "games": check.get("validation_games", 0),
                "candidates": check.get("candidates", 0),
            }
        )
    return pl.DataFrame(rows)


def readings_strategies(entries: dict[tuple[int, str, int], dict]) -> pl.DataFrame:
    """Each strategy with a share in a final equilibrium: where, its share, spec, description."""
    rows = []
    for (players, metric, shame_value), entry in sorted(entries.items()):
        by_name = {item["name"]: item["spec"] for item in entry["library"]}
        for name, share in sorted(entry["equilibrium"].items(), key=lambda item: -item[1]):
            rows.append(
                {
                    "players": players,
                    "reading": reading_label(metric, shame_value),
                    "strategy": name,
                    "share": share,
                    "spec": by_name[name],
                    "description": parse_strategy(by_name[name]).describe(),
                }
            )
    return pl.DataFrame(rows)


def readings_conclusions(entries: dict[tuple[int, str, int], dict]) -> list[str]:
    """Plain sentences, one per question of ``FEATURES``: the answer that takes most of the
    equilibrium mix in every run (holds), or which runs answer which way (flips)."""
    if not entries:
        return []
    sentences = []
    features = {key: equilibrium_features(entry) for key, entry in sorted(entries.items())}
    for question, _ in FEATURES:
        by_run = {key: max(found[question].items(), key=lambda item: item[1]) for key, found in features.items()}
        answers = {value for value, _ in by_run.values()}
        if len(answers) == 1:
            low = min(share for _, share in by_run.values())
            amount = "all of the searched mix" if low > 0.9995 else f"most of the searched mix (at least {low:.0%})"
            sentences.append(f"{question.capitalize()} holds in all {len(by_run)} runs: {amount} {answers.pop()}.")
        else:
            groups: dict[str, list[str]] = {}
            for (players, metric, shame_value), (value, _) in by_run.items():
                groups.setdefault(value, []).append(f"{players}p {reading_label(metric, shame_value)}")
            parts = "; ".join(f"{value} in {', '.join(runs)}" for value, runs in groups.items())
            sentences.append(f"{question.capitalize()} flips: {parts}.")
    return sentences


#: The target: the outside check's 95% upper bound at most one point of win probability.
def searched_sentence(entries: dict[tuple[int, str, int], dict], checks: dict[tuple[int, str, int], dict]) -> str:
    """The chapter's key result: how far the outside check (:func:`check_equilibrium`) beats
    the mixes of the main reading (win, shame -$5,000), or a refutation or another outside check
    recorded with an entry where its 95% upper bound is higher (:func:`outside_figures`; its
    command is named),
    whether that meets the one-point target at each count, and what holds in every converged,
    unrefuted run (:func:`converged_entry`), then each mix's status by everything recorded with
    it (:func:`~cardsim.analysis.cashnguns.status_text`: "not converged" and its best known
    reply where it does not hold). Empty when the main reading has no checked mix."""
    main = {key[0]: check for key, check in checks.items() if key[1:] == ("win", DEFAULT_SHAME_DOLLARS)}
    if not main:
        return ""
    counts = ", ".join(str(players) for players in sorted(main))
    figures = {
        p: outside_figures(entries.get((p, "win", DEFAULT_SHAME_DOLLARS), {}), check) for p, check in main.items()
    }
    bounds = {p: 100 * found["exploitability_hi"] for p, found in figures.items()}

    def reading(p: int) -> str:
        text = f"{100 * figures[p]['gain']:+.2f} (95% <= {bounds[p]:.2f}) at {p}"
        if figures[p]["command"]:
            what = "an outside refutation" if figures[p]["refuted"] else "a recorded outside check"
            text += (
                f" ({what}, `{figures[p]['command']}`; this report's check: "
                f"{100 * main[p]['gain']:+.2f}, 95% <= {100 * main[p]['exploitability_hi']:.2f})"
            )
        return text

    per_count = "; ".join(reading(p) for p in sorted(main))
    missed = sorted(p for p, bound in bounds.items() if bound > TARGET_POINTS)
    verdict = (
        f"within the {TARGET_POINTS:g}-point target at every count"
        if not missed
        else f"the {TARGET_POINTS:g}-point target is missed at {', '.join(map(str, missed))} players"
    )
    budgets = " or ".join(str(b) for b in sorted({check["candidates"] for check in main.values()}))
    seeds = " or ".join(str(s) for s in sorted({check["check"]["seed"] for check in main.values()}))
    converged = {key: entry for key, entry in entries.items() if converged_entry(entry)}
    holds = [sentence for sentence in readings_conclusions(converged) if " holds in all " in sentence]
    main_entries = {
        p: entries[(p, "win", DEFAULT_SHAME_DOLLARS)]
        for p in sorted(main)
        if (p, "win", DEFAULT_SHAME_DOLLARS) in entries
    }
    swept = all(check.get("check", {}).get("sweep") for check in main.values())
    text = (
        f"Tried from outside, within {SWEPT_SPACE if swept else SEARCHED_SPACE}: with {counts} players "
        f"(win probability, shame -$5,000), a fresh best-response search of {budgets} candidates "
        f"({'the schedule sweep included; ' if swept else ''}seed {seeds}, random streams "
        f"discover never draws from) against each reported mix gains {per_count} points: {verdict}. "
    )
    if main_entries:
        text += (
            "By everything recorded with each mix, replies from outside the searched space included: "
            + "; ".join(f"at {p} players {status_text(entry)}" for p, entry in main_entries.items())
            + ". "
        )
    if holds:
        text += "Within the searched space only: " + " ".join(holds)
    return text.rstrip()


#: How hard the report tries each reading's equilibrium from outside (see
#: :class:`cardsim.analysis.cashnguns.OutsideCheck`), for a profile whose max_n is CHECK_MAX_N;
#: a smaller max_n scales the games and the budget down.
CHECK: dict[str, dict[str, int]] = {
    "default": {"budget": 200, "search_games": 1_000, "validation_games": 100_000},
    "quick": {"budget": 30, "search_games": 200, "validation_games": 10_000},
}
CHECK_MAX_N: dict[str, int] = {"default": 20_000, "quick": 1_000}
#: The share of the main reading's check (win, shame -$5,000) that every other reading gets.
OTHER_READING_SCALE = 0.2


def is_main_reading(key: tuple[int, str, int]) -> bool:
    """The reading of the chapter's key result: win probability, shame -$5,000."""
    return key[1:] == ("win", DEFAULT_SHAME_DOLLARS)


def check_settings(profile: Profile, seed: int, main: bool = True) -> OutsideCheck:
    """The outside check for ``profile`` (scaled down below its usual max_n), from ``seed``;
    a reading other than the main one (``main`` False: it only feeds the readings table, next to
    its recorded checks) gets a fifth of the budget and of the games.
    The report's own check leaves out the schedule sweep: the sweep's results are recorded with
    each shipped entry (``refuted``, ``outside_checks``, with the command that reruns them), and
    the table and key result give the highest recorded bound (:func:`outside_figures`)."""
    base = CHECK[profile.name]
    scale = min(1.0, profile.max_n / CHECK_MAX_N[profile.name]) * (1.0 if main else OTHER_READING_SCALE)
    return OutsideCheck(
        budget=max(6, round(base["budget"] * scale)),
        search_games=max(10, round(base["search_games"] * scale)),
        validation_games=max(100, round(base["validation_games"] * scale)),
        seed=seed,
        sweep=False,
    )


def reading_entries(players: tuple[int, ...], store: Path, shipped_path: Path = SHIPPED_LIBRARIES) -> tuple[dict, str]:
    """The equilibrium of every reading at ``players``: the stored discover run in ``store``
    when there is one, else the shipped library; and a note when the shipped file cannot be
    read (empty otherwise). Each entry says its ``source``."""
    stored = {key: {**entry, "source": "stored discover run"} for key, entry in stored_entries(store, players).items()}
    try:
        shipped = load_libraries(shipped_path)
    except UserError as error:
        return stored, str(error)
    found = {
        key: {**shipped[key], "source": "shipped library"}
        for key in ((count, metric, shame_value) for count in players for metric, shame_value in READINGS)
        if key in shipped and key not in stored
    }
    return {**found, **stored}, ""


def outside_checks(
    entries: dict, check: OutsideCheck, *, other: OutsideCheck | None = None, jobs: int = 1, store: Path | None = None
) -> dict:
    """:func:`~cardsim.analysis.cashnguns.check_equilibrium` of every entry (kept in ``store``):
    ``check`` for the main reading, ``other`` (default: ``check``) for the rest."""
    return {
        key: check_equilibrium(entry, check if other is None or is_main_reading(key) else other, jobs=jobs, store=store)
        for key, entry in sorted(entries.items())
    }


def _setup(profile: Profile) -> tuple[tuple[str, ...], tuple[int, ...], int]:
    return (STRATEGIES[profile.name], PLAYERS[profile.name], min(GAMES_PER_PROFILE[profile.name], profile.max_n))


def rerun(profile: Profile) -> str:
    """The command that replays (or reuses) one player count's profiles by hand."""
    names, counts, games = _setup(profile)
    flags = " ".join(f"-s {name}" for name in names)
    return f"cardsim cashnguns payoff --players {counts[-1]} --n {games} {flags} --store results"


def plan(profile: Profile) -> list[Experiment]:
    """One fixed-size experiment per table profile and player count."""
    names, counts, games = _setup(profile)
    experiments = []
    for players in counts:
        for indices in table_profiles(len(names), players):
            specs = tuple(names[i] for i in indices)
            experiments.append(
                Experiment(
                    key=f"{players}p:{'+'.join(specs)}",
                    config={"players": players, "strategies": specs},
                    labels={"players": players, "profile": "+".join(specs)},
                    precision=None,
                    max_n=games,
                    weight=GAME_WEIGHT * players / 4,
                )
            )
    return experiments


# Rough cost of a game against a plain Gang heist (the scheduler's unit), for the order only.
GAME_WEIGHT = 1.5


def side_tasks(profile: Profile, seed: int, store: Path | None) -> list[SideTask]:
    """The outside check of every reading's equilibrium (:func:`outside_checks`), one task each,
    and the field's tournaments and search player's games
    (:func:`~cardsim.reports.sections.cashnguns_field.field_side_tasks`), for the scheduler to
    play beside the experiments: each keeps its result in ``store``, where the chapter finds
    it. None without a store (the chapter then computes them itself)."""
    if store is None:
        return []
    _, counts, _ = _setup(profile)
    entries, _ = reading_entries(counts, discover_store())
    tasks = []
    for (players, metric, shame), entry in sorted(entries.items()):
        check = check_settings(profile, seed, is_main_reading((players, metric, shame)))
        games = 2 * check.budget * check.search_games + check.validation_games
        tasks.append(
            SideTask(
                f"check-{players}p-{metric}-{shame}",
                check_equilibrium,
                {"entry": entry, "check": check, "jobs": 1, "store": store},
                cost=GAME_WEIGHT * games * players / 4,
            )
        )
    return tasks + field_side_tasks(profile, seed, store)


def findings(outcomes: Outcomes, profile: Profile) -> list[Finding]:
    """The chapter's figures as findings: the field's tournament and the search player's games
    (:func:`~cardsim.reports.sections.cashnguns_field.field_findings`)."""
    return field_findings(profile, outcomes.seed, outcomes.store)


def models(profile: Profile) -> list[tuple[str, str]]:
    return [(name, NAMED_STRATEGIES[name][0]) for name in STRATEGIES[profile.name]]


def profile_table(outcomes: Outcomes, players: int) -> pl.DataFrame:
    """Pooled seats per (profile, strategy) at ``players``, in the columns of
    :func:`cardsim.analysis.cashnguns.profile_payoffs`, built from the stored episodes."""
    rows = []
    for outcome in outcomes.select(lambda e: e.labels["players"] == players):
        specs = outcome.experiment.config["strategies"]
        for name in dict.fromkeys(specs):
            slots = [slot for slot, s in enumerate(specs) if s == name]
            rows.append({"profile": "+".join(specs), "strategy": name, **pooled_seats(outcome.episodes, slots)})
    return pooled_intervals(pl.DataFrame(rows))


def _analyse(outcomes: Outcomes, profile: Profile, players: int):
    names, _, _ = _setup(profile)
    profiles = profile_table(outcomes, players)
    matrix = payoff_matrix(profiles, list(names), players)
    game = symmetric_game(profiles, list(names), players, "win")
    equilibrium = symmetric_equilibrium(game, seed=outcomes.seed)
    return matrix, game, equilibrium


def results(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    _, counts, games = _setup(profile)
    blocks: list[Block] = [
        Paragraph(
            f"Each table profile was played {games:,} times with the root seed (common random numbers "
            "across profiles). A cell's n counts games: the seats of one strategy in the same game "
            "are correlated, so each game is one observation (their mean), the unit of the interval. "
            "With n players a fair share of wins is 1/n, less the games nobody survives."
        )
    ]
    for players in counts:
        matrix, game, equilibrium = _analyse(outcomes, profile, players)
        mix = equilibrium_table(equilibrium, game)
        blocks.append(
            Plot(
                f"cashnguns-heatmap-{players}",
                f"{players} players: win probability of the focal player's strategy (rows) "
                "when every other player uses the column's strategy, with 95% intervals.",
                lambda m=matrix, p=players: payoff_heatmap(m, players=p, metric="win"),
            )
        )
        shown = mix.filter(pl.col("share") > 0)
        blocks.append(
            table_from_frame(
                shown,
                title=f"{players} players: symmetric mix of the named strategies (win probability payoff)",
                columns=[
                    text_column("strategy", "strategy"),
                    ("share of the mix", "share", lambda r: percent(r["share"]), lambda r: float(r["share"])),
                    (
                        "win rate vs the mix",
                        "payoff_vs_mix",
                        lambda r: percent(r["payoff_vs_mix"]),
                        lambda r: float(r["payoff_vs_mix"]),
                    ),
                ],
                note=(
                    f"Value of the mix {percent(equilibrium.value)}; regret {100 * equilibrium.regret:.2f} "
                    f"points (best named deviation: {equilibrium.best_deviation}). Strategies with no share are "
                    "left out; shares are point estimates from the matrix above. A mix of the named "
                    "strategies only: replies outside them are in the readings table."
                ),
            )
        )
        blocks.append(
            Plot(
                f"cashnguns-mix-{players}",
                f"{players} players: share of each strategy in the symmetric mix of the named strategies.",
                lambda t=mix, p=players, r=equilibrium.regret: equilibrium_bars(t, players=p, regret=r),
            )
        )
    return tuple(blocks)


def discover_store() -> Path:
    """Where the report looks for stored ``cashnguns discover`` runs: $CARDSIM_STORE, else
    ./results (the commands' default store)."""
    return Path(os.environ.get("CARDSIM_STORE") or "results")


def readings_blocks(players: tuple[int, ...], entries: dict, checks: dict, note: str = "") -> list[Block]:
    """The equilibrium of every reading (stored discover run or shipped library), discover's own
    exploitability bound and the outside check's, the strategies in them, which conclusions
    hold across readings, and where each library came from. ``note``: why the shipped
    libraries could not be read."""
    store = discover_store()
    missing = [discover_command_line(p, m, v) for p in players for m, v in READINGS if (p, m, v) not in entries]
    blocks: list[Block] = [
        Paragraph(
            "Searched mixes under every reading, each measured against the searched strategy space only. The named strategies are a small library; "
            "`cardsim cashnguns discover` grows it by best responses (double oracle / PSRO): each round "
            "solves the library's symmetric game for its mix, searches 200 candidate strategies (including "
            "card-counting ones) and 200 more from a local search (neighbours of the library's members, with "
            "thresholds moved to the midpoints between the counted chances such as 1/3 and 3/8; since "
            "discover/5, compound moves that change two or three parameters at once; then a short hill-climb "
            "on common games) for the best reply, two independent "
            "searches (fresh candidates and games) "
            "search again, and the best significant new reply joins the library (at most 8 strategies: beyond "
            "that, shares under 2% leave first, then the smallest; they stay search candidates); the run stops only "
            f"when no search gains significantly and every 95% upper bound is within "
            f"{100 * DEFAULT_TOLERANCE['win']:g} points (or ${DEFAULT_TOLERANCE['score']:,.0f}); "
            "a run that does not converge within its rounds reports its least exploitable fully checked round "
            "(libraries marked discover/1 in the provenance table come from the first method, which stopped at "
            "the first round its own search found nothing; discover/2 libraries had no hard cap and no polish "
            "of the solved mix; discover/3 had no local search; discover/4's moved one parameter at a time). "
            "Each reading's mix is then tried from outside by this report: a fresh best-response "
            "search against the mix as reported (not re-solved), from random streams discover never draws "
            "from, and the reply's gain over the mix on fresh paired games (points of win probability, or "
            "dollars of score), with its 95% upper bound. The readings: payoff = win probability or final "
            "score; a shame marker = -$5,000 (the published penalty) or +$5,000 (the seed's 'worth $5,000' "
            f"read literally). Stored runs are read from {store}/cashnguns_discover, else the libraries "
            f"shipped with cardsim ({SHIPPED_LIBRARIES.name}) are used."
        )
    ]
    if entries:
        table = readings_table(entries, checks)
        check = next(iter(checks.values()))["check"] if checks else None
        blocks.append(
            table_from_frame(
                table,
                title="Final mix of each reading, its status, tried from outside",
                columns=[
                    ("players", "players", lambda r: str(r["players"]), lambda r: float(r["players"])),
                    text_column("reading", "reading"),
                    text_column("mix from", "source"),
                    (
                        "rounds",
                        "rounds",
                        lambda r: f"{r['rounds']}{'' if r['converged'] else '+'}",
                        lambda r: float(r["rounds"]),
                    ),
                    text_column("status", "status"),
                    text_column("mix", "equilibrium"),
                    (
                        "discover's own bound",
                        "discover_hi",
                        lambda r: (
                            f"{r['discover_hi']:.2f} pts" if r["metric"] == "win" else f"{r['discover_hi']:,.0f} $"
                        ),
                        lambda r: float(r["discover_hi"]),
                    ),
                    (
                        "outside check",
                        "exploitability",
                        lambda r: (
                            (
                                f"{r['exploitability']:+.2f} pts (95% <= {r['exploitability_hi']:.2f})"
                                if r["metric"] == "win"
                                else f"{r['exploitability']:+,.0f} $ (95% <= {r['exploitability_hi']:,.0f})"
                            )
                            + (
                                ", the refutation in its status"
                                if r["refuted"]
                                else f", recorded: `{r['recorded_check']}`"
                                if r["recorded_check"]
                                else ""
                            )
                        ),
                        lambda r: float(r["exploitability_hi"]),
                    ),
                    ("paired games", "games", lambda r: f"{int(r['games']):,}", lambda r: float(r["games"])),
                ],
                note=(
                    "Rounds: the discover run's rounds; marked + it stopped at the round limit without converging. "
                    "Status, from everything recorded with the entry (the run's stop rule, outside checks and "
                    "replies from outside the searched space): 'converged within the searched space' means that no "
                    "search and no recorded reply gains beyond the tolerance, not that the mix is an equilibrium of "
                    "the game; 'not converged' says why and gives the best known reply with its gain, 95% interval "
                    "and where it was measured. Discover's own bound: the highest 95% upper bound of its last round's searches. Outside check "
                    "(where a refutation or another outside check recorded with the entry has a higher 95% bound, its "
                    "figures instead): "
                    + (
                        f"a search of {check['budget']} candidates plus {check.get('local', 0)} local-search ones "
                        f"({check['search_games']:,} games each, then the "
                        f"best tenth {4 * check['search_games']:,} and the best three {15 * check['search_games']:,} "
                        f"fresh games), root seed {check['seed']}, the reply's gain on {check['validation_games']:,} "
                        "fresh paired games, with the current code; a shipped row reruns with "
                        f"{check_command_line(*next(iter(sorted(checks))), OutsideCheck(**{'local': 0, **check}))}."
                        if check
                        else "not run."
                    )
                ),
            )
        )
        blocks.append(
            table_from_frame(
                readings_strategies(entries),
                title="The strategies in those mixes",
                columns=[
                    ("players", "players", lambda r: str(r["players"]), lambda r: float(r["players"])),
                    text_column("reading", "reading"),
                    text_column("strategy", "strategy"),
                    ("share", "share", lambda r: percent(r["share"]), lambda r: float(r["share"])),
                    text_column("what it does", "description"),
                ],
            )
        )
        blocks.append(Paragraph(conclusions_text(entries)))
        blocks.append(provenance_block(entries))
    if note:
        blocks.append(Paragraph(f"The shipped libraries could not be read: {note}."))
    if missing:
        blocks.append(
            Paragraph(
                "Not yet run (the table fills in when these are run with the same store): " + "; ".join(missing) + "."
            )
        )
    return blocks


def conclusions_text(entries: dict) -> str:
    """Which conclusions hold and which flip, over the converged readings only
    (:func:`~cardsim.analysis.cashnguns.converged_entry`), naming the readings left out."""
    converged = {key: entry for key, entry in entries.items() if converged_entry(entry)}
    left_out = [f"{p}p {reading_label(m, v)}" for (p, m, v) in sorted(entries) if (p, m, v) not in converged]
    text = (
        "Within the searched space only (a reply outside it can still gain): "
        + " ".join(readings_conclusions(converged))
        if converged
        else "No reading converged."
    )
    if left_out:
        text += (
            " Left out of these conclusions because their runs did not converge by the current rule "
            "or an outside check refuted them (not shown to be equilibria; the table's status says "
            f"which and how far each mix is beaten): {', '.join(left_out)}."
        )
    return text


def provenance_block(entries: dict) -> Block:
    """Where each mix came from: the discover command, its date, its method (and how the run
    started, where the entry says: ``start``) and whether the game code it ran is the current one."""
    current = cashnguns_fingerprint()
    rows = [
        {
            "players": players,
            "reading": reading_label(metric, shame_value),
            "command": entry["command"],
            "date": entry["date"][:16].replace("T", " "),
            "method": entry.get("method", DISCOVER_METHOD) + (f"; {entry['start']}" if entry.get("start") else ""),
            "code": (
                "current"
                if entry.get("code_fingerprint", current) == current
                else f"{entry['code_fingerprint']} (now {current})"
            ),
        }
        for (players, metric, shame_value), entry in sorted(entries.items())
    ]
    return table_from_frame(
        pl.DataFrame(rows),
        title="Where each mix comes from",
        columns=[
            ("players", "players", lambda r: str(r["players"]), lambda r: float(r["players"])),
            text_column("reading", "reading"),
            text_column("discover run", "command"),
            text_column("run on (UTC)", "date"),
            text_column("discover method", "method"),
            text_column("game code", "code"),
        ],
        note="A stored run is the current method and code. The outside check always plays the current code.",
    )


def recommendations(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    _, counts, _ = _setup(profile)
    entries, note = reading_entries(counts, discover_store())
    checks = outside_checks(
        entries,
        check_settings(profile, outcomes.seed),
        other=check_settings(profile, outcomes.seed, main=False),
        jobs=outcomes.jobs,
        store=outcomes.store,
    )
    blocks: list[Block] = list(readings_blocks(counts, entries, checks, note))
    found: list[tuple[int, str | None, dict, Equilibrium]] = []
    for players in counts:
        matrix, game, equilibrium = _analyse(outcomes, profile, players)
        responses = best_responses(matrix, "win")
        n_by_cell = {(r["focal"], r["others"]): r["n"] for r in matrix.iter_rows(named=True)}
        responses = responses.with_columns(
            pl.Series("n", [n_by_cell[(b, o)] for b, o in zip(responses["best_response"], responses["others"])])
        )
        blocks.append(
            table_from_frame(
                responses,
                title=f"Recommended reply to each table, {players} players (best response)",
                columns=[
                    text_column("others all play", "others"),
                    text_column("play", "best_response"),
                    ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
                    ("win rate", "payoff", lambda r: percent(r["payoff"]), lambda r: float(r["payoff"])),
                    ("95% interval", "lo", lambda r: interval_text(r["lo"], r["hi"]), lambda r: float(r["lo"])),
                    ("gain vs copying", "gain", lambda r: f"{100 * r['gain']:+.1f} pts", lambda r: float(r["gain"])),
                ],
                note="Gain: the reply's win rate minus the table strategy's own win rate at that table.",
            )
        )
        mix = equilibrium_table(equilibrium, game).filter(pl.col("share") > 0)
        top = mix.row(0, named=True)
        pure = top["strategy"] if mix.height == 1 else None
        found.append((players, pure, top, equilibrium))
    named = Paragraph(equilibrium_sentence(found))
    searched = searched_sentence(entries, checks)
    advice = advice_sentences(entries)
    style, field = field_blocks(profile, outcomes.seed, outcomes.store)
    lead = (*style, *(Paragraph(text) for text in (advice, searched) if text))
    return (*lead, *blocks, named, *field) if lead else (named, *blocks, *field)


def equilibrium_sentence(found: list[tuple[int, str | None, dict, Equilibrium]]) -> str:
    """One sentence over player counts from (players, pure strategy or None, top row of the mix,
    solution of the named strategies' game): the mix the named strategies' matrix gives, said
    as what it is (a restricted game's solution, not an equilibrium of the game: the readings'
    statuses say how far the searched mixes are beaten)."""
    pures = {pure for _, pure, _, _ in found}
    close = (
        " This is the symmetric mix of the named strategies' matrix only, not shown to be an "
        "equilibrium of the game: the key result and the readings' statuses say how replies "
        "outside the named strategies do against the searched mixes."
    )
    if len(pures) == 1 and None not in pures:
        counts = ", ".join(str(players) for players, _, _, _ in found)
        wins = ", ".join(f"{percent(eq.value)} at {players}" for players, _, _, eq in found)
        regret = max(eq.regret for _, _, _, eq in found)
        return (
            f"Among the chapter's named strategies only (win probability, shame -$5,000), with "
            f"{counts} players, no named strategy gains more than {100 * regret:.2f} points "
            f"against a table where everyone plays '{pures.pop()}'; each player then wins {wins} "
            f"players.{close}"
        )
    parts = []
    for players, pure, top, eq in found:
        regret = f"regret {100 * eq.regret:.2f} points"
        if pure:
            parts.append(f"with {players} players everyone plays '{pure}' ({regret})")
        else:
            parts.append(
                f"with {players} players a mix led by '{top['strategy']}' "
                f"({percent(top['share'])} of the mix, {regret})"
            )
    return (
        "Among the chapter's named strategies only (win probability, shame -$5,000), the "
        "named strategies' mix is: " + "; ".join(parts) + "." + close
    )
