from cardsim.sims.core.game import Game

GAME = Game(
    name="gang",
    title="The Gang",
    short_title="Gang",
    simulator="cardsim.sims.gang.simulator:SIMULATOR",
    help="The Gang: heist success and game win rates per player model, mode and card.",
    example="cardsim gang heist --players 3-6 --model history,bayes --n 20000",
    cli="cardsim.commands.gang:app",
    api="cardsim.api:gang",
    report_section="cardsim.reports.sections.gang",
    bench="cardsim.sims.gang.bench:main",
    strategy_bench="cardsim.sims.gang.bench:strategy_rows",
    first_command=("gang", "heist", "--players", "4", "--model", "history", "--n", "2000"),
    policy_fields=("model",),
    hidden_info_check="cardsim.sims.gang.checks:hidden_info_check",
    leaky_policy="cardsim.sims.gang.checks:LEAKY_POLICY",
    episodes_per_second=10_000,
    compile_seconds=46,
    chapter_seconds=67,
)
