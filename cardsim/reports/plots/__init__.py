"""Figures per game (``<game>.py``, owned by each game) and shared chart shapes (``common.py``)."""
