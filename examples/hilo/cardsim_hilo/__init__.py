"""Higher or Lower, an example cardsim game: its declaration (light; nothing heavy imported).

Rules: one player, a 52-card deck, aces high. The first card is turned up; before each next
card the player calls "higher" or "lower", and the card turned up must be strictly higher or
lower than the one before (a card of the same rank is a miss). The player wins by making
``target`` right calls in a row (default 5) and loses at the first miss.
"""

from cardsim.sims.core.game import Game

GAME = Game(
    name="hilo",
    title="Higher or Lower",
    simulator="cardsim_hilo.simulator:SIMULATOR",
    help="Higher or Lower: how often each calling strategy makes its run of right calls.",
    example="cardsim hilo run --strategy counting,middle --n 20000",
    cli="cardsim_hilo.cli:app",
    api="cardsim_hilo.api:hilo",
    report_section="cardsim_hilo.report",
    first_command=("hilo", "run", "--n", "2000"),
    policy_fields=("strategy",),
    hidden_info_check="cardsim_hilo.simulator:hidden_info_check",
    leaky_policy="cardsim_hilo.simulator:peeking_calls",
    reference_check="cardsim_hilo.simulator:reference_check",
    episodes_per_second=500_000,
)
