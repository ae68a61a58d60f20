"""Game simulators: one sub-package per game, plus `core` for what they share."""
