"""Bang! chapter: side and role win rates by player count, characters, game length."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import polars as pl

from cardsim.analysis.bang import (
    character_win_table,
    ladder_conclusions,
    length_table,
    role_win_table,
    seat_table,
    side_win_table,
)
from cardsim.analysis.bang_tournament import (
    SIDE_WORDS,
    never_favoured,
    population,
    population_summary,
    population_verdict,
    tournament_tables,
)
from cardsim.reports.content import (
    Block,
    Paragraph,
    Plot,
    interval_text,
    percent,
    proportion_columns,
    table_from_frame,
    text_column,
)
from cardsim.reports.findings import slug
from cardsim.reports.plots.bang import side_win_plot
from cardsim.reports.plots.common import interval_bars
from cardsim.reports.sections.common import checkout_path
from cardsim.reports.suite import Experiment, Outcomes, Profile
from cardsim.sims.bang.compare import (
    LADDER_RECORD,
    ladder_verdict,
    read_ladder_record,
    search_verdict,
    tables_digest,
)
from cardsim.sims.bang.simulator import BOT_DESCRIPTIONS, SIMULATOR

GAME = "bang"
TITLE = "Bang!"
QUESTION = (
    "How often does each side win Bang! (the Sheriff with the Deputies, the Outlaws, the "
    "Renegade) at 4 to 7 players, and which characters help most? Every seat is played by the "
    "same bot, on a ladder of rungs: 'random' is the baseline; 'role' plays toward its "
    "role's goal and infers hidden roles only from what happened at the table; 'tuned' is the "
    "role bot with its parameters trained per role and player count by iterated best response; "
    "'role2' adds the structural rules a strong player uses (the Renegade spares the "
    "Sheriff while others live and turns on the lawful-looking once Deputies match Outlaws, the "
    "Sheriff holds fire on players with no hostile record, Outlaws focus on the Sheriff) and "
    "'tuned2' is role2 with its parameters trained the same way. The 'search' rung (one seat "
    "planning each aimed play by rollouts of the engine over hidden roles and hands sampled "
    "from the public record) is too slow to fill every seat at this n; its standing is "
    "measured one seat at a time (the recorded ladder below). Roles and characters are dealt "
    "at random."
)
PLAYERS: tuple[int, ...] = (4, 5, 6, 7)
# the strongest rung first: the role, character and length tables use it
BOTS: dict[str, tuple[str, ...]] = {
    "default": ("tuned2", "tuned", "role2", "role", "random"),
    "quick": ("tuned", "role"),
}
#: The bot the chapter's headline and character table use: the trained one. ``tuned2`` (the
#: structural rules on, not retrained) is on the ladder but not shown to play better.
HEADLINE_BOT = "tuned"
ANCHOR = (
    "How our bots compare in kind: Dan\u00edl\u00e1kov\u00e1 (2017) compared Monte Carlo tree "
    "search, genetic-algorithm and hybrid AIs for Bang! and found the evolved (genetic) one "
    "strongest. Our 'tuned' bot is of the evolved kind: a hand-written heuristic whose 21 "
    "parameters per role and player count (targeting weights, suspicion from attacks, when to "
    "play Dynamite, Jail, Beer, Panic!/Cat Balou, when the Renegade turns on the Sheriff, "
    "reserves) are searched by an evolution strategy, each role in turn against the others' "
    "current parameters (iterated best response), with no tree search at play time. It is "
    "not the same algorithm, and we did not play it against hers, so the comparison is one of "
    "kind, not of strength."
)


def rerun(profile: Profile) -> str:
    first = min(SIMULATOR.chunk_size, profile.max_n)
    return (
        f"cardsim bang run --players 4-7 --bots role --n {first} --precision {profile.precision} "
        f"--max-n {profile.max_n}"
    )


#: The outside Renegade styles (written by outside checks, in ``examples/strategies``) the
#: population seats in the Renegade's role at the headline bot's tables.
OUTSIDE_RENEGADES = ("bang_renegade.py:TwoRules", "bang_balancer.py:Balancer")
#: Games per table of the population that the ladder does not already play: a table with one
#: role played by another ladder bot, and one with an outside Python Renegade (slower: its
#: decisions run as Python in a process of its own). Fixed n, no stop rule.
POPULATION_N = {"default": 4000, "quick": 200}
OUTSIDE_N = {"default": 1500, "quick": 100}


#: Chunk size of the population's runs (divides both n).
POPULATION_CHUNK = 500


def population_n(profile: Profile, kind: str) -> int:
    """Games per population table of ``kind`` ("one role" or "outside") in ``profile``: its
    fixed n, at most the profile's bound."""
    table = OUTSIDE_N if kind == "outside" else POPULATION_N
    return min(table.get(profile.name, table["default"]), profile.max_n)


def outside_specs() -> dict[str, list[str]]:
    """Role -> the outside strategies (``FILE.py:NAME``) the population seats in it: the
    :data:`OUTSIDE_RENEGADES` found in the checkout (:func:`checkout_path`; none in an install
    run away from ``examples``)."""
    found = [
        (checkout_path(f"examples/strategies/{file}"), name)
        for file, _, name in map(lambda s: s.partition(":"), OUTSIDE_RENEGADES)
    ]
    return {"renegade": [f"{path}:{name}" for path, name in found if path is not None and path.is_file()]}


def population_plan(profile: Profile, players: int) -> list[tuple[str, str, dict[str, str]]]:
    """The population of tables at ``players`` (:func:`population`): the ladder's bots each in
    every seat, the headline bot with one role played by another ladder bot, and the headline
    bot with an outside Renegade. The random bot is the ladder's baseline: it fills whole tables
    only (a seat that plays at random is no way of playing a role)."""
    bots = BOTS.get(profile.name, BOTS["default"])
    base = HEADLINE_BOT if HEADLINE_BOT in bots else bots[0]
    return population(bots, players, base, outside_specs(), mixed=[bot for bot in bots if bot != "random"])


def plan(profile: Profile) -> list[Experiment]:
    """One experiment per player count and bot (the same bot in every seat): the headline
    bot's at the headline precision, the rest of the ladder at the table precision (see
    :meth:`Profile.tier`); then the population's mixed tables (:func:`population_plan`; its
    uniform tables are the ladder's runs) at a fixed n."""
    headline = HEADLINE_BOT if HEADLINE_BOT in BOTS[profile.name] else BOTS[profile.name][0]
    return _ladder_plan(profile, headline) + [
        Experiment(
            key=f"{players}p-table-{slug(label)}",
            config={"players": players, **{f"{role}_bot": bot for role, bot in assignment.items()}},
            labels={"players": players, "table": label, "kind": kind},
            precision=None,
            max_n=population_n(profile, kind),
            chunk_size=min(POPULATION_CHUNK, population_n(profile, kind)),
            weight=(200.0 if kind == "outside" else 5.0) * players / 4,
        )
        for players in PLAYERS
        for label, kind, assignment in population_plan(profile, players)
        if kind != "uniform"
    ]


def _ladder_plan(profile: Profile, headline: str) -> list[Experiment]:
    return [
        profile.experiment(
            f"{players}p-{bot}",
            {"players": players, **{f"{role}_bot": bot for role in ("sheriff", "deputy", "outlaw", "renegade")}},
            {"players": players, "bots": bot},
            tier="headline" if bot == headline else "table",
            weight=5.0 * players / 4,
        )
        for bot in BOTS[profile.name]
        for players in PLAYERS
    ]


def models(profile: Profile) -> list[tuple[str, str]]:
    return [(bot, BOT_DESCRIPTIONS[bot]) for bot in BOTS[profile.name]]


def _episodes(outcomes: Outcomes, bot: str) -> pl.DataFrame:
    return pl.concat(
        [o.episodes for o in outcomes.select(lambda e: e.labels.get("bots") == bot)], how="vertical_relaxed"
    )


def population_results(outcomes: Outcomes, profile: Profile) -> dict[int, dict]:
    """Per player count, the population's tables (:func:`population_plan`) through the
    tournament's tables (:func:`tournament_tables`): ``rows`` (label, kind, assignment),
    ``assignments`` (each side's wins per table), ``summary`` (:func:`population_summary`)
    and ``verdict`` (:func:`population_verdict`). Counts with a table not played are left out."""
    found: dict[int, dict] = {}
    for players in PLAYERS:
        rows = population_plan(profile, players)
        played: dict[str, pl.DataFrame] = {}
        for label, kind, _ in rows:
            if kind == "uniform":
                runs = outcomes.select(
                    lambda e, b=label, p=players: e.labels.get("bots") == b and e.labels["players"] == p
                )
            else:
                runs = outcomes.select(
                    lambda e, t=label, p=players: e.labels.get("table") == t and e.labels["players"] == p
                )
            if runs:
                played[label] = runs[0].episodes
        rows = [row for row in rows if row[0] in played]
        if len(rows) < 2:
            continue
        by_assignment = {tuple(sorted(a.items())): played[label] for label, _, a in rows}
        tables = tournament_tables(
            [], players, lambda a, m=by_assignment: m[tuple(sorted(a.items()))], tables=[a for _, _, a in rows]
        )
        labels = [label for label, _, _ in rows]
        found[players] = {
            "rows": rows,
            "assignments": tables["assignments"],
            "summary": population_summary(tables["assignments"], labels),
            "verdict": population_verdict(players, tables["assignments"], rows),
        }
    return found


def population_blocks(found: dict[int, dict], profile: Profile) -> list[Block]:
    """The population's table (per player count and side: the tables where it does worst and
    best, with 95% intervals over games, and how many tables favour it) and its key result."""
    if not found:
        return []
    bots = BOTS.get(profile.name, BOTS["default"])
    base = HEADLINE_BOT if HEADLINE_BOT in bots else bots[0]
    outside = [spec.rpartition(":")[2] for spec in outside_specs()["renegade"]]
    rows = [
        {"players": players, **entry}
        for players, part in found.items()
        for entry in part["summary"].iter_rows(named=True)
    ]

    def extreme(name: str):
        """Two columns: the win rate with its interval (a number, never wrapped) and the table
        with its n (text, wrapped where the page is narrow)."""
        return (
            name,
            name,
            lambda r: f"{percent(r[name])} ({interval_text(r[f'{name}_lo'], r[f'{name}_hi'])})",
            lambda r: float(r[name]),
        ), (
            f"{name}: table",
            f"{name}_table",
            lambda r: f"{r[f'{name}_table']}; n = {r[f'{name}_n']:,}",
            lambda r: str(r[f"{name}_table"]),
        )

    n_mixed, n_outside = population_n(profile, "one role"), population_n(profile, "outside")
    stated = (
        f"The population of tables, per player count: each ladder bot ({', '.join(bots)}) in every seat "
        f"(the ladder's runs above); the {base} bot in every seat but one role, which each other "
        f"ladder bot but random plays (n = {n_mixed:,} games each; random is the ladder's baseline, "
        "not a way of playing a role, so it fills whole tables only)"
        + (
            f"; and the {base} bot with its Renegade played by each outside Renegade style "
            f"({', '.join(outside)}, from examples/strategies, each in a process of its own; "
            f"n = {n_outside:,} games each)"
            if outside
            else "; the outside Renegade files were not found beside the package, so none is seated"
        )
        + ". The search rung is left out (it plans every aimed play by rollouts: too slow to "
        "fill a table at this n; the recorded ladder measures it one seat at a time)."
    )
    return [
        Paragraph(stated),
        table_from_frame(
            pl.DataFrame(rows),
            title="Each side's win rate across the population of tables",
            columns=[
                text_column("players", "players"),
                text_column("side", "side"),
                ("tables", "tables", lambda r: str(r["tables"]), lambda r: float(r["tables"])),
                (
                    "favoured at (tables)",
                    "favoured_at",
                    lambda r: str(r["favoured_at"]),
                    lambda r: float(r["favoured_at"]),
                ),
                *extreme("least"),
                *extreme("greatest"),
            ],
            note="Side 'sheriff' is the Sheriff with the Deputies. Per table, 95% Wilson interval "
            "over games (n = games at that table); a side is favoured at a table where it wins "
            "the most games.",
        ),
        Paragraph(
            "Key result, across the population (which statements are the same at every table, "
            "which depend on how one role plays): "
            + " ".join(part["verdict"] for part in found.values())
            + "".join(
                f" {SIDE_WORDS[side][0].upper()}{SIDE_WORDS[side][1:]} side is favoured at no table of any player count."
                for side in never_favoured({players: part["assignments"] for players, part in found.items()})
            )
        ),
        Paragraph(OUTSIDE_POPULATION),
    ]


#: What the population's statements do not cover, from the outside review of them (its styles
#: are in ``examples/strategies/bang_styles.py``; the Bang! guide gives the commands).
OUTSIDE_POPULATION = (
    "These statements are about the tables above and no others. Role styles outside this "
    "population turn the favoured side where the tables above say one role's play does not: an outside "
    "review seated a play-long Outlaw (LongOutlaw) and a Renegade who plays as an Outlaw "
    "(WildRenegade, examples/strategies/bang_styles.py) in every seat of their role beside tuned "
    "bots and moved the favoured side at 4, 5 and 6 players. Each of those styles wins less in "
    "its own role than the tuned bot does: the balance depends on how well each role is played, "
    "and a weaker role player can hand the game to the other side."
)


def results(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    blocks: list[Block] = []
    side_tables: dict[str, pl.DataFrame] = {}
    role_tables: dict[str, pl.DataFrame] = {}
    for bot in BOTS[profile.name]:
        episodes = _episodes(outcomes, bot)
        sides = side_win_table(episodes).filter((pl.col("side") != "none") | (pl.col("successes") > 0))
        side_tables[bot] = sides
        role_tables[bot] = role_win_table(episodes)
        blocks.append(
            table_from_frame(
                sides,
                title=f"Win rate by side and player count ({bot} bots)",
                columns=[text_column("players", "players"), text_column("side", "side")] + proportion_columns(),
                note="Side 'sheriff' is the Sheriff with the Deputies; 95% Wilson intervals; n = games.",
            )
        )
        blocks.append(
            Plot(
                f"bang-sides-{bot}",
                f"Win rate of each side by player count, {bot} bots, with 95% intervals.",
                lambda t=sides, b=bot: side_win_plot(t, bots=b),
            )
        )
        blocks.append(
            table_from_frame(
                role_tables[bot],
                title=f"Win rate per seat by role ({bot} bots)",
                columns=[text_column("players", "players"), text_column("role", "role")] + proportion_columns(),
                note="n = games: the seats of one role win or lose together (a 7-player game's three "
                "Outlaws are one observation), so the game is the unit of the 95% Wilson interval.",
            )
        )
    if len(side_tables) > 1:
        blocks.append(
            Paragraph(
                "Which balance conclusions hold on every rung of the bot ladder, and which depend on "
                "the bots: " + " ".join(ladder_conclusions(side_tables, role_tables))
            )
        )
    blocks.extend(population_blocks(population_results(outcomes, profile), profile))
    blocks.append(Paragraph(ladder_paragraph()))
    if tables := search_tables_paragraph():
        blocks.append(Paragraph(tables))
    blocks.append(Paragraph(ANCHOR))
    role_bot = HEADLINE_BOT if HEADLINE_BOT in BOTS[profile.name] else BOTS[profile.name][0]
    episodes = _episodes(outcomes, role_bot)
    characters = character_win_table(episodes)
    every_seat = float(cast(float, seat_table(episodes)["won"].mean()))
    blocks.append(
        Plot(
            "bang-characters",
            f"Win rate of each character over all roles and player counts ({role_bot} bots), "
            "with 95% intervals; the dashed line is the rate over all seats.",
            lambda t=characters, r=every_seat: interval_bars(
                t,
                label="character",
                title=f"Bang!: win rate by character ({role_bot} bots)",
                reference=r,
                reference_label="all seats",
            ),
        )
    )
    lengths = length_table(episodes)
    blocks.append(
        table_from_frame(
            lengths,
            title=f"Game length in player turns ({role_bot} bots)",
            columns=[
                text_column("players", "players"),
                ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
                ("mean turns", "mean", lambda r: f"{r['mean']:.1f}", lambda r: float(r["mean"])),
                ("95% interval", "lo", lambda r: f"{r['lo']:.1f}\u2013{r['hi']:.1f}", lambda r: float(r["lo"])),
            ],
            note="Normal-approximation 95% interval of the mean.",
        )
    )
    return tuple(blocks)


def ladder_paragraph(record: Path = LADDER_RECORD) -> str:
    """The bot ladder's verdict, written from the recorded one-seat comparisons (each rung
    against the rung below, paired; the search rung's own targets): where a rung beats the one
    below by 3 points with its 95% lower bound above 0, and every cell where it does not. Says
    so when the record was made with other parameters than the bots now ship with."""
    document = read_ladder_record(record)
    rows, checks = document["rows"], document.get("search_checks", [])
    fresh = tables_digest(document["table_bots"], document["players"]) == document["tables"]
    return (
        f"The bot ladder, one seat of each role on a rung and every other seat on the rung "
        f"below, paired with that seat on the lower rung over the same deals (n = "
        f"{document['n']:,} deals per role and player count, search budget "
        f"{document['budget']} rollouts per decision; '{document['command']}'): "
        + ladder_verdict(rows)
        + " "
        + search_verdict(rows, checks)
        + (
            ""
            if fresh
            else " These figures were recorded with other bot parameters than "
            "the shipped ones; rerun the command to update them."
        )
    )


#: The search rung at tables it was not built for, recorded with its commands
#: (``data/search_tables.json``, a copy of the measurement in ``benchmarks/results/measurements``).
SEARCH_TABLES_RECORD = LADDER_RECORD.parent / "search_tables.json"
#: The search rung's target in the Sheriff and Renegade seats: this many points over the seat's
#: own bot, with the 95% lower bound above 0.
SEARCH_TABLE_TARGET = 0.02


def _points(row: dict) -> str:
    return (
        f"{100 * row['diff']:+.1f} points ({100 * row['diff_lo']:+.1f} to {100 * row['diff_hi']:+.1f}, n={row['n']:,})"
    )


def _table_name(against: str) -> str:
    """A table's bot, or an outside file as ``FILE.py:NAME`` without its folder."""
    return against.rpartition("/")[2]


def search_tables_paragraph(record: Path = SEARCH_TABLES_RECORD) -> str:
    """The search rung in one seat at tables of other bots and outside files, paired with the
    table's own bot in that seat: in how many Sheriff and Renegade cells it meets its target
    (:data:`SEARCH_TABLE_TARGET`), each cell that misses, and each seat where it is significantly
    worse; first at tables a population member plays, then at tables of styles none plays (rows
    marked ``unseen``). The first row recorded for a cell decides (a later one is a second
    look); a table of search bots compares nothing and is left out. Empty when the record is
    missing."""
    import json

    if not record.exists():
        return ""
    document = json.loads(record.read_text(encoding="utf-8"))
    cells: dict[tuple, dict] = {}
    second_looks: dict[tuple, dict] = {}
    for row in document["rows"]:
        if row["against"] != row["bot"]:
            if _cell(row) in cells:
                second_looks.setdefault(_cell(row), row)
            cells.setdefault(_cell(row), row)
    known = [row for row in cells.values() if not row.get("unseen")]
    unseen = [row for row in cells.values() if row.get("unseen")]
    text = _cells_text(
        known,
        "The search rung at tables of other bots and outside files, each played by one of its population's members",
        "a file that changes only the Renegade's play gives the search Renegade the tuned table's games, counted there",
        second_looks,
    )
    if unseen:
        text += " " + _cells_text(
            unseen,
            "At tables of styles no member plays, written by an outside review after the population was fixed",
            "",
            second_looks,
        )
    return text


def _cell(row: dict) -> tuple:
    """A recorded row's cell: player count, seat and table."""
    return row["players"], row["role"], row["against"]


def _seed_list(seeds: list[int]) -> str:
    """``seed 7`` / ``seeds 7, 9`` / ``seeds 101-120`` (a run of consecutive seeds)."""
    if len(seeds) > 2 and seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"seeds {seeds[0]}-{seeds[-1]}"
    return f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}"


def _cells_text(cells: list[dict], opening: str, aside: str, second_looks: dict[tuple, dict]) -> str:
    """One group of cells of :func:`search_tables_paragraph`: the tables, the count of Sheriff
    and Renegade cells meeting the target, each miss, and each significantly worse seat, with
    the cell's second look where one was recorded (``second_looks``: by :func:`_cell`)."""

    def named(row: dict, role: str) -> str:
        text = f"{role} at {row['players']} players at the {_table_name(row['against'])} table, {_points(row)}"
        if (again := second_looks.get(_cell(row))) is not None:
            text += f" (a second look, seed {again['seed']}: {_points(again)})"
        return text

    targeted = [row for row in cells if row["role"] in ("sheriff", "renegade")]
    missed = [row for row in targeted if not (row["diff"] >= SEARCH_TABLE_TARGET and row["diff_lo"] > 0)]
    worse = [row for row in cells if row["diff_hi"] < 0]
    seeds = sorted({row["seed"] for row in cells})
    tables = sorted({_table_name(row["against"]) for row in cells})
    text = (
        f"{opening} ({', '.join(tables)}; every other seat plays that bot or file, paired with "
        f"the table's own bot in the search seat on the same deals, {_seed_list(seeds)}, "
        f"recorded with each command): as the Sheriff or the "
        f"Renegade it beats the seat's own bot by at least {100 * SEARCH_TABLE_TARGET:.0f} points "
        f"with the 95% lower bound above 0 in {len(targeted) - len(missed)} of {len(targeted)} "
        f"cells{f' ({aside})' if aside else ''}"
    )
    if missed:
        text += "; it does not in " + "; ".join(named(row, f"the {row['role'].capitalize()}") for row in missed)
    text += ". "
    if worse:
        text += "It is significantly worse than the seat's own bot in " + "; ".join(
            named(row, f"the {row['role'].capitalize()} seat") for row in worse
        )
    else:
        text += "It is significantly worse than the seat's own bot in no seat"
    return text + "."


#: Replies written by outside checks, recorded with their commands (``data/outside.json``).
OUTSIDE_RECORD = LADDER_RECORD.parent / "outside.json"


def outside_replies(record: Path = OUTSIDE_RECORD) -> list[dict]:
    """The recorded outside replies (none when the record is missing)."""
    import json

    if not record.exists():
        return []
    return list(json.loads(record.read_text(encoding="utf-8"))["replies"])


def outside_flips(replies: list[dict]) -> dict[int, str]:
    """Player count -> the role of an outside reply (of ``replies``) that flips its favoured side."""
    return {
        row["players"]: reply["role"].capitalize()
        for reply in replies
        for row in reply["sheriff_side"]
        if row["favoured_tuned"] != row["favoured_with_reply"]
    }


def outside_paragraph(replies: list[dict]) -> str:
    """The outside ``replies`` in plain words: each one's gain over the tuned bot in its seat
    (95% interval, n) and the player counts whose favoured side it flips when it takes that
    seat; empty when there are none."""
    sentences = []
    for reply in replies:
        gains = "; ".join(
            f"{g['players']} players {100 * g['gain']:+.1f} points ({100 * g['interval'][0]:+.1f} "
            f"to {100 * g['interval'][1]:+.1f}, n={g['n']:,})"
            for g in reply["gains"]
        )
        flips = [s for s in reply["sheriff_side"] if s["favoured_tuned"] != s["favoured_with_reply"]]
        sentence = (
            f"Outside check: {reply['description']} ({reply['strategy']}) gains over the "
            f"{reply['against']} {reply['role']}: {gains}."
        )
        if flips:
            sentence += (
                " In that seat it flips the favoured side at "
                + ", ".join(
                    f"{s['players']} players ({s['favoured_tuned']} {percent(s['tuned'])} with {reply['against']} bots "
                    f"-> Sheriff side {percent(s['with_reply'])}, {s['favoured_with_reply']} favoured, n={s['n']:,} "
                    "paired deals)"
                    for s in flips
                )
                + ": the balance there depends on how the "
                + reply["role"]
                + " plays, not only on the game."
            )
        sentences.append(sentence)
    return " ".join(sentences)


def recommendations(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    role_bot = HEADLINE_BOT if HEADLINE_BOT in BOTS[profile.name] else BOTS[profile.name][0]
    episodes = _episodes(outcomes, role_bot)
    sides = side_win_table(episodes).filter(pl.col("side") != "none")
    rows = []
    for players in PLAYERS:
        part = sides.filter(pl.col("players") == players).sort("p", descending=True)
        if part.height == 0:
            continue
        best, worst = part.row(0, named=True), part.row(part.height - 1, named=True)
        rows.append(
            {
                "players": players,
                "favoured": best["side"],
                "n": best["n"],
                "p": best["p"],
                "lo": best["lo"],
                "hi": best["hi"],
                "underdog": worst["side"],
                "underdog_text": f"{percent(worst['p'])} ({interval_text(worst['lo'], worst['hi'])})",
            }
        )
    table = pl.DataFrame(rows)
    replies = outside_replies()
    flipped = outside_flips(replies)
    balance = "; ".join(
        f"{r['players']} players: {r['favoured']} {percent(r['p'])} "
        f"({interval_text(r['lo'], r['hi'])})"
        + (f", but not against an outside {flipped[r['players']]}" if r["players"] in flipped else "")
        for r in rows
    )
    characters = character_win_table(episodes)
    top = characters.head(3)
    picks = ", ".join(
        f"{r['character']} {percent(r['p'])} ({interval_text(r['lo'], r['hi'])}, n={r['n']:,})"
        for r in top.iter_rows(named=True)
    )
    return (
        Paragraph(
            f"For even games, handicap the favoured side: with {role_bot} bots in every seat "
            f"it is, by player count, {balance}. Where the ladder's bots disagree (see the "
            "results), the favoured side is a property of the bots, not of the game."
        ),
        *([Paragraph(outside)] if (outside := outside_paragraph(replies)) else []),
        table_from_frame(
            table,
            title=f"Recommended reading of the balance per player count ({role_bot} bots)",
            columns=[text_column("players", "players"), text_column("favoured side", "favoured")]
            + proportion_columns()
            + [
                (
                    "underdog side: win rate (95% interval)",
                    "underdog",
                    lambda r: f"{r['underdog']}: {r['underdog_text']}",
                    lambda r: str(r["underdog"]),
                )
            ],
            note="For a group that wants even games: the favoured side is the one to handicap.",
        ),
        Paragraph(
            f"Strongest characters with {role_bot} bots (all roles and counts pooled): {picks}. "
            "Characters whose intervals overlap cannot be ranked against each other at this n."
        ),
    )
