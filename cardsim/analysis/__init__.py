"""Turning episode rows into tables, intervals, payoff matrices and recommendations."""
