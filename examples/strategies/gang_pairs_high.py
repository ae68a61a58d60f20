"""A hand-rolled strategy for The Gang: rate the hand by its largest group of equal ranks, then
its highest pocket card, and reach for the chip of that rating."""

from cardsim.sims.gang.strategy import card_rank


class PairsHigh:
    def take_chip(self, view, legal):
        ranks = [card_rank(c) for c in view.pocket + view.board]
        best = max(ranks.count(r) for r in set(ranks))
        high = max(card_rank(c) for c in view.pocket)
        score = best * 13 + high
        return legal[min(score * len(legal) // 60, len(legal) - 1)]
