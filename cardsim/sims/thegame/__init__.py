"""The Game (cooperative, cards 2-99 on two ascending and two descending piles).

Rules digest: ``seeds/the_game.md``; source: ``../shared/seeds/001_60c4279a89d01a35.txt``.
"""

from cardsim.sims.core.game import Game

GAME = Game(
    name="thegame",
    title="The Game",
    short_title="Game",
    simulator="cardsim.sims.thegame.simulator:SIMULATOR",
    help="The Game: win rates and cards left per player count and strategy.",
    example="cardsim thegame run --players 1-5 --strategy planner,search --n 2000",
    cli="cardsim.commands.thegame:app",
    api="cardsim.api:thegame",
    report_section="cardsim.reports.sections.thegame",
    bench="cardsim.sims.thegame.bench:main",
    strategy_bench="cardsim.sims.thegame.bench:strategy_rows",
    first_command=("thegame", "run", "--players", "2", "--strategy", "signals", "--n", "2000"),
    warmup_configs="cardsim.sims.thegame.simulator:warmup_configs",
    policy_fields=("strategy",),
    hidden_info_check="cardsim.sims.thegame.checks:hidden_info_check",
    leaky_policy="cardsim.sims.thegame.checks:LEAKY_POLICY",
    reference_check="cardsim.sims.thegame.checks:reference_check",
    episodes_per_second=2_000,
    compile_seconds=71,
    chapter_seconds=39,
)
