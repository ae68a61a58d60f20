"""Cash'n Guns chapter, the field: a tournament of every kind of player the chapter knows (the
named presets, the shipped mix's members, the recorded outside replies and the search player)
at 4, 5 and 6 players, and how the search player plays, in numbers from its own games.

Both are computed by side tasks the scheduler plays beside the experiments (each keeps its
result in the results store, where the chapter reads it back) or, without a store, by the
chapter itself. Every figure is read from the results; the chapter's findings carry each one
with its id (:func:`field_findings`).
"""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path

import polars as pl

from cardsim.analysis.cashnguns import load_libraries
from cardsim.analysis.cashnguns.playstyle import PlaystyleSettings, playstyle_figures, playstyle_games
from cardsim.analysis.cashnguns.tournament import (
    TournamentSettings,
    play_tournament,
    resolve_entrants,
    tournament_tables,
)
from cardsim.reports.content import Block, Paragraph, Plot, interval_text, percent, table_from_frame, text_column
from cardsim.reports.findings import Finding
from cardsim.reports.plots.tournament import ranking_plot
from cardsim.reports.sections.common import checkout_path
from cardsim.reports.suite import Profile, SideTask
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES

GAME = "cashnguns"
#: The search player as it enters (its defaults: budget, metric win, population mix+presets).
SEARCH = "search"
#: Deals per table of the tournament (each table of one or two entrants is played on these).
DEALS: dict[str, int] = {"default": 1, "quick": 1}
#: Games of the search player per player count: one seat at a table of the shipped mix, and a
#: table of copies of itself (every seat a search player: about players times dearer), for a
#: profile whose max_n is FIELD_MAX_N; a smaller max_n scales them down.
PLAYSTYLE_GAMES: dict[str, dict[str, int]] = {
    "default": {"mix": 300, "self": 40},
    "quick": {"mix": 40, "self": 8},
}
FIELD_MAX_N: dict[str, int] = {"default": 20_000, "quick": 1_000}
#: Rough cost of one game with a search or Python seat against a kernel game (the scheduler's
#: order only).
SLOW_WEIGHT = 60.0


def field_counts(profile: Profile) -> tuple[int, ...]:
    """The player counts of the field: those of the chapter's profile."""
    from cardsim.reports.sections.cashnguns import PLAYERS

    return PLAYERS[profile.name]


def presets(profile: Profile) -> tuple[str, ...]:
    """The named presets in the field: every one by default, the chapter's quick list when quick."""
    from cardsim.reports.sections.cashnguns import STRATEGIES

    return tuple(NAMED_STRATEGIES) if profile.name == "default" else STRATEGIES[profile.name]


def recorded_replies(players: int) -> tuple[list[str], list[str]]:
    """(the ``FILE.py:NAME`` entrants, the files missing): every outside reply recorded with a
    shipped reading at ``players`` players that names a file of ``examples/strategies``, in
    the readings' order, each once."""
    found: list[str] = []
    missing: list[str] = []
    for (count, _, _), entry in sorted(load_libraries().items()):
        if count != players:
            continue
        for reply in entry.get("beyond_space", []):
            for spec in re.findall(r"(examples/strategies/[\w./-]+\.py:\w+)", reply.get("source", "")):
                file, _, name = spec.rpartition(":")
                path = checkout_path(file)
                entrant = f"{path}:{name}"
                if path is None or not path.is_file():
                    missing.append(spec)
                elif entrant not in found:
                    found.append(entrant)
    return found, missing


def field(profile: Profile, players: int) -> list[str]:
    """The tournament's entrants at ``players``: presets, the shipped mix's members (main
    reading: win probability, shame -$5,000), the recorded outside replies, the search player."""
    return [*presets(profile), "mix", *recorded_replies(players)[0], SEARCH]


def _settings(profile: Profile, players: int, seed: int) -> TournamentSettings:
    entrants = resolve_entrants(field(profile, players), players, "win", DEFAULT_SHAME_DOLLARS)
    count = len(entrants)
    tables = count + math.comb(count, 2) * (players - 1)  # every table of one or two entrants
    return TournamentSettings(
        tuple(entrants),
        players=players,
        games=tables * DEALS[profile.name],
        design="sampled",
        shame_value=DEFAULT_SHAME_DOLLARS,
        seed=seed,
    )


@functools.cache
def field_tournament(profile: Profile, players: int, seed: int, store: Path | None) -> dict:
    """The tournament of :func:`field` at ``players`` (played, or read back from ``store``):
    its tables (:func:`~cardsim.analysis.cashnguns.tournament.tournament_tables`)."""
    from cardsim.sims.core.isolation import close_hosts

    settings = _settings(profile, players, seed)
    try:
        played = play_tournament(settings, jobs=1, store=store)
    finally:
        close_hosts()
    return tournament_tables(settings, played)


def playstyle_settings(profile: Profile, players: int, table: str, seed: int) -> PlaystyleSettings:
    """The search player's games at ``table`` for ``profile`` (scaled down below its usual max_n)."""
    scale = min(1.0, profile.max_n / FIELD_MAX_N[profile.name])
    games = max(4 if table == "self" else 10, round(PLAYSTYLE_GAMES[profile.name][table] * scale))
    return PlaystyleSettings(players=players, table=table, games=games, seed=seed, spec=SEARCH)


@functools.cache
def search_playstyle(profile: Profile, players: int, table: str, seed: int, store: Path | None) -> list[dict]:
    """The figures of the search player's games at ``table`` (:func:`playstyle_figures`)."""
    settings = playstyle_settings(profile, players, table, seed)
    games, decisions = playstyle_games(settings, store)
    return [{**figure, "table": table} for figure in playstyle_figures(games, decisions, players)]


def field_side_tasks(profile: Profile, seed: int, store: Path | None) -> list[SideTask]:
    """The tournaments and the search player's games, one side task each (None without a store)."""
    if store is None:
        return []
    tasks = []
    for players in field_counts(profile):
        settings = _settings(profile, players, seed)
        tasks.append(
            SideTask(
                f"tournament-{players}p",
                field_tournament,
                {"profile": profile, "players": players, "seed": seed, "store": store},
                cost=SLOW_WEIGHT * settings.games * players / 4,
            )
        )
        for table in ("mix", "self"):
            games = playstyle_settings(profile, players, table, seed).games
            seats = 1 if table == "mix" else players
            tasks.append(
                SideTask(
                    f"search-{table}-{players}p",
                    search_playstyle,
                    {"profile": profile, "players": players, "table": table, "seed": seed, "store": store},
                    cost=SLOW_WEIGHT * 10 * games * seats,
                )
            )
    return tasks


# --- words ---------------------------------------------------------------------------------------


def _figure(figures: list[dict], key: str) -> dict:
    return next(f for f in figures if f["key"] == key)


def _rate(figure: dict) -> str:
    """``41.2% (95% interval 38.0-44.5%, n = 300 games)``."""
    return (
        f"{percent(figure['p'])} (95% interval {interval_text(figure['lo'], figure['hi'])}, n = {figure['n']:,} games)"
    )


def _short(figure: dict) -> str:
    """``41.2% [38.0-44.5%]``."""
    return f"{percent(figure['p'])} [{interval_text(figure['lo'], figure['hi'])}]"


def _listed(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def key_sentence(by_count: dict[int, list[dict]]) -> str:
    """The chapter's key result, in two sentences for the first page: how often the search
    player wins at a table of the shipped mix (95% interval, n) and per seat at a table of
    copies of itself, and how it plays there (its loaded cards early and late, its lie-downs
    under one gun and under two or more, its aims at the richest beside a random aim's share),
    per player count; every figure with its interval and n in the chapter's table."""
    if not by_count:
        return ""
    counts = sorted(by_count)
    mix = {p: {f["key"]: f for f in by_count[p] if f["table"] == "mix"} for p in counts}
    copies = {p: {f["key"]: f for f in by_count[p] if f["table"] == "self"} for p in counts}

    def win(f: dict) -> str:
        return f"{percent(f['p'])} (95% interval {interval_text(f['lo'], f['hi'])}, n={f['n']:,} games)"

    def shares(key: str) -> str:
        return _listed([percent(mix[p][key]["p"]) for p in counts])

    players = _listed([str(p) for p in counts])
    first = (
        "Against the shipped mixes only (win probability, a tie counting as a win for every tied player; "
        "shame -$5,000), the search player (it reads each opponent's policy from the public record and plays "
        "every decision by simulating the rest of the game) wins "
        + _listed([f"{win(mix[p]['win'])} of its games at {p} players" for p in counts])
    )
    if all("win" in copies[p] for p in counts):
        first += ", and per seat at a table of copies of itself " + _listed(
            [f"{win(copies[p]['win'])} at {p}" for p in counts]
        )
    second = (
        f"Against the mix, at {players} players{' in turn' if len(counts) > 1 else ''}: a loaded card (Bang! or Bang!Bang!Bang!) is "
        f"{shares('loaded-early')} of its cards in rounds 1-5 and {shares('loaded-late')} in rounds 6-8; "
        f"it lies down {shares('lie-1-gun')} of the times one gun aims at it and {shares('lie-2-guns')} "
        f"when two or more do; where the opponents differ in money it aims at the richest "
        f"{shares('aim-richest')} of the time, where a random aim would give {shares('random-richest')} "
        "(intervals and n in the chapter's tables)"
    )
    return f"{first}. {second}."


def playstyle_sentence(by_count: dict[int, list[dict]], ranks: dict[int, str]) -> str:
    """The chapter's key result: how the search player plays, from its games at a table of the
    shipped mix (when it fires its loaded cards, when it lies down, whom it aims at, each
    beside what a random aim would give), and how often it wins there and at a table of
    copies of itself; ``ranks``: its place in each count's tournament, in words."""
    if not by_count:
        return ""
    parts = []
    for players, figures in sorted(by_count.items()):
        mix = [f for f in figures if f["table"] == "mix"]
        copies = [f for f in figures if f["table"] == "self"]
        loaded = [_figure(mix, f"loaded-round-{r}") for r in range(1, 9)]
        early = max(loaded[:5], key=lambda f: f["p"])
        late = loaded[5:]
        text = (
            f"at {players} players (one search seat among the shipped mix, n = {_figure(mix, 'win')['n']:,} games) "
            f"a loaded card (Bang! or Bang!Bang!Bang!) is at most {percent(early['p'])} of its cards in each of rounds 1-5 "
            f"(highest in round {loaded.index(early) + 1}, 95% interval {interval_text(early['lo'], early['hi'])}) "
            f"and {', '.join(percent(f['p']) for f in late[:-1])} and {percent(late[-1]['p'])} of its cards "
            "in rounds 6, 7 and 8; "
            f"by pot, {_short(_figure(mix, 'loaded-pot-small'))} of its cards are loaded when the pot is small "
            f"and {_short(_figure(mix, 'loaded-pot-big'))} when it is big; "
            f"it lies down {_short(_figure(mix, 'lie-1-gun'))} of the times one gun aims at it and "
            f"{_short(_figure(mix, 'lie-2-guns'))} when two or more do; "
            f"when the opponents differ in money it aims at the richest {_short(_figure(mix, 'aim-richest'))} of "
            f"the time (a random aim: {percent(_figure(mix, 'random-richest')['p'])}), and when they differ in "
            f"wounds at the most wounded {_short(_figure(mix, 'aim-wounded'))} "
            f"(random: {percent(_figure(mix, 'random-wounded')['p'])}); "
            f"it wins {_rate(_figure(mix, 'win'))} at that table"
        )
        if copies:
            text += (
                f" and {_rate(_figure(copies, 'win'))} per seat at a table of {players} copies of itself "
                f"(an even share is {percent(1 / players)}, less games nobody wins)"
            )
        if ranks.get(players):
            text += f"; in the tournament below it {ranks[players]}"
        parts.append(text)
    return (
        "How the search player plays (it reads each opponent's policy from the public record and plays "
        "every decision by simulating the rest of the game), in numbers from its own games: "
        + "; ".join(parts)
        + ". Shares of decisions pool each game's decisions; their 95% intervals are over games."
    )


def _rank_text(tables: dict) -> str:
    """Where the search player stands in a tournament: its win-rate place and α-Rank rank."""
    standings = tables["standings"]
    labels = standings["entrant"].to_list()
    if SEARCH not in labels:
        return ""
    place = labels.index(SEARCH) + 1
    text = f"has the {'' if place == 1 else _ordinal(place) + ' '}highest win rate of {len(labels)} entrants"
    alpharank = tables["alpharank"]
    if alpharank is not None:
        rank = int(alpharank.filter(pl.col("entrant") == SEARCH)["rank"][0])
        text += f" and α-Rank ranks it {_ordinal(rank)}"
    return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def tournament_sentence(by_count: dict[int, dict]) -> str:
    """ "Across tables drawn from this field, X wins most often" per player count, with its win
    rate, 95% interval and n, whether the runner-up's interval overlaps it, and α-Rank's top."""
    parts = []
    for players, tables in sorted(by_count.items()):
        standings = tables["standings"]
        top, second = standings.row(0, named=True), standings.row(1, named=True)
        summary = tables["summary"]
        tied = [row["entrant"] for row in standings.iter_rows(named=True) if row["p_win"] == top["p_win"]]
        text = (
            f"at {players} players ({len(standings)} entrants, {summary['games']:,} games) "
            + (f"{top['entrant']} wins most often" if len(tied) == 1 else f"{' and '.join(tied)} tie for most wins")
            + f", {percent(top['p_win'])} of {'its' if len(tied) == 1 else 'their'} seats (95% interval "
            f"{interval_text(top['win_lo'], top['win_hi'])}, {top['games']:,} games)"
        )
        if len(tied) == 1 and second["win_hi"] >= top["win_lo"]:
            text += (
                f", not separated from {second['entrant']} ({percent(second['p_win'])}, "
                f"{interval_text(second['win_lo'], second['win_hi'])})"
            )
        alpharank = tables["alpharank"]
        if alpharank is not None:
            leaders = alpharank.filter(pl.col("rank") == 1)["entrant"].to_list()
            text += f"; α-Rank ranks {' and '.join(leaders)} first"
        parts.append(text)
    if not parts:
        return ""
    return (
        "Across tables drawn from this field (every table of one or two of its entrants, each on a deal "
        "of its own): " + "; ".join(parts) + "."
    )


def tournament_blocks(by_count: dict[int, dict], missing: list[str]) -> list[Block]:
    """The tournament's design, its standings per player count and the ranking plots."""
    if not by_count:
        return []
    any_tables = next(iter(by_count.values()))
    summary = any_tables["summary"]
    blocks: list[Block] = [
        Paragraph(
            "A tournament of the field: the named presets, the members of the shipped mix of the main "
            "reading (win probability, shame -$5,000) at that player count, the outside replies recorded "
            "with any shipped reading at that count (strategies written in Python, each run in its own "
            "process on a copy of its view) and the search player (`search`). Tables drawn from the field "
            "by the `sampled` design of `cardsim cashnguns tournament`, reduced to every table of one or two "
            f"entrants (what α-Rank needs), each played on {summary['deals_per_composition']} deal(s) "
            + (
                "shared by every table, its seats turned one place per deal"
                if summary["paired"]
                else "of its own, its seats turned at random (one shared deal would rank the entrants on "
                "that deal and on which seat of it each was listed into)"
            )
            + f", from the root seed {summary['seed']}; win rate per seat with its 95% interval over games "
            "(a game is one observation of an entrant's seats); α-Rank (selection intensity "
            f"{summary['alpha']:g}, population {summary['population']}) from the same tables' win rates. "
            "A table of one entrant's copies and another's counts for both; the standings weigh every "
            "table alike, so they say how an entrant does across this field, not against one mix. "
            f"α-Rank reads each table's win rates from that table's games alone "
            f"({summary['deals_per_composition']} per table), so its ranking carries the noise of those few games, and a rank is not separated from the next "
            "the way a win rate's interval is; the win rates pool every table an entrant sits at."
            + (f" Recorded replies whose files are missing here, left out: {', '.join(missing)}." if missing else "")
        ),
        Paragraph(tournament_sentence(by_count)),
    ]
    for players, tables in sorted(by_count.items()):
        standings = tables["standings"]
        alpharank = tables["alpharank"]
        ranks = (
            dict(zip(alpharank["entrant"].to_list(), alpharank["rank"].to_list(), strict=True))
            if alpharank is not None
            else {}
        )
        kinds = {e["label"]: e["kind"] for e in tables["summary"]["entrants"]}
        frame = standings.with_columns(
            pl.col("entrant").replace_strict(ranks, default=None, return_dtype=pl.Int64).alias("alpha_rank"),
            pl.col("entrant").replace_strict(kinds, default="", return_dtype=pl.Utf8).alias("kind"),
        )
        blocks.append(
            table_from_frame(
                frame,
                title=f"Tournament of the field, {players} players: win rate per seat and α-Rank",
                columns=[
                    text_column("entrant", "entrant"),
                    text_column("kind", "kind"),
                    ("games", "games", lambda r: f"{int(r['games']):,}", lambda r: float(r["games"])),
                    ("win rate", "p_win", lambda r: percent(r["p_win"]), lambda r: float(r["p_win"])),
                    (
                        "95% interval",
                        "win_lo",
                        lambda r: interval_text(r["win_lo"], r["win_hi"]),
                        lambda r: float(r["win_lo"]),
                    ),
                    (
                        "α-Rank",
                        "alpha_rank",
                        lambda r: "-" if r["alpha_rank"] is None else str(r["alpha_rank"]),
                        lambda r: float(r["alpha_rank"] or 0),
                    ),
                ],
                note=(
                    f"{tables['summary']['compositions']:,} tables, {tables['summary']['games']:,} games. "
                    "Kind: built-in (a preset, a mix member or the search player, played in compiled code or, "
                    "for search, in this process), python (a recorded outside reply's file)."
                ),
            )
        )
        blocks.append(
            Plot(
                f"cashnguns-tournament-{players}",
                f"{players} players: win rate per seat of each entrant across the field's tables (95% "
                "intervals over games) and its α-Rank stationary mass.",
                functools.partial(
                    ranking_plot, standings, alpharank, title=f"Cash'n Guns field tournament, {players} players"
                ),
            )
        )
    return blocks


def playstyle_blocks(by_count: dict[int, list[dict]]) -> list[Block]:
    """One table of the search player's figures per player count."""
    blocks: list[Block] = []
    for players, figures in sorted(by_count.items()):
        frame = pl.DataFrame(
            [{k: f[k] for k in ("table", "what", "p", "lo", "hi", "n", "decisions")} for f in figures],
            schema_overrides={"p": pl.Float64, "lo": pl.Float64, "hi": pl.Float64},
        )
        blocks.append(
            table_from_frame(
                frame,
                title=f"How the search player plays, {players} players",
                columns=[
                    (
                        "table",
                        "table",
                        lambda r: "shipped mix" if r["table"] == "mix" else "copies of itself",
                        lambda r: r["table"],
                    ),
                    text_column("what", "what"),
                    ("share", "p", lambda r: "-" if math.isnan(r["p"]) else percent(r["p"]), lambda r: float(r["p"])),
                    (
                        "95% interval",
                        "lo",
                        lambda r: "-" if math.isnan(r["lo"]) else interval_text(r["lo"], r["hi"]),
                        lambda r: float(r["lo"]),
                    ),
                    ("games", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
                    ("decisions", "decisions", lambda r: f"{int(r['decisions']):,}", lambda r: float(r["decisions"])),
                ],
                note=(
                    "From the search player's own games: at a table of the shipped mix (one search seat, the "
                    "other seats drawn from the mix by its shares, game by game) and at a table of copies of "
                    "itself (every seat). A loaded card is a Bang! or a Bang!Bang!Bang!; the pot is the loot on "
                    "the table against the round's expected loot; aims count only the decisions where the living "
                    "opponents differ in money (richest) or in wounds (most wounded), beside the share a "
                    "uniformly random aim would give on the same decisions. Shares pool each game's decisions; "
                    "the 95% interval is over games (ratio estimate, delta method); a win rate at the mix table "
                    "has a Wilson interval (one search seat per game)."
                ),
            )
        )
    return blocks


def field_blocks(profile: Profile, seed: int, store: Path | None) -> tuple[list[Paragraph], list[Block]]:
    """(the key-result paragraphs: the key result, :func:`key_sentence`, then the search
    player's play in detail with its place in the field; the tournament's and the search
    player's tables and plots)."""
    counts = field_counts(profile)
    tournaments = {p: field_tournament(profile, p, seed, store) for p in counts}
    styles = {
        p: search_playstyle(profile, p, "mix", seed, store) + search_playstyle(profile, p, "self", seed, store)
        for p in counts
    }
    missing = sorted({spec for p in counts for spec in recorded_replies(p)[1]})
    ranks = {p: _rank_text(tables) for p, tables in tournaments.items()}
    lead = [Paragraph(text) for text in (key_sentence(styles), playstyle_sentence(styles, ranks)) if text]
    return lead, [*tournament_blocks(tournaments, missing), *playstyle_blocks(styles)]


def field_findings(profile: Profile, seed: int, store: Path | None) -> list[Finding]:
    """Every figure of the field as a finding (n counts games): each entrant's tournament win
    rate per seat (``tournament:<players>p:<entrant>``) and each figure of the search player's
    games (``search:<players>p:<table>:<figure>``); the search player's win rate at a table of
    the shipped mix is a headline (the README's table), the others are table rows."""
    found: list[Finding] = []
    for players in field_counts(profile):
        tables = field_tournament(profile, players, seed, store)
        run = tables["summary"]["run"] or f"tournament-{players}p"
        for row in tables["standings"].iter_rows(named=True):
            found.append(
                Finding(
                    game=GAME,
                    question="win rate per seat across the field's tables",
                    players=players,
                    model=row["entrant"],
                    setting="tournament of the field (every table of one or two entrants)",
                    n=int(row["games"]),
                    unit="games",
                    p=float(row["p_win"]),
                    lo=float(row["win_lo"]),
                    hi=float(row["win_hi"]),
                    group="table",
                    key=f"tournament:{players}p:{row['entrant']}",
                    run=f"{run}:{row['entrant']}",
                    note="95% interval over games (ratio estimate, delta method)",
                )
            )
        for table in ("mix", "self"):
            for figure in search_playstyle(profile, players, table, seed, store):
                if figure["n"] == 0 or math.isnan(figure["p"]):
                    continue
                setting = "a table of the shipped mix" if table == "mix" else "a table of copies of itself"
                headline = table == "mix" and figure["key"] == "win"  # the README's row: how often it wins
                found.append(
                    Finding(
                        game=GAME,
                        question=figure["what"],
                        players=players,
                        model=SEARCH,
                        setting=setting,
                        n=int(figure["n"]),
                        unit="games",
                        p=float(figure["p"]),
                        lo=float(figure["lo"]),
                        hi=float(figure["hi"]),
                        group="headline" if headline else "table",
                        key=f"search:{players}p:{table}:{figure['key']}",
                        run=f"search-{table}-{players}p:{figure['key']}",
                        note=f"{figure['decisions']:,} decisions; 95% interval over games",
                    )
                )
    return found
