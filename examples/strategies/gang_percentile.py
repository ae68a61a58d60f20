"""The Gang's built-in percentile model written as a user strategy: every seat reaches for the
chip of its hand's percentile band (seeds/the_gang.md, "Player models"). It plays exactly the
heists of `cardsim gang heist --model percentile` on the same seeds."""

from cardsim.sims.gang.strategy import hand_percentile


class Percentile:
    def take_chip(self, view, legal):
        band = min(int(hand_percentile(view) * view.players), view.players - 1)
        return legal[band]
