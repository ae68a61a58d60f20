"""`python -m cardsim` runs the same command line as the `cardsim` script."""

from cardsim.cli import main

main()
