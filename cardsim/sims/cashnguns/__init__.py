"""Cash'n Guns (first edition, seed 004_1e0bffc2eaca2406.txt): loot, bullets, seven phases,
strategies, a compiled batch kernel and a plain-Python reference engine."""

from pathlib import Path

from cardsim.sims.core.game import Game

#: Package data: the final strategy library of every reading's discover run, with provenance
#: (read by the analysis and the report; written by ``cardsim cashnguns libraries``).
SHIPPED_LIBRARIES = Path(__file__).resolve().parent / "data" / "libraries.json"

GAME = Game(
    name="cashnguns",
    title="Cash'n Guns",
    simulator="cardsim.sims.cashnguns.simulator:SIMULATOR",
    help="Cash'n Guns: payoff matrices of strategies, searched mixes and the replies that beat them.",
    example="cardsim cashnguns payoff --players 4-6 --n 300",
    cli="cardsim.commands.cashnguns:app",
    api="cardsim.api:cashnguns",
    report_section="cardsim.reports.sections.cashnguns",
    bench="cardsim.sims.cashnguns.bench:main",
    strategy_bench="cardsim.sims.cashnguns.bench:strategy_rows",
    first_command=("cashnguns", "run", "--n", "2000"),
    hidden_info_check="cardsim.sims.cashnguns.checks:hidden_info_check",
    leaky_policy="cardsim.sims.cashnguns.checks:LEAKY_POLICY",
    reference_check="cardsim.sims.cashnguns.checks:reference_check",
    episodes_per_second=80_000,
    compile_seconds=12,
    chapter_seconds=8,
    # one discover run (the slowest reading measured) within 15 minutes, --jobs 2
    long_run=(
        "cashnguns",
        "discover",
        "--players",
        "6",
        "--metric",
        "score",
        "--shame",
        "-5000",
        "--seed",
        "0",
        "--budget",
        "200",
        "--jobs",
        "2",
    ),
    long_run_wall_s=900.0,
)
