"""The Gang chapter: heist success by players x model, the levels curve, card effects, game win
rates per mode, and the difficulty recommendation per player count."""

from __future__ import annotations

import polars as pl

from cardsim.analysis.gang import card_effects, game_summary, heist_summary
from cardsim.analysis.tuning import gang_candidates, rank_candidates
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
from cardsim.reports.plots.gang import (
    card_effects_plot,
    game_win_plot,
    levels_curve_plot,
    success_by_players_plot,
)
from cardsim.reports.sections.common import (
    pick_group,
    pick_group_table,
    recommendation_columns,
    recommendation_frame,
    tuning_tables,
)
from cardsim.reports.suite import Experiment, Outcomes, Profile
from cardsim.sims.gang.cards import CHALLENGES, SPECIALISTS
from cardsim.sims.gang.models import MODEL_DESCRIPTIONS, PLAYER_MODELS
from cardsim.sims.gang.simulator import SIMULATOR

GAME = "gang"
TITLE = "The Gang"
QUESTION = (
    "How often does a crew pull off a heist in The Gang, and win a whole game, depending on how "
    "many play, how well they read each other's chips, and which mode and cards are in play? "
    "Players may not talk about their cards, so every number depends on the player model: what "
    "each player knows and how chip claims and contests are settled. The models form a ladder "
    "from random chips to Bayesian reading of every visible chip. We also tune difficulty: which "
    "mode and card set gives a group a chosen win rate."
)
PLAYERS: tuple[int, ...] = (3, 4, 5, 6)
FOCUS_PLAYERS = 4
TUNE_MODEL = "history"
TARGET = 0.5
LEVELS: dict[str, tuple[int, ...]] = {"default": (1, 2, 4, 8, 16), "quick": (1, 4, 16)}
LEVEL_MODELS: dict[str, tuple[str, ...]] = {
    "default": ("percentile", "history", "bayes"),
    "quick": ("percentile", "history"),
}
CARD_MODELS: dict[str, tuple[str, ...]] = {"default": ("history", "bayes"), "quick": ("history",)}
GAME_MODELS: dict[str, tuple[str, ...]] = {"default": ("percentile", "history", "bayes"), "quick": ("history",)}
MODES: tuple[str, ...] = ("basic", "advanced", "professional", "master")
BAYES_SCALE = 0.25  # bayes plays about five times slower: a smaller episode bound per run
# "Pick your group": how well a group reads the chips, as the model that plays like it, and the
# modes offered (the rulebook's four; Professional draws its challenge as the rules say).
EXPERIENCE: dict[str, tuple[tuple[str, str], ...]] = {
    "default": (("new to the game", "percentile"), ("experienced", "history"), ("expert", "bayes")),
    "quick": (("new to the game", "percentile"), ("experienced", "history")),
}
PICK_MODES: dict[str, str] = {
    "Basic": "basic",
    "Advanced": "advanced",
    "Professional": "professional",
    "Master Thief": "master",
}


def rerun(profile: Profile) -> str:
    first = min(SIMULATOR.chunk_size, profile.max_n)
    return (
        f"cardsim gang heist --players {FOCUS_PLAYERS} --model history --n {first} "
        f"--precision {profile.precision} --max-n {profile.max_n}"
    )


def _scale(model: str, profile: Profile | None = None, tier: str = "headline") -> float:
    """The episode bound's scale: bayes runs stop at BAYES_SCALE of the headline bound, or at
    their tier's own bound where that is smaller (the table tier's already is)."""
    if model != "bayes":
        return 1.0
    if profile is None:
        return BAYES_SCALE
    return min(1.0, BAYES_SCALE * profile.max_n / profile.tier(tier)[1])


# Rough cost of an episode against a plain heist, for the scheduler's order only: a whole game
# plays several heists (more with the harder modes), bayes reads every chip, and a specialist
# the group decides on is weighed by playing the heist out both ways.
GAME_WEIGHT = 40.0
MODEL_WEIGHT: dict[str, float] = {model.name: model.cost for model in PLAYER_MODELS}
SPECIALIST_WEIGHT = 100.0
CHALLENGE_WEIGHT = 5.0


def _weight(model: str, *, game: bool = False, card: str = "none") -> float:
    weight = MODEL_WEIGHT.get(model, 1.0) * (GAME_WEIGHT if game else 1.0)
    if card in SPECIALISTS:
        return weight * SPECIALIST_WEIGHT
    return weight * (CHALLENGE_WEIGHT if card != "none" else 1.0)


def plan(profile: Profile) -> list[Experiment]:
    """Heists by players x model; levels; every card at 4 players; games per mode; tuning; the
    four modes per player count and experience for "pick your group".

    Tiers (:meth:`Profile.tier`): the headline rates (heist success at FOCUS_PLAYERS per
    model but random, the game win rate per mode of TUNE_MODEL) at the headline precision; the
    other rows of those tables, the levels curve and the card effects at the table precision
    (bayes cards at the tuning one, as before); the "pick your group" runs and the tuning
    candidates they share a config with (Basic, Advanced, Master Thief) at the tuning
    precision; the other candidates (Professional with each challenge) at the sweep's."""
    ex = profile.experiment
    base = {"part": "", "players": 0, "model": "", "levels": 1, "kind": "", "card": "", "mode": "", "candidate": ""}
    plans: list[Experiment] = []
    for model in MODEL_DESCRIPTIONS:
        for players in PLAYERS:
            headline = players == FOCUS_PLAYERS and model != "random"
            plans.append(
                ex(
                    f"heist-{players}p-{model}",
                    {"players": players, "model": model},
                    {**base, "part": "players", "players": players, "model": model},
                    scale=_scale(model, profile, "headline" if headline else "table"),
                    tier="headline" if headline else "table",
                    weight=_weight(model),
                )
            )
    for model in LEVEL_MODELS[profile.name]:
        for levels in LEVELS[profile.name]:
            plans.append(
                ex(
                    f"levels-{model}-{levels}",
                    {"players": FOCUS_PLAYERS, "model": model, "levels": levels},
                    {**base, "part": "levels", "players": FOCUS_PLAYERS, "model": model, "levels": levels},
                    scale=_scale(model, profile, "table"),
                    tier="table",
                    weight=_weight(model),
                )
            )
    for model in CARD_MODELS[profile.name]:
        cards = (
            [("none", "none", {})]
            + [("challenge", c, {"challenges": (c,)}) for c in CHALLENGES]
            + [("specialist", s, {"specialist": s}) for s in SPECIALISTS]
        )
        for kind, card, fields in cards:
            plans.append(
                ex(
                    f"card-{model}-{card}",
                    {"players": FOCUS_PLAYERS, "model": model, **fields},
                    {**base, "part": "cards", "players": FOCUS_PLAYERS, "model": model, "kind": kind, "card": card},
                    tier="tuning" if model == "bayes" else "table",
                    weight=_weight(model, card=card),
                    paired=True,
                )
            )
    for model in GAME_MODELS[profile.name]:
        for mode in MODES:
            plans.append(
                ex(
                    f"game-{mode}-{model}",
                    {"players": FOCUS_PLAYERS, "model": model, "unit": "game", "mode": mode},
                    {**base, "part": "modes", "players": FOCUS_PLAYERS, "model": model, "mode": mode},
                    scale=_scale(model, profile, "headline" if model == TUNE_MODEL else "table"),
                    tier="headline" if model == TUNE_MODEL else "table",
                    weight=_weight(model, game=True),
                )
            )
    for players in PLAYERS:
        for candidate in gang_candidates():
            shared = "challenges" not in candidate.config  # also a "pick your group" run
            plans.append(
                ex(
                    f"tune-{players}p-{candidate.label}",
                    {"players": players, "model": TUNE_MODEL, **candidate.config},
                    {**base, "part": "tune", "players": players, "model": TUNE_MODEL, "candidate": candidate.label},
                    tier="tuning" if shared else "sweep",
                    weight=_weight(TUNE_MODEL, game=True) * players / FOCUS_PLAYERS,
                )
            )
    for _, model in EXPERIENCE[profile.name]:
        for players in PLAYERS:
            for label, mode in PICK_MODES.items():
                plans.append(
                    ex(
                        f"pick-{players}p-{model}-{mode}",
                        {"players": players, "model": model, "unit": "game", "mode": mode},
                        {**base, "part": "pick", "players": players, "model": model, "mode": mode, "candidate": label},
                        tuning=True,
                        scale=_scale(model),
                        weight=_weight(model, game=True) * players / FOCUS_PLAYERS,
                    )
                )
    return plans


def models(profile: Profile) -> list[tuple[str, str]]:
    return [(name, text) for name, text in MODEL_DESCRIPTIONS.items()] + [
        (
            "levels",
            "a knob on percentile/history/bayes: claims distinguish levels x n strength bands, "
            "standing for finer table conventions (levels = 1 is the plain game)",
        )
    ]


def _pairing_words(effects: pl.DataFrame) -> str:
    """How the card effects' intervals were computed (:func:`card_effects`, column ``pairing``):
    paired by deal where a card's run has as many heists as no card's, unpaired for the cards
    named."""
    cards = effects.filter(pl.col("card") != "none")
    unpaired = cards.filter(pl.col("pairing") != "by deal")
    if unpaired.is_empty():
        return "paired by deal (every card's heist k starts from the same deck and heist seed as no card's)"
    runs = ", ".join(f"{card} (n = {n:,})" for card, n in unpaired.select("card", "n").iter_rows())
    base_n = int(effects.filter(pl.col("card") == "none")["n"][0])
    return (
        f"paired by deal for {cards.height - unpaired.height} of {cards.height} cards; "
        f"unpaired (independent samples) for {runs}, whose runs stopped at another n than no "
        f"card's {base_n:,}"
    )


def _part(outcomes: Outcomes, part: str, index: str | None = None) -> pl.DataFrame:
    return outcomes.combined(lambda e: e.labels["part"] == part, index)


def results(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    blocks: list[Block] = []
    heists = heist_summary(_part(outcomes, "players")).sort(["players", "model"])
    blocks.append(
        table_from_frame(
            heists,
            title="Heist success by players and model (basic heist, levels = 1)",
            columns=[
                text_column("players", "players"),
                text_column("model", "model"),
                ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
                ("success", "success", lambda r: percent(r["success"]), lambda r: float(r["success"])),
                (
                    "95% interval",
                    "success_lo",
                    lambda r: interval_text(r["success_lo"], r["success_hi"]),
                    lambda r: float(r["success_lo"]),
                ),
                (
                    "random order, exact",
                    "random_exact",
                    lambda r: percent(r["random_exact"]),
                    lambda r: float(r["random_exact"]),
                ),
            ],
            note="n = heists, each a standalone heist on a fresh deal (the crew wins or loses it "
            "together; heists within a game are only counted per game, in the game table), the "
            "unit of the 95% Wilson interval. Random order, exact: the mean over these deals of "
            "the share of chip orders that would have been correct (what random chips achieve), "
            "computed exactly per deal.",
        )
    )
    blocks.append(
        Plot(
            "gang-players-model",
            "Heist success by number of players, one line per player model, with 95% intervals.",
            lambda t=heists: success_by_players_plot(t),
        )
    )
    levels = heist_summary(_part(outcomes, "levels")).sort(["model", "levels"])
    blocks.append(
        Plot(
            "gang-levels",
            f"Heist success at {FOCUS_PLAYERS} players as claims can express "
            "more strength bands per chip (levels); large levels approach perfect sorting.",
            lambda t=levels: levels_curve_plot(t),
        )
    )
    for model in CARD_MODELS[profile.name]:
        cards = _part(outcomes, "cards", index="deal").filter(pl.col("model") == model)
        effects = card_effects(cards)
        blocks.append(
            Plot(
                f"gang-cards-{model}",
                f"Change in heist success caused by each card alone "
                f"({FOCUS_PLAYERS} players, {model} model), with Newcombe 95% intervals: "
                f"{_pairing_words(effects)}; specialists highlighted. The group plays a specialist it decides on only "
                "when it expects a gain on public information (--specialist-use helpful); "
                "the Jack must stay in the pocket (the Hacker's text alone allows "
                "discarding the card just taken); `cardsim gang cards` also reports "
                "'always' and the other Jack reading.",
                lambda t=effects: card_effects_plot(t),
            )
        )
    modes = game_summary(_part(outcomes, "modes"))
    blocks.append(
        table_from_frame(
            modes.sort(
                [
                    pl.col("model").replace_strict({m: i for i, m in enumerate(MODEL_DESCRIPTIONS)}),
                    pl.col("mode").replace_strict({m: i for i, m in enumerate(MODES)}),
                ]
            ),  # difficulty order
            title=f"Game win rate per mode ({FOCUS_PLAYERS} players)",
            columns=[
                text_column("model", "model"),
                text_column("mode", "mode"),
                ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
                ("win rate", "win", lambda r: percent(r["win"]), lambda r: float(r["win"])),
                (
                    "95% interval",
                    "win_lo",
                    lambda r: interval_text(r["win_lo"], r["win_hi"]),
                    lambda r: float(r["win_lo"]),
                ),
                ("heists per game", "heists", lambda r: f"{r['heists']:.2f}", lambda r: float(r["heists"])),
            ],
            note="A game is won with three vaults before three alarms (two in Master Thief); n = games, "
            "the unit of the 95% intervals (the heists of a game are correlated).",
        )
    )
    blocks.append(
        Plot(
            "gang-modes",
            "Game win rate per mode, one line per model, with 95% intervals.",
            lambda t=modes: game_win_plot(t),
        )
    )
    return tuple(blocks)


READS: dict[str, str] = {
    "percentile": "chips from their own hand only",
    "history": "earlier chips settle contests",
    "bayes": "every visible chip read",
}


def _rate(answer) -> str:
    return f"{percent(answer.p, 0)} (95% interval {interval_text(answer.lo, answer.hi)}, n={answer.n:,} games)"


def key_result(picks: dict, profile: Profile) -> str:
    """The chapter's key result: which mode gives a group of FOCUS_PLAYERS an even chance, by
    experience, naming the models it holds for."""
    shown = [(name, model) for name, model in EXPERIENCE[profile.name] if (FOCUS_PLAYERS, model) in picks]
    if not shown:
        return ""
    name, model = next(((n, m) for n, m in shown if m == TUNE_MODEL), shown[0])
    answer = picks[(FOCUS_PLAYERS, model)]
    who = (
        f"For a group of {FOCUS_PLAYERS} that plays like the '{model}' model ({READS.get(model, model)}; "
        f"the report's {name} players)"
    )
    if answer.reach == "above":
        first = f"{who}, every set-up stays below an even chance; the model's best is {answer.label}, {_rate(answer)}."
    elif answer.reach == "below":
        first = f"{who}, even {answer.label} is won more than half the time, {_rate(answer)}."
    else:
        first = f"{who}, {answer.label} is the set-up closest to an even chance: the model wins {_rate(answer)}."
    others = [
        f"{n} ('{m}') {picks[(FOCUS_PLAYERS, m)].label}, {_rate(picks[(FOCUS_PLAYERS, m)])}"
        for n, m in shown
        if m != model
    ]
    second = (
        (
            f"Closest to even for other groups of {FOCUS_PLAYERS}: "
            + "; ".join(others)
            + "; other player counts are in the 'pick your group' table."
        )
        if others
        else "Other player counts are in the 'pick your group' table."
    )
    return f"{first} {second}"


def recommendations(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    tables = tuning_tables(outcomes, PLAYERS, "success", "model", TUNE_MODEL)
    table = recommendation_frame(tables, TARGET)
    focus = table.filter(pl.col("players") == FOCUS_PLAYERS).row(0, named=True)
    sentence = (
        f"For {FOCUS_PLAYERS} experienced players (the '{TUNE_MODEL}' model) aiming at a "
        f"{percent(TARGET, 0)} win rate, among every mode and Professional challenge, play "
        f"{focus['play']}: {percent(focus['p'])} "
        f"(95% interval {interval_text(focus['lo'], focus['hi'])}, n={focus['n']:,} games)."
    )
    ranked = rank_candidates(tables[FOCUS_PLAYERS], TARGET)
    experiences = EXPERIENCE[profile.name]
    picks = pick_group(outcomes, PLAYERS, experiences, "model", "success", TARGET)
    return (
        *([Paragraph(key)] if (key := key_result(picks, profile)) else []),
        pick_group_table(
            picks,
            PLAYERS,
            experiences,
            title=f"Pick your group: the set-up closest to a {percent(TARGET, 0)} game win rate",
            unit="games",
            note="Experience is played by a player model: new to the game = 'percentile' (claims "
            "from your own hand only), experienced = 'history' (contests settled by earlier "
            "chips), expert = 'bayes' (reads every visible chip). Set-ups: Basic, Advanced, "
            "Professional (a drawn permanent challenge), Master Thief, and for the "
            f"'{TUNE_MODEL}' model also Professional with each permanent challenge (the "
            "recommendation table's candidates): every cell is the closest of all the "
            "set-ups the chapter shows for that group.",
        ),
        Paragraph(sentence),
        table_from_frame(
            table,
            title=f"Recommended configuration per player count for a {percent(TARGET, 0)} win rate "
            f"('{TUNE_MODEL}' model)",
            columns=recommendation_columns(TARGET, "easier (aim 75%)", "harder (aim 25%)"),
            note="Easier/harder: the easy and hard rungs of the ladder (closest to 75% and 25% among "
            "configurations clearly easier or harder than the recommendation). Candidates: Basic, "
            "Advanced, Professional (a drawn challenge), Professional with each permanent "
            "challenge, Master Thief; the play column is the 'pick your group' table's "
            "experienced cell.",
        ),
        Plot(
            "gang-tuning",
            f"Game win rate of every candidate configuration at {FOCUS_PLAYERS} players "
            f"('{TUNE_MODEL}' model), with 95% intervals; dashed: the {percent(TARGET, 0)} target.",
            lambda t=ranked.sort("p", descending=True): interval_bars(
                t,
                label="label",
                title=f"The Gang, {FOCUS_PLAYERS} players: game win rate per configuration",
                xlabel="game win rate",
                reference=TARGET,
                reference_label="target",
            ),
        ),
    )


def findings(outcomes: Outcomes, profile: Profile) -> list[Finding]:
    """Every figure of the chapter's tables, one per setting: heist success per players and
    model (n counts heists, one team wins or loses each; the headline: FOCUS_PLAYERS and every
    model but random), the game win rate per model and mode at FOCUS_PLAYERS (n counts games;
    the headline: the focus model's), then the "pick your group" cells."""
    found = []
    heists = heist_summary(_part(outcomes, "players")).sort(["players", "model"])
    headline = (pl.col("players") == FOCUS_PLAYERS) & (pl.col("model") != "random")
    for group, part in (("headline", heists.filter(headline).sort("success")), ("table", heists.filter(~headline))):
        for row in part.iter_rows(named=True):
            found.append(
                from_row(
                    GAME,
                    "heist success",
                    row,
                    model=row["model"],
                    setting="basic heist",
                    unit="heists",
                    p="success",
                    lo="success_lo",
                    hi="success_hi",
                    group=group,
                    key=f"heist:{row['players']}p:{row['model']}",
                    run=run_of(outcomes, part="players", players=row["players"], model=row["model"]),
                )
            )
    modes = game_summary(_part(outcomes, "modes"))
    order = {m: i for i, m in enumerate(MODES)}
    models = {m: i for i, m in enumerate(MODEL_DESCRIPTIONS)}
    for row in sorted(
        modes.iter_rows(named=True),
        key=lambda r: (r["model"] != TUNE_MODEL, models.get(r["model"], 9), order[r["mode"]]),
    ):
        found.append(
            from_row(
                GAME,
                "game win rate",
                {**row, "players": FOCUS_PLAYERS},
                model=row["model"],
                setting=f"{row['mode']} mode",
                unit="games",
                p="win",
                lo="win_lo",
                hi="win_hi",
                group="headline" if row["model"] == TUNE_MODEL else "table",
                key=f"game:{FOCUS_PLAYERS}p:{row['model']}:{row['mode']}",
                run=run_of(outcomes, part="modes", model=row["model"], mode=row["mode"]),
            )
        )
    picks = pick_group(outcomes, PLAYERS, EXPERIENCE[profile.name], "model", "success", TARGET)
    return found + pick_findings(GAME, picks, EXPERIENCE[profile.name], TARGET, "set-up")
