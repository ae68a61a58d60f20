"""Bang! (base game): rules kernel, bots, simulator."""

from cardsim.sims.core.game import Game

GAME = Game(
    name="bang",
    title="Bang!",
    simulator="cardsim.sims.bang.simulator:SIMULATOR",
    help="Bang!: role and character win rates for 4-7 players.",
    example="cardsim bang run --players 4-7 --n 50000",
    cli="cardsim.commands.bang:app",
    api="cardsim.api:bang",
    report_section="cardsim.reports.sections.bang",
    bench="cardsim.sims.bang.bench:main",
    strategy_bench="cardsim.sims.bang.bench:strategy_rows",
    first_command=("bang", "run", "--players", "4", "--n", "500"),
    policy_fields=("sheriff_bot", "deputy_bot", "outlaw_bot", "renegade_bot"),
    hidden_info_check="cardsim.sims.bang.checks:hidden_info_check",
    leaky_policy="cardsim.sims.bang.checks:LEAKY_POLICY",
    reference_check="cardsim.sims.bang.checks:reference_check",
    episodes_per_second=5_000,
    compile_seconds=33,
    chapter_seconds=20,
)
