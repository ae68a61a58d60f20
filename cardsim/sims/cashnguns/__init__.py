"""Cash'n Guns (first edition, seed 004_1e0bffc2eaca2406.txt): loot, bullets, seven phases,
strategies, a compiled batch kernel and a plain-Python reference engine."""
