"""`python -m cardsim` runs the same command line as the `cardsim` script."""

import sys

try:
    from cardsim.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line loads: nothing ran yet
    print("interrupted: nothing ran", file=sys.stderr)
    sys.exit(130)

main()
