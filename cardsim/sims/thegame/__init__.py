"""The Game (cooperative, cards 2-99 on two ascending and two descending piles).

Rules digest: ``seeds/the_game.md``; source: ``../shared/seeds/001_60c4279a89d01a35.txt``.
"""
