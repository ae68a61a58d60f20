"""Cash'n Guns (first edition, seed 004_1e0bffc2eaca2406.txt): loot, bullets, seven phases,
strategies, a compiled batch kernel and a plain-Python reference engine."""

from pathlib import Path

#: Package data: the final strategy library of every reading's discover run, with provenance
#: (read by the analysis and the report; written by ``cardsim cashnguns libraries``).
SHIPPED_LIBRARIES = Path(__file__).resolve().parent / "data" / "libraries.json"
